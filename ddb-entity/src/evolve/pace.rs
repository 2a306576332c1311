//! The pace of one job: how many writes are in flight across all of its
//! segments (grown while none is throttled, halved when one is), and the
//! ceiling the user set so the job leaves the service beside it its share.

use std::sync::Mutex;
use std::task::{Poll, Waker};
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::ReturnConsumedCapacity;

use super::lease::Fence;
use crate::db::pause;

/// A job's ceiling: at most this many items, or write capacity units, per
/// second, over all of its segments.
///
/// ```
/// use ddb_entity::evolve::Rate;
///
/// let gentle = Rate::items_per_second(500.0);
/// let budget = Rate::write_units_per_second(2_000.0);
/// assert_ne!(gentle, budget);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum Rate {
    /// Items written per second.
    ItemsPerSecond(f64),
    /// Write capacity units per second, as DynamoDB reports them for each
    /// write (`ConsumedCapacity`), index writes included; where a server
    /// reports none, one unit per started kilobyte of the item written.
    WriteUnitsPerSecond(f64),
}

impl Rate {
    /// At most `items` items per second.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub ByEmail = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// # #[entity(index = ByEmail, pk = "EMAIL#{email}", sk = "PROFILE")]
    /// # struct Customer { id: u32, email: String }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// # for id in 0..10 { db.put(&Customer { id, email: format!("c{id}@example.com") }).await?; }
    /// use ddb_entity::evolve::Rate;
    ///
    /// // Beside a live service: no more than 200 items a second, whatever the table serves.
    /// let totals = db.backfill::<Customer>().max_rate(Rate::items_per_second(200.0)).await?;
    /// assert_eq!(totals.read, 10);
    /// # Ok(())
    /// # }
    /// ```
    pub fn items_per_second(items: f64) -> Self {
        Rate::ItemsPerSecond(items)
    }

    /// At most `units` write capacity units per second.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub ByEmail = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// # #[entity(index = ByEmail, pk = "EMAIL#{email}", sk = "PROFILE")]
    /// # struct Customer { id: u32, email: String }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// # for id in 0..10 { db.put(&Customer { id, email: format!("c{id}@example.com") }).await?; }
    /// use ddb_entity::evolve::Rate;
    ///
    /// // A table provisioned at 1,000 WCU: leave the service 800 of them.
    /// let totals = db.backfill::<Customer>().max_rate(Rate::write_units_per_second(200.0)).await?;
    /// assert_eq!(totals.read, 10);
    /// # Ok(())
    /// # }
    /// ```
    pub fn write_units_per_second(units: f64) -> Self {
        Rate::WriteUnitsPerSecond(units)
    }

    fn per_second(self) -> f64 {
        match self {
            Rate::ItemsPerSecond(n) | Rate::WriteUnitsPerSecond(n) => n.max(0.001),
        }
    }
}

/// The controller every segment of one job shares.
pub(crate) struct Pace {
    /// The most writes in flight the controller may grow to.
    max: usize,
    ceiling: Option<Rate>,
    state: Mutex<State>,
}

struct State {
    /// Writes in flight allowed now.
    limit: f64,
    in_flight: usize,
    waiting: Vec<Waker>,
    /// The ceiling's bucket: tokens may go negative (a write's units are
    /// known after it), and nothing is admitted until they are repaid.
    tokens: f64,
    refilled: Instant,
    /// No halving again before this: one throttle burst, one halving.
    calm_after: Instant,
}

/// One write admitted: counts as in flight until dropped.
pub(crate) struct Permit<'a> {
    pace: &'a Pace,
}

impl Pace {
    /// A controller starting at `start` writes in flight, growing to `max`.
    pub(crate) fn new(start: usize, max: usize, ceiling: Option<Rate>) -> Self {
        let max = max.max(1);
        let now = Instant::now();
        Pace {
            max,
            ceiling,
            state: Mutex::new(State {
                limit: start.clamp(1, max) as f64,
                in_flight: 0,
                waiting: Vec::new(),
                tokens: ceiling.map_or(0.0, |rate| rate.per_second().min(1.0)),
                refilled: now,
                calm_after: now,
            }),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Waits for a slot among the writes in flight and for the ceiling's
    /// tokens, then admits one write of `items` items.
    pub(crate) async fn admit(&self, client: &Client, items: usize) -> Permit<'_> {
        loop {
            let wait = self.ceiling_wait();
            if wait.is_zero() {
                break;
            }
            pause(client, wait).await;
        }
        std::future::poll_fn(|cx| {
            let mut state = self.lock();
            if (state.in_flight as f64) < state.limit.floor().max(1.0) {
                state.in_flight += 1;
                if let Some(Rate::ItemsPerSecond(_)) = self.ceiling {
                    state.tokens -= items as f64;
                }
                Poll::Ready(())
            } else {
                state.waiting.push(cx.waker().clone());
                Poll::Pending
            }
        })
        .await;
        Permit { pace: self }
    }

    /// How long until the ceiling's bucket holds a token.
    fn ceiling_wait(&self) -> Duration {
        let Some(rate) = self.ceiling else {
            return Duration::ZERO;
        };
        let per_second = rate.per_second();
        let mut state = self.lock();
        let now = Instant::now();
        let earned = now.duration_since(state.refilled).as_secs_f64() * per_second;
        // At most a tenth of a second's worth saved up: no bursts.
        state.tokens = (state.tokens + earned).min((per_second / 10.0).max(1.0));
        state.refilled = now;
        if state.tokens > 0.0 {
            Duration::ZERO
        } else {
            Duration::from_secs_f64((1.0 - state.tokens) / per_second).min(Duration::from_secs(1))
        }
    }

    /// What the job's writes in flight are allowed now (for tests and
    /// tracing).
    pub(crate) fn limit(&self) -> usize {
        self.lock().limit.floor() as usize
    }
}

/// What admits one write of a job: the job's pace, and in a job shared
/// by many workers the lease of the write's segment, which must still be
/// held once the pace lets the write go.
#[derive(Clone, Copy)]
pub(crate) struct Gate<'a> {
    pub(crate) pace: &'a Pace,
    pub(crate) fence: Option<&'a Fence>,
}

impl<'a> Gate<'a> {
    /// Waits for the pace, then admits one write of `items` items; `None`
    /// when the segment's lease may no longer be held: the write must not
    /// be sent.
    pub(crate) async fn admit(&self, client: &Client, items: usize) -> Option<Permit<'a>> {
        let permit = self.pace.admit(client, items).await;
        match self.fence {
            Some(fence) if !fence.holds() => None,
            _ => Some(permit),
        }
    }
}

impl Permit<'_> {
    /// What a write should ask DynamoDB to report of its consumed capacity:
    /// the total when the job's ceiling is in write units (the units are
    /// charged to it), nothing otherwise (the server need not compute
    /// them, nor the client decode them).
    pub(crate) fn consumed_capacity(&self) -> ReturnConsumedCapacity {
        match self.pace.ceiling {
            Some(Rate::WriteUnitsPerSecond(_)) => ReturnConsumedCapacity::Total,
            _ => ReturnConsumedCapacity::None,
        }
    }

    /// The write succeeded and spent `units` write capacity units (`None`:
    /// not reported; `estimate` is charged): one more write in flight
    /// allowed, a little, up to the maximum.
    pub(crate) fn succeeded(&self, units: Option<f64>, estimate: f64) {
        let mut state = self.pace.lock();
        if let Some(Rate::WriteUnitsPerSecond(_)) = self.pace.ceiling {
            state.tokens -= units.unwrap_or(estimate);
        }
        // Additive increase: about one more in flight per `limit` successes.
        let limit = state.limit;
        state.limit = (limit + 1.0 / limit).min(self.pace.max as f64);
    }

    /// The write was throttled: half as many in flight, once per burst.
    pub(crate) fn throttled(&self) {
        let mut state = self.pace.lock();
        let now = Instant::now();
        if now >= state.calm_after {
            state.limit = (state.limit / 2.0).max(1.0);
            state.calm_after = now + Duration::from_millis(100);
            tracing::debug!(limit = state.limit, "throttled: fewer writes in flight");
        }
    }
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        let waiting = {
            let mut state = self.pace.lock();
            state.in_flight -= 1;
            std::mem::take(&mut state.waiting)
        };
        for waker in waiting {
            waker.wake();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grows_without_throttles_and_halves_on_one() {
        let pace = Pace::new(4, 64, None);
        let permit = Permit { pace: &pace };
        pace.lock().in_flight = 1;
        for _ in 0..100 {
            permit.succeeded(None, 1.0);
        }
        let grown = pace.limit();
        assert!(grown > 4 && grown <= 64, "grown to {grown}");
        permit.throttled();
        assert_eq!(pace.limit(), grown / 2);
        // A second throttle of the same burst does not halve again.
        permit.throttled();
        assert_eq!(pace.limit(), grown / 2);
    }

    #[test]
    fn the_ceiling_makes_writes_wait_for_tokens() {
        let pace = Pace::new(4, 64, Some(Rate::items_per_second(10.0)));
        assert!(pace.ceiling_wait().is_zero(), "one token to start with");
        pace.lock().tokens -= 5.0;
        let wait = pace.ceiling_wait();
        assert!(
            wait >= Duration::from_millis(400),
            "five items owed at 10/s: {wait:?}"
        );
    }
}
