//! The retry budget of a batch, and full-jitter exponential backoff.

use std::time::{Duration, Instant};

use aws_sdk_dynamodb::Client;

use crate::db::pause;
use crate::error::{Error, Result};

/// How a batch retries what DynamoDB did not process: the writes it
/// returns as `UnprocessedItems`, the keys it returns as `UnprocessedKeys`,
/// and whole requests refused by throttling or a transient server error.
///
/// Each chunk of a batch (one request's worth) gets up to
/// [`max_attempts`](BatchRetry::max_attempts) requests, the first one
/// included; only what is still unprocessed is sent again. Before retry `n`
/// (`n = 0` for the first retry) the chunk sleeps a random time in
/// `[0, min(max_delay, base_delay · 2ⁿ)]` — exponential backoff with *full
/// jitter*, which spreads concurrent retriers apart instead of having them
/// return in waves. No retry starts once [`max_elapsed`](BatchRetry::max_elapsed)
/// has passed since the batch began (first attempts always go out). What
/// is left when the budget runs out is returned, typed, in the error
/// ([`Error::unprocessed_writes`](crate::error::Error::unprocessed_writes),
/// [`Error::unprocessed_keys`](crate::error::Error::unprocessed_keys)): never
/// dropped.
///
/// These retries come on top of the SDK's own retry layer (which retries a
/// throttled request a few times before this sees it).
///
/// The jitter comes from a small xorshift generator seeded from the clock
/// and the chunk's number: good enough to decorrelate retriers, not
/// cryptographic, and no dependency.
///
/// # Example
///
/// ```
/// use std::time::Duration;
/// use ddb_entity::op::BatchRetry;
///
/// let retry = BatchRetry::new()
///     .max_attempts(5)
///     .base_delay(Duration::from_millis(20))
///     .max_delay(Duration::from_millis(500))
///     .max_elapsed(Duration::from_secs(10));
/// assert_eq!(retry.delay_ceiling(0), Duration::from_millis(20));
/// assert_eq!(retry.delay_ceiling(3), Duration::from_millis(160));
/// assert_eq!(retry.delay_ceiling(9), Duration::from_millis(500));
/// assert_eq!(BatchRetry::default(), BatchRetry::new());
/// assert_eq!((retry.attempts(), BatchRetry::new().attempts()), (5, 10));
/// assert_eq!(BatchRetry::no_retries().attempts(), 1);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchRetry {
    max_attempts: u32,
    base_delay: Duration,
    max_delay: Duration,
    max_elapsed: Option<Duration>,
}

impl BatchRetry {
    /// The default budget: 10 attempts per chunk, backoff from 50 ms up to
    /// 5 s, no overall time limit.
    ///
    /// See [the example](BatchRetry#example).
    pub const fn new() -> Self {
        BatchRetry {
            max_attempts: 10,
            base_delay: Duration::from_millis(50),
            max_delay: Duration::from_secs(5),
            max_elapsed: None,
        }
    }

    /// One attempt per chunk, no retry: whatever DynamoDB leaves
    /// unprocessed is returned at once.
    ///
    /// See [the example](BatchRetry#example).
    pub const fn no_retries() -> Self {
        BatchRetry::new().max_attempts(1)
    }

    /// Requests per chunk, the first one included (at least 1).
    ///
    /// See [the example](BatchRetry#example).
    pub const fn max_attempts(mut self, attempts: u32) -> Self {
        self.max_attempts = if attempts == 0 { 1 } else { attempts };
        self
    }

    /// The ceiling of the first retry's random pause; it doubles with each
    /// further retry, up to [`max_delay`](BatchRetry::max_delay).
    ///
    /// See [the example](BatchRetry#example).
    pub const fn base_delay(mut self, delay: Duration) -> Self {
        self.base_delay = delay;
        self
    }

    /// The largest ceiling a pause can have.
    ///
    /// See [the example](BatchRetry#example).
    pub const fn max_delay(mut self, delay: Duration) -> Self {
        self.max_delay = delay;
        self
    }

    /// No retry starts later than this after the batch began.
    ///
    /// See [the example](BatchRetry#example).
    pub const fn max_elapsed(mut self, limit: Duration) -> Self {
        self.max_elapsed = Some(limit);
        self
    }

    /// The attempts each chunk gets.
    ///
    /// See [the example](BatchRetry#example).
    pub const fn attempts(&self) -> u32 {
        self.max_attempts
    }

    /// The upper end of the random pause before retry `retry` (0-based):
    /// `min(max_delay, base_delay · 2^retry)`.
    ///
    /// See [the example](BatchRetry#example).
    pub fn delay_ceiling(&self, retry: u32) -> Duration {
        let factor = 1u32.checked_shl(retry.min(31)).unwrap_or(u32::MAX);
        self.base_delay
            .checked_mul(factor)
            .map_or(self.max_delay, |delay| delay.min(self.max_delay))
    }

    /// Whether a retry that would start after `elapsed` (pause included)
    /// is still within the time budget.
    pub(crate) fn in_time(&self, elapsed: Duration) -> bool {
        self.max_elapsed.is_none_or(|limit| elapsed <= limit)
    }
}

impl Default for BatchRetry {
    fn default() -> Self {
        BatchRetry::new()
    }
}

/// Before retrying a request that failed with `err`: `Err(err)` when it is
/// not worth retrying (not [`Error::is_retryable`]) or `retry`'s budget is
/// spent, else a pause with full jitter and `Ok`. The one backoff of every
/// request sent again on its own (a read engine's page, a job's write).
pub(crate) async fn backoff(
    client: &Client,
    retry: &BatchRetry,
    jitter: &mut Jitter,
    retries: &mut u32,
    started: Instant,
    err: Error,
) -> Result<()> {
    if !err.is_retryable() {
        return Err(err);
    }
    tracing::debug!(retry = *retries, error = %err, "retrying after a transient failure");
    if pause_within(client, retry, jitter, retries, started).await {
        Ok(())
    } else {
        Err(err)
    }
}

/// Before a resend that is not an error's (a write the server left
/// unprocessed): a pause with full jitter and `true`, or `false` once
/// `retry`'s budget (attempts, or time since `started`) is spent.
pub(crate) async fn pause_within(
    client: &Client,
    retry: &BatchRetry,
    jitter: &mut Jitter,
    retries: &mut u32,
    started: Instant,
) -> bool {
    if *retries + 1 >= retry.attempts() {
        return false;
    }
    let delay = jitter.delay(retry, *retries);
    if !retry.in_time(started.elapsed() + delay) {
        return false;
    }
    *retries += 1;
    pause(client, delay).await;
    true
}

/// Full jitter: a uniform pause in `[0, ceiling]`, from xorshift64*.
#[derive(Debug)]
pub(crate) struct Jitter(u64);

impl Jitter {
    /// A generator for one chunk, seeded from the clock, an address and the
    /// chunk's number, so chunks and batches draw different pauses.
    pub(crate) fn new(stream: u64) -> Self {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        let local = 0u8;
        let address = std::ptr::addr_of!(local) as u64;
        Jitter::seeded(nanos ^ address.rotate_left(32) ^ stream.wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }

    /// A generator with a fixed seed (tests).
    pub(super) fn seeded(seed: u64) -> Self {
        // splitmix64 spreads close seeds apart; xorshift needs a non-zero state.
        let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        Jitter((z ^ (z >> 31)) | 1)
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// The pause before retry `retry` (0-based).
    pub(crate) fn delay(&mut self, policy: &BatchRetry, retry: u32) -> Duration {
        let ceiling = u64::try_from(policy.delay_ceiling(retry).as_nanos()).unwrap_or(u64::MAX);
        // Multiply-shift maps 64 random bits onto [0, ceiling] uniformly.
        let nanos = (u128::from(self.next()) * (u128::from(ceiling) + 1)) >> 64;
        Duration::from_nanos(nanos as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pauses_stay_under_the_ceiling_and_spread_over_it() {
        let policy = BatchRetry::new()
            .base_delay(Duration::from_millis(10))
            .max_delay(Duration::from_millis(80));
        let mut jitter = Jitter::seeded(7);
        for retry in 0..10 {
            let ceiling = policy.delay_ceiling(retry);
            let pauses: Vec<_> = (0..2000).map(|_| jitter.delay(&policy, retry)).collect();
            assert!(pauses.iter().all(|p| *p <= ceiling));
            // Full jitter: pauses cover the whole range, near 0 and near the top.
            assert!(pauses.iter().any(|p| *p < ceiling / 10), "retry {retry}");
            assert!(
                pauses.iter().any(|p| *p > ceiling * 9 / 10),
                "retry {retry}"
            );
            let mean = pauses.iter().sum::<Duration>() / 2000;
            assert!(
                mean > ceiling * 4 / 10 && mean < ceiling * 6 / 10,
                "{mean:?}"
            );
        }
    }

    #[test]
    fn ceilings_double_then_cap_without_overflow() {
        let policy = BatchRetry::new()
            .base_delay(Duration::from_millis(1))
            .max_delay(Duration::from_secs(1));
        let ceilings: Vec<_> = (0..12)
            .map(|n| policy.delay_ceiling(n).as_millis())
            .collect();
        assert_eq!(
            ceilings,
            [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1000, 1000]
        );
        assert_eq!(policy.delay_ceiling(u32::MAX), Duration::from_secs(1));
        let huge = BatchRetry::new()
            .base_delay(Duration::MAX)
            .max_delay(Duration::MAX);
        assert_eq!(huge.delay_ceiling(40), Duration::MAX);
        let mut jitter = Jitter::seeded(1);
        assert!(jitter.delay(&huge, 40) <= Duration::MAX);
    }

    #[test]
    fn attempts_are_at_least_one_and_seeds_differ() {
        assert_eq!(BatchRetry::new().max_attempts(0).attempts(), 1);
        assert_eq!(BatchRetry::no_retries().attempts(), 1);
        let (mut a, mut b) = (Jitter::seeded(1), Jitter::seeded(2));
        assert_ne!(a.next(), b.next());
        assert_ne!(Jitter::new(0).0, 0);
    }

    #[test]
    fn the_time_budget_is_optional() {
        assert!(BatchRetry::new().in_time(Duration::from_secs(3600)));
        let limited = BatchRetry::new().max_elapsed(Duration::from_secs(1));
        assert!(limited.in_time(Duration::from_millis(999)));
        assert!(!limited.in_time(Duration::from_millis(1001)));
    }
}
