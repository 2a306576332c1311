//! BatchWriteItem: puts and deletes of entities of any type of the table.

use std::collections::HashMap;
use std::sync::Mutex;

use aws_sdk_dynamodb::types::{DeleteRequest, PutRequest, ReturnConsumedCapacity, WriteRequest};
use tracing::Instrument;

use super::engine::{self, Attempt, Entry, Failure};
use super::retry::BatchRetry;
use super::{DEFAULT_CONCURRENCY, EntityNames, key_of, lock};
use crate::capacity::Spent;
use crate::db::Db;
use crate::entity::convert;
use crate::entity::{Entity, Key};
use crate::error::{Error, PendingWrite, Repr, Result, WriteKind};
use crate::future::into_future;
use crate::item::size::{check_item, wire_size};
use crate::key::KeyError;
use crate::table::Table;

/// Writes per BatchWriteItem request: DynamoDB's limit.
const MAX_WRITES: usize = 25;

/// DynamoDB refuses a request body over 16 MB. Requests are planned from an
/// upper bound of each write's JSON size, against 16 000 000 bytes (under
/// 16 MiB whichever "MB" is meant), less the envelope.
const MAX_REQUEST_BYTES: usize = 16_000_000;

/// `{"PutRequest":{"Item":…}},` around each write's item.
const PER_WRITE_BYTES: usize = 32;

/// Puts and deletes of entities of any types of one table, sent as
/// BatchWriteItem requests. Made by [`Db::batch_write`].
///
/// - The writes are split into requests of at most 25 writes and under the
///   16 MB request limit, sent up to [`concurrency`](BatchWrite::concurrency)
///   at a time.
/// - What DynamoDB returns as `UnprocessedItems`, and requests refused by
///   throttling or a transient error, are retried with exponential backoff
///   and full jitter within a [`BatchRetry`] budget.
/// - When the budget runs out, or a request fails for good, the error
///   ([`Error::unprocessed_writes`]) lists exactly the writes not known to be
///   done — typed, with their entity type and key — in the order they were
///   added. Nothing is dropped silently. Sending them again is safe: puts
///   and deletes are idempotent.
/// - Refused before anything is sent: two writes to one key
///   ([`Error::is_duplicate_key`]; DynamoDB would reject the whole request, and
///   across requests their order would be undefined), an item over 400 KB
///   ([`Error::is_item_too_large`]), a number DynamoDB cannot store
///   ([`ErrorKind::InvalidNumber`](crate::error::ErrorKind::InvalidNumber)), an
///   empty key.
/// - An empty batch sends nothing.
/// - A versioned entity (`#[entity(version = …)]`) cannot be put in a batch,
///   which carries no condition to check its version: use [`Db::put`].
///   Deleting one by key is allowed, as with [`Db::delete`].
/// - Maintained timestamps are written as by [`Db::put`].
///
/// A batch is not a transaction: each write succeeds or fails on its own,
/// and there are no conditions.
///
/// # Example
///
/// Every setting (the full batch is [`Db::batch_write`]'s example; writes
/// sent again, [`PendingWrite`]'s):
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use ddb_entity::op::BatchRetry;
/// use ddb_entity::{Db, Entity, local::LocalDynamo};
/// use serde::{Deserialize, Serialize};
///
/// ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
///
/// #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
/// #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// struct Customer { id: u64, name: String }
///
/// let dynamo = LocalDynamo::start().await?;
/// let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("batch"));
/// db.create_table_if_missing().await?;
/// db.put(&Customer { id: 2, name: "Bo".into() }).await?;
///
/// let batch = db
///     .batch_write()
///     .put(&Customer { id: 1, name: "Ada".into() })
///     .delete(Customer::key(2)?)
///     .resend(Vec::new()) // what an earlier batch left unwritten
///     .concurrency(1)
///     .retry(BatchRetry::new().max_attempts(3));
/// assert_eq!((batch.len(), batch.is_empty()), (2, false));
/// batch.send().await?;
/// assert!(db.get(Customer::key(1)?).await?.is_some());
/// assert!(db.get(Customer::key(2)?).await?.is_none());
/// # Ok(())
/// # }
/// ```
#[must_use = "nothing happens until you call `.send().await` (or `.await`)"]
pub struct BatchWrite<'db, T: Table> {
    db: &'db Db<T>,
    writes: Vec<PendingWrite>,
    /// The first error met while adding writes, reported by `send`.
    error: Option<Error>,
    concurrency: usize,
    retry: BatchRetry,
}

impl Entry for PendingWrite {
    type Request = WriteRequest;

    fn position(&self) -> usize {
        self.position
    }

    fn key(&self) -> (&str, &str) {
        (&self.partition, &self.sort)
    }

    fn request(&self) -> WriteRequest {
        self.request.clone()
    }
}

impl<T: Table> Db<T> {
    /// Starts a batch of puts and deletes, of any entity types of the
    /// table (BatchWriteItem).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// struct Customer { id: u64, name: String }
    ///
    /// #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}")]
    /// struct Order { customer_id: u64, order_id: u64 }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// db.put(&Order { customer_id: 42, order_id: 0 }).await?;
    ///
    /// // 1 customer, 60 orders and a delete: three requests (25 + 25 + 11).
    /// let mut batch = db
    ///     .batch_write()
    ///     .put(&Customer { id: 42, name: "Ada".into() })
    ///     .delete(Order::key(42, 0)?);
    /// for order_id in 1..=60 {
    ///     batch = batch.put(&Order { customer_id: 42, order_id });
    /// }
    /// batch.await?;
    ///
    /// let orders: Vec<Order> = db.query(Order::partition(42)?).collect().await?;
    /// assert_eq!(orders.len(), 60);
    ///
    /// // Two writes to one key are refused before anything is sent.
    /// let err = db
    ///     .batch_write()
    ///     .put(&Order { customer_id: 42, order_id: 7 })
    ///     .delete(Order::key(42, 7)?)
    ///     .await
    ///     .unwrap_err();
    /// assert!(err.is_duplicate_key());
    /// # Ok(())
    /// # }
    /// ```
    pub fn batch_write(&self) -> BatchWrite<'_, T> {
        BatchWrite {
            db: self,
            writes: Vec::new(),
            error: None,
            concurrency: DEFAULT_CONCURRENCY,
            retry: BatchRetry::default(),
        }
    }
}

impl<'db, T: Table> BatchWrite<'db, T> {
    /// Puts `entity`, replacing any item with its key. The item is built
    /// and checked now; an error is reported by [`send`](BatchWrite::send).
    ///
    /// See [the example](BatchWrite#example).
    pub fn put<E: Entity<Table = T>>(mut self, entity: &E) -> Self {
        if self.error.is_none() {
            match self.put_request(entity) {
                Ok(write) => self.writes.push(write),
                Err(err) => self.error = Some(err),
            }
        }
        self
    }

    /// Deletes the entity with `key` (deleting a missing item is not an
    /// error).
    ///
    /// See [the example](BatchWrite#example).
    pub fn delete<E: Entity<Table = T>>(mut self, key: Key<E>) -> Self {
        if self.error.is_none() {
            match self.delete_request(key) {
                Ok(write) => self.writes.push(write),
                Err(err) => self.error = Some(err),
            }
        }
        self
    }

    /// Adds writes returned by a previous batch ([`Error::unprocessed_writes`],
    /// [`Error::into_unprocessed_writes`]), to send them again.
    ///
    /// See [the example](BatchWrite#example).
    pub fn resend(mut self, writes: impl IntoIterator<Item = PendingWrite>) -> Self {
        let keys = T::SCHEMA.primary;
        for mut write in writes {
            // The write must address this table's key attributes.
            let fits = match (&write.kind, &write.request) {
                (WriteKind::Put, request) => request.put_request().map(|put| &put.item),
                (WriteKind::Delete, request) => request.delete_request().map(|delete| &delete.key),
            }
            .is_some_and(|attributes| {
                key_of(attributes, keys) == Some((write.partition.as_str(), write.sort.as_str()))
            });
            if !fits {
                self.error.get_or_insert(
                    Repr::WrongTable {
                        what: "a resent write",
                        built_for: "another table".to_owned(),
                        table: self.db.table_name().to_owned(),
                        fix: "resend writes only to the table they came from",
                    }
                    .into(),
                );
                continue;
            }
            write.position = self.writes.len();
            self.writes.push(write);
        }
        self
    }

    /// At most `requests` requests in flight at once (default 4, at least 1).
    ///
    /// See [the example](BatchWrite#example).
    pub fn concurrency(mut self, requests: usize) -> Self {
        self.concurrency = requests.max(1);
        self
    }

    /// The retry budget (default [`BatchRetry::new`]).
    ///
    /// See [the example](BatchWrite#example).
    pub fn retry(mut self, retry: BatchRetry) -> Self {
        self.retry = retry;
        self
    }

    /// How many writes the batch holds so far.
    ///
    /// See [the example](BatchWrite#example).
    pub fn len(&self) -> usize {
        self.writes.len()
    }

    /// Whether the batch holds no write (sending it sends nothing).
    ///
    /// See [the example](BatchWrite#example).
    pub fn is_empty(&self) -> bool {
        self.writes.is_empty()
    }

    fn put_request<E: Entity<Table = T>>(&self, entity: &E) -> Result<PendingWrite> {
        if E::LAYOUT.version_attribute().is_some() {
            // A batch write carries no condition: it would overwrite a newer
            // version without noticing.
            return Err(Repr::VersionedInBatch {
                entity: E::RUST_NAME,
            }
            .into());
        }
        let item = convert::to_item(entity, self.db.now())?;
        check_item(E::RUST_NAME, &item)?;
        let (partition, sort) = key_of(&item, T::SCHEMA.primary)
            .map(|(p, s)| (p.to_owned(), s.to_owned()))
            .ok_or_else(|| Error::from(KeyError::EmptyKey).for_entity(E::RUST_NAME))?;
        let wire = wire_size(&item) + PER_WRITE_BYTES;
        let put = PutRequest::builder()
            .set_item(Some(item))
            .build()
            .map_err(build_error)?;
        Ok(PendingWrite {
            position: self.writes.len(),
            entity: E::RUST_NAME,
            kind: WriteKind::Put,
            partition,
            sort,
            request: WriteRequest::builder().put_request(put).build(),
            wire,
        })
    }

    fn delete_request<E: Entity<Table = T>>(&self, key: Key<E>) -> Result<PendingWrite> {
        let attributes = key.to_attributes();
        if key_of(&attributes, T::SCHEMA.primary).is_none() {
            return Err(Error::from(KeyError::EmptyKey).for_entity(E::RUST_NAME));
        }
        let wire = wire_size(&attributes) + PER_WRITE_BYTES;
        let (partition, sort) = key.into_parts();
        let delete = DeleteRequest::builder()
            .set_key(Some(attributes))
            .build()
            .map_err(build_error)?;
        Ok(PendingWrite {
            position: self.writes.len(),
            entity: E::RUST_NAME,
            kind: WriteKind::Delete,
            partition,
            sort: if T::SCHEMA.primary.sort_key.is_some() {
                sort
            } else {
                String::new()
            },
            request: WriteRequest::builder().delete_request(delete).build(),
            wire,
        })
    }

    /// Sends the batch: `Ok(())` once every write is done;
    /// an error listing the writes that are not ([`Error::unprocessed_writes`]) when the
    /// retry budget runs out or a request fails for good.
    ///
    /// **Retrying** is safe, for the engine's retries, the SDK's and yours
    /// ([`resend`](BatchWrite::resend) of the leftovers, or the whole batch
    /// again): `BatchWriteItem` puts and deletes are idempotent — a put
    /// resent writes the same item, a delete resent finds nothing to
    /// delete — so they need no write token. A request whose answer was
    /// lost is resent whole; its writes may land twice, with the same
    /// effect. What a batch cannot do: carry conditions, so it checks
    /// neither a version (versioned entities are refused) nor the type of
    /// an item it replaces or deletes.
    ///
    /// See [the example](BatchWrite#example).
    pub async fn send(self) -> Result<()> {
        let table = self.db.table_name();
        let names = EntityNames::of(self.writes.iter().map(|w| w.entity));
        let span = tracing::info_span!(
            "ddb.batch_write",
            table,
            entities = %names,
            writes = self.writes.len(),
            requests = tracing::field::Empty,
            retries = tracing::field::Empty,
            unprocessed = tracing::field::Empty,
            consumed_rcu = tracing::field::Empty,
            consumed_wcu = tracing::field::Empty,
        );
        async move {
            if let Some(err) = self.error {
                return Err(err);
            }
            let mut charge = self.db.charge();
            let spent = &Mutex::new(Spent::default());
            refuse_duplicates(&self.writes)?;
            if self.writes.is_empty() {
                return Ok(());
            }
            let total = self.writes.len();
            let max_bytes = MAX_REQUEST_BYTES.saturating_sub(table.len() + 64);
            let chunks = engine::plan(self.writes, MAX_WRITES, max_bytes, |w| w.wire);
            let client = self.db.client();
            let keys = T::SCHEMA.primary;
            let send = |requests: Vec<WriteRequest>| async move {
                match client
                    .batch_write_item()
                    .request_items(table, requests)
                    .return_consumed_capacity(ReturnConsumedCapacity::Total)
                    .send()
                    .await
                {
                    Ok(output) => {
                        lock(spent).write(output.consumed_capacity());
                        let unprocessed = output
                            .unprocessed_items
                            .and_then(|mut tables| tables.remove(table))
                            .unwrap_or_default()
                            .iter()
                            .filter_map(|write| {
                                let attributes = match (&write.put_request, &write.delete_request) {
                                    (Some(put), _) => &put.item,
                                    (None, Some(delete)) => &delete.key,
                                    (None, None) => return None,
                                };
                                key_of(attributes, keys).map(|(p, s)| (p.to_owned(), s.to_owned()))
                            })
                            .collect();
                        Ok(Attempt {
                            unprocessed,
                            output: (),
                        })
                    }
                    Err(err) => {
                        lock(spent).failed();
                        Err(Failure::classify("BatchWriteItem", table, err))
                    }
                }
            };
            let report = engine::run(client, self.retry, self.concurrency, chunks, send).await;
            charge.add(*lock(spent));
            let span = tracing::Span::current();
            span.record("requests", report.requests);
            span.record("retries", report.retries);
            span.record("unprocessed", report.unprocessed.len());
            if report.unprocessed.is_empty() {
                return Ok(());
            }
            Err(Repr::UnprocessedWrites {
                table: table.to_owned(),
                total,
                writes: report.unprocessed,
                source: report.error,
            }
            .into())
        }
        .instrument(span)
        .await
    }
}

/// Two writes to one key: DynamoDB rejects such a request whole, and across
/// requests the order of the two would be undefined.
fn refuse_duplicates(writes: &[PendingWrite]) -> Result<()> {
    let mut seen: HashMap<(&str, &str), &'static str> = HashMap::with_capacity(writes.len());
    for write in writes {
        if let Some(first) = seen.insert((&write.partition, &write.sort), write.entity) {
            return Err(Repr::DuplicateKey {
                operation: "BatchWriteItem",
                first,
                second: write.entity,
                partition: write.partition.clone(),
                sort: write.sort.clone(),
            }
            .into());
        }
    }
    Ok(())
}

into_future!(['db, T: Table] BatchWrite<'db, T> => ());

fn build_error(err: aws_sdk_dynamodb::error::BuildError) -> Error {
    Repr::RequestBuild {
        what: "BatchWriteItem",
        source: Box::new(err),
    }
    .into()
}
