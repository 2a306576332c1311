//! A running read, whatever its source: one or more *lanes* (a partition,
//! each shard of a sharded one, a multi-attribute index, each scan
//! segment), each a sequence of requests of one rendered request sent with
//! [`page::send`], and how their items are merged into one order.
//!
//! Items are read into each lane's queue and handed out one at a time:
//! in sort-key order across lanes ([`Order::Sorted`]: a k-way merge that
//! hands out an item only when every lane that may still hold items has
//! one waiting, so each item handed out sorts before everything not yet
//! handed out), or lane after lane ([`Order::Lanes`]: scan segments, which
//! have no order between them; an unbounded read reads the next
//! `concurrency` lanes ahead).
//! Every lane's position is "everything before this handed out", so a
//! cursor taken anywhere resumes right after the last item handed out, and
//! a `limit` counts what the finishing method kept, never what was read.
//!
//! Requests are sent in *rounds* (one to every lane that needs one, at
//! most `concurrency` in flight: [`Run::next`]) or, for a stream of pages
//! as they arrive, kept in flight for up to `concurrency` lanes, each
//! lane's one after the other ([`Run::next_answer`]). Either way a request
//! is made by [`Lane::ask`], sent by [`fetch`] and its answer taken in by
//! [`Lane::apply`]: one path.
//!
//! A request that fails fails the whole read, the lane named (a shard by
//! [`Error::in_shard`](crate::error::Error)): never the other lanes' items
//! alone.

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use futures_util::stream::{FuturesUnordered, StreamExt};

use super::bounded::bounded;
use super::found::{Found, ItemText, attributes_of};
use super::page::{self, Answer, Items, Rendered, Request, Target, Totals};
use crate::batch::BatchRetry;
use crate::cursor::ShardPosition;
use crate::error::{Error, Result};
use crate::item::Item;
use crate::table::TableSchema;

/// How the lanes' items are merged.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Order {
    /// By the string attribute `attribute` (the sort key; `None`: a
    /// partition without one), descending when `reverse`; ties go to the
    /// lower lane (the higher one in reverse).
    Sorted {
        attribute: Option<&'static str>,
        reverse: bool,
    },
    /// Lane after lane, in lane order (scan segments: no order between
    /// them); when the read wants everything, the lanes after the first
    /// unfinished one are read ahead in the same rounds, up to
    /// `concurrency` lanes in all.
    Lanes,
}

/// What a lane is, for its requests and the error of a failed one.
#[derive(Debug, Clone)]
pub(crate) enum Named {
    /// A partition, an index: the error as it is.
    Plain,
    /// Shard `number` of `count`, partition value `partition`.
    Shard {
        number: u16,
        count: u16,
        partition: String,
    },
    /// Scan segment `number` of `count` (the request names it; the error
    /// is the segment's as it is).
    Segment { number: u32, count: u32 },
}

impl Named {
    fn name(&self, err: Error) -> Error {
        match self {
            Named::Plain | Named::Segment { .. } => err,
            Named::Shard {
                number,
                count,
                partition,
            } => err.in_shard(*number, *count, partition),
        }
    }

    /// The scan segment a request names.
    fn segment(&self) -> Option<(u32, u32)> {
        match self {
            Named::Segment { number, count } if *count > 1 => Some((*number, *count)),
            _ => None,
        }
    }
}

/// One lane: its request, where it stands, what it read and has not
/// handed out yet.
pub(crate) struct Lane {
    rendered: Arc<Rendered>,
    named: Named,
    /// `ExclusiveStartKey` of the next request.
    start_key: Option<Item>,
    /// `LastEvaluatedKey` of the last response.
    last_key: Option<Item>,
    /// No request left to send.
    exhausted: bool,
    /// A response left items out (a filter, other types, expired items):
    /// whole pages from now on, not only what is still missing.
    short: bool,
    /// A request of it is in flight ([`Run::next_answer`]).
    busy: bool,
    /// Read and not yet handed out, in the lane's order.
    waiting: VecDeque<Found>,
    /// Everything before it handed out (or hidden): what a cursor holds.
    position: ShardPosition,
    /// The last item handed out was read from these bytes, and the lane
    /// stands right after it: its keys are read out only when a cursor
    /// asks ([`Lane::position`]), not for every item.
    after: Option<ItemText>,
    totals: Totals,
    /// Items counted (`Count`) by `Select=COUNT` requests.
    counted: usize,
}

/// A lane's next request, owned: sent without borrowing the lane.
struct Ask {
    lane: usize,
    rendered: Arc<Rendered>,
    named: Named,
    start: Option<Item>,
    limit: Option<usize>,
}

/// An answered request of lane `lane`, which asked for `asked` items.
struct Fetched {
    lane: usize,
    asked: Option<usize>,
    answer: Answer,
    totals: Totals,
}

/// Sends `ask` (the one way every lane's request is sent).
async fn fetch(
    target: Target<'_>,
    items: Items,
    retry: Option<BatchRetry>,
    ask: Ask,
) -> Result<Fetched> {
    let mut totals = Totals::default();
    let request = Request {
        rendered: &ask.rendered,
        segment: ask.named.segment(),
        start: ask.start.as_ref(),
        limit: ask.limit,
    };
    let answer = page::send(target, request, items, retry.as_ref(), &mut totals)
        .await
        .map_err(|err| ask.named.name(err))?;
    Ok(Fetched {
        lane: ask.lane,
        asked: ask.limit,
        answer,
        totals,
    })
}

impl Lane {
    /// A lane sending `rendered` from `position`; `short` when the server
    /// may leave items out from the start (a filter).
    pub(crate) fn new(
        rendered: Arc<Rendered>,
        named: Named,
        position: ShardPosition,
        short: bool,
    ) -> Self {
        Lane {
            start_key: match &position {
                ShardPosition::After(key) => Some(key.clone()),
                ShardPosition::Start | ShardPosition::Done => None,
            },
            exhausted: position == ShardPosition::Done,
            rendered,
            named,
            last_key: None,
            short,
            busy: false,
            waiting: VecDeque::new(),
            position,
            after: None,
            totals: Totals::default(),
            counted: 0,
        }
    }

    fn needs_request(&self) -> bool {
        self.waiting.is_empty() && !self.exhausted && !self.busy
    }

    /// Read to its end and everything handed out.
    fn finished(&self) -> bool {
        self.waiting.is_empty() && self.exhausted
    }

    /// The lane's next request (it is lane `lane`), for at most `wanted`
    /// items (`None`, or a lane that came back short: `page_size` or a
    /// whole page).
    fn ask(&mut self, lane: usize, page_size: Option<usize>, wanted: Option<usize>) -> Ask {
        let wanted = if self.short { None } else { wanted };
        Ask {
            lane,
            rendered: Arc::clone(&self.rendered),
            named: self.named.clone(),
            start: self.start_key.take(),
            limit: [page_size, wanted].into_iter().flatten().min(),
        }
    }

    /// Takes in the answer to its request; returns the items DynamoDB
    /// read for it.
    fn apply(&mut self, fetched: Fetched) -> usize {
        let Fetched {
            asked,
            answer,
            totals,
            ..
        } = fetched;
        self.busy = false;
        self.totals.add(&totals);
        self.counted += answer.counted;
        // Fewer items than asked while the lane has more: the server (or
        // the time-to-live hiding) left some out.
        if answer.last_key.is_some() && asked.is_some_and(|asked| answer.items.len() < asked) {
            self.short = true;
        }
        self.exhausted = answer.last_key.is_none();
        self.last_key = answer.last_key;
        self.start_key = self.last_key.clone();
        self.waiting.extend(answer.items);
        if self.waiting.is_empty() {
            // Nothing to hand out: the position moves past what was read.
            self.position = self.read_to();
            self.after = None;
        }
        answer.scanned
    }

    /// Hands out the first waiting item; the position moves after it
    /// (after what the response also read, once nothing waits).
    fn take(&mut self, keys: &[&str]) -> Option<Found> {
        let item = self.waiting.pop_front()?;
        self.after = None;
        self.position = if self.waiting.is_empty() {
            self.read_to()
        } else {
            match &item {
                Found::Item(item) => ShardPosition::After(
                    keys.iter()
                        .filter_map(|name| Some(((*name).to_owned(), item.get(*name)?.clone())))
                        .collect(),
                ),
                Found::Bytes(found) => {
                    self.after = Some(found.text().clone());
                    ShardPosition::Start
                }
            }
        };
        Some(item)
    }

    /// Where the lane stands (its keys `keys`).
    fn position(&self, keys: &[&str]) -> ShardPosition {
        match &self.after {
            Some(text) => ShardPosition::After(attributes_of(text, keys)),
            None => self.position.clone(),
        }
    }

    /// Everything the requests so far read.
    fn read_to(&self) -> ShardPosition {
        match (&self.last_key, self.exhausted) {
            (Some(key), false) => ShardPosition::After(key.clone()),
            _ => ShardPosition::Done,
        }
    }
}

/// A request in flight of a run that hands out pages as they arrive.
type InFlight<'db> = Pin<Box<dyn Future<Output = Result<Fetched>> + Send + 'db>>;

/// A read on its way, from its first request to its last.
pub(crate) struct Run<'db> {
    target: Target<'db>,
    items: Items,
    retry: Option<BatchRetry>,
    lanes: Vec<Lane>,
    order: Order,
    /// The key attributes a lane's position holds (`LastEvaluatedKey`'s).
    keys: Vec<&'static str>,
    concurrency: usize,
    page_size: Option<usize>,
    /// The merged order's last item handed out: its sort key and lane.
    head: Option<(String, usize)>,
    /// Resumed from a merged position: items that sort before it were
    /// written below it after the cursor was made, and are not handed out.
    floor: Option<(String, usize)>,
    /// Nothing to send at all (a limit of 0, a range that holds nothing).
    empty: bool,
    /// Items the limit still allows (kept by the finishing method, not
    /// read).
    pub(crate) left: Option<usize>,
    /// Pages as they arrive ([`next_answer`](Self::next_answer)): the
    /// requests in flight, the lanes to ask again (their items all handed
    /// out) and the first lane not asked yet.
    in_flight: FuturesUnordered<InFlight<'db>>,
    again: VecDeque<usize>,
    unasked: usize,
    /// The lane of the last answer handed on.
    answered: Option<usize>,
}

/// What a run is built from, besides its lanes.
pub(crate) struct Setup<'db> {
    pub(crate) target: Target<'db>,
    pub(crate) schema: TableSchema,
    pub(crate) include_expired: bool,
    /// The index whose keys stored-key verification keeps (`found_by`).
    pub(crate) found_by: Option<&'static str>,
    /// Items exactly as DynamoDB returns them (the survey's): no item
    /// hidden by its time to live, no index key set aside.
    pub(crate) raw: bool,
    /// Items decoded from the response's bytes (the collection reads
    /// them: `Collection::READS_BYTES`).
    pub(crate) bytes: bool,
    /// Throttled and transiently failed requests sent again within this
    /// budget (beyond the SDK's own retries).
    pub(crate) retry: Option<BatchRetry>,
    pub(crate) order: Order,
    pub(crate) keys: Vec<&'static str>,
    pub(crate) concurrency: usize,
    pub(crate) page_size: Option<usize>,
    pub(crate) floor: Option<(String, usize)>,
    pub(crate) empty: bool,
    pub(crate) limit: Option<usize>,
}

impl<'db> Run<'db> {
    pub(crate) fn new(setup: Setup<'db>, lanes: Vec<Lane>) -> Self {
        let items = if setup.raw {
            Items::Raw
        } else {
            Items::Typed {
                schema: setup.schema,
                include_expired: setup.include_expired,
                found_by: setup.found_by,
                bytes: setup.bytes,
                merged_by: match setup.order {
                    Order::Sorted { attribute, .. } if lanes.len() > 1 => attribute,
                    _ => None,
                },
            }
        };
        Run {
            target: setup.target,
            items,
            retry: setup.retry,
            lanes,
            order: setup.order,
            keys: setup.keys,
            concurrency: setup.concurrency.max(1),
            page_size: setup.page_size,
            head: None,
            floor: setup.floor,
            empty: setup.empty || setup.limit == Some(0),
            left: setup.limit,
            in_flight: FuturesUnordered::new(),
            again: VecDeque::new(),
            unasked: 0,
            answered: None,
        }
    }

    /// Nothing more to hand out: the limit reached, or the read complete.
    pub(crate) fn finished(&self) -> bool {
        self.left == Some(0) || self.complete()
    }

    /// Nothing left to send and nothing left to hand out.
    pub(crate) fn complete(&self) -> bool {
        self.empty || self.lanes.iter().all(Lane::finished)
    }

    /// Whether a request is needed before anything can be handed out.
    fn must_read(&self) -> bool {
        match self.order {
            Order::Sorted { .. } => self.lanes.iter().any(Lane::needs_request),
            // Lane after lane: the first one not finished must have an
            // item waiting.
            Order::Lanes => self
                .lanes
                .iter()
                .find(|lane| !lane.finished())
                .is_some_and(Lane::needs_request),
        }
    }

    /// The lanes a round reads: all of them when merged in sort order.
    /// Lane after lane, the first unfinished one — and, when the read
    /// wants everything (`wanted` is `None`), those after it up to
    /// `concurrency` lanes, read ahead; a read that wants `n` more items
    /// may find them all in the first lane, so it reads no other.
    fn round_lanes(&self, wanted: Option<usize>) -> std::ops::Range<usize> {
        match self.order {
            Order::Sorted { .. } => 0..self.lanes.len(),
            Order::Lanes => {
                let first = self
                    .lanes
                    .iter()
                    .position(|lane| !lane.finished())
                    .unwrap_or(self.lanes.len());
                let ahead = if wanted.is_some() {
                    1
                } else {
                    self.concurrency
                };
                first..(first + ahead).min(self.lanes.len())
            }
        }
    }

    /// Sends `asks`, `concurrency` at a time, and takes their answers in;
    /// the first failure fails them all.
    async fn send_all(&mut self, asks: Vec<Ask>) -> Result<()> {
        let (target, items, retry) = (self.target, self.items, self.retry);
        // A loop rather than an iterator adapter: closures held across an
        // await trip rustc's check that the future is `Send` (rust#64552).
        let mut requests = Vec::with_capacity(asks.len());
        for ask in asks {
            requests.push(fetch(target, items, retry, ask));
        }
        for fetched in bounded(requests, self.concurrency).await? {
            let lane = fetched.lane;
            self.lanes[lane].apply(fetched);
        }
        Ok(())
    }

    /// One request to every lane of the round that has nothing waiting and
    /// more to read, each for at most `wanted` items.
    pub(crate) async fn read_round(&mut self, wanted: Option<usize>) -> Result<()> {
        let page_size = self.page_size;
        let mut asks = Vec::new();
        for at in self.round_lanes(wanted) {
            let lane = &mut self.lanes[at];
            if lane.needs_request() {
                asks.push(lane.ask(at, page_size, wanted));
            }
        }
        self.send_all(asks).await
    }

    /// The next item of the merged order, reading as needed (each request
    /// for at most `wanted` items), or `None` once the read is complete.
    /// With `rounds_left`, at most that many rounds of requests are sent:
    /// `None` then also means "those rounds are used up".
    pub(crate) async fn next(
        &mut self,
        wanted: Option<usize>,
        rounds_left: &mut Option<usize>,
    ) -> Result<Option<Found>> {
        if self.empty {
            return Ok(None);
        }
        loop {
            if self.must_read() {
                match rounds_left {
                    Some(0) => return Ok(None),
                    Some(n) => *n -= 1,
                    None => {}
                }
                self.read_round(wanted).await?;
                continue;
            }
            let Some(lane) = self.next_lane() else {
                return Ok(None);
            };
            let Some(item) = self.take_from(lane) else {
                return Ok(None);
            };
            if let Order::Sorted { attribute, reverse } = self.order
                && self.lanes.len() > 1
            {
                let key = item.sort_value(attribute).to_owned();
                if let Some(floor) = &self.floor
                    && before(&(key.as_str(), lane), floor, reverse)
                {
                    // Written below the cursor's merged position after it
                    // was made: a single partition would not return it
                    // either.
                    continue;
                }
                self.head = Some((key, lane));
            }
            return Ok(Some(item));
        }
    }

    /// Hands out the next waiting item of lane `lane`, if any.
    pub(crate) fn take_from(&mut self, lane: usize) -> Option<Found> {
        let keys = std::mem::take(&mut self.keys);
        let item = self.lanes[lane].take(&keys);
        self.keys = keys;
        item
    }

    /// The next answer of any lane, its items waiting to be handed out
    /// ([`take_from`](Self::take_from)): requests are kept in flight for
    /// up to `concurrency` lanes, lanes asked in order, each lane's
    /// requests one after the other (its next is sent once the items of
    /// the last were handed out, ahead of lanes not started yet). Returns
    /// the lane and the items DynamoDB read for the answer, or `None` once
    /// nothing is left to ask. A failure ends the run: the requests still
    /// in flight are dropped.
    pub(crate) async fn next_answer(&mut self) -> Result<Option<(usize, usize)>> {
        if self.empty {
            return Ok(None);
        }
        if let Some(lane) = self.answered.take()
            && self.lanes[lane].needs_request()
        {
            self.again.push_back(lane);
        }
        let page_size = self.page_size;
        while self.in_flight.len() < self.concurrency {
            let at = match self.again.pop_front() {
                Some(at) => at,
                None if self.unasked < self.lanes.len() => {
                    self.unasked += 1;
                    self.unasked - 1
                }
                None => break,
            };
            let lane = &mut self.lanes[at];
            if !lane.needs_request() {
                continue;
            }
            lane.busy = true;
            let ask = lane.ask(at, page_size, None);
            let (target, items, retry) = (self.target, self.items, self.retry);
            self.in_flight
                .push(Box::pin(fetch(target, items, retry, ask)));
        }
        let Some(fetched) = self.in_flight.next().await else {
            return Ok(None);
        };
        match fetched {
            Ok(fetched) => {
                let lane = fetched.lane;
                let scanned = self.lanes[lane].apply(fetched);
                self.answered = Some(lane);
                Ok(Some((lane, scanned)))
            }
            Err(err) => {
                self.in_flight = FuturesUnordered::new();
                self.again.clear();
                self.unasked = self.lanes.len();
                self.empty = true;
                Err(err)
            }
        }
    }

    /// The lane whose first waiting item comes next.
    fn next_lane(&self) -> Option<usize> {
        match self.order {
            Order::Lanes => self
                .lanes
                .iter()
                .position(|lane| !lane.finished())
                .filter(|at| !self.lanes[*at].waiting.is_empty()),
            Order::Sorted { attribute, reverse } => self
                .lanes
                .iter()
                .enumerate()
                .filter_map(|(at, lane)| Some((lane.waiting.front()?.sort_value(attribute), at)))
                .min_by(|a, b| {
                    let order = a.0.cmp(b.0);
                    let order = if reverse { order.reverse() } else { order };
                    order.then(if reverse {
                        b.1.cmp(&a.1)
                    } else {
                        a.1.cmp(&b.1)
                    })
                })
                .map(|(_, at)| at),
        }
    }

    /// From now on whole pages (or `page_size` items) per request: items
    /// handed out were not all kept.
    pub(crate) fn whole_pages(&mut self) {
        for lane in &mut self.lanes {
            lane.short = true;
        }
    }

    /// Counts what every lane selects (`Select=COUNT` requests), up to
    /// `limit` in all.
    pub(crate) async fn count(&mut self, limit: Option<usize>) -> Result<usize> {
        while !self.empty && self.lanes.iter().any(|lane| !lane.exhausted) {
            if limit.is_some_and(|limit| self.counted() >= limit) {
                break;
            }
            let page_size = self.page_size;
            let mut asks = Vec::new();
            for (at, lane) in self.lanes.iter_mut().enumerate() {
                if !lane.exhausted {
                    asks.push(lane.ask(at, page_size, None));
                }
            }
            self.send_all(asks).await?;
        }
        let counted = self.counted();
        Ok(limit.map_or(counted, |limit| counted.min(limit)))
    }

    fn counted(&self) -> usize {
        self.lanes.iter().map(|lane| lane.counted).sum()
    }

    /// Every lane's position, or `None` once the read is complete.
    pub(crate) fn positions(&self) -> Option<Vec<ShardPosition>> {
        if self.complete() {
            return None;
        }
        Some(
            self.lanes
                .iter()
                .map(|lane| lane.position(&self.keys))
                .collect(),
        )
    }

    /// Lane `lane`'s position: `None` once it is done.
    pub(crate) fn lane_position(&self, lane: usize) -> Option<ShardPosition> {
        let lane = &self.lanes[lane];
        (!lane.finished()).then(|| lane.position(&self.keys))
    }

    /// The merged order's position: the last item handed out (or, before
    /// any, the position this run resumed from).
    pub(crate) fn merged(&self) -> Option<(&str, usize)> {
        self.head
            .as_ref()
            .or(self.floor.as_ref())
            .map(|(key, lane)| (key.as_str(), *lane))
    }

    /// Every request's cost so far.
    pub(crate) fn totals(&self) -> Totals {
        let mut sum = Totals::default();
        for lane in &self.lanes {
            sum.add(&lane.totals);
        }
        sum
    }
}

/// Whether `(key, lane)` comes strictly before `floor` in the merged
/// order.
fn before(at: &(&str, usize), floor: &(String, usize), reverse: bool) -> bool {
    let order = at.0.cmp(floor.0.as_str());
    let order = if reverse { order.reverse() } else { order };
    let ties = if reverse {
        floor.1.cmp(&at.1)
    } else {
        at.1.cmp(&floor.1)
    };
    order.then(ties).is_lt()
}
