//! The seed lessons' models as entities: seed 003's e-commerce table
//! (users by email, orders newest first, orders by id through GSI1, active
//! users through the sparse GSI2) and seed 000's customer view (profile,
//! addresses and orders under `CUST#{id}`, open tickets in a sparse index).

use chrono::{DateTime, NaiveDate, Utc};
use ddb_entity::{Entity, KeyPart};
use serde::{Deserialize, Serialize};

use crate::support::{App, Gsi1, Gsi2};

/// Seed 003: `PK=USER#<email>`, `SK=PROFILE`; only active users are in GSI2.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "USER#{email}", sk = "PROFILE")]
#[entity(index = Gsi2, pk = "STATUS#{active_since}", sk = "USER#{email}")]
pub struct User {
    pub email: String,
    pub name: String,
    /// `Some` while the user is active: the sparse index is the filter.
    pub active_since: Option<NaiveDate>,
}

/// Seed 003: orders under their user, newest first by timestamp; GSI1 finds
/// one by id without knowing the user or the timestamp.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "USER#{email}", sk = "ORDER#{placed_at}#{order_id}")]
#[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "USER#{email}")]
pub struct Order {
    pub email: String,
    pub order_id: String,
    pub placed_at: DateTime<Utc>,
    pub status: OrderStatus,
    pub total_cents: i64,
}

/// A unit enum as a key part: stable, explicit names.
#[derive(KeyPart, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum OrderStatus {
    #[key(rename = "OPEN")]
    Open,
    #[key(rename = "SHIPPED")]
    Shipped,
}

/// Seed 003: the items of an order, in their own partition.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "ORDER#{order_id}", sk = "ITEM#{sku}")]
pub struct OrderItem {
    pub order_id: String,
    pub sku: String,
    pub quantity: u32,
}

/// Seed 000: `PK=CUST#42`, `SK=PROFILE`.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "CUST#{customer_id}", sk = "PROFILE")]
pub struct Customer {
    pub customer_id: u64,
    pub name: String,
}

/// Seed 000: `SK=ADDR#1`, a narrower declared width.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "CUST#{customer_id}", sk = "ADDR#{seq:3}")]
pub struct Address {
    pub customer_id: u64,
    pub seq: u16,
    pub city: String,
}

/// Seed 000: `SK=ORDER#2026-03-14#9931`, cut by year, month and day.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{placed}#{order_id}")]
#[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "CUST#{customer_id}")]
pub struct CustomerOrder {
    pub customer_id: u64,
    pub order_id: u64,
    pub placed: NaiveDate,
    pub total_cents: i64,
}

/// Seed 000: open tickets via a sparse index that shrinks when one closes.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "CUST#{customer_id}", sk = "TICKET#{ticket_id}")]
#[entity(index = Gsi2, pk = "OPEN#{open_since}", sk = "TICKET#{ticket_id}")]
pub struct Ticket {
    pub customer_id: u64,
    pub ticket_id: u32,
    pub subject: String,
    pub open_since: Option<NaiveDate>,
}

/// Entity types are told apart by prefix even where the rest of their keys
/// could collide.
pub fn date(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).expect("valid date")
}

/// Compile-time fact: every entity type above has its type prefix.
pub const TYPES: [&str; 7] = [
    User::TYPE_TAG,
    Order::TYPE_TAG,
    OrderItem::TYPE_TAG,
    Customer::TYPE_TAG,
    Address::TYPE_TAG,
    CustomerOrder::TYPE_TAG,
    Ticket::TYPE_TAG,
];

/// Seed 000's customer view: everything under `CUST#{customer_id}` that the
/// view shows, filled by one Query (tickets are not part of it).
#[derive(ddb_entity::Collection, Debug, Clone, PartialEq)]
pub struct CustomerView {
    pub customer: Option<Customer>,
    /// `ADDR#…` sorts by sequence number.
    pub addresses: Vec<Address>,
    /// `ORDER#{placed}#…`: oldest first, or newest first on a reversed Query.
    pub orders: Vec<CustomerOrder>,
}

/// Any one item of a customer's partition, for streams of mixed items
/// (`Vec<CustomerItem>` is a collection).
#[derive(ddb_entity::Collection, Debug, Clone, PartialEq)]
pub enum CustomerItem {
    Customer(Customer),
    Order(CustomerOrder),
    Ticket(Ticket),
}
