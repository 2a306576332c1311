use ddb_entity::Entity;
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "A#{id}", sk = "A", created_at = "created")]
pub struct UnknownField {
    pub id: u64,
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "B#{id}", sk = "B", updated_at = "updated")]
pub struct NotATimestamp {
    pub id: u64,
    pub updated: String,
}

fn main() {}
