//! The one bounded-concurrency loop of the read side: at most `limit`
//! futures in flight, the next started as one finishes, the first failure
//! returned (dropping, so cancelling, the others).

use std::future::Future;

use futures_util::stream::{FuturesUnordered, StreamExt};

use crate::error::Result;

/// Runs `futures`, at most `limit` (at least 1) at once, and returns their
/// outputs in the order they finished; the first error ends the run.
pub(crate) async fn bounded<F, T>(futures: Vec<F>, limit: usize) -> Result<Vec<T>>
where
    F: Future<Output = Result<T>>,
{
    let mut outputs = Vec::with_capacity(futures.len());
    let mut queue = futures.into_iter();
    let mut in_flight = FuturesUnordered::new();
    for future in queue.by_ref().take(limit.max(1)) {
        in_flight.push(future);
    }
    while let Some(done) = in_flight.next().await {
        outputs.push(done?);
        if let Some(future) = queue.next() {
            in_flight.push(future);
        }
    }
    Ok(outputs)
}
