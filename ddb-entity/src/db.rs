//! The handle every operation starts from: the user's client plus a table.

use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::AsyncSleep;

use crate::capacity::{Capacity, Charge};
use crate::table::Table;

/// A table of shape `T`, reached through the `aws_sdk_dynamodb::Client` you
/// built (with `aws-config` for credentials and region, as for any AWS SDK
/// client). Cheap to clone: the SDK client and the name are shared.
///
/// ```no_run
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// # async fn run(config: aws_sdk_dynamodb::Config) {
/// use ddb_entity::Db;
///
/// let client = aws_sdk_dynamodb::Client::from_conf(config);
/// let db = Db::<App>::new(client, "app-prod");
/// assert_eq!(db.table_name(), "app-prod");
/// # }
/// ```
pub struct Db<T: Table> {
    client: Client,
    table_name: Arc<str>,
    clock: Option<Clock>,
    meter: Option<Capacity>,
    table: PhantomData<fn() -> T>,
}

impl<T: Table> Db<T> {
    /// A handle on the table named `table_name` (a runtime value: it usually
    /// differs per stage and per test).
    pub fn new(client: Client, table_name: impl Into<Arc<str>>) -> Self {
        Db {
            client,
            table_name: table_name.into(),
            clock: None,
            meter: None,
            table: PhantomData,
        }
    }

    /// The same table, with `clock` as the time every read and write of
    /// this handle goes by: maintained `created_at`/`updated_at` timestamps
    /// and time-to-live expiry. By default that is the client's own time
    /// source (`aws_sdk_dynamodb::Config::time_source`), else the system
    /// clock. A test sets a fixed instant to read and write "as of" it.
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # fn client() -> aws_sdk_dynamodb::Client {
    /// #     aws_sdk_dynamodb::Client::from_conf(aws_sdk_dynamodb::Config::builder()
    /// #         .behavior_version(aws_sdk_dynamodb::config::BehaviorVersion::latest()).build())
    /// # }
    ///
    /// let then = UNIX_EPOCH + Duration::from_secs(1_773_480_660);
    /// let db = ddb_entity::Db::<App>::new(client(), "app").with_clock(move || then);
    /// assert_eq!(db.now(), then);
    /// ```
    pub fn with_clock(mut self, clock: impl Fn() -> SystemTime + Send + Sync + 'static) -> Self {
        self.clock = Some(Arc::new(clock));
        self
    }

    /// The time by this handle's clock (see [`with_clock`](Db::with_clock)).
    pub fn now(&self) -> SystemTime {
        match &self.clock {
            Some(clock) => clock(),
            None => self
                .client
                .config()
                .time_source()
                .map_or_else(SystemTime::now, |source| source.now()),
        }
    }

    /// The same table, with every operation's consumed capacity added to
    /// `capacity` (see [`Capacity`]): for one request of a service, one
    /// job, one test. Every operation records its own in its `tracing`
    /// span as well.
    ///
    /// ```
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # fn client() -> aws_sdk_dynamodb::Client {
    /// #     aws_sdk_dynamodb::Client::from_conf(aws_sdk_dynamodb::Config::builder()
    /// #         .behavior_version(aws_sdk_dynamodb::config::BehaviorVersion::latest()).build())
    /// # }
    /// let db = ddb_entity::Db::<App>::new(client(), "app");
    /// let capacity = ddb_entity::Capacity::new();
    /// let per_request = db.metered(&capacity); // cheap: shares the client
    /// assert_eq!(per_request.table_name(), "app");
    /// assert_eq!(capacity.requests(), 0);
    /// ```
    pub fn metered(&self, capacity: &Capacity) -> Self {
        Db {
            meter: Some(capacity.clone()),
            ..self.clone()
        }
    }

    /// What an operation of this handle spent, charged when dropped.
    pub(crate) fn charge(&self) -> Charge<'_> {
        Charge::new(self.meter.as_ref())
    }

    /// The meter, if the handle is metered.
    pub(crate) fn meter(&self) -> Option<&Capacity> {
        self.meter.as_ref()
    }

    /// The SDK client, for anything this crate does not cover.
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The table's name.
    pub fn table_name(&self) -> &str {
        &self.table_name
    }
}

/// A handle's clock, when it has its own.
type Clock = Arc<dyn Fn() -> SystemTime + Send + Sync>;

/// Sleeps with the client's own async sleep, so the library works on
/// whatever runtime the user configured the SDK with. A client without one
/// (possible only with a hand-built config on no runtime) gets a yield
/// instead of a pause: slower polling beats a panic.
pub(crate) async fn pause(client: &Client, duration: Duration) {
    match client.config().sleep_impl() {
        Some(sleep) => sleep.sleep(duration).await,
        None => std::future::ready(()).await,
    }
}

impl<T: Table> Clone for Db<T> {
    fn clone(&self) -> Self {
        Db {
            client: self.client.clone(),
            table_name: Arc::clone(&self.table_name),
            clock: self.clock.clone(),
            meter: self.meter.clone(),
            table: PhantomData,
        }
    }
}

impl<T: Table> fmt::Debug for Db<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Db")
            .field("table", &std::any::type_name::<T>())
            .field("table_name", &self.table_name)
            .field("own_clock", &self.clock.is_some())
            .field("metered", &self.meter.is_some())
            .finish_non_exhaustive()
    }
}
