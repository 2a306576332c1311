use ddb_entity::{Collection, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
pub struct Customer {
    pub id: u64,
}

#[derive(Collection)]
pub struct Tuple(Option<Customer>);

#[derive(Collection)]
pub struct Unit;

#[derive(Collection)]
pub union Union {
    customer: std::mem::ManuallyDrop<Option<Customer>>,
}

#[derive(Collection)]
pub struct Generic<T> {
    pub customer: Option<Customer>,
    pub extra: Vec<T>,
}

fn main() {}
