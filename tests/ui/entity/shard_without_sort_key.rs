use ddb_entity::Entity;
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct Sessions { partition_key: "PK" } }

// One item per partition key: sharding it would hold one item per shard.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = Sessions, pk = "SESSION#{token}#{shard(token) % 8}", type = "SESSION")]
pub struct Session { pub token: String }

fn main() {
    let _ = Session::key("t");
}
