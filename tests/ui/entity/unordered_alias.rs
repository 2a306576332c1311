use ddb_entity::key::Unordered;
use ddb_entity::Entity;
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK", typed_by: Key } }

// Spelled through an alias, the derive cannot see that the hole does not
// sort; the key part says so, and the build stops at the hole.
type LineNumber = Unordered<u32>;

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "ORDER#{order}", sk = "LINE#{line}")]
pub struct Line {
    pub order: String,
    pub line: LineNumber,
}

fn main() {}
