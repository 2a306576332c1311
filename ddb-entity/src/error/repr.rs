//! What went wrong, in detail: the private inside of [`Error`](super::Error).

use std::fmt;
use std::time::Duration;

use super::text::a;
use super::{ActionKind, CancellationReason, CursorFault, ErrorKind, PendingKey, PendingWrite};
use crate::key::KeyError;

/// A boxed error that is not ours: a serializer's, the SDK's builder's.
pub(crate) type Cause = Box<dyn std::error::Error + Send + Sync>;

/// Every failure the crate reports, with what its message needs. Private:
/// users see [`ErrorKind`], the predicates and the accessors, so variants
/// can change freely.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Repr {
    #[error("{}", KeyMessage { entity: *.entity, field: *.field, source })]
    Key {
        entity: Option<&'static str>,
        field: Option<&'static str>,
        source: KeyError,
    },

    #[error(
        "invalid key: the `{index}` key attribute `{attribute}` of {} cannot be written: {source}; nothing was sent",
        a(entity.unwrap_or("item"))
    )]
    IndexKey {
        entity: Option<&'static str>,
        index: &'static str,
        attribute: &'static str,
        source: KeyError,
    },

    #[error(
        "invalid key: `{entity}` holds {found} in `{attribute}`, a key attribute of type {expected} of index `{index}`, which DynamoDB refuses; nothing was sent: store a non-empty {expected} there (or rename the field)"
    )]
    IndexAttribute {
        entity: &'static str,
        index: &'static str,
        attribute: String,
        expected: &'static str,
        found: &'static str,
    },

    #[error("{operation} on table `{table}` failed: {}{}", ServiceReason(.code.as_deref(), .message.as_deref(), .misconfigured.is_none()), Check(*.misconfigured))]
    Service {
        operation: &'static str,
        table: String,
        /// The service's error code, `None` when no answer was read.
        code: Option<String>,
        /// The service's message, or the innermost cause without an answer.
        message: Option<String>,
        /// Sending the same request again may succeed.
        transient: bool,
        /// No resend can succeed: the deployment is misconfigured.
        misconfigured: Option<super::Misconfiguration>,
        #[source]
        source: Box<aws_sdk_dynamodb::Error>,
    },

    // Made only by the production client (feature `client`).
    #[error("{operation} failed: {detail}; {what}")]
    #[cfg_attr(not(feature = "client"), allow(dead_code))]
    Misconfigured {
        operation: &'static str,
        what: super::Misconfiguration,
        detail: String,
    },

    #[error("could not encode {} as DynamoDB attributes: {source}", a(entity))]
    Encode {
        entity: &'static str,
        #[source]
        source: Cause,
    },

    #[error("cannot decode {}: {source}", DecodeWhat { entity, field: field.as_deref(), at })]
    Decode {
        entity: &'static str,
        /// Where the item is stored.
        at: ItemAt,
        /// The entity field that failed (its top-level attribute), when known.
        field: Option<String>,
        #[source]
        source: Cause,
    },

    #[error(
        "`{entity}` writes attribute {attribute} twice: as the table's key `{table}`, and as index `{index}`'s key `{written}`; an index keyed by the table's attributes must write them alike — declare a width on the partition key's hole (`{{id:10}}`), which writes the fixed-width form the index's sort key does"
    )]
    IndexKeyClash {
        entity: &'static str,
        index: &'static str,
        attribute: &'static str,
        /// What the table key wrote.
        table: String,
        /// What the index template writes.
        written: String,
    },

    #[error(
        "the item at {at} does not hold the {} it decodes to: {}; it was written by other code or stored under another key — rewrite it with this library (put the value), or read it with the raw SDK",
        Code(entity),
        Mismatch { attribute, stored: stored.as_deref(), expected }
    )]
    KeyMismatch {
        entity: &'static str,
        /// Where the item is stored.
        at: ItemAt,
        /// The first key attribute that differs.
        attribute: &'static str,
        /// Its stored value, `None` when the item has none (or not a string).
        stored: Option<String>,
        /// What the decoded value makes of it: a value, or why there is none.
        expected: Expected,
    },

    #[error("{}", WrongTypeMessage { entity, expected, found: found.as_deref() })]
    WrongType {
        entity: &'static str,
        expected: &'static str,
        /// The stored type attribute, `None` when the item has none.
        found: Option<String>,
    },

    #[error("{}", ForeignMessage { operation, entity, expected, found: found.as_deref(), partition, sort })]
    ForeignItem {
        operation: &'static str,
        entity: &'static str,
        expected: &'static str,
        /// The stored type attribute, `None` when the item has none.
        found: Option<String>,
        partition: String,
        sort: String,
    },

    #[error(
        "the {operation} of {} at {partition} / {sort} was applied, but the item it returned could not be read back: {source}; do not send it again as a new call (it would apply twice): repair the item",
        a(entity)
    )]
    DecodeAfterWrite {
        operation: &'static str,
        entity: &'static str,
        partition: String,
        sort: String,
        #[source]
        source: super::Error,
    },

    #[error("{}", UnknownTypeMessage { collection, found: found.as_deref(), at, type_attribute })]
    UnknownType {
        collection: &'static str,
        /// The item's type, `None` when it has no (string) type attribute.
        found: Option<String>,
        /// Where the item is stored.
        at: ItemAt,
        /// The table's type attribute, for the advice.
        type_attribute: &'static str,
    },

    #[error(
        "the item at {at} matches none of the key templates of `{collection}`'s members: it is another entity's or a foreign item; add its entity to the collection, or skip such items with UnknownItems::Skip (run a survey to list them)"
    )]
    UnmatchedKey {
        collection: &'static str,
        /// Where the item is stored.
        at: ItemAt,
    },

    #[error(
        "the item at {at} matches the key templates of both `{}` ({}) and `{}` ({}) in `{collection}`, so on a table typed by key it cannot be told which it is: make the templates disjoint (a different literal), or declare a type attribute (`typed_by: KeyAndAttribute`) and write the item with it",
        first.0, Templates(first.1), second.0, Templates(second.1)
    )]
    AmbiguousKey {
        collection: &'static str,
        /// Where the item is stored.
        at: ItemAt,
        /// The first two members whose templates its keys parse against.
        first: (&'static str, (&'static str, Option<&'static str>)),
        second: (&'static str, (&'static str, Option<&'static str>)),
    },

    #[error(
        "a filter on `{entity}` in a read of `{collection}` was not sent: on a table typed by key the server knows an item's entity only from its keys, and {reason}; sent as it is, it would drop the other entities' items too. Read `{entity}` alone with the filter (a `Vec<{entity}>` over its typed sort-key range), or filter the collected items in Rust"
    )]
    AmbiguousFilter {
        entity: &'static str,
        collection: &'static str,
        reason: String,
    },

    #[error(
        "the item at {at} is not {}: its keys do not parse as its key templates {}; it is another entity's or a foreign item (a key in another case, another delimiter or format than the templates say)",
        a(entity), Templates(*templates)
    )]
    KeyNotOfEntity {
        entity: &'static str,
        templates: (&'static str, Option<&'static str>),
        /// Where the item is stored.
        at: ItemAt,
    },

    #[error(
        "`{collection}` holds one `{entity}` but the query returned more than one: make the field a Vec<{entity}>"
    )]
    MoreThanOne {
        collection: &'static str,
        entity: &'static str,
    },

    #[error(
        "expected at most one `{entity}` in the partition {partition} of {}, but the query found more: the lookup is not unique (`first` takes the first)",
        IndexName(*.index)
    )]
    NotUnique {
        entity: &'static str,
        /// The index queried, `None` for the table.
        index: Option<&'static str>,
        partition: String,
    },

    #[error(
        "`{entity}` has a field serialised as `{attribute}`, which the table uses for keys, the entity type or the write token; rename the field (e.g. #[serde(rename = \"…\")])"
    )]
    AttributeClash {
        entity: &'static str,
        attribute: &'static str,
    },

    #[error(
        "{} with key {partition} / {sort} already exists; use put to replace it",
        a(entity)
    )]
    AlreadyExists {
        entity: &'static str,
        partition: String,
        sort: String,
        #[source]
        source: super::Error,
    },

    #[error("no `{entity}` with key {partition} / {sort} to update; create it first")]
    NotFound {
        entity: &'static str,
        partition: String,
        sort: String,
    },

    #[error(
        "`{entity}` was changed by another writer: expected version {expected}, {}; read it again and retry",
        Found(*.found)
    )]
    VersionConflict {
        entity: &'static str,
        expected: u64,
        found: Option<u64>,
        partition: String,
        sort: String,
    },

    #[error(
        "the {operation} of {} at {partition} / {sort} was not applied: its condition did not hold",
        a(entity)
    )]
    ConditionFailed {
        operation: &'static str,
        entity: &'static str,
        partition: String,
        sort: String,
        #[source]
        source: super::Error,
    },

    #[error("the version of `{entity}` cannot grow past u64::MAX")]
    VersionOverflow { entity: &'static str },

    #[error(
        "updating `{entity}` changes index {index}'s key, which also needs `{field}`: set `{field}` in the same update (to its current value if unchanged)"
    )]
    MissingKeyField {
        entity: &'static str,
        index: &'static str,
        field: &'static str,
    },

    #[error(
        "the upsert of {} cannot be sent: {reason}; nothing was sent",
        a(entity)
    )]
    IncompleteUpsert {
        entity: &'static str,
        reason: String,
    },

    #[error("an update of `{entity}` with no changes: set, remove or add a field")]
    EmptyUpdate { entity: &'static str },

    #[error(
        "{} item is {size} bytes, over DynamoDB's item limit of {limit} bytes (400 KB); nothing was sent: keep large values elsewhere (e.g. S3) or split the entity",
        Capital(a(entity))
    )]
    ItemTooLarge {
        entity: &'static str,
        size: usize,
        limit: usize,
    },

    #[error(
        "`{entity}` holds {value} in `{attribute}`, which DynamoDB cannot store: {reason}; nothing was sent (store it as a string, or narrow the type)"
    )]
    InvalidNumber {
        entity: &'static str,
        attribute: String,
        value: String,
        reason: &'static str,
    },

    #[error(
        "`{entity}` holds an empty set in `{attribute}`, which DynamoDB cannot store; nothing was sent: use ddb_entity::Set, which stores an empty set as no attribute"
    )]
    EmptySet {
        entity: &'static str,
        attribute: String,
    },

    #[error("{} cannot be sent: {reason}; nothing was sent", Capital(.what))]
    InvalidExpression {
        /// "a filter on `Order`", "an update of `Order`", …
        what: String,
        reason: String,
    },

    #[error("invalid cursor ({fault}): {reason}; resume only with a cursor from the same query")]
    InvalidCursor { fault: CursorFault, reason: String },

    #[cfg(feature = "sealed-cursors")]
    #[error("could not seal the query's cursor: {source}")]
    SealFailed {
        #[source]
        source: Cause,
    },

    #[error(
        "{operation} addresses the key {partition} / {sort} twice (a `{first}` and a `{second}`); DynamoDB rejects the whole request: keep one of them"
    )]
    DuplicateKey {
        operation: &'static str,
        first: &'static str,
        second: &'static str,
        partition: String,
        sort: String,
    },

    #[error(
        "`{entity}` is versioned (optimistic locking), and a batch write cannot check its version: write it with put"
    )]
    VersionedInBatch { entity: &'static str },

    #[error(
        "the `{entity}` at {partition} / {sort} was not read by this transaction: add its key with `get`"
    )]
    NotRead {
        entity: &'static str,
        partition: String,
        sort: String,
    },

    #[error(
        "the batch reads `{entity}` items (type {entity_type:?}), which `{collection}` does not hold: add that type to the collection"
    )]
    NotInCollection {
        entity: &'static str,
        entity_type: &'static str,
        collection: &'static str,
    },

    #[error(
        "BatchWriteItem on table `{table}`: {} of {total} writes were not processed{}; they are in the error (Error::unprocessed_writes), send them again",
        writes.len(),
        Because(.source.as_ref())
    )]
    UnprocessedWrites {
        table: String,
        total: usize,
        writes: Vec<PendingWrite>,
        #[source]
        source: Option<super::Error>,
    },

    #[error(
        "BatchGetItem on table `{table}`: {} of {total} keys were not read{}; they are in the error (Error::unprocessed_keys), ask for them again",
        keys.len(),
        Because(.source.as_ref())
    )]
    UnprocessedKeys {
        table: String,
        total: usize,
        keys: Vec<PendingKey>,
        #[source]
        source: Option<super::Error>,
    },

    #[error(
        "action {index} of the transaction ({action} of {}) cannot be sent: {source}",
        a(entity)
    )]
    InvalidAction {
        index: usize,
        action: ActionKind,
        entity: &'static str,
        #[source]
        source: super::Error,
    },

    #[error(
        "actions {first} ({}) and {second} ({}) of the transaction both address the item {partition} / {sort}; a transaction takes one action per item: merge them into one (a write can carry a condition check's condition)",
        a(first_entity),
        a(second_entity)
    )]
    DuplicateAction {
        first: usize,
        second: usize,
        first_entity: &'static str,
        second_entity: &'static str,
        partition: String,
        sort: String,
    },

    #[error(
        "a transaction {what}: split it (each transaction is then atomic on its own, not together)"
    )]
    TransactionTooLarge { what: String },

    #[error(
        "an idempotency token is 1 to 36 characters, this one has {length}: use a UUID, for example"
    )]
    InvalidToken { length: usize },

    #[error(
        "{operation} on table `{table}` was canceled{}: {}",
        if *.operation == "TransactWriteItems" { " and wrote nothing" } else { "" },
        Reasons(reasons)
    )]
    TransactionCanceled {
        /// `TransactWriteItems` or `TransactGetItems`.
        operation: &'static str,
        table: String,
        reasons: Vec<CancellationReason>,
        #[source]
        source: Box<aws_sdk_dynamodb::Error>,
    },

    #[error("{what} was built for table `{built_for}`, but is sent to table `{table}`: {fix}")]
    WrongTable {
        what: &'static str,
        built_for: String,
        table: String,
        fix: &'static str,
    },

    #[error(
        "table `{table}` does not match its declared schema: {detail}; change the declaration, or migrate the table (a new index needs UpdateTable and a backfill)"
    )]
    SchemaMismatch { table: String, detail: String },

    #[error("invalid table definition: {detail}")]
    InvalidSchema { detail: String },

    #[error(
        "table `{table}` was not ACTIVE after {waited:?} (status: {status}); retry later or raise the wait"
    )]
    NotActive {
        table: String,
        status: String,
        waited: Duration,
    },

    #[error(
        "shard {shard} of {count} (partition `{partition}`) of a query read over shards failed, so the whole read failed and returned nothing: {source}"
    )]
    InShard {
        shard: u16,
        count: u16,
        partition: String,
        #[source]
        source: super::Error,
    },

    #[error(
        "the {entity} at {partition} / {sort} is stored at schema version {found}, and this build writes version {current}: an update would mix its fields into the older shape, so nothing was written; read it (reads upcast) and put it, or backfill `{entity}` first (`db.backfill::<{entity}>()` rewrites old versions)"
    )]
    StaleSchema {
        entity: &'static str,
        found: u64,
        current: u64,
        partition: String,
        sort: String,
    },

    #[error("the SDK refused to build the {what} request: {source}")]
    RequestBuild {
        what: &'static str,
        #[source]
        source: Cause,
    },

    #[cfg(feature = "export")]
    #[error("{file}{}: {reason}", ExportLine(*.line))]
    ExportFile {
        /// The file (a path, an S3 key, or what the caller named it).
        file: String,
        /// The 1-based line, when the fault is in one.
        line: Option<u64>,
        reason: String,
    },

    #[cfg(feature = "export-s3")]
    #[error("{operation} of `{object}` failed: {}", ServiceReason(.code.as_deref(), .message.as_deref(), true))]
    ExportS3 {
        operation: &'static str,
        /// `s3://bucket/key`.
        object: String,
        code: Option<String>,
        message: Option<String>,
        transient: bool,
        #[source]
        source: Box<aws_sdk_s3::Error>,
    },

    #[cfg(any(feature = "lambda", feature = "streams"))]
    #[error(
        "the stream record with keys {keys} is not of this table: {detail}; read each table's stream with that table's types"
    )]
    ForeignRecord {
        at: ItemAt,
        /// The record's keys as recorded, for the message: `Id=101`.
        keys: String,
        detail: String,
    },

    #[cfg(any(feature = "lambda", feature = "streams"))]
    #[error(
        "the stream record of the item at {at} cannot be read: {detail}; it was not produced by DynamoDB as documented (a hand-made or altered event?)"
    )]
    MalformedRecord { at: ItemAt, detail: String },

    #[cfg(feature = "streams")]
    #[error(
        "table `{table}` has no enabled stream ({listed} listed): enable one (UpdateTable with a StreamSpecification), or pass the stream's ARN"
    )]
    NoStream { table: String, listed: usize },

    #[cfg(feature = "streams")]
    #[error("the DynamoDB Streams API answered unusably on stream `{stream}`: {detail}")]
    MalformedStream { stream: String, detail: String },

    #[cfg(feature = "streams")]
    #[error("{operation} on stream `{stream}` failed: {}", ServiceReason(.code.as_deref(), .message.as_deref(), true))]
    StreamService {
        operation: &'static str,
        stream: String,
        code: Option<String>,
        message: Option<String>,
        transient: bool,
        #[source]
        source: Box<aws_sdk_dynamodbstreams::Error>,
    },
}

impl Repr {
    pub(crate) fn kind(&self) -> ErrorKind {
        match self {
            Repr::Key { .. } | Repr::IndexKey { .. } | Repr::IndexAttribute { .. } => {
                ErrorKind::Key
            }
            Repr::Service {
                misconfigured: Some(_),
                ..
            }
            | Repr::Misconfigured { .. } => ErrorKind::Misconfigured,
            Repr::Service { .. } => ErrorKind::Service,
            Repr::Encode { .. } => ErrorKind::Encode,
            Repr::Decode { .. } => ErrorKind::Decode,
            Repr::KeyMismatch { .. } => ErrorKind::KeyMismatch,
            Repr::IndexKeyClash { .. } => ErrorKind::AttributeClash,
            Repr::WrongType { .. } | Repr::ForeignItem { .. } => ErrorKind::WrongType,
            Repr::DecodeAfterWrite { .. } => ErrorKind::DecodeAfterWrite,
            Repr::UnknownType { .. } | Repr::UnmatchedKey { .. } => ErrorKind::UnknownType,
            Repr::AmbiguousKey { .. } => ErrorKind::AmbiguousKey,
            Repr::AmbiguousFilter { .. } => ErrorKind::AmbiguousFilter,
            Repr::KeyNotOfEntity { .. } => ErrorKind::WrongType,
            Repr::MoreThanOne { .. } | Repr::NotUnique { .. } => ErrorKind::MoreThanOne,
            Repr::AttributeClash { .. } => ErrorKind::AttributeClash,
            Repr::AlreadyExists { .. } => ErrorKind::AlreadyExists,
            Repr::NotFound { .. } => ErrorKind::NotFound,
            Repr::VersionConflict { .. } => ErrorKind::VersionConflict,
            Repr::ConditionFailed { .. } => ErrorKind::ConditionFailed,
            Repr::VersionOverflow { .. } => ErrorKind::VersionOverflow,
            Repr::MissingKeyField { .. } => ErrorKind::MissingKeyField,
            Repr::EmptyUpdate { .. } => ErrorKind::EmptyUpdate,
            Repr::IncompleteUpsert { .. } => ErrorKind::IncompleteUpsert,
            Repr::ItemTooLarge { .. } => ErrorKind::ItemTooLarge,
            Repr::InvalidNumber { .. } => ErrorKind::InvalidNumber,
            Repr::EmptySet { .. } => ErrorKind::EmptySet,
            Repr::InvalidExpression { .. } => ErrorKind::InvalidExpression,
            Repr::InvalidCursor { .. } => ErrorKind::InvalidCursor,
            #[cfg(feature = "sealed-cursors")]
            Repr::SealFailed { .. } => ErrorKind::SealFailed,
            Repr::DuplicateKey { .. } => ErrorKind::DuplicateKey,
            Repr::VersionedInBatch { .. } => ErrorKind::VersionedInBatch,
            Repr::NotInCollection { .. } | Repr::NotRead { .. } => ErrorKind::NotInCollection,
            Repr::UnprocessedWrites { .. } => ErrorKind::UnprocessedWrites,
            Repr::UnprocessedKeys { .. } => ErrorKind::UnprocessedKeys,
            Repr::InvalidAction { .. } => ErrorKind::InvalidAction,
            Repr::DuplicateAction { .. } => ErrorKind::DuplicateAction,
            Repr::TransactionTooLarge { .. } => ErrorKind::TransactionTooLarge,
            Repr::InvalidToken { .. } => ErrorKind::InvalidToken,
            Repr::TransactionCanceled { .. } => ErrorKind::TransactionCanceled,
            Repr::WrongTable { .. } => ErrorKind::WrongTable,
            Repr::SchemaMismatch { .. } => ErrorKind::SchemaMismatch,
            Repr::InvalidSchema { .. } => ErrorKind::InvalidSchema,
            Repr::NotActive { .. } => ErrorKind::NotActive,
            Repr::RequestBuild { .. } => ErrorKind::RequestBuild,
            // The shard's failure is the read's: its kind, predicates and
            // source answer for it.
            Repr::InShard { source, .. } => source.kind(),
            #[cfg(any(feature = "lambda", feature = "streams"))]
            Repr::ForeignRecord { .. } => ErrorKind::ForeignRecord,
            #[cfg(any(feature = "lambda", feature = "streams"))]
            Repr::MalformedRecord { .. } => ErrorKind::MalformedRecord,
            #[cfg(feature = "streams")]
            Repr::StreamService { .. } | Repr::MalformedStream { .. } => ErrorKind::Service,
            #[cfg(feature = "streams")]
            Repr::NoStream { .. } => ErrorKind::NoStream,
            Repr::StaleSchema { .. } => ErrorKind::StaleSchema,
            #[cfg(feature = "export")]
            Repr::ExportFile { .. } => ErrorKind::Decode,
            #[cfg(feature = "export-s3")]
            Repr::ExportS3 { .. } => ErrorKind::Service,
        }
    }

    pub(crate) fn entity(&self) -> Option<&'static str> {
        match self {
            Repr::Key { entity, .. } | Repr::IndexKey { entity, .. } => *entity,
            Repr::Encode { entity, .. }
            | Repr::Decode { entity, .. }
            | Repr::KeyMismatch { entity, .. }
            | Repr::WrongType { entity, .. }
            | Repr::KeyNotOfEntity { entity, .. }
            | Repr::IndexKeyClash { entity, .. }
            | Repr::ForeignItem { entity, .. }
            | Repr::DecodeAfterWrite { entity, .. }
            | Repr::MoreThanOne { entity, .. }
            | Repr::NotUnique { entity, .. }
            | Repr::AttributeClash { entity, .. }
            | Repr::AlreadyExists { entity, .. }
            | Repr::NotFound { entity, .. }
            | Repr::VersionConflict { entity, .. }
            | Repr::ConditionFailed { entity, .. }
            | Repr::VersionOverflow { entity }
            | Repr::MissingKeyField { entity, .. }
            | Repr::EmptyUpdate { entity }
            | Repr::IncompleteUpsert { entity, .. }
            | Repr::ItemTooLarge { entity, .. }
            | Repr::InvalidNumber { entity, .. }
            | Repr::EmptySet { entity, .. }
            | Repr::VersionedInBatch { entity }
            | Repr::NotInCollection { entity, .. }
            | Repr::NotRead { entity, .. }
            | Repr::InvalidAction { entity, .. } => Some(entity),
            Repr::InShard { source, .. } => source.entity(),
            _ => None,
        }
    }

    pub(crate) fn item_key(&self) -> Option<(&str, &str)> {
        match self {
            Repr::Decode { at, .. }
            | Repr::KeyMismatch { at, .. }
            | Repr::UnknownType { at, .. } => at.key(),
            #[cfg(any(feature = "lambda", feature = "streams"))]
            Repr::ForeignRecord { at, .. } | Repr::MalformedRecord { at, .. } => at.key(),
            Repr::AlreadyExists {
                partition, sort, ..
            }
            | Repr::NotFound {
                partition, sort, ..
            }
            | Repr::VersionConflict {
                partition, sort, ..
            }
            | Repr::ConditionFailed {
                partition, sort, ..
            }
            | Repr::ForeignItem {
                partition, sort, ..
            }
            | Repr::DecodeAfterWrite {
                partition, sort, ..
            }
            | Repr::DuplicateKey {
                partition, sort, ..
            }
            | Repr::DuplicateAction {
                partition, sort, ..
            } => Some((partition, sort)),
            Repr::InShard { source, .. } => source.item_key(),
            _ => None,
        }
    }
}

/// "cannot build the key of an `Order` from `placed`: …".
struct KeyMessage<'a> {
    entity: Option<&'static str>,
    field: Option<&'static str>,
    source: &'a KeyError,
}

impl fmt::Display for KeyMessage<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.entity, self.field) {
            (Some(entity), Some(field)) => write!(
                f,
                "invalid key: `{field}` of {} cannot be written into a key: {}",
                a(entity),
                self.source
            ),
            (Some(entity), None) => write!(f, "invalid key of {}: {}", a(entity), self.source),
            (None, _) => write!(f, "invalid key: {}", self.source),
        }
    }
}

/// "; check …" after a misconfiguration's own reason.
struct Check(Option<super::Misconfiguration>);

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(what) => write!(f, "; {what}"),
            None => Ok(()),
        }
    }
}

/// "ConditionalCheckFailedException: The conditional request failed"; a
/// failure without a service error code is "no answer (…)", unless it is
/// a misconfiguration (`false`), which the SDK may find before sending
/// anything (no credentials) or in an answer that is not DynamoDB's.
struct ServiceReason<'a>(Option<&'a str>, Option<&'a str>, bool);

impl fmt::Display for ServiceReason<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.0, self.1, self.2) {
            (Some(code), Some(message), _) => write!(f, "{code}: {message}"),
            (Some(code), None, _) => f.write_str(code),
            (None, Some(cause), true) => write!(f, "no answer ({cause})"),
            (None, None, true) => f.write_str("no answer"),
            (None, Some(cause), false) => f.write_str(cause),
            (None, None, false) => f.write_str("no DynamoDB answer"),
        }
    }
}

/// Where an item is stored: its table key attributes, named, as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ItemAt {
    /// The partition key attribute and its string value, if it has one.
    pub(crate) partition: (&'static str, Option<String>),
    /// The sort key attribute and its string value, if the table has one.
    pub(crate) sort: Option<(&'static str, Option<String>)>,
}

impl ItemAt {
    /// The stored partition and sort key values, when both are there.
    fn key(&self) -> Option<(&str, &str)> {
        let partition = self.partition.1.as_deref()?;
        match &self.sort {
            None => Some((partition, "")),
            Some((_, sort)) => Some((partition, sort.as_deref()?)),
        }
    }
}

/// "PK=CUST#42 SK=ORDER#…", long values shortened.
impl fmt::Display for ItemAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (name, value) = &self.partition;
        write!(f, "{name}={}", Value(value.as_deref()))?;
        if let Some((name, value)) = &self.sort {
            write!(f, " {name}={}", Value(value.as_deref()))?;
        }
        Ok(())
    }
}

/// A key value in a message: at most 100 characters (keys run to 2 KB),
/// `(none)` when the item has no string there.
struct Value<'a>(Option<&'a str>);

impl fmt::Display for Value<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SHOWN: usize = 100;
        match self.0 {
            None => f.write_str("(none)"),
            Some(value) => match value.char_indices().nth(SHOWN) {
                Some((cut, _)) => write!(f, "{}…", &value[..cut]),
                None => f.write_str(value),
            },
        }
    }
}

/// What a decoded value makes of a key attribute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Expected {
    /// This value.
    Value(String),
    /// No such attribute: the value is not in that (sparse) index, or its
    /// entity fills no such index.
    Absent,
    /// Its key cannot be built from the decoded value.
    Unbuildable(String),
    /// The stored key does not parse as the entity's templates (these), so
    /// the fields stored in the key only cannot be read back.
    Unparsable { templates: String, why: String },
}

/// "its SK is ORDER#2, the decoded `Order`'s is ORDER#1".
struct Mismatch<'a> {
    attribute: &'a str,
    stored: Option<&'a str>,
    expected: &'a Expected,
}

impl fmt::Display for Mismatch<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let attribute = self.attribute;
        let stored = Value(self.stored);
        match self.expected {
            Expected::Value(expected) => write!(
                f,
                "its {attribute} is {stored}, the decoded value's would be {}",
                Value(Some(expected))
            ),
            Expected::Absent => write!(
                f,
                "it has {attribute}={stored}, which the decoded value would not write"
            ),
            Expected::Unbuildable(why) => write!(
                f,
                "the decoded value has no key ({why}), the item's {attribute} is {stored}"
            ),
            Expected::Unparsable { templates, why } => write!(
                f,
                "its key ({attribute}={stored}, …) does not parse as {templates}, which the fields stored in the key only are read back from ({})",
                Value(Some(why))
            ),
        }
    }
}

/// "`total_cents` of `Order` at PK=… SK=…", or "an `Order` at …".
struct DecodeWhat<'a> {
    entity: &'a str,
    field: Option<&'a str>,
    at: &'a ItemAt,
}

impl fmt::Display for DecodeWhat<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.field {
            Some(field) => write!(f, "`{field}` of `{}` at {}", self.entity, self.at),
            None => write!(f, "{} at {}", a(self.entity), self.at),
        }
    }
}

/// A name in backticks.
struct Code<'a>(&'a str);

impl fmt::Display for Code<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`", self.0)
    }
}

/// `pk "USER#{email}" / sk "PROFILE"`.
struct Templates((&'static str, Option<&'static str>));

impl fmt::Display for Templates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pk \"{}\"", self.0.0)?;
        if let Some(sort) = self.0.1 {
            write!(f, " / sk \"{sort}\"")?;
        }
        Ok(())
    }
}

struct WrongTypeMessage<'a> {
    entity: &'a str,
    expected: &'a str,
    found: Option<&'a str>,
}

impl fmt::Display for WrongTypeMessage<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let entity = a(self.entity);
        let expected = self.expected;
        match self.found {
            Some(found) => write!(
                f,
                "the item is not {entity}: its type attribute is \"{found}\", expected \"{expected}\""
            ),
            None => write!(
                f,
                "the item is not {entity}: it has no type attribute (expected \"{expected}\"); it was not written by this library — write it with a type attribute, or read it with the raw SDK"
            ),
        }
    }
}

struct ForeignMessage<'a> {
    operation: &'a str,
    entity: &'a str,
    expected: &'a str,
    found: Option<&'a str>,
    partition: &'a str,
    sort: &'a str,
}

impl fmt::Display for ForeignMessage<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (operation, entity, expected) = (self.operation, a(self.entity), self.expected);
        let (partition, sort) = (self.partition, self.sort);
        write!(
            f,
            "the {operation} of {entity} left the item at {partition} / {sort} untouched: it is not {entity} ("
        )?;
        match self.found {
            Some(found) => write!(
                f,
                "its type attribute is \"{found}\", expected \"{expected}\""
            )?,
            None => write!(f, "it has no type attribute, expected \"{expected}\"")?,
        }
        f.write_str("); two entity types share this key: give them distinct key templates")
    }
}

struct UnknownTypeMessage<'a> {
    collection: &'a str,
    found: Option<&'a str>,
    at: &'a ItemAt,
    type_attribute: &'a str,
}

impl fmt::Display for UnknownTypeMessage<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Self {
            collection,
            at,
            type_attribute,
            ..
        } = self;
        match self.found {
            // Raised only under `UnknownItems::Error`: skipping is the way
            // out if the item is expected there.
            Some(found) => write!(
                f,
                "the item at {at} has type \"{found}\", which `{collection}` does not hold: add that entity type to the collection, or skip such items with UnknownItems::Skip"
            ),
            // Raised under every policy: an item without a type cannot be
            // known not to be a member, so skipping it could hide data.
            None => write!(
                f,
                "the item at {at} has no type attribute (`{type_attribute}`), so `{collection}` cannot tell which entity it is, and refuses it whatever the UnknownItems policy: it was written by other code; write it again with this library (which sets `{type_attribute}`), or keep such items out of the partition"
            ),
        }
    }
}

/// "index `GSI1`" / "the table".
struct IndexName(Option<&'static str>);

impl fmt::Display for IndexName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(index) => write!(f, "index `{index}`"),
            None => f.write_str("the table"),
        }
    }
}

/// "found 2" / "no item is stored".
struct Found(Option<u64>);

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(found) => write!(f, "found {found}"),
            None => f.write_str("no item is stored"),
        }
    }
}

/// The first letter in upper case: "An `Order` item is …".
struct Capital<T>(T);

impl<T: fmt::Display> fmt::Display for Capital<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.0.to_string();
        let mut chars = text.chars();
        if let Some(first) = chars.next() {
            write!(f, "{}{}", first.to_uppercase(), chars.as_str())?;
        }
        Ok(())
    }
}

/// What stopped a batch: the last error, or the service's repeated
/// `Unprocessed…` answers when no request failed.
struct Because<'a>(Option<&'a super::Error>);

impl fmt::Display for Because<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(err) => write!(f, " (last error: {err})"),
            None => f.write_str(" (DynamoDB kept returning them as unprocessed)"),
        }
    }
}

/// The failed actions of a canceled transaction.
struct Reasons<'a>(&'a [CancellationReason]);

impl fmt::Display for Reasons<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut failed = self
            .0
            .iter()
            .filter(|reason| reason.is_failure())
            .peekable();
        if failed.peek().is_none() {
            return f.write_str("DynamoDB gave no reason");
        }
        for (i, reason) in failed.enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{reason}")?;
        }
        Ok(())
    }
}

/// ` line N` after an export file's name, when the fault is in a line.
#[cfg(feature = "export")]
struct ExportLine(Option<u64>);

#[cfg(feature = "export")]
impl std::fmt::Display for ExportLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(line) => write!(f, " line {line}"),
            None => Ok(()),
        }
    }
}
