//! Batch-writing 100 items to the embedded DynamoDB: ours (`Db::batch_write`,
//! which builds each item, checks its size and numbers, plans the requests
//! and retries) side by side with what a user writes without us — items from
//! `serde_dynamo::to_item` plus hand-formatted key attributes, sent with the
//! SDK's `batch_write_item` in chunks of 25 — both one chunk at a time and 4
//! at a time. Same server, same runtime, one run.
//!
//! Then one put of one item, by hand, ours plain, and ours with the write
//! token that makes a resend recognise its own write (issue 11's cost).
//!
//! `cargo bench --bench batch`

use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, PutRequest, WriteRequest};
use criterion::{Criterion, criterion_group, criterion_main};
use ddb_entity::local::LocalDynamo;
use ddb_entity::{Db, Entity, Item};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    /// The bench table.
    pub struct App { partition_key: "PK", sort_key: "SK" }
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

const N: u64 = 100;

fn orders() -> Vec<Order> {
    (0..N)
        .map(|i| Order {
            customer_id: 42 + i % 10,
            order_id: 9000 + i,
            placed: 20260101 + i as u32,
            total_cents: 1_000 + i as i64,
            status: "SHIPPED".into(),
        })
        .collect()
}

async fn ours(db: &Db<App>, orders: &[Order], concurrency: usize) {
    let mut batch = db.batch_write().concurrency(concurrency);
    for order in orders {
        batch = batch.put(order);
    }
    batch.await.unwrap();
}

/// The item a careful user builds by hand: the serde body, the keys
/// formatted to the same zero-padded layout, the type attribute.
fn item_by_hand(order: &Order) -> Item {
    let mut item: Item = serde_dynamo::to_item(order).unwrap();
    item.insert(
        "PK".into(),
        AttributeValue::S(format!("CUST#{:020}", order.customer_id)),
    );
    item.insert(
        "SK".into(),
        AttributeValue::S(format!("ORDER#{:010}#{:020}", order.placed, order.order_id)),
    );
    item.insert("_type".into(), AttributeValue::S("order".into()));
    item
}

/// One chunk through `batch_write_item`, resending `UnprocessedItems`
/// until none is left (no backoff: the embedded server never returns any).
async fn chunk_by_hand(client: &Client, table: &str, chunk: &[Order]) {
    let mut requests: Vec<WriteRequest> = chunk
        .iter()
        .map(|order| {
            let put = PutRequest::builder()
                .set_item(Some(item_by_hand(order)))
                .build()
                .unwrap();
            WriteRequest::builder().put_request(put).build()
        })
        .collect();
    while !requests.is_empty() {
        let output = client
            .batch_write_item()
            .request_items(table, requests)
            .send()
            .await
            .unwrap();
        requests = output
            .unprocessed_items
            .and_then(|mut tables| tables.remove(table))
            .unwrap_or_default();
    }
}

async fn by_hand_sequential(client: &Client, table: &str, orders: &[Order]) {
    for chunk in orders.chunks(25) {
        chunk_by_hand(client, table, chunk).await;
    }
}

async fn by_hand_concurrent(client: &Client, table: &str, orders: &[Order]) {
    let chunks: Vec<&[Order]> = orders.chunks(25).collect();
    let [a, b, c, d] = chunks[..] else {
        unreachable!("100 orders are 4 chunks")
    };
    tokio::join!(
        chunk_by_hand(client, table, a),
        chunk_by_hand(client, table, b),
        chunk_by_hand(client, table, c),
        chunk_by_hand(client, table, d),
    );
}

fn batch_write(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let dynamo = rt.block_on(LocalDynamo::start_embedded()).unwrap();
    let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("bench"));
    rt.block_on(db.create_table_if_missing().send()).unwrap();
    let orders = orders();
    // Both write the same items.
    assert_eq!(
        orders[7].to_item().unwrap(),
        item_by_hand(&orders[7]),
        "the hand-built item matches ours"
    );
    let client = db.client().clone();
    let table = db.table_name().to_owned();

    let mut group = c.benchmark_group("batch-write 100 items (4 requests)");
    group.bench_function("ours: Db::batch_write, 4 in flight (default)", |b| {
        b.iter(|| rt.block_on(ours(&db, &orders, 4)))
    });
    group.bench_function("SDK batch_write_item by hand, 4 in flight", |b| {
        b.iter(|| rt.block_on(by_hand_concurrent(&client, &table, &orders)))
    });
    group.bench_function("ours: Db::batch_write, one at a time", |b| {
        b.iter(|| rt.block_on(ours(&db, &orders, 1)))
    });
    group.bench_function("SDK batch_write_item by hand, one at a time", |b| {
        b.iter(|| rt.block_on(by_hand_sequential(&client, &table, &orders)))
    });
    group.finish();
}

/// One PutItem of one order: by hand (no condition, no token), ours plain
/// (`Db::put`: the type guard, no token: a plain put is idempotent), and
/// ours with the write token (a conditional put, which stores `_wt` and
/// recognises its own earlier attempt), to price the token.
fn single_put(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let dynamo = rt.block_on(LocalDynamo::start_embedded()).unwrap();
    let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("bench"));
    rt.block_on(db.create_table_if_missing().send()).unwrap();
    let order = orders().remove(7);
    rt.block_on(db.put(&order).send()).unwrap();
    let client = db.client().clone();
    let table = db.table_name().to_owned();
    let shipped = || Order::fields().status.equals("SHIPPED".to_owned());

    let mut group = c.benchmark_group("put one item");
    group.bench_function("SDK put_item by hand", |b| {
        b.iter(|| {
            rt.block_on(
                client
                    .put_item()
                    .table_name(&table)
                    .set_item(Some(item_by_hand(&order)))
                    .send(),
            )
            .unwrap()
        })
    });
    group.bench_function("ours: Db::put (plain: type guard, no token)", |b| {
        b.iter(|| rt.block_on(db.put(&order).send()).unwrap())
    });
    group.bench_function("ours: Db::put with a condition (write token)", |b| {
        b.iter(|| {
            rt.block_on(db.put(&order).condition(shipped()).send())
                .unwrap()
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(4));
    targets = batch_write, single_put
}
criterion_main!(benches);
