//! Scan: every item of the table or of an index, typed and demultiplexed,
//! in parallel segments — the tool for operations and migrations, never
//! the answer to an access pattern.

use std::collections::HashMap;
use std::marker::PhantomData;
use std::sync::Arc;

use futures_util::stream::{Stream, TryStreamExt};

#[cfg(feature = "survey")]
use super::engine::finish::Sink;
use super::engine::finish::{self, Page, Source};
#[cfg(feature = "survey")]
use super::engine::found::Found;
use super::engine::run::{Lane, Named, Order, Run, Setup};
use super::engine::{Operation, Rendered, Target};
use super::filter::{Filters, Reading, unexpired};
use super::query::projection;
use crate::batch::BatchRetry;
use crate::collection::{Collection, CollectionItem, UnknownItems};
use crate::cursor::{Cursor, ShardPosition};
use crate::db::Db;
use crate::entity::Entity;
use crate::error::{CursorFault, Error, Repr, Result};
use crate::expr::{Condition, Placeholders};
#[cfg(feature = "survey")]
use crate::item::Item;
use crate::table::{Index, Primary, QueryIndex, Table};

/// The most segments DynamoDB splits a scan into.
const MAX_SEGMENTS: u32 = 1_000_000;

/// Segments scanned at once unless told otherwise.
const DEFAULT_CONCURRENCY: usize = 4;

/// A Scan of the table (or of index `I`): every item, read page by page,
/// typed and demultiplexed like a query's — optionally split into
/// segments read in parallel. Made by [`Db::scan`] and [`Db::scan_index`];
/// finish with [`collect`](Scan::collect), [`pages`](Scan::pages) (a
/// `Stream`) or [`count`](Scan::count).
///
/// **A scan is not an access pattern**: it reads — and bills — the whole table, however
/// few items it returns, and a filter changes what comes back, not what is
/// read. An application question wants a key: a partition and a sort-key
/// range, or a sparse index. Scans are for operations and migrations:
/// backfilling an index, rewriting items after a schema change, exporting,
/// auditing. They emit no `tracing` warning — a nightly migration is
/// deliberate, and a warning per run would teach people to ignore
/// warnings; the span records what each cost (`requests`, `scanned`,
/// `consumed_rcu`) instead.
///
/// - **Types.** Items are demultiplexed by the type attribute into the
///   [`Collection`] asked for. In a single table every entity type is in a
///   scan, so by default DynamoDB is asked to return only the collection's
///   types ([`UnknownItems::Filter`]): items of other types, and items
///   written by other tools without a type attribute, are read but not
///   returned. [`on_unknown`](Scan::on_unknown) with
///   [`UnknownItems::Skip`] or [`UnknownItems::Error`] has them returned
///   and dealt with as a query does (an item without a type is an error).
/// - **Segments.** [`segments(n)`](Scan::segments) splits the scan into
///   `n` parallel segments (DynamoDB assigns each item to one), at most
///   [`concurrency`](Scan::concurrency) read at once. Every page says
///   which segment it is from and where that segment stopped, so a job can
///   checkpoint and [`resume`](Scan::resume). A segment that fails ends the
///   whole scan with its error: never a silently partial result.
/// - **Filters** are the query's ([`Scan::filter`]), with the same
///   semantics: applied after the read.
/// - **Pages.** [`page`](Scan::page) and [`after`](Scan::after) read the
///   segments as one listing with one cursor; [`pages`](Scan::pages) hands
///   each segment's pages on as they arrive, each with that segment's
///   cursor, for jobs that checkpoint per segment.
///
/// # Example
///
/// Every setting and way to finish (`page`, `after`, `resume`, `segment`,
/// `limit`, `projection`, `retry`, `first` and `on_undecodable` have their
/// own):
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use futures_util::TryStreamExt;
/// # use ddb_entity::{Db, Entity, UnknownItems, local::LocalDynamo, op::ScanPage};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// #[derive(Entity, Serialize, Deserialize, Debug)]
/// #[entity(table = App, pk = "DEVICE#{id}", sk = "DEVICE")]
/// struct Device { id: u32, firmware: String }
///
/// #[derive(Entity, Serialize, Deserialize, Debug)]
/// #[entity(table = App, pk = "SITE#{id}", sk = "SITE")]
/// struct Site { id: u32 }
///
/// # let dynamo = LocalDynamo::start().await?;
/// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// # db.create_table_if_missing().await?;
/// for id in 0..12 {
///     db.put(&Device { id, firmware: if id < 3 { "1.0" } else { "2.0" }.into() }).await?;
/// }
/// db.put(&Site { id: 1 }).await?;
/// let old = || Device::fields().firmware.equals("1.0".to_owned());
///
/// // The devices on old firmware: 3 segments, 2 at once, 5 items a request.
/// let stale: Vec<Device> = db
///     .scan()
///     .filter(old())
///     .segments(3)
///     .concurrency(2)
///     .page_size(5)
///     .consistent_read(true)
///     .include_expired(false)
///     .all()
///     .await?;
/// assert_eq!(stale.len(), 3);
/// assert_eq!(db.scan().filter(old()).count().await?, 3);
/// assert_eq!(db.scan().count().await?, 13, "without a filter, every item");
///
/// // The site is not a device: filtered on the server by default; asked
/// // to return it, the scan skips it here (or fails, with `Error`).
/// let devices: Vec<Device> = db.scan().on_unknown(UnknownItems::Skip).collect().await?;
/// assert_eq!(devices.len(), 12);
/// assert_eq!(db.scan().one::<Site>().await?.map(|s| s.id), Some(1));
///
/// // A job's page stream: each page one request of one segment.
/// let pages: Vec<ScanPage<Vec<Device>>> = db.scan().segments(3).pages().try_collect().await?;
/// assert_eq!(pages.iter().map(|p| p.items.len()).sum::<usize>(), 12);
/// assert!(pages.iter().all(|p| p.segment < 3 && p.scanned_count >= p.items.len()));
/// # Ok(())
/// # }
/// ```
#[must_use = "nothing happens until the scan is sent"]
pub struct Scan<'db, I: QueryIndex> {
    db: &'db Db<I::Table>,
    filters: Filters,
    segments: u32,
    concurrency: usize,
    page_size: Option<usize>,
    consistent: bool,
    unknown: UnknownItems,
    include_expired: bool,
    resume: HashMap<u32, Option<Cursor>>,
    /// Where a page of the same scan ended ([`Scan::after`]).
    cursor: Option<Cursor>,
    /// Only this segment of `segments` (a worker's share).
    only: Option<u32>,
    limit: Option<usize>,
    projection: Option<Vec<&'static str>>,
    retry: Option<BatchRetry>,
    /// Items exactly as DynamoDB returns them (the survey's).
    raw: bool,
    /// Once started: the segment each lane reads.
    lane_segments: Vec<u32>,
    /// Skip items that do not decode, each error handed here.
    report: Option<Report<'db>>,
    index: PhantomData<fn() -> I>,
}

/// One page of a scan's page stream ([`Scan::pages`]): the items of one
/// request of one segment, and where that segment stands.
///
/// See [`Scan`'s example](Scan#example), and [`Scan::resume`] for a job
/// that checkpoints its segments.
#[derive(Debug)]
#[non_exhaustive]
pub struct ScanPage<C> {
    /// The items, demultiplexed.
    pub items: C,
    /// The segment the page is from (0 for an unsegmented scan).
    pub segment: u32,
    /// Where the segment stopped: `Some` while it has more, `None` once it
    /// is done. Keep the last one per segment to [`resume`](Scan::resume).
    pub cursor: Option<Cursor>,
    /// How many items DynamoDB read for this page (before any filter).
    pub scanned_count: usize,
}

impl<T: Table> Db<T> {
    /// Starts a Scan of the table (see [`Scan`]: an operations tool, not an
    /// access pattern).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// struct Customer { id: u64, email: String }
    ///
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{id}")]
    /// struct Order { customer_id: u64, id: u64 }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// for id in 0..20 {
    ///     db.put(&Customer { id, email: format!("c{id}@example.com") }).await?;
    ///     db.put(&Order { customer_id: id, id: 1 }).await?;
    /// }
    /// // A migration: every customer, in 4 segments read 2 at a time; the
    /// // orders are read too (a scan reads everything) but not returned.
    /// let customers: Vec<Customer> = db.scan().segments(4).concurrency(2).all().await?;
    /// assert_eq!(customers.len(), 20);
    /// # Ok(())
    /// # }
    /// ```
    pub fn scan(&self) -> Scan<'_, Primary<T>> {
        Scan::new(self)
    }

    /// Starts a Scan of index `I`: only the items in it (a sparse index
    /// holds only the items that qualify).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "TICKET#{id}", sk = "TICKET")]
    /// #[entity(index = Gsi1, pk = "OPEN#{opened}", sk = "{id}")] // sparse
    /// struct Ticket { id: u64, opened: Option<u32> }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// for id in 0..10 {
    ///     db.put(&Ticket { id, opened: (id % 3 == 0).then_some(20260301) }).await?;
    /// }
    /// assert_eq!(db.scan_index::<Gsi1>().count().await?, 4);
    /// # Ok(())
    /// # }
    /// ```
    pub fn scan_index<I: Index<Table = T>>(&self) -> Scan<'_, I> {
        Scan::new(self)
    }
}

impl<'db, I: QueryIndex> Scan<'db, I> {
    fn new(db: &'db Db<I::Table>) -> Self {
        Scan {
            db,
            filters: Filters::default(),
            segments: 1,
            concurrency: DEFAULT_CONCURRENCY,
            page_size: None,
            consistent: false,
            unknown: UnknownItems::Filter,
            include_expired: false,
            resume: HashMap::new(),
            cursor: None,
            only: None,
            limit: None,
            projection: None,
            retry: None,
            raw: false,
            lane_segments: Vec::new(),
            report: None,
            index: PhantomData,
        }
    }

    /// Keep only the items of `E` for which `condition` holds (applied
    /// after the read; see [`Query::filter`](crate::read::Query::filter)).
    ///
    /// See [the example](Scan#example).
    pub fn filter<E: Entity<Table = I::Table>>(mut self, condition: Condition<E>) -> Self {
        self.filters.push(condition);
        self
    }

    /// Split the scan into `segments` (1 to 1,000,000; default 1), each a
    /// sequence of requests of its own, read in parallel.
    ///
    /// See [the example](Scan#example).
    pub fn segments(mut self, segments: u32) -> Self {
        self.segments = segments;
        self
    }

    /// At most `segments` read at once (default 4, at least 1): bounded, so
    /// a scan does not starve the table's other readers.
    ///
    /// See [the example](Scan#example).
    pub fn concurrency(mut self, segments: usize) -> Self {
        self.concurrency = segments.max(1);
        self
    }

    /// At most `size` items read per request (DynamoDB also stops at 1 MB).
    ///
    /// See [the example](Scan#example).
    pub fn page_size(mut self, size: usize) -> Self {
        self.page_size = Some(size);
        self
    }

    /// What to do with items of a type the collection does not hold
    /// (default for a scan: [`UnknownItems::Filter`], not returned).
    ///
    /// See [the example](Scan#example).
    pub fn on_unknown(mut self, policy: UnknownItems) -> Self {
        self.unknown = policy;
        self
    }

    /// Also return items past their time to live that DynamoDB has not
    /// deleted yet, when `include` is true (hidden by default).
    ///
    /// See [the example](Scan#example).
    pub fn include_expired(mut self, include: bool) -> Self {
        self.include_expired = include;
        self
    }

    /// Resume segment `segment` where a previous scan (with the same
    /// segmentation) stopped: after `cursor`, or — `None` — not at all,
    /// the segment being done. Segments not named start from the beginning.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use std::collections::HashMap;
    /// # use futures_util::TryStreamExt;
    /// # use ddb_entity::{Cursor, Db, Entity, local::LocalDynamo, op::ScanPage};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "DEVICE#{id}", sk = "DEVICE")]
    /// struct Device { id: u32 }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// for id in 0..30 {
    ///     db.put(&Device { id }).await?;
    /// }
    /// // A job that checkpoints after each page, and stops after three.
    /// let mut checkpoint: HashMap<u32, Option<Cursor>> = HashMap::new();
    /// let mut seen = 0;
    /// let mut pages = Box::pin(db.scan().segments(2).page_size(5).pages::<Vec<Device>>());
    /// for _ in 0..3 {
    ///     let page = pages.try_next().await?.unwrap();
    ///     seen += page.items.len();
    ///     checkpoint.insert(page.segment, page.cursor);
    /// }
    /// drop(pages);
    /// // The next run goes on from the checkpoint.
    /// let mut scan = db.scan().segments(2).page_size(5);
    /// for (segment, cursor) in checkpoint {
    ///     scan = scan.resume(segment, cursor);
    /// }
    /// let rest: Vec<Device> = scan.all().await?;
    /// assert_eq!(seen + rest.len(), 30);
    /// # Ok(())
    /// # }
    /// ```
    pub fn resume(mut self, segment: u32, cursor: Option<Cursor>) -> Self {
        self.resume.insert(segment, cursor);
        self
    }

    /// Read only segment `segment` of `total` (`0 <= segment < total`):
    /// one worker's share of a scan split among workers, each running its
    /// own (DynamoDB assigns every item to exactly one segment). Resume it
    /// with [`resume`](Self::resume) of that segment.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "DEVICE#{id}", sk = "DEVICE")]
    /// struct Device { id: u32 }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// for id in 0..20 {
    ///     db.put(&Device { id }).await?;
    /// }
    /// // Three workers, each its own segment: every device exactly once.
    /// let mut seen = 0;
    /// for worker in 0..3 {
    ///     seen += db.scan().segment(worker, 3).all::<Device>().await?.len();
    /// }
    /// assert_eq!(seen, 20);
    /// # Ok(())
    /// # }
    /// ```
    pub fn segment(mut self, segment: u32, total: u32) -> Self {
        self.segments = total;
        self.only = Some(segment);
        self
    }

    /// Return at most `limit` items in all, over every segment read: the
    /// collection's items, not the items read (items of other types,
    /// foreign, untyped and expired items, and items a filter drops are
    /// read past). Segments are read in order, so which items a limited
    /// scan returns is the segments' order, not a sort order.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "DEVICE#{id}", sk = "DEVICE")]
    /// struct Device { id: u32 }
    ///
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "SITE#{id}", sk = "SITE")]
    /// struct Site { id: u32 }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// for id in 0..10 {
    ///     db.put(&Device { id }).await?;
    ///     db.put(&Site { id }).await?;
    /// }
    /// // Sites are read too, and never counted.
    /// let five: Vec<Device> = db.scan().segments(2).page_size(3).limit(5).all().await?;
    /// assert_eq!(five.len(), 5);
    /// # Ok(())
    /// # }
    /// ```
    pub fn limit(mut self, limit: usize) -> Self {
        self.limit = Some(limit);
        self
    }

    /// Read only these attributes of each item, plus the keys, the type
    /// and the time-to-live attributes (see
    /// [`Query::projection`](crate::read::Query::projection)).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "DEVICE#{id}", sk = "DEVICE")]
    /// struct Device { id: u32, #[serde(default)] firmware: String }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// db.put(&Device { id: 1, firmware: "x".repeat(1000) }).await?;
    /// let ids: Vec<Device> = db.scan().projection(["id"]).all().await?;
    /// assert_eq!((ids[0].id, ids[0].firmware.as_str()), (1, ""));
    /// # Ok(())
    /// # }
    /// ```
    pub fn projection(mut self, attributes: impl IntoIterator<Item = &'static str>) -> Self {
        self.projection = Some(attributes.into_iter().collect());
        self
    }

    /// Skip the items that do not decode — a field missing or of another
    /// type, keys that are not the decoded value's
    /// ([`ErrorKind::Decode`](crate::error::ErrorKind::Decode),
    /// [`KeyMismatch`](crate::error::ErrorKind::KeyMismatch),
    /// [`AmbiguousKey`](crate::error::ErrorKind::AmbiguousKey)) — handing
    /// each one's error (which names its key) to `report`, and go on: for
    /// operations work over a table other code writes too. By default a
    /// typed scan fails at the first such item.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use std::sync::{Arc, Mutex};
    /// # use aws_sdk_dynamodb::types::AttributeValue::S;
    /// # use ddb_entity::{Db, Entity, ErrorKind, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "DEVICE#{id}", sk = "DEVICE")]
    /// struct Device { id: u32, firmware: String }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// db.put(&Device { id: 1, firmware: "2.1".into() }).await?;
    /// // Another tool's `Device` without its firmware.
    /// db.client().put_item().table_name(db.table_name())
    ///     .item("PK", S("DEVICE#2".into())).item("SK", S("DEVICE".into()))
    ///     .item("_type", S("device".into())).send().await?;
    ///
    /// let err = db.scan().all::<Device>().await.unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::Decode);
    /// let skipped = Arc::new(Mutex::new(Vec::new()));
    /// let log = Arc::clone(&skipped);
    /// let devices: Vec<Device> = db
    ///     .scan()
    ///     .on_undecodable(move |err| log.lock().unwrap().push(err.kind()))
    ///     .all()
    ///     .await?;
    /// assert_eq!(devices.len(), 1);
    /// assert_eq!(*skipped.lock().unwrap(), [ErrorKind::Decode]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn on_undecodable(mut self, report: impl Fn(Error) + Send + Sync + 'db) -> Self {
        self.report = Some(Arc::new(report));
        self
    }

    /// Every item of every segment, up to the limit, into one collection;
    /// the first error of any segment is the scan's error (never a partial
    /// result).
    ///
    /// See [the example](Scan#example).
    pub async fn collect<C: Collection<Table = I::Table>>(self) -> Result<C> {
        finish::collect(self).await
    }

    /// The first item the scan returns (in segment order), or `None`:
    /// whole pages until one is found.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, ErrorKind, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "DEVICE#{id}", sk = "DEVICE")]
    /// struct Device { id: u32 }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// db.put(&Device { id: 1 }).await?;
    /// assert_eq!(db.scan().first::<Device>().await?.map(|d| d.id), Some(1));
    /// assert_eq!(db.scan().one::<Device>().await?.map(|d| d.id), Some(1));
    /// db.put(&Device { id: 2 }).await?;
    /// let err = db.scan().one::<Device>().await.unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::MoreThanOne);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn first<T>(self) -> Result<Option<T>>
    where
        T: CollectionItem<Table = I::Table>,
    {
        finish::first(self).await
    }

    /// The one item the scan returns, `None` if none, and
    /// [`ErrorKind::MoreThanOne`](crate::error::ErrorKind::MoreThanOne) if
    /// more (see [`first`](Self::first) for an example).
    ///
    /// See [the example](Scan#example).
    pub async fn one<T>(self) -> Result<Option<T>>
    where
        T: CollectionItem<Table = I::Table>,
    {
        finish::one(self).await
    }

    /// [`collect`](Scan::collect) into a `Vec<E>` (`E` an entity or a
    /// `#[derive(Collection)]` enum).
    ///
    /// See [the example](Scan#example).
    pub async fn all<E>(self) -> Result<Vec<E>>
    where
        Vec<E>: Collection<Table = I::Table>,
    {
        self.collect().await
    }

    /// How many items the scan selects (`Select=COUNT`, every segment):
    /// the filters', and unless [`include_expired`](Scan::include_expired)
    /// only items not past their time to live. Without a filter, items of
    /// every type count; with one, only the items of the filters' entities
    /// that satisfy them (exactly what [`all`](Scan::all) of that entity
    /// returns).
    ///
    /// See [the example](Scan#example).
    pub async fn count(self) -> Result<usize> {
        finish::count(self).await
    }

    /// The pages as a `Stream`, one per request of a segment, in the
    /// order they arrive (segments interleave; each segment's pages come in
    /// its order): at most [`concurrency`](Scan::concurrency) segments
    /// have a request in flight, a segment's next request is sent once its
    /// last page was handed on. Each page says its segment and where that
    /// segment stands (its cursor, for [`resume`](Scan::resume)); up to the
    /// [`limit`](Scan::limit), the last page cut at it. The stream ends
    /// when every segment is done, or after the first error, which names
    /// nothing partial: resume from the cursors received.
    ///
    /// See [the example](Scan#example), and [`resume`](Scan::resume) for a
    /// job that checkpoints.
    pub fn pages<C: Collection<Table = I::Table>>(
        self,
    ) -> impl Stream<Item = Result<ScanPage<C>>> + Send + 'db {
        // Lane `i` reads the `i`-th of these: `start` makes its lanes in
        // this order.
        let segments = self.lane_segments_of();
        finish::lane_pages(self).map_ok(move |page| ScanPage {
            items: page.items,
            segment: segments.get(page.lane).copied().unwrap_or_default(),
            cursor: page.cursor,
            scanned_count: page.scanned,
        })
    }

    /// One page of the scan, read as one listing, segment after segment:
    /// up to the [`page_size`](Scan::page_size) (filled from more requests
    /// of the segment it is in, and the next ones, if items are left out)
    /// or, without one, the items of one round of requests (the next
    /// [`concurrency`](Scan::concurrency) segments read at once); its
    /// cursor resumes every segment where the page left it, with
    /// [`after`](Scan::after).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Cursor, Db, Entity, local::LocalDynamo, op::Page};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "DEVICE#{id}", sk = "DEVICE")]
    /// struct Device { id: u32 }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// for id in 0..25 {
    ///     db.put(&Device { id }).await?;
    /// }
    /// // An admin listing over 4 segments, 10 devices a page, each page a
    /// // new request resumed from the cursor's text.
    /// let mut seen = 0;
    /// let mut cursor: Option<Cursor> = None;
    /// loop {
    ///     let mut scan = db.scan().segments(4).page_size(10);
    ///     if let Some(at) = cursor.take() {
    ///         scan = scan.after(at.to_string().parse()?);
    ///     }
    ///     let page: Page<Vec<Device>> = scan.page().await?;
    ///     seen += page.items.len();
    ///     match page.cursor {
    ///         Some(next) => cursor = Some(next),
    ///         None => break,
    ///     }
    /// }
    /// assert_eq!(seen, 25);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn page<C: Collection<Table = I::Table>>(self) -> Result<Page<C>> {
        finish::page(self).await
    }

    /// Resume after a [`Page::cursor`] of the same scan (same index and
    /// segmentation): every segment from where that page left it. A
    /// segment's own cursor ([`ScanPage::cursor`]) is taken too, as
    /// [`resume`](Scan::resume) of its segment. Checked before anything is
    /// sent: a cursor of another index or segmentation, or a query's, is
    /// refused ([`ErrorKind::InvalidCursor`](crate::error::ErrorKind::InvalidCursor)).
    ///
    /// See [the example](Scan#example), and [`page`](Scan::page) for a
    /// listing resumed page after page.
    pub fn after(mut self, cursor: Cursor) -> Self {
        self.cursor = Some(cursor);
        self
    }

    /// Send a request refused by throttling or failed transiently again,
    /// after a pause with full jitter, within `retry`'s budget (beyond the
    /// SDK's own retries; none by default): for a long scan that must not
    /// stop at a burst of throttling. Each attempt is metered and counted.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use std::time::Duration;
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo, op::BatchRetry};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "DEVICE#{id}", sk = "DEVICE")]
    /// struct Device { id: u32 }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// db.put(&Device { id: 1 }).await?;
    /// let patient = BatchRetry::new().max_attempts(20).max_delay(Duration::from_secs(5));
    /// let devices: Vec<Device> = db.scan().segments(2).retry(patient).all().await?;
    /// assert_eq!(devices.len(), 1);
    /// # Ok(())
    /// # }
    /// ```
    pub fn retry(mut self, retry: BatchRetry) -> Self {
        self.retry = Some(retry);
        self
    }

    /// The segment of each lane, once the lanes are planned: the segments
    /// read, in order, those of a resumed scan included.
    fn lane_segments_of(&self) -> Vec<u32> {
        (0..self.segments)
            .filter(|segment| self.only.is_none_or(|only| only == *segment))
            .collect()
    }

    /// Every item as DynamoDB returns it, page by page with its segment
    /// and whether that segment is done: the same engine (segments,
    /// concurrency, page size, retries, metering) without typing, time to
    /// live or key verification, for the survey, which must see items that
    /// decode as nothing. Filters and cursors are not used.
    #[cfg(feature = "survey")]
    pub(crate) fn raw_pages(
        mut self,
    ) -> impl Stream<Item = Result<(u32, Vec<Item>, bool)>> + Send + 'db {
        self.raw = true;
        let segments = self.lane_segments_of();
        finish::lane_pages::<_, RawItems>(self).map_ok(move |page| {
            let segment = segments.get(page.lane).copied().unwrap_or_default();
            (segment, page.items.0, page.cursor.is_none())
        })
    }

    /// Every segment's request (one rendered for all, each lane naming
    /// its segment) and where each segment starts, for a collection of
    /// `read` (`None`: a count).
    fn lanes(&self, read: Option<Reading>) -> Result<(Rendered, Vec<(u32, ShardPosition)>)> {
        let schema = I::Table::SCHEMA;
        if !(1..=MAX_SEGMENTS).contains(&self.segments) {
            return Err(Repr::InvalidExpression {
                what: "a scan".to_owned(),
                reason: format!(
                    "it asks for {} segments; DynamoDB takes 1 to {MAX_SEGMENTS}",
                    self.segments
                ),
            }
            .into());
        }
        if let Some(only) = self.only
            && only >= self.segments
        {
            return Err(Repr::InvalidExpression {
                what: "a scan".to_owned(),
                reason: format!("segment {only} is not one of its {}", self.segments),
            }
            .into());
        }
        let count = read.is_none();
        let mut p = Placeholders::default();
        let filter = if self.raw {
            None
        } else {
            self.filters.check(&schema, None)?;
            let mut filter = self
                .filters
                .render(&schema, self.unknown, read, &[], &mut p)?;
            if count && !self.include_expired {
                // Counted on the server, where reads hide them here.
                if let Some(unexpired) = unexpired(&schema, self.db.now(), &mut p) {
                    filter = Some(match filter {
                        Some(f) => format!("({f}) AND ({unexpired})"),
                        None => unexpired,
                    });
                }
            }
            filter
        };
        // A count returns no item: DynamoDB refuses a projection with it.
        let projection = self
            .projection
            .as_ref()
            .filter(|_| !count && !self.raw)
            .map(|attributes| projection(&schema, I::KEYS, &[], attributes, &mut p));
        let rendered = Rendered {
            operation: Operation::Scan,
            index: I::INDEX_NAME,
            filter,
            projection,
            names: p.names_or_none(),
            values: p.values_or_none(),
            consistent: self.consistent,
            count,
        };
        // What DynamoDB's LastEvaluatedKey holds: the index's keys, and on
        // a global secondary index the table's too.
        let key_schema = scan_keys::<I>();
        let mut starts: HashMap<u32, ShardPosition> = HashMap::new();
        for (segment, cursor) in &self.resume {
            starts.insert(*segment, self.segment_start(*segment, cursor.as_ref())?);
        }
        if let Some(cursor) = &self.cursor {
            match cursor.scan_segment() {
                // A segment's own cursor: `resume` of that segment.
                Some(segment) => {
                    starts.insert(segment, self.segment_start(segment, Some(cursor))?);
                }
                None => {
                    let positions =
                        cursor.resume_segments(I::INDEX_NAME, self.segments, &key_schema)?;
                    starts.extend(positions);
                }
            }
        }
        let lanes: Vec<(u32, ShardPosition)> = self
            .lane_segments_of()
            .into_iter()
            .map(|segment| {
                let start = starts.remove(&segment).unwrap_or(ShardPosition::Start);
                (segment, start)
            })
            .collect();
        if let Some(segment) = starts.keys().min() {
            return Err(Repr::InvalidCursor {
                fault: CursorFault::Mismatch,
                reason: format!(
                    "segment {segment} is not one of the segments this scan reads (of {})",
                    self.segments
                ),
            }
            .into());
        }
        Ok((rendered, lanes))
    }

    /// Where `segment` starts when resumed from `cursor` (`None`: done).
    fn segment_start(&self, segment: u32, cursor: Option<&Cursor>) -> Result<ShardPosition> {
        let Some(cursor) = cursor else {
            return Ok(ShardPosition::Done);
        };
        let key_schema = scan_keys::<I>();
        let start = cursor.scan_start_key(I::INDEX_NAME, segment, self.segments, &key_schema)?;
        Ok(ShardPosition::After(start))
    }
}

/// Strong consistency, which only the table offers.
impl<T: Table> Scan<'_, Primary<T>> {
    /// Strongly consistent reads when `consistent` is true (twice the read
    /// capacity; the table only: an index is eventually consistent).
    ///
    /// See [`Scan`'s example](Scan#example).
    pub fn consistent_read(mut self, consistent: bool) -> Self {
        self.consistent = consistent;
        self
    }
}

/// The items of a raw scan's page, as DynamoDB returned them (the
/// survey's): every item kept.
#[cfg(feature = "survey")]
#[derive(Default)]
struct RawItems(Vec<Item>);

#[cfg(feature = "survey")]
impl Sink for RawItems {
    fn reading() -> Reading {
        Reading::raw()
    }

    fn keep(&mut self, item: Found, _: UnknownItems) -> Result<bool> {
        self.0.push(item.into_item());
        Ok(true)
    }
}

impl<'db, I: QueryIndex> Source<'db> for Scan<'db, I> {
    type Table = I::Table;

    fn unknown(&self) -> UnknownItems {
        self.unknown
    }

    fn page_size(&self) -> Option<usize> {
        self.page_size
    }

    fn span(&self, collection: &'static str) -> tracing::Span {
        tracing::info_span!(
            "ddb.scan",
            table = self.db.table_name(),
            index = I::INDEX_NAME.unwrap_or("(table)"),
            collection,
            segments = self.segments,
            filtered = !self.filters.is_empty(),
            requests = tracing::field::Empty,
            items = tracing::field::Empty,
            scanned = tracing::field::Empty,
            consumed_rcu = tracing::field::Empty,
            consumed_wcu = tracing::field::Empty,
        )
    }

    fn start(&mut self, read: Option<Reading>) -> Result<Run<'db>> {
        let (rendered, starts) = self.lanes(read)?;
        let rendered = Arc::new(rendered);
        let short = !self.raw && self.filters.drop_items(&I::Table::SCHEMA, self.unknown);
        let mut lanes = Vec::with_capacity(starts.len());
        self.lane_segments.clear();
        for (segment, position) in starts {
            let named = Named::Segment {
                number: segment,
                count: self.segments,
            };
            lanes.push(Lane::new(Arc::clone(&rendered), named, position, short));
            self.lane_segments.push(segment);
        }
        let mut keys = scan_keys::<I>();
        keys.sort_unstable();
        keys.dedup();
        let setup = Setup {
            target: Target::of(self.db),
            schema: I::Table::SCHEMA,
            include_expired: self.include_expired,
            found_by: I::INDEX_NAME,
            raw: self.raw,
            bytes: read.is_some_and(|read| read.bytes),
            retry: self.retry,
            order: Order::Lanes,
            keys,
            concurrency: self.concurrency,
            page_size: self.page_size,
            floor: None,
            empty: false,
            limit: self.limit,
        };
        Ok(Run::new(setup, lanes))
    }

    /// Where every segment stands, as one cursor ([`Scan::after`]).
    fn cursor(&self, run: &Run<'db>) -> Result<Option<Cursor>> {
        let Some(positions) = run.positions() else {
            return Ok(None);
        };
        let positions: Vec<(u32, ShardPosition)> =
            self.lane_segments.iter().copied().zip(positions).collect();
        Cursor::at_segments(I::INDEX_NAME, self.segments, &positions).map(Some)
    }

    /// Where one segment stands ([`ScanPage::cursor`], [`Scan::resume`]).
    fn lane_cursor(&self, run: &Run<'db>, lane: usize) -> Result<Option<Cursor>> {
        match run.lane_position(lane) {
            Some(ShardPosition::After(key)) => {
                let segment = self.lane_segments[lane];
                Cursor::for_scan(I::INDEX_NAME, segment, self.segments, &key).map(Some)
            }
            // Not started: only a lane never asked stands there, and no
            // page of it is handed out.
            Some(ShardPosition::Start) | Some(ShardPosition::Done) | None => Ok(None),
        }
    }

    fn not_unique(&self, entity: &'static str) -> Error {
        Repr::NotUnique {
            entity,
            index: I::INDEX_NAME,
            partition: "(scan)".to_owned(),
        }
        .into()
    }

    fn undecodable(&self, err: Error) -> Result<()> {
        match &self.report {
            Some(report) => {
                report(err);
                Ok(())
            }
            None => Err(err),
        }
    }
}

/// Where a scan that skips undecodable items reports them.
type Report<'db> = Arc<dyn Fn(Error) + Send + Sync + 'db>;

/// What DynamoDB's `LastEvaluatedKey` holds on a scan of `I`: the index's
/// keys, and on a global secondary index the table's too.
fn scan_keys<I: QueryIndex>() -> Vec<&'static str> {
    [I::KEYS, I::Table::SCHEMA.primary]
        .iter()
        .flat_map(|keys| [Some(keys.partition_key), keys.sort_key])
        .flatten()
        .collect()
}
