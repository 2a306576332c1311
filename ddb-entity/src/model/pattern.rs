//! Access patterns: the requests the application makes, declared in code
//! next to the queries that serve them, with the typed request itself.

use std::fmt;
use std::time::Duration;

use crate::collection::Collection;
use crate::db::Db;
use crate::entity::Entity;
use crate::error::Result;
use crate::read::{Get, Query, ReadPlan, Scan};
use crate::table::{QueryIndex, Table};

type PlanFn<T> = Box<dyn FnOnce(&Db<T>) -> Result<Reads>>;

/// One access pattern the application lists: a name, the typed request
/// that serves it — a GetItem, a Query (of one partition, or of every
/// shard of a sharded one), a Query per partition, or a Scan — and
/// optionally what it returns, how many items it expects and its latency
/// budget. The [`Report`](crate::model::Report) says what each costs in
/// requests, and what serves it better when it is more than one Query.
///
/// The request is built by a closure from a [`Db`] the model provides (no
/// request is ever sent): pass the same function the service calls, so the
/// pattern checked is the query that runs.
///
/// ```
/// use std::time::Duration;
/// use ddb_entity::model::AccessPattern;
/// use ddb_entity::op::Query;
/// use ddb_entity::{Db, Entity, Primary};
/// use serde::{Deserialize, Serialize};
///
/// ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "USER#{email}", sk = "ORDER#{placed}#{order_id}")]
/// struct Order { email: String, placed: u32, order_id: u64 }
///
/// /// The query the service runs for "a user's orders, newest first".
/// fn orders_of<'db>(db: &'db Db<App>, email: &str) -> ddb_entity::Result<Query<'db, Primary<App>>> {
///     Ok(db.query(Order::partition(email)?).sk_begins_with(Order::sk()).reverse(true))
/// }
///
/// let pattern = AccessPattern::query("Orders of a user, newest first", |db| orders_of(db, "ada@example.com"))
///     .returns::<Vec<Order>>()
///     .expect_items(50)
///     .latency(Duration::from_millis(20));
/// assert_eq!(pattern.name(), "Orders of a user, newest first");
/// ```
#[must_use = "an access pattern does nothing until added to a model with `Model::pattern`"]
pub struct AccessPattern<T: Table> {
    pub(crate) name: String,
    pub(crate) plan: PlanFn<T>,
    pub(crate) returns: Option<Returns>,
    pub(crate) expected_items: Option<usize>,
    pub(crate) latency: Option<Duration>,
    /// The most partitions a pattern of a Query per partition reads.
    pub(crate) partitions: Option<usize>,
}

/// The requests a declared pattern makes, as planned.
#[derive(Debug, Clone)]
pub(crate) enum Reads {
    /// One GetItem, or one Query — of every shard when its partition is
    /// a sharded one's prefix, which the analysis tells from the templates.
    One(ReadPlan),
    /// A Query per partition: the sample's, and the most partitions the
    /// pattern reads.
    Partitions {
        plans: Vec<ReadPlan>,
        at_most: usize,
    },
    /// A Scan of the table (`None`) or of an index.
    Scan { index: Option<&'static str> },
}

/// What a pattern declares it returns: a collection's name and its types.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Returns {
    pub(crate) name: &'static str,
    pub(crate) types: &'static [&'static str],
}

impl<T: Table> AccessPattern<T> {
    /// A pattern served by a GetItem: `request` builds it from the model's
    /// `Db` (`|db| Ok(db.get(User::key("ada@example.com")?))`). It returns
    /// at most one `E`.
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use ddb_entity::model::{AccessPattern, Model};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "PROFILE")]
    /// # struct User { email: String, name: String }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "ORDER#{order_id}")]
    /// # #[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "ORDER")]
    /// # struct Order { email: String, order_id: u64, total_cents: i64 }
    /// # fn model() -> Model<App> {
    /// #     Model::<App>::new("shop")
    /// #         .entity::<User>()
    /// #         .entity::<Order>()
    /// #         .pattern(AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))))
    /// #         .pattern(
    /// #             AccessPattern::query("Order by id", |db| Ok(db.query(Order::gsi1_partition(9931)?)))
    /// #                 .returns::<Vec<Order>>(),
    /// #         )
    /// # }
    /// let report = Model::<App>::new("shop")
    ///     .entity::<User>()
    ///     .pattern(AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))))
    ///     .report();
    /// let row = &report.patterns[0];
    /// assert_eq!((row.operation.as_str(), row.index.as_str()), ("GetItem", "table"));
    /// assert_eq!(row.expected_items, Some(1));
    /// ```
    pub fn get<E, F>(name: impl Into<String>, request: F) -> Self
    where
        E: Entity<Table = T>,
        F: for<'db> FnOnce(&'db Db<T>) -> Result<Get<'db, E>> + 'static,
    {
        AccessPattern {
            returns: Some(Returns {
                name: E::RUST_NAME,
                types: <Vec<E> as Collection>::TYPES,
            }),
            expected_items: Some(1),
            ..Self::planned(name, move |db| {
                request(db).map(|get| Reads::One(get.plan()))
            })
        }
    }

    /// A pattern served by a Query on one partition of the table or an
    /// index: `request` builds it from the model's `Db`, with the sample
    /// values a test would use. Say what it collects with
    /// [`returns`](Self::returns).
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use ddb_entity::model::{AccessPattern, Model};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "PROFILE")]
    /// # struct User { email: String, name: String }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "ORDER#{order_id}")]
    /// # #[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "ORDER")]
    /// # struct Order { email: String, order_id: u64, total_cents: i64 }
    /// # fn model() -> Model<App> {
    /// #     Model::<App>::new("shop")
    /// #         .entity::<User>()
    /// #         .entity::<Order>()
    /// #         .pattern(AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))))
    /// #         .pattern(
    /// #             AccessPattern::query("Order by id", |db| Ok(db.query(Order::gsi1_partition(9931)?)))
    /// #                 .returns::<Vec<Order>>(),
    /// #         )
    /// # }
    /// let report = model()
    ///     .pattern(AccessPattern::query("Orders of a user", |db| {
    ///         Ok(db.query(Order::partition("ada@example.com")?).sk_begins_with(Order::sk()))
    ///     }))
    ///     .report();
    /// let row = &report.patterns[2];
    /// assert_eq!((row.operation.as_str(), row.index.as_str()), ("Query", "table"));
    /// assert_eq!(row.reads, ["Order"], "the ORDER# prefix holds orders only");
    /// ```
    pub fn query<I, F>(name: impl Into<String>, request: F) -> Self
    where
        I: QueryIndex<Table = T>,
        F: for<'db> FnOnce(&'db Db<T>) -> Result<Query<'db, I>> + 'static,
    {
        Self::planned(name, move |db| request(db)?.plan().map(Reads::One))
    }

    /// A pattern served by a Query per partition: the application reads
    /// several partitions (the orders of each customer of an account) and
    /// `request` builds one Query for each partition of the sample. There
    /// is no join: each partition is a request of its own, and the report
    /// says so ([`Lint::PatternPartitions`](crate::model::Lint::PatternPartitions)),
    /// with the usual answer — store what is read together under one
    /// partition, or give it an index whose partition key groups it. Say
    /// how many partitions it reads in production with
    /// [`expect_partitions`](Self::expect_partitions).
    ///
    /// ```
    /// use ddb_entity::Entity;
    /// use ddb_entity::model::{AccessPattern, Lint, Model, Requests};
    /// use serde::{Deserialize, Serialize};
    ///
    /// ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    ///
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}")]
    /// struct Order { customer_id: u64, order_id: u64 }
    ///
    /// let report = Model::<App>::new("shop")
    ///     .entity::<Order>()
    ///     .pattern(
    ///         // The sample: an account of three customers.
    ///         AccessPattern::queries("Orders of an account's customers", |db| {
    ///             let mut queries = Vec::new();
    ///             for customer in [1, 2, 3] {
    ///                 queries.push(db.query(Order::partition(customer)?));
    ///             }
    ///             Ok(queries)
    ///         })
    ///         .returns::<Vec<Order>>()
    ///         .expect_partitions(20),
    ///     )
    ///     .report();
    /// let row = &report.patterns[0];
    /// assert_eq!(row.requests, Requests::Queries { partitions: 20, shards: 1 });
    /// assert_eq!(row.requests.to_string(), "20: a Query per partition");
    /// assert_eq!(report.findings[0].lint, Lint::PatternPartitions);
    /// ```
    pub fn queries<I, F>(name: impl Into<String>, request: F) -> Self
    where
        I: QueryIndex<Table = T>,
        F: for<'db> FnOnce(&'db Db<T>) -> Result<Vec<Query<'db, I>>> + 'static,
    {
        Self::planned(name, move |db| {
            let plans = request(db)?
                .into_iter()
                .map(Query::plan)
                .collect::<Result<Vec<_>>>()?;
            let at_most = plans.len();
            Ok(Reads::Partitions { plans, at_most })
        })
    }

    /// A pattern served by a Scan of the table or of an index: `request`
    /// builds it (`|db| Ok(db.scan())`, `|db| Ok(db.scan_index::<Gsi2>())`).
    /// A Scan reads every item there, one request per MB, and pays for
    /// each whatever a filter keeps: the report says so
    /// ([`Lint::PatternScan`](crate::model::Lint::PatternScan)) with the
    /// usual answer, an index that finds the items, or a *sparse* one that
    /// holds only them. A Scan of an index every entity in it fills
    /// sparsely is that answer, and no finding. A Scan's filter and
    /// projection are not checked.
    ///
    /// ```
    /// use ddb_entity::Entity;
    /// use ddb_entity::model::{AccessPattern, Lint, Model, Requests};
    /// use serde::{Deserialize, Serialize};
    ///
    /// ddb_entity::table! {
    ///     pub struct App {
    ///         partition_key: "PK",
    ///         sort_key: "SK",
    ///         indexes: { pub Open = "Open" { partition_key: "OPENPK", sort_key: "OPENSK" } },
    ///     }
    /// }
    ///
    /// /// In `Open` only while open: a sparse index.
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "TICKET#{id}", sk = "TICKET")]
    /// #[entity(index = Open, pk = "OPEN#{opened}", sk = "{id}")]
    /// struct Ticket { id: u64, opened: Option<u32> }
    ///
    /// let report = Model::<App>::new("support")
    ///     .entity::<Ticket>()
    ///     .pattern(AccessPattern::scan("Every ticket", |db| Ok(db.scan())).returns::<Vec<Ticket>>())
    ///     .pattern(AccessPattern::scan("Open tickets", |db| Ok(db.scan_index::<Open>())).returns::<Vec<Ticket>>())
    ///     .report();
    /// assert_eq!(report.patterns[0].operation, "Scan");
    /// assert_eq!(report.patterns[0].requests, Requests::Scan);
    /// // The table's Scan is a finding; the sparse index's is the advice taken.
    /// let scans: Vec<&str> = report.of_lint(Lint::PatternScan).map(|f| f.subject.as_str()).collect();
    /// assert_eq!(scans, ["Every ticket"]);
    /// ```
    pub fn scan<I, F>(name: impl Into<String>, request: F) -> Self
    where
        I: QueryIndex<Table = T>,
        F: for<'db> FnOnce(&'db Db<T>) -> Result<Scan<'db, I>> + 'static,
    {
        Self::planned(name, move |db| {
            // Built to check it builds; a Scan's plan is its index.
            let _scan = request(db)?;
            Ok(Reads::Scan {
                index: I::INDEX_NAME,
            })
        })
    }

    /// A pattern of `name` whose requests `plan` makes, nothing else said.
    fn planned(
        name: impl Into<String>,
        plan: impl FnOnce(&Db<T>) -> Result<Reads> + 'static,
    ) -> Self {
        AccessPattern {
            name: name.into(),
            plan: Box::new(plan),
            returns: None,
            expected_items: None,
            latency: None,
            partitions: None,
        }
    }

    /// The most partitions a pattern of [`queries`](Self::queries) reads
    /// in production (by default, as many as its sample has): the
    /// requests the report counts.
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}")]
    /// # struct Order { customer_id: u64, order_id: u64 }
    /// use ddb_entity::model::{AccessPattern, Model};
    /// use ddb_entity::{Db, Primary, op::Query};
    ///
    /// fn two_customers(db: &Db<App>) -> ddb_entity::Result<Vec<Query<'_, Primary<App>>>> {
    ///     Ok(vec![db.query(Order::partition(1)?), db.query(Order::partition(2)?)])
    /// }
    /// let sample = Model::<App>::new("shop")
    ///     .entity::<Order>()
    ///     .pattern(AccessPattern::queries("Orders of two customers", two_customers))
    ///     .report();
    /// assert_eq!(sample.patterns[0].requests.to_string(), "2: a Query per partition");
    /// let at_most_50 = Model::<App>::new("shop")
    ///     .entity::<Order>()
    ///     .pattern(AccessPattern::queries("Orders of an account", two_customers).expect_partitions(50))
    ///     .report();
    /// assert_eq!(at_most_50.patterns[0].requests.to_string(), "50: a Query per partition");
    /// ```
    pub fn expect_partitions(mut self, partitions: usize) -> Self {
        self.partitions = Some(partitions);
        self
    }

    /// What the query collects into: a `Vec` of an entity, a
    /// `#[derive(Collection)]` struct or enum. The model checks that the
    /// query's range holds each of its types, and reports the other types
    /// it reads (skipped, but read).
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use ddb_entity::model::{AccessPattern, Model};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "PROFILE")]
    /// # struct User { email: String, name: String }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "ORDER#{order_id}")]
    /// # #[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "ORDER")]
    /// # struct Order { email: String, order_id: u64, total_cents: i64 }
    /// # fn model() -> Model<App> {
    /// #     Model::<App>::new("shop")
    /// #         .entity::<User>()
    /// #         .entity::<Order>()
    /// #         .pattern(AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))))
    /// #         .pattern(
    /// #             AccessPattern::query("Order by id", |db| Ok(db.query(Order::gsi1_partition(9931)?)))
    /// #                 .returns::<Vec<Order>>(),
    /// #         )
    /// # }
    /// // A whole user partition: the profile and the orders.
    /// #[derive(ddb_entity::Collection)]
    /// struct UserView { user: Option<User>, orders: Vec<Order> }
    ///
    /// let report = model()
    ///     .pattern(
    ///         AccessPattern::query("A user with their orders", |db| Ok(db.query(User::partition("ada@example.com")?)))
    ///             .returns::<UserView>(),
    ///     )
    ///     .report();
    /// assert!(report.is_clean(), "{report}");
    /// assert_eq!(report.patterns[2].returns, Some("UserView"));
    /// ```
    pub fn returns<C: Collection<Table = T>>(mut self) -> Self {
        self.returns = Some(Returns {
            name: C::NAME,
            types: C::TYPES,
        });
        self
    }

    /// The largest result set expected for this pattern.
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use ddb_entity::model::{AccessPattern, Model};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "PROFILE")]
    /// # struct User { email: String, name: String }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "ORDER#{order_id}")]
    /// # #[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "ORDER")]
    /// # struct Order { email: String, order_id: u64, total_cents: i64 }
    /// # fn model() -> Model<App> {
    /// #     Model::<App>::new("shop")
    /// #         .entity::<User>()
    /// #         .entity::<Order>()
    /// #         .pattern(AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))))
    /// #         .pattern(
    /// #             AccessPattern::query("Order by id", |db| Ok(db.query(Order::gsi1_partition(9931)?)))
    /// #                 .returns::<Vec<Order>>(),
    /// #         )
    /// # }
    /// let report = model()
    ///     .pattern(
    ///         AccessPattern::query("Orders of a user", |db| Ok(db.query(Order::partition("ada@example.com")?).sk_begins_with(Order::sk())))
    ///             .returns::<Vec<Order>>()
    ///             .expect_items(100),
    ///     )
    ///     .report();
    /// assert_eq!(report.patterns[2].expected_items, Some(100));
    /// ```
    pub fn expect_items(mut self, at_most: usize) -> Self {
        self.expected_items = Some(at_most);
        self
    }

    /// The latency budget of the request.
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use ddb_entity::model::{AccessPattern, Model};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "PROFILE")]
    /// # struct User { email: String, name: String }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "ORDER#{order_id}")]
    /// # #[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "ORDER")]
    /// # struct Order { email: String, order_id: u64, total_cents: i64 }
    /// # fn model() -> Model<App> {
    /// #     Model::<App>::new("shop")
    /// #         .entity::<User>()
    /// #         .entity::<Order>()
    /// #         .pattern(AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))))
    /// #         .pattern(
    /// #             AccessPattern::query("Order by id", |db| Ok(db.query(Order::gsi1_partition(9931)?)))
    /// #                 .returns::<Vec<Order>>(),
    /// #         )
    /// # }
    /// use std::time::Duration;
    ///
    /// let report = model()
    ///     .pattern(
    ///         AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?)))
    ///             .latency(Duration::from_millis(10)),
    ///     )
    ///     .report();
    /// assert_eq!(report.patterns[2].latency, Some(Duration::from_millis(10)));
    /// ```
    pub fn latency(mut self, budget: Duration) -> Self {
        self.latency = Some(budget);
        self
    }

    /// The pattern's name.
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use ddb_entity::model::{AccessPattern, Model};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "PROFILE")]
    /// # struct User { email: String, name: String }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "ORDER#{order_id}")]
    /// # #[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "ORDER")]
    /// # struct Order { email: String, order_id: u64, total_cents: i64 }
    /// # fn model() -> Model<App> {
    /// #     Model::<App>::new("shop")
    /// #         .entity::<User>()
    /// #         .entity::<Order>()
    /// #         .pattern(AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))))
    /// #         .pattern(
    /// #             AccessPattern::query("Order by id", |db| Ok(db.query(Order::gsi1_partition(9931)?)))
    /// #                 .returns::<Vec<Order>>(),
    /// #         )
    /// # }
    /// let pattern = AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?)));
    /// assert_eq!(pattern.name(), "User by email");
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl<T: Table> fmt::Debug for AccessPattern<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AccessPattern")
            .field("name", &self.name)
            .field("returns", &self.returns.as_ref().map(|r| r.name))
            .field("expected_items", &self.expected_items)
            .field("latency", &self.latency)
            .finish_non_exhaustive()
    }
}

/// A pattern of a model: its declaration and the request it makes.
#[derive(Debug, Clone)]
pub(crate) struct DeclaredPattern {
    pub(crate) name: String,
    /// The requests, or why they could not be built.
    pub(crate) reads: std::result::Result<Reads, String>,
    pub(crate) returns: Option<Returns>,
    pub(crate) expected_items: Option<usize>,
    pub(crate) latency: Option<Duration>,
}

impl DeclaredPattern {
    /// The GetItem and Query plans it makes (none for a Scan).
    pub(crate) fn plans(&self) -> &[ReadPlan] {
        match &self.reads {
            Ok(Reads::One(plan)) => std::slice::from_ref(plan),
            Ok(Reads::Partitions { plans, .. }) => plans,
            Ok(Reads::Scan { .. }) | Err(_) => &[],
        }
    }

    /// The index a Scan of it reads (`Some(None)`: the table).
    pub(crate) fn scanned(&self) -> Option<Option<&'static str>> {
        match &self.reads {
            Ok(Reads::Scan { index }) => Some(*index),
            _ => None,
        }
    }

    pub(crate) fn declare<T: Table>(pattern: AccessPattern<T>, db: &Db<T>) -> Self {
        let reads = match (pattern.plan)(db) {
            Err(err) => Err(err.to_string()),
            Ok(Reads::Partitions { plans, .. }) if plans.is_empty() => {
                Err("it builds no Query: build one per partition of the sample".to_owned())
            }
            Ok(Reads::Partitions { plans, at_most }) => Ok(Reads::Partitions {
                at_most: at_most.max(pattern.partitions.unwrap_or(0)),
                plans,
            }),
            Ok(reads) => Ok(reads),
        };
        DeclaredPattern {
            name: pattern.name,
            reads,
            returns: pattern.returns,
            expected_items: pattern.expected_items,
            latency: pattern.latency,
        }
    }
}
