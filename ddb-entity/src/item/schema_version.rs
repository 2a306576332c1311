//! Where an item records the schema version it was written at: an item
//! rule every write and read shares, below the entities that write it and
//! the evolution jobs that rewrite it.

/// The attribute holding an item's schema version, written by entities
/// that declare `#[entity(schema_version = N)]` (a number; an item without
/// it is read as version 1, written before versions were declared). Like
/// the type attribute it is the library's: an entity field stored under
/// this name is refused.
///
/// ```
/// use ddb_entity::{Entity, item::SCHEMA_VERSION_ATTRIBUTE, sdk::types::AttributeValue};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "DOC#{id}", sk = "DOC", schema_version = 2, upcast = [DocV1])]
/// struct Doc { id: u64, title: String }
///
/// /// Version 1 had no title.
/// #[derive(Deserialize)]
/// struct DocV1 { id: u64 }
/// impl From<DocV1> for Doc {
///     fn from(old: DocV1) -> Self { Doc { id: old.id, title: String::new() } }
/// }
///
/// let item = Doc { id: 1, title: "Plan".into() }.to_item()?;
/// assert_eq!(SCHEMA_VERSION_ATTRIBUTE, "_sv");
/// assert_eq!(item[SCHEMA_VERSION_ATTRIBUTE], AttributeValue::N("2".into()));
/// # Ok::<(), ddb_entity::Error>(())
/// ```
pub const SCHEMA_VERSION_ATTRIBUTE: &str = "_sv";
