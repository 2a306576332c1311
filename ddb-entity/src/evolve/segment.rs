//! One segment of a job, for every job alike: its pages read one ahead of
//! their writes, and each page's result handed on in page order, once its
//! writes and those of every page before it are done (so a checkpoint
//! made from it is safe to resume from).

use std::future::Future;
use std::sync::Arc;

use futures_util::stream::{self, Stream, StreamExt};

use super::checkpoint::SegmentPosition;
use super::scan::{RawPage, ScanSpec};
use crate::error::Result;
use crate::item::Item;

/// Pages of one segment being written at once: the next page is read
/// while the last one is written.
const PAGES_AHEAD: usize = 2;

/// The pages of `segment` of `spec`'s scan from `start`, each given to
/// `write`; its results in page order, with where the segment stands
/// after each page. The stream ends after the segment's last page, or
/// with the first error (no later page is started).
pub(crate) fn written_pages<C, F, Fut>(
    spec: Arc<ScanSpec>,
    segment: u32,
    start: Option<Item>,
    write: F,
) -> impl Stream<Item = Result<(C, SegmentPosition)>> + Send
where
    C: Send,
    F: Fn(RawPage) -> Fut + Send,
    Fut: Future<Output = Result<C>> + Send,
{
    // The segment's pages, read one after the other; `None` once done.
    let pages = stream::unfold(Some(start), move |state| {
        let spec = Arc::clone(&spec);
        async move {
            let start = state?;
            match spec.page(segment, start).await {
                Ok(page) => {
                    let next = match &page.next {
                        SegmentPosition::After(cursor) => {
                            match spec.start_key(segment, Some(cursor)) {
                                Ok(key) => key.map(Some),
                                Err(err) => return Some((Err(err), None)),
                            }
                        }
                        _ => None,
                    };
                    Some((Ok(page), next))
                }
                Err(err) => Some((Err(err), None)),
            }
        }
    });
    let written = pages
        .map(move |page| {
            let written = page.map(|page| {
                let next = page.next.clone();
                (write(page), next)
            });
            async move {
                let (written, next) = written?;
                Ok((written.await?, next))
            }
        })
        .buffered(PAGES_AHEAD);
    stop_after_error(written)
}

/// The stream up to and including its first error.
pub(crate) fn stop_after_error<S, T>(events: S) -> impl Stream<Item = Result<T>> + Send
where
    S: Stream<Item = Result<T>> + Send,
    T: Send,
{
    events.scan(false, |failed, event| {
        let out = if *failed {
            None
        } else {
            *failed = event.is_err();
            Some(event)
        };
        std::future::ready(out)
    })
}
