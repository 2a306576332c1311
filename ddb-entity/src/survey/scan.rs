//! The survey's raw parallel Scan: every item of the table as DynamoDB
//! returns it, in `segments` parallel segments of which at most
//! `concurrency` are read at once — on the read engine
//! ([`Scan::raw_pages`](crate::read::Scan): metered, counted, throttles
//! retried within the default [`BatchRetry`] budget), without typing, time
//! to live or key verification, because the survey must see items no
//! entity decodes.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use futures_util::stream::TryStreamExt;

use crate::batch::BatchRetry;
use crate::db::Db;
use crate::error::Result;
use crate::item::Item;
use crate::table::Table;

/// How a raw scan is split and bounded.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Plan {
    pub(crate) segments: u32,
    pub(crate) concurrency: usize,
    pub(crate) page_size: Option<i32>,
    /// Stop reading new pages once this many items were read.
    pub(crate) max_items: Option<u64>,
}

/// Reads every segment of `plan`, handing each page's items to
/// `on_page(segment, items)`, which folds them into the segment's `S`;
/// returns the states of all segments, and whether `max_items` stopped
/// some segment before its end. A failed request fails the scan.
pub(crate) async fn scan<T: Table, S: Default + Send>(
    db: &Db<T>,
    plan: Plan,
    scanned: Arc<AtomicU64>,
    on_page: &(dyn Fn(&mut S, Vec<Item>) + Send + Sync),
) -> Result<(Vec<S>, bool)> {
    let segments = plan.segments.max(1);
    // A survey is a long read: throttles are waited out within the batch
    // engine's default budget, as the jobs' scans are.
    let mut scan = db
        .scan()
        .segments(segments)
        .concurrency(plan.concurrency.max(1))
        .retry(BatchRetry::default());
    if let Some(page_size) = plan.page_size {
        scan = scan.page_size(usize::try_from(page_size.max(1)).unwrap_or(usize::MAX));
    }
    let mut states: Vec<S> = (0..segments).map(|_| S::default()).collect();
    let mut done = 0;
    let mut pages = Box::pin(scan.raw_pages());
    while let Some((segment, items, last)) = pages.try_next().await? {
        let read = scanned.fetch_add(items.len() as u64, Ordering::Relaxed) + items.len() as u64;
        if let Some(state) = usize::try_from(segment)
            .ok()
            .and_then(|s| states.get_mut(s))
        {
            on_page(state, items);
        }
        if last {
            done += 1;
        }
        if plan.max_items.is_some_and(|max| read >= max) {
            // Pages in flight are dropped with the stream, unread.
            return Ok((states, done < segments));
        }
    }
    Ok((states, false))
}
