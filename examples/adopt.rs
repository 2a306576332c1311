//! Adopting a table you already have: an e-commerce table, `app_data`, written by
//! hand-rolled SDK code (no type attribute, ISO-8601 timestamps in keys),
//! read and written through typed entities without rewriting one item.
//!
//! ```sh
//! cargo run --example adopt
//! ```
//!
//! It fills the table the way the existing code does (raw PutItem calls),
//! surveys it (which entity is every item? which items are no entity's?),
//! serves its five access patterns from it, and writes a new order
//! through the library, showing that the item is stored exactly as the
//! hand-written code would have stored it.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{TimeZone, Utc};
use ddb_entity::key::IsoSeconds;
use ddb_entity::local::LocalDynamo;
use ddb_entity::{Collection, Db, Entity, Item};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    /// The existing table: generic key names, two overloaded indexes, and
    /// no type attribute: an item's keys say what it is.
    pub struct AppData {
        partition_key: "PK",
        sort_key: "SK",
        typed_by: Key,
        indexes: {
            /// `GSI1PK = ORDER#<id>`, `GSI1SK = USER#<email>`: an order by id.
            pub ByOrderId = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
            /// Sparse, `GSI2PK = STATUS#active`: the active users.
            pub ByStatus = "GSI2" { partition_key: "GSI2PK", sort_key: "GSI2SK" },
        },
    }
}

/// `PK=USER#<email>`, `SK=PROFILE`; in GSI2 while active.
#[derive(Entity, Serialize, Deserialize, Debug)]
#[entity(table = AppData, pk = "USER#{email}", sk = "PROFILE")]
#[entity(index = ByStatus, pk = "STATUS#active", sk = "USER#{email}", when = User::is_active(status))]
struct User {
    email: String,
    name: String,
    status: String,
}

impl User {
    fn is_active(status: &String) -> bool {
        status == "active"
    }
}

/// `PK=USER#<email>`, `SK=ORDER#<ISO timestamp>#<order id>`, as the
/// existing code writes it: `ORDER#2026-03-14T09:31:00Z#ORD-12345`.
#[derive(Entity, Serialize, Deserialize, Debug)]
#[entity(table = AppData, pk = "USER#{email}", sk = "ORDER#{placed_at}#{order_id}")]
#[entity(index = ByOrderId, pk = "ORDER#{order_id}", sk = "USER#{email}")]
struct Order {
    email: String,
    placed_at: IsoSeconds,
    order_id: String,
    order_total: f64,
    status: String,
}

/// `PK=ORDER#<order id>`, `SK=ITEM#<sku>`.
#[derive(Entity, Serialize, Deserialize, Debug)]
#[entity(table = AppData, pk = "ORDER#{order_id}", sk = "ITEM#{sku}")]
struct OrderItem {
    order_id: String,
    sku: String,
    qty: u32,
}

/// Every entity of the table: what the survey checks items against.
#[derive(Collection)]
#[allow(dead_code)] // the survey counts, it does not read
enum AppItem {
    User(User),
    Order(Order),
    OrderItem(OrderItem),
}

/// The existing code, as it writes items today.
mod legacy_writer {
    use super::*;

    fn s(value: &str) -> AttributeValue {
        AttributeValue::S(value.to_owned())
    }

    pub fn user(email: &str, name: &str, status: &str) -> Item {
        let mut item = HashMap::from([
            ("PK".to_owned(), s(&format!("USER#{email}"))),
            ("SK".to_owned(), s("PROFILE")),
            ("email".to_owned(), s(email)),
            ("name".to_owned(), s(name)),
            ("status".to_owned(), s(status)),
        ]);
        if status == "active" {
            item.insert("GSI2PK".to_owned(), s("STATUS#active"));
            item.insert("GSI2SK".to_owned(), s(&format!("USER#{email}")));
        }
        item
    }

    pub fn order(email: &str, placed_at: &str, id: &str, total: &str, status: &str) -> Item {
        HashMap::from([
            ("PK".to_owned(), s(&format!("USER#{email}"))),
            ("SK".to_owned(), s(&format!("ORDER#{placed_at}#{id}"))),
            ("GSI1PK".to_owned(), s(&format!("ORDER#{id}"))),
            ("GSI1SK".to_owned(), s(&format!("USER#{email}"))),
            ("email".to_owned(), s(email)),
            ("placed_at".to_owned(), s(placed_at)),
            ("order_id".to_owned(), s(id)),
            (
                "order_total".to_owned(),
                AttributeValue::N(total.to_owned()),
            ),
            ("status".to_owned(), s(status)),
        ])
    }

    pub fn order_item(order_id: &str, sku: &str, qty: u32) -> Item {
        HashMap::from([
            ("PK".to_owned(), s(&format!("ORDER#{order_id}"))),
            ("SK".to_owned(), s(&format!("ITEM#{sku}"))),
            ("order_id".to_owned(), s(order_id)),
            ("sku".to_owned(), s(sku)),
            ("qty".to_owned(), AttributeValue::N(qty.to_string())),
        ])
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dynamo = LocalDynamo::start().await?;
    let db = Db::<AppData>::new(dynamo.client(), dynamo.unique_table_name("app_data"));
    db.create_table_if_missing().await?;

    // 1. The table as the existing code left it, plus one stray item.
    let mut items = vec![
        legacy_writer::user("alice@example.com", "Alice", "active"),
        legacy_writer::user("bob@example.com", "Bob", "inactive"),
        legacy_writer::order(
            "alice@example.com",
            "2026-03-01T09:00:00Z",
            "ORD-1",
            "129.99",
            "shipped",
        ),
        legacy_writer::order(
            "alice@example.com",
            "2026-03-14T18:30:00Z",
            "ORD-2",
            "15.5",
            "open",
        ),
        legacy_writer::order_item("ORD-1", "SKU-A", 2),
        legacy_writer::order_item("ORD-1", "SKU-B", 1),
    ];
    let mut stray = legacy_writer::user("carol@example.com", "Carol", "inactive");
    stray.insert(
        "PK".into(),
        AttributeValue::S("user#carol@example.com".into()),
    );
    items.push(stray);
    for item in items {
        db.client()
            .put_item()
            .table_name(db.table_name())
            .set_item(Some(item))
            .send()
            .await?;
    }

    // 2. Before adopting: which entity is every item?
    let report = db
        .survey::<AppItem>()
        .segments(4)
        .concurrency(2)
        .on_progress(|p| eprintln!("survey: {} items read", p.scanned))
        .await?;
    println!("survey\n{report}");

    // 3. The access patterns, each one GetItem or one Query.
    let alice = db.get(User::key("alice@example.com")?).await?;
    println!("user by email: {alice:?}");

    let newest_first: Vec<Order> = db
        .query(User::partition("alice@example.com")?)
        .sk_begins_with(Order::sk())
        .reverse(true)
        .collect()
        .await?;
    let ids: Vec<&str> = newest_first.iter().map(|o| o.order_id.as_str()).collect();
    println!("alice's orders, newest first: {ids:?}");

    let march = Utc.with_ymd_and_hms(2026, 3, 10, 0, 0, 0).unwrap();
    let since_10th: Vec<Order> = db
        .query(User::partition("alice@example.com")?)
        .sk_between(
            Order::sk().placed_at(IsoSeconds(march)),
            Order::sk().placed_at_prefix(chrono::NaiveDate::from_ymd_opt(2026, 3, 31).unwrap()),
        )
        .collect()
        .await?;
    println!("alice's orders from the 10th: {}", since_10th.len());

    let by_id: Vec<Order> = db
        .query(Order::by_order_id_partition("ORD-2")?)
        .collect()
        .await?;
    println!("order ORD-2 by id: {:?}", by_id.first().map(|o| &o.email));

    let items: Vec<OrderItem> = db.query(OrderItem::partition("ORD-1")?).collect().await?;
    println!(
        "items of ORD-1: {:?}",
        items.iter().map(|i| (&i.sku, i.qty)).collect::<Vec<_>>()
    );

    let active: Vec<User> = db.query(User::by_status_partition()?).collect().await?;
    println!(
        "active users: {:?}",
        active.iter().map(|u| &u.email).collect::<Vec<_>>()
    );

    // 4. A write through the library keeps the table's format.
    let placed_at = IsoSeconds(Utc.with_ymd_and_hms(2026, 3, 20, 8, 0, 0).unwrap());
    let order = Order {
        email: "bob@example.com".into(),
        placed_at,
        order_id: "ORD-3".into(),
        order_total: 42.0,
        status: "open".into(),
    };
    db.put(&order).await?;
    let key = Order::key("bob@example.com", placed_at, "ORD-3")?;
    let stored = db
        .client()
        .get_item()
        .table_name(db.table_name())
        .set_key(Some(key.to_attributes()))
        .send()
        .await?
        .item
        .unwrap_or_default();
    let hand_written = legacy_writer::order(
        "bob@example.com",
        "2026-03-20T08:00:00Z",
        "ORD-3",
        "42",
        "open",
    );
    assert_eq!(
        stored, hand_written,
        "the library writes what the existing code writes"
    );
    println!(
        "put through the library: {} attributes, byte for byte the existing format",
        stored.len()
    );

    // 5. So does an update: a table typed by key stores no write token
    //    (`write_tokens: false` by default; see `Typing::default_write_tokens`
    //    for what a resent update then gives up).
    db.update(key.clone())
        .set(Order::fields().status, "shipped".to_owned())
        .await?;
    let stored = db
        .client()
        .get_item()
        .table_name(db.table_name())
        .set_key(Some(key.to_attributes()))
        .consistent_read(true)
        .send()
        .await?
        .item
        .unwrap_or_default();
    let hand_written = legacy_writer::order(
        "bob@example.com",
        "2026-03-20T08:00:00Z",
        "ORD-3",
        "42",
        "shipped",
    );
    assert_eq!(stored, hand_written, "no attribute added by the update");
    println!("updated through the library: byte for byte, no write token");
    Ok(())
}
