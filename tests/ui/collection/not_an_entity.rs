use ddb_entity::{Collection, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
pub struct Customer {
    pub id: u64,
}

#[derive(Collection)]
pub struct View {
    pub customer: Option<Customer>,
    pub notes: Vec<String>,
}

#[derive(Collection)]
pub enum Item {
    Customer(Customer),
    Count(u32),
}

// The first member names the collection's table: reported once, not once
// per member.
#[derive(Collection)]
pub struct FirstIsNot {
    pub notes: Vec<String>,
    pub customer: Option<Customer>,
}

fn main() {}
