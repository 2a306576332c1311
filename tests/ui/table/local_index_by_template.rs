use ddb_entity::Entity;
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    pub struct App {
        partition_key: "PK",
        sort_key: "SK",
        local_indexes: { pub ByStatus = "ByStatus" { sort_key: "status" } },
    }
}

// A local index keeps the table's partition key: it is filled by a field,
// not by `index = …` templates.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{id}", sk = "ORDER#{order}")]
#[entity(index = ByStatus, pk = "CUST#{id}", sk = "{status}")]
pub struct Order {
    pub id: u64,
    pub order: u64,
    pub status: String,
}

fn main() {}
