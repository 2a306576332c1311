use ddb_entity::Entity;
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    pub struct App {
        partition_key: "PK",
        sort_key: "SK",
        indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } },
    }
}

fn day_of(at: &u64) -> u32 {
    (*at / 86_400) as u32
}

// A field the struct does not have.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "DAY#{day}#{shard(event_idd) % 8}", sk = "EVENT#{event_id}")]
pub struct Unknown { pub day: u32, pub event_id: u64 }

// The table's partition is sharded by a field outside the primary key:
// a get by key could not compute the shard.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "DAY#{day}#{shard(region) % 8}", sk = "EVENT#{event_id}")]
pub struct OutsideTheKey { pub day: u32, pub event_id: u64, pub region: String }

// Every item of the partition has the same `day`: one shard for all.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "DAY#{day}#{shard(day) % 8}", sk = "EVENT#{event_id}")]
pub struct Useless { pub day: u32, pub event_id: u64 }

// An item without a region would have no shard.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "EVENT#{event_id}", sk = "EVENT")]
#[entity(index = Gsi1, pk = "OPEN#{shard(region) % 8}", sk = "{event_id}")]
pub struct Optional { pub event_id: u64, pub region: Option<String> }

// Not stored: could not be hashed again from a stored item.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "EVENT#{event_id}", sk = "EVENT")]
#[entity(index = Gsi1, pk = "OPEN#{shard(scratch) % 8}", sk = "{event_id}")]
pub struct Skipped {
    pub event_id: u64,
    #[serde(skip)]
    pub scratch: u64,
}

// A computed value: the shard names stored fields.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "EVENT#{event_id}", sk = "EVENT")]
#[entity(computed = day: u32 = day_of(at))]
#[entity(index = Gsi1, pk = "OPEN#{shard(day) % 8}", sk = "{event_id}")]
pub struct Computed { pub event_id: u64, pub at: u64 }

// A field with no key encoding.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "EVENT#{event_id}", sk = "EVENT")]
#[entity(index = Gsi1, pk = "OPEN#{shard(tags) % 8}", sk = "{event_id}")]
pub struct NotAKeyPart { pub event_id: u64, pub tags: Vec<u8> }

#[derive(Serialize, Deserialize)]
pub struct Money(u64);

// A type that implements no `KeyPart`: reported once, at the shard's field.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "EVENT#{event_id}", sk = "EVENT")]
#[entity(index = Gsi1, pk = "OPEN#{shard(price) % 8}", sk = "{event_id}")]
pub struct NoEncoding { pub event_id: u64, pub price: Money }

fn main() {
    let _ = Unknown::partition(1u32);
    let _ = OutsideTheKey::key(1u32, 2u64);
    let _ = Useless::partition(1u32);
    let _ = Optional::gsi1_partition();
    let _ = Skipped::gsi1_partition();
    let _ = Computed::gsi1_partition();
    let _ = NotAKeyPart::gsi1_partition();
    let _ = NoEncoding::gsi1_partition();
    let _ = NoEncoding { event_id: 1, price: Money(2) }.index_entries();
}
