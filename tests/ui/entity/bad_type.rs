use ddb_entity::Entity;
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

// The type attribute's value is a word: not empty, no `#`.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, type = "", pk = "CUST#{id}", sk = "PROFILE")]
pub struct Customer {
    pub id: u64,
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, type = "ORDER#LINE", pk = "CUST#{id}", sk = "LINE#{n}")]
pub struct Line {
    pub id: u64,
    pub n: u32,
}

fn main() {
    let _ = (Customer::TYPE_TAG, Line::TYPE_TAG);
}
