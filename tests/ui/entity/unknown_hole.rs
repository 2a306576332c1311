use ddb_entity::Entity;
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{custmer_id}", sk = "ORDER#{placed}#{id}")]
pub struct Order {
    pub customer_id: u64,
    pub order_id: u64,
    pub placed: u32,
}

fn main() {}
