use ddb_entity::Entity;
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

// `key_fields` takes one of two ways to store the key's fields.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{customer_id}", sk = "PROFILE", key_fields = "both")]
pub struct Customer {
    pub customer_id: u64,
    pub name: String,
}

fn main() {
    let _ = Customer::key(1);
}
