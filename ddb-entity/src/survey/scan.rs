//! A raw parallel Scan: every item of the table as DynamoDB returns it, in
//! `segments` parallel segments of which at most `concurrency` are read at
//! once. The survey's own, because it must see items no entity decodes.
//! Its knobs are named as the typed Scan's (`segments`, `concurrency`,
//! `page_size`) so that the two can share one engine.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use futures_util::stream::{self, StreamExt, TryStreamExt};
use tracing::Instrument;

use crate::db::Db;
use crate::error::{Error, Result};
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
    let stopped = AtomicBool::new(false);
    let states = stream::iter(0..segments)
        .map(|segment| scan_segment(db, plan, segment, segments, &scanned, &stopped, on_page))
        .buffer_unordered(plan.concurrency.max(1))
        .try_collect()
        .await?;
    Ok((states, stopped.load(Ordering::Relaxed)))
}

async fn scan_segment<T: Table, S: Default + Send>(
    db: &Db<T>,
    plan: Plan,
    segment: u32,
    segments: u32,
    scanned: &AtomicU64,
    stopped: &AtomicBool,
    on_page: &(dyn Fn(&mut S, Vec<Item>) + Send + Sync),
) -> Result<S> {
    let table = db.table_name();
    let span = tracing::debug_span!("ddb.scan_segment", table, segment, segments);
    async move {
        let mut state = S::default();
        let mut start = None;
        loop {
            if plan
                .max_items
                .is_some_and(|max| scanned.load(Ordering::Relaxed) >= max)
            {
                stopped.store(true, Ordering::Relaxed);
                break;
            }
            let mut request = db
                .client()
                .scan()
                .table_name(table)
                .set_exclusive_start_key(start.take())
                .set_limit(plan.page_size);
            // One segment is a plain Scan: DynamoDB takes `TotalSegments`
            // of 1, but a plain Scan is what every server reads alike.
            // Both fit an i32: `Survey::segments` caps them at 1,000,000.
            if segments > 1 {
                request = request
                    .segment(i32::try_from(segment).unwrap_or(i32::MAX))
                    .total_segments(i32::try_from(segments).unwrap_or(i32::MAX));
            }
            let output = request
                .send()
                .await
                .map_err(|err| Error::service("Scan", table, err))?;
            let items = output.items.unwrap_or_default();
            scanned.fetch_add(items.len() as u64, Ordering::Relaxed);
            on_page(&mut state, items);
            match output.last_evaluated_key {
                Some(key) if !key.is_empty() => start = Some(key),
                _ => break,
            }
        }
        Ok(state)
    }
    .instrument(span)
    .await
}
