//! From a multi-table model to the single table: a typed, resumable copy
//! of legacy tables, and its verification.

use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, KeyType};
use futures_util::stream::{self, BoxStream, Stream, StreamExt};
use serde::de::DeserializeOwned;
use tracing::Instrument;

use super::backfill::Sending;
use super::checkpoint::{Checkpoint, DEFAULT_SEGMENTS, SegmentPosition};
use super::lease::{self, Counts, Fence, SharedJob, SharedRun};
use super::pace::{Gate, Pace, Rate};
use super::rewrite::reread;
use super::scan::{RawPage, ScanSpec, backoff};
use super::segment::{stop_after_error, written_pages};
use super::statements::{self, Answer, MAX_STATEMENTS, Statement};
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
/// // resumed from its checkpoint: every item is written once. Writes of
/// // the next page may already have been in flight when the run stopped
/// // (at most `writes` of them): the resumed run finds those existing.
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
/// assert_eq!(first.page.written + rest.written + rest.existing, 30);
/// assert!(rest.existing <= 4, "{rest:?}");
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
    sending: Sending,
    ceiling: Option<Rate>,
    page_size: Option<usize>,
    retry: BatchRetry,
    checkpoint: Option<Checkpoint>,
    shared: Option<SharedJob>,
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

impl Counts for MigrationTotals {
    fn add(&mut self, other: &Self) {
        self.pages += other.pages;
        self.read += other.read;
        self.mapped += other.mapped;
        self.written += other.written;
        self.existing += other.existing;
        self.retries += other.retries;
    }

    fn fields(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("pages", self.pages),
            ("read", self.read),
            ("mapped", self.mapped),
            ("written", self.written),
            ("existing", self.existing),
            ("retries", self.retries),
        ]
    }

    fn from_fields(stored: &BTreeMap<String, u64>) -> Self {
        let get = |name: &str| stored.get(name).copied().unwrap_or(0);
        MigrationTotals {
            pages: get("pages"),
            read: get("read"),
            mapped: get("mapped"),
            written: get("written"),
            existing: get("existing"),
            retries: get("retries"),
        }
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
            sending: Sending::One,
            ceiling: None,
            page_size: None,
            retry: BatchRetry::new(),
            checkpoint: None,
            shared: None,
        }
    }
}

/// What every segment of one run shares.
struct Shared<T: Table, L> {
    spec: Arc<ScanSpec>,
    target: String,
    map: Arc<Mapper<T, L>>,
    /// Puts in flight over every segment, and the ceiling (the
    /// backfill's controller).
    pace: Pace,
    max_writes: usize,
    /// How the puts are sent.
    sending: Sending,
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

    /// Up to `items` new items (1 to 25; default 1, one PutItem each)
    /// written by one request, a BatchExecuteStatement of PartiQL INSERT
    /// statements: each is the item's own create-only write (DynamoDB
    /// refuses an INSERT whose key is taken, and the item is counted
    /// `existing`), charged the write units of a PutItem. Fewer requests
    /// at the same cost, for a job bound by requests (the backfill's
    /// [`statements`](super::Backfill::statements)). It needs the IAM
    /// permission `dynamodb:PartiQLInsert` besides `dynamodb:PutItem`. An
    /// item a statement cannot name (an attribute name with a quote or a
    /// control character), a second item of the same key in one request,
    /// or one the server refuses for another reason is sent as a PutItem.
    /// Not for moto, whose PartiQL INSERT does not refuse a taken key.
    ///
    /// See [the example](Migration#example).
    pub fn statements(mut self, items: usize) -> Self {
        self.sending = match items.clamp(1, MAX_STATEMENTS) {
            1 => Sending::One,
            n => Sending::Statements(n),
        };
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

    /// Runs as one worker of `job`, a migration shared with workers in
    /// other processes through the job's segment leases (see
    /// [`SharedJob`] and [`Backfill::shared`](super::Backfill::shared),
    /// which works the same way): this worker's run ends when every
    /// segment of the job is done; the first worker fixes the
    /// segmentation; [`resume`](Migration::resume) is refused beside it.
    ///
    /// See [`SharedJob`'s example](SharedJob#example).
    pub fn shared(mut self, job: SharedJob) -> Self {
        self.shared = Some(job);
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
        let what = format!("a migration from `{}`", self.legacy);
        let (resumed, asked, shared_job) =
            (self.checkpoint.clone(), self.segments, self.shared.clone());
        let (concurrency, writes, page_size, retry) =
            (self.concurrency, self.writes, self.page_size, self.retry);
        let (max_writes, ceiling, sending) = (self.max_writes, self.ceiling, self.sending);
        let setup = async move {
            let checkpoint = match &shared_job {
                None => Checkpoint::for_job(resumed.as_ref(), asked, || what.clone())?,
                Some(job) => {
                    if resumed.is_some() {
                        return Err(Error::from(Repr::InvalidExpression {
                            what: format!("a shared {}", &what[2..]),
                            reason: "a shared job's checkpoint is its leases; leave `.resume` out"
                                .to_owned(),
                        }));
                    }
                    let asked = match asked {
                        Some(_) => {
                            Some(Checkpoint::for_job(None, asked, || what.clone())?.segments())
                        }
                        None => None,
                    };
                    let kind = format!("migration from `{legacy}` into `{}`", db.table_name());
                    Checkpoint::start(job.segments(&kind, asked, DEFAULT_SEGMENTS).await?)
                }
            };
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
                spec: Arc::new(spec),
                target: db.table_name().to_owned(),
                map,
                pace: Pace::new(writes, max_writes, ceiling),
                max_writes,
                sending,
                now: db.now(),
                state: Mutex::new((checkpoint, MigrationTotals::default())),
                span,
            });
            if let Some(job) = shared_job {
                return Ok(lease::events(shared, job, concurrency).boxed());
            }
            let segments = pending.into_iter().map(move |(segment, start)| {
                segment_events(Arc::clone(&shared), segment, start).boxed()
            });
            Ok::<_, Error>(
                stream::iter(segments)
                    .flatten_unordered(concurrency)
                    .boxed(),
            )
        };
        let events = stream::once(setup).map(move |setup| match setup {
            Ok(events) => events,
            Err(err) => stream::once(async move { Err(err) }).boxed(),
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

impl<T: Table, L: DeserializeOwned + Send + 'static> SharedRun for Shared<T, L> {
    type Counts = MigrationTotals;
    type Event = MigrationEvent;

    fn spec(&self) -> &ScanSpec {
        &self.spec
    }

    fn pages(
        self: Arc<Self>,
        segment: u32,
        start: Option<Item>,
        fence: Arc<Fence>,
    ) -> BoxStream<'static, Result<(Option<MigrationTotals>, SegmentPosition)>> {
        let spec = Arc::clone(&self.spec);
        written_pages(spec, segment, start, move |page| {
            let (this, fence) = (Arc::clone(&self), Arc::clone(&fence));
            async move {
                let span = tracing::info_span!(parent: &this.span, "ddb.migrate.page", segment);
                write_page(&this, page, Some(&fence)).instrument(span).await
            }
        })
        .boxed()
    }

    fn event(
        &self,
        segment: u32,
        page: MigrationTotals,
        segment_done: bool,
        totals: MigrationTotals,
        checkpoint: Checkpoint,
    ) -> MigrationEvent {
        MigrationEvent {
            segment,
            page,
            segment_done,
            totals,
            checkpoint,
        }
    }
}

/// The events of one legacy segment, page by page, the next page read
/// while the last is written.
fn segment_events<T: Table, L: DeserializeOwned + Send + 'static>(
    shared: Arc<Shared<T, L>>,
    segment: u32,
    start: Option<Item>,
) -> impl Stream<Item = Result<MigrationEvent>> + Send {
    let writer = Arc::clone(&shared);
    let pages = written_pages(Arc::clone(&shared.spec), segment, start, move |page| {
        let shared = Arc::clone(&writer);
        async move {
            let span = tracing::info_span!(parent: &shared.span, "ddb.migrate.page", segment);
            let counts = write_page(&shared, page, None).instrument(span).await?;
            // Without a lease nothing is fenced off.
            Ok(counts.unwrap_or_default())
        }
    });
    pages.map(move |written| {
        let (counts, next) = written?;
        let segment_done = next == SegmentPosition::Done;
        let (checkpoint, totals) = {
            let mut state = shared.state.lock().unwrap_or_else(|p| p.into_inner());
            state.0.set(segment, next);
            state.1.add(&counts);
            (state.0.clone(), state.1)
        };
        Ok(MigrationEvent {
            segment,
            page: counts,
            segment_done,
            totals,
            checkpoint,
        })
    })
}

/// Maps and writes one page of legacy items under `fence` (the segment's
/// lease, in a shared job); its counts, or `None` when the lease lapsed
/// before every write was sent.
async fn write_page<T: Table, L: DeserializeOwned + Send + 'static>(
    shared: &Shared<T, L>,
    page: RawPage,
    fence: Option<&Fence>,
) -> Result<Option<MigrationTotals>> {
    let RawPage { items, retries, .. } = page;
    let mut counts = MigrationTotals {
        pages: 1,
        read: items.len() as u64,
        retries: u64::from(retries),
        ..MigrationTotals::default()
    };
    let new_items = map_page(&*shared.map, &shared.spec.table, items, shared.now)?;
    counts.mapped = new_items.len() as u64;
    let partition_key = T::SCHEMA.primary.partition_key;
    let sending = shared.sending;
    let mut items = new_items.into_iter().map(|new| new.item).peekable();
    let groups = std::iter::from_fn(|| {
        items.peek()?;
        Some(
            items
                .by_ref()
                .take(sending.per_request())
                .collect::<Vec<_>>(),
        )
    });
    let gate = Gate {
        pace: &shared.pace,
        fence,
    };
    let mut puts = stream::iter(groups)
        .map(|group| create_all(shared, gate, partition_key, group))
        .buffer_unordered(shared.max_writes);
    let mut fenced = false;
    while let Some(put) = puts.next().await {
        let created = put?;
        counts.written += created.written;
        counts.existing += created.existing;
        counts.retries += u64::from(created.retries);
        fenced |= created.fenced;
    }
    Ok((!fenced).then_some(counts))
}

/// What became of a group of new items.
#[derive(Default)]
struct Created {
    written: u64,
    existing: u64,
    retries: u32,
    /// Some were not sent: the segment's lease lapsed.
    fenced: bool,
}

/// Writes `items` create-only, as INSERT statements when the migration
/// sends them so (those a statement cannot say, and a second item of one
/// key, as PutItems).
async fn create_all<T: Table, L>(
    shared: &Shared<T, L>,
    gate: Gate<'_>,
    partition_key: &str,
    items: Vec<Item>,
) -> Result<Created> {
    let (client, table, retry) = (
        &shared.spec.client,
        shared.target.as_str(),
        &shared.spec.retry,
    );
    let mut created = Created::default();
    let mut alone = Vec::new();
    let mut batch: Vec<Statement<Item>> = Vec::new();
    if let Sending::Statements(_) = shared.sending {
        let key_names = T::SCHEMA.primary;
        let key_of = |item: &Item| {
            [Some(key_names.partition_key), key_names.sort_key]
                .into_iter()
                .flatten()
                .map(|name| item.get(name).cloned())
                .collect::<Vec<_>>()
        };
        for item in items {
            let taken = batch.iter().any(|s| key_of(&s.what) == key_of(&item));
            match statements::insert(table, &item) {
                Some(request) if !taken => batch.push(Statement {
                    units: (item_size(&item).max(1) as f64 / 1024.0).ceil(),
                    what: item,
                    request,
                }),
                _ => alone.push(item),
            }
        }
        if batch.len() == 1 {
            alone.extend(batch.drain(..).map(|s| s.what));
        }
    } else {
        alone = items;
    }
    if !batch.is_empty() {
        let (answers, resent) = statements::execute(client, table, retry, gate, batch).await?;
        created.retries += resent;
        for (item, answer) in answers {
            match answer {
                Answer::Applied => created.written += 1,
                Answer::Refused(
                    aws_sdk_dynamodb::types::BatchStatementErrorCodeEnum::DuplicateItem,
                ) => created.existing += 1,
                Answer::Refused(_) => alone.push(item),
                Answer::Fenced => created.fenced = true,
            }
        }
    }
    for item in alone {
        let (put, resent) = create(client, table, retry, gate, partition_key, item).await?;
        created.retries += resent;
        match put {
            Some(true) => created.written += 1,
            Some(false) => created.existing += 1,
            None => created.fenced = true,
        }
    }
    Ok(created)
}

/// Puts `item` unless an item has its key: `(created, retries)`, where
/// `created` is `None` when the segment's lease lapsed before it was sent.
async fn create(
    client: &Client,
    table: &str,
    retry: &BatchRetry,
    gate: Gate<'_>,
    partition_key: &str,
    item: Item,
) -> Result<(Option<bool>, u32)> {
    let started = Instant::now();
    let mut jitter = Jitter::new(item.len() as u64);
    let mut retries = 0;
    let units = (item_size(&item).max(1) as f64 / 1024.0).ceil();
    loop {
        let Some(permit) = gate.admit(client, 1).await else {
            return Ok((None, retries));
        };
        let response = client
            .put_item()
            .table_name(table)
            .set_item(Some(item.clone()))
            .condition_expression("attribute_not_exists(#pk)")
            .expression_attribute_names("#pk", partition_key)
            .return_consumed_capacity(permit.consumed_capacity())
            .send()
            .await;
        let err = match response {
            Ok(output) => {
                let spent = output.consumed_capacity().and_then(|c| c.capacity_units());
                permit.succeeded(spent, units);
                return Ok((Some(true), retries));
            }
            Err(err) => Error::service("PutItem", table, err),
        };
        if err.is_throttled() {
            permit.throttled();
        }
        drop(permit);
        if err.is_condition_failed() {
            return Ok((Some(false), retries));
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
