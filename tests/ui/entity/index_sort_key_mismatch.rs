use ddb_entity::Entity;
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    pub struct App {
        partition_key: "PK",
        sort_key: "SK",
        indexes: {
            pub ByEmail = "ByEmail" { partition_key: "EMAIL" },
            pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
        },
    }
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "USER#{id}", sk = "PROFILE")]
#[entity(index = ByEmail, pk = "{email}", sk = "USER#{id}")]
#[entity(index = Gsi1, pk = "USER#{id}")]
pub struct User {
    pub id: u64,
    pub email: String,
}

fn main() {}
