//! Decoding one page of mixed items (1 profile, 10 addresses, 100 orders)
//! into a typed customer view: ours (`Collection::from_items`, what every
//! query does) side by side with what a user writes without us — matching
//! `AttributeValue`s by hand, or dispatching on the type attribute to
//! `serde_dynamo::from_item` — and, for scale, `serde_dynamo::from_items` of
//! the 100 orders alone.
//!
//! `cargo bench --bench collection`

use std::hint::black_box;
use std::time::Duration;

use aws_sdk_dynamodb::types::AttributeValue;
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use ddb_entity::{Collection, Entity, Item, UnknownItems};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    /// The bench table.
    pub struct App { partition_key: "PK", sort_key: "SK" }
}

#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "CUST#{customer_id}", sk = "PROFILE")]
struct Customer {
    customer_id: u64,
    name: String,
    email: String,
}

#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "CUST#{customer_id}", sk = "ADDR#{seq:3}")]
struct Address {
    customer_id: u64,
    seq: u16,
    street: String,
    city: String,
}

#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{placed}#{order_id}")]
struct Order {
    customer_id: u64,
    order_id: u64,
    placed: u32,
    total_cents: i64,
    status: String,
}

#[derive(Collection, Debug)]
struct CustomerView {
    customer: Option<Customer>,
    addresses: Vec<Address>,
    orders: Vec<Order>,
}

fn page() -> Vec<Item> {
    let mut items = vec![
        Customer {
            customer_id: 42,
            name: "Ada Lovelace".into(),
            email: "ada@example.com".into(),
        }
        .to_item()
        .unwrap(),
    ];
    for seq in 0..10 {
        let address = Address {
            customer_id: 42,
            seq,
            street: format!("{seq} St James's Square"),
            city: "London".into(),
        };
        items.push(address.to_item().unwrap());
    }
    for i in 0..100u64 {
        let order = Order {
            customer_id: 42,
            order_id: 9000 + i,
            placed: 20260101 + i as u32,
            total_cents: 1_000 + i as i64,
            status: "SHIPPED".into(),
        };
        items.push(order.to_item().unwrap());
    }
    items
}

fn s(item: &Item, name: &str) -> Option<String> {
    item.get(name)?.as_s().ok().cloned()
}

fn n<T: std::str::FromStr>(item: &Item, name: &str) -> Option<T> {
    item.get(name)?.as_n().ok()?.parse().ok()
}

/// What a careful user writes by hand for the same view.
fn by_hand(items: Vec<Item>) -> Option<CustomerView> {
    let mut view = CustomerView::default();
    for item in items {
        match item
            .get("_type")
            .and_then(|t| t.as_s().ok())
            .map(String::as_str)
        {
            Some("PROFILE") => {
                view.customer = Some(Customer {
                    customer_id: n(&item, "customer_id")?,
                    name: s(&item, "name")?,
                    email: s(&item, "email")?,
                })
            }
            Some("ADDR") => view.addresses.push(Address {
                customer_id: n(&item, "customer_id")?,
                seq: n(&item, "seq")?,
                street: s(&item, "street")?,
                city: s(&item, "city")?,
            }),
            Some("ORDER") => view.orders.push(Order {
                customer_id: n(&item, "customer_id")?,
                order_id: n(&item, "order_id")?,
                placed: n(&item, "placed")?,
                total_cents: n(&item, "total_cents")?,
                status: s(&item, "status")?,
            }),
            _ => {}
        }
    }
    Some(view)
}

/// serde_dynamo, dispatched by hand on the type attribute.
fn serde_dynamo_dispatch(items: Vec<Item>) -> Result<CustomerView, serde_dynamo::Error> {
    let mut view = CustomerView::default();
    for item in items {
        let kind = match item.get("_type") {
            Some(AttributeValue::S(kind)) => kind.clone(),
            _ => continue,
        };
        match kind.as_str() {
            "PROFILE" => view.customer = Some(serde_dynamo::from_item(item)?),
            "ADDR" => view.addresses.push(serde_dynamo::from_item(item)?),
            "ORDER" => view.orders.push(serde_dynamo::from_item(item)?),
            _ => {}
        }
    }
    Ok(view)
}

fn decode_view(c: &mut Criterion) {
    let items = page();
    let orders: Vec<Item> = items[11..].to_vec();
    let mut group = c.benchmark_group("decode a page of 111 mixed items");
    group.bench_function("ours: Collection::from_items", |b| {
        b.iter_batched(
            || items.clone(),
            |items| black_box(CustomerView::from_items(items, UnknownItems::Skip).unwrap()),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("hand-written AttributeValue matching", |b| {
        b.iter_batched(
            || items.clone(),
            |items| black_box(by_hand(items).unwrap()),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("serde_dynamo::from_item, dispatched by hand", |b| {
        b.iter_batched(
            || items.clone(),
            |items| black_box(serde_dynamo_dispatch(items).unwrap()),
            BatchSize::SmallInput,
        )
    });
    // What verifying costs on its own: each decoded value's primary key,
    // built and compared with the stored one (the rest of ours is
    // decoding and demultiplexing).
    let view = CustomerView::from_items(items.clone(), UnknownItems::Skip).unwrap();
    group.bench_function("ours: key verification alone (111 primary keys)", |b| {
        b.iter(|| {
            let mut stored = items.iter().map(|item| item["SK"].as_s().unwrap());
            let customer = view
                .customer
                .iter()
                .map(|c| c.primary_key().unwrap().into_parts().1);
            let addresses = view
                .addresses
                .iter()
                .map(|a| a.primary_key().unwrap().into_parts().1);
            let orders = view
                .orders
                .iter()
                .map(|o| o.primary_key().unwrap().into_parts().1);
            let all = customer.chain(addresses).chain(orders);
            black_box(all.filter(|sk| Some(sk) == stored.next()).count())
        })
    });
    group.bench_function("serde_dynamo::from_items, the 100 orders only", |b| {
        b.iter_batched(
            || orders.clone(),
            |orders| black_box(serde_dynamo::from_items::<_, Order>(orders).unwrap()),
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    targets = decode_view
}
criterion_main!(benches);
