//! Where an item records the schema version it was written at: an item
//! rule every write and read shares, below the entities that write it and
//! the evolution jobs that rewrite it.

/// The attribute holding an item's schema version, written by entities
/// that declare `#[entity(schema_version = N)]` (a number; an item without
/// it is read as version 1, written before versions were declared). Like
/// the type attribute it is the library's: an entity field stored under
/// this name is refused.
pub const SCHEMA_VERSION_ATTRIBUTE: &str = "_sv";
