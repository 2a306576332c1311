//! Access patterns: the requests the application makes, declared in code
//! next to the queries that serve them, with the typed request itself.

use std::fmt;
use std::time::Duration;

use crate::collection::Collection;
use crate::db::Db;
use crate::entity::Entity;
use crate::error::Result;
use crate::read::{Get, Query, ReadPlan};
use crate::table::{QueryIndex, Table};

type PlanFn<T> = Box<dyn FnOnce(&Db<T>) -> Result<ReadPlan>>;

/// One access pattern the application lists: a name, the typed GetItem
/// or Query that serves it, and optionally what it returns, how many items
/// it expects and its latency budget.
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
            name: name.into(),
            plan: Box::new(move |db| request(db).map(|get| get.plan())),
            returns: Some(Returns {
                name: E::RUST_NAME,
                types: <Vec<E> as Collection>::TYPES,
            }),
            expected_items: Some(1),
            latency: None,
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
        AccessPattern {
            name: name.into(),
            plan: Box::new(move |db| request(db).and_then(Query::plan)),
            returns: None,
            expected_items: None,
            latency: None,
        }
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
    /// The request, or why it could not be built.
    pub(crate) plan: std::result::Result<ReadPlan, String>,
    pub(crate) returns: Option<Returns>,
    pub(crate) expected_items: Option<usize>,
    pub(crate) latency: Option<Duration>,
}

impl DeclaredPattern {
    pub(crate) fn declare<T: Table>(pattern: AccessPattern<T>, db: &Db<T>) -> Self {
        DeclaredPattern {
            name: pattern.name,
            plan: (pattern.plan)(db).map_err(|err| err.to_string()),
            returns: pattern.returns,
            expected_items: pattern.expected_items,
            latency: pattern.latency,
        }
    }
}
