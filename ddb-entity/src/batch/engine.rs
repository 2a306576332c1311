//! Runs a batch's chunks with bounded concurrency, retrying what DynamoDB
//! leaves unprocessed, and accounts for every entry: each one ends up
//! processed or in the report's `unprocessed`.

use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::task::Poll;
use std::time::Instant;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};

use super::retry::{BatchRetry, Jitter};
use crate::db::pause;
use crate::error::Error;

/// One write or key of a batch.
pub(super) trait Entry: Send {
    /// What goes into the request for it.
    type Request: Send;

    /// Its place in the batch, to report leftovers in the caller's order.
    fn position(&self) -> usize;

    /// Its primary key values: how the service's `Unprocessed…` answers are
    /// matched back to it.
    fn key(&self) -> (&str, &str);

    /// A copy of its request (the SDK consumes requests; a retry needs one).
    fn request(&self) -> Self::Request;
}

/// What one request achieved: the keys the service left unprocessed, and
/// what it returned (the items of a BatchGetItem).
pub(super) struct Attempt<O> {
    pub(super) unprocessed: Vec<(String, String)>,
    pub(super) output: O,
}

/// Why a request failed.
pub(super) enum Failure {
    /// Throttling, a server error, a timeout: worth retrying.
    Transient(Error),
    /// Anything else (no table, no permission, a malformed request): the
    /// batch stops sending.
    Fatal(Error),
}

impl Failure {
    /// Sorts a failed request by [`Error::is_retryable`]: throttling, 5xx
    /// answers, timeouts and I/O failures are transient. A timed-out or
    /// unreadable answer may hide a processed request, which is fine: batch
    /// writes are idempotent puts and deletes, and reads change nothing.
    pub(super) fn classify<E>(
        operation: &'static str,
        table: &str,
        err: SdkError<E, HttpResponse>,
    ) -> Failure
    where
        E: ProvideErrorMetadata,
        SdkError<E, HttpResponse>: Into<aws_sdk_dynamodb::Error>,
    {
        let err = Error::service(operation, table, err);
        if err.is_retryable() {
            Failure::Transient(err)
        } else {
            Failure::Fatal(err)
        }
    }
}

/// How a batch went.
pub(super) struct Report<E, O> {
    /// What every successful request returned.
    pub(super) outputs: Vec<O>,
    /// Every entry not known to be processed, in batch order.
    pub(super) unprocessed: Vec<E>,
    /// The fatal error that stopped the batch, else the last transient one.
    pub(super) error: Option<Error>,
    /// Whether a fatal error stopped the batch.
    pub(super) fatal: bool,
    /// Requests sent.
    pub(super) requests: u32,
    /// Requests that were retries.
    pub(super) retries: u32,
}

/// Runs `chunks` (each one request's worth of entries), `concurrency` at a
/// time, through `send`, retrying unprocessed entries and transient
/// failures within `retry`'s budget.
pub(super) async fn run<E, O, F, Fut>(
    client: &Client,
    retry: BatchRetry,
    concurrency: usize,
    chunks: Vec<Vec<E>>,
    send: F,
) -> Report<E, O>
where
    E: Entry,
    O: Send,
    F: Fn(Vec<E::Request>) -> Fut + Sync,
    Fut: Future<Output = Result<Attempt<O>, Failure>> + Send,
{
    let shared = Shared {
        client,
        retry,
        send,
        started: Instant::now(),
        queue: Mutex::new(chunks.into_iter().enumerate().collect()),
        stopped: AtomicBool::new(false),
        requests: AtomicU32::new(0),
        retries: AtomicU32::new(0),
        done: Mutex::new(Vec::new()),
    };
    let workers = concurrency.clamp(1, shared.queued().max(1));
    join_all((0..workers).map(|_| shared.work()).collect()).await;

    let mut report = Report {
        outputs: Vec::new(),
        unprocessed: Vec::new(),
        error: None,
        fatal: false,
        requests: shared.requests.load(Ordering::Relaxed),
        retries: shared.retries.load(Ordering::Relaxed),
    };
    // Chunks never sent (a fatal error stopped the batch) are unprocessed.
    let never_sent: Vec<_> = lock(&shared.queue).drain(..).collect();
    report
        .unprocessed
        .extend(never_sent.into_iter().flat_map(|(_, chunk)| chunk));
    for chunk in lock(&shared.done).drain(..) {
        report.outputs.extend(chunk.outputs);
        report.unprocessed.extend(chunk.unprocessed);
        match (chunk.error, chunk.fatal) {
            (Some(err), true) if !report.fatal => {
                report.error = Some(err);
                report.fatal = true;
            }
            (Some(err), false) if !report.fatal => report.error = Some(err),
            _ => {}
        }
    }
    report.unprocessed.sort_by_key(Entry::position);
    report
}

struct Shared<'c, E, O, F> {
    client: &'c Client,
    retry: BatchRetry,
    send: F,
    started: Instant,
    queue: Mutex<VecDeque<(usize, Vec<E>)>>,
    /// Set by a fatal error: no further request starts.
    stopped: AtomicBool,
    requests: AtomicU32,
    retries: AtomicU32,
    done: Mutex<Vec<ChunkReport<E, O>>>,
}

struct ChunkReport<E, O> {
    outputs: Vec<O>,
    unprocessed: Vec<E>,
    error: Option<Error>,
    fatal: bool,
}

impl<E, O, F, Fut> Shared<'_, E, O, F>
where
    E: Entry,
    O: Send,
    F: Fn(Vec<E::Request>) -> Fut + Sync,
    Fut: Future<Output = Result<Attempt<O>, Failure>> + Send,
{
    fn queued(&self) -> usize {
        lock(&self.queue).len()
    }

    /// One worker: takes chunks until none is left or the batch stopped.
    async fn work(&self) {
        loop {
            if self.stopped.load(Ordering::Relaxed) {
                return;
            }
            let Some((number, chunk)) = lock(&self.queue).pop_front() else {
                return;
            };
            let report = self.chunk(number, chunk).await;
            lock(&self.done).push(report);
        }
    }

    /// One chunk, through its retries.
    async fn chunk(&self, number: usize, mut pending: Vec<E>) -> ChunkReport<E, O> {
        let mut jitter = Jitter::new(number as u64);
        let mut outputs = Vec::new();
        let mut last_error = None;
        let mut attempt = 0;
        loop {
            if self.stopped.load(Ordering::Relaxed) {
                break;
            }
            attempt += 1;
            self.requests.fetch_add(1, Ordering::Relaxed);
            if attempt > 1 {
                self.retries.fetch_add(1, Ordering::Relaxed);
            }
            let requests = pending.iter().map(Entry::request).collect();
            match (self.send)(requests).await {
                Ok(answer) => {
                    outputs.push(answer.output);
                    pending = still_pending(pending, answer.unprocessed);
                }
                Err(Failure::Transient(err)) => last_error = Some(err),
                Err(Failure::Fatal(err)) => {
                    self.stopped.store(true, Ordering::Relaxed);
                    return ChunkReport {
                        outputs,
                        unprocessed: pending,
                        error: Some(err),
                        fatal: true,
                    };
                }
            }
            if pending.is_empty() {
                break;
            }
            let delay = jitter.delay(&self.retry, attempt - 1);
            if attempt >= self.retry.attempts()
                || !self.retry.in_time(self.started.elapsed() + delay)
            {
                tracing::debug!(
                    chunk = number,
                    attempts = attempt,
                    left = pending.len(),
                    "retry budget spent"
                );
                break;
            }
            tracing::debug!(
                chunk = number,
                attempt,
                left = pending.len(),
                pause_ms = delay.as_millis() as u64,
                "retrying what was not processed"
            );
            pause(self.client, delay).await;
        }
        ChunkReport {
            outputs,
            unprocessed: pending,
            error: last_error,
            fatal: false,
        }
    }
}

/// The entries of `sent` that the service named as unprocessed. A key it
/// names that was not sent cannot be one of ours: it is logged and ignored.
fn still_pending<E: Entry>(sent: Vec<E>, unprocessed: Vec<(String, String)>) -> Vec<E> {
    if unprocessed.is_empty() {
        return Vec::new();
    }
    let mut by_key: HashMap<(String, String), E> = sent
        .into_iter()
        .map(|entry| {
            let (partition, sort) = entry.key();
            ((partition.to_owned(), sort.to_owned()), entry)
        })
        .collect();
    let mut pending: Vec<E> = unprocessed
        .into_iter()
        .filter_map(|key| {
            let entry = by_key.remove(&key);
            if entry.is_none() {
                tracing::warn!("the service returned an unprocessed key that was not sent");
            }
            entry
        })
        .collect();
    pending.sort_by_key(Entry::position);
    pending
}

/// Splits `entries` into chunks of at most `max_count` entries and
/// `max_bytes` bytes (as `size` counts them), keeping their order. An entry
/// larger than `max_bytes` on its own gets a chunk of its own.
pub(super) fn plan<E>(
    entries: Vec<E>,
    max_count: usize,
    max_bytes: usize,
    size: impl Fn(&E) -> usize,
) -> Vec<Vec<E>> {
    let mut chunks = Vec::new();
    let mut current = Vec::new();
    let mut bytes = 0;
    for entry in entries {
        let entry_size = size(&entry);
        if !current.is_empty() && (current.len() == max_count || bytes + entry_size > max_bytes) {
            chunks.push(std::mem::take(&mut current));
            bytes = 0;
        }
        bytes += entry_size;
        current.push(entry);
    }
    if !current.is_empty() {
        chunks.push(current);
    }
    chunks
}

/// Polls every future to completion on the caller's task: the workers of
/// a batch, a handful at most. (`futures-util` has `join_all` only with
/// its `alloc` feature, which the crate does not otherwise need.)
async fn join_all<F: Future<Output = ()>>(futures: Vec<F>) {
    let mut futures: Vec<Option<Pin<Box<F>>>> =
        futures.into_iter().map(|f| Some(Box::pin(f))).collect();
    std::future::poll_fn(|cx| {
        let mut pending = false;
        for slot in &mut futures {
            if let Some(future) = slot {
                if future.as_mut().poll(cx).is_ready() {
                    *slot = None;
                } else {
                    pending = true;
                }
            }
        }
        if pending {
            Poll::Pending
        } else {
            Poll::Ready(())
        }
    })
    .await
}

/// A poisoned lock only means another worker panicked; the data is a
/// queue and a list of reports, still consistent.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_cuts_at_the_count_and_at_the_byte_limit_in_order() {
        let sizes: Vec<usize> = (0..60).map(|_| 1).collect();
        let chunks = plan(sizes, 25, 1000, |s| *s);
        assert_eq!(
            chunks.iter().map(Vec::len).collect::<Vec<_>>(),
            [25, 25, 10]
        );

        let chunks = plan(vec![6, 3, 2, 9, 1, 12, 4], 25, 10, |s| *s);
        assert_eq!(chunks, [vec![6, 3], vec![2], vec![9, 1], vec![12], vec![4]]);
        assert!(plan(Vec::<usize>::new(), 25, 10, |s| *s).is_empty());
    }

    struct Probe(usize, &'static str);

    impl Entry for Probe {
        type Request = ();
        fn position(&self) -> usize {
            self.0
        }
        fn key(&self) -> (&str, &str) {
            (self.1, "")
        }
        fn request(&self) {}
    }

    #[test]
    fn still_pending_keeps_only_named_entries_in_order() {
        let sent = vec![Probe(0, "a"), Probe(1, "b"), Probe(2, "c")];
        let left = still_pending(
            sent,
            vec![
                ("c".into(), String::new()),
                ("zz".into(), String::new()),
                ("a".into(), String::new()),
            ],
        );
        assert_eq!(left.iter().map(|p| p.0).collect::<Vec<_>>(), [0, 2]);
    }
}
