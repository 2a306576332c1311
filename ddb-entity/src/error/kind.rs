//! The kinds of failure, for code that branches on them.

/// What kind of failure an [`Error`](crate::error::Error) is, for code that
/// branches on it: `match err.kind() { ErrorKind::NotFound => …, _ => … }`.
///
/// Kinds are fieldless; the details are in the error's message and its
/// accessors ([`Error::item_key`](crate::error::Error::item_key),
/// [`Error::cancellation_reasons`](crate::error::Error::cancellation_reasons), …).
/// New kinds may be added in minor releases.
///
/// ```
/// use ddb_entity::{Error, ErrorKind, key::KeyError};
///
/// /// The HTTP status a service answers with: the client's fault, a
/// /// conflict, an outage worth retrying, or a misconfiguration to fix.
/// fn status(err: &Error) -> u16 {
///     match err.kind() {
///         ErrorKind::Key | ErrorKind::InvalidCursor => 400,
///         ErrorKind::NotFound => 404,
///         ErrorKind::AlreadyExists | ErrorKind::VersionConflict => 409,
///         ErrorKind::Misconfigured => 500,
///         _ if err.is_retryable() => 503,
///         _ => 500,
///     }
/// }
/// assert_eq!(status(&Error::from(KeyError::EmptyKey)), 400);
/// let malformed = "not a cursor".parse::<ddb_entity::Cursor>().unwrap_err();
/// assert_eq!(malformed.kind(), ErrorKind::InvalidCursor);
/// assert_eq!(status(&malformed), 400);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A key value could not be encoded (a NaN, a number wider than its
    /// declared width, an empty partition key, a key over DynamoDB's
    /// length limit) or a stored key could not be parsed; nothing was sent.
    Key,
    /// DynamoDB, or the HTTP layer under the SDK, answered a request with
    /// an error; the SDK's error is the [`source`](std::error::Error::source).
    Service,
    /// The deployment is misconfigured, and no retry can fix it: no region,
    /// credentials missing or refused, an endpoint that is not DynamoDB, a
    /// table that does not exist.
    /// [`Error::misconfiguration`](crate::Error::misconfiguration) says
    /// which, and the message what to check.
    Misconfigured,
    /// An entity (or a value in an update or condition) could not be
    /// written as DynamoDB attributes.
    Encode,
    /// An item could not be read back into an entity: a missing field, a
    /// value of another type.
    Decode,
    /// An item's stored key (its partition and sort key, or an index key
    /// it carries) is not the key of the value its body decodes to: it was
    /// written by other code, or copied under another key. Never returned
    /// as if valid.
    KeyMismatch,
    /// An item's type attribute names another entity type than the one
    /// asked for, or is missing. For a write (update, delete, put): the
    /// item at the key was left untouched.
    WrongType,
    /// A write was applied, but the item it left could not be decoded (an
    /// update returning the entity, of an item with an ill-typed field).
    /// Sending the write again as a new call would apply it twice.
    DecodeAfterWrite,
    /// A query met an item of a type its collection does not hold (with
    /// [`UnknownItems::Error`](crate::collection::UnknownItems::Error)).
    UnknownType,
    /// On a table typed by key, an item's keys parse as the templates of
    /// two members of a collection, so which one it is cannot be told.
    AmbiguousKey,
    /// On a table typed by key, a filter given for one entity of a read
    /// that returns several could not be confined to that entity's items
    /// on the server (their keys can begin alike, or a Query's filter
    /// cannot name its own keys); refused before any request rather than
    /// sent to drop the other entities' items.
    AmbiguousFilter,
    /// A collection field of `Option<E>` met a second `E`, or a query's
    /// [`one`](crate::read::Query::one) found more than one item.
    MoreThanOne,
    /// A field of the entity serialises under the name of an attribute the
    /// library writes itself (a key attribute, the type attribute).
    AttributeClash,
    /// A create found its key taken; nothing was written.
    AlreadyExists,
    /// An update found no item at its key; nothing was written.
    NotFound,
    /// A versioned write found another version stored.
    VersionConflict,
    /// A write's own condition (the caller's
    /// [`Condition`](crate::expr::Condition)) did not hold; nothing was written.
    /// The SDK's `ConditionalCheckFailedException` is its source.
    ConditionFailed,
    /// A versioned entity's version cannot grow any further.
    VersionOverflow,
    /// An update changes an index key template field without the
    /// template's other fields.
    MissingKeyField,
    /// An update with nothing to change.
    EmptyUpdate,
    /// An upsert whose fields cannot make an item of its entity (a field a
    /// new item needs, or an index key, left out; a place inside a field,
    /// which DynamoDB cannot set in an item that does not exist); nothing
    /// was sent.
    IncompleteUpsert,
    /// An item over DynamoDB's 400 KB limit; nothing was sent.
    ItemTooLarge,
    /// A number DynamoDB cannot store; nothing was sent.
    InvalidNumber,
    /// An empty set, which DynamoDB cannot store; nothing was sent.
    EmptySet,
    /// A condition, filter or update expression DynamoDB would refuse (an
    /// `IN` of no or more than 100 values, a filter on a key attribute, a
    /// document path in an upsert, …); nothing was sent.
    InvalidExpression,
    /// A query cursor that does not parse, is not for this query, or — on
    /// a handle that seals its cursors — is not sealed, does not
    /// authenticate, or has expired; nothing was sent.
    /// [`Error::cursor_fault`](crate::error::Error::cursor_fault) says which.
    InvalidCursor,
    /// A page's cursor could not be sealed: the operating system's random
    /// number generator failed. Reading the page again may succeed.
    SealFailed,
    /// A batch addresses one key twice; nothing was sent.
    DuplicateKey,
    /// A versioned entity in a batch write, which cannot check its version.
    VersionedInBatch,
    /// A batch read names an entity type its collection does not hold, or
    /// a read transaction's result is asked for a key it did not read.
    NotInCollection,
    /// Some writes of a batch were not processed.
    UnprocessedWrites,
    /// Some keys of a batch read were not answered.
    UnprocessedKeys,
    /// An action of a transaction could not be built; nothing was sent.
    InvalidAction,
    /// Two actions of one transaction address the same item.
    DuplicateAction,
    /// A transaction over DynamoDB's limits (100 actions, 4 MB).
    TransactionTooLarge,
    /// An idempotency token DynamoDB would refuse.
    InvalidToken,
    /// DynamoDB canceled a transaction; nothing was written.
    TransactionCanceled,
    /// Something built for one table was given to an operation on another.
    WrongTable,
    /// The table exists, but its keys or indexes differ from the declaration.
    SchemaMismatch,
    /// The declared schema or table name is one DynamoDB refuses.
    InvalidSchema,
    /// A table or index did not become `ACTIVE` in time.
    NotActive,
    /// The SDK refused to build a request from the parts given.
    RequestBuild,
    /// A stream record is not of this table: its keys are not the table's
    /// key attributes, or it came from another table's stream.
    ForeignRecord,
    /// A stream record that cannot be read as DynamoDB documents it: an
    /// unknown event name, an image its view type promises but it lacks,
    /// an image stored under another key than the record's.
    MalformedRecord,
    /// A table has no enabled stream to read.
    NoStream,
    /// An update of an entity with schema versions met an item stored at
    /// an older version: read and put it, or backfill the entity first.
    StaleSchema,
}
