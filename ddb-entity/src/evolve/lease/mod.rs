//! Many workers, one job: segment leases stored in a DynamoDB table, so
//! backfill and migration workers in any number of processes share one
//! job, and a worker that dies is replaced.

mod fence;
mod store;
mod worker;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use aws_sdk_dynamodb::Client;

pub(crate) use fence::Fence;
pub(crate) use worker::{Counts, SharedRun, events};

use super::checkpoint::{Checkpoint, SegmentPosition};
use crate::batch::BatchRetry;
use crate::db::Db;
use crate::error::Result;
use crate::model::Provisioned;

crate::table! {
    /// The lease table: one partition per job, one item per segment and
    /// the job's header.
    pub(crate) struct LeaseSchema {
        partition_key: "job",
        sort_key: "segment",
        write_tokens: false
    }
}

/// A worker's clock for the `heartbeat_at` it writes (people read it;
/// no worker decides anything by it).
pub(crate) type Clock = Arc<dyn Fn() -> SystemTime + Send + Sync>;

/// The default lease duration.
const DEFAULT_LEASE: Duration = Duration::from_secs(30);

/// The DynamoDB table where shared jobs keep their leases: partition key
/// `job` (S), sort key `segment` (S), on-demand. One table serves any
/// number of jobs, each under its name; see [`SharedJob`] for what a job
/// stores and how workers share it.
///
/// # Example
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use ddb_entity::evolve::LeaseTable;
/// use ddb_entity::local::LocalDynamo;
/// use ddb_entity::op::Provisioned;
///
/// let dynamo = LocalDynamo::start().await?;
/// let leases = LeaseTable::new(dynamo.client(), dynamo.unique_table_name("jobs"));
/// assert_eq!(leases.create_if_missing().await?, Provisioned::Created);
/// assert_eq!(leases.create_if_missing().await?, Provisioned::AlreadyExisted);
/// assert!(leases.name().starts_with("jobs"));
/// let job = leases.job("orders-by-status");
/// assert_eq!(job.name(), "orders-by-status");
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct LeaseTable {
    client: Client,
    name: String,
}

impl LeaseTable {
    /// The lease table `name`, reached through `client`.
    ///
    /// See [the example](LeaseTable#example).
    pub fn new(client: Client, name: impl Into<String>) -> Self {
        LeaseTable {
            client,
            name: name.into(),
        }
    }

    /// The table's name.
    ///
    /// See [the example](LeaseTable#example).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Creates the table (on-demand) unless it exists, and waits until it
    /// is `ACTIVE`; an existing table with other keys is refused.
    ///
    /// See [the example](LeaseTable#example).
    pub async fn create_if_missing(&self) -> Result<Provisioned> {
        Db::<LeaseSchema>::new(self.client.clone(), self.name.clone())
            .create_table_if_missing()
            .await
    }

    /// The job `name` in this table, as this process's worker of it (see
    /// [`SharedJob`]).
    ///
    /// See [the example](LeaseTable#example).
    pub fn job(&self, name: impl Into<String>) -> SharedJob {
        SharedJob {
            table: self.clone(),
            name: name.into(),
            lease: DEFAULT_LEASE,
            worker: Arc::from(default_worker_id()),
            clock: Arc::new(SystemTime::now),
            retry: BatchRetry::new(),
        }
    }
}

/// One backfill or migration shared by workers in many processes (see
/// [`Backfill::shared`](super::Backfill::shared) and
/// [`Migration::shared`](super::Migration::shared)): each segment of the
/// job's scan has a **lease** item in the [`LeaseTable`], under the job's
/// name.
///
/// - **A lease item** holds the segment's owner, a lease counter (raised by
///   every claim: the fencing token), a heartbeat counter, the position
///   the segment's pages are done to (a checkpoint, moved after each
///   page) and the counts so far. A header item fixes the job's kind and
///   segmentation, checked by every worker that joins.
/// - **Claiming.** A worker claims free segments (a conditional update: no
///   owner yet) up to its `concurrency`, and runs each through the job's
///   own pipeline from the lease's position. While it works it beats (a
///   third of a lease duration apart), and after each page it moves the
///   position; both writes are conditioned on the worker still being the
///   owner under its lease counter, so a worker that lost its lease can
///   never move a position or finish a segment.
/// - **Taking over.** A worker sees a segment's counters unchanged for a
///   whole [`lease_duration`](SharedJob::lease_duration) on its own
///   monotonic clock, and claims it conditioned on those very counters:
///   one taker wins, the position goes on from the last page saved. No two
///   workers' clocks are ever compared, so clock skew changes nothing.
/// - **Fencing the writes.** A worker stops sending the job's writes for a
///   segment before one lease duration has passed since it sent its last
///   acknowledged heartbeat (five sixths of it): by then no one can have
///   taken the lease. A worker paused (a stop of the process, a long
///   pause) finds its lease closed when it resumes and sends nothing more
///   for it. A write already on the wire when the lease passes is not
///   stopped by the lease but by its own condition: a backfill's update
///   is conditioned on the item being unchanged since it was read, a
///   migration's put on the key being free, so such a write either is the
///   very effect the next owner would make (who then finds it done) or is
///   refused.
/// - **Done** when every segment's lease is done, whoever finished it: every
///   worker's run ends then. [`progress`](SharedJob::progress) reads it
///   from the leases.
///
/// Cost: a heartbeat per held segment a third of a lease apart (one small
/// write), a checkpoint write per page, and while a worker has room for
/// more segments one consistent Query of the job's leases per third of a
/// lease. A killed worker's segments wait one lease duration (30 s by
/// default) before another worker takes them; a worker that stops polling
/// its event stream stops beating and loses its segments the same way.
///
/// # Example
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use std::time::Duration;
/// use ddb_entity::evolve::{LeaseTable, SegmentPosition};
/// use ddb_entity::local::LocalDynamo;
/// use ddb_entity::{Db, Entity};
/// use serde::{Deserialize, Serialize};
///
/// ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "USER#{id}", sk = "PROFILE")]
/// struct User { id: u32, name: String }
///
/// # let dynamo = LocalDynamo::start().await?;
/// let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("app"));
/// db.create_table_if_missing().await?;
/// for id in 0..40 {
///     db.put(&User { id, name: format!("user {id}") }).await?;
/// }
/// let leases = LeaseTable::new(dynamo.client(), dynamo.unique_table_name("jobs"));
/// leases.create_if_missing().await?;
///
/// // Each process runs the same code; here two workers in one.
/// let job = leases.job("users-v2").lease_duration(Duration::from_secs(5));
/// assert_eq!(job.table().name(), leases.name());
/// let first = job.clone().worker("worker-a");
/// let second = job.clone().worker("worker-b");
/// assert_eq!(second.worker_id(), "worker-b");
/// let (a, b) = tokio::join!(
///     db.backfill::<User>().segments(8).shared(first).send(),
///     db.backfill::<User>().segments(8).shared(second).send(),
/// );
/// assert_eq!(a?.read + b?.read, 40);
///
/// let progress = job.progress().await?;
/// assert!(progress.is_done());
/// assert_eq!((progress.segments, progress.done, progress.held), (8, 8, 0));
/// assert_eq!(progress.counts["read"], 40);
/// assert!(progress.leases.iter().all(|l| l.position == SegmentPosition::Done && l.finished_by.is_some()));
/// assert!(progress.checkpoint().is_done());
/// // Deleted, the job can run again from the start.
/// assert_eq!(job.delete().await?, 9);
/// assert_eq!(job.progress().await?.segments, 0);
/// # let _ = (&progress.leases[0].owner, progress.leases[0].lease, progress.leases[0].heartbeat_at,
/// #          progress.leases[0].taken_over, &progress.leases[0].counts, progress.unclaimed, progress.leases[0].segment);
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct SharedJob {
    table: LeaseTable,
    name: String,
    lease: Duration,
    worker: Arc<str>,
    clock: Clock,
    retry: BatchRetry,
}

impl std::fmt::Debug for SharedJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedJob")
            .field("table", &self.table.name)
            .field("name", &self.name)
            .field("lease", &self.lease)
            .field("worker", &self.worker)
            .finish_non_exhaustive()
    }
}

impl SharedJob {
    /// How long a segment's counters must stay unchanged before another
    /// worker takes it over (default 30 s; at least 300 ms). Every worker
    /// of a job should use the same. Shorter: a dead worker is replaced
    /// sooner, for more heartbeat writes and less slack for a worker that
    /// pauses (a pause longer than about five sixths of it loses its
    /// segments).
    ///
    /// See [the example](SharedJob#example).
    pub fn lease_duration(mut self, duration: Duration) -> Self {
        self.lease = duration.max(Duration::from_millis(300));
        self
    }

    /// This worker's name, written as the owner of the segments it holds
    /// (default: one made of the process id, the time and a counter,
    /// unique to this handle and its clones). Two live workers must never
    /// share one.
    ///
    /// See [the example](SharedJob#example).
    pub fn worker(mut self, id: impl Into<String>) -> Self {
        self.worker = Arc::from(id.into());
        self
    }

    /// The clock this worker writes its heartbeats' times by (default the
    /// system's; for people reading the leases: no decision is made by
    /// it).
    ///
    /// See [the example](SharedJob#example).
    pub fn with_clock(mut self, clock: impl Fn() -> SystemTime + Send + Sync + 'static) -> Self {
        self.clock = Arc::new(clock);
        self
    }

    /// The job's name.
    ///
    /// See [the example](SharedJob#example).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// This worker's name.
    ///
    /// See [the example](SharedJob#example).
    pub fn worker_id(&self) -> &str {
        &self.worker
    }

    /// The lease table the job is kept in.
    ///
    /// See [the example](SharedJob#example).
    pub fn table(&self) -> &LeaseTable {
        &self.table
    }

    /// Where the job stands, read from its leases (consistently).
    ///
    /// See [the example](SharedJob#example).
    pub async fn progress(&self) -> Result<JobProgress> {
        let store = self.store();
        let segments = store.segments().await?.unwrap_or(0);
        let records = store.read().await?;
        let mut progress = JobProgress {
            segments,
            ..JobProgress::default()
        };
        for record in records.into_iter().filter(|r| r.segment < segments) {
            match (&record.position, &record.owner) {
                (SegmentPosition::Done, _) => progress.done += 1,
                (_, Some(_)) => progress.held += 1,
                (_, None) => {}
            }
            for (name, value) in &record.counts {
                *progress.counts.entry(name.clone()).or_default() += value;
            }
            progress.leases.push(SegmentLease {
                segment: record.segment,
                owner: record.owner,
                lease: record.lease,
                position: record.position,
                counts: record.counts,
                heartbeat_at: record.heartbeat_at.map(worker::from_millis),
                taken_over: record.taken_over,
                finished_by: record.finished_by,
            });
        }
        progress.unclaimed = segments - progress.done - progress.held;
        Ok(progress)
    }

    /// Deletes the job's items (its header and every lease): the job can
    /// be run again from the start under the same name. Only while no
    /// worker runs it. Returns how many items were deleted.
    ///
    /// See [the example](SharedJob#example).
    pub async fn delete(&self) -> Result<u64> {
        self.store().delete_all().await
    }

    fn store(&self) -> store::Store {
        store::Store {
            client: self.table.client.clone(),
            table: self.table.name.clone(),
            job: self.name.clone(),
            retry: self.retry,
        }
    }

    /// The job's segmentation, agreed with its header: the first worker
    /// writes `kind` and its segments (`asked`, or `default`), every
    /// other is checked against them.
    pub(crate) async fn segments(
        &self,
        kind: &str,
        asked: Option<u32>,
        default: u32,
    ) -> Result<u32> {
        self.store()
            .header(kind, asked, default, &self.worker)
            .await
    }
}

/// Where a [`SharedJob`] stands, read from its leases.
///
/// See [`SharedJob`'s example](SharedJob#example).
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct JobProgress {
    /// The job's segments (0 before any worker started it).
    pub segments: u32,
    /// Segments done.
    pub done: u32,
    /// Segments held by a worker (alive or not: a dead worker's lease is
    /// held until another takes it over).
    pub held: u32,
    /// Segments no worker claimed yet.
    pub unclaimed: u32,
    /// The job's counts over every segment (for a backfill `pages`,
    /// `scanned`, `read`, `updated`, `skipped`, `gone`, `retries`; for a
    /// migration `pages`, `read`, `mapped`, `written`, `existing`,
    /// `retries`). A page redone after a takeover counts again.
    pub counts: BTreeMap<String, u64>,
    /// Every claimed segment's lease, in segment order.
    pub leases: Vec<SegmentLease>,
}

impl JobProgress {
    /// Whether every segment is done.
    ///
    /// See [`SharedJob`'s example](SharedJob#example).
    pub fn is_done(&self) -> bool {
        self.segments > 0 && self.done == self.segments
    }

    /// The leases' positions as a [`Checkpoint`]: a job may also be
    /// finished by one process from it ([`Backfill::resume`](super::Backfill::resume)).
    ///
    /// See [`SharedJob`'s example](SharedJob#example).
    pub fn checkpoint(&self) -> Checkpoint {
        let mut checkpoint = Checkpoint::start(self.segments);
        for lease in &self.leases {
            checkpoint.set(lease.segment, lease.position.clone());
        }
        checkpoint
    }
}

/// One segment's lease.
///
/// See [`SharedJob`'s example](SharedJob#example).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SegmentLease {
    /// The segment.
    pub segment: u32,
    /// The worker holding it, or that finished it.
    pub owner: Option<String>,
    /// The lease counter: raised by every claim and takeover.
    pub lease: u64,
    /// How far its pages are done.
    pub position: SegmentPosition,
    /// Its counts so far.
    pub counts: BTreeMap<String, u64>,
    /// When its owner last beat, by the owner's clock.
    pub heartbeat_at: Option<SystemTime>,
    /// How many times it was taken over from a worker that stopped.
    pub taken_over: u64,
    /// The worker that finished it.
    pub finished_by: Option<String>,
}

/// A name unique to this process and moment: the process id, the time in
/// nanoseconds and a counter.
fn default_worker_id() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    format!("worker-{}-{nanos:x}-{n}", std::process::id())
}
