use ddb_entity::{Collection, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
pub struct Customer {
    pub id: u64,
}

// #[derive(Collection)] writes the Default impl itself.
#[derive(Collection, Default)]
pub struct View {
    pub customer: Option<Customer>,
}

fn main() {}
