use ddb_entity::Entity;
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "TICKET#{id}", sk = "OPEN#{open_since}")]
pub struct Ticket {
    pub id: u64,
    pub open_since: Option<u32>,
}

fn main() {}
