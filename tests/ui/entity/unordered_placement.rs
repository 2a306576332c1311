use ddb_entity::key::Unordered;
use ddb_entity::Entity;
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    pub struct App {
        partition_key: "PK",
        sort_key: "SK",
        typed_by: Key,
        indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } },
    }
}

// An unpadded number before another hole: a prefix through it would cut
// `LINE#1` out of `LINE#12`.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "ORDER#{order}", sk = "LINE#{line}#{sku}")]
#[entity(index = Gsi1, pk = "SKU#{sku}", sk = "{line}#ORDER#{order}")]
pub struct Line {
    pub order: String,
    pub line: Unordered<u32>,
    pub sku: String,
}

// In a partition key it may stand anywhere: nothing sorts there.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "SHELF#{shelf}#{aisle}", sk = "BIN#{bin}")]
pub struct Bin {
    pub shelf: Unordered<u16>,
    pub aisle: Unordered<u16>,
    pub bin: Unordered<u32>,
}

fn main() {}
