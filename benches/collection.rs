//! Decoding one page of mixed items (1 profile, 10 addresses, 100 orders)
//! into a typed customer view: ours (`Collection::from_items`, what every
//! query does) side by side with what a user writes without us — matching
//! `AttributeValue`s by hand, or dispatching on the type attribute to
//! `serde_dynamo::from_item` — and, for scale, `serde_dynamo::from_items` of
//! the 100 orders alone.
//!
//! Encoding the same 111 entities into items: ours (`Entity::to_item`)
//! side by side with `serde_dynamo::to_item` plus hand-formatted keys and
//! with a `HashMap` built by hand.
//!
//! `cargo bench --bench collection`

use std::hint::black_box;
use std::time::Duration;

use aws_sdk_dynamodb::types::AttributeValue;
use criterion::measurement::WallTime;
use criterion::{BatchSize, BenchmarkGroup, Criterion, criterion_group};
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

/// The key fields of an item, parsed from its stored keys as a careful
/// user does: the library stores a primary-key field in the key only (the
/// declared format), so `customer_id`, `seq`, `placed` and `order_id` are
/// no attributes of their own.
struct Keys<'i> {
    customer_id: u64,
    sk: &'i str,
}

fn keys(item: &Item) -> Option<Keys<'_>> {
    let pk = item.get("PK")?.as_s().ok()?;
    Some(Keys {
        customer_id: pk.strip_prefix("CUST#")?.parse().ok()?,
        sk: item.get("SK")?.as_s().ok()?,
    })
}

/// `ORDER#{placed}#{order_id}` parsed.
fn order_sk(sk: &str) -> Option<(u32, u64)> {
    let (placed, order_id) = sk.strip_prefix("ORDER#")?.split_once('#')?;
    Some((placed.parse().ok()?, order_id.parse().ok()?))
}

/// What a careful user writes by hand for the same view: the type
/// attribute matched, the key fields parsed from the keys, the rest read
/// from the attributes.
fn by_hand(items: Vec<Item>) -> Option<CustomerView> {
    let mut view = CustomerView::default();
    for item in items {
        let keys = keys(&item)?;
        match item
            .get("_type")
            .and_then(|t| t.as_s().ok())
            .map(String::as_str)
        {
            Some("customer") => {
                view.customer = Some(Customer {
                    customer_id: keys.customer_id,
                    name: s(&item, "name")?,
                    email: s(&item, "email")?,
                })
            }
            Some("address") => view.addresses.push(Address {
                customer_id: keys.customer_id,
                seq: keys.sk.strip_prefix("ADDR#")?.parse().ok()?,
                street: s(&item, "street")?,
                city: s(&item, "city")?,
            }),
            Some("order") => {
                let (placed, order_id) = order_sk(keys.sk)?;
                view.orders.push(Order {
                    customer_id: keys.customer_id,
                    order_id,
                    placed,
                    total_cents: n(&item, "total_cents")?,
                    status: s(&item, "status")?,
                })
            }
            _ => {}
        }
    }
    Some(view)
}

/// The key fields of `item` put back as attributes, as a user of a
/// general-purpose decoder (serde_dynamo, or our codec alone) must before
/// decoding a value stored in the declared format.
fn with_key_fields(mut item: Item) -> Item {
    let number = |n: String| AttributeValue::N(n);
    let Some(k) = keys(&item) else { return item };
    let (customer_id, sk) = (k.customer_id, k.sk.to_owned());
    item.insert("customer_id".into(), number(customer_id.to_string()));
    if let Some(seq) = sk.strip_prefix("ADDR#") {
        if let Ok(seq) = seq.parse::<u16>() {
            item.insert("seq".into(), number(seq.to_string()));
        }
    } else if let Some((placed, order_id)) = order_sk(&sk) {
        item.insert("placed".into(), number(placed.to_string()));
        item.insert("order_id".into(), number(order_id.to_string()));
    }
    item
}

/// serde_dynamo, dispatched by hand on the type attribute.
fn serde_dynamo_dispatch(items: Vec<Item>) -> Result<CustomerView, serde_dynamo::Error> {
    let mut view = CustomerView::default();
    for item in items {
        let item = with_key_fields(item);
        let kind = match item.get("_type") {
            Some(AttributeValue::S(kind)) => kind.clone(),
            _ => continue,
        };
        match kind.as_str() {
            "customer" => view.customer = Some(serde_dynamo::from_item(item)?),
            "address" => view.addresses.push(serde_dynamo::from_item(item)?),
            "order" => view.orders.push(serde_dynamo::from_item(item)?),
            _ => {}
        }
    }
    Ok(view)
}

fn decode_view(c: &mut Criterion) {
    let items = page();
    let orders: Vec<Item> = items[11..].to_vec();
    // Every column reads the same view.
    let ours = CustomerView::from_items(items.clone(), UnknownItems::Skip).unwrap();
    for other in [
        by_hand(items.clone()).unwrap(),
        serde_dynamo_dispatch(items.clone()).unwrap(),
        codec_dispatch(items.clone()).unwrap(),
        codec_ref_dispatch(items.clone()).unwrap(),
    ] {
        assert_eq!(ours.customer, other.customer);
        assert_eq!(ours.addresses, other.addresses);
        assert_eq!(ours.orders, other.orders);
    }
    assert_eq!(ours.orders.len(), 100);
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
            |orders: Vec<Item>| {
                let orders: Vec<Item> = orders.into_iter().map(with_key_fields).collect();
                black_box(serde_dynamo::from_items::<_, Order>(orders).unwrap())
            },
            BatchSize::SmallInput,
        )
    });
    codec_columns(&mut group, &items);
    group.finish();
}

/// The member an item's type attribute names, as a careful user finds it.
#[derive(Clone, Copy)]
enum Kind {
    Profile,
    Address,
    Order,
}

fn kind(item: &Item) -> Option<Kind> {
    match item.get("_type")?.as_s().ok()?.as_str() {
        "customer" => Some(Kind::Profile),
        "address" => Some(Kind::Address),
        "order" => Some(Kind::Order),
        _ => None,
    }
}

/// Our codec alone on owned items (key fields put back by hand), dispatched
/// by hand: what
/// `Collection::from_items` costs beyond the decoding itself.
fn codec_dispatch(items: Vec<Item>) -> Result<CustomerView, ddb_entity::codec::DecodeError> {
    use ddb_entity::codec::from_item;
    let mut view = CustomerView::default();
    for item in items {
        let item = with_key_fields(item);
        match kind(&item) {
            Some(Kind::Profile) => view.customer = Some(from_item(item)?),
            Some(Kind::Address) => view.addresses.push(from_item(item)?),
            Some(Kind::Order) => view.orders.push(from_item(item)?),
            None => {}
        }
    }
    Ok(view)
}

/// Our codec reading each item borrowed (strings copied; key fields put back
/// by hand), then dropping it.
fn codec_ref_dispatch(items: Vec<Item>) -> Result<CustomerView, ddb_entity::codec::DecodeError> {
    use ddb_entity::codec::from_item_ref;
    let mut view = CustomerView::default();
    for item in items {
        let item = with_key_fields(item);
        match kind(&item) {
            Some(Kind::Profile) => view.customer = Some(from_item_ref(&item)?),
            Some(Kind::Address) => view.addresses.push(from_item_ref(&item)?),
            Some(Kind::Order) => view.orders.push(from_item_ref(&item)?),
            None => {}
        }
    }
    Ok(view)
}

/// Our codec alone, owned and borrowed, in the decoding group.
fn codec_columns(group: &mut BenchmarkGroup<'_, WallTime>, items: &[Item]) {
    group.bench_function("ours: codec::from_item (owned), dispatched by hand", |b| {
        b.iter_batched(
            || items.to_vec(),
            |items| black_box(codec_dispatch(items).unwrap()),
            BatchSize::SmallInput,
        )
    });
    group.bench_function(
        "ours: codec::from_item_ref (borrowed), dispatched by hand",
        |b| {
            b.iter_batched(
                || items.to_vec(),
                |items| black_box(codec_ref_dispatch(items).unwrap()),
                BatchSize::SmallInput,
            )
        },
    );
}

/// The entities of [`page`].
fn entities() -> (Customer, Vec<Address>, Vec<Order>) {
    let customer = Customer {
        customer_id: 42,
        name: "Ada Lovelace".into(),
        email: "ada@example.com".into(),
    };
    let addresses = (0..10)
        .map(|seq| Address {
            customer_id: 42,
            seq,
            street: format!("{seq} St James's Square"),
            city: "London".into(),
        })
        .collect();
    let orders = (0..100u64)
        .map(|i| Order {
            customer_id: 42,
            order_id: 9000 + i,
            placed: 20260101 + i as u32,
            total_cents: 1_000 + i as i64,
            status: "SHIPPED".into(),
        })
        .collect();
    (customer, addresses, orders)
}

fn s_attr(s: &str) -> AttributeValue {
    AttributeValue::S(s.to_owned())
}

/// The items a careful user builds by hand: every attribute inserted into
/// a map sized for it, keys formatted to the same zero-padded layout.
fn encode_by_hand(customer: &Customer, addresses: &[Address], orders: &[Order]) -> Vec<Item> {
    let mut items = Vec::with_capacity(1 + addresses.len() + orders.len());
    let mut item = Item::with_capacity(6);
    item.insert(
        "PK".into(),
        AttributeValue::S(format!("CUST#{:020}", customer.customer_id)),
    );
    item.insert("SK".into(), s_attr("PROFILE"));
    item.insert("_type".into(), s_attr("customer"));
    item.insert(
        "customer_id".into(),
        AttributeValue::N(customer.customer_id.to_string()),
    );
    item.insert("name".into(), s_attr(&customer.name));
    item.insert("email".into(), s_attr(&customer.email));
    items.push(item);
    for a in addresses {
        let mut item = Item::with_capacity(7);
        item.insert(
            "PK".into(),
            AttributeValue::S(format!("CUST#{:020}", a.customer_id)),
        );
        item.insert("SK".into(), AttributeValue::S(format!("ADDR#{:03}", a.seq)));
        item.insert("_type".into(), s_attr("address"));
        item.insert(
            "customer_id".into(),
            AttributeValue::N(a.customer_id.to_string()),
        );
        item.insert("seq".into(), AttributeValue::N(a.seq.to_string()));
        item.insert("street".into(), s_attr(&a.street));
        item.insert("city".into(), s_attr(&a.city));
        items.push(item);
    }
    for o in orders {
        let mut item = Item::with_capacity(8);
        item.insert(
            "PK".into(),
            AttributeValue::S(format!("CUST#{:020}", o.customer_id)),
        );
        item.insert(
            "SK".into(),
            AttributeValue::S(format!("ORDER#{:010}#{:020}", o.placed, o.order_id)),
        );
        item.insert("_type".into(), s_attr("order"));
        item.insert(
            "customer_id".into(),
            AttributeValue::N(o.customer_id.to_string()),
        );
        item.insert("order_id".into(), AttributeValue::N(o.order_id.to_string()));
        item.insert("placed".into(), AttributeValue::N(o.placed.to_string()));
        item.insert(
            "total_cents".into(),
            AttributeValue::N(o.total_cents.to_string()),
        );
        item.insert("status".into(), s_attr(&o.status));
        items.push(item);
    }
    items
}

/// serde_dynamo's body plus the same keys and type, by hand.
fn encode_serde_dynamo(customer: &Customer, addresses: &[Address], orders: &[Order]) -> Vec<Item> {
    fn with_keys<T: Serialize>(value: &T, pk: String, sk: String, kind: &str) -> Item {
        let mut item: Item = serde_dynamo::to_item(value).unwrap();
        item.insert("PK".into(), AttributeValue::S(pk));
        item.insert("SK".into(), AttributeValue::S(sk));
        item.insert("_type".into(), s_attr(kind));
        item
    }
    let mut items = Vec::with_capacity(1 + addresses.len() + orders.len());
    let pk = |id: u64| format!("CUST#{id:020}");
    items.push(with_keys(
        customer,
        pk(customer.customer_id),
        "PROFILE".into(),
        "customer",
    ));
    for a in addresses {
        items.push(with_keys(
            a,
            pk(a.customer_id),
            format!("ADDR#{:03}", a.seq),
            "address",
        ));
    }
    for o in orders {
        let sk = format!("ORDER#{:010}#{:020}", o.placed, o.order_id);
        items.push(with_keys(o, pk(o.customer_id), sk, "order"));
    }
    items
}

fn encode_ours(customer: &Customer, addresses: &[Address], orders: &[Order]) -> Vec<Item> {
    let mut items = Vec::with_capacity(1 + addresses.len() + orders.len());
    items.push(customer.to_item().unwrap());
    items.extend(addresses.iter().map(|a| a.to_item().unwrap()));
    items.extend(orders.iter().map(|o| o.to_item().unwrap()));
    items
}

fn encode_page(c: &mut Criterion) {
    let (customer, addresses, orders) = entities();
    // The three build the same items.
    let ours = encode_ours(&customer, &addresses, &orders);
    assert_eq!(ours, encode_by_hand(&customer, &addresses, &orders));
    assert_eq!(ours, encode_serde_dynamo(&customer, &addresses, &orders));
    assert_eq!(ours, page());
    let mut group = c.benchmark_group("encode 111 mixed entities into items");
    // Each page of items is dropped as soon as it is built, inside the
    // measurement (the same items cost the same to drop): keeping them all
    // until the end measures the kernel's page faults instead.
    group.bench_function("ours: Entity::to_item", |b| {
        b.iter(|| black_box(encode_ours(&customer, &addresses, &orders)))
    });
    group.bench_function("hand-built HashMap", |b| {
        b.iter(|| black_box(encode_by_hand(&customer, &addresses, &orders)))
    });
    group.bench_function("serde_dynamo::to_item, keys by hand", |b| {
        b.iter(|| black_box(encode_serde_dynamo(&customer, &addresses, &orders)))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    targets = decode_view, encode_page
}
/// `COLLECTION_LOOP=ours|hand N`: decodes the page `N` times with one
/// column and exits, for an instruction count under callgrind
/// (`valgrind --tool=callgrind --toggle-collect='*decode_loop*'`), which a
/// loaded machine does not disturb. Otherwise the criterion benches.
fn main() {
    match std::env::var("COLLECTION_LOOP").as_deref() {
        Ok(column) => {
            let runs: usize = std::env::var("COLLECTION_RUNS")
                .ok()
                .and_then(|runs| runs.parse().ok())
                .unwrap_or(100);
            let items = page();
            for _ in 0..runs {
                black_box(decode_loop(column, items.clone()));
            }
        }
        Err(_) => {
            benches();
            Criterion::default().configure_from_args().final_summary();
        }
    }
}

/// One decode of the page by `column`, the page's clone not counted.
#[inline(never)]
fn decode_loop(column: &str, items: Vec<Item>) -> CustomerView {
    match column {
        "ours" => CustomerView::from_items(items, UnknownItems::Skip).unwrap(),
        "hand" => by_hand(items).unwrap(),
        other => panic!("COLLECTION_LOOP: no column {other:?} (ours, hand)"),
    }
}
