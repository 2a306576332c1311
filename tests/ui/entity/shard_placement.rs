use ddb_entity::Entity;
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    pub struct App {
        partition_key: "PK",
        sort_key: "SK",
        indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } },
    }
}

// A sort key orders the items of a partition: it is never sharded.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "DAY#{day}", sk = "EVENT#{id}#{shard(id) % 8}")]
pub struct InSortKey { pub day: u32, pub id: u64 }

// The shard ends the partition key.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "ORDER#{id}", sk = "ORDER")]
#[entity(index = Gsi1, pk = "STATUS#{shard(id) % 8}#{status}", sk = "{id}")]
pub struct NotLast { pub id: u64, pub status: String }

// The shard is a segment of its own.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "ORDER#{id}", sk = "ORDER")]
#[entity(index = Gsi1, pk = "STATUS#{status}#S{shard(id) % 8}", sk = "{id}")]
pub struct SharesSegment { pub id: u64, pub status: String }

// One shard per key.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "ORDER#{id}", sk = "ORDER")]
#[entity(index = Gsi1, pk = "STATUS#{shard(id) % 8}#{shard(status) % 4}", sk = "{id}")]
pub struct TwoShards { pub id: u64, pub status: String }

fn main() {
    let _ = InSortKey::key(1u32, 2u64);
    let _ = InSortKey::sk().id(2u64);
    let _ = NotLast::gsi1_partition("open");
    let _ = SharesSegment::gsi1_partition("open");
    let _ = TwoShards::gsi1_partition();
}
