use ddb_entity::Entity;
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

// No count.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "DAY#{day}#{shard(id)}", sk = "EVENT#{id}")]
pub struct NoCount { pub day: u32, pub id: u64 }

// One shard is no sharding.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "DAY#{day}#{shard(id) % 1}", sk = "EVENT#{id}")]
pub struct OneShard { pub day: u32, pub id: u64 }

// Zero shards.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "DAY#{day}#{shard(id) % 0}", sk = "EVENT#{id}")]
pub struct NoShards { pub day: u32, pub id: u64 }

// Too many: every query of the partition sends one request per shard.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "DAY#{day}#{shard(id) % 4096}", sk = "EVENT#{id}")]
pub struct TooMany { pub day: u32, pub id: u64 }

// Not a number.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "DAY#{day}#{shard(id) % many}", sk = "EVENT#{id}")]
pub struct NotANumber { pub day: u32, pub id: u64 }

// No field to choose the shard.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "DAY#{day}#{shard() % 8}", sk = "EVENT#{id}")]
pub struct NoFields { pub day: u32, pub id: u64 }

// A field named twice.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "DAY#{day}#{shard(id, id) % 8}", sk = "EVENT#{id}")]
pub struct Twice { pub day: u32, pub id: u64 }

// Not a field name.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "DAY#{day}#{shard(id + 1) % 8}", sk = "EVENT#{id}")]
pub struct NotAName { pub day: u32, pub id: u64 }

// Unclosed.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "DAY#{day}#{shard(id % 8}", sk = "EVENT#{id}")]
pub struct Unclosed { pub day: u32, pub id: u64 }

fn main() {
    // The key functions exist as declared: nothing more is reported.
    let _ = NoCount::key(1u32, 2u64);
    let _ = OneShard::partition(1u32);
    let _ = NoShards::key(1u32, 2u64);
    let _ = TooMany::partition(1u32);
    let _ = NotANumber::key(1u32, 2u64);
    let _ = NoFields::partition(1u32);
    let _ = Twice::key(1u32, 2u64);
    let _ = NotAName::partition(1u32);
    let _ = Unclosed::key(1u32, 2u64);
}
