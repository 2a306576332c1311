//! From a multi-table model to the single table: a typed, resumable copy
//! of legacy tables, and its verification.

use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, KeyType, ReturnConsumedCapacity};
use futures_util::stream::{self, Stream, StreamExt};
use serde::de::DeserializeOwned;
use tracing::Instrument;

use super::backfill::stop_after_error;
use super::checkpoint::{Checkpoint, SegmentPosition};
use super::pace::{Pace, Rate};
use super::rewrite::reread;
use super::scan::{RawPage, ScanSpec, backoff};
use crate::batch::{BatchRetry, Jitter};
use crate::db::Db;
use crate::entity::Entity;
use crate::error::{Error, Repr, Result};
use crate::item::{Item, item_size};
use crate::table::{Table, TableSchema};

/// The user's mapping: one legacy item into the new entities it becomes.
type Mapper<T, L> = dyn Fn(L, &mut Writes<T>) -> Result<()> + Send + Sync;

/// The new items one legacy item maps to: collect them with
/// [`put`](Writes::put) in the migration's mapping function.
///
/// See [the example](Migration#example).
pub struct Writes<T: Table> {
    items: Vec<NewItem>,
    now: SystemTime,
    table: PhantomData<fn() -> T>,
}

/// One item to write, and what tells it apart from its stored copy.
struct NewItem {
    entity: &'static str,
    item: Item,
    /// Maintained timestamps: set when written, not compared.
    stamped: Vec<&'static str>,
}

impl<T: Table> Writes<T> {
    /// Adds `entity` (an entity of the single table) to what the legacy
    /// item becomes. Its item is built now: an entity that cannot be
    /// stored (a key too long, a clashing attribute) fails the migration
    /// here, naming it, before anything of its page is written.
    ///
    /// See [the example](Migration#example).
    pub fn put<E: Entity<Table = T>>(&mut self, entity: &E) -> Result<()> {
        let item = crate::entity::convert::to_item(entity, self.now)?;
        let stamped = [E::created_at(self.now)?, E::updated_at(self.now)?]
            .into_iter()
            .flatten()
            .map(|(attribute, _)| attribute)
            .collect();
        self.items.push(NewItem {
            entity: E::RUST_NAME,
            item,
            stamped,
        });
        Ok(())
    }

    /// How many items were added.
    ///
    /// See [the example](Migration#example).
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether nothing was added (the legacy item maps to nothing).
    ///
    /// See [the example](Migration#example).
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

/// Copies one legacy table into the single table: a parallel Scan of the
/// legacy table (any item shape: each item is decoded with serde into `L`),
/// the user's function mapping each `L` to new entities
/// ([`Writes::put`]), and each new item written **only if no item has its
/// key yet** (a PutItem conditioned on `attribute_not_exists`). Made by
/// [`Db::migrate_from`]; run with `.await`, or watch
/// [`events`](Migration::events); check with [`verify`](Migration::verify).
///
/// - **Idempotent**: a rerun, or a resumed run redoing pages, finds its
///   items there and counts them `existing`; nothing is written twice.
/// - **Never overwrites the new write path**: once writes go to the single
///   table (see [`DualRead`](super::DualRead) for the order of the flip),
///   an item the application wrote there is newer than its legacy copy,
///   and the migration leaves it.
/// - **Resumable**: every page done is a [`MigrationEvent`] with a
///   [`Checkpoint`] to [`resume`](Migration::resume) from, moved only once
///   every write of the page succeeded.
/// - **Throttling-aware**: every request is retried with the batch
///   engine's backoff ([`BatchRetry`]).
///
/// Writes are conditional, so they are PutItems sent
/// [`writes`](Migration::writes) at a time rather than BatchWriteItems
/// (which take no condition).
///
/// # Example
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use ddb_entity::evolve::{MigrationEvent, Writes};
/// use ddb_entity::op::BatchRetry;
/// use ddb_entity::{Db, Entity, local::LocalDynamo};
/// use futures_util::StreamExt;
/// use serde::{Deserialize, Serialize};
///
/// ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
///
/// #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
/// #[entity(table = App, pk = "USER#{id}", sk = "PROFILE")]
/// struct User { id: u64, name: String }
///
/// /// A row of the legacy `users` table, keyed by a number.
/// #[derive(Deserialize)]
/// struct LegacyUser { user_id: u64, full_name: String }
///
/// # let dynamo = LocalDynamo::start().await?;
/// # let client = dynamo.client();
/// # let legacy = dynamo.unique_table_name("users");
/// # use ddb_entity::sdk::types::{AttributeDefinition, BillingMode, KeySchemaElement, KeyType, ScalarAttributeType};
/// # client.create_table().table_name(&legacy).billing_mode(BillingMode::PayPerRequest)
/// #     .attribute_definitions(AttributeDefinition::builder().attribute_name("user_id").attribute_type(ScalarAttributeType::N).build()?)
/// #     .key_schema(KeySchemaElement::builder().attribute_name("user_id").key_type(KeyType::Hash).build()?)
/// #     .send().await?;
/// # for id in 0..30u64 {
/// #     client.put_item().table_name(&legacy)
/// #         .item("user_id", ddb_entity::sdk::types::AttributeValue::N(id.to_string()))
/// #         .item("full_name", ddb_entity::sdk::types::AttributeValue::S(format!("user {id}")))
/// #         .send().await?;
/// # }
/// let db = Db::<App>::new(client, dynamo.unique_table_name("app"));
/// db.create_table_if_missing().await?;
///
/// // One legacy user becomes one user (`out` gathers a page's writes).
/// let map = |old: LegacyUser, out: &mut Writes<App>| {
///     let before = out.len();
///     out.put(&User { id: old.user_id, name: old.full_name })?;
///     assert!(out.len() == before + 1 && !out.is_empty());
///     Ok(())
/// };
/// let migration = db.migrate_from(&legacy, map).segments(2);
/// let done = migration.run().await?;
/// assert_eq!((done.read, done.mapped, done.written, done.existing), (30, 30, 30, 0));
/// assert!(done.pages >= 2 && done.retries == 0);
///
/// // Idempotent: a second run writes nothing.
/// assert_eq!(migration.run().await?.existing, 30);
/// // Verified item by item.
/// let report = migration.verify(1).await?;
/// assert!(report.is_complete(), "{report:?}");
/// assert_eq!(report.expected["User"], 30);
/// assert_eq!((report.legacy_items, report.checked), (30, 30));
/// assert!(report.mismatches.is_empty());
///
/// // Watched page by page into another table, stopped after one page and
/// // resumed from its checkpoint: every item is written once.
/// let other = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("app"));
/// other.create_table_if_missing().await?;
/// let watched = other
///     .migrate_from(&legacy, map)
///     .segments(2)
///     .concurrency(1)
///     .writes(4)
///     .page_size(10)
///     .retry(BatchRetry::new().max_attempts(3));
/// let first: MigrationEvent = {
///     let mut events = std::pin::pin!(watched.events());
///     events.next().await.unwrap()?
/// };
/// assert_eq!((first.page.pages, first.totals.pages), (1, 1));
/// assert!(first.segment < 2 && first.page.read <= 10);
/// let _ = first.segment_done;
/// let rest = watched.resume(first.checkpoint).run().await?;
/// assert_eq!(first.page.written + rest.written, 30);
/// # Ok(())
/// # }
/// ```
#[must_use = "nothing happens until the migration is run"]
pub struct Migration<'db, T: Table, L> {
    db: &'db Db<T>,
    legacy: String,
    map: Arc<Mapper<T, L>>,
    segments: Option<u32>,
    concurrency: usize,
    writes: usize,
    max_writes: usize,
    ceiling: Option<Rate>,
    page_size: Option<usize>,
    retry: BatchRetry,
    checkpoint: Option<Checkpoint>,
}

/// Counts of a migration: of one page, or of a whole run.
///
/// See [the example](Migration#example).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct MigrationTotals {
    /// Pages done.
    pub pages: u64,
    /// Legacy items read.
    pub read: u64,
    /// New items they map to.
    pub mapped: u64,
    /// New items written.
    pub written: u64,
    /// New items already there (a rerun, a redone page, or written by the
    /// application since the flip): left as they are.
    pub existing: u64,
    /// Requests sent again after a throttle or a transient failure.
    pub retries: u64,
}

impl MigrationTotals {
    fn add(&mut self, other: &MigrationTotals) {
        self.pages += other.pages;
        self.read += other.read;
        self.mapped += other.mapped;
        self.written += other.written;
        self.existing += other.existing;
        self.retries += other.retries;
    }
}

/// One page of a migration done: every write of it succeeded.
///
/// See [the example](Migration#example).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct MigrationEvent {
    /// The legacy table's segment the page is from.
    pub segment: u32,
    /// What this page did.
    pub page: MigrationTotals,
    /// Whether the segment is finished.
    pub segment_done: bool,
    /// What this run has done so far.
    pub totals: MigrationTotals,
    /// Where the job stands: save it, and
    /// [`resume`](Migration::resume) from it after a crash.
    pub checkpoint: Checkpoint,
}

/// What [`Migration::verify`] found.
///
/// See [the example](Migration#example).
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct MigrationReport {
    /// Legacy items read.
    pub legacy_items: u64,
    /// New items the mapping makes, by entity type (`RUST_NAME`).
    pub expected: BTreeMap<&'static str, u64>,
    /// New items read back and compared.
    pub checked: u64,
    /// Items read back that are missing or differ.
    pub mismatches: Vec<Mismatch>,
}

impl MigrationReport {
    /// Whether every item read back is there and as mapped.
    ///
    /// See [the example](Migration#example).
    pub fn is_complete(&self) -> bool {
        self.mismatches.is_empty()
    }
}

/// One new item that is not what its legacy item maps to.
///
/// See [the example](Migration#example).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Mismatch {
    /// The entity type.
    pub entity: &'static str,
    /// The item's partition and sort key.
    pub key: (String, String),
    /// The first attribute that differs, `None` when the item is missing.
    pub attribute: Option<String>,
}

impl<T: Table> Db<T> {
    /// Starts a migration from the legacy table `legacy` (see
    /// [`Migration`]): each of its items, decoded into `L` with serde, is
    /// given to `map`, which puts the new entities it becomes.
    ///
    /// See [the example](Migration#example).
    pub fn migrate_from<L, F>(&self, legacy: impl Into<String>, map: F) -> Migration<'_, T, L>
    where
        L: DeserializeOwned + Send + 'static,
        F: Fn(L, &mut Writes<T>) -> Result<()> + Send + Sync + 'static,
    {
        Migration {
            db: self,
            legacy: legacy.into(),
            map: Arc::new(map),
            segments: None,
            concurrency: 4,
            writes: 32,
            max_writes: 256,
            ceiling: None,
            page_size: None,
            retry: BatchRetry::new(),
            checkpoint: None,
        }
    }
}

/// What every segment of one run shares.
struct Shared<T: Table, L> {
    spec: ScanSpec,
    target: String,
    map: Arc<Mapper<T, L>>,
    /// Puts in flight over every segment, and the ceiling (the
    /// backfill's controller).
    pace: Pace,
    max_writes: usize,
    now: SystemTime,
    state: Mutex<(Checkpoint, MigrationTotals)>,
    span: tracing::Span,
}

impl<'db, T: Table, L: DeserializeOwned + Send + 'static> Migration<'db, T, L> {
    /// Split the legacy scan into `segments` (1 to 1,000,000; default 4).
    /// A resumed migration keeps its checkpoint's segmentation: leave
    /// this out there, or give the checkpoint's own number (another is
    /// refused before any request).
    ///
    /// See [the example](Migration#example).
    pub fn segments(mut self, segments: u32) -> Self {
        self.segments = Some(segments);
        self
    }

    /// At most `segments` read and written at once (default 4).
    ///
    /// See [the example](Migration#example).
    pub fn concurrency(mut self, segments: usize) -> Self {
        self.concurrency = segments.max(1);
        self
    }

    /// Start with `writes` puts in flight over the whole job (default
    /// 32), grown while none is throttled up to
    /// [`max_writes`](Migration::max_writes) and halved on a throttle:
    /// the backfill's controller ([`Backfill::writes`](super::Backfill::writes)).
    ///
    /// See [the example](Migration#example).
    pub fn writes(mut self, writes: usize) -> Self {
        self.writes = writes.max(1);
        self
    }

    /// At most `writes` puts in flight over the whole job (default 256).
    ///
    /// See [the example](Migration#example).
    pub fn max_writes(mut self, writes: usize) -> Self {
        self.max_writes = writes.max(1);
        self
    }

    /// A ceiling over the whole job: at most this many items, or write
    /// units, per second on the single table (default none).
    ///
    /// See [the example](Migration#example).
    pub fn max_rate(mut self, rate: Rate) -> Self {
        self.ceiling = Some(rate);
        self
    }

    /// At most `size` legacy items read per request.
    ///
    /// See [the example](Migration#example).
    pub fn page_size(mut self, size: usize) -> Self {
        self.page_size = Some(size);
        self
    }

    /// The retry budget of each request (default [`BatchRetry::new`]).
    ///
    /// See [the example](Migration#example).
    pub fn retry(mut self, retry: BatchRetry) -> Self {
        self.retry = retry;
        self
    }

    /// Go on from `checkpoint`, the last one a previous run reported (its
    /// segmentation is kept).
    ///
    /// See [the example](Migration#example).
    pub fn resume(mut self, checkpoint: Checkpoint) -> Self {
        self.checkpoint = Some(checkpoint);
        self
    }

    /// Runs the migration to the end and returns what it did (the builder
    /// stays: run it again, or [`verify`](Migration::verify)).
    ///
    /// See [the example](Migration#example).
    pub async fn run(&self) -> Result<MigrationTotals> {
        let mut events = std::pin::pin!(self.events());
        let mut totals = MigrationTotals::default();
        while let Some(event) = events.next().await {
            totals = event?.totals;
        }
        Ok(totals)
    }

    /// The migration as a `Stream` of [`MigrationEvent`]s, one per page;
    /// it ends when every segment is done, or with the first error.
    ///
    /// See [the example](Migration#example).
    pub fn events(&self) -> impl Stream<Item = Result<MigrationEvent>> + Send + 'db {
        let db = self.db;
        let legacy = self.legacy.clone();
        let map = Arc::clone(&self.map);
        let checkpoint = Checkpoint::for_job(self.checkpoint.as_ref(), self.segments, || {
            format!("a migration from `{}`", self.legacy)
        });
        let (concurrency, writes, page_size, retry) =
            (self.concurrency, self.writes, self.page_size, self.retry);
        let (max_writes, ceiling) = (self.max_writes, self.ceiling);
        let setup = async move {
            let checkpoint = checkpoint?;
            let key_names = legacy_keys(db.client(), &legacy).await?;
            let spec = ScanSpec {
                client: db.client().clone(),
                table: legacy.clone(),
                key_names,
                any_key_types: true,
                segments: checkpoint.segments(),
                page_size,
                filter: None,
                retry,
                meter: db.meter().cloned(),
            };
            let pending = checkpoint
                .pending()
                .map(|(segment, cursor)| Ok((segment, spec.start_key(segment, cursor)?)))
                .collect::<Result<Vec<_>>>()?;
            let span = tracing::info_span!(
                "ddb.migrate",
                legacy = legacy.as_str(),
                table = db.table_name(),
                segments = checkpoint.segments(),
            );
            let shared = Arc::new(Shared {
                spec,
                target: db.table_name().to_owned(),
                map,
                pace: Pace::new(writes, max_writes, ceiling),
                max_writes,
                now: db.now(),
                state: Mutex::new((checkpoint, MigrationTotals::default())),
                span,
            });
            Ok::<_, Error>(pending.into_iter().map(move |(segment, start)| {
                segment_events(Arc::clone(&shared), segment, start).boxed()
            }))
        };
        let events = stream::once(setup).map(move |setup| match setup {
            Ok(segments) => stream::iter(segments)
                .flatten_unordered(concurrency)
                .left_stream(),
            Err(err) => stream::once(async move { Err(err) }).right_stream(),
        });
        stop_after_error(events.flatten())
    }

    /// Checks the migration: scans the legacy table again, maps every item
    /// again, counts the new items by entity type, and reads back every
    /// `every`-th legacy item's new items (1: all of them), comparing each
    /// attribute but the maintained timestamps and the write token.
    ///
    /// See [the example](Migration#example).
    pub async fn verify(&self, every: u64) -> Result<MigrationReport> {
        let mut report = MigrationReport::default();
        let events = self.events_with(Verify {
            every: every.max(1),
        });
        let mut events = std::pin::pin!(events);
        while let Some(found) = events.next().await {
            let found = found?;
            report.legacy_items += found.legacy_items;
            report.checked += found.checked;
            for (entity, count) in found.expected {
                *report.expected.entry(entity).or_default() += count;
            }
            report.mismatches.extend(found.mismatches);
        }
        tracing::info!(
            legacy = self.legacy.as_str(),
            checked = report.checked,
            mismatches = report.mismatches.len(),
            "migration verified"
        );
        Ok(report)
    }

    /// The pages of a verification: each legacy page mapped and its new
    /// items compared.
    fn events_with(
        &self,
        verify: Verify,
    ) -> impl Stream<Item = Result<MigrationReport>> + Send + 'db {
        let db = self.db;
        let legacy = self.legacy.clone();
        let map = Arc::clone(&self.map);
        let segments = self.segments.unwrap_or(super::checkpoint::DEFAULT_SEGMENTS);
        let (page_size, retry) = (self.page_size, self.retry);
        let setup = async move {
            let key_names = legacy_keys(db.client(), &legacy).await?;
            let spec = ScanSpec {
                client: db.client().clone(),
                table: legacy,
                key_names,
                any_key_types: true,
                segments,
                page_size,
                filter: None,
                retry,
                meter: db.meter().cloned(),
            };
            Ok::<_, Error>(Arc::new(Verifying {
                spec,
                map,
                target: db.table_name().to_owned(),
                now: db.now(),
            }))
        };
        stream::once(setup)
            .map(move |setup| match setup {
                Ok(shared) => stream::iter(0..segments)
                    .map(move |segment| {
                        verify_segment(Arc::clone(&shared), segment, verify).boxed()
                    })
                    .flatten_unordered(4)
                    .left_stream(),
                Err(err) => stream::once(async move { Err(err) }).right_stream(),
            })
            .flatten()
    }
}

impl<'db, T: Table, L: DeserializeOwned + Send + 'static> std::future::IntoFuture
    for Migration<'db, T, L>
{
    type Output = Result<MigrationTotals>;
    type IntoFuture = crate::future::OpFuture<'db, MigrationTotals>;

    fn into_future(self) -> Self::IntoFuture {
        crate::future::OpFuture::new(async move { self.run().await })
    }
}

/// What every segment of one verification shares.
struct Verifying<T: Table, L> {
    spec: ScanSpec,
    map: Arc<Mapper<T, L>>,
    target: String,
    now: SystemTime,
}

/// How often a verification reads back.
#[derive(Debug, Clone, Copy)]
struct Verify {
    every: u64,
}

/// The legacy table's key attributes, from DescribeTable.
async fn legacy_keys(client: &Client, table: &str) -> Result<Vec<String>> {
    let described = client
        .describe_table()
        .table_name(table)
        .send()
        .await
        .map_err(|err| Error::service("DescribeTable", table, err))?;
    let schema = described
        .table
        .map(|t| t.key_schema.unwrap_or_default())
        .unwrap_or_default();
    let mut names: Vec<String> = schema
        .iter()
        .filter(|e| e.key_type == KeyType::Hash)
        .chain(schema.iter().filter(|e| e.key_type == KeyType::Range))
        .map(|e| e.attribute_name.clone())
        .collect();
    names.dedup();
    Ok(names)
}

/// The new items of a page of legacy items.
fn map_page<T: Table, L: DeserializeOwned>(
    map: &Mapper<T, L>,
    legacy: &str,
    items: Vec<Item>,
    now: SystemTime,
) -> Result<Vec<NewItem>> {
    let mut writes = Writes {
        items: Vec::new(),
        now,
        table: PhantomData,
    };
    for item in items {
        let described = describe_key(&item);
        let value: L = crate::codec::from_item(item)
            .map_err(|err| legacy_decode_error::<L>(legacy, described, err))?;
        map(value, &mut writes)?;
    }
    Ok(writes.items)
}

/// A legacy item that does not decode as `L`: a decode error naming the
/// legacy table, the item and the field, and what to do.
pub(crate) fn legacy_decode_error<L>(
    table: &str,
    item: String,
    err: crate::codec::DecodeError,
) -> Error {
    let path = err.path();
    Repr::Decode {
        entity: std::any::type_name::<L>(),
        at: crate::error::ItemAt {
            partition: ("legacy item", Some(format!("{item} of table `{table}`"))),
            sort: None,
        },
        field: (!path.is_empty()).then_some(path),
        source: format!(
            "{}; make the legacy type accept every stored shape (an `Option`, `#[serde(default)]`, an untagged enum), or repair the item",
            err.message()
        )
        .into(),
    }
    .into()
}

/// A legacy item's key-looking attributes, for messages (never the body).
pub(crate) fn describe_key(item: &Item) -> String {
    let mut keys: Vec<String> = item
        .iter()
        .filter(|(name, _)| {
            name.to_ascii_lowercase().ends_with("id")
                || name.as_str() == "PK"
                || name.as_str() == "SK"
        })
        .map(|(name, value)| match value {
            AttributeValue::S(s) => format!("{name}={s}"),
            AttributeValue::N(n) => format!("{name}={n}"),
            _ => format!("{name}=…"),
        })
        .collect();
    keys.sort();
    if keys.is_empty() {
        "(no id attribute)".to_owned()
    } else {
        keys.join(", ")
    }
}

/// The events of one legacy segment.
fn segment_events<T: Table, L: DeserializeOwned + Send + 'static>(
    shared: Arc<Shared<T, L>>,
    segment: u32,
    start: Option<Item>,
) -> impl Stream<Item = Result<MigrationEvent>> + Send {
    stream::unfold(Some(start), move |state| {
        let shared = Arc::clone(&shared);
        async move {
            let start = state?;
            let span = tracing::info_span!(parent: &shared.span, "ddb.migrate.page", segment);
            match page(&shared, segment, start).instrument(span).await {
                Ok((event, next)) => Some((Ok(event), next.map(Some))),
                Err(err) => Some((Err(err), None)),
            }
        }
    })
}

async fn page<T: Table, L: DeserializeOwned + Send + 'static>(
    shared: &Shared<T, L>,
    segment: u32,
    start: Option<Item>,
) -> Result<(MigrationEvent, Option<Item>)> {
    let RawPage {
        items,
        next,
        retries,
        ..
    } = shared.spec.page(segment, start).await?;
    let mut counts = MigrationTotals {
        pages: 1,
        read: items.len() as u64,
        retries: u64::from(retries),
        ..MigrationTotals::default()
    };
    let new_items = map_page(&*shared.map, &shared.spec.table, items, shared.now)?;
    counts.mapped = new_items.len() as u64;
    let schema = T::SCHEMA;
    let mut puts = stream::iter(new_items)
        .map(|new| {
            create(
                &shared.spec.client,
                &shared.target,
                &shared.spec.retry,
                &shared.pace,
                schema.primary.partition_key,
                new.item,
            )
        })
        .buffer_unordered(shared.max_writes);
    while let Some(put) = puts.next().await {
        let (created, retries) = put?;
        counts.retries += u64::from(retries);
        if created {
            counts.written += 1;
        } else {
            counts.existing += 1;
        }
    }
    let resume = match &next {
        SegmentPosition::After(cursor) => shared.spec.start_key(segment, Some(cursor))?,
        _ => None,
    };
    let (checkpoint, totals) = {
        let mut state = shared.state.lock().unwrap_or_else(|p| p.into_inner());
        state.0.set(segment, next);
        state.1.add(&counts);
        (state.0.clone(), state.1)
    };
    let event = MigrationEvent {
        segment,
        page: counts,
        segment_done: resume.is_none(),
        totals,
        checkpoint,
    };
    Ok((event, resume))
}

/// Puts `item` unless an item has its key: `(created, retries)`.
async fn create(
    client: &Client,
    table: &str,
    retry: &BatchRetry,
    pace: &Pace,
    partition_key: &str,
    item: Item,
) -> Result<(bool, u32)> {
    let started = Instant::now();
    let mut jitter = Jitter::new(item.len() as u64);
    let mut retries = 0;
    let units = (item_size(&item).max(1) as f64 / 1024.0).ceil();
    loop {
        let permit = pace.admit(client, 1).await;
        let response = client
            .put_item()
            .table_name(table)
            .set_item(Some(item.clone()))
            .condition_expression("attribute_not_exists(#pk)")
            .expression_attribute_names("#pk", partition_key)
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .send()
            .await;
        let err = match response {
            Ok(output) => {
                let spent = output.consumed_capacity().and_then(|c| c.capacity_units());
                permit.succeeded(spent, units);
                return Ok((true, retries));
            }
            Err(err) => Error::service("PutItem", table, err),
        };
        if err.is_throttled() {
            permit.throttled();
        }
        drop(permit);
        if err.is_condition_failed() {
            return Ok((false, retries));
        }
        backoff(client, retry, &mut jitter, &mut retries, started, err).await?;
    }
}

/// One legacy segment verified, page by page.
fn verify_segment<T: Table, L: DeserializeOwned + Send + 'static>(
    shared: Arc<Verifying<T, L>>,
    segment: u32,
    verify: Verify,
) -> impl Stream<Item = Result<MigrationReport>> + Send {
    stream::unfold(Some((None, 0u64)), move |state| {
        let shared = Arc::clone(&shared);
        async move {
            let (start, seen) = state?;
            let Verifying {
                spec,
                map,
                target,
                now,
            } = &*shared;
            let result = async {
                let RawPage { items, next, .. } = spec.page(segment, start).await?;
                let mut report = MigrationReport {
                    legacy_items: items.len() as u64,
                    ..MigrationReport::default()
                };
                let mut seen = seen;
                for item in items {
                    seen += 1;
                    let new_items = map_page(&**map, &spec.table, vec![item], *now)?;
                    for new in &new_items {
                        *report.expected.entry(new.entity).or_default() += 1;
                    }
                    if seen % verify.every == 0 {
                        for new in new_items {
                            report.checked += 1;
                            if let Some(mismatch) =
                                compare(&spec.client, target, &spec.retry, &T::SCHEMA, new).await?
                            {
                                report.mismatches.push(mismatch);
                            }
                        }
                    }
                }
                let resume = match &next {
                    SegmentPosition::After(cursor) => spec.start_key(segment, Some(cursor))?,
                    _ => None,
                };
                Ok::<_, Error>((report, resume, seen))
            }
            .await;
            match result {
                Ok((report, resume, seen)) => Some((Ok(report), resume.map(|r| (Some(r), seen)))),
                Err(err) => Some((Err(err), None)),
            }
        }
    })
}

/// Reads `expected` back from the single table and compares.
async fn compare(
    client: &Client,
    table: &str,
    retry: &BatchRetry,
    schema: &TableSchema,
    expected: NewItem,
) -> Result<Option<Mismatch>> {
    let names: Vec<&str> = [Some(schema.primary.partition_key), schema.primary.sort_key]
        .into_iter()
        .flatten()
        .collect();
    let key: Item = names
        .iter()
        .filter_map(|name| Some(((*name).to_owned(), expected.item.get(*name)?.clone())))
        .collect();
    let text = |name: &str| {
        expected
            .item
            .get(name)
            .and_then(|v| v.as_s().ok())
            .cloned()
            .unwrap_or_default()
    };
    let (mut jitter, mut retries) = (Jitter::new(0), 0);
    let stored = reread(client, table, &key, retry, &mut jitter, &mut retries).await?;
    let key_text = (
        text(names[0]),
        names.get(1).map(|n| text(n)).unwrap_or_default(),
    );
    let Some(stored) = stored else {
        return Ok(Some(Mismatch {
            entity: expected.entity,
            key: key_text,
            attribute: None,
        }));
    };
    let ignored = |name: &str| expected.stamped.contains(&name) || schema.is_token_attribute(name);
    let mut differing: Vec<&String> = expected
        .item
        .iter()
        .filter(|(name, value)| !ignored(name) && stored.get(*name) != Some(*value))
        .map(|(name, _)| name)
        .chain(
            stored
                .keys()
                .filter(|name| !ignored(name) && !expected.item.contains_key(*name)),
        )
        .collect();
    differing.sort();
    Ok(differing.first().map(|attribute| Mismatch {
        entity: expected.entity,
        key: key_text,
        attribute: Some((*attribute).clone()),
    }))
}
