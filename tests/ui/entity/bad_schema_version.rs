use ddb_entity::Entity;
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

#[derive(Serialize, Deserialize)]
pub struct V1 {
    pub id: u64,
}

#[derive(Serialize, Deserialize)]
pub struct V2 {
    pub id: u64,
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "A#{id}", sk = "A", schema_version = 0)]
pub struct FromZero {
    pub id: u64,
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "B#{id}", sk = "B", upcast = [V1])]
pub struct UpcastWithoutVersion {
    pub id: u64,
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "C#{id}", sk = "C", schema_version = 2, upcast = [V1, V2])]
pub struct LongerChainThanVersions {
    pub id: u64,
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "D#{id}", sk = "D", schema_version = "3", upcast = V1)]
pub struct NotANumberNorAList {
    pub id: u64,
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "E#{id}", sk = "E", schema_version = 3, upcast = [V1, V2])]
pub struct MissingConversion {
    pub id: u64,
}

impl From<V1> for V2 {
    fn from(v: V1) -> Self {
        V2 { id: v.id }
    }
}

fn main() {}
