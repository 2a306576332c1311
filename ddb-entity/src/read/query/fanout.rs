//! A query of a sharded partition: one Query per shard, sent concurrently
//! (at most [`Query::shard_concurrency`] at a time), merged into one
//! sort-key order with a k-way merge, and resumed with one cursor that
//! holds every shard's position.
//!
//! The merge hands out an item only when every shard that may still hold
//! items has one waiting (or is done), so each item handed out sorts before
//! everything not yet handed out: `limit(n)` is the global first n, and a
//! cursor taken anywhere resumes the same order. A shard is asked for more
//! only when its waiting items are used up, never for more than the page
//! or the limit can still take, and never once the limit is reached. Ties
//! between shards (equal sort keys, which an index allows) go to the lower
//! shard, and the other way round in reverse, so the order is total and
//! the same on every run.
//!
//! A request that fails fails the whole read with the shard named
//! ([`Error::shard`](crate::error::Error::shard)): never the other shards' items
//! alone. Each shard's request is the unsharded query's own
//! (`Progress::next_request`): same key condition, projection, expiry
//! filtering and key verification.

use std::collections::VecDeque;

use super::{Progress, Query};
use crate::cursor::{Cursor, ShardPosition};
use crate::entity::SortRange;
use crate::error::Result;
use crate::item::Item;
use crate::read::engine::Totals;
use crate::read::engine::bounded::bounded;
use crate::read::filter::Reading;
use crate::table::QueryIndex;
use aws_sdk_dynamodb::types::AttributeValue;

/// Requests in flight at once for one query read over shards, unless
/// [`Query::shard_concurrency`] says otherwise.
pub(super) const DEFAULT_CONCURRENCY: usize = 16;

impl<I: QueryIndex> Query<'_, I> {
    /// For a partition spread over shards (a template with
    /// `{shard(…) % n}`): at most `requests` shard requests in flight at
    /// once (default 16; at least 1). A 64-shard partition is then read in
    /// waves of `requests`. No effect on a partition stored as one.
    ///
    /// A query of a sharded partition reads every shard — one Query per
    /// shard, concurrently — and merges them into one sort-key order
    /// (reversed with [`reverse`](Self::reverse)), so it reads as one
    /// partition: `limit(n)` returns the global first n, a page holds the
    /// next items of the merged order (up to [`page_size`](Self::page_size),
    /// filled from more requests if need be; without a page size, the
    /// items one request per shard yields), and its cursor resumes every
    /// shard. Each shard is asked for no more than the page and the limit
    /// can still take, so `limit(n)` over `s` shards reads at most `s × n`
    /// items, in one request per shard. If any shard's request fails, the
    /// read fails ([`Error::shard`](crate::error::Error::shard) names it).
    /// [`count`](Self::count), [`first`](Self::first) and
    /// [`one`](Self::one) read every shard too, and a
    /// [`filter`](Self::filter) applies in each; a `limit` then counts the
    /// merged items returned, not the items read.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, KeyPart, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// #[derive(KeyPart, Serialize, Deserialize, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
    /// enum Status { Open, Shipped }
    ///
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "ORDER#{order_id}", sk = "ORDER")]
    /// #[entity(index = Gsi1, pk = "STATUS#{status}#{shard(order_id) % 8}", sk = "{placed}#{order_id}")]
    /// struct Order { order_id: u64, status: Status, placed: u32 }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// for order_id in 1..=20 {
    ///     db.put(&Order { order_id, status: Status::Open, placed: 100 + order_id as u32 }).await?;
    /// }
    /// // The 5 newest open orders, from 8 partitions read as one.
    /// let newest: Vec<Order> = db
    ///     .query(Order::gsi1_partition(Status::Open)?)
    ///     .reverse(true)
    ///     .limit(5)
    ///     .shard_concurrency(4)
    ///     .all()
    ///     .await?;
    /// assert_eq!(newest.iter().map(|o| o.order_id).collect::<Vec<_>>(), [20, 19, 18, 17, 16]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn shard_concurrency(mut self, requests: usize) -> Self {
        self.shard_concurrency = Some(requests.max(1));
        self
    }
}

/// One shard's query and where it stands.
struct Shard<'db, I: QueryIndex> {
    number: u16,
    /// The unsharded query of this shard's partition.
    query: Query<'db, I>,
    progress: Progress,
    /// Read and not yet handed out, in the shard's order.
    waiting: VecDeque<Item>,
    /// Everything before it handed out (or hidden): what the cursor holds.
    position: ShardPosition,
    /// No request left to send.
    exhausted: bool,
}

/// A running query of a sharded partition.
pub(super) struct FanOut<'db, I: QueryIndex> {
    shards: Vec<Shard<'db, I>>,
    condition: Option<SortRange<()>>,
    /// The filter's canonical text, when cursors are sealed.
    filter: Option<Vec<u8>>,
    /// What the read returns (`None` when only counting).
    read: Option<Reading>,
    /// What the limit still allows.
    remaining: Option<usize>,
    concurrency: usize,
    /// The key attributes a shard's position holds (`LastEvaluatedKey`'s).
    keys: Vec<&'static str>,
    pub(super) done: bool,
}

impl<'db, I: QueryIndex> FanOut<'db, I> {
    /// Checks everything that can be checked before sending, as
    /// `Query::start` does, and resumes every shard from the cursor.
    pub(super) fn start(query: &mut Query<'db, I>, read: Option<Reading>) -> Result<Self> {
        let spec = query
            .partition
            .shards()
            .expect("only a sharded partition is read over shards");
        let filter = query.filter_text(read)?;
        let (condition, nothing) = query.take_condition()?;
        let positions = match &query.cursor {
            None => vec![ShardPosition::Start; usize::from(spec.count())],
            Some(cursor) => cursor.resume_shards(
                &query.scope(condition.as_ref(), filter.as_deref()),
                query.db.cursor_seal(),
                query.db.now(),
            )?,
        };
        let shards = (0..spec.count())
            .zip(positions)
            .map(|(number, position)| {
                let partition = query
                    .partition
                    .shard(number)
                    .expect("every shard below the count");
                let start_key = match &position {
                    ShardPosition::After(key) => Some(key.clone()),
                    ShardPosition::Start | ShardPosition::Done => None,
                };
                Shard {
                    number,
                    exhausted: position == ShardPosition::Done,
                    position,
                    waiting: VecDeque::new(),
                    // Each request's limit is set as it is sent.
                    progress: Progress::new(
                        condition.clone(),
                        filter.clone(),
                        start_key,
                        None,
                        false,
                    ),
                    query: Query {
                        db: query.db,
                        partition,
                        condition: None,
                        reverse: query.reverse,
                        limit: None,
                        page_size: query.page_size,
                        consistent: query.consistent,
                        unknown: query.unknown,
                        cursor: None,
                        include_expired: query.include_expired,
                        projection: query.projection.clone(),
                        filters: query.filters.clone(),
                        shard_concurrency: None,
                    },
                }
            })
            .collect();
        Ok(FanOut {
            shards,
            remaining: query.limit,
            concurrency: query.shard_concurrency.unwrap_or(DEFAULT_CONCURRENCY),
            keys: query.scope(None, None).key_attributes(),
            done: query.limit == Some(0) || nothing,
            condition,
            filter,
            read,
        })
    }

    /// The next items of the merged order: at most `page` (and what the
    /// limit allows), and with `one_round` from at most one request per
    /// shard. Empty once the query is done.
    pub(super) async fn next_items(
        &mut self,
        page: Option<usize>,
        one_round: bool,
    ) -> Result<Vec<Item>> {
        let mut out = Vec::new();
        let mut rounds = 0;
        while !self.done {
            let wanted = [page.map(|page| page - out.len()), self.remaining]
                .into_iter()
                .flatten()
                .min();
            if wanted == Some(0) {
                break;
            }
            if self.shards.iter().any(Shard::needs_request) {
                if one_round && rounds > 0 {
                    break;
                }
                self.request(wanted).await?;
                rounds += 1;
                continue;
            }
            match self.take_next() {
                Some(item) => {
                    out.push(item);
                    if let Some(left) = &mut self.remaining {
                        *left -= 1;
                    }
                }
                None => self.done = true,
            }
        }
        // Done at the limit, or once every shard is read and handed out
        // (a full page can end exactly there: no empty page after it).
        if self.remaining == Some(0)
            || self
                .shards
                .iter()
                .all(|shard| shard.waiting.is_empty() && shard.exhausted)
        {
            self.done = true;
        }
        Ok(out)
    }

    /// One request to every shard that has nothing waiting and more to
    /// read, `concurrency` at a time, each for at most `wanted` items; the
    /// first failure fails them all.
    async fn request(&mut self, wanted: Option<usize>) -> Result<()> {
        let count = u16::try_from(self.shards.len()).expect("at most 1000 shards");
        // Loops rather than iterator adapters: closures held across an
        // await trip rustc's check that the future is `Send` (rust#64552).
        let mut queue = Vec::new();
        for shard in &mut self.shards {
            if shard.needs_request() {
                queue.push(shard);
            }
        }
        let read = self.read;
        let mut requests = Vec::with_capacity(queue.len());
        for shard in queue {
            requests.push(shard.request(wanted, count, read));
        }
        bounded(requests, self.concurrency).await
    }

    /// The least waiting item (the greatest in reverse), handed out.
    fn take_next(&mut self) -> Option<Item> {
        let reverse = self.shards.first()?.query.reverse;
        let sort_key = I::KEYS.sort_key;
        fn head<'s, I: QueryIndex>(
            shard: &'s Shard<'_, I>,
            sort_key: Option<&str>,
        ) -> Option<(&'s [u8], u16)> {
            let item = shard.waiting.front()?;
            let key = sort_key
                .and_then(|name| match item.get(name) {
                    Some(AttributeValue::S(value)) => Some(value.as_bytes()),
                    _ => None,
                })
                .unwrap_or_default();
            Some((key, shard.number))
        }
        let next = self
            .shards
            .iter()
            .filter_map(|shard| Some((head(shard, sort_key)?, shard.number)))
            .min_by(|(a, _), (b, _)| {
                let order = a.cmp(b);
                if reverse { order.reverse() } else { order }
            })
            .map(|(_, number)| usize::from(number))?;
        self.shards[next].take(&self.keys)
    }

    /// Every shard's position: `None` once every shard is read.
    fn positions(&self) -> Option<Vec<ShardPosition>> {
        let positions: Vec<ShardPosition> = self
            .shards
            .iter()
            .map(|shard| shard.position.clone())
            .collect();
        (!positions.iter().all(|p| *p == ShardPosition::Done)).then_some(positions)
    }

    /// Where to resume after what was handed out: sealed when the handle
    /// seals its cursors; `None` once every shard is read.
    pub(super) fn cursor(&self, query: &Query<'_, I>) -> Result<Option<Cursor>> {
        self.positions()
            .map(|positions| {
                let scope = query.scope(self.condition.as_ref(), self.filter.as_deref());
                Cursor::at_shards(&scope, &positions, query.db.cursor_seal(), query.db.now())
            })
            .transpose()
    }

    /// Every shard's next requests for whole pages (or `page_size`
    /// items), not only what is still missing.
    pub(super) fn whole_pages(&mut self) {
        for shard in &mut self.shards {
            shard.progress.short = true;
        }
    }

    /// Every shard's requests so far, as one query's.
    pub(super) fn totals(&self) -> Totals {
        let mut sum = Totals::default();
        for shard in &self.shards {
            let totals = &shard.progress.totals;
            sum.requests += totals.requests;
            sum.items += totals.items;
            sum.scanned += totals.scanned;
            sum.spent.add(totals.spent);
        }
        sum
    }

    /// Every shard counted (`Select=COUNT`, concurrently as a read),
    /// summed. With a limit, each shard counts up to it and the sum is cut
    /// to it.
    pub(super) async fn count(&mut self, limit: Option<usize>) -> Result<usize> {
        if !self.done {
            let count = u16::try_from(self.shards.len()).expect("at most 1000 shards");
            let mut queue = Vec::new();
            for shard in &mut self.shards {
                shard.progress.select_count = true;
                queue.push(shard);
            }
            let mut counts = Vec::with_capacity(queue.len());
            for shard in queue {
                counts.push(shard.count(limit, count));
            }
            bounded(counts, self.concurrency).await?;
        }
        let counted = self.shards.iter().map(|shard| shard.progress.counted).sum();
        Ok(limit.map_or(counted, |limit| usize::min(counted, limit)))
    }
}

impl<I: QueryIndex> Shard<'_, I> {
    fn needs_request(&self) -> bool {
        self.waiting.is_empty() && !self.exhausted
    }

    /// The shard's next request, for at most `wanted` items.
    async fn request(
        &mut self,
        wanted: Option<usize>,
        count: u16,
        read: Option<Reading>,
    ) -> Result<()> {
        // Each request of the shard stands alone: its limit, then whether
        // the shard has more (DynamoDB's LastEvaluatedKey).
        // Once a response of the shard left items out (a filter, expired
        // items), whole pages: asking each shard only for what is still
        // missing would read about one item per request.
        self.progress.remaining = if self.progress.short { None } else { wanted };
        self.progress.done = false;
        let items = self
            .progress
            .next_request(&self.query, read)
            .await
            .map_err(|err| err.in_shard(self.number, count, self.query.partition.as_str()))?
            .unwrap_or_default();
        self.exhausted = self.progress.last_key.is_none();
        self.waiting.extend(items);
        if self.waiting.is_empty() {
            // Nothing to hand out (or only expired items): the position
            // moves past what was read.
            self.position = self.read_to();
        }
        Ok(())
    }

    /// Counts the shard's items, up to `limit`, request after request.
    async fn count(&mut self, limit: Option<usize>, count: u16) -> Result<()> {
        self.progress.remaining = limit;
        self.progress.done = limit == Some(0);
        while self
            .progress
            .next_request(&self.query, None)
            .await
            .map_err(|err| err.in_shard(self.number, count, self.query.partition.as_str()))?
            .is_some()
        {}
        Ok(())
    }

    /// Hands out the first waiting item.
    fn take(&mut self, keys: &[&str]) -> Option<Item> {
        let item = self.waiting.pop_front()?;
        self.position = if self.waiting.is_empty() {
            // Past expired items the response also read.
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
        match (&self.progress.last_key, self.exhausted) {
            (Some(key), false) => ShardPosition::After(key.clone()),
            _ => ShardPosition::Done,
        }
    }
}
