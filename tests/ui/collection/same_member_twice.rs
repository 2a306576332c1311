use ddb_entity::{Collection, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{id}", sk = "ORDER#{order_id}")]
pub struct Order {
    pub id: u64,
    pub order_id: u64,
}

#[derive(Collection)]
pub struct View {
    pub latest: Option<Order>,
    pub orders: Vec<Order>,
}

#[derive(Collection)]
pub enum Item {
    Order(Order),
    Again(Order),
}

fn main() {}
