use ddb_entity::Entity;
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

#[derive(Entity, Serialize, Deserialize)]
#[entity(pk = "CUST#{id}", sk = "PROFILE")]
pub struct NoTable {
    pub id: u64,
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App)]
pub struct NoKeys {
    pub id: u64,
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{id}", sk = "{id}")]
pub struct NoTypePrefix {
    pub id: u64,
}

fn main() {}
