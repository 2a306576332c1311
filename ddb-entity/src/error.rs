//! The one error type of the crate.

use std::time::Duration;

use aws_sdk_dynamodb::error::ProvideErrorMetadata;

use crate::key::KeyError;
use crate::op::{ActionKind, CancellationReason};
use crate::op::{UnprocessedKey, UnprocessedWrite};

/// `Result` with this crate's [`Error`] as the default error type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in `ddb-entity`.
///
/// Errors found *before* a request is sent (a key that cannot be encoded, a
/// schema that cannot be created) have their own variants; a request that
/// DynamoDB refused keeps the SDK's typed error as its
/// [`source`](std::error::Error::source). Branch on the predicates
/// ([`is_condition_failed`](Error::is_condition_failed), …) rather than on
/// variants, which may grow.
///
/// ```
/// use ddb_entity::{Error, key::KeyError};
///
/// let err = Error::from(KeyError::NaN);
/// assert!(err.is_key());
/// assert!(!err.is_condition_failed());
/// assert!(err.to_string().starts_with("invalid key: "));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A key could not be encoded or parsed; nothing was sent.
    #[error("invalid key: {0}")]
    Key(#[from] KeyError),

    /// DynamoDB (or the HTTP layer under the SDK) answered a request with an
    /// error. The SDK's typed error is the [`source`](std::error::Error::source).
    #[error("{operation} on table `{table}` failed: {code}")]
    Service {
        /// The DynamoDB API operation, e.g. `"PutItem"`.
        operation: &'static str,
        /// The table the request was sent to.
        table: String,
        /// The service's error code (`ConditionalCheckFailedException`, …),
        /// or a short description when no response arrived.
        code: String,
        /// The SDK's error.
        #[source]
        source: Box<aws_sdk_dynamodb::Error>,
    },

    /// The table exists, but its key schema or indexes differ from the
    /// [`TableSchema`](crate::TableSchema) the code declares.
    #[error(
        "table `{table}` does not match its declared schema: {detail}; \
         change the declaration, or migrate the table (a new index needs UpdateTable and a backfill)"
    )]
    SchemaMismatch {
        /// The table's name.
        table: String,
        /// What differs.
        detail: String,
    },

    /// An entity could not be serialised into an item (`serde_dynamo`).
    #[error("could not encode a `{entity}` as a DynamoDB item: {source}")]
    Encode {
        /// The entity type.
        entity: &'static str,
        /// The serializer's error.
        #[source]
        source: serde_dynamo::Error,
    },

    /// An item could not be deserialised into an entity (`serde_dynamo`):
    /// a missing field, a value of the wrong type.
    #[error("could not decode a `{entity}` from a DynamoDB item: {source}")]
    Decode {
        /// The entity type.
        entity: &'static str,
        /// The deserializer's error; it names the field.
        #[source]
        source: serde_dynamo::Error,
    },

    /// An item's type attribute names another entity type than the one
    /// asked for (or is missing): it is not decoded as the wrong type.
    #[error("the item is not a `{entity}`: its type attribute is {found:?}, expected {expected:?}")]
    WrongType {
        /// The entity type asked for.
        entity: &'static str,
        /// The type attribute value that entity writes.
        expected: &'static str,
        /// The value found, if any.
        found: Option<String>,
    },

    /// [`Db::create`](crate::Db::create) found an item with the same key;
    /// nothing was written.
    #[error("a `{entity}` with key {partition} / {sort} already exists; use put to replace it")]
    AlreadyExists {
        /// The entity type.
        entity: &'static str,
        /// The partition key value.
        partition: String,
        /// The sort key value.
        sort: String,
        /// The `ConditionalCheckFailedException` behind it.
        #[source]
        source: Box<Error>,
    },

    /// An optimistic-locking write found another version stored than the one
    /// it was read at: someone else wrote first. Re-read and retry.
    #[error(
        "`{entity}` was changed by another writer: expected version {expected}, found {found:?}; read it again and retry"
    )]
    VersionConflict {
        /// The entity type.
        entity: &'static str,
        /// The version the write expected.
        expected: u64,
        /// The version stored, `None` when no item is stored.
        found: Option<u64>,
    },

    /// An update addressed a key with no item; nothing was written.
    #[error("no `{entity}` with key {partition} / {sort} to update; create it first")]
    NotFound {
        /// The entity type.
        entity: &'static str,
        /// The partition key value.
        partition: String,
        /// The sort key value.
        sort: String,
    },

    /// An update changes a field of an index key template without the
    /// template's other fields, so the index key cannot be recomputed.
    #[error(
        "updating `{entity}` changes index {index}'s key, which also needs `{field}`: set `{field}` in the same update (to its current value if unchanged)"
    )]
    MissingKeyField {
        /// The entity type.
        entity: &'static str,
        /// The index whose key cannot be recomputed.
        index: &'static str,
        /// The field the update lacks.
        field: &'static str,
    },

    /// A request the library can tell is invalid before sending it.
    #[error("invalid request: {0}")]
    InvalidRequest(String),

    /// A query cursor that does not parse, or that belongs to another
    /// partition or index.
    #[error("invalid cursor: {0}; resume only with a cursor from the same query")]
    InvalidCursor(String),

    /// A query returned an item whose type the collection does not hold
    /// (with [`UnknownItems::Error`](crate::UnknownItems::Error)), or an item
    /// with no type attribute at all.
    #[error(
        "`{collection}` holds no entity of type {found:?}: add that type to the collection, or query with UnknownItems::Skip"
    )]
    UnknownType {
        /// The collection's name.
        collection: &'static str,
        /// The item's type attribute, `None` when it had none.
        found: Option<String>,
    },

    /// A collection field of `Option<E>` met a second `E`.
    #[error(
        "`{collection}` holds one `{entity}` but the query returned more than one: make the field a Vec<{entity}>"
    )]
    MoreThanOne {
        /// The collection's name.
        collection: &'static str,
        /// The entity type.
        entity: &'static str,
    },

    /// A field of the entity serialises under the name of a key attribute or
    /// of the type attribute, which the library writes itself.
    #[error(
        "`{entity}` has a field serialised as `{attribute}`, which the table uses for keys or the entity type; rename the field (e.g. #[serde(rename = \"…\")])"
    )]
    AttributeClash {
        /// The entity type.
        entity: &'static str,
        /// The clashing attribute name.
        attribute: &'static str,
    },

    /// The declared schema, or the table's name, is not one DynamoDB
    /// accepts; nothing was sent.
    #[error("invalid table definition: {0}")]
    InvalidSchema(String),

    /// A table (or one of its indexes) did not become `ACTIVE` in time.
    #[error(
        "table `{table}` was not ACTIVE after {waited:?} (status: {status}); \
         retry later or raise the wait"
    )]
    NotActive {
        /// The table's name.
        table: String,
        /// The last status seen.
        status: String,
        /// How long we waited.
        waited: Duration,
    },

    /// An item is over DynamoDB's 400 KB item limit (as
    /// [`item_size`](crate::item_size) counts it); nothing was sent.
    #[error(
        "a `{entity}` item is {size} bytes, over DynamoDB's item limit of {limit} bytes (400 KB); nothing was sent: keep large values elsewhere (e.g. S3) or split the entity"
    )]
    ItemTooLarge {
        /// The entity type.
        entity: &'static str,
        /// The item's size, attribute names included.
        size: usize,
        /// The limit.
        limit: usize,
    },

    /// A number DynamoDB would refuse or could not store exactly: more than
    /// 38 significant digits, a magnitude outside 1E-130..1E+126, a NaN or
    /// an infinity; nothing was sent.
    #[error(
        "`{entity}` holds {value} in `{attribute}`, which DynamoDB cannot store: {reason}; nothing was sent (store it as a string, or narrow the type)"
    )]
    InvalidNumber {
        /// The entity type.
        entity: &'static str,
        /// Where in the item, e.g. `readings[3].celsius`.
        attribute: String,
        /// The number's text (shortened when very long).
        value: String,
        /// What DynamoDB would object to.
        reason: &'static str,
    },

    /// One batch addresses the same key twice, which DynamoDB rejects for
    /// the whole request (and across requests the order of the two would
    /// be undefined); nothing was sent.
    #[error(
        "{operation} addresses the key {partition} / {sort} twice (a `{first}` and a `{second}`); DynamoDB rejects the whole request: keep one of them"
    )]
    DuplicateKey {
        /// The DynamoDB API operation, e.g. `"BatchWriteItem"`.
        operation: &'static str,
        /// The entity type of the first request for the key.
        first: &'static str,
        /// The entity type of the second one.
        second: &'static str,
        /// The partition key value.
        partition: String,
        /// The sort key value.
        sort: String,
    },

    /// Some writes of a batch are not known to be done: the retry budget ran
    /// out while DynamoDB kept returning them as unprocessed (or throttling),
    /// or a request failed for good. Every write not listed is done; the
    /// listed ones can be sent again (puts and deletes are idempotent).
    #[error(
        "BatchWriteItem on table `{table}`: {} of {total} writes were not processed{}; they are in the error (Error::unprocessed_writes), send them again",
        writes.len(),
        because(source)
    )]
    UnprocessedWrites {
        /// The table's name.
        table: String,
        /// How many writes the batch held.
        total: usize,
        /// The writes not processed, in the order they were added.
        writes: Vec<UnprocessedWrite>,
        /// The error that stopped the batch, or the last transient one;
        /// `None` when DynamoDB only ever returned them as unprocessed.
        #[source]
        source: Option<Box<Error>>,
    },

    /// Some keys of a batch read were not answered: the retry budget ran
    /// out, or a request failed for good. Their items may or may not exist.
    #[error(
        "BatchGetItem on table `{table}`: {} of {total} keys were not read{}; they are in the error (Error::unprocessed_keys), ask for them again",
        keys.len(),
        because(source)
    )]
    UnprocessedKeys {
        /// The table's name.
        table: String,
        /// The distinct keys of the batch.
        total: usize,
        /// The keys not read, in the order they were added.
        keys: Vec<UnprocessedKey>,
        /// The error that stopped the batch, or the last transient one.
        #[source]
        source: Option<Box<Error>>,
    },

    /// An action of a transaction could not be built — a key that cannot be
    /// encoded, an entity that does not serialise, an update that cannot
    /// recompute an index key, … (the `source`); nothing was sent.
    #[error(
        "action {index} of the transaction ({action} of a `{entity}`) cannot be sent: {source}"
    )]
    InvalidAction {
        /// The action's position in the transaction, from 0.
        index: usize,
        /// What the action does.
        action: ActionKind,
        /// The entity type.
        entity: &'static str,
        /// What is wrong with it.
        #[source]
        source: Box<Error>,
    },

    /// Two actions of one transaction address the same item, which
    /// DynamoDB rejects for the whole transaction; nothing was sent.
    #[error(
        "actions {first} (a `{first_entity}`) and {second} (a `{second_entity}`) of the transaction both address the item {partition} / {sort}; a transaction takes one action per item: merge them into one (a write can carry a condition check's condition)"
    )]
    DuplicateAction {
        /// The position of the first action on the item.
        first: usize,
        /// The position of the second one.
        second: usize,
        /// The entity type of the first action.
        first_entity: &'static str,
        /// The entity type of the second action.
        second_entity: &'static str,
        /// The partition key value.
        partition: String,
        /// The sort key value.
        sort: String,
    },

    /// DynamoDB canceled a transaction: nothing was written.
    /// [`cancellation_reasons`](Error::cancellation_reasons) says why, one
    /// reason per action; the SDK's `TransactionCanceledException` is the
    /// [`source`](std::error::Error::source).
    #[error(
        "TransactWriteItems on table `{table}` was canceled and wrote nothing: {}",
        canceled_because(reasons)
    )]
    TransactionCanceled {
        /// The table the transaction was sent to.
        table: String,
        /// One reason per action, in the order the actions were added.
        reasons: Vec<CancellationReason>,
        /// The SDK's error.
        #[source]
        source: Box<aws_sdk_dynamodb::Error>,
    },
}

/// The failed actions of a canceled transaction, for its message.
fn canceled_because(reasons: &[CancellationReason]) -> String {
    let failed: Vec<String> = reasons
        .iter()
        .filter(|reason| reason.is_failure())
        .map(ToString::to_string)
        .collect();
    if failed.is_empty() {
        "DynamoDB gave no reason".to_owned()
    } else {
        failed.join("; ")
    }
}

/// What stopped a batch, for its error message: the last error, or the
/// service's repeated `Unprocessed…` answers when no request failed.
fn because(source: &Option<Box<Error>>) -> String {
    match source {
        Some(err) => format!(" (last error: {err})"),
        None => " (DynamoDB kept returning them as unprocessed)".to_owned(),
    }
}

impl Error {
    /// Wraps an SDK error with the operation and table it came from.
    pub(crate) fn service<E>(operation: &'static str, table: &str, err: E) -> Self
    where
        E: Into<aws_sdk_dynamodb::Error>,
    {
        let source: aws_sdk_dynamodb::Error = err.into();
        let code = match source.code() {
            Some(code) => code.to_owned(),
            None => short_description(&source),
        };
        Error::Service {
            operation,
            table: table.to_owned(),
            code,
            source: Box::new(source),
        }
    }

    /// The SDK error behind a [`Service`](Error::Service) error.
    pub fn sdk_error(&self) -> Option<&aws_sdk_dynamodb::Error> {
        match self {
            Error::Service { source, .. } => Some(source),
            Error::AlreadyExists { source, .. } => source.sdk_error(),
            Error::UnprocessedWrites { source, .. } | Error::UnprocessedKeys { source, .. } => {
                source.as_ref().and_then(|source| source.sdk_error())
            }
            Error::TransactionCanceled { source, .. } => Some(source),
            _ => None,
        }
    }

    /// An update found no item at its key.
    pub fn is_not_found(&self) -> bool {
        matches!(self, Error::NotFound { .. })
    }

    /// [`Db::create`](crate::Db::create) found the key taken.
    pub fn is_already_exists(&self) -> bool {
        matches!(self, Error::AlreadyExists { .. })
    }

    /// A key could not be encoded or parsed (nothing was sent).
    pub fn is_key(&self) -> bool {
        matches!(self, Error::Key(_))
    }

    /// A condition expression (including "item must not exist yet" and a
    /// version check) failed; for a canceled transaction, the condition of
    /// one of its actions (`ConditionalCheckFailed`).
    pub fn is_condition_failed(&self) -> bool {
        self.is_version_conflict()
            || matches!(
                self.sdk_error(),
                Some(aws_sdk_dynamodb::Error::ConditionalCheckFailedException(_))
            )
            || self
                .cancellation_reasons()
                .iter()
                .any(CancellationReason::is_condition_failed)
    }

    /// Another writer changed a versioned entity first; for a canceled
    /// transaction, a versioned action found another version stored
    /// ([`CancellationReason::stale_version`]).
    pub fn is_version_conflict(&self) -> bool {
        matches!(self, Error::VersionConflict { .. })
            || self
                .cancellation_reasons()
                .iter()
                .any(CancellationReason::is_version_conflict)
    }

    /// The request was throttled; it is safe to retry after a back-off.
    pub fn is_throttled(&self) -> bool {
        use aws_sdk_dynamodb::Error as E;
        matches!(
            self.sdk_error(),
            Some(
                E::ProvisionedThroughputExceededException(_)
                    | E::RequestLimitExceeded(_)
                    | E::ThrottlingException(_)
            )
        ) || self.code() == Some("ThrottlingException")
    }

    /// DynamoDB rejected the request as invalid (`ValidationException`).
    pub fn is_validation(&self) -> bool {
        self.code() == Some("ValidationException")
    }

    /// The table (or index) does not exist.
    pub fn is_resource_not_found(&self) -> bool {
        matches!(
            self.sdk_error(),
            Some(aws_sdk_dynamodb::Error::ResourceNotFoundException(_))
        )
    }

    /// A batch left writes or keys unprocessed
    /// ([`unprocessed_writes`](Error::unprocessed_writes),
    /// [`unprocessed_keys`](Error::unprocessed_keys) list them).
    pub fn is_unprocessed(&self) -> bool {
        matches!(
            self,
            Error::UnprocessedWrites { .. } | Error::UnprocessedKeys { .. }
        )
    }

    /// The writes of a batch that were not processed (empty for any other
    /// error).
    pub fn unprocessed_writes(&self) -> &[UnprocessedWrite] {
        match self {
            Error::UnprocessedWrites { writes, .. } => writes,
            _ => &[],
        }
    }

    /// The writes of a batch that were not processed, to send them again
    /// ([`BatchWrite::resend`](crate::BatchWrite::resend)); empty for any
    /// other error.
    pub fn into_unprocessed_writes(self) -> Vec<UnprocessedWrite> {
        match self {
            Error::UnprocessedWrites { writes, .. } => writes,
            _ => Vec::new(),
        }
    }

    /// The keys of a batch read that were not answered (empty for any other
    /// error).
    pub fn unprocessed_keys(&self) -> &[UnprocessedKey] {
        match self {
            Error::UnprocessedKeys { keys, .. } => keys,
            _ => &[],
        }
    }

    /// The keys of a batch read that were not answered, to ask for them
    /// again ([`BatchGet::resend`](crate::BatchGet::resend)); empty for any
    /// other error.
    pub fn into_unprocessed_keys(self) -> Vec<UnprocessedKey> {
        match self {
            Error::UnprocessedKeys { keys, .. } => keys,
            _ => Vec::new(),
        }
    }

    /// A batch addressed one key twice (nothing was sent).
    pub fn is_duplicate_key(&self) -> bool {
        matches!(self, Error::DuplicateKey { .. })
    }

    /// An item was over 400 KB (nothing was sent).
    pub fn is_item_too_large(&self) -> bool {
        matches!(self, Error::ItemTooLarge { .. })
    }

    /// DynamoDB canceled a transaction; nothing was written
    /// ([`cancellation_reasons`](Error::cancellation_reasons) says why).
    pub fn is_transaction_canceled(&self) -> bool {
        matches!(self, Error::TransactionCanceled { .. })
    }

    /// Another transaction or write was in progress on an item: an action
    /// of a canceled transaction reads `TransactionConflict`, or a
    /// single-item write met an item a transaction was writing
    /// (`TransactionConflictException`). Nothing was written; sending the
    /// same request again is safe and usually succeeds.
    pub fn is_transaction_conflict(&self) -> bool {
        matches!(
            self.sdk_error(),
            Some(aws_sdk_dynamodb::Error::TransactionConflictException(_))
        ) || self
            .cancellation_reasons()
            .iter()
            .any(CancellationReason::is_transaction_conflict)
    }

    /// Sending the same request again, after a back-off, may succeed:
    /// throttling ([`is_throttled`](Error::is_throttled), or an action of a
    /// canceled transaction throttled), a transaction conflict
    /// ([`is_transaction_conflict`](Error::is_transaction_conflict)), or
    /// a transaction with the same idempotency token still in progress
    /// (`TransactionInProgressException`). A failed condition is not
    /// retryable: read again and decide.
    pub fn is_retryable(&self) -> bool {
        self.is_throttled()
            || self.is_transaction_conflict()
            || matches!(
                self.sdk_error(),
                Some(aws_sdk_dynamodb::Error::TransactionInProgressException(_))
            )
            || self
                .cancellation_reasons()
                .iter()
                .any(|reason| reason.code().is_retryable())
    }

    /// Why DynamoDB canceled a transaction: one reason per action, in the
    /// order they were added, mapped back to each action's index, entity
    /// type and key (empty for any other error).
    pub fn cancellation_reasons(&self) -> &[CancellationReason] {
        match self {
            Error::TransactionCanceled { reasons, .. } => reasons,
            _ => &[],
        }
    }

    /// The service's error code, when DynamoDB answered with one.
    pub fn code(&self) -> Option<&str> {
        self.sdk_error().and_then(|e| e.code())
    }
}

/// A one-line description of an SDK error that carries no service code
/// (a connection refused, a timeout): the innermost cause is what helps.
fn short_description(err: &aws_sdk_dynamodb::Error) -> String {
    let mut cause: &dyn std::error::Error = err;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}

#[cfg(test)]
mod tests {
    use aws_sdk_dynamodb::error::ErrorMetadata;
    use aws_sdk_dynamodb::types::error::{
        ConditionalCheckFailedException, ProvisionedThroughputExceededException,
    };

    use super::*;

    fn service(source: aws_sdk_dynamodb::Error) -> Error {
        Error::service("PutItem", "app", source)
    }

    #[test]
    fn predicates_follow_the_service_error() {
        let condition = service(aws_sdk_dynamodb::Error::ConditionalCheckFailedException(
            ConditionalCheckFailedException::builder()
                .meta(
                    ErrorMetadata::builder()
                        .code("ConditionalCheckFailedException")
                        .build(),
                )
                .build(),
        ));
        assert!(condition.is_condition_failed());
        assert!(!condition.is_throttled());
        assert_eq!(
            condition.to_string(),
            "PutItem on table `app` failed: ConditionalCheckFailedException"
        );
        assert!(std::error::Error::source(&condition).is_some());

        let throttled = service(
            aws_sdk_dynamodb::Error::ProvisionedThroughputExceededException(
                ProvisionedThroughputExceededException::builder().build(),
            ),
        );
        assert!(throttled.is_throttled());
        assert!(!throttled.is_condition_failed());

        let validation = Error::service(
            "PutItem",
            "app",
            aws_sdk_dynamodb::operation::put_item::PutItemError::generic(
                ErrorMetadata::builder().code("ValidationException").build(),
            ),
        );
        assert!(validation.is_validation());
        assert_eq!(validation.code(), Some("ValidationException"));
    }
}
