//! Quickstart: an e-commerce model on a real DynamoDB.
//!
//! Runs against the embedded DynamoDB (nothing to install), or against the
//! server named by `DDB_ENDPOINT`:
//!
//! ```sh
//! cargo run --example quickstart
//! ```
//!
//! It declares the single table and its entity types, creates the table,
//! writes users and orders, and serves its five access patterns —
//! each one GetItem or one Query on a single partition — printing the keys
//! it builds.

use chrono::{TimeZone, Utc};
use ddb_entity::local::LocalDynamo;
use ddb_entity::{Db, Entity, KeyPart, SortKey};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    /// One table for every entity type: generic key names, overloaded indexes.
    pub struct App {
        partition_key: "PK",
        sort_key: "SK",
        indexes: {
            /// Orders by id, whoever placed them.
            pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
            /// Sparse: only active users are in it.
            pub Gsi2 = "GSI2" { partition_key: "GSI2PK", sort_key: "GSI2SK" },
        },
    }
}

/// A user, found by email; in GSI2 only while active.
#[derive(Entity, Serialize, Deserialize, Debug)]
#[entity(table = App, pk = "USER#{email}", sk = "PROFILE")]
#[entity(index = Gsi2, pk = "STATUS#{status}", sk = "USER#{email}")]
struct User {
    email: String,
    name: String,
    /// `Some(Active)` while the user is active, `None` otherwise: only the
    /// users whose status is set carry GSI2's keys (the index is sparse),
    /// so `GSI2PK = STATUS#active` holds exactly the active users.
    status: Option<Status>,
}

/// The one status the sparse index holds.
#[derive(KeyPart, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Status {
    #[key(rename = "active")]
    Active,
}

/// An order, stored under its user and sorted by time; GSI1 finds it by id.
#[derive(Entity, Serialize, Deserialize, Debug)]
#[entity(table = App, pk = "USER#{email}", sk = "ORDER#{placed_at}#{order_id}")]
#[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "USER#{email}")]
struct Order {
    email: String,
    order_id: String,
    placed_at: chrono::DateTime<Utc>,
    total_cents: i64,
}

/// One line of an order, in the order's own partition.
#[derive(Entity, Serialize, Deserialize, Debug)]
#[entity(table = App, pk = "ORDER#{order_id}", sk = "ITEM#{sku}")]
struct OrderItem {
    order_id: String,
    sku: String,
    quantity: u32,
}

type Error = Box<dyn std::error::Error + Send + Sync>;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Error> {
    let dynamo = LocalDynamo::start().await?;
    println!(
        "DynamoDB at {} ({})",
        dynamo.endpoint(),
        if dynamo.is_embedded() {
            "embedded"
        } else {
            "DDB_ENDPOINT"
        }
    );
    let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("quickstart"));
    let created = db.create_table_if_missing().await?;
    println!("table {}: {created:?}\n", db.table_name());

    let ada = User {
        email: "ada@example.com".into(),
        name: "Ada".into(),
        status: Some(Status::Active),
    };
    let bob = User {
        email: "bob@example.com".into(),
        name: "Bob".into(),
        status: None,
    };
    let cy = User {
        email: "cy@example.com".into(),
        name: "Cy".into(),
        status: Some(Status::Active),
    };
    let orders = [
        (3, "ORD-1001", 2_500),
        (14, "ORD-1002", 12_999),
        (21, "ORD-1003", 700),
    ]
    .map(|(day, id, total_cents)| Order {
        email: ada.email.clone(),
        order_id: id.into(),
        placed_at: Utc.with_ymd_and_hms(2026, 3, day, 9, 31, 0).unwrap(),
        total_cents,
    });

    println!("writing items (PutItem):");
    for user in [&ada, &bob, &cy] {
        db.put(user).await?;
        let key = user.primary_key()?;
        println!("  PK={:<40} SK={}", key.partition(), key.sort());
    }
    for order in &orders {
        db.put(order).await?;
        let key = order.primary_key()?;
        println!("  PK={:<40} SK={}", key.partition(), key.sort());
    }

    println!("\n1. a user by email: GetItem");
    let key = User::key("ada@example.com")?;
    println!("   key PK={} SK={}", key.partition(), key.sort());
    let user = db.get(key).await?;
    println!("   -> {user:?}");

    println!(
        "\n2. a user's orders, newest first: Query PK = :pk AND begins_with(SK, :prefix), descending"
    );
    let partition = Order::partition("ada@example.com")?;
    let prefix: SortKey<_> = Order::sk().into();
    println!("   PK={} prefix={}", partition.as_str(), prefix.value()?);
    let newest_first: Vec<Order> = db
        .query(partition)
        .sk_begins_with(prefix)
        .reverse(true)
        .all()
        .await?;
    for order in &newest_first {
        println!(
            "   -> {} placed {} total {}",
            order.order_id, order.placed_at, order.total_cents
        );
    }

    println!("\n3. an order by id, without its user or time: Query on GSI1");
    let by_id = Order::gsi1_partition("ORD-1002")?;
    println!("   GSI1PK={}", by_id.as_str());
    for order in db.query(by_id).all::<Order>().await? {
        println!("   -> {} of {}", order.order_id, order.email);
    }

    println!("\n4. the items of an order: Query PK = ORDER#ORD-1002 (their own partition)");
    for (sku, quantity) in [("SKU-RED-S", 2), ("SKU-BLUE-M", 1)] {
        db.put(&OrderItem {
            order_id: "ORD-1002".into(),
            sku: sku.into(),
            quantity,
        })
        .await?;
    }
    for item in db
        .query(OrderItem::partition("ORD-1002")?)
        .all::<OrderItem>()
        .await?
    {
        println!("   -> {} x{}", item.sku, item.quantity);
    }

    println!(
        "\n5. all active users: one Query on the sparse GSI2 (Bob is not active, so he has no GSI2 keys)"
    );
    let active = User::gsi2_partition(Status::Active)?;
    println!("   GSI2PK={}", active.as_str());
    let active_users: Vec<User> = db.query(active).all().await?;
    for user in &active_users {
        println!("   -> {}", user.name);
    }
    assert_eq!(
        active_users.len(),
        2,
        "Ada and Cy, whenever they became active"
    );
    Ok(())
}
