//! Query: one partition of the table or of an index, typed sort-key
//! conditions, transparent pagination, and collections of mixed types.

use aws_sdk_dynamodb::types::AttributeValue;
use futures_util::stream::Stream;

// A query as a source of the read engine: its lanes (one partition, or
// one per shard), its requests and cursors.
#[path = "query/source.rs"]
mod source;

pub(crate) use source::projection;

use super::engine::finish::{self, Page};
use super::filter::{Filters, Reading, key_names};
use crate::collection::{Collection, CollectionItem, UnknownItems};
use crate::cursor::{Cursor, Scope};
use crate::db::Db;
use crate::entity::{Entity, Partition, RangeCondition, SortKey, SortRange};
use crate::error::Result;
use crate::expr::{Condition, Placeholders};
use crate::table::{KeySchema, Primary, QueryIndex, SortedIndex, Table};

use super::plan::{ReadOperation, ReadPlan, SortCondition};

/// A Query on one partition of index `I` ([`Primary`](crate::table::Primary) for
/// the table). Made by [`Db::query`]; finish with
/// [`collect`](Query::collect) (every page, up to the limit, into a
/// [`Collection`]), [`page`](Query::page) (one request) or
/// [`pages`](Query::pages) (a `Stream` of pages).
///
/// Sort-key conditions take the typed builders' [`SortKey`]s, so they are
/// always of the same index and cut coarse to fine; a prefix used as a
/// bound covers everything under it (`sk_between(March, April)` includes
/// the last order of April 30), and an open range (`sk_gt`, `sk_lt`, …)
/// stays inside the key space of the entity whose key it was built from,
/// so `limit` counts that entity's items only. [`SortRange`] states what
/// each condition selects, on a collection and at the empty cut too.
///
/// **Retrying** is safe: a query changes nothing; after a failed page,
/// resume from the last [`Cursor`] received.
///
/// # Example
///
/// Every sort-key condition, setting and way to finish (the others —
/// `limit`, `filter`, `projection`, `count`, `first`, `one`,
/// `shard_concurrency`, `sk_span` — have their own):
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use futures_util::TryStreamExt;
/// # use ddb_entity::{Db, Entity, SortRange, UnknownItems, local::LocalDynamo, op::{Page, ReadOperation}};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// #[derive(Entity, Serialize, Deserialize, Debug)]
/// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{placed}#{order_id}")]
/// struct Order { customer_id: u64, placed: u32, order_id: u64 }
///
/// # let dynamo = LocalDynamo::start().await?;
/// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// # db.create_table_if_missing().await?;
/// for (placed, order_id) in [(20260301, 1), (20260301, 2), (20260315, 3), (20260402, 4)] {
///     db.put(&Order { customer_id: 42, placed, order_id }).await?;
/// }
/// let orders = || db.query(Order::partition(42).unwrap());
/// let ids = |orders: Vec<Order>| orders.iter().map(|o| o.order_id).collect::<Vec<_>>();
/// let day = |placed: u32| Order::sk().placed(placed);
///
/// // Sort-key conditions: a whole key, a prefix, a range, open ranges.
/// assert_eq!(ids(orders().sk_eq(day(20260301).order_id(2)).all().await?), [2]);
/// assert_eq!(ids(orders().sk_begins_with(day(20260301)).all().await?), [1, 2]);
/// assert_eq!(ids(orders().sk_between(day(20260301), day(20260315)).all().await?), [1, 2, 3]);
/// assert_eq!(ids(orders().sk_lt(day(20260315)).all().await?), [1, 2]);
/// assert_eq!(ids(orders().sk_le(day(20260315)).all().await?), [1, 2, 3]);
/// assert_eq!(ids(orders().sk_gt(day(20260315)).all().await?), [4]);
/// assert_eq!(ids(orders().sk_ge(day(20260315)).all().await?), [3, 4]);
/// assert_eq!(ids(orders().sk_range(SortRange::gt(day(20260301))?).all().await?), [3, 4]);
///
/// // Newest first, two a request, an unknown type an error, expired items hidden.
/// let newest: Vec<Order> = orders()
///     .reverse(true)
///     .page_size(2)
///     .on_unknown(UnknownItems::Error)
///     .include_expired(false)
///     .collect()
///     .await?;
/// assert_eq!(ids(newest), [4, 3, 2, 1]);
///
/// // Page by page: one page and the rest after its cursor, or a stream.
/// let first: Page<Vec<Order>> = orders().page_size(3).page().await?;
/// let rest: Vec<Order> = orders().after(first.cursor.unwrap()).all().await?;
/// assert_eq!((first.items.len(), rest.len()), (3, 1));
/// let pages: Vec<Page<Vec<Order>>> = orders().page_size(3).pages().try_collect().await?;
/// assert_eq!(pages.iter().map(|p| p.items.len()).collect::<Vec<_>>(), [3, 1]);
///
/// // What it would send, without sending it.
/// let plan = orders().sk_gt(day(20260315)).plan()?;
/// assert_eq!((plan.operation, plan.partition.as_str()), (ReadOperation::Query, "CUST#42"));
/// # Ok(())
/// # }
/// ```
#[must_use = "nothing happens until the query is sent"]
pub struct Query<'db, I: QueryIndex> {
    db: &'db Db<I::Table>,
    partition: Partition<I>,
    condition: Option<Result<SortRange<I>>>,
    reverse: bool,
    limit: Option<usize>,
    page_size: Option<usize>,
    consistent: bool,
    unknown: UnknownItems,
    cursor: Option<Cursor>,
    include_expired: bool,
    projection: Option<Vec<&'static str>>,
    filters: Filters,
    /// Shard requests in flight at once, for a sharded partition.
    shard_concurrency: Option<usize>,
    /// Once started: the sort-key condition and the filter's canonical
    /// text, which its cursors are made in.
    started: Option<Started>,
}

impl<T: Table> Db<T> {
    /// Starts a Query on `partition`, which names its index by type:
    /// `Order::partition(42)?` queries the table, `Order::gsi1_partition(..)?`
    /// the index `Gsi1`.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{placed}#{order_id}")]
    /// struct Order { customer_id: u64, order_id: u64, placed: u32 }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// for (order_id, placed) in [(1, 20260301), (2, 20260315), (3, 20260402)] {
    ///     db.put(&Order { customer_id: 42, order_id, placed }).await?;
    /// }
    /// // March, newest first.
    /// let march: Vec<Order> = db
    ///     .query(Order::partition(42)?)
    ///     .sk_between(Order::sk().placed(20260301u32), Order::sk().placed(20260331u32))
    ///     .reverse(true)
    ///     .collect()
    ///     .await?;
    /// assert_eq!(march.iter().map(|o| o.order_id).collect::<Vec<_>>(), [2, 1]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn query<I: QueryIndex<Table = T>>(&self, partition: Partition<I>) -> Query<'_, I> {
        Query {
            db: self,
            partition,
            condition: None,
            reverse: false,
            limit: None,
            page_size: None,
            consistent: false,
            unknown: UnknownItems::default(),
            cursor: None,
            include_expired: false,
            projection: None,
            filters: Filters::default(),
            shard_concurrency: None,
            started: None,
        }
    }
}

/// Sort-key conditions, on indexes that have a sort key. Each selects one
/// [`SortRange`]; see there what each means, on a collection and at the
/// empty cut. A later condition replaces an earlier one.
impl<'db, I: SortedIndex> Query<'db, I> {
    fn condition(mut self, range: Result<SortRange<I>>) -> Self {
        self.condition = Some(range);
        self
    }

    /// The keys `sk` denotes: a whole key alone, a prefix everything under
    /// it (the same as [`sk_begins_with`](Self::sk_begins_with)).
    ///
    /// See [the example](Query#example).
    pub fn sk_eq(self, sk: impl Into<SortKey<I>>) -> Self {
        self.condition(SortRange::begins_with(sk))
    }

    /// Everything under a prefix. A whole key matches only itself, never a
    /// longer value of its last component: `last("Smith").first("Ann")`
    /// is not "Anna"; only a string-prefix cut (`first_prefix(StrPrefix("Ann"))`)
    /// matches part of a component.
    ///
    /// See [the example](Query#example).
    pub fn sk_begins_with(self, prefix: impl Into<SortKey<I>>) -> Self {
        self.condition(SortRange::begins_with(prefix))
    }

    /// From `low` through everything under `high`, both included.
    ///
    /// See [the example](Query#example).
    pub fn sk_between(self, low: impl Into<SortKey<I>>, high: impl Into<SortKey<I>>) -> Self {
        self.condition(SortRange::between(low, high))
    }

    /// The entity's keys before `sk` and everything under it.
    ///
    /// See [the example](Query#example).
    pub fn sk_lt(self, sk: impl Into<SortKey<I>>) -> Self {
        self.condition(SortRange::lt(sk))
    }

    /// The entity's keys up to and including everything under `sk`.
    ///
    /// See [the example](Query#example).
    pub fn sk_le(self, sk: impl Into<SortKey<I>>) -> Self {
        self.condition(SortRange::le(sk))
    }

    /// The entity's keys after `sk` and everything under it.
    ///
    /// See [the example](Query#example).
    pub fn sk_gt(self, sk: impl Into<SortKey<I>>) -> Self {
        self.condition(SortRange::gt(sk))
    }

    /// The entity's keys from `sk` (and everything under it) on.
    ///
    /// See [the example](Query#example).
    pub fn sk_ge(self, sk: impl Into<SortKey<I>>) -> Self {
        self.condition(SortRange::ge(sk))
    }

    /// Everything `a` and `b` denote and every sort key between them,
    /// whichever sorts first ([`SortRange::span`]): one contiguous range
    /// across the members of a collection. It is how a collection read
    /// says "this member and those next to it": the classic **customer plus
    /// their last ten orders** is one Query of the profile and the orders
    /// before it, newest first, the limit counting the collection's items
    /// (eleven: the customer and ten orders; items of other types in the
    /// range — a `PAYMENT#` between `ORDER#` and `PROFILE` — are read past,
    /// never counted).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Collection, Db, Entity, ErrorKind, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// struct Customer { id: u64, name: String }
    ///
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ADDR#{n}")]
    /// struct Address { customer_id: u64, n: u32 }
    ///
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{placed}#{id}")]
    /// struct Order { customer_id: u64, placed: u32, id: u64 }
    ///
    /// #[derive(Collection, Debug)]
    /// struct Recent { customer: Option<Customer>, orders: Vec<Order> }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// db.put(&Customer { id: 42, name: "Ada".into() }).await?;
    /// db.put(&Address { customer_id: 42, n: 1 }).await?;
    /// for id in 1..=15 {
    ///     db.put(&Order { customer_id: 42, placed: 20260300 + id as u32, id }).await?;
    /// }
    /// // PROFILE, then ORDER#… newest first: one Query, `SK BETWEEN "ORDER#" AND "PROFILE"`.
    /// let recent: Recent = db
    ///     .query(Customer::partition(42)?)
    ///     .sk_span(Customer::sk(), Order::sk())
    ///     .reverse(true)
    ///     .limit(11)
    ///     .collect()
    ///     .await?;
    /// assert_eq!(recent.customer.unwrap().name, "Ada");
    /// assert_eq!(recent.orders.iter().map(|o| o.id).collect::<Vec<_>>(), (6..=15).rev().collect::<Vec<_>>());
    ///
    /// // The open range that once read the same now reaches the profile
    /// // only: into this collection it is refused, saying what to use.
    /// let err = db
    ///     .query(Customer::partition(42)?)
    ///     .sk_le(Customer::sk())
    ///     .reverse(true)
    ///     .limit(11)
    ///     .collect::<Recent>()
    ///     .await
    ///     .unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::InvalidExpression);
    /// assert!(err.to_string().contains("sk_span"), "{err}");
    /// # Ok(())
    /// # }
    /// ```
    pub fn sk_span(self, a: impl Into<SortKey<I>>, b: impl Into<SortKey<I>>) -> Self {
        self.condition(SortRange::span(a, b))
    }

    /// The sort keys of `range`, built with [`SortRange`]'s constructors.
    ///
    /// See [the example](Query#example).
    pub fn sk_range(mut self, range: SortRange<I>) -> Self {
        self.condition = Some(Ok(range));
        self
    }
}

impl<'db, I: QueryIndex> Query<'db, I> {
    /// Descending sort-key order ("newest first") when `reverse` is true.
    ///
    /// See [the example](Query#example).
    pub fn reverse(mut self, reverse: bool) -> Self {
        self.reverse = reverse;
        self
    }

    /// Return at most `limit` items in all: exactly `limit` items of the
    /// asked type(s) if the range holds that many, whatever else it holds —
    /// items of other types, foreign or untyped items, expired items and
    /// items a [`filter`](Self::filter) drops are read past, never counted
    /// (the engine keeps reading until it has `limit` or the range ends).
    /// The cursor of a limited page resumes right after its last item.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "DOC#{doc}", sk = "REV#{updated_at}")]
    /// struct Revision { doc: u32, updated_at: u32 }
    ///
    /// /// Shares the partition, and sorts after every revision.
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "DOC#{doc}", sk = "TITLE")]
    /// struct Title { doc: u32, text: String }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// db.put(&Title { doc: 1, text: "Notes".into() }).await?;
    /// for updated_at in [100, 200, 300] {
    ///     db.put(&Revision { doc: 1, updated_at }).await?;
    /// }
    /// // The title is read first (newest first) and passed over: two revisions.
    /// let latest: Vec<Revision> = db.query(Revision::partition(1)?).reverse(true).limit(2).all().await?;
    /// assert_eq!(latest.iter().map(|r| r.updated_at).collect::<Vec<_>>(), [300, 200]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn limit(mut self, limit: usize) -> Self {
        self.limit = Some(limit);
        self
    }

    /// At most `size` items per request (DynamoDB also stops at 1 MB).
    ///
    /// See [the example](Query#example).
    pub fn page_size(mut self, size: usize) -> Self {
        self.page_size = Some(size);
        self
    }

    /// What to do with items of a type the collection does not hold
    /// (default: skip them with a `tracing` warning).
    ///
    /// See [the example](Query#example).
    pub fn on_unknown(mut self, policy: UnknownItems) -> Self {
        self.unknown = policy;
        self
    }

    /// Keep only the items of `E` for which `condition` holds, typed with
    /// the same [`Condition`]s as writes (a `FilterExpression`). Items of
    /// other entity types pass untouched: a condition on an `Order`'s
    /// fields says nothing about the `Customer` sharing its partition.
    /// Several filters must all hold.
    ///
    /// DynamoDB applies a filter **after** reading: the items it drops
    /// were read and cost read capacity (the engine reads on until
    /// [`limit`](Self::limit) or the page size is met, so a sparse filter
    /// costs pages), a page without a page size can come back with fewer
    /// items (even none) while the partition has more, and
    /// [`Page::scanned_count`] says how many were read. A filter saves
    /// bandwidth, never capacity: an access pattern that needs one on
    /// every call wants a key (a sort-key range or a sparse index)
    /// instead. A filter on a key attribute is refused before sending —
    /// the key condition (`sk_…`) selects by key.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Collection, Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "CUST#{customer_id}", sk = "PROFILE")]
    /// struct Customer { customer_id: u64, name: String }
    ///
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}")]
    /// struct Order { customer_id: u64, order_id: u64, status: String }
    ///
    /// #[derive(Collection, Debug)]
    /// struct OpenOrders { customer: Option<Customer>, orders: Vec<Order> }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// db.put(&Customer { customer_id: 1, name: "Ada".into() }).await?;
    /// for (order_id, status) in [(1, "OPEN"), (2, "SHIPPED"), (3, "OPEN")] {
    ///     db.put(&Order { customer_id: 1, order_id, status: status.into() }).await?;
    /// }
    /// // The customer and her open orders: one Query, the shipped order dropped by DynamoDB.
    /// let view: OpenOrders = db
    ///     .query(Customer::partition(1)?)
    ///     .filter(Order::fields().status.equals("OPEN".into()))
    ///     .collect()
    ///     .await?;
    /// assert_eq!(view.customer.unwrap().name, "Ada");
    /// assert_eq!(view.orders.iter().map(|o| o.order_id).collect::<Vec<_>>(), [1, 3]);
    ///
    /// // `limit` counts the items that match, not the items read.
    /// let page = db
    ///     .query(Order::partition(1)?)
    ///     .sk_begins_with(Order::sk())
    ///     .filter(Order::fields().status.equals("OPEN".into()))
    ///     .limit(2)
    ///     .page::<Vec<Order>>()
    ///     .await?;
    /// assert_eq!((page.items.len(), page.scanned_count), (2, 3));
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// **On a table typed by key** (`typed_by: Key`, or an item without a
    /// type attribute under `KeyAndAttribute`) no attribute says an item's
    /// entity: "items of other types pass" is said from the keys, as
    /// `NOT (<E's key literals>) OR (<condition>)` — `begins_with(PK,
    /// "USER#") AND SK = "PROFILE"` for `pk = "USER#{email}", sk =
    /// "PROFILE"`. That is sent only where it is exact: when the key
    /// attributes it needs are not the ones the Query is keyed by
    /// (DynamoDB refuses a filter on those: so on an index, a
    /// [`Scan::filter`](crate::read::Scan::filter), or a multi-attribute
    /// index), and when no other entity the read can return makes keys
    /// that begin as `E`'s (`ORDER#{ts}#{id}` begins every
    /// `ORDER#{ts}#{id}#LINE#{n}`). Otherwise the read fails before any
    /// request with [`ErrorKind::AmbiguousFilter`](crate::error::ErrorKind::AmbiguousFilter),
    /// rather than send a filter that would drop the other entities'
    /// items. A read of `E` alone (a `Vec<E>`) takes any filter: the
    /// other entities' items are left out anyway. (A filtered
    /// [`count`](Self::count), which has no collection, counts only the
    /// items of the filters' entities that satisfy them.)
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Collection, Db, Entity, ErrorKind, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// ddb_entity::table! { pub struct Legacy { partition_key: "PK", sort_key: "SK", typed_by: Key } }
    ///
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = Legacy, pk = "USER#{email}", sk = "PROFILE")]
    /// struct User { email: String, status: String }
    ///
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = Legacy, pk = "USER#{email}", sk = "ORDER#{id}")]
    /// struct Order { email: String, id: u32, status: String }
    ///
    /// #[derive(Collection, Debug)]
    /// struct UserView { user: Option<User>, orders: Vec<Order> }
    ///
    /// #[derive(Collection, Debug)]
    /// enum Any { User(User), Order(Order) }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<Legacy>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// let email = || "ann@example.com".to_owned();
    /// db.put(&User { email: email(), status: "active".into() }).await?;
    /// db.put(&Order { email: email(), id: 1, status: "open".into() }).await?;
    /// let active = || User::fields().status.equals("active".into());
    ///
    /// // A Query of the table cannot name PK or SK in its filter: refused.
    /// let err = db.query(User::partition(email())?).filter(active()).collect::<UserView>().await;
    /// assert_eq!(err.unwrap_err().kind(), ErrorKind::AmbiguousFilter);
    /// // A scan can: the users by `SK = "PROFILE"`, the order untouched.
    /// let all: Vec<Any> = db.scan().filter(active()).all().await?;
    /// assert_eq!(all.len(), 2);
    /// # Ok(())
    /// # }
    /// ```
    pub fn filter<E: Entity<Table = I::Table>>(mut self, condition: Condition<E>) -> Self {
        self.filters.push(condition);
        self
    }

    /// Resume after a [`Page::cursor`] of the same query. The cursor is
    /// checked before anything is sent (see [`Cursor`]): an unsealed one
    /// must be of this index and partition; on a handle that seals its
    /// cursors, only one sealed for exactly this query (table, index,
    /// partition, sort-key condition, direction, filter), unexpired, is
    /// taken. Page size, limit, consistency and projection may differ from
    /// the query that made it.
    ///
    /// See [the example](Query#example).
    pub fn after(mut self, cursor: Cursor) -> Self {
        self.cursor = Some(cursor);
        self
    }

    /// Also return items past their time to live that DynamoDB has not
    /// deleted yet, when `include` is true (hidden by default, and then
    /// never counted towards `limit`).
    ///
    /// See [the example](Query#example).
    pub fn include_expired(mut self, include: bool) -> Self {
        self.include_expired = include;
        self
    }

    /// Read only these attributes of each item (a `ProjectionExpression`),
    /// plus the key and type attributes, which demultiplexing and cursors
    /// need. Decode into entity types whose other fields tolerate absence —
    /// `Option`s or `#[serde(default)]` — e.g. a summary type declared with
    /// the same key templates as the full entity:
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}")]
    /// struct Order { customer_id: u64, order_id: u64, total_cents: i64, notes: String }
    ///
    /// /// The same items (the same type, `order`), read without their notes.
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, type = "order", pk = "CUST#{customer_id}", sk = "ORDER#{order_id}")]
    /// struct OrderTotal { customer_id: u64, order_id: u64, total_cents: i64 }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// db.put(&Order { customer_id: 1, order_id: 7, total_cents: 999, notes: "x".repeat(10_000) }).await?;
    /// let totals: Vec<OrderTotal> = db
    ///     .query(OrderTotal::partition(1)?)
    ///     .projection(["customer_id", "order_id", "total_cents"])
    ///     .all()
    ///     .await?;
    /// assert_eq!(totals[0].total_cents, 999);
    /// # Ok(())
    /// # }
    /// ```
    pub fn projection(mut self, attributes: impl IntoIterator<Item = &'static str>) -> Self {
        self.projection = Some(attributes.into_iter().collect());
        self
    }

    /// What this Query would send, without sending it: the index, the one
    /// partition, the sort-key condition (an encoding error in a sort key
    /// is returned here, as `send` would), the filter (a filter on a key
    /// attribute is refused here, as `send` would), the projection and
    /// the flags. See [`ReadPlan`] for an example.
    ///
    /// See [the example](Query#example).
    pub fn plan(self) -> Result<ReadPlan> {
        let sort = match self.condition {
            None => SortCondition::All,
            Some(range) => SortCondition::from_range(range?.condition()),
        };
        let schema = &I::Table::SCHEMA;
        self.filters.check(schema, Some(I::KEYS))?;
        let filter = self
            .filters
            .text(schema, self.unknown, None, &key_names(I::KEYS))?;
        Ok(ReadPlan {
            operation: ReadOperation::Query,
            index: I::INDEX_NAME,
            keys: I::KEYS,
            partition: self.partition.into_string(),
            sort,
            filter,
            projection: self.projection,
            reverse: self.reverse,
            limit: self.limit,
            consistent: self.consistent,
        })
    }

    /// Every page, up to the limit, into one collection: a
    /// `#[derive(Collection)]` struct, a `Vec` of an entity, or a `Vec` of a
    /// `#[derive(Collection)]` enum. A partition under 1 MB costs one request.
    ///
    /// See [the example](Query#example).
    pub async fn collect<C: Collection<Table = I::Table>>(self) -> Result<C> {
        finish::collect(self).await
    }

    /// One request (over shards, one per shard, or up to
    /// [`page_size`](Self::page_size) items of the merged order): its items
    /// and the cursor to resume from.
    ///
    /// See [the example](Query#example).
    pub async fn page<C: Collection<Table = I::Table>>(self) -> Result<Page<C>> {
        finish::page(self).await
    }

    /// The pages as a `Stream`, one request each, up to the limit; the last
    /// page's cursor is `None` once the partition is exhausted.
    ///
    /// See [the example](Query#example).
    pub fn pages<C: Collection<Table = I::Table>>(
        self,
    ) -> impl Stream<Item = Result<Page<C>>> + Send + 'db {
        finish::pages(self)
    }

    /// How many items the query selects — the key condition and the
    /// filters, across every page up to the limit — without reading them
    /// back (`Select=COUNT`: the same read capacity as reading them, a
    /// fraction of the bytes). Without a filter, items of every entity type
    /// in the range count (narrow it with a typed sort-key range); with
    /// one, only the items of the filters' entities that satisfy them (a
    /// `Shop` sharing the partition never counts towards a filter on
    /// `Product`, whatever its attributes); items
    /// past their time to live that DynamoDB has not deleted yet do not,
    /// unless [`include_expired`](Self::include_expired).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}")]
    /// struct Order { customer_id: u64, order_id: u64, open: bool }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// for order_id in 1..=5 {
    ///     db.put(&Order { customer_id: 1, order_id, open: order_id % 2 == 1 }).await?;
    /// }
    /// let orders = || db.query(Order::partition(1u64).unwrap()).sk_begins_with(Order::sk());
    /// assert_eq!(orders().count().await?, 5);
    /// assert_eq!(orders().filter(Order::fields().open.equals(true)).count().await?, 3);
    /// assert_eq!(orders().limit(2).count().await?, 2); // at most the limit, as `all()`
    /// # Ok(())
    /// # }
    /// ```
    pub async fn count(self) -> Result<usize> {
        finish::count(self).await
    }

    /// The first item (in sort-key order, or the last with
    /// [`reverse`](Self::reverse)), or `None`: an entity, or a
    /// `#[derive(Collection)]` enum. It reads no more than it needs, in
    /// O(pages) requests: without a filter, the first request asks for one
    /// item (one request when the first item read is of this type — query
    /// a typed sort-key range to make sure); once a response comes back
    /// with items left out (other types, expired items, a filter), whole
    /// pages (or [`page_size`](Self::page_size) items) until one matches.
    /// With a filter, whole pages from the start. On a **sharded**
    /// partition the first item of the merged order can be in any shard,
    /// so every shard is read: one request per shard at once (at most
    /// [`shard_concurrency`](Self::shard_concurrency) in flight), each
    /// asking for one item (whole pages with a filter); a shard whose
    /// answer left items out is read on in whole pages until it has an
    /// item of `T` or ends; then the least of the shards' first items is
    /// returned. `s` shards cost at least `s` requests, and O(pages) per
    /// shard — never a request per skipped item.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{placed}#{order_id}")]
    /// struct Order { customer_id: u64, placed: u32, order_id: u64 }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// for (placed, order_id) in [(20260301, 1), (20260402, 2)] {
    ///     db.put(&Order { customer_id: 1, placed, order_id }).await?;
    /// }
    /// let latest: Option<Order> = db
    ///     .query(Order::partition(1u64)?)
    ///     .sk_begins_with(Order::sk())
    ///     .reverse(true)
    ///     .first()
    ///     .await?;
    /// assert_eq!(latest.map(|o| o.order_id), Some(2));
    /// # Ok(())
    /// # }
    /// ```
    pub async fn first<T>(self) -> Result<Option<T>>
    where
        T: CollectionItem<Table = I::Table>,
    {
        finish::first(self).await
    }

    /// The one item the query selects, `None` if there is none, and an
    /// error ([`ErrorKind::MoreThanOne`](crate::error::ErrorKind::MoreThanOne))
    /// if there are more: for a lookup that must be unique, like an order
    /// by its id on an index. It reads until it has seen a second item or
    /// the range is exhausted — across pages, so a second match further
    /// on is never missed — and no further: without a filter, two items
    /// per request.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, ErrorKind, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}")]
    /// #[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "CUST#{customer_id}")]
    /// struct Order { customer_id: u64, order_id: u64 }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// db.put(&Order { customer_id: 42, order_id: 9931 }).await?;
    /// let order: Option<Order> = db.query(Order::gsi1_partition(9931u64)?).one().await?;
    /// assert_eq!(order.map(|o| o.customer_id), Some(42));
    ///
    /// // Another customer's order with the same id: the lookup is not unique.
    /// db.put(&Order { customer_id: 7, order_id: 9931 }).await?;
    /// let err = db.query(Order::gsi1_partition(9931u64)?).one::<Order>().await.unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::MoreThanOne);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn one<T>(self) -> Result<Option<T>>
    where
        T: CollectionItem<Table = I::Table>,
    {
        finish::one(self).await
    }

    fn span(&self, collection: &'static str) -> tracing::Span {
        tracing::info_span!(
            "ddb.query",
            table = self.db.table_name(),
            index = I::INDEX_NAME.unwrap_or("(table)"),
            collection,
            shards = self.partition.shards().map_or(1, |spec| spec.count()),
            filtered = !self.filters.is_empty(),
            requests = tracing::field::Empty,
            items = tracing::field::Empty,
            scanned = tracing::field::Empty,
            consumed_rcu = tracing::field::Empty,
            consumed_wcu = tracing::field::Empty,
        )
    }

    /// What this query's cursors belong to, with the sort-key range
    /// `condition` and the filter's canonical text `filter`.
    fn scope<'a>(
        &'a self,
        condition: Option<&'a SortRange<()>>,
        filter: Option<&'a [u8]>,
    ) -> Scope<'a> {
        Scope {
            table: self.db.table_name(),
            index: I::INDEX_NAME,
            keys: [I::KEYS, I::Table::SCHEMA.primary],
            partition: self.partition.as_str(),
            range: condition,
            reverse: self.reverse,
            filter,
            shards: self.partition.shards().map(|spec| spec.count()),
        }
    }

    /// The filter, checked, and its canonical text when cursors are
    /// sealed (a sealed cursor is bound to the filter: a page boundary of
    /// one filtered listing means nothing in another), for a collection of
    /// `types` (`None` when only counting).
    fn filter_text(&self, read: Option<Reading>) -> Result<Option<Vec<u8>>> {
        self.filters.check(&I::Table::SCHEMA, Some(I::KEYS))?;
        Ok(match self.db.cursor_seal() {
            Some(_) => self
                .filters
                .text(&I::Table::SCHEMA, self.unknown, read, &key_names(I::KEYS))?
                .map(String::into_bytes),
            None => None,
        })
    }

    /// The sort-key condition, checked, and whether it holds nothing (a
    /// range that holds nothing is answered without a request).
    fn take_condition(&mut self) -> Result<(Option<SortRange<()>>, bool)> {
        let condition = match self.condition.take() {
            None => None,
            Some(Err(err)) => return Err(err),
            Some(Ok(range)) => Some(range.erased()),
        };
        let nothing = condition
            .as_ref()
            .is_some_and(|range| range.condition() == RangeCondition::Nothing);
        Ok((condition, nothing))
    }
}

/// What a started query's cursors are made in: its sort-key condition and
/// its filter's canonical text.
type Started = (Option<SortRange<()>>, Option<Vec<u8>>);

/// Strong consistency, which only the table's own key offers.
impl<T: Table> Query<'_, Primary<T>> {
    /// A strongly consistent read when `consistent` is true (twice the read
    /// capacity). Only the table offers one, so only a query of the table
    /// has this method: a global secondary index is eventually consistent.
    ///
    /// ```compile_fail
    /// # use ddb_entity::{Db, Entity};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}")]
    /// #[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "ORDER")]
    /// struct Order { customer_id: u64, order_id: u64 }
    ///
    /// fn by_id(db: &Db<App>) -> ddb_entity::Result<()> {
    ///     let _ = db.query(Order::gsi1_partition(7)?).consistent_read(true); // no such method
    ///     Ok(())
    /// }
    /// ```
    pub fn consistent_read(mut self, consistent: bool) -> Self {
        self.consistent = consistent;
        self
    }
}

/// The key condition of a query on `keys`: the partition, and the sort-key
/// condition if any, every name and value a placeholder.
fn key_condition(
    keys: KeySchema,
    partition: &str,
    range: Option<&SortRange<()>>,
    p: &mut Placeholders,
) -> String {
    let pk = p.name(keys.partition_key);
    let mut expression = format!(
        "{pk} = {}",
        p.value(AttributeValue::S(partition.to_owned()))
    );
    let (Some(range), Some(sort_key)) = (range, keys.sort_key) else {
        return expression;
    };
    let value = |p: &mut Placeholders, v: &str| p.value(AttributeValue::S(v.to_owned()));
    // The sort key's name placeholder only with a clause that uses it:
    // DynamoDB refuses unused ones.
    let clause = match range.condition() {
        // No request is sent for `Nothing`: `start` marks the query done.
        RangeCondition::All | RangeCondition::Nothing => return expression,
        RangeCondition::Equal(v) => format!("{} = {}", p.name(sort_key), value(p, v)),
        RangeCondition::BeginsWith(v) => {
            format!("begins_with({}, {})", p.name(sort_key), value(p, v))
        }
        RangeCondition::AtLeast(v) => format!("{} >= {}", p.name(sort_key), value(p, v)),
        RangeCondition::AtMost(v) => format!("{} <= {}", p.name(sort_key), value(p, v)),
        RangeCondition::Between(low, high) => format!(
            "{} BETWEEN {} AND {}",
            p.name(sort_key),
            value(p, low),
            value(p, high)
        ),
    };
    expression.push_str(" AND ");
    expression.push_str(&clause);
    expression
}

impl<'db, I: QueryIndex> Query<'db, I> {
    /// [`collect`](Query::collect) into a `Vec<E>`: the usual way to read
    /// one entity type (`E` an entity or a `#[derive(Collection)]` enum).
    ///
    /// See [the example](Query#example).
    pub async fn all<E>(self) -> Result<Vec<E>>
    where
        Vec<E>: Collection<Table = I::Table>,
    {
        self.collect().await
    }
}
