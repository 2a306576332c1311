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
//! have no order between them). Every lane's position is "everything
//! before this handed out", so a cursor taken anywhere resumes right after
//! the last item handed out, and a `limit` counts what the finishing
//! method kept, never what was read.
//!
//! A request that fails fails the whole read, the lane named (a shard by
//! [`Error::in_shard`](crate::error::Error)): never the other lanes' items
//! alone.

use std::collections::VecDeque;

use aws_sdk_dynamodb::types::AttributeValue;

use super::bounded::bounded;
use super::page::{self, Items, Rendered, Target, Totals};
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
    /// them); the lanes after the first unfinished one are read ahead in
    /// the same rounds, up to the concurrency.
    Lanes,
}

/// What a lane is, for the error of a failed request.
#[derive(Debug, Clone)]
pub(crate) enum Named {
    /// A partition, an index, a scan segment: the error as it is.
    Plain,
    /// Shard `number` of `count`, partition value `partition`.
    Shard {
        number: u16,
        count: u16,
        partition: String,
    },
}

/// One lane: its request, where it stands, what it read and has not
/// handed out yet.
pub(crate) struct Lane {
    rendered: Rendered,
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
    /// Read and not yet handed out, in the lane's order.
    waiting: VecDeque<Item>,
    /// Everything before it handed out (or hidden): what a cursor holds.
    position: ShardPosition,
    totals: Totals,
    /// Items counted (`Count`) by `Select=COUNT` requests.
    counted: usize,
}

impl Lane {
    /// A lane sending `rendered` from `position`; `short` when the server
    /// may leave items out from the start (a filter).
    pub(crate) fn new(
        rendered: Rendered,
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
            waiting: VecDeque::new(),
            position,
            totals: Totals::default(),
            counted: 0,
        }
    }

    fn needs_request(&self) -> bool {
        self.waiting.is_empty() && !self.exhausted
    }

    /// Read to its end and everything handed out.
    fn finished(&self) -> bool {
        self.waiting.is_empty() && self.exhausted
    }

    /// The lane's next request, for at most `wanted` items (`None`, or a
    /// lane that came back short: `page_size` or a whole page).
    async fn request(
        &mut self,
        target: Target<'_>,
        items: Items<'_>,
        page_size: Option<usize>,
        wanted: Option<usize>,
    ) -> Result<()> {
        let wanted = if self.short { None } else { wanted };
        let asked = [page_size, wanted].into_iter().flatten().min();
        let answer = page::send(
            target,
            &self.rendered,
            self.start_key.take(),
            asked,
            items,
            &mut self.totals,
        )
        .await
        .map_err(|err| self.named(err))?;
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
        }
        Ok(())
    }

    fn named(&self, err: Error) -> Error {
        match &self.named {
            Named::Plain => err,
            Named::Shard {
                number,
                count,
                partition,
            } => err.in_shard(*number, *count, partition),
        }
    }

    /// Hands out the first waiting item; the position moves after it
    /// (after what the response also read, once nothing waits).
    fn take(&mut self, keys: &[&str]) -> Option<Item> {
        let item = self.waiting.pop_front()?;
        self.position = if self.waiting.is_empty() {
            self.read_to()
        } else {
            ShardPosition::After(
                keys.iter()
                    .filter_map(|name| Some(((*name).to_owned(), item.get(*name)?.clone())))
                    .collect(),
            )
        };
        Some(item)
    }

    /// Everything the requests so far read.
    fn read_to(&self) -> ShardPosition {
        match (&self.last_key, self.exhausted) {
            (Some(key), false) => ShardPosition::After(key.clone()),
            _ => ShardPosition::Done,
        }
    }
}

/// A read on its way, from its first request to its last.
pub(crate) struct Run<'db> {
    target: Target<'db>,
    schema: TableSchema,
    include_expired: bool,
    /// The index whose keys stored-key verification keeps (`found_by`).
    found_by: Option<&'static str>,
    /// Items as DynamoDB returns them (the survey's).
    raw: bool,
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
}

/// What a run is built from, besides its lanes.
pub(crate) struct Setup<'db> {
    pub(crate) target: Target<'db>,
    pub(crate) schema: TableSchema,
    pub(crate) include_expired: bool,
    pub(crate) found_by: Option<&'static str>,
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
        Run {
            target: setup.target,
            schema: setup.schema,
            include_expired: setup.include_expired,
            found_by: setup.found_by,
            raw: false,
            lanes,
            order: setup.order,
            keys: setup.keys,
            concurrency: setup.concurrency.max(1),
            page_size: setup.page_size,
            head: None,
            floor: setup.floor,
            empty: setup.empty || setup.limit == Some(0),
            left: setup.limit,
        }
    }

    /// The lanes, and how their pages' items are handed on.
    fn lanes_and_items(&mut self) -> (&mut Vec<Lane>, Items<'_>) {
        let items = if self.raw {
            Items::Raw
        } else {
            Items::Typed {
                schema: &self.schema,
                include_expired: self.include_expired,
                found_by: self.found_by,
            }
        };
        (&mut self.lanes, items)
    }

    /// Nothing more to hand out: the limit reached, or the read complete.
    pub(crate) fn finished(&self) -> bool {
        self.left == Some(0) || self.complete()
    }

    /// Nothing left to send and nothing left to hand out.
    pub(crate) fn complete(&self) -> bool {
        self.empty
            || self
                .lanes
                .iter()
                .all(|lane| lane.exhausted && lane.waiting.is_empty())
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

    /// One request to every lane that has nothing waiting and more to
    /// read, `concurrency` at a time, each for at most `wanted` items; the
    /// first failure fails them all.
    pub(crate) async fn read_round(&mut self, wanted: Option<usize>) -> Result<()> {
        let (target, page_size, concurrency) = (self.target, self.page_size, self.concurrency);
        let (lanes, items) = self.lanes_and_items();
        // Loops rather than iterator adapters: closures held across an
        // await trip rustc's check that the future is `Send` (rust#64552).
        let mut requests = Vec::new();
        for lane in lanes {
            if lane.needs_request() {
                requests.push(lane.request(target, items, page_size, wanted));
            }
        }
        bounded(requests, concurrency).await
    }

    /// The next item of the merged order, reading as needed (each request
    /// for at most `wanted` items), or `None` once the read is complete.
    /// With `one_round`, at most one round of requests is sent: `None`
    /// then also means "that round is used up".
    pub(crate) async fn next(
        &mut self,
        wanted: Option<usize>,
        rounds_left: &mut Option<usize>,
    ) -> Result<Option<Item>> {
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
            let keys = std::mem::take(&mut self.keys);
            let item = self.lanes[lane].take(&keys);
            self.keys = keys;
            let Some(item) = item else {
                return Ok(None);
            };
            if let Order::Sorted { attribute, reverse } = self.order
                && self.lanes.len() > 1
            {
                let key = sort_value(&item, attribute).to_owned();
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
                .filter_map(|(at, lane)| Some((sort_value(lane.waiting.front()?, attribute), at)))
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
            let (target, page_size, concurrency) = (self.target, self.page_size, self.concurrency);
            let (lanes, items) = self.lanes_and_items();
            let mut requests = Vec::new();
            for lane in lanes {
                if !lane.exhausted {
                    requests.push(lane.request(target, items, page_size, None));
                }
            }
            bounded(requests, concurrency).await?;
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
                .map(|lane| lane.position.clone())
                .collect(),
        )
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
            let totals = &lane.totals;
            sum.requests += totals.requests;
            sum.items += totals.items;
            sum.scanned += totals.scanned;
            sum.spent.add(totals.spent);
        }
        sum
    }
}

/// The merge attribute's string value (`""` without one).
fn sort_value<'i>(item: &'i Item, attribute: Option<&str>) -> &'i str {
    match attribute.and_then(|name| item.get(name)) {
        Some(AttributeValue::S(value)) => value,
        _ => "",
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
