//! A customer view: a profile, addresses, orders and tickets under
//! `PK=CUST#42`, read back as one typed view with **one** Query; orders cut
//! by year, month and day; open tickets through a sparse index that shrinks
//! when a ticket is closed.
//!
//! ```sh
//! cargo run --example customer_view
//! ```
//!
//! Every request the client sends is counted by an SDK interceptor and
//! printed next to the access pattern it served.

use std::sync::{Arc, Mutex};

use chrono::NaiveDate;
use ddb_entity::key::{Year, YearMonth};
use ddb_entity::local::LocalDynamo;
use ddb_entity::{Collection, Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    /// The single table.
    pub struct App {
        partition_key: "PK",
        sort_key: "SK",
        indexes: {
            /// Sparse: only open tickets carry GSI1PK.
            pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
        },
    }
}

/// `SK=PROFILE`
#[derive(Entity, Serialize, Deserialize, Debug)]
#[entity(table = App, pk = "CUST#{customer_id}", sk = "PROFILE")]
struct Customer {
    customer_id: u64,
    name: String,
}

/// `SK=ADDR#001`
#[derive(Entity, Serialize, Deserialize, Debug)]
#[entity(table = App, pk = "CUST#{customer_id}", sk = "ADDR#{seq:3}")]
struct Address {
    customer_id: u64,
    seq: u16,
    city: String,
}

/// `SK=ORDER#2026-03-14#…9931`: coarse to fine, so begins_with cuts it by
/// year, month or day.
#[derive(Entity, Serialize, Deserialize, Debug)]
#[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{placed}#{order_id}")]
struct Order {
    customer_id: u64,
    order_id: u64,
    placed: NaiveDate,
    total_cents: i64,
}

/// `SK=TICKET#…7`; in GSI1 only while `open_since` is set.
#[derive(Entity, Serialize, Deserialize, Debug)]
#[entity(table = App, pk = "CUST#{customer_id}", sk = "TICKET#{ticket_id}")]
#[entity(index = Gsi1, pk = "OPEN#{open_since}", sk = "CUST#{customer_id}#{ticket_id}")]
struct Ticket {
    customer_id: u64,
    ticket_id: u32,
    subject: String,
    open_since: Option<NaiveDate>,
}

/// The whole customer, from one Query.
#[derive(Collection, Debug)]
struct CustomerView {
    customer: Option<Customer>,
    addresses: Vec<Address>,
    orders: Vec<Order>,
    tickets: Vec<Ticket>,
}

/// Counts the HTTP requests the SDK sends.
#[derive(Debug, Clone, Default)]
struct Requests(Arc<Mutex<usize>>);

impl Requests {
    fn take(&self) -> usize {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

impl aws_sdk_dynamodb::config::Intercept for Requests {
    fn name(&self) -> &'static str {
        "Requests"
    }
    fn read_before_transmit(
        &self,
        _: &aws_sdk_dynamodb::config::interceptors::BeforeTransmitInterceptorContextRef<'_>,
        _: &aws_sdk_dynamodb::config::RuntimeComponents,
        _: &mut aws_sdk_dynamodb::config::ConfigBag,
    ) -> Result<(), aws_sdk_dynamodb::error::BoxError> {
        *self.0.lock().unwrap() += 1;
        Ok(())
    }
}

type Error = Box<dyn std::error::Error + Send + Sync>;

fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).expect("a real date")
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Error> {
    let dynamo = LocalDynamo::start().await?;
    let requests = Requests::default();
    let client = aws_sdk_dynamodb::Client::from_conf(
        dynamo
            .config_builder()
            .interceptor(requests.clone())
            .build(),
    );
    let db = Db::<App>::new(client, dynamo.unique_table_name("customer-view"));
    db.create_table_if_missing().await?;
    requests.take();

    db.put(&Customer {
        customer_id: 42,
        name: "Ada Lovelace".into(),
    })
    .await?;
    for (seq, city) in [(1, "London"), (2, "Marylebone")] {
        db.put(&Address {
            customer_id: 42,
            seq,
            city: city.into(),
        })
        .await?;
    }
    let placed = [
        day(2025, 12, 30),
        day(2026, 3, 2),
        day(2026, 3, 14),
        day(2026, 3, 14),
        day(2026, 4, 9),
    ];
    for (i, placed) in placed.into_iter().enumerate() {
        let order = Order {
            customer_id: 42,
            order_id: 9930 + i as u64,
            placed,
            total_cents: 1_000 * (i as i64 + 1),
        };
        db.put(&order).await?;
    }
    for (ticket_id, subject, open_since) in [
        (7, "late parcel", Some(day(2026, 3, 15))),
        (8, "wrong size", None),
    ] {
        db.put(&Ticket {
            customer_id: 42,
            ticket_id,
            subject: subject.into(),
            open_since,
        })
        .await?;
    }
    println!(
        "wrote 10 items with PutItem: {} requests\n",
        requests.take()
    );

    println!(
        "the customer view: Query PK = {}",
        Customer::partition(42)?.as_str()
    );
    let view: CustomerView = db.query(Customer::partition(42)?).collect().await?;
    println!(
        "  -> {} | {} addresses | {} orders | {} tickets   [{} request]",
        view.customer.as_ref().map_or("?", |c| c.name.as_str()),
        view.addresses.len(),
        view.orders.len(),
        view.tickets.len(),
        requests.take()
    );

    let orders = || db.query(Order::partition(42u64).expect("a valid partition"));
    for (label, cut) in [
        ("orders of 2026", Order::sk().placed_prefix(Year(2026))),
        (
            "orders of March 2026",
            Order::sk().placed_prefix(YearMonth(2026, 3)),
        ),
        (
            "orders of 14 March 2026",
            Order::sk().placed(day(2026, 3, 14)).into(),
        ),
    ] {
        let value = cut.value()?.to_owned();
        let found: Vec<Order> = orders().sk_begins_with(cut).all().await?;
        let ids: Vec<u64> = found.iter().map(|o| o.order_id).collect();
        println!(
            "{label}: begins_with(SK, {value:?}) -> {ids:?}   [{} request]",
            requests.take()
        );
    }
    let range: Vec<Order> = orders()
        .sk_between(
            Order::sk().placed(day(2026, 3, 1)),
            Order::sk().placed_prefix(YearMonth(2026, 4)),
        )
        .reverse(true)
        .all()
        .await?;
    let ids: Vec<u64> = range.iter().map(|o| o.order_id).collect();
    println!(
        "1 March through April, newest first: BETWEEN -> {ids:?}   [{} request]",
        requests.take()
    );

    let open = || db.query(Ticket::gsi1_partition(day(2026, 3, 15)).expect("a valid partition"));
    let before: Vec<Ticket> = open().all().await?;
    println!(
        "\nopen tickets opened 2026-03-15 (sparse GSI1): {:?}   [{} request]",
        before.iter().map(|t| &t.subject).collect::<Vec<_>>(),
        requests.take()
    );
    let closed = db
        .update(Ticket::key(42, 7u32)?)
        .remove(Ticket::fields().open_since)
        .await?;
    println!(
        "closed ticket {} (UpdateItem REMOVE open_since, GSI1PK, GSI1SK)   [{} request]",
        closed.ticket_id,
        requests.take()
    );
    let after: Vec<Ticket> = open().all().await?;
    println!(
        "open tickets now: {}   [{} request]",
        after.len(),
        requests.take()
    );
    Ok(())
}
