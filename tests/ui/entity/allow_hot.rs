use ddb_entity::Entity;
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    pub struct App {
        partition_key: "PK",
        sort_key: "SK",
        indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } },
    }
}

// An allowance says why.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CONFIG", sk = "{name}", type = "CONFIG", allow_hot = " ")]
pub struct NoReason { pub name: String }

// A sharded key is not hot: nothing to allow.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "ORDER#{id}", sk = "ORDER")]
#[entity(index = Gsi1, pk = "OPEN#{shard(id) % 8}", sk = "{id}", allow_hot = "busy")]
pub struct Sharded { pub id: u64 }

// A reason is text.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CONFIG", sk = "{name}", type = "CONFIG", allow_hot = true)]
pub struct NotText { pub name: String }

fn main() {
    let _ = NoReason::key("a");
    let _ = Sharded::gsi1_partition();
    let _ = NotText::key("a");
}
