//! One worker of a shared job: it claims segments from the lease table
//! (free ones first, then those whose owner stopped beating), runs each
//! through the job's own segment pipeline with a heartbeat beside it,
//! moves the lease's position after each page, and ends when every
//! segment of the job is done, by whichever worker.

use std::collections::{BTreeMap, HashMap};
use std::pin::pin;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use futures_util::future::{self, Either};
use futures_util::stream::{self, BoxStream, SelectAll, Stream, StreamExt};

use super::SharedJob;
use super::fence::Fence;
use super::store::{Claim, Kept, Record, Store};
use crate::db::pause;
use crate::error::{Error, Result};
use crate::evolve::checkpoint::{Checkpoint, SegmentPosition};
use crate::evolve::scan::ScanSpec;
use crate::item::Item;

/// A job's counts, as a lease item stores them (a map of numbers).
pub(crate) trait Counts: Default + Copy + Send + Sync + 'static {
    /// Adds `other` in.
    fn add(&mut self, other: &Self);
    /// Each count by name.
    fn fields(&self) -> Vec<(&'static str, u64)>;
    /// The counts named in `stored` (others zero).
    fn from_fields(stored: &BTreeMap<String, u64>) -> Self;
}

/// What a job gives its workers: its scan, its segment pipeline under a
/// lease, and its events.
pub(crate) trait SharedRun: Send + Sync + 'static {
    type Counts: Counts;
    type Event: Send + 'static;
    /// The job's scan (its segment count is the job's).
    fn spec(&self) -> &ScanSpec;
    /// The pages of `segment` from `start`, each written under `fence`:
    /// its counts (`None` when the fence closed before every write was
    /// sent) and where the segment stands after it.
    fn pages(
        self: Arc<Self>,
        segment: u32,
        start: Option<Item>,
        fence: Arc<Fence>,
    ) -> BoxStream<'static, Result<(Option<Self::Counts>, SegmentPosition)>>;
    /// The event of a page done.
    fn event(
        &self,
        segment: u32,
        page: Self::Counts,
        segment_done: bool,
        totals: Self::Counts,
        checkpoint: Checkpoint,
    ) -> Self::Event;
}

/// What a segment's run reports.
enum Step<C> {
    /// A page done and its position saved in the lease.
    Page {
        segment: u32,
        counts: C,
        next: SegmentPosition,
    },
    /// The lease is another worker's now (or may be): the run stopped.
    Lost {
        segment: u32,
    },
    Failed(Error),
}

/// This worker's events, until every segment of the job is done. `kind`
/// names the job in its header ("a backfill of `User`"); `segments` is
/// what the worker asked for (the header's count wins when unset).
pub(crate) fn events<R: SharedRun>(
    run: Arc<R>,
    job: SharedJob,
    concurrency: usize,
) -> impl Stream<Item = Result<R::Event>> + Send {
    let segments = run.spec().segments;
    let scheduler = Scheduler {
        store: job.store(),
        me: Arc::clone(&job.worker),
        clock: Arc::clone(&job.clock),
        lease: job.lease,
        poll: job.lease / 3,
        concurrency: concurrency.max(1),
        segments,
        offset: spread(&job.worker, segments),
        runs: SelectAll::new(),
        held: HashMap::new(),
        seen: HashMap::new(),
        view: Checkpoint::start(segments),
        totals: R::Counts::default(),
        next_poll: Instant::now(),
        finished: false,
        run,
    };
    stream::unfold(scheduler, |mut scheduler| async move {
        let event = scheduler.next().await?;
        Some((event, scheduler))
    })
}

struct Scheduler<R: SharedRun> {
    run: Arc<R>,
    store: Store,
    me: Arc<str>,
    clock: super::Clock,
    lease: Duration,
    poll: Duration,
    concurrency: usize,
    segments: u32,
    /// Where this worker starts looking for free segments, so workers
    /// starting together do not all race for segment 0.
    offset: u32,
    runs: SelectAll<BoxStream<'static, Step<R::Counts>>>,
    /// The segments this worker holds.
    held: HashMap<u32, Arc<Fence>>,
    /// Other owners' counters as first seen unchanged, and when.
    seen: HashMap<u32, (u64, u64, Instant)>,
    /// The job as this worker last knew it.
    view: Checkpoint,
    totals: R::Counts,
    next_poll: Instant,
    finished: bool,
}

impl<R: SharedRun> Scheduler<R> {
    async fn next(&mut self) -> Option<Result<R::Event>> {
        loop {
            if self.finished {
                return None;
            }
            if Instant::now() >= self.next_poll {
                if let Err(err) = self.poll().await {
                    self.finished = true;
                    return Some(Err(err));
                }
                if self.finished {
                    return None;
                }
            }
            let wait = self.next_poll.saturating_duration_since(Instant::now());
            let client = self.store.client.clone();
            if self.runs.is_empty() {
                pause(&client, wait).await;
                continue;
            }
            let step = {
                let tick = pin!(pause(&client, wait));
                match future::select(self.runs.next(), tick).await {
                    Either::Left((step, _)) => step,
                    Either::Right(_) => continue,
                }
            };
            match step {
                None => {}
                Some(Step::Page {
                    segment,
                    counts,
                    next,
                }) => {
                    self.totals.add(&counts);
                    let done = next == SegmentPosition::Done;
                    self.view.set(segment, next);
                    if done {
                        self.held.remove(&segment);
                        self.next_poll = Instant::now();
                    }
                    let event =
                        self.run
                            .event(segment, counts, done, self.totals, self.view.clone());
                    return Some(Ok(event));
                }
                Some(Step::Lost { segment }) => {
                    self.held.remove(&segment);
                    tracing::warn!(
                        job = self.store.job.as_str(),
                        segment,
                        worker = &*self.me,
                        "lost the lease of a segment to another worker; it goes on from the last saved position"
                    );
                    self.next_poll = Instant::now();
                }
                Some(Step::Failed(err)) => {
                    self.finished = true;
                    return Some(Err(err));
                }
            }
        }
    }

    /// Reads the leases: learns the job's positions, notices owners that
    /// stopped beating, claims what it can, and sees whether the job is
    /// done.
    async fn poll(&mut self) -> Result<()> {
        let now = Instant::now();
        self.next_poll = now + self.poll;
        if self.held.len() >= self.concurrency {
            return Ok(());
        }
        let records = self.store.read().await?;
        let by_segment: HashMap<u32, &Record> = records
            .iter()
            .filter(|r| r.segment < self.segments)
            .map(|r| (r.segment, r))
            .collect();
        let done = by_segment
            .values()
            .filter(|r| r.position == SegmentPosition::Done)
            .count();
        for record in by_segment.values() {
            if !self.held.contains_key(&record.segment) {
                self.view.set(record.segment, record.position.clone());
            }
        }
        if done == self.segments as usize {
            if self.runs.is_empty() {
                self.finished = true;
            }
            return Ok(());
        }
        // Counters seen unchanged for a whole lease duration, on this
        // worker's own clock, are an owner that stopped.
        self.seen
            .retain(|segment, _| by_segment.contains_key(segment));
        let mut expired = Vec::new();
        for record in by_segment.values() {
            if record.owner.is_none()
                || record.position == SegmentPosition::Done
                || self.held.contains_key(&record.segment)
            {
                continue;
            }
            let counters = (record.lease, record.beat);
            let since = match self.seen.get(&record.segment) {
                Some((lease, beat, since)) if (*lease, *beat) == counters => *since,
                _ => {
                    self.seen
                        .insert(record.segment, (counters.0, counters.1, now));
                    now
                }
            };
            if now.duration_since(since) >= self.lease {
                expired.push((
                    record.segment,
                    Claim::Expired {
                        lease: record.lease,
                        beat: record.beat,
                    },
                ));
            }
        }
        let free = (0..self.segments)
            .map(|i| (i + self.offset) % self.segments)
            .filter(|segment| {
                !self.held.contains_key(segment)
                    && by_segment
                        .get(segment)
                        .is_none_or(|r| r.owner.is_none() && r.position != SegmentPosition::Done)
            })
            .map(|segment| (segment, Claim::Free));
        let candidates: Vec<(u32, Claim)> = free.chain(expired).collect();
        for (segment, claim) in candidates {
            if self.held.len() >= self.concurrency {
                break;
            }
            let sent = Instant::now();
            let Some(held) = self
                .store
                .claim(segment, claim, &self.me, (self.clock)())
                .await?
            else {
                continue;
            };
            if held.position == SegmentPosition::Done {
                continue;
            }
            if let Claim::Expired { .. } = claim {
                tracing::info!(
                    job = self.store.job.as_str(),
                    segment,
                    worker = &*self.me,
                    "took over the segment of a worker that stopped beating"
                );
            }
            let fence = Arc::new(Fence::new(segment, held.lease, self.lease, sent));
            let start = match &held.position {
                SegmentPosition::After(cursor) => {
                    self.run.spec().start_key(segment, Some(cursor))?
                }
                _ => None,
            };
            self.view.set(segment, held.position.clone());
            self.seen.remove(&segment);
            self.held.insert(segment, Arc::clone(&fence));
            let counts = R::Counts::from_fields(&held.counts);
            let pages = Arc::clone(&self.run).pages(segment, start, Arc::clone(&fence));
            let stepped = saved_pages(
                pages,
                counts,
                Arc::clone(&fence),
                self.store.clone(),
                Arc::clone(&self.me),
                Arc::clone(&self.clock),
            );
            let beating = heartbeats(
                self.store.clone(),
                fence,
                Arc::clone(&self.me),
                Arc::clone(&self.clock),
            );
            self.runs
                .push(with_heartbeat(stepped, beating, segment).boxed());
        }
        Ok(())
    }
}

/// A segment's pages, each saved in its lease (position and counts, from
/// the counts the lease held when claimed) before it is reported; the
/// run's last step is its last page, a lost lease, or a failure.
fn saved_pages<C: Counts>(
    pages: BoxStream<'static, Result<(Option<C>, SegmentPosition)>>,
    counts: C,
    fence: Arc<Fence>,
    store: Store,
    me: Arc<str>,
    clock: super::Clock,
) -> impl Stream<Item = Step<C>> + Send {
    stream::unfold(Some((pages, counts)), move |state| {
        let (fence, store, me, clock) = (
            Arc::clone(&fence),
            store.clone(),
            Arc::clone(&me),
            Arc::clone(&clock),
        );
        async move {
            let (mut pages, mut saved) = state?;
            let segment = fence.segment;
            let step = match pages.next().await? {
                Err(err) => Step::Failed(err),
                Ok((None, _)) => Step::Lost { segment },
                Ok((Some(_), _)) if !fence.holds() => Step::Lost { segment },
                Ok((Some(counts), next)) => {
                    let mut total = saved;
                    total.add(&counts);
                    let fields = total
                        .fields()
                        .into_iter()
                        .map(|(name, value)| (name.to_owned(), value))
                        .collect();
                    match store
                        .checkpoint(segment, fence.lease, &me, &next, &fields, clock())
                        .await
                    {
                        Ok(Kept::Yes) => {
                            saved = total;
                            Step::Page {
                                segment,
                                counts,
                                next,
                            }
                        }
                        Ok(Kept::Lost) => {
                            fence.lose();
                            Step::Lost { segment }
                        }
                        Err(err) => Step::Failed(err),
                    }
                }
            };
            let goes_on = matches!(
                &step,
                Step::Page {
                    next: SegmentPosition::After(_) | SegmentPosition::Start,
                    ..
                }
            );
            Some((step, goes_on.then_some((pages, saved))))
        }
    })
}

/// The owner's heartbeats on `fence`'s lease, a third of a lease duration
/// apart, until one is refused (the lease is another's): then it returns.
/// A heartbeat that keeps failing otherwise lets the fence close by
/// itself, stopping the writes.
async fn heartbeats(store: Store, fence: Arc<Fence>, me: Arc<str>, clock: super::Clock) {
    let period = fence.duration / 3;
    loop {
        pause(&store.client, period).await;
        let sent = Instant::now();
        match store
            .heartbeat(fence.segment, fence.lease, &me, clock())
            .await
        {
            Ok(Kept::Yes) => fence.renewed(sent),
            Ok(Kept::Lost) => {
                fence.lose();
                return;
            }
            Err(err) => tracing::warn!(
                segment = fence.segment,
                error = %err,
                "a heartbeat failed; the next one tries again"
            ),
        }
    }
}

/// `steps` with `beat` running beside them while they last; when `beat`
/// ends (the lease was lost) the steps are dropped and the run reports
/// the loss.
fn with_heartbeat<C: Send + 'static>(
    steps: impl Stream<Item = Step<C>> + Send + 'static,
    beat: impl Future<Output = ()> + Send + 'static,
    segment: u32,
) -> impl Stream<Item = Step<C>> + Send {
    let state = (steps.boxed(), Some(Box::pin(beat)));
    stream::unfold(state, move |(mut steps, beat)| async move {
        let beat = beat?;
        let outcome = match future::select(steps.next(), beat).await {
            Either::Left((step, beat)) => Some((step, beat)),
            Either::Right(((), _)) => None,
        };
        match outcome {
            Some((Some(step), beat)) => Some((step, (steps, Some(beat)))),
            Some((None, _)) => None,
            None => Some((Step::Lost { segment }, (steps, None))),
        }
    })
}

/// Where a worker starts looking for free segments: a hash of its name.
fn spread(worker: &str, segments: u32) -> u32 {
    let hash = worker.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    u32::try_from(hash % u64::from(segments.max(1))).unwrap_or(0)
}

/// Milliseconds since the epoch as a time.
pub(crate) fn from_millis(millis: u64) -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_millis(millis)
}
