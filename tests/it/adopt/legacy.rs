//! The hand-designed table, its entities as the library describes them,
//! and the hand-written code that fills it with raw SDK calls.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{TimeZone, Utc};
use ddb_entity::key::{IsoSeconds, Unordered};
use ddb_entity::local::LocalDynamo;
use ddb_entity::{Collection, Db, Entity, Item};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    /// Seed 003's `app_data`: generic key names, two overloaded indexes,
    /// and no type attribute: the keys are the types.
    pub struct Legacy {
        partition_key: "PK",
        sort_key: "SK",
        typed_by: Key,
        indexes: {
            /// Orders by id: `GSI1PK = ORDER#<id>`, `GSI1SK = USER#<email>`.
            pub ByOrder = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
            /// Sparse: active users only, `GSI2PK = STATUS#active`.
            pub ByStatus = "GSI2" { partition_key: "GSI2PK", sort_key: "GSI2SK" },
        },
    }
}

/// `PK=USER#<email>`, `SK=PROFILE`; in GSI2 while active.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = Legacy, pk = "USER#{email}", sk = "PROFILE")]
// The hand-written code stores its key fields as attributes too.
#[entity(key_fields = "key_and_body")]
#[entity(index = ByStatus, pk = "STATUS#active", sk = "USER#{email}", when = User::is_active(status))]
pub struct User {
    pub email: String,
    pub name: String,
    pub status: String,
}

impl User {
    fn is_active(status: &String) -> bool {
        status == "active"
    }
}

/// `PK=USER#<email>`, `SK=ORDER#<iso ts>#<order id>`; GSI1 by order id.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = Legacy, pk = "USER#{email}", sk = "ORDER#{placed_at}#{order_id}")]
// The hand-written code stores its key fields as attributes too.
#[entity(key_fields = "key_and_body")]
#[entity(index = ByOrder, pk = "ORDER#{order_id}", sk = "USER#{email}")]
pub struct Order {
    pub email: String,
    pub placed_at: IsoSeconds,
    pub order_id: String,
    pub order_total: f64,
    pub status: String,
}

/// `PK=USER#<email>`, `SK=ORDER#<ts>#<id>#LINE#<n>`, `n` unpadded: inside
/// the order's key space, told apart from it by the full parse.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = Legacy, type = "LINE", pk = "USER#{email}", sk = "ORDER#{placed_at}#{order_id}#LINE#{line}")]
// The hand-written code stores its key fields as attributes too.
#[entity(key_fields = "key_and_body")]
pub struct OrderLine {
    pub email: String,
    pub placed_at: IsoSeconds,
    pub order_id: String,
    pub line: Unordered<u32>,
    pub note: String,
}

/// `PK=ORDER#<id>`, `SK=ITEM#<sku>`.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = Legacy, pk = "ORDER#{order_id}", sk = "ITEM#{sku}")]
// The hand-written code stores its key fields as attributes too.
#[entity(key_fields = "key_and_body")]
pub struct OrderItem {
    pub order_id: String,
    pub sku: String,
    pub qty: u32,
    pub price: f64,
}

/// A user's partition: the profile, the orders and their lines, in one
/// Query.
#[derive(Collection, Debug)]
pub struct UserView {
    pub profile: Option<User>,
    pub orders: Vec<Order>,
    pub lines: Vec<OrderLine>,
}

/// Every entity of the table, for the survey.
#[derive(Collection, Debug)]
pub enum Everything {
    User(User),
    Order(Order),
    OrderLine(OrderLine),
    OrderItem(OrderItem),
}

pub fn at(day: u32, hour: u32) -> IsoSeconds {
    IsoSeconds(Utc.with_ymd_and_hms(2026, 3, day, hour, 0, 0).unwrap())
}

pub async fn legacy_table() -> (LocalDynamo, Db<Legacy>) {
    let dynamo = LocalDynamo::start().await.expect("local DynamoDB starts");
    let db = Db::<Legacy>::new(dynamo.client(), dynamo.unique_table_name("adopt"));
    db.create_table_if_missing()
        .send()
        .await
        .expect("table is created");
    (dynamo, db)
}

fn s(value: &str) -> AttributeValue {
    AttributeValue::S(value.to_owned())
}

fn n(value: &str) -> AttributeValue {
    AttributeValue::N(value.to_owned())
}

/// The items the hand-written code writes, exactly as it writes them.
pub mod hand {
    use super::*;

    pub fn user(email: &str, name: &str, status: &str) -> Item {
        let mut item = HashMap::from([
            ("PK".to_owned(), s(&format!("USER#{email}"))),
            ("SK".to_owned(), s("PROFILE")),
            ("email".to_owned(), s(email)),
            ("name".to_owned(), s(name)),
            ("status".to_owned(), s(status)),
        ]);
        if status == "active" {
            item.insert("GSI2PK".into(), s("STATUS#active"));
            item.insert("GSI2SK".into(), s(&format!("USER#{email}")));
        }
        item
    }

    pub fn order(email: &str, placed_at: &str, order_id: &str, total: &str, status: &str) -> Item {
        HashMap::from([
            ("PK".to_owned(), s(&format!("USER#{email}"))),
            ("SK".to_owned(), s(&format!("ORDER#{placed_at}#{order_id}"))),
            ("GSI1PK".to_owned(), s(&format!("ORDER#{order_id}"))),
            ("GSI1SK".to_owned(), s(&format!("USER#{email}"))),
            ("email".to_owned(), s(email)),
            ("placed_at".to_owned(), s(placed_at)),
            ("order_id".to_owned(), s(order_id)),
            ("order_total".to_owned(), n(total)),
            ("status".to_owned(), s(status)),
        ])
    }

    pub fn line(email: &str, placed_at: &str, order_id: &str, line: u32, note: &str) -> Item {
        HashMap::from([
            ("PK".to_owned(), s(&format!("USER#{email}"))),
            (
                "SK".to_owned(),
                s(&format!("ORDER#{placed_at}#{order_id}#LINE#{line}")),
            ),
            ("email".to_owned(), s(email)),
            ("placed_at".to_owned(), s(placed_at)),
            ("order_id".to_owned(), s(order_id)),
            ("line".to_owned(), n(&line.to_string())),
            ("note".to_owned(), s(note)),
        ])
    }

    pub fn order_item(order_id: &str, sku: &str, qty: u32, price: &str) -> Item {
        HashMap::from([
            ("PK".to_owned(), s(&format!("ORDER#{order_id}"))),
            ("SK".to_owned(), s(&format!("ITEM#{sku}"))),
            ("order_id".to_owned(), s(order_id)),
            ("sku".to_owned(), s(sku)),
            ("qty".to_owned(), n(&qty.to_string())),
            ("price".to_owned(), n(price)),
        ])
    }

    /// Alice (active) with two orders, the first with two lines (2 and
    /// 10: unpadded, 10 sorts before 2), its items; Bob (inactive) with one.
    pub fn dataset() -> Vec<Item> {
        vec![
            user("alice@example.com", "Alice", "active"),
            order(
                "alice@example.com",
                "2026-03-01T09:00:00Z",
                "ORD-1",
                "129.99",
                "shipped",
            ),
            line(
                "alice@example.com",
                "2026-03-01T09:00:00Z",
                "ORD-1",
                2,
                "gift wrap",
            ),
            line(
                "alice@example.com",
                "2026-03-01T09:00:00Z",
                "ORD-1",
                10,
                "fragile",
            ),
            order(
                "alice@example.com",
                "2026-03-14T18:00:00Z",
                "ORD-2",
                "15.5",
                "open",
            ),
            order_item("ORD-1", "SKU-A", 2, "50"),
            order_item("ORD-1", "SKU-B", 1, "29.99"),
            user("bob@example.com", "Bob", "inactive"),
            order(
                "bob@example.com",
                "2026-03-02T12:00:00Z",
                "ORD-3",
                "7",
                "open",
            ),
        ]
    }
}

/// The hand-written table filled with [`hand::dataset`], and a handle on
/// it whose requests are logged.
pub async fn logged_legacy_table() -> (LocalDynamo, Db<Legacy>, crate::support::RequestLog) {
    let (dynamo, db) = legacy_table().await;
    put_raw(&db, hand::dataset()).await;
    let log = crate::support::RequestLog::default();
    let config = dynamo.config_builder().interceptor(log.clone()).build();
    let client = aws_sdk_dynamodb::Client::from_conf(config);
    let logged = Db::<Legacy>::new(client, db.table_name());
    (dynamo, logged, log)
}

/// Writes `items` with raw PutItem calls, as the hand-written code does.
pub async fn put_raw(db: &Db<Legacy>, items: Vec<Item>) {
    for item in items {
        db.client()
            .put_item()
            .table_name(db.table_name())
            .set_item(Some(item))
            .send()
            .await
            .expect("raw PutItem succeeds");
    }
}

/// The item stored at (`pk`, `sk`), as DynamoDB returns it.
pub async fn raw_item(db: &Db<Legacy>, pk: &str, sk: &str) -> Option<Item> {
    db.client()
        .get_item()
        .table_name(db.table_name())
        .key("PK", s(pk))
        .key("SK", s(sk))
        .consistent_read(true)
        .send()
        .await
        .expect("raw GetItem succeeds")
        .item
}

pub fn alice() -> User {
    User {
        email: "alice@example.com".into(),
        name: "Alice".into(),
        status: "active".into(),
    }
}

pub fn order(
    email: &str,
    placed_at: IsoSeconds,
    order_id: &str,
    total: f64,
    status: &str,
) -> Order {
    Order {
        email: email.into(),
        placed_at,
        order_id: order_id.into(),
        order_total: total,
        status: status.into(),
    }
}

pub fn line(placed_at: IsoSeconds, order_id: &str, line: u32, note: &str) -> OrderLine {
    OrderLine {
        email: "alice@example.com".into(),
        placed_at,
        order_id: order_id.into(),
        line: Unordered(line),
        note: note.into(),
    }
}
