use ddb_entity::Entity;
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "X#{0}", sk = "Y")]
pub struct Tuple(pub u64);

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "X", sk = "Y")]
pub enum Kind {
    A,
}

fn main() {}
