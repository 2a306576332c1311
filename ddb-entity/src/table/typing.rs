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
/// # Example
///
/// ```
/// use ddb_entity::{Table, Typing};
/// ddb_entity::table! {
///     /// A table designed by hand, with no type attribute.
///     pub struct Legacy { partition_key: "PK", sort_key: "SK", typed_by: Key }
/// }
/// assert_eq!(Legacy::SCHEMA.typing, Typing::Key);
/// assert!(!Legacy::SCHEMA.typing.writes_type_attribute());
/// assert!(Legacy::SCHEMA.typing.reads_keys());
/// assert!(Typing::KeyAndAttribute.writes_type_attribute() && Typing::KeyAndAttribute.reads_keys());
/// assert!(!Typing::Attribute.reads_keys());
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
    ///
    /// See [the example](Typing#example).
    pub const fn writes_type_attribute(self) -> bool {
        !matches!(self, Typing::Key)
    }

    /// Whether writes store write tokens unless `table!` says otherwise
    /// (`write_tokens: true | false`): on, but for [`Typing::Key`].
    ///
    /// A table typed by key is one other code writes in its own format,
    /// and the token attribute (`_wt` and 21 characters) is the one
    /// attribute the library would add to it. Without it, writes leave
    /// the items byte for byte as the other writers do, and lose exactly
    /// this, for a write whose answer was lost (a timeout, a cut
    /// connection) and that the SDK resends:
    ///
    /// - an **update or upsert** is applied again: idempotent changes
    ///   (`set`, `remove`) end the same, but an `add`, a counter, a list
    ///   `append` or a set operation counts twice, and a versioned or
    ///   conditional update reports the conflict its own first attempt
    ///   made ([`ErrorKind::VersionConflict`](crate::error::ErrorKind::VersionConflict),
    ///   [`ErrorKind::ConditionFailed`](crate::error::ErrorKind::ConditionFailed))
    ///   although it was applied;
    /// - a **create** reports [`ErrorKind::AlreadyExists`](crate::error::ErrorKind::AlreadyExists)
    ///   for the item it created, a **versioned or conditional put** a
    ///   conflict of its own making, and `put(…).returning_old()` returns
    ///   its own first attempt's item as the old one;
    /// - where no answer came back at all, no read can tell whether the
    ///   write was applied: the error is
    ///   [`is_retryable`](crate::error::Error::is_retryable) and the outcome
    ///   unknown;
    /// - a **transaction** keeps DynamoDB's own idempotency token
    ///   (`ClientRequestToken`, ten minutes): exactly once on DynamoDB,
    ///   but a server that ignores it (moto) applies a resend again.
    ///
    /// Plain puts, deletes and batch writes carry no token anyway, and
    /// every failure that is not an ambiguous resend is reported as with
    /// tokens. Declare `write_tokens: true` to keep the guarantees at the
    /// price of the attribute.
    ///
    /// ```
    /// use ddb_entity::{Table, Typing};
    /// ddb_entity::table! {
    ///     /// Other code's format, kept exactly.
    ///     pub struct Legacy { partition_key: "PK", sort_key: "SK", typed_by: Key }
    /// }
    /// ddb_entity::table! {
    ///     /// Other code's format, plus the library's write tokens.
    ///     pub struct Tokened { partition_key: "PK", sort_key: "SK", typed_by: Key, write_tokens: true }
    /// }
    /// assert!(!Typing::Key.default_write_tokens());
    /// assert!(!Legacy::SCHEMA.write_tokens);
    /// assert!(Tokened::SCHEMA.write_tokens);
    /// ```
    pub const fn default_write_tokens(self) -> bool {
        !matches!(self, Typing::Key)
    }

    /// Whether an item without a type attribute is recognised by its keys.
    ///
    /// See [the example](Typing#example).
    pub const fn reads_keys(self) -> bool {
        !matches!(self, Typing::Attribute)
    }
}
