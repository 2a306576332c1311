//! The handle every operation starts from: the user's client plus a table.

use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::AsyncSleep;
use aws_sdk_dynamodb::operation::describe_table::DescribeTableError;
use aws_sdk_dynamodb::types::{TableDescription, TimeToLiveDescription};

use crate::capacity::{Capacity, Charge};
use crate::cursor::CursorSeal;
use crate::error::{Error, Result};
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
///
/// # Example
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use std::time::SystemTime;
/// use ddb_entity::{Db, local::LocalDynamo};
///
/// ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
///
/// let dynamo = LocalDynamo::start().await?;
/// let db = Db::<App>::new(dynamo.client(), "app-test");
/// assert_eq!(db.table_name(), "app-test");
/// db.create_table_if_missing().await?;
///
/// // The SDK client, for what this crate does not cover.
/// let tables = db.client().list_tables().send().await?;
/// assert!(tables.table_names().iter().any(|name| name == "app-test"));
///
/// // The clock that stamps maintained timestamps (the system's by default).
/// assert!(db.now() <= SystemTime::now());
/// let _per_request = db.clone(); // cheap: shares the client and the name
/// # Ok(())
/// # }
/// ```
pub struct Db<T: Table> {
    client: Client,
    table_name: Arc<str>,
    clock: Option<Clock>,
    meter: Option<Capacity>,
    seal: Option<Arc<CursorSeal>>,
    /// Whether the server has been seen returning the stored item with a
    /// failed condition (`ReturnValuesOnConditionCheckFailure`): shared by
    /// the handle's clones, learnt once.
    returns_old_items: Arc<AtomicBool>,
    table: PhantomData<fn() -> T>,
}

impl<T: Table> Db<T> {
    /// A handle on the table named `table_name` (a runtime value: it usually
    /// differs per stage and per test).
    ///
    /// See [`Db`'s example](Db#example).
    pub fn new(client: Client, table_name: impl Into<Arc<str>>) -> Self {
        Db {
            client,
            table_name: table_name.into(),
            clock: None,
            meter: None,
            seal: None,
            returns_old_items: Arc::default(),
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
    ///
    /// See [`Db`'s example](Db#example).
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

    /// The same table, with every query's cursors sealed with `seal`: each
    /// page hands out a sealed cursor (encrypted, authenticated, bound to
    /// its query, expiring if the seal says so), and
    /// [`Query::after`](crate::read::Query::after) takes only cursors sealed
    /// for that very query — an unsealed, tampered, foreign or expired one
    /// is [`ErrorKind::InvalidCursor`](crate::error::ErrorKind::InvalidCursor)
    /// before anything is sent. One place for a service to set, so that no
    /// endpoint can forget it. With the `sealed-cursors` feature.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Cursor, CursorSeal, Db, Entity, ErrorKind, local::LocalDynamo, op::CursorFault};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "USER#{email}", sk = "ORDER#{order_id}")]
    /// struct Order { email: String, order_id: u64 }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let client = dynamo.client();
    /// # let table = dynamo.unique_table_name("doc");
    /// let key: [u8; 32] = *b"from the secret store, 32 bytes!"; // never a constant
    /// let db = Db::<App>::new(client, table).with_cursor_seal(CursorSeal::new(1, key));
    /// # db.create_table_if_missing().await?;
    /// for order_id in 1..=3 {
    ///     db.put(&Order { email: "ada@example.com".into(), order_id }).await?;
    /// }
    /// let orders = || db.query(Order::partition("ada@example.com").unwrap());
    /// let page = orders().page_size(2).page::<Vec<Order>>().await?;
    /// let text = page.cursor.unwrap().to_string();
    /// assert!(text.starts_with("s1.")); // and nothing readable after it
    ///
    /// // Back from the client: resumes this listing...
    /// let rest: Vec<Order> = orders().after(text.parse()?).all().await?;
    /// assert_eq!(rest.len(), 1);
    /// // ...and no other, not even newest-first on the same partition.
    /// let err = orders().reverse(true).after(text.parse()?).all::<Order>().await.unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::InvalidCursor);
    /// assert_eq!(err.cursor_fault(), Some(CursorFault::Unauthentic));
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "sealed-cursors")]
    #[cfg_attr(docsrs, doc(cfg(feature = "sealed-cursors")))]
    pub fn with_cursor_seal(mut self, seal: CursorSeal) -> Self {
        self.seal = Some(Arc::new(seal));
        self
    }

    /// The seal of this handle's cursors, if it has one.
    pub(crate) fn cursor_seal(&self) -> Option<&CursorSeal> {
        self.seal.as_deref()
    }

    /// Whether a failed condition without a stored item means that none is
    /// stored: true once this handle's server has returned the stored item
    /// with a failed condition (DynamoDB, dynoxide and moto do; a server
    /// that ignores `ReturnValuesOnConditionCheckFailure` never does, and
    /// there a consistent read decides).
    pub(crate) fn returns_old_items(&self) -> bool {
        self.returns_old_items.load(Ordering::Acquire)
    }

    /// Records that the server returned the stored item with a failed
    /// condition.
    pub(crate) fn saw_old_item(&self) {
        self.returns_old_items.store(true, Ordering::Release);
    }

    /// The SDK client, for anything this crate does not cover.
    ///
    /// See [`Db`'s example](Db#example).
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The table's name.
    ///
    /// See [`Db`'s example](Db#example).
    pub fn table_name(&self) -> &str {
        &self.table_name
    }

    /// The table's description (DescribeTable), `None` when there is no
    /// such table: what creating a table, adding an index and checking
    /// drift all start from.
    pub(crate) async fn description(&self) -> Result<Option<TableDescription>> {
        let response = self
            .client
            .describe_table()
            .table_name(self.table_name())
            .send()
            .await;
        match response {
            Ok(output) => Ok(output.table),
            Err(err)
                if matches!(
                    err.as_service_error(),
                    Some(DescribeTableError::ResourceNotFoundException(_))
                ) =>
            {
                Ok(None)
            }
            Err(err) => Err(Error::service("DescribeTable", self.table_name(), err)),
        }
    }

    /// The table's time to live (DescribeTimeToLive): what creating a
    /// table turns on and the drift check compares.
    pub(crate) async fn time_to_live(&self) -> Result<Option<TimeToLiveDescription>> {
        let output = self
            .client
            .describe_time_to_live()
            .table_name(self.table_name())
            .send()
            .await
            .map_err(|err| Error::service("DescribeTimeToLive", self.table_name(), err))?;
        Ok(output.time_to_live_description)
    }

    /// DescribeTable until `status` of the description (of a table that
    /// exists) is `ACTIVE`, backing off from 20 ms to `max_delay`; after
    /// `wait`, a `NotActive` error with the last status. What creating a
    /// table and adding an index wait on.
    pub(crate) async fn wait_until_active(
        &self,
        wait: Duration,
        max_delay: Duration,
        status: impl Fn(&TableDescription) -> String,
    ) -> Result<()> {
        let started = std::time::Instant::now();
        let mut delay = Duration::from_millis(20);
        loop {
            let status = match self.description().await? {
                None => "missing".to_owned(),
                Some(description) => status(&description),
            };
            if status == "ACTIVE" {
                return Ok(());
            }
            if started.elapsed() >= wait {
                return Err(Error::not_active(
                    self.table_name(),
                    status,
                    started.elapsed(),
                ));
            }
            tracing::debug!(%status, "waiting until active");
            pause(&self.client, delay).await;
            delay = (delay * 2).min(max_delay);
        }
    }
}

/// A handle's clock, when it has its own.
type Clock = Arc<dyn Fn() -> SystemTime + Send + Sync>;

/// Sleeps with the client's own async sleep, so the library works on
/// whatever runtime the user configured the SDK with; a client built from
/// `Config::builder()` names none (the SDK adds its default only inside
/// its own requests), so the SDK's default, tokio's, is used then. Without
/// either (no tokio) a pause is a yield: slower polling beats a panic.
pub(crate) async fn pause(client: &Client, duration: Duration) {
    let sleep = client
        .config()
        .sleep_impl()
        .or_else(aws_smithy_async::rt::sleep::default_async_sleep);
    match sleep {
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
            seal: self.seal.clone(),
            returns_old_items: Arc::clone(&self.returns_old_items),
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
            .field("sealed_cursors", &self.seal.is_some())
            .finish_non_exhaustive()
    }
}
