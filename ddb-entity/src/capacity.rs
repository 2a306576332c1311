//! Consumed capacity: what every request of every operation cost, in the
//! operation's `tracing` span and, when asked, added up for the caller.

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use aws_sdk_dynamodb::types::ConsumedCapacity;

/// A meter of the capacity a [`Db`](crate::db::Db) handle consumes: every
/// request of every operation made through
/// [`Db::metered`](crate::db::Db::metered) adds the read and write capacity
/// units DynamoDB reports for it (`ReturnConsumedCapacity = TOTAL`, which
/// every request of this library asks for) — the follow-up reads a write
/// makes to decide a failed condition, batch retries and every page of a
/// query or scan included. Cheap to clone: clones share one count.
///
/// Every operation's `tracing` span records its own share too
/// (`consumed_rcu`, `consumed_wcu`), metered or not.
///
/// # Example
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use ddb_entity::{Capacity, Db, Entity, local::LocalDynamo};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// struct Customer { id: u64, name: String }
///
/// # let dynamo = LocalDynamo::start().await?;
/// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// # db.create_table_if_missing().await?;
/// // What one HTTP request of a service costs, for its access log.
/// let capacity = Capacity::new();
/// let request_db = db.metered(&capacity);
/// request_db.put(&Customer { id: 1, name: "Ada".into() }).await?;
/// request_db.get(Customer::key(1)?).consistent_read(true).await?;
/// assert_eq!(capacity.requests(), 2);
/// assert!(capacity.write_units() >= 1.0 && capacity.read_units() >= 1.0);
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Default)]
pub struct Capacity(Arc<Mutex<Totals>>);

#[derive(Debug, Clone, Copy, Default)]
struct Totals {
    read: f64,
    write: f64,
    requests: u64,
}

impl Capacity {
    /// A meter at zero.
    ///
    /// See [the example](Capacity#example).
    pub fn new() -> Self {
        Self::default()
    }

    fn totals(&self) -> Totals {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Read capacity units consumed so far.
    ///
    /// See [the example](Capacity#example).
    pub fn read_units(&self) -> f64 {
        self.totals().read
    }

    /// Write capacity units consumed so far.
    ///
    /// See [the example](Capacity#example).
    pub fn write_units(&self) -> f64 {
        self.totals().write
    }

    /// Requests sent so far (each page, each retry, each follow-up read).
    ///
    /// See [the example](Capacity#example).
    pub fn requests(&self) -> u64 {
        self.totals().requests
    }

    fn add(&self, spent: &Spent) {
        let mut totals = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        totals.read += spent.read;
        totals.write += spent.write;
        totals.requests += spent.requests;
    }
}

impl fmt::Debug for Capacity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let totals = self.totals();
        f.debug_struct("Capacity")
            .field("read_units", &totals.read)
            .field("write_units", &totals.write)
            .field("requests", &totals.requests)
            .finish()
    }
}

/// What one operation spent, request by request.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Spent {
    read: f64,
    write: f64,
    requests: u64,
}

impl Spent {
    /// A read request answered: its capacity, as read units.
    pub(crate) fn read<'a>(&mut self, consumed: impl IntoIterator<Item = &'a ConsumedCapacity>) {
        self.requests += 1;
        self.read += units(consumed);
    }

    /// A write request answered: its capacity, as write units (a
    /// transaction's reads of its condition checks are DynamoDB's to
    /// count as writes: it reports them together).
    pub(crate) fn write<'a>(&mut self, consumed: impl IntoIterator<Item = &'a ConsumedCapacity>) {
        self.requests += 1;
        self.write += units(consumed);
    }

    /// A request sent that brought no capacity back (an error).
    pub(crate) fn failed(&mut self) {
        self.requests += 1;
    }

    pub(crate) fn add(&mut self, other: Spent) {
        self.read += other.read;
        self.write += other.write;
        self.requests += other.requests;
    }

    /// Records it on the current span (`consumed_rcu`, `consumed_wcu`).
    pub(crate) fn record(&self) {
        let span = tracing::Span::current();
        span.record("consumed_rcu", self.read);
        span.record("consumed_wcu", self.write);
    }

    /// Adds it to `meter`, if there is one.
    pub(crate) fn meter(&self, meter: Option<&Capacity>) {
        if let Some(meter) = meter {
            meter.add(self);
        }
    }
}

/// What one operation spent, recorded on its span and added to its
/// handle's meter when dropped — on every way out of the operation,
/// errors included. Drop it inside the operation's instrumented future.
pub(crate) struct Charge<'m> {
    spent: Spent,
    meter: Option<&'m Capacity>,
}

impl<'m> Charge<'m> {
    pub(crate) fn new(meter: Option<&'m Capacity>) -> Self {
        Charge {
            spent: Spent::default(),
            meter,
        }
    }
}

impl std::ops::Deref for Charge<'_> {
    type Target = Spent;

    fn deref(&self) -> &Spent {
        &self.spent
    }
}

impl std::ops::DerefMut for Charge<'_> {
    fn deref_mut(&mut self) -> &mut Spent {
        &mut self.spent
    }
}

impl Drop for Charge<'_> {
    fn drop(&mut self) {
        self.spent.record();
        self.spent.meter(self.meter);
    }
}

/// The units of a response's `ConsumedCapacity` (one per table: a batch
/// or transaction reports a list).
fn units<'a>(consumed: impl IntoIterator<Item = &'a ConsumedCapacity>) -> f64 {
    consumed
        .into_iter()
        .filter_map(|c| {
            c.capacity_units
                .or_else(|| match (c.read_capacity_units, c.write_capacity_units) {
                    (None, None) => None,
                    (r, w) => Some(r.unwrap_or(0.0) + w.unwrap_or(0.0)),
                })
        })
        .sum()
}
