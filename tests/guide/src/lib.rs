// src/lib.rs
use chrono::NaiveDate;
use ddb_entity::{Collection, Condition, CursorSeal, Db, Entity, Result, sdk};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    /// One table for the whole service: generic key names, one overloaded
    /// index, each item's entity type in `type`.
    pub struct Shop {
        partition_key: "PK",
        sort_key: "SK",
        type_attribute: "type",
        indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } },
    }
}

/// A customer's profile (`PK=CUST#42`, `SK=PROFILE`, `type=customer`).
/// `version` turns on optimistic locking.
#[derive(Entity, Serialize, Deserialize, Debug, Clone)]
#[entity(table = Shop, pk = "CUST#{customer_id}", sk = "PROFILE", version = "version")]
pub struct Customer {
    pub customer_id: u64,
    pub name: String,
    #[serde(default)]
    pub version: u64,
}

/// Orders live in their customer's partition, sorted by date
/// (`SK=ORDER#2026-03-14#0000009931`, `type=order`); GSI1 finds one by its
/// id (`GSI1PK=ORDER#9931`).
#[derive(Entity, Serialize, Deserialize, Debug, Clone)]
#[entity(table = Shop, pk = "CUST#{customer_id}", sk = "ORDER#{placed}#{order_id}")]
#[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "CUST#{customer_id}")]
pub struct Order {
    pub customer_id: u64,
    pub order_id: u32,
    pub placed: NaiveDate,
    pub total_cents: i64,
}

/// The customer page: profile and orders, filled by ONE Query.
#[derive(Collection, Debug)]
pub struct CustomerPage {
    pub customer: Option<Customer>,
    pub orders: Vec<Order>,
}

/// The service's handle: cheap to clone, one per process. Cursors handed
/// to clients are sealed (encrypted, authenticated, bound to their query).
pub fn shop(client: sdk::Client, table: &str, cursor_key: [u8; 32]) -> Db<Shop> {
    Db::new(client, table).with_cursor_seal(CursorSeal::new(1, cursor_key))
}

pub async fn customer_page(db: &Db<Shop>, customer_id: u64) -> Result<CustomerPage> {
    db.query(Customer::partition(customer_id)?).collect().await
}

/// One page of a customer's orders, newest first, and the cursor of the next.
pub async fn orders(
    db: &Db<Shop>,
    customer_id: u64,
    cursor: Option<&str>,
) -> Result<(Vec<Order>, Option<String>)> {
    let mut query = db
        .query(Order::partition(customer_id)?)
        .sk_begins_with(Order::sk())
        .reverse(true)
        .page_size(2);
    if let Some(cursor) = cursor {
        query = query.after(cursor.parse()?); // a forged cursor: ErrorKind::InvalidCursor
    }
    let page = query.page::<Vec<Order>>().await?;
    Ok((page.items, page.cursor.map(|c| c.to_string())))
}

/// Renames a customer, only over the version the caller read.
pub async fn rename(db: &Db<Shop>, customer_id: u64, read: u64, name: &str) -> Result<Customer> {
    let f = Customer::fields();
    db.update(Customer::key(customer_id)?)
        .set(f.name, name.to_owned())
        .expect_version(read)
        .await
}

/// Places an order for an existing customer: both or nothing.
pub async fn place(db: &Db<Shop>, order: &Order) -> Result<()> {
    db.transact()
        .condition_check(Customer::key(order.customer_id)?, Condition::item_exists())
        .create(order)
        .await
}
