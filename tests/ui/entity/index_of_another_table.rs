use ddb_entity::Entity;
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
ddb_entity::table! {
    pub struct Other {
        partition_key: "PK",
        sort_key: "SK",
        indexes: { pub OtherGsi = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } },
    }
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
#[entity(index = OtherGsi, pk = "X#{id}", sk = "Y")]
pub struct Customer {
    pub id: u64,
}

fn main() {}
