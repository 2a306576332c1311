//! The backfill: every item of one entity rewritten into what this build
//! of the entity stores — its index keys, its newest schema version — in
//! parallel segments, with progress and checkpoints.

use std::collections::{BTreeMap, HashMap};
use std::marker::PhantomData;
use std::sync::{Arc, Mutex};

use aws_sdk_dynamodb::types::AttributeValue;
use futures_util::stream::{self, BoxStream, Stream, StreamExt};
use tracing::Instrument;

use super::checkpoint::{Checkpoint, DEFAULT_SEGMENTS, SegmentPosition};
use super::group::{MAX_GROUP, rewrite_group};
use super::lease::{self, Counts, Fence, SharedJob, SharedRun};
use super::pace::{Gate, Pace, Rate};
use super::rewrite::{Outcome, rewrite};
use super::scan::{Pending, RawPage, ScanFilter, ScanSpec};
use super::segment::{stop_after_error, written_pages};
use super::statements::{MAX_STATEMENTS, rewrite_statements};
use crate::batch::BatchRetry;
use crate::db::Db;
use crate::entity::Entity;
use crate::error::{Error, Repr, Result};
use crate::future::into_future;
use crate::item::Item;
use crate::table::Table;

/// Segments read at once unless told otherwise.
const DEFAULT_CONCURRENCY: usize = 4;
/// Writes in flight over the whole job to start with, unless told otherwise.
const DEFAULT_WRITES: usize = 32;
/// The most writes in flight the job grows to, unless told otherwise.
const DEFAULT_MAX_WRITES: usize = 256;

/// How a job's conditioned writes are sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sending {
    /// One request per item (UpdateItem, PutItem): the default.
    One,
    /// Up to n PartiQL statements per BatchExecuteStatement, each its own
    /// write at the single write's units.
    Statements(usize),
    /// Up to n updates per TransactWriteItems, at twice the units.
    Transactions(usize),
}

impl Sending {
    /// Items per request.
    pub(crate) fn per_request(self) -> usize {
        match self {
            Sending::One => 1,
            Sending::Statements(n) | Sending::Transactions(n) => n,
        }
    }
}

/// Rewrites every stored item of entity `E` into exactly what this build
/// of `E` writes for the value it decodes to. Made by [`Db::backfill`];
/// run it with `.await` (the totals), or watch it as a `Stream` of
/// [`BackfillEvent`]s with [`events`](Backfill::events).
///
/// What it is for:
/// - **a new index**: the entity now fills index `GSI2` (after
///   [`Db::add_index`]); items written before carry no `GSI2PK`/`GSI2SK`
///   and are invisible to it until rewritten;
/// - **re-keying**: an index key template changed, or a shard count in
///   it; the stored index keys are the old ones;
/// - **schema versions**: items stored at an older
///   `#[entity(schema_version = …)]` are upcast and stored at the newest.
///
/// How, per item: a parallel Scan (consistent reads, only items whose
/// type attribute is `E`'s: foreign items and items of other types are
/// read but never touched) hands each page to the writers. An item is
/// decoded (upcast if old), its target item computed; if the stored item
/// already is it, the item is **skipped** (so a rerun, or a resume that
/// redoes a page, writes nothing twice). Otherwise one UpdateItem sets the
/// attributes that differ and removes those a put would not store, under
/// the condition that the item is **unchanged since it was read**: its
/// version when the entity has one (`#[entity(version = …)]`), otherwise
/// every attribute read still equal and every attribute the entity or the
/// table could add still absent. A concurrent write is therefore never
/// overwritten: the condition fails, the item is read again (consistently)
/// and planned again from what is there now; an item deleted in between is
/// counted **gone**. Throttling and transient failures of every request
/// are retried with the batch engine's backoff and full jitter
/// ([`BatchRetry`]); past its budget the stream ends with the error.
/// Timestamps are not re-stamped and the write token is kept: a backfill
/// is not an update of the entity. An item of the entity's type that does
/// not decode stops the backfill with an error naming it — nothing is
/// skipped silently: repair or delete it, and resume.
///
/// **Progress and resuming.** Each page done is one [`BackfillEvent`]:
/// its segment, its counts, the run's totals, and a [`Checkpoint`]. The
/// checkpoint moves only after every write of the page succeeded, so a
/// job killed at any point and resumed from the last checkpoint it saved
/// ([`resume`](Backfill::resume)) misses no item; the pages it redoes are
/// found done and skipped.
///
/// **Order of deployment.** Deploy the code that writes the new keys
/// first, then backfill: an old writer that puts an item after the
/// backfill rewrote it stores it without the new keys again.
///
/// Not covered: a change of the **primary** key template moves items to
/// new keys, which an update cannot do; such an item fails the backfill
/// with [`ErrorKind::KeyMismatch`](crate::error::ErrorKind::KeyMismatch).
///
/// # Example
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use ddb_entity::op::BatchRetry;
/// use ddb_entity::{Db, Entity, local::LocalDynamo};
/// use futures_util::TryStreamExt;
/// use serde::{Deserialize, Serialize};
///
/// ddb_entity::table! { pub struct V1 { partition_key: "PK", sort_key: "SK" } }
/// ddb_entity::table! {
///     pub struct V2 {
///         partition_key: "PK",
///         sort_key: "SK",
///         indexes: { pub ByEmail = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } },
///     }
/// }
///
/// /// Yesterday's customer: no index. The same stored type as today's
/// /// (`customer`), whatever the Rust name.
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = V1, type = "customer", pk = "CUST#{id}", sk = "PROFILE")]
/// struct OldCustomer { id: u32, email: String }
///
/// /// Today's: found by email.
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = V2, pk = "CUST#{id}", sk = "PROFILE")]
/// #[entity(index = ByEmail, pk = "EMAIL#{email}", sk = "PROFILE")]
/// struct Customer { id: u32, email: String }
///
/// # let dynamo = LocalDynamo::start().await?;
/// # let name = dynamo.unique_table_name("doc");
/// let old = Db::<V1>::new(dynamo.client(), name.clone());
/// old.create_table_if_missing().await?;
/// for id in 0..25 {
///     old.put(&OldCustomer { id, email: format!("c{id}@example.com") }).await?;
/// }
///
/// let db = Db::<V2>::new(dynamo.client(), name);
/// db.add_index::<ByEmail>().await?;
/// let mut events = Box::pin(db.backfill::<Customer>().segments(2).page_size(10).events());
/// let mut last = None;
/// while let Some(event) = events.try_next().await? {
///     println!("segment {}: {} updated so far", event.segment, event.totals.updated);
///     last = Some(event); // save `event.checkpoint` somewhere durable
/// }
/// let last = last.unwrap();
/// assert!(last.checkpoint.is_done());
/// assert_eq!(last.totals.updated, 25);
///
/// // Every customer is now in the index; a second run finds nothing to do.
/// let found: Vec<Customer> = db.query(Customer::by_email_partition("c7@example.com")?).all().await?;
/// assert_eq!(found.len(), 1);
/// let again = db.backfill::<Customer>().await?;
/// assert_eq!((again.updated, again.skipped, again.read, again.gone), (0, 25, 25, 0));
/// assert!(again.scanned >= 25 && again.pages >= 1 && again.retries == 0);
///
/// // Every setting, resumed from a checkpoint where every segment is done.
/// let resumed = db
///     .backfill::<Customer>()
///     .concurrency(1)
///     .writes(4)
///     .retry(BatchRetry::new().max_attempts(3))
///     .resume(last.checkpoint)
///     .send()
///     .await?;
/// assert_eq!(resumed.read, 0);
/// # let _ = (last.page, last.segment_done);
/// # Ok(())
/// # }
/// ```
#[must_use = "nothing happens until the backfill is run"]
pub struct Backfill<'db, E: Entity> {
    db: &'db Db<E::Table>,
    segments: Option<u32>,
    checkpoint: Option<Checkpoint>,
    concurrency: usize,
    writes: usize,
    max_writes: usize,
    sending: Sending,
    ceiling: Option<Rate>,
    page_size: Option<usize>,
    retry: BatchRetry,
    shared: Option<SharedJob>,
    entity: PhantomData<fn() -> E>,
}

/// Counts of a backfill: of one page, or of a whole run.
///
/// See [the example](Backfill#example).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct BackfillTotals {
    /// Pages done.
    pub pages: u64,
    /// Items DynamoDB read (every type: a scan reads the whole table).
    pub scanned: u64,
    /// Items of the entity the scan returned.
    pub read: u64,
    /// Items rewritten.
    pub updated: u64,
    /// Items that already were what this build writes.
    pub skipped: u64,
    /// Items deleted between the scan and their write.
    pub gone: u64,
    /// Requests sent again: writes after a concurrent change (each with a
    /// consistent re-read), and requests throttled or failed transiently.
    pub retries: u64,
}

/// One page of a backfill done: every write of it succeeded.
///
/// See [the example](Backfill#example).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct BackfillEvent {
    /// The segment the page is from.
    pub segment: u32,
    /// What this page did.
    pub page: BackfillTotals,
    /// Whether the segment is finished.
    pub segment_done: bool,
    /// What this run has done so far, over every segment.
    pub totals: BackfillTotals,
    /// Where the job stands: save it, and [`resume`](Backfill::resume)
    /// from it after a crash.
    pub checkpoint: Checkpoint,
}

impl<T: Table> Db<T> {
    /// Starts a backfill of entity `E` (see [`Backfill`]).
    ///
    /// See [the example](Backfill#example).
    pub fn backfill<E: Entity<Table = T>>(&self) -> Backfill<'_, E> {
        Backfill {
            db: self,
            segments: None,
            checkpoint: None,
            concurrency: DEFAULT_CONCURRENCY,
            writes: DEFAULT_WRITES,
            max_writes: DEFAULT_MAX_WRITES,
            sending: Sending::One,
            ceiling: None,
            page_size: None,
            retry: BatchRetry::new(),
            shared: None,
            entity: PhantomData,
        }
    }
}

/// What every segment of one run shares.
struct Shared {
    spec: Arc<ScanSpec>,
    /// Writes in flight, over every segment, and the ceiling.
    pace: Pace,
    /// The most requests in flight of one page (the pace admits fewer).
    max_writes: usize,
    /// How updates are sent.
    sending: Sending,
    state: Mutex<(Checkpoint, BackfillTotals)>,
    span: tracing::Span,
}

impl<'db, E: Entity> Backfill<'db, E> {
    /// Split the scan into `segments` (1 to 1,000,000; default 4). A
    /// resumed job keeps its checkpoint's segmentation: leave this out
    /// there, or give the checkpoint's own number (another is refused
    /// before any request).
    ///
    /// See [the example](Backfill#example).
    pub fn segments(mut self, segments: u32) -> Self {
        self.segments = Some(segments);
        self
    }

    /// At most `segments` read and written at once (default 4).
    ///
    /// See [the example](Backfill#example).
    pub fn concurrency(mut self, segments: usize) -> Self {
        self.concurrency = segments.max(1);
        self
    }

    /// Start with `writes` requests in flight over the whole job (default
    /// 32). The job's one controller, shared by all its segments, grows
    /// them by one per round of successes while none is throttled, up to
    /// [`max_writes`](Backfill::max_writes), and halves them when DynamoDB
    /// throttles one (`ProvisionedThroughputExceeded`, `ThrottlingException`).
    ///
    /// See [the example](Backfill#example).
    pub fn writes(mut self, writes: usize) -> Self {
        self.writes = writes.max(1);
        self
    }

    /// At most `writes` requests in flight over the whole job, however
    /// long nothing is throttled (default 256).
    ///
    /// See [the example](Backfill#example).
    pub fn max_writes(mut self, writes: usize) -> Self {
        self.max_writes = writes.max(1);
        self
    }

    /// A ceiling over the whole job: at most this many items, or write
    /// units, per second (default none: as fast as the table serves), so
    /// the job never takes the capacity the service beside it needs.
    ///
    /// See [the example](Backfill#example).
    pub fn max_rate(mut self, rate: Rate) -> Self {
        self.ceiling = Some(rate);
        self
    }

    /// Up to `updates` items (1 to 25; default 1, one UpdateItem each)
    /// written by one request, a BatchExecuteStatement of PartiQL UPDATE
    /// statements: each statement is the item's own conditioned update
    /// (its WHERE clause is the "unchanged since read" condition), applied
    /// or refused on its own, and charged the write units of the
    /// UpdateItem it stands for. Fewer requests at the same cost: the
    /// setting for a job whose bound is requests rather than capacity (the
    /// embedded server, which serves one request at a time; a client
    /// short of CPU or connections). It needs the IAM permission
    /// `dynamodb:PartiQLUpdate` on the table besides `dynamodb:UpdateItem`.
    /// An item whose condition failed is re-read and rewritten alone; an
    /// item a statement cannot name (an attribute name with a double
    /// quote or a control character) or that the server refuses for
    /// another reason is sent as an UpdateItem. Replaces
    /// [`group`](Backfill::group). Not for moto, whose PartiQL applies
    /// nothing and reports success when a WHERE clause is false.
    ///
    /// See [the example](Backfill#example).
    pub fn statements(mut self, updates: usize) -> Self {
        self.sending = match updates.clamp(1, MAX_STATEMENTS) {
            1 => Sending::One,
            n => Sending::Statements(n),
        };
        self
    }

    /// Up to `updates` items (1 to 100; default 1) written by one request:
    /// above 1, a TransactWriteItems of their updates, each still
    /// conditioned on its item being unchanged since it was read (an item
    /// that changed is re-read and rewritten alone, the others sent
    /// again). Fewer requests, but DynamoDB charges a transactional write
    /// **two** write units per kilobyte, twice an UpdateItem's, and one
    /// changed item cancels the whole group: prefer
    /// [`statements`](Backfill::statements), which saves the same
    /// requests at the single write's cost. Replaces `statements`.
    ///
    /// See [the example](Backfill#example).
    pub fn group(mut self, updates: usize) -> Self {
        self.sending = match updates.clamp(1, MAX_GROUP) {
            1 => Sending::One,
            n => Sending::Transactions(n),
        };
        self
    }

    /// At most `size` items read per request (DynamoDB also stops at 1 MB):
    /// smaller pages, more frequent checkpoints.
    ///
    /// See [the example](Backfill#example).
    pub fn page_size(mut self, size: usize) -> Self {
        self.page_size = Some(size);
        self
    }

    /// The retry budget of each request (the batch engine's policy;
    /// default [`BatchRetry::new`]).
    ///
    /// See [the example](Backfill#example).
    pub fn retry(mut self, retry: BatchRetry) -> Self {
        self.retry = retry;
        self
    }

    /// Go on from `checkpoint`, the last one a previous run of this
    /// backfill reported: segments done stay done, the others go on after
    /// their cursor.
    ///
    /// See [the example](Backfill#example).
    pub fn resume(mut self, checkpoint: Checkpoint) -> Self {
        self.checkpoint = Some(checkpoint);
        self
    }

    /// Runs as one worker of `job`, a backfill shared with workers in
    /// other processes through the job's segment leases (see
    /// [`SharedJob`]): this worker claims segments (up to
    /// [`concurrency`](Backfill::concurrency) at once), takes over those
    /// of workers that stopped, and its run ends when every segment of
    /// the job is done, by whichever worker; its totals are its own. The
    /// first worker fixes the job's [`segments`](Backfill::segments)
    /// (default 4; a shared job usually wants many more, so that workers
    /// have some to share); another asking for a different number is
    /// refused before any write. The leases are the job's checkpoint:
    /// [`resume`](Backfill::resume) is refused beside it. Each event's
    /// checkpoint is the job as this worker last saw it.
    ///
    /// See [`SharedJob`'s example](SharedJob#example).
    pub fn shared(mut self, job: SharedJob) -> Self {
        self.shared = Some(job);
        self
    }

    /// Runs the backfill to the end and returns what it did.
    ///
    /// See [the example](Backfill#example).
    pub async fn send(self) -> Result<BackfillTotals> {
        let mut events = std::pin::pin!(self.events());
        let mut totals = BackfillTotals::default();
        while let Some(event) = events.next().await {
            totals = event?.totals;
        }
        Ok(totals)
    }

    /// The backfill as a `Stream`: one [`BackfillEvent`] per page done,
    /// segments interleaved. It ends when every segment is done, or with
    /// the first error (later pages are not started; resume from the last
    /// event's checkpoint). Dropping it stops the job; the checkpoint of
    /// the last event received is safe to resume from.
    ///
    /// See [the example](Backfill#example).
    pub fn events(self) -> impl Stream<Item = Result<BackfillEvent>> + Send + 'db {
        if let Some(job) = self.shared.clone() {
            return self.shared_events(job).boxed();
        }
        let planned = Checkpoint::for_job(self.checkpoint.as_ref(), self.segments, || {
            format!("a backfill of {}", E::RUST_NAME)
        })
        .and_then(|checkpoint| self.plan(checkpoint));
        match planned {
            Ok((shared, pending)) => {
                let concurrency = self.concurrency;
                let shared = Arc::new(shared);
                let segments = pending.into_iter().map(move |(segment, start)| {
                    segment_events::<E>(Arc::clone(&shared), segment, start).boxed()
                });
                stop_after_error(stream::iter(segments).flatten_unordered(concurrency)).boxed()
            }
            Err(err) => stream::once(async move { Err(err) }).boxed(),
        }
    }

    /// This worker's events of the shared `job`.
    fn shared_events(
        self,
        job: SharedJob,
    ) -> impl Stream<Item = Result<BackfillEvent>> + Send + 'db {
        let setup = async move {
            let what = || format!("a shared backfill of {}", E::RUST_NAME);
            if self.checkpoint.is_some() {
                return Err(Error::from(Repr::InvalidExpression {
                    what: what(),
                    reason: "a shared job's checkpoint is its leases; leave `.resume` out (or run it in one process from `JobProgress::checkpoint`)".to_owned(),
                }));
            }
            // The segment count asked for, checked as any job's.
            let asked = match self.segments {
                Some(_) => Some(Checkpoint::for_job(None, self.segments, what)?.segments()),
                None => None,
            };
            let kind = format!("backfill of {} in `{}`", E::RUST_NAME, self.db.table_name());
            let segments = job.segments(&kind, asked, DEFAULT_SEGMENTS).await?;
            let (shared, _) = self.plan(Checkpoint::start(segments))?;
            let run = Arc::new(SharedBackfill::<E> {
                shared,
                entity: PhantomData,
            });
            Ok(lease::events(run, job, self.concurrency))
        };
        stream::once(setup)
            .map(|setup| match setup {
                Ok(events) => events.left_stream(),
                Err(err) => stream::once(async move { Err(err) }).right_stream(),
            })
            .flatten()
    }

    /// The run's shared state and its pending segments, from `checkpoint`.
    fn plan(&self, checkpoint: Checkpoint) -> Result<(Shared, Pending)> {
        let schema = E::Table::SCHEMA;
        let filter = ScanFilter {
            expression: "#t = :t".to_owned(),
            names: HashMap::from([("#t".to_owned(), schema.type_attribute.to_owned())]),
            values: HashMap::from([(":t".to_owned(), AttributeValue::S(E::TYPE_TAG.to_owned()))]),
        };
        let spec = ScanSpec {
            client: self.db.client().clone(),
            table: self.db.table_name().to_owned(),
            key_names: ScanSpec::names_of(schema.primary),
            any_key_types: false,
            segments: checkpoint.segments(),
            page_size: self.page_size,
            filter: Some(filter),
            retry: self.retry,
            meter: self.db.meter().cloned(),
        };
        let pending = checkpoint
            .pending()
            .map(|(segment, cursor)| Ok((segment, spec.start_key(segment, cursor)?)))
            .collect::<Result<Vec<_>>>()?;
        let span = tracing::info_span!(
            "ddb.backfill",
            table = self.db.table_name(),
            entity = E::RUST_NAME,
            segments = checkpoint.segments(),
            resumed_done = checkpoint.segments_done(),
        );
        let shared = Shared {
            spec: Arc::new(spec),
            pace: Pace::new(self.writes, self.max_writes, self.ceiling),
            max_writes: self.max_writes,
            sending: self.sending,
            state: Mutex::new((checkpoint, BackfillTotals::default())),
            span,
        };
        Ok((shared, pending))
    }
}

into_future!(['db, E: Entity] Backfill<'db, E> => BackfillTotals);

/// The events of one segment, page by page, from `start`, each (with
/// its checkpoint) once every write of its page and of the pages before
/// it is done.
fn segment_events<E: Entity>(
    shared: Arc<Shared>,
    segment: u32,
    start: Option<Item>,
) -> impl Stream<Item = Result<BackfillEvent>> + Send {
    let writer = Arc::clone(&shared);
    let pages = written_pages(Arc::clone(&shared.spec), segment, start, move |page| {
        let shared = Arc::clone(&writer);
        async move {
            let span = tracing::info_span!(parent: &shared.span, "ddb.backfill.page", segment);
            let counts = write_page::<E>(&shared, page, None)
                .instrument(span)
                .await?;
            // Without a lease nothing is fenced off.
            Ok(counts.unwrap_or_default())
        }
    });
    pages.map(move |written| {
        let (counts, next) = written?;
        Ok(checkpoint(&shared, segment, counts, next))
    })
}

/// A backfill as one worker of a shared job runs it.
struct SharedBackfill<E> {
    shared: Shared,
    entity: PhantomData<fn() -> E>,
}

impl<E: Entity> SharedRun for SharedBackfill<E> {
    type Counts = BackfillTotals;
    type Event = BackfillEvent;

    fn spec(&self) -> &ScanSpec {
        &self.shared.spec
    }

    fn pages(
        self: Arc<Self>,
        segment: u32,
        start: Option<Item>,
        fence: Arc<Fence>,
    ) -> BoxStream<'static, Result<(Option<BackfillTotals>, SegmentPosition)>> {
        let spec = Arc::clone(&self.shared.spec);
        written_pages(spec, segment, start, move |page| {
            let (this, fence) = (Arc::clone(&self), Arc::clone(&fence));
            async move {
                let span =
                    tracing::info_span!(parent: &this.shared.span, "ddb.backfill.page", segment);
                write_page::<E>(&this.shared, page, Some(&fence))
                    .instrument(span)
                    .await
            }
        })
        .boxed()
    }

    fn event(
        &self,
        segment: u32,
        page: BackfillTotals,
        segment_done: bool,
        totals: BackfillTotals,
        checkpoint: Checkpoint,
    ) -> BackfillEvent {
        BackfillEvent {
            segment,
            page,
            segment_done,
            totals,
            checkpoint,
        }
    }
}

impl Counts for BackfillTotals {
    fn add(&mut self, other: &Self) {
        self.pages += other.pages;
        self.scanned += other.scanned;
        self.read += other.read;
        self.updated += other.updated;
        self.skipped += other.skipped;
        self.gone += other.gone;
        self.retries += other.retries;
    }

    fn fields(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("pages", self.pages),
            ("scanned", self.scanned),
            ("read", self.read),
            ("updated", self.updated),
            ("skipped", self.skipped),
            ("gone", self.gone),
            ("retries", self.retries),
        ]
    }

    fn from_fields(stored: &BTreeMap<String, u64>) -> Self {
        let get = |name: &str| stored.get(name).copied().unwrap_or(0);
        BackfillTotals {
            pages: get("pages"),
            scanned: get("scanned"),
            read: get("read"),
            updated: get("updated"),
            skipped: get("skipped"),
            gone: get("gone"),
            retries: get("retries"),
        }
    }
}

/// Writes one page under `fence` (the segment's lease, in a shared job);
/// its counts, or `None` when the lease lapsed before every write was
/// sent (the page is not done: its next owner does it again).
async fn write_page<E: Entity>(
    shared: &Shared,
    page: RawPage,
    fence: Option<&Fence>,
) -> Result<Option<BackfillTotals>> {
    let RawPage {
        items,
        scanned,
        retries,
        ..
    } = page;
    let mut counts = BackfillTotals {
        pages: 1,
        scanned: scanned as u64,
        read: items.len() as u64,
        retries: u64::from(retries),
        ..BackfillTotals::default()
    };
    let spec = &shared.spec;
    let (client, table, retry) = (&spec.client, spec.table.as_str(), &spec.retry);
    let gate = Gate {
        pace: &shared.pace,
        fence,
    };
    let sending = shared.sending;
    let mut items = items.into_iter().peekable();
    let groups = std::iter::from_fn(|| {
        items.peek()?;
        Some(
            items
                .by_ref()
                .take(sending.per_request())
                .collect::<Vec<_>>(),
        )
    });
    let mut writes = stream::iter(groups)
        .map(|group| async move {
            match (sending, group.len()) {
                (Sending::One, _) | (_, 1) => {
                    let item = group.into_iter().next().unwrap_or_default();
                    Ok(vec![rewrite::<E>(client, table, retry, gate, item).await?])
                }
                (Sending::Statements(_), _) => {
                    rewrite_statements::<E>(client, table, retry, gate, group).await
                }
                (Sending::Transactions(_), _) => {
                    rewrite_group::<E>(client, table, retry, gate, group).await
                }
            }
        })
        .buffer_unordered(shared.max_writes);
    let mut fenced = false;
    while let Some(done) = writes.next().await {
        for done in done? {
            counts.retries += u64::from(done.retries);
            match done.outcome {
                Outcome::Updated => counts.updated += 1,
                Outcome::Skipped => counts.skipped += 1,
                Outcome::Gone => counts.gone += 1,
                Outcome::Fenced => fenced = true,
            }
        }
    }
    Ok((!fenced).then_some(counts))
}

/// A page done, every page before it in its segment done: the checkpoint
/// moves, and the event tells it.
fn checkpoint(
    shared: &Shared,
    segment: u32,
    counts: BackfillTotals,
    next: SegmentPosition,
) -> BackfillEvent {
    let segment_done = next == SegmentPosition::Done;
    let (checkpoint, totals) = {
        let mut state = shared
            .state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        state.0.set(segment, next);
        state.1.add(&counts);
        (state.0.clone(), state.1)
    };
    tracing::debug!(
        segment,
        updated = counts.updated,
        skipped = counts.skipped,
        gone = counts.gone,
        retries = counts.retries,
        writes_in_flight = shared.pace.limit(),
        "backfill page done"
    );
    BackfillEvent {
        segment,
        page: counts,
        segment_done,
        totals,
        checkpoint,
    }
}
