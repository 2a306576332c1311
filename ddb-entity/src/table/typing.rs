//! How a table's items say which entity they are.

/// How the items of a table say which entity they are, declared with
/// `typed_by` in [`table!`](crate::table!).
///
/// A table written by this library from the start stores a type attribute
/// on every item ([`Typing::Attribute`]). A table designed by hand and
/// written by other code usually has none: its keys are its types
/// (`PK=USER#…`, `SK=ORDER#…`). Declaring [`Typing::Key`] adopts such a
/// table as it is: reads recognise an entity by a full parse of its stored
/// keys against the entity's templates, collections route each item to the
/// one member whose templates its keys match, and writes add no type
/// attribute.
///
/// ```
/// use ddb_entity::{Table, Typing};
/// ddb_entity::table! {
///     /// A table designed by hand, with no type attribute.
///     pub struct Legacy { partition_key: "PK", sort_key: "SK", typed_by: Key }
/// }
/// assert_eq!(Legacy::SCHEMA.typing, Typing::Key);
/// assert!(!Legacy::SCHEMA.typing.writes_type_attribute());
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Typing {
    /// Every item stores its entity type in the table's type attribute;
    /// reads and collections go by it.
    #[default]
    Attribute,
    /// Items carry no type attribute: an item is the entity whose key
    /// templates its stored keys parse against. Writes add no type
    /// attribute, and every typed read parses the stored keys.
    Key,
    /// Items written by this library store the type attribute, items
    /// written by other code may not: an item with a type attribute goes
    /// by it, one without by its keys. For a table being adopted while
    /// other writers still run.
    KeyAndAttribute,
}

impl Typing {
    /// Whether writes store the type attribute.
    pub const fn writes_type_attribute(self) -> bool {
        !matches!(self, Typing::Key)
    }

    /// Whether an item without a type attribute is recognised by its keys.
    pub const fn reads_keys(self) -> bool {
        !matches!(self, Typing::Attribute)
    }
}
