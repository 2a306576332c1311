use ddb_entity::Entity;
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

#[derive(Serialize, Deserialize)]
pub struct Money {
    pub cents: i64,
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{id}", sk = "BALANCE#{balance}")]
pub struct Balance {
    pub id: u64,
    pub balance: Money,
}

fn main() {}
