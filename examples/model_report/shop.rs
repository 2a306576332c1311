//! An e-commerce model as code: the table `app_data`, its three entity
//! types, and its five access patterns (a user by email, a user's orders
//! newest first, an order by id, an order's items, the users of a
//! status), each declared next to the query that serves it.
//!
//! The integration tests include this very module (its golden artefacts
//! are this model's), so what the example prints is what the tests check.

use std::time::Duration;

use chrono::{DateTime, Utc};
use ddb_entity::model::{AccessPattern, Lint, Model};
use ddb_entity::op::Query;
use ddb_entity::{Db, Entity, KeyPart, Primary, Result};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    /// `app_data`: generic key names, two overloaded indexes.
    pub struct App {
        partition_key: "PK",
        sort_key: "SK",
        indexes: {
            /// An order by its id, without its user or timestamp.
            pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
            /// Sparse: only active users carry `GSI2PK`.
            pub Gsi2 = "GSI2" { partition_key: "GSI2PK", sort_key: "GSI2SK" },
        },
    }
}

/// A user's status; only active users are in `GSI2`.
#[derive(KeyPart, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum UserStatus {
    /// Can sign in and order.
    #[key(rename = "active")]
    Active,
    /// Closed the account.
    #[key(rename = "closed")]
    Closed,
}

/// `PK=USER#<email>`, `SK=PROFILE`; in `GSI2` while active.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "USER#{email}", sk = "PROFILE")]
#[entity(index = Gsi2, pk = "STATUS#{status}", sk = "USER#{email}", when = User::is_active(status))]
pub struct User {
    /// The sign-in email.
    pub email: String,
    /// The display name.
    pub name: String,
    /// Active or closed.
    pub status: UserStatus,
}

impl User {
    fn is_active(status: &UserStatus) -> bool {
        *status == UserStatus::Active
    }
}

/// `PK=USER#<email>`, `SK=ORDER#<placed_at>#<order_id>`: a user's orders in
/// time order; `GSI1` finds one by its id alone.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "USER#{email}", sk = "ORDER#{placed_at}#{order_id}")]
#[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "USER#{email}")]
pub struct Order {
    /// The user who placed it.
    pub email: String,
    /// E.g. `ORD-12345`.
    pub order_id: String,
    /// When it was placed.
    pub placed_at: DateTime<Utc>,
    /// In cents.
    pub total_cents: i64,
    /// E.g. `shipped`.
    pub status: String,
}

/// `PK=ORDER#<order_id>`, `SK=ITEM#<sku>`: an order's items, in their own
/// partition.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "ORDER#{order_id}", sk = "ITEM#{sku}")]
pub struct OrderItem {
    /// The order.
    pub order_id: String,
    /// The product.
    pub sku: String,
    /// How many.
    pub quantity: u32,
}

// The queries the service runs. Each pattern below is declared with the
// function the service calls, so the pattern checked is the query sent.

/// "Fetch a user by email (exact match)".
pub fn user_by_email<'db>(db: &'db Db<App>, email: &str) -> Result<ddb_entity::op::Get<'db, User>> {
    Ok(db.get(User::key(email)?))
}

/// "Fetch all orders for a user, sorted by date descending".
pub fn orders_of_user<'db>(db: &'db Db<App>, email: &str) -> Result<Query<'db, Primary<App>>> {
    Ok(db
        .query(Order::partition(email)?)
        .sk_begins_with(Order::sk())
        .reverse(true))
}

/// "Fetch a single order by order ID".
pub fn order_by_id<'db>(db: &'db Db<App>, order_id: &str) -> Result<Query<'db, Gsi1>> {
    Ok(db.query(Order::gsi1_partition(order_id)?))
}

/// "Fetch all items in an order".
pub fn items_of_order<'db>(db: &'db Db<App>, order_id: &str) -> Result<Query<'db, Primary<App>>> {
    Ok(db
        .query(OrderItem::partition(order_id)?)
        .sk_begins_with(OrderItem::sk()))
}

/// "Fetch all users in a given status (e.g. active)".
pub fn users_in_status<'db>(db: &'db Db<App>, status: UserStatus) -> Result<Query<'db, Gsi2>> {
    Ok(db.query(User::gsi2_partition(status)?))
}

/// The model: the table, its entities, its five access patterns.
pub fn model() -> Model<App> {
    let ms = Duration::from_millis;
    Model::<App>::new("app_data")
        .entity::<User>()
        .entity::<Order>()
        .entity::<OrderItem>()
        .pattern(
            AccessPattern::get("Fetch a user by email", |db| {
                user_by_email(db, "alice@example.com")
            })
            .latency(ms(10)),
        )
        .pattern(
            AccessPattern::query("Fetch all orders for a user, newest first", |db| {
                orders_of_user(db, "alice@example.com")
            })
            .returns::<Vec<Order>>()
            .expect_items(100)
            .latency(ms(20)),
        )
        .pattern(
            AccessPattern::query("Fetch a single order by order ID", |db| {
                order_by_id(db, "ORD-12345")
            })
            .returns::<Vec<Order>>()
            .expect_items(1)
            .latency(ms(10)),
        )
        .pattern(
            AccessPattern::query("Fetch all items in an order", |db| {
                items_of_order(db, "ORD-12345")
            })
            .returns::<Vec<OrderItem>>()
            .expect_items(50)
            .latency(ms(20)),
        )
        .pattern(
            AccessPattern::query("Fetch all users in a given status", |db| {
                users_in_status(db, UserStatus::Active)
            })
            .returns::<Vec<User>>()
            .expect_items(1000)
            .latency(ms(50)),
        )
        .allow(
            Lint::HotPartition,
            "User on GSI2",
            "a sparse index: only active users, written when they sign up or close",
        )
}
