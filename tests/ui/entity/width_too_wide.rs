use ddb_entity::Entity;
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{id}", sk = "ADDR#{seq:4}")]
pub struct Address {
    pub id: u64,
    pub seq: u8,
}

fn main() {}
