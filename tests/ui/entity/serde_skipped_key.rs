use ddb_entity::Entity;
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
pub struct Customer {
    #[serde(skip)]
    pub id: u64,
}

fn main() {}
