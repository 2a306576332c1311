//! A running query, whatever its source: one partition (`Progress`, one
//! request at a time) or a sharded one (`FanOut`, one request per shard
//! and a k-way merge). The finishing methods (`collect`, `page`, `pages`,
//! `first`, `one`, `count`) are written once, over `Run`: a source only
//! says which requests to send and how to merge their items.

use super::fanout::FanOut;
use super::{Progress, Query};
use crate::cursor::Cursor;
use crate::error::Result;
use crate::item::Item;
use crate::read::engine::Totals;
use crate::read::filter::Reading;
use crate::table::{QueryIndex, Table};

/// A query on its way, from its first request to its last.
pub(super) enum Run<'db, I: QueryIndex> {
    /// A partition stored as one.
    One(Progress),
    /// A partition spread over shards.
    Shards(FanOut<'db, I>),
}

/// What the next step of a read asks for.
#[derive(Debug, Clone, Copy)]
pub(super) enum Ask {
    /// Every item up to the limit (`collect`).
    All,
    /// One page: one request, over shards one request per shard (or up to
    /// `page_size` items of the merged order).
    Page,
    /// At most this many more items (`first`, `one`): without a filter,
    /// no request reads more than that until a response leaves items out.
    Leading(usize),
}

impl<'db, I: QueryIndex> Run<'db, I> {
    /// Checks everything that can be checked before sending and resumes
    /// from the query's cursor, for a collection of `read` (`None` when
    /// only counting).
    pub(super) fn start(query: &mut Query<'db, I>, read: Option<Reading>) -> Result<Self> {
        Ok(if query.partition.is_sharded() {
            Run::Shards(FanOut::start(query, read)?)
        } else {
            Run::One(query.start(read)?)
        })
    }

    /// The next items of the read, in its order, or `None` once it is
    /// complete.
    pub(super) async fn next(
        &mut self,
        query: &Query<'_, I>,
        read: Option<Reading>,
        ask: Ask,
    ) -> Result<Option<Vec<Item>>> {
        match self {
            Run::One(progress) => {
                if let Ask::Leading(most) = ask
                    && !query.filters.drop_items(&I::Table::SCHEMA, query.unknown)
                {
                    progress.cap = Some(most);
                }
                progress.next_request(query, read).await
            }
            Run::Shards(fan_out) => {
                if fan_out.done {
                    return Ok(None);
                }
                let page_size = query.page_size;
                let items = match ask {
                    Ask::All => fan_out.next_items(None, false).await?,
                    Ask::Page => fan_out.next_items(page_size, page_size.is_none()).await?,
                    Ask::Leading(most) => fan_out.next_items(Some(most), false).await?,
                };
                Ok(Some(items))
            }
        }
    }

    /// Counts what the read selects (`Select=COUNT`), up to the limit.
    pub(super) async fn count(&mut self, query: &Query<'_, I>) -> Result<usize> {
        match self {
            Run::One(progress) => {
                progress.select_count = true;
                while progress.next_request(query, None).await?.is_some() {}
                Ok(progress.counted)
            }
            Run::Shards(fan_out) => fan_out.count(query.limit).await,
        }
    }

    /// From now on whole pages (or `page_size` items) per request, not
    /// only what is still missing: the read's last items were not all
    /// used.
    pub(super) fn whole_pages(&mut self) {
        match self {
            Run::One(progress) => progress.short = true,
            Run::Shards(fan_out) => fan_out.whole_pages(),
        }
    }

    /// No request left to send and nothing left to hand out.
    pub(super) fn done(&self) -> bool {
        match self {
            Run::One(progress) => progress.done,
            Run::Shards(fan_out) => fan_out.done,
        }
    }

    /// Where to resume after what was handed out: sealed when the handle
    /// seals its cursors; `None` once the read is complete.
    pub(super) fn cursor(&self, query: &Query<'_, I>) -> Result<Option<Cursor>> {
        match self {
            Run::One(progress) => progress.cursor(query),
            Run::Shards(fan_out) => fan_out.cursor(query),
        }
    }

    /// Every request's cost so far.
    pub(super) fn totals(&self) -> Totals {
        match self {
            Run::One(progress) => progress.totals,
            Run::Shards(fan_out) => fan_out.totals(),
        }
    }
}
