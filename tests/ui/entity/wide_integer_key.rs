use ddb_entity::Entity;
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

// u128/i128 have a key encoding, but no item body can hold them.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "ACCOUNT#{id}", sk = "ENTRY#{amount}")]
pub struct Entry {
    pub id: u128,
    pub amount: i128,
}

fn main() {}
