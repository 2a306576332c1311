use ddb_entity::Entity;
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST{id}", sk = "ORDER#{id")]
pub struct MixedAndUnclosed {
    pub id: u64,
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "", sk = "A##B")]
pub struct EmptyTemplateAndSegment {
    pub id: u64,
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "ID#{id}#{id}", sk = "X#{a}{b}#{n:0}")]
pub struct RepeatedHoleTwoHolesBadWidth {
    pub id: u64,
    pub a: u64,
    pub b: u64,
    pub n: u64,
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "T#{r#type}", sk = "X")]
pub struct RawIdentifier {
    pub r#type: u64,
}

fn main() {}
