use ddb_entity::Entity;
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{placed}#{order_id}")]
pub struct Order {
    pub customer_id: u64,
    pub order_id: u64,
    pub placed: u32,
}

fn main() {
    // A string where the template has a u64.
    let _ = Order::partition("42");
    // Sort keys are cut from the left: `order_id` needs `placed` first.
    let _ = Order::sk().order_id(7);
}
