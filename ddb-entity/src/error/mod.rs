//! The one error type of the crate: small, opaque, and asked by predicates.
//!
//! [`Error`] is a box around a private description of what went wrong
//! ([`Repr`]), so it stays one pointer wide however much detail a failure
//! carries, and new failures can be added without breaking anyone's
//! `match`. Code that branches asks [`Error::kind`] or a predicate such as
//! [`Error::is_condition_failed`]; code that reports prints it.

mod cancel;
mod cursor;
mod kind;
mod misconfig;
mod pending;
mod repr;
mod text;

use std::fmt;
use std::time::Duration;

use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};

pub use kind::ErrorKind;
pub use misconfig::Misconfiguration;
pub(crate) use repr::{Expected, ItemAt, Repr};
pub(crate) use text::a;

use crate::key::KeyError;
pub use pending::{PendingKey, PendingWrite, WriteKind};

/// An item as the SDK holds it (the crate's [`Item`](crate::item::Item); named
/// here too because errors sit below the entity layer that names it).
type Item = std::collections::HashMap<String, aws_sdk_dynamodb::types::AttributeValue>;
pub use cancel::{ActionKind, CancellationCode, CancellationReason, StaleVersion};
pub use cursor::CursorFault;

/// `Result` with this crate's [`Error`] as the default error type.
///
/// ```
/// use ddb_entity::{Result, key::KeyError};
///
/// fn parse_id(text: &str) -> Result<u64> {
///     text.parse().map_err(|_| KeyError::EmptyKey.into())
/// }
/// assert_eq!(parse_id("42")?, 42);
/// assert!(parse_id("").unwrap_err().is_key());
/// # Ok::<(), ddb_entity::Error>(())
/// ```
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in `ddb-entity`.
///
/// Errors found *before* a request is sent (a key that cannot be encoded,
/// an update with nothing to change) and errors DynamoDB answered with
/// (the SDK's typed error is then the [`source`](std::error::Error::source))
/// are told apart by [`kind`](Error::kind); branch on it or on the
/// predicates, which look inside transactions and batches too.
///
/// Every predicate answers the same for a single write and for the same
/// write as an action of a canceled transaction (where it looks at each
/// [`CancellationReason`]); only [`kind`](Error::kind) tells them apart
/// ([`ErrorKind::TransactionCanceled`]):
///
/// | what happened to the write | predicates that are true |
/// |---|---|
/// | a create found its key taken | `is_already_exists`, `is_condition_failed` |
/// | an update found no item | `is_not_found`, `is_condition_failed` |
/// | a versioned write found another version | `is_version_conflict`, `is_condition_failed` (and [`version_conflict`](Error::version_conflict)) |
/// | an item of another entity type is at the key | `is_wrong_type`, `is_condition_failed` |
/// | the caller's own condition did not hold | `is_condition_failed` |
/// | another transaction held the item | `is_transaction_conflict`, `is_retryable` |
/// | throttled | `is_throttled`, `is_retryable` |
///
/// [`entity`](Error::entity) and [`item_key`](Error::item_key) name the
/// write's entity and key, or those of the transaction's first failed
/// action.
///
/// ```
/// use ddb_entity::{Error, ErrorKind, key::KeyError};
///
/// let err = Error::from(KeyError::NaN);
/// assert_eq!(err.kind(), ErrorKind::Key);
/// assert!(err.is_key());
/// assert!(!err.is_condition_failed());
/// assert!(err.to_string().starts_with("invalid key: "));
/// assert!(std::mem::size_of::<Error>() <= 16);
/// ```
///
/// # Examples
///
/// The failures of each kind of write, as the embedded server answers them,
/// and what the predicates and accessors say about each (the accessors'
/// own docs link here):
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use ddb_entity::op::{ActionKind, CancellationCode};
/// use ddb_entity::{Condition, Db, Entity, ErrorKind, local::LocalDynamo, sdk};
/// use serde::{Deserialize, Serialize};
///
/// ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
///
/// #[derive(Entity, Serialize, Deserialize, Debug, Clone)]
/// #[entity(table = App, pk = "USER#{id}", sk = "PROFILE", version = "version")]
/// struct User { id: u64, name: String, #[serde(default)] version: u64 }
///
/// let dynamo = LocalDynamo::start().await?;
/// let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("errors"));
/// db.create_table_if_missing().await?;
/// let ada = User { id: 1, name: "Ada".into(), version: 0 };
/// db.create(&ada).await?;
///
/// // A create whose key is taken: DynamoDB answered, the condition failed.
/// let taken = db.create(&ada).await.unwrap_err();
/// assert_eq!(taken.kind(), ErrorKind::AlreadyExists);
/// assert!(taken.is_already_exists() && taken.is_condition_failed());
/// assert!(!taken.is_retryable() && !taken.is_throttled() && !taken.is_transaction_conflict());
/// assert_eq!(taken.entity(), Some("User"));
/// let (partition, sort) = taken.item_key().unwrap();
/// assert!(partition.starts_with("USER#") && sort == "PROFILE");
/// assert_eq!(taken.code(), Some("ConditionalCheckFailedException"));
/// assert!(matches!(
///     taken.sdk_error(),
///     Some(sdk::Error::ConditionalCheckFailedException(_))
/// ));
/// assert_eq!((taken.shard(), taken.field(), taken.key_error()), (None, None, None));
///
/// // An update with no item to change.
/// let f = User::fields();
/// let missing = db.update(User::key(2)?).set(f.name, "Bo".to_owned()).await.unwrap_err();
/// assert!(missing.is_not_found() && missing.is_condition_failed());
///
/// // An update over a version someone else already replaced (1 is stored).
/// let stale = db.update(User::key(1)?).set(f.name, "Ada L.".to_owned()).expect_version(7);
/// let stale = stale.await.unwrap_err();
/// assert!(stale.is_version_conflict() && !stale.is_not_found());
/// assert_eq!(stale.version_conflict(), Some((7, Some(1))));
///
/// // A transaction whose condition check found no item: nothing was written.
/// let canceled = db
///     .transact()
///     .condition_check(User::key(9)?, Condition::item_exists())
///     .put(&User { id: 3, name: "Cy".into(), version: 0 })
///     .await
///     .unwrap_err();
/// assert!(canceled.is_transaction_canceled() && canceled.is_condition_failed());
/// let reasons = canceled.cancellation_reasons();
/// assert_eq!(reasons.len(), 2);
/// assert_eq!((reasons[0].index(), reasons[0].action()), (0, ActionKind::ConditionCheck));
/// assert_eq!(reasons[0].code(), &CancellationCode::ConditionalCheckFailed);
/// assert_eq!(reasons[1].code(), &CancellationCode::None);
/// assert_eq!(canceled.entity(), Some("User")); // the first failed action's
/// assert!(db.get(User::key(3)?).await?.is_none());
///
/// // A batch that names one key twice is refused before it is sent.
/// let twice = db.batch_write().delete(User::key(5)?).delete(User::key(5)?).send().await;
/// let twice = twice.unwrap_err();
/// assert!(twice.is_duplicate_key());
/// assert!(!twice.is_unprocessed() && twice.unprocessed_writes().is_empty());
/// assert!(twice.unprocessed_keys().is_empty());
///
/// // An item over DynamoDB's 400 KB, refused before it is sent.
/// let big = User { id: 4, name: "x".repeat(500_000), version: 0 };
/// assert!(db.put(&big).await.unwrap_err().is_item_too_large());
///
/// // An item stored by other code, whose `name` is not a string: the field
/// // is named.
/// let mut item = ada.to_item()?;
/// item.insert("name".into(), sdk::types::AttributeValue::N("7".into()));
/// let client = dynamo.client();
/// client.put_item().table_name(db.table_name()).set_item(Some(item)).send().await?;
/// let decode = db.get(User::key(1)?).await.unwrap_err();
/// assert_eq!((decode.kind(), decode.field()), (ErrorKind::Decode, Some("name")));
///
/// // DynamoDB refusing a request: a table that does not exist.
/// let gone = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("gone"));
/// let err = gone.get(User::key(1)?).await.unwrap_err();
/// assert!(err.is_resource_not_found() && !err.is_validation());
/// # Ok(())
/// # }
/// ```
pub struct Error(Box<Repr>);

impl Error {
    /// What kind of failure this is.
    ///
    /// See [the examples](Error#examples).
    pub fn kind(&self) -> ErrorKind {
        self.0.kind()
    }

    /// Wraps an SDK error with the operation and table it came from,
    /// remembering whether sending the same request again may succeed.
    pub(crate) fn service<E>(
        operation: &'static str,
        table: &str,
        err: SdkError<E, HttpResponse>,
    ) -> Self
    where
        E: ProvideErrorMetadata,
        SdkError<E, HttpResponse>: Into<aws_sdk_dynamodb::Error>,
    {
        let transient = is_transient(&err);
        let answered = misconfig::from_answer(&err);
        let unsent = matches!(
            err,
            SdkError::ConstructionFailure(_) | SdkError::DispatchFailure(_)
        );
        let source: aws_sdk_dynamodb::Error = err.into();
        let misconfigured =
            answered.or_else(|| unsent.then(|| misconfig::from_causes(&source)).flatten());
        // No resend fixes a misconfiguration (a dispatch failure for want
        // of credentials would otherwise read as transient).
        let transient = transient && misconfigured.is_none();
        let (code, message) = code_and_message(&source);
        Repr::Service {
            operation,
            table: table.to_owned(),
            code,
            message,
            transient,
            misconfigured,
            source: Box::new(source),
        }
        .into()
    }

    /// What a misconfigured deployment lacks, when this is
    /// [`ErrorKind::Misconfigured`]: its `Display` says what to check.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use ddb_entity::{Db, Entity, ErrorKind, Misconfiguration, local::LocalDynamo};
    /// use serde::{Deserialize, Serialize};
    ///
    /// ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    ///
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "USER#{id}", sk = "PROFILE")]
    /// struct User { id: u64 }
    ///
    /// let dynamo = LocalDynamo::start().await?;
    /// // A table that was never created: no retry will find it.
    /// let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("missing"));
    /// let err = db.get(User::key(1)?).await.unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::Misconfigured);
    /// assert_eq!(err.misconfiguration(), Some(Misconfiguration::TableNotFound));
    /// assert!(err.is_misconfigured() && !err.is_retryable());
    /// assert!(err.to_string().contains("check the table name"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn misconfiguration(&self) -> Option<Misconfiguration> {
        match self.repr() {
            Repr::Service { misconfigured, .. } => *misconfigured,
            Repr::Misconfigured { what, .. } => Some(*what),
            Repr::InShard { source, .. } => source.misconfiguration(),
            _ => None,
        }
    }

    /// The deployment is misconfigured (no region, credentials missing or
    /// refused, an endpoint that is not DynamoDB, no such table): fix the
    /// configuration, do not retry. [`misconfiguration`](Error::misconfiguration)
    /// says which.
    ///
    /// ```
    /// use ddb_entity::{Error, key::KeyError};
    /// assert!(!Error::from(KeyError::NaN).is_misconfigured());
    /// ```
    pub fn is_misconfigured(&self) -> bool {
        self.misconfiguration().is_some()
    }

    /// Wraps a DynamoDB Streams SDK error with the operation and stream it
    /// came from, as [`Error::service`] does for DynamoDB's.
    #[cfg(feature = "streams")]
    pub(crate) fn stream_service<E>(
        operation: &'static str,
        stream: &str,
        err: SdkError<E, HttpResponse>,
    ) -> Self
    where
        E: ProvideErrorMetadata,
        SdkError<E, HttpResponse>: Into<aws_sdk_dynamodbstreams::Error>,
    {
        // The Streams API throttles with `LimitExceededException`.
        let transient = is_transient(&err)
            || matches!(&err, SdkError::ServiceError(service)
                if service.err().code() == Some("LimitExceededException"));
        let source: aws_sdk_dynamodbstreams::Error = err.into();
        let (code, message) = code_and_message(&source);
        Repr::StreamService {
            operation,
            stream: stream.to_owned(),
            code,
            message,
            transient,
            source: Box::new(source),
        }
        .into()
    }

    /// A failed S3 request of an export's reading (feature `export-s3`):
    /// `object` is `s3://bucket/key`.
    #[cfg(feature = "export-s3")]
    pub(crate) fn s3<E>(
        operation: &'static str,
        object: String,
        err: SdkError<E, HttpResponse>,
    ) -> Self
    where
        E: ProvideErrorMetadata,
        SdkError<E, HttpResponse>: Into<aws_sdk_s3::Error>,
    {
        let transient = is_transient(&err)
            || matches!(&err, SdkError::ServiceError(service)
                if matches!(service.err().code(), Some("SlowDown" | "InternalError" | "ServiceUnavailable")));
        let source: aws_sdk_s3::Error = err.into();
        let (code, message) = code_and_message(&source);
        Repr::ExportS3 {
            operation,
            object,
            code,
            message,
            transient,
            source: Box::new(source),
        }
        .into()
    }

    pub(crate) fn repr(&self) -> &Repr {
        &self.0
    }

    /// The SDK error behind a failure DynamoDB (or the HTTP layer) answered
    /// with, also when it is wrapped (a create that found its key taken, the
    /// last error of a batch).
    ///
    /// See [the examples](Error#examples).
    pub fn sdk_error(&self) -> Option<&aws_sdk_dynamodb::Error> {
        match self.repr() {
            Repr::Service { source, .. } | Repr::TransactionCanceled { source, .. } => Some(source),
            Repr::AlreadyExists { source, .. } | Repr::ConditionFailed { source, .. } => {
                source.sdk_error()
            }
            Repr::UnprocessedWrites { source, .. } | Repr::UnprocessedKeys { source, .. } => {
                source.as_ref().and_then(Error::sdk_error)
            }
            Repr::InShard { source, .. } => source.sdk_error(),
            _ => None,
        }
    }

    /// For a query read over shards that failed in one shard: that shard
    /// and the shard count (`(3, 16)`). The read returned nothing — never
    /// the other shards' items alone — and the error's kind and predicates
    /// are the shard's failure's.
    ///
    /// See [the examples](Error#examples).
    pub fn shard(&self) -> Option<(u16, u16)> {
        match self.repr() {
            Repr::InShard { shard, count, .. } => Some((*shard, *count)),
            _ => None,
        }
    }

    /// The service's error code (`ConditionalCheckFailedException`, …),
    /// when DynamoDB answered with one.
    ///
    /// See [the examples](Error#examples).
    pub fn code(&self) -> Option<&str> {
        match self.repr() {
            #[cfg(feature = "streams")]
            Repr::StreamService { code, .. } => code.as_deref(),
            #[cfg(feature = "export-s3")]
            Repr::ExportS3 { code, .. } => code.as_deref(),
            _ => self.sdk_error().and_then(ProvideErrorMetadata::code),
        }
    }

    /// The DynamoDB Streams SDK error behind a failed Streams API call (a
    /// `ddb_entity::stream::Poller`'s `GetRecords`, …).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use ddb_entity::{ErrorKind, local::LocalDynamo, stream::{Poller, sdk}};
    /// use futures_util::StreamExt;
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(ddb_entity::Entity, serde::Serialize, serde::Deserialize, Debug)]
    /// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// # struct Customer { id: u64 }
    ///
    /// let dynamo = LocalDynamo::start().await?;
    /// let streams = sdk::Client::from_conf(dynamo.streams_config_builder().build());
    /// let arn = "arn:aws:dynamodb:us-east-1:000000000000:table/gone/stream/1";
    /// let records = Poller::<Customer>::new(streams, arn).records();
    /// let err = std::pin::pin!(records).next().await.unwrap().unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::Service);
    /// assert!(err.is_resource_not_found());
    /// assert!(err.streams_sdk_error().is_some());
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "streams")]
    #[cfg_attr(docsrs, doc(cfg(feature = "streams")))]
    pub fn streams_sdk_error(&self) -> Option<&aws_sdk_dynamodbstreams::Error> {
        match self.repr() {
            Repr::StreamService { source, .. } => Some(source),
            _ => None,
        }
    }

    /// The entity type (its [`RUST_NAME`](crate::entity::Entity::RUST_NAME)) the
    /// failure is about, when it is about one; for a canceled transaction,
    /// the entity of its first failed action.
    ///
    /// See [the examples](Error#examples).
    pub fn entity(&self) -> Option<&'static str> {
        self.repr()
            .entity()
            .or_else(|| self.first_failure().map(CancellationReason::entity))
    }

    /// The partition and sort key values of the item the failure is about,
    /// when it names one (a taken key, a missing item, a stored key that
    /// does not match its entity, …); for a canceled transaction, the key
    /// of its first failed action.
    ///
    /// See [the examples](Error#examples).
    pub fn item_key(&self) -> Option<(&str, &str)> {
        self.repr().item_key().or_else(|| {
            self.first_failure()
                .map(|reason| (reason.partition(), reason.sort()))
        })
    }

    /// The first action of a canceled transaction that failed.
    fn first_failure(&self) -> Option<&CancellationReason> {
        self.cancellation_reasons()
            .iter()
            .find(|reason| reason.is_failure())
    }

    /// The entity field a decode failure is about (`total_cents`), when
    /// it is known: its top-level attribute.
    ///
    /// See [the examples](Error#examples).
    pub fn field(&self) -> Option<&str> {
        match self.repr() {
            Repr::Decode { field, .. } => field.as_deref(),
            Repr::InShard { source, .. } => source.field(),
            _ => None,
        }
    }

    /// Why a query refused its cursor, for an
    /// [`ErrorKind::InvalidCursor`]: a service answers every fault alike
    /// (HTTP 400), and may log them apart (see [`CursorFault`]).
    ///
    /// ```
    /// use ddb_entity::{Cursor, op::CursorFault};
    ///
    /// let err = "c2.A".parse::<Cursor>().unwrap_err();
    /// assert_eq!(err.cursor_fault(), Some(CursorFault::Malformed));
    /// ```
    pub fn cursor_fault(&self) -> Option<CursorFault> {
        match self.repr() {
            Repr::InvalidCursor { fault, .. } => Some(*fault),
            Repr::InShard { source, .. } => source.cursor_fault(),
            _ => None,
        }
    }

    /// No item to update at the key (single update, or an update action of a
    /// canceled transaction).
    ///
    /// See [the examples](Error#examples).
    pub fn is_not_found(&self) -> bool {
        matches!(self.repr(), Repr::NotFound { .. })
            || self
                .cancellation_reasons()
                .iter()
                .any(CancellationReason::is_not_found)
    }

    /// A create found its key taken (single create, or a create action of a
    /// canceled transaction).
    ///
    /// See [the examples](Error#examples).
    pub fn is_already_exists(&self) -> bool {
        matches!(self.repr(), Repr::AlreadyExists { .. })
            || self
                .cancellation_reasons()
                .iter()
                .any(CancellationReason::is_already_exists)
    }

    /// A key could not be encoded, or a stored key could not be parsed;
    /// nothing was sent.
    ///
    /// See [the examples](Error#examples).
    pub fn is_key(&self) -> bool {
        self.kind() == ErrorKind::Key
    }

    /// The encoder's error behind a key error (a NaN, a width overflow, an
    /// empty or too long key, …).
    ///
    /// See [the examples](Error#examples).
    pub fn key_error(&self) -> Option<&KeyError> {
        match self.repr() {
            Repr::Key { source, .. } | Repr::IndexKey { source, .. } => Some(source),
            Repr::InShard { source, .. } => source.key_error(),
            _ => None,
        }
    }

    /// A condition (including "the item must not exist yet", "the item must
    /// exist", a version check and the type guard) did not hold, for a
    /// single write or for an action of a canceled transaction.
    ///
    /// See [the examples](Error#examples).
    pub fn is_condition_failed(&self) -> bool {
        matches!(
            self.repr(),
            Repr::VersionConflict { .. }
                | Repr::NotFound { .. }
                | Repr::AlreadyExists { .. }
                | Repr::ForeignItem { .. }
                | Repr::ConditionFailed { .. }
        ) || matches!(
            self.sdk_error(),
            Some(aws_sdk_dynamodb::Error::ConditionalCheckFailedException(_))
        ) || self
            .cancellation_reasons()
            .iter()
            .any(CancellationReason::is_condition_failed)
    }

    /// Another writer changed a versioned entity first (single write, or a
    /// versioned action of a canceled transaction): read again and retry.
    ///
    /// See [the examples](Error#examples).
    pub fn is_version_conflict(&self) -> bool {
        matches!(self.repr(), Repr::VersionConflict { .. })
            || self
                .cancellation_reasons()
                .iter()
                .any(CancellationReason::is_version_conflict)
    }

    /// For a version conflict: the version the write expected and the one
    /// stored (`None` when no item is stored) — of a single write, or of
    /// the first versioned action of a canceled transaction that found
    /// another version.
    ///
    /// See [the examples](Error#examples).
    pub fn version_conflict(&self) -> Option<(u64, Option<u64>)> {
        match self.repr() {
            Repr::VersionConflict {
                expected, found, ..
            } => Some((*expected, *found)),
            _ => self
                .cancellation_reasons()
                .iter()
                .find_map(CancellationReason::stale_version)
                .map(|stale| (stale.expected, stale.found)),
        }
    }

    /// An item of another entity type than the one asked for (or one
    /// written without a type attribute) is stored at the key: a read
    /// refused to decode it, a write (or an action of a canceled
    /// transaction) left it untouched.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "NAME#{name}", sk = "NAME", type = "USER")]
    /// struct User { name: String }
    ///
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "NAME#{name}", sk = "NAME", type = "ORG")]
    /// struct Org { name: String }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// db.put(&Org { name: "acme".into() }).await?;
    /// let alone = db.put(&User { name: "acme".into() }).await.unwrap_err();
    /// let in_a_transaction = db.transact().put(&User { name: "acme".into() }).await.unwrap_err();
    /// assert!(alone.is_wrong_type() && in_a_transaction.is_wrong_type());
    /// # Ok(())
    /// # }
    /// ```
    pub fn is_wrong_type(&self) -> bool {
        self.kind() == ErrorKind::WrongType
            || self
                .cancellation_reasons()
                .iter()
                .any(CancellationReason::is_wrong_type)
    }

    /// The request (or an action of a canceled transaction) was
    /// throttled; it is safe to retry after a back-off.
    ///
    /// See [the examples](Error#examples).
    pub fn is_throttled(&self) -> bool {
        use aws_sdk_dynamodb::Error as E;
        matches!(
            self.sdk_error(),
            Some(
                E::ProvisionedThroughputExceededException(_)
                    | E::RequestLimitExceeded(_)
                    | E::ThrottlingException(_)
            )
        ) || matches!(
            self.code(),
            // The Streams API's throttling is `LimitExceededException`.
            Some("ThrottlingException" | "LimitExceededException")
        ) || self.cancellation_reasons().iter().any(|reason| {
            matches!(
                reason.code(),
                CancellationCode::ProvisionedThroughputExceeded | CancellationCode::ThrottlingError
            )
        })
    }

    /// DynamoDB rejected the request as invalid (`ValidationException`).
    ///
    /// See [the examples](Error#examples).
    pub fn is_validation(&self) -> bool {
        self.code() == Some("ValidationException")
    }

    /// The table (or index) does not exist.
    ///
    /// See [the examples](Error#examples).
    pub fn is_resource_not_found(&self) -> bool {
        matches!(
            self.sdk_error(),
            Some(aws_sdk_dynamodb::Error::ResourceNotFoundException(_))
        ) || self.code() == Some("ResourceNotFoundException")
    }

    /// A batch left writes or keys unprocessed
    /// ([`unprocessed_writes`](Error::unprocessed_writes),
    /// [`unprocessed_keys`](Error::unprocessed_keys) list them).
    ///
    /// See [the examples](Error#examples).
    pub fn is_unprocessed(&self) -> bool {
        matches!(
            self.kind(),
            ErrorKind::UnprocessedWrites | ErrorKind::UnprocessedKeys
        )
    }

    /// The writes of a batch that were not processed (empty for any other
    /// error).
    ///
    /// See [the examples](Error#examples).
    pub fn unprocessed_writes(&self) -> &[PendingWrite] {
        match self.repr() {
            Repr::UnprocessedWrites { writes, .. } => writes,
            _ => &[],
        }
    }

    /// The writes of a batch that were not processed, to send them again
    /// ([`BatchWrite::resend`](crate::batch::BatchWrite::resend)); empty for
    /// any other error.
    ///
    /// See [the examples](Error#examples).
    pub fn into_unprocessed_writes(self) -> Vec<PendingWrite> {
        match *self.0 {
            Repr::UnprocessedWrites { writes, .. } => writes,
            _ => Vec::new(),
        }
    }

    /// The keys of a batch read that were not answered (empty for any other
    /// error).
    ///
    /// See [the examples](Error#examples).
    pub fn unprocessed_keys(&self) -> &[PendingKey] {
        match self.repr() {
            Repr::UnprocessedKeys { keys, .. } => keys,
            _ => &[],
        }
    }

    /// The keys of a batch read that were not answered, to ask for them
    /// again ([`BatchGet::resend`](crate::batch::BatchGet::resend)); empty for
    /// any other error.
    ///
    /// See [the examples](Error#examples).
    pub fn into_unprocessed_keys(self) -> Vec<PendingKey> {
        match *self.0 {
            Repr::UnprocessedKeys { keys, .. } => keys,
            _ => Vec::new(),
        }
    }

    /// A batch or a transaction addressed one key twice (nothing was sent).
    ///
    /// See [the examples](Error#examples).
    pub fn is_duplicate_key(&self) -> bool {
        matches!(
            self.kind(),
            ErrorKind::DuplicateKey | ErrorKind::DuplicateAction
        )
    }

    /// An item was over 400 KB (nothing was sent).
    ///
    /// See [the examples](Error#examples).
    pub fn is_item_too_large(&self) -> bool {
        self.kind() == ErrorKind::ItemTooLarge
    }

    /// DynamoDB canceled a transaction; nothing was written
    /// ([`cancellation_reasons`](Error::cancellation_reasons) says why).
    ///
    /// See [the examples](Error#examples).
    pub fn is_transaction_canceled(&self) -> bool {
        self.kind() == ErrorKind::TransactionCanceled
    }

    /// Another transaction or write was in progress on an item: an action
    /// of a canceled transaction reads `TransactionConflict`, or a
    /// single-item write met an item a transaction was writing
    /// (`TransactionConflictException`). Nothing was written; sending the
    /// same request again is safe and usually succeeds.
    ///
    /// See [the examples](Error#examples).
    pub fn is_transaction_conflict(&self) -> bool {
        matches!(
            self.sdk_error(),
            Some(aws_sdk_dynamodb::Error::TransactionConflictException(_))
        ) || self
            .cancellation_reasons()
            .iter()
            .any(CancellationReason::is_transaction_conflict)
    }

    /// Sending the same request again, after a back-off, may succeed: the
    /// failure was throttling, a transaction conflict, a transaction with
    /// the same idempotency token still in progress, a server error (HTTP
    /// 5xx: `InternalServerError`, `ServiceUnavailable`), a request that
    /// could not be sent, a timeout or an answer that could not be read.
    ///
    /// It says nothing about whether the first attempt was applied: after a
    /// timeout or a lost answer it may have been. Each operation's docs say
    /// whether resending that operation is safe. A failed condition or a
    /// refused request is not retryable: read again and decide.
    ///
    /// See [the examples](Error#examples).
    pub fn is_retryable(&self) -> bool {
        let transient = match self.repr() {
            Repr::Service { transient, .. } => *transient,
            Repr::InShard { source, .. } => return source.is_retryable(),
            #[cfg(feature = "streams")]
            Repr::StreamService { transient, .. } => *transient,
            #[cfg(feature = "export-s3")]
            Repr::ExportS3 { transient, .. } => *transient,
            _ => false,
        };
        transient
            || self.is_throttled()
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
    ///
    /// See [the examples](Error#examples).
    pub fn cancellation_reasons(&self) -> &[CancellationReason] {
        match self.repr() {
            Repr::TransactionCanceled { reasons, .. } => reasons,
            _ => &[],
        }
    }

    /// A key error with the entity and field it was built for, so the
    /// message names them.
    pub(crate) fn key_of(entity: &'static str, field: &'static str, source: KeyError) -> Self {
        Repr::Key {
            entity: Some(entity),
            field: Some(field),
            source,
        }
        .into()
    }

    /// The same error, told which entity's key it is about when it did not
    /// know yet.
    pub(crate) fn for_entity(mut self, name: &'static str) -> Self {
        if let Repr::Key { entity, .. } | Repr::IndexKey { entity, .. } = &mut *self.0
            && entity.is_none()
        {
            *entity = Some(name);
        }
        self
    }

    /// A key error about the key attribute `attribute` of index `index`.
    pub(crate) fn index_key(
        entity: Option<&'static str>,
        index: &'static str,
        attribute: &'static str,
        source: KeyError,
    ) -> Self {
        Repr::IndexKey {
            entity,
            index,
            attribute,
            source,
        }
        .into()
    }

    /// A not-yet-known-entity error about a `NotActive` table.
    /// The failure of shard `shard` of `count` (stored at `partition`) of
    /// a query read over shards.
    pub(crate) fn in_shard(self, shard: u16, count: u16, partition: &str) -> Self {
        Repr::InShard {
            shard,
            count,
            partition: partition.to_owned(),
            source: self,
        }
        .into()
    }

    /// A not-yet-known-entity error about a `NotActive` table.
    pub(crate) fn not_active(table: &str, status: String, waited: Duration) -> Self {
        Repr::NotActive {
            table: table.to_owned(),
            status,
            waited,
        }
        .into()
    }
}

impl From<Repr> for Error {
    fn from(repr: Repr) -> Self {
        Error(Box::new(repr))
    }
}

impl From<KeyError> for Error {
    fn from(source: KeyError) -> Self {
        Repr::Key {
            entity: None,
            field: None,
            source,
        }
        .into()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The message is what helps; the kind lets a reader branch on it.
        f.debug_struct("Error")
            .field("kind", &self.kind())
            .field("message", &self.to_string())
            .finish()
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

/// Whether a failed request may succeed when sent again: it was throttled,
/// the server failed (5xx), or no answer was read (a dispatch failure, a
/// timeout, a response that could not be parsed).
fn is_transient<E: ProvideErrorMetadata>(err: &SdkError<E, HttpResponse>) -> bool {
    const TRANSIENT: [&str; 6] = [
        "ProvisionedThroughputExceededException",
        "RequestLimitExceeded",
        "ThrottlingException",
        "InternalServerError",
        "ServiceUnavailable",
        "TransactionInProgressException",
    ];
    match err {
        SdkError::TimeoutError(_) | SdkError::ResponseError(_) => true,
        SdkError::DispatchFailure(failure) => !failure.is_user(),
        SdkError::ServiceError(service) => {
            service.raw().status().is_server_error()
                || service
                    .err()
                    .code()
                    .is_some_and(|code| TRANSIENT.contains(&code))
        }
        _ => false,
    }
}

/// The innermost cause of an SDK error that carries no service code (a
/// connection refused, a timeout): that is what helps.
/// A service error's code and what to say of it: the service's message
/// when it answered with one; when it did not answer at all, the
/// innermost cause says what happened.
fn code_and_message<E>(source: &E) -> (Option<String>, Option<String>)
where
    E: ProvideErrorMetadata + std::error::Error + 'static,
{
    let code = source.code().map(str::to_owned);
    let message = match (&code, source.message()) {
        (Some(_), Some(message)) if !message.is_empty() => Some(message.to_owned()),
        (Some(_), _) => None,
        (None, _) => Some(innermost_cause(source)),
    };
    (code, message)
}

fn innermost_cause(err: &(dyn std::error::Error + 'static)) -> String {
    let mut cause: &dyn std::error::Error = err;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}

#[cfg(test)]
mod tests {
    use aws_sdk_dynamodb::config::http::HttpResponse as Response;
    use aws_sdk_dynamodb::error::ErrorMetadata;
    use aws_sdk_dynamodb::operation::put_item::PutItemError;
    use aws_sdk_dynamodb::types::error::{
        ConditionalCheckFailedException, ProvisionedThroughputExceededException,
    };
    use aws_smithy_runtime_api::http::StatusCode;
    use aws_smithy_types::body::SdkBody;

    use super::*;

    fn answered(err: PutItemError, status: u16) -> Error {
        let raw = Response::new(StatusCode::try_from(status).unwrap(), SdkBody::empty());
        Error::service("PutItem", "app", SdkError::service_error(err, raw))
    }

    #[test]
    fn an_error_is_one_pointer_wide() {
        assert!(std::mem::size_of::<Error>() <= 16);
    }

    #[test]
    fn predicates_follow_the_service_error() {
        let condition = answered(
            PutItemError::ConditionalCheckFailedException(
                ConditionalCheckFailedException::builder()
                    .message("The conditional request failed")
                    .meta(
                        ErrorMetadata::builder()
                            .code("ConditionalCheckFailedException")
                            .message("The conditional request failed")
                            .build(),
                    )
                    .build(),
            ),
            400,
        );
        assert_eq!(condition.kind(), ErrorKind::Service);
        assert!(condition.is_condition_failed());
        assert!(!condition.is_throttled());
        assert!(!condition.is_retryable());
        assert_eq!(
            condition.to_string(),
            "PutItem on table `app` failed: ConditionalCheckFailedException: The conditional request failed"
        );
        assert!(std::error::Error::source(&condition).is_some());

        let throttled = answered(
            PutItemError::ProvisionedThroughputExceededException(
                ProvisionedThroughputExceededException::builder()
                    .meta(
                        ErrorMetadata::builder()
                            .code("ProvisionedThroughputExceededException")
                            .build(),
                    )
                    .build(),
            ),
            400,
        );
        assert!(throttled.is_throttled());
        assert!(throttled.is_retryable());
        assert!(!throttled.is_condition_failed());

        let validation = answered(
            PutItemError::generic(ErrorMetadata::builder().code("ValidationException").build()),
            400,
        );
        assert!(validation.is_validation());
        assert!(!validation.is_retryable());
        assert_eq!(validation.code(), Some("ValidationException"));
    }

    #[test]
    fn server_errors_and_lost_answers_are_retryable() {
        for code in ["InternalServerError", "ServiceUnavailable"] {
            let err = answered(
                PutItemError::generic(ErrorMetadata::builder().code(code).build()),
                if code == "InternalServerError" {
                    500
                } else {
                    503
                },
            );
            assert!(err.is_retryable(), "{code}");
        }
        let timeout: SdkError<PutItemError, Response> =
            SdkError::timeout_error("attempt timeout".to_owned());
        assert!(Error::service("PutItem", "app", timeout).is_retryable());
        let lost: SdkError<PutItemError, Response> = SdkError::response_error(
            "connection reset",
            Response::new(StatusCode::try_from(200).unwrap(), SdkBody::empty()),
        );
        assert!(Error::service("PutItem", "app", lost).is_retryable());
        // A connection cut (before or after the server applied it).
        let cut: SdkError<PutItemError, Response> = SdkError::dispatch_failure(
            aws_smithy_runtime_api::client::result::ConnectorError::io("connection reset".into()),
        );
        let cut = Error::service("PutItem", "app", cut);
        assert!(cut.is_retryable() && !cut.is_condition_failed(), "{cut:?}");
        // Throttling is retryable; a refused request or a failed condition
        // is not.
        for (code, status, retryable) in [
            ("ThrottlingException", 400, true),
            ("RequestLimitExceeded", 400, true),
            ("ValidationException", 400, false),
            ("AccessDeniedException", 400, false),
        ] {
            let err = answered(
                PutItemError::generic(ErrorMetadata::builder().code(code).build()),
                status,
            );
            assert_eq!(err.is_retryable(), retryable, "{code}");
        }
    }
}
