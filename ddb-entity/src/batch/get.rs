//! BatchGetItem: entities of any types of the table by key, demultiplexed
//! into a collection.

use std::collections::HashMap;
use std::marker::PhantomData;
use std::sync::Mutex;

use aws_sdk_dynamodb::types::{KeysAndAttributes, ReturnConsumedCapacity};
use tracing::Instrument;

use super::engine::{self, Attempt, Entry, Failure};
use super::retry::BatchRetry;
use super::{DEFAULT_CONCURRENCY, EntityNames, key_of, lock};
use crate::capacity::Spent;
use crate::collection::{Collection, Routed, UnknownItems, demultiplex};
use crate::db::Db;
use crate::entity::stored::Stored;
use crate::entity::{Entity, Key};
use crate::error::{Error, PendingKey, Repr, Result};
use crate::expr::Placeholders;
use crate::item::Item;
use crate::key::KeyError;
use crate::read::engine::found::{FoundBytes, Origin};
use crate::read::engine::seam::Body;
use crate::read::engine::single::read_batch;
use crate::read::{Projected, ReadShape, Whole, projection};
use crate::table::{KeySchema, Table, Typing};

/// Keys per BatchGetItem request: DynamoDB's limit.
const MAX_KEYS: usize = 100;

/// Reads entities of any types of one table by key, with BatchGetItem
/// requests, into a [`Collection`]. Made by [`Db::batch_get`]; finish with
/// [`collect`](BatchGet::collect) or [`collect_partial`](BatchGet::collect_partial).
///
/// - The keys are split into requests of at most 100 keys, sent up to
///   [`concurrency`](BatchGet::concurrency) at a time.
/// - What DynamoDB returns as `UnprocessedKeys` (throttling, or a response
///   past 16 MB), and requests refused by throttling or a transient error,
///   are retried with exponential backoff and full jitter within a
///   [`BatchRetry`] budget; what is left when it runs out is returned typed
///   ([`Error::unprocessed_keys`], or [`BatchGetPartial::unprocessed`]).
/// - Items arrive in the order of their keys (DynamoDB answers in any
///   order); a key with no item is simply absent.
/// - A key asked for twice is read once (reading is idempotent, and
///   DynamoDB rejects a request naming a key twice); one key asked for as
///   two different entity types is refused ([`Error::is_duplicate_key`]).
/// - An item found at a key with another entity type than the key's is
///   an [`ErrorKind::WrongType`](crate::error::ErrorKind::WrongType) error, never
///   mis-decoded.
/// - Items past their time to live are hidden, as by [`Db::get`], unless
///   [`include_expired`](BatchGet::include_expired).
/// - With a [`projection`](BatchGet::projection), only the attributes
///   named are read (and the keys, the type and the time to live), and the
///   collection comes back as a [`Partial`](crate::read::Partial): no write
///   takes it back by mistake.
/// - No key: nothing is sent.
///
/// # Example
///
/// Every setting, and the two ways to finish (the full read is
/// [`Db::batch_get`]'s example; keys sent again, [`PendingKey`]'s):
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use ddb_entity::op::{BatchGetPartial, BatchRetry, Partial};
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
/// db.put(&Customer { id: 1, name: "Ada".into() }).await?;
///
/// let batch = db
///     .batch_get()
///     .get(Customer::key(1)?)
///     .get(Customer::key(2)?)
///     .resend(Vec::new()) // what an earlier batch left unread
///     .consistent_read(true)
///     .include_expired(false)
///     .concurrency(2)
///     .retry(BatchRetry::no_retries());
/// assert_eq!((batch.len(), batch.is_empty()), (2, false));
/// let read: BatchGetPartial<Vec<Customer>> = batch.collect_partial().await?;
/// assert_eq!(read.items, [Customer { id: 1, name: "Ada".into() }]);
/// assert!(read.unprocessed.is_empty());
///
/// // Only the names (the keys and the type come along): no write takes
/// // them back.
/// let names: Partial<Vec<Customer>> = db
///     .batch_get()
///     .get(Customer::key(1)?)
///     .projection(["name"])
///     .collect()
///     .await?;
/// assert_eq!(names[0].name, "Ada");
///
/// // No key, no request.
/// let none: Vec<Customer> = db.batch_get().collect().await?;
/// assert!(none.is_empty());
/// # Ok(())
/// # }
/// ```
#[must_use = "nothing happens until you call `.collect().await`"]
pub struct BatchGet<'db, T: Table, S: ReadShape = Whole> {
    db: &'db Db<T>,
    keys: Vec<PendingKey>,
    error: Option<Error>,
    consistent: bool,
    include_expired: bool,
    concurrency: usize,
    retry: BatchRetry,
    projection: Option<Vec<&'static str>>,
    shape: PhantomData<fn() -> S>,
}

impl Entry for PendingKey {
    type Request = Item;

    fn position(&self) -> usize {
        self.position
    }

    fn key(&self) -> (&str, &str) {
        (&self.partition, &self.sort)
    }

    fn request(&self) -> Item {
        self.attributes.clone()
    }
}

/// What a [`BatchGet::collect_partial`] read, and the keys it could not
/// read within its retry budget: see [`BatchGet`'s example](BatchGet#example).
///
/// ```
/// use ddb_entity::op::BatchGetPartial;
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// # #[derive(ddb_entity::Entity, serde::Serialize, serde::Deserialize)]
/// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// # struct Customer { id: u64 }
///
/// fn report(read: &BatchGetPartial<Vec<Customer>>) -> String {
///     format!("{} read, {} to ask again", read.items.len(), read.unprocessed.len())
/// }
/// let read = BatchGetPartial { items: vec![Customer { id: 1 }], unprocessed: vec![] };
/// assert_eq!(report(&read), "1 read, 0 to ask again");
/// ```
#[derive(Debug)]
pub struct BatchGetPartial<C> {
    /// The items read, in the order of their keys.
    pub items: C,
    /// The keys DynamoDB did not answer for, in the order they were added:
    /// their items may or may not exist.
    pub unprocessed: Vec<PendingKey>,
}

impl<T: Table> Db<T> {
    /// Starts a batch read of entities of any types of the table by key
    /// (BatchGetItem).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Collection, Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// struct Customer { id: u64, name: String }
    ///
    /// #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// #[entity(table = App, pk = "PRODUCT#{sku}", sk = "PRODUCT")]
    /// struct Product { sku: String, cents: u32 }
    ///
    /// /// What a checkout page shows.
    /// #[derive(Collection, Debug)]
    /// struct Checkout { customer: Option<Customer>, products: Vec<Product> }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// db.batch_write()
    ///     .put(&Customer { id: 42, name: "Ada".into() })
    ///     .put(&Product { sku: "pen".into(), cents: 150 })
    ///     .put(&Product { sku: "ink".into(), cents: 900 })
    ///     .await?;
    ///
    /// let checkout: Checkout = db
    ///     .batch_get()
    ///     .get(Customer::key(42)?)
    ///     .get(Product::key("ink")?)
    ///     .get(Product::key("pen")?)
    ///     .get(Product::key("ink")?) // asked twice, read once
    ///     .get(Product::key("none")?) // no such item: absent
    ///     .consistent_read(true)
    ///     .collect()
    ///     .await?;
    /// assert_eq!(checkout.customer.unwrap().name, "Ada");
    /// let skus: Vec<_> = checkout.products.iter().map(|p| p.sku.as_str()).collect();
    /// assert_eq!(skus, ["ink", "pen"]); // in the order asked
    /// # Ok(())
    /// # }
    /// ```
    pub fn batch_get(&self) -> BatchGet<'_, T> {
        BatchGet {
            db: self,
            keys: Vec::new(),
            error: None,
            consistent: false,
            include_expired: false,
            concurrency: DEFAULT_CONCURRENCY,
            retry: BatchRetry::default(),
            projection: None,
            shape: PhantomData,
        }
    }
}

impl<'db, T: Table> BatchGet<'db, T, Whole> {
    /// Read only these attributes of each item (a `ProjectionExpression`),
    /// plus the keys, the type and the time-to-live attributes typed reads
    /// need: the collection comes back as a
    /// [`Partial`](crate::read::Partial), its entities' other fields at
    /// their absent values. Saves bandwidth, not read capacity.
    ///
    /// See [the example](BatchGet#example).
    pub fn projection(
        self,
        attributes: impl IntoIterator<Item = &'static str>,
    ) -> BatchGet<'db, T, Projected> {
        BatchGet {
            db: self.db,
            keys: self.keys,
            error: self.error,
            consistent: self.consistent,
            include_expired: self.include_expired,
            concurrency: self.concurrency,
            retry: self.retry,
            projection: Some(attributes.into_iter().collect()),
            shape: PhantomData,
        }
    }
}

impl<'db, T: Table, S: ReadShape> BatchGet<'db, T, S> {
    /// Reads the entity with `key`.
    ///
    /// See [the example](BatchGet#example).
    pub fn get<E: Entity<Table = T>>(mut self, key: Key<E>) -> Self {
        let attributes = key.to_attributes();
        if key_of(&attributes, T::SCHEMA.primary).is_none() {
            self.error
                .get_or_insert(Error::from(KeyError::EmptyKey).for_entity(E::RUST_NAME));
            return self;
        }
        let (partition, sort) = key.into_parts();
        self.keys.push(PendingKey {
            position: self.keys.len(),
            entity: E::RUST_NAME,
            entity_type: E::TYPE_TAG,
            partition,
            sort: if T::SCHEMA.primary.sort_key.is_some() {
                sort
            } else {
                String::new()
            },
            attributes,
        });
        self
    }

    /// Asks again for keys a previous batch could not read
    /// ([`Error::unprocessed_keys`], [`BatchGetPartial::unprocessed`]).
    ///
    /// See [the example](BatchGet#example).
    pub fn resend(mut self, keys: impl IntoIterator<Item = PendingKey>) -> Self {
        for mut key in keys {
            let expected = (key.partition.as_str(), key.sort.as_str());
            if key_of(&key.attributes, T::SCHEMA.primary) != Some(expected) {
                self.error.get_or_insert(
                    Repr::WrongTable {
                        what: "a resent key",
                        built_for: "another table".to_owned(),
                        table: self.db.table_name().to_owned(),
                        fix: "resend keys only to the table they came from",
                    }
                    .into(),
                );
                continue;
            }
            key.position = self.keys.len();
            self.keys.push(key);
        }
        self
    }

    /// Strongly consistent reads (twice the read capacity).
    ///
    /// See [the example](BatchGet#example).
    pub fn consistent_read(mut self, consistent: bool) -> Self {
        self.consistent = consistent;
        self
    }

    /// Also return items whose time to live has passed but which DynamoDB
    /// has not deleted yet (hidden by default, as by [`Db::get`]).
    ///
    /// See [the example](BatchGet#example).
    pub fn include_expired(mut self, include: bool) -> Self {
        self.include_expired = include;
        self
    }

    /// At most `requests` requests in flight at once (default 4, at least 1).
    ///
    /// See [the example](BatchGet#example).
    pub fn concurrency(mut self, requests: usize) -> Self {
        self.concurrency = requests.max(1);
        self
    }

    /// The retry budget (default [`BatchRetry::new`]).
    ///
    /// See [the example](BatchGet#example).
    pub fn retry(mut self, retry: BatchRetry) -> Self {
        self.retry = retry;
        self
    }

    /// How many keys the batch holds so far.
    ///
    /// See [the example](BatchGet#example).
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the batch holds no key (reading it sends nothing).
    ///
    /// See [the example](BatchGet#example).
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Reads every key into a collection (retrying is safe: reads change
    /// nothing): a `#[derive(Collection)]` struct,
    /// a `Vec` of an entity, or a `Vec` of a `#[derive(Collection)]` enum,
    /// which must hold every entity type asked for. Fails with
    /// an error listing them ([`Error::unprocessed_keys`]) if some keys are still
    /// unanswered when the retry budget runs out.
    ///
    /// See [the example](BatchGet#example).
    pub async fn collect<C: Collection<Table = T>>(self) -> Result<S::Of<C>> {
        let table = self.db.table_name().to_owned();
        let (read, outcome) = self.run::<C>().await?;
        match outcome {
            Outcome::Complete => Ok(read.items),
            Outcome::Incomplete { total, source } => Err(Repr::UnprocessedKeys {
                table,
                total,
                keys: read.unprocessed,
                source,
            }
            .into()),
        }
    }

    /// Like [`collect`](BatchGet::collect), but when the retry budget runs
    /// out, returns what was read with the keys that were not. A request
    /// that fails for good (no such table, …) is still an error.
    ///
    /// See [the example](BatchGet#example).
    pub async fn collect_partial<C: Collection<Table = T>>(
        self,
    ) -> Result<BatchGetPartial<S::Of<C>>> {
        self.run::<C>().await.map(|(read, _)| read)
    }

    async fn run<C: Collection<Table = T>>(self) -> Result<(BatchGetPartial<S::Of<C>>, Outcome)> {
        let table = self.db.table_name();
        let names = EntityNames::of(self.keys.iter().map(|k| k.entity));
        let span = tracing::info_span!(
            "ddb.batch_get",
            table,
            collection = C::NAME,
            entities = %names,
            keys = self.keys.len(),
            items = tracing::field::Empty,
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
            let keys = distinct::<C>(self.keys)?;
            if keys.is_empty() {
                let empty = BatchGetPartial {
                    items: S::of(C::default()),
                    unprocessed: Vec::new(),
                };
                return Ok((empty, Outcome::Complete));
            }
            let total = keys.len();
            // Where each item goes, and which entity type it must be.
            let asked: HashMap<(String, String), (usize, &'static str, &'static str)> = keys
                .iter()
                .map(|k| {
                    let place = (k.position, k.entity, k.entity_type);
                    ((k.partition.clone(), k.sort.clone()), place)
                })
                .collect();
            let chunks = engine::plan(keys, MAX_KEYS, usize::MAX, |_| 0);
            let client = self.db.client();
            let schema = T::SCHEMA.primary;
            let consistent = self.consistent;
            let mut p = Placeholders::default();
            let projected = self.projection.as_ref().map(|attributes| {
                projection(&T::SCHEMA, T::SCHEMA.primary, &[], attributes, &mut p)
            });
            let names = p.names_or_none();
            let (projected, names) = (&projected, &names);
            let send = |keys: Vec<Item>| async move {
                let request = KeysAndAttributes::builder()
                    .set_keys(Some(keys))
                    .set_consistent_read(consistent.then_some(true))
                    .set_projection_expression(projected.clone())
                    .set_expression_attribute_names(names.clone())
                    .build()
                    .map_err(|err| {
                        Failure::Fatal(
                            Repr::RequestBuild {
                                what: "BatchGetItem",
                                source: Box::new(err),
                            }
                            .into(),
                        )
                    })?;
                let sent = client
                    .batch_get_item()
                    .request_items(table, request)
                    .return_consumed_capacity(ReturnConsumedCapacity::Total);
                // A collection that reads bytes decodes its items from the
                // response's body (the seam); a hand-written one receives
                // the SDK's items, as before.
                if !C::READS_BYTES {
                    return match sent.send().await {
                        Ok(mut output) => {
                            lock(spent).read(output.consumed_capacity());
                            let items = output
                                .responses
                                .as_mut()
                                .and_then(|tables| tables.remove(table))
                                .unwrap_or_default();
                            let left = output
                                .unprocessed_keys
                                .and_then(|mut tables| tables.remove(table))
                                .map(|left| left.keys)
                                .unwrap_or_default();
                            Ok(Attempt {
                                unprocessed: unprocessed(&left, schema),
                                output: items.into_iter().map(Answered::Item).collect::<Vec<_>>(),
                            })
                        }
                        Err(err) => {
                            lock(spent).failed();
                            Err(Failure::classify("BatchGetItem", table, err))
                        }
                    };
                }
                let body = Body::default();
                let sent = sent.customize().interceptor(body.capture()).send().await;
                let origin = Origin::new("BatchGetItem", table);
                let read = match sent {
                    Ok(_) => body
                        .take(&origin)
                        .and_then(|bytes| read_batch(bytes, table, &origin)),
                    Err(err) => {
                        lock(spent).failed();
                        return Err(Failure::classify("BatchGetItem", table, err));
                    }
                };
                match read {
                    Ok(batch) => {
                        lock(spent).read(&batch.capacity);
                        Ok(Attempt {
                            unprocessed: unprocessed(&batch.unprocessed, schema),
                            output: batch
                                .items
                                .into_iter()
                                .map(|text| {
                                    Answered::Bytes(FoundBytes::new(text, None, None, &origin))
                                })
                                .collect(),
                        })
                    }
                    // As the SDK's failure to parse a response.
                    Err(err) => {
                        lock(spent).failed();
                        Err(Failure::Fatal(err))
                    }
                }
            };
            let report = engine::run(client, self.retry, self.concurrency, chunks, send).await;
            charge.add(*lock(spent));
            let span = tracing::Span::current();
            span.record("requests", report.requests);
            span.record("retries", report.retries);
            span.record("unprocessed", report.unprocessed.len());
            if report.fatal {
                return Err(Repr::UnprocessedKeys {
                    table: table.to_owned(),
                    total,
                    keys: report.unprocessed,
                    source: report.error,
                }
                .into());
            }

            let (mut sdk, mut bytes) = (Vec::new(), Vec::new());
            for answered in report.outputs.into_iter().flatten() {
                match answered {
                    Answered::Item(item) => sdk.push(item),
                    Answered::Bytes(found) => bytes.push(found),
                }
            }
            let now = self.db.now();
            let items: C = if C::READS_BYTES {
                found(
                    bytes.iter().map(FoundBytes::parse),
                    &asked,
                    self.include_expired,
                    now,
                )?
            } else {
                found(sdk.into_iter().map(Ok), &asked, self.include_expired, now)?
            };
            let outcome = if report.unprocessed.is_empty() {
                Outcome::Complete
            } else {
                Outcome::Incomplete {
                    total,
                    source: report.error,
                }
            };
            let read = BatchGetPartial {
                items: S::of(items),
                unprocessed: report.unprocessed,
            };
            Ok((read, outcome))
        }
        .instrument(span)
        .await
    }
}

/// An item a BatchGetItem returned: the SDK's (a hand-written
/// collection), or its bytes, parsed once when decoded.
enum Answered {
    Item(Item),
    Bytes(FoundBytes),
}

/// The keys of `left` (a table's `UnprocessedKeys`), to send again.
fn unprocessed(left: &[Item], schema: KeySchema) -> Vec<(String, String)> {
    left.iter()
        .filter_map(|key| key_of(key, schema).map(|(p, s)| (p.to_owned(), s.to_owned())))
        .collect()
}

/// The one decoding of a batch read's answers, held as the SDK parsed
/// them or as parsed from the response's bytes: items past their time to
/// live hidden (unless `include_expired`), each item checked to be of the
/// entity type its key was asked as (`asked`: its place in the order of
/// the keys, its entity and type), then demultiplexed in the order of the
/// keys, stored keys verified.
fn found<'de, C: Collection, I: Routed + Stored<'de>>(
    outputs: impl Iterator<Item = Result<I>>,
    asked: &HashMap<(String, String), (usize, &'static str, &'static str)>,
    include_expired: bool,
    now: std::time::SystemTime,
) -> Result<C> {
    let schema = C::Table::SCHEMA;
    let mut found = Vec::new();
    for item in outputs {
        let item = item?;
        if !include_expired && item.is_expired(&schema, now) {
            continue;
        }
        let key = match item.keys(&schema) {
            (Some(partition), sort) if !partition.is_empty() => match schema.primary.sort_key {
                None => Some((partition, "")),
                Some(_) => sort
                    .filter(|sort| !sort.is_empty())
                    .map(|sort| (partition, sort)),
            },
            _ => None,
        };
        let Some(&(position, entity, entity_type)) =
            key.and_then(|(p, s)| asked.get(&(p.to_owned(), s.to_owned())))
        else {
            tracing::warn!("BatchGetItem returned an item for a key that was not asked");
            continue;
        };
        // On a table typed by key the key asked for is the type:
        // demultiplexing parses it against the members' templates.
        match item.tag(&schema) {
            _ if schema.typing == Typing::Key => {}
            None if schema.typing.reads_keys() => {}
            Some(found) if found == entity_type => {}
            found => {
                return Err(Repr::WrongType {
                    entity,
                    expected: entity_type,
                    found: found.map(str::to_owned),
                }
                .into());
            }
        }
        found.push((position, item));
    }
    found.sort_by_key(|(position, _)| *position);
    tracing::Span::current().record("items", found.len());
    let mut items = C::default();
    for (_, mut item) in found {
        // Read by primary key: that is the key verified on decoding.
        item.found_by_table(&schema);
        demultiplex(&mut items, item, UnknownItems::Error)?;
    }
    Ok(items)
}

enum Outcome {
    Complete,
    Incomplete { total: usize, source: Option<Error> },
}

/// Each key once, in the order first asked; a key asked as two entity
/// types is refused, as is a type the collection cannot hold.
fn distinct<C: Collection>(keys: Vec<PendingKey>) -> Result<Vec<PendingKey>> {
    let mut seen: HashMap<(String, String), &'static str> = HashMap::with_capacity(keys.len());
    let mut distinct = Vec::with_capacity(keys.len());
    for key in keys {
        if !C::TYPES.contains(&key.entity_type) {
            return Err(Repr::NotInCollection {
                entity: key.entity,
                entity_type: key.entity_type,
                collection: C::NAME,
            }
            .into());
        }
        match seen.get(&(key.partition.clone(), key.sort.clone())) {
            Some(first) if *first == key.entity => continue,
            Some(first) => {
                return Err(Repr::DuplicateKey {
                    operation: "BatchGetItem",
                    first,
                    second: key.entity,
                    partition: key.partition,
                    sort: key.sort,
                }
                .into());
            }
            None => {
                seen.insert((key.partition.clone(), key.sort.clone()), key.entity);
                distinct.push(key);
            }
        }
    }
    Ok(distinct)
}
