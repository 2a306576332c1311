//! A backfill of 10,000 items beside a `batch_write` of the same items, on
//! the embedded server, in one run: items/s for both (criterion's
//! throughput), so the ratio is measured on the same machine at the same
//! load (issue 28's target: the backfill at ≥ 50 % of batch_write).
//!
//! The backfill's work is the one a new index gives it: the items were
//! written by yesterday's entity (no index keys), today's fills `GSI1`,
//! so every item is one conditioned update: by default one UpdateItem
//! each; with `.statements(25)` 25 PartiQL UPDATEs (each its own
//! conditioned write, at an UpdateItem's units) in one
//! BatchExecuteStatement, the setting for a server bound by requests; with
//! `.group(25)` 25 of them in one TransactWriteItems (twice the units on
//! AWS).
//!
//! Beside them, the same job written by hand with the aws-sdk and
//! serde_dynamo: the scan, and for each item the same conditioned PartiQL
//! UPDATE (index keys set where every attribute read is unchanged and the
//! new ones absent), 25 per BatchExecuteStatement: what the server itself
//! needs for exactly these writes, without the library's planning,
//! checkpoints and pacing.
//!
//! `cargo bench --bench backfill`

use std::time::{Duration, Instant};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, BatchStatementRequest};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ddb_entity::local::LocalDynamo;
use ddb_entity::{Db, Entity};
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct V1 { partition_key: "PK", sort_key: "SK" } }
ddb_entity::table! {
    pub struct V2 {
        partition_key: "PK",
        sort_key: "SK",
        indexes: { pub ByStatus = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } },
    }
}

/// Yesterday's order: no index.
#[derive(Entity, Serialize, Deserialize, Debug, Clone)]
#[entity(table = V1, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}")]
struct OldOrder {
    customer_id: u64,
    order_id: u64,
    total_cents: i64,
    status: String,
}

/// Today's: found by status.
#[derive(Entity, Serialize, Deserialize, Debug, Clone)]
#[entity(table = V2, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}")]
#[entity(index = ByStatus, pk = "STATUS#{status}", sk = "ORDER#{order_id}")]
struct Order {
    customer_id: u64,
    order_id: u64,
    total_cents: i64,
    status: String,
}

const N: u64 = 10_000;

/// How the backfill sends its updates.
#[derive(Clone, Copy)]
enum Sending {
    One,
    Statements(usize),
    Group(usize),
}

fn orders() -> Vec<OldOrder> {
    (0..N)
        .map(|i| OldOrder {
            customer_id: i % 997,
            order_id: i,
            total_cents: 1_000 + i as i64,
            status: ["NEW", "PAID", "SHIPPED"][(i % 3) as usize].into(),
        })
        .collect()
}

async fn write_all(db: &Db<V1>, orders: &[OldOrder]) {
    let mut batch = db.batch_write();
    for order in orders {
        batch = batch.put(order);
    }
    batch.await.unwrap();
}

/// Segments of the hand-written scan, as the backfill's default.
const SEGMENTS: i32 = 4;

/// The hand-written backfill: a consistent parallel scan of the orders,
/// each page's items decoded with serde_dynamo and updated by PartiQL
/// statements conditioned on the item as read, 25 per request, 4 requests
/// in flight per segment. Returns the items updated.
async fn by_hand(client: &Client, table: &str) -> usize {
    let segments = (0..SEGMENTS).map(|segment| async move {
        let mut start = None;
        let mut updated = 0;
        loop {
            let page = client
                .scan()
                .table_name(table)
                .consistent_read(true)
                .segment(segment)
                .total_segments(SEGMENTS)
                .filter_expression("#t = :t")
                .expression_attribute_names("#t", "_type")
                .expression_attribute_values(":t", AttributeValue::S("ORDER".into()))
                .set_exclusive_start_key(start.take())
                .send()
                .await
                .unwrap();
            let requests: Vec<Vec<BatchStatementRequest>> = page
                .items()
                .chunks(25)
                .map(|chunk| chunk.iter().map(|item| statement(table, item)).collect())
                .collect();
            let mut sent = futures_util::stream::iter(requests)
                .map(|statements| {
                    client
                        .batch_execute_statement()
                        .set_statements(Some(statements))
                        .send()
                })
                .buffer_unordered(4);
            while let Some(output) = sent.next().await {
                let output = output.unwrap();
                assert!(output.responses().iter().all(|r| r.error().is_none()));
                updated += output.responses().len();
            }
            match page.last_evaluated_key {
                Some(key) => start = Some(key),
                None => return updated,
            }
        }
    });
    futures_util::future::join_all(segments)
        .await
        .into_iter()
        .sum()
}

/// One order's update: its index keys, where it is unchanged since read.
fn statement(
    table: &str,
    item: &std::collections::HashMap<String, AttributeValue>,
) -> BatchStatementRequest {
    // The body with serde_dynamo; the key fields live in the key only.
    let body: OldOrderBody = serde_dynamo::from_item(item.clone()).unwrap();
    let order_id: u64 = item["SK"].as_s().unwrap()["ORDER#".len()..]
        .parse()
        .unwrap();
    let mut text = format!(
        "UPDATE \"{table}\" SET \"GSI1PK\" = ? SET \"GSI1SK\" = ? WHERE \"PK\" = ? AND \"SK\" = ?"
    );
    let mut parameters = vec![
        AttributeValue::S(format!("STATUS#{}", body.status)),
        AttributeValue::S(format!("ORDER#{order_id:020}")),
        item["PK"].clone(),
        item["SK"].clone(),
    ];
    for (name, value) in item {
        if name != "PK" && name != "SK" {
            text.push_str(&format!(" AND \"{name}\" = ?"));
            parameters.push(value.clone());
        }
    }
    text.push_str(" AND \"GSI1PK\" IS MISSING AND \"GSI1SK\" IS MISSING AND \"_wt\" IS MISSING AND \"_sv\" IS MISSING");
    BatchStatementRequest::builder()
        .statement(text)
        .set_parameters(Some(parameters))
        .build()
        .unwrap()
}

/// What an order's item holds besides its key (its total is only compared).
#[derive(Deserialize)]
struct OldOrderBody {
    status: String,
}

/// Drops a sample's table once it is measured, so that every sample, of
/// every row, runs on a server holding only the tables it uses: a server
/// left holding every earlier sample's 10,000 items served the rows
/// measured last up to twice as slowly (the backfill rows among them).
async fn drop_table(client: &Client, table: &str) {
    client
        .delete_table()
        .table_name(table)
        .send()
        .await
        .unwrap();
}

fn backfill(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let dynamo = rt.block_on(LocalDynamo::start_embedded()).unwrap();
    let orders = orders();
    // A fresh table of yesterday's items for every backfill sample.
    let seeded = || {
        let name = dynamo.unique_table_name("bench");
        let new = Db::<V2>::new(dynamo.client(), name.clone());
        rt.block_on(new.create_table_if_missing().send()).unwrap();
        rt.block_on(write_all(&Db::<V1>::new(dynamo.client(), name), &orders));
        new
    };

    let mut group = c.benchmark_group("10,000 items");
    group.throughput(Throughput::Elements(N));
    group.sample_size(10);
    group.bench_function("batch_write (Db::batch_write, default)", |b| {
        let db = Db::<V1>::new(dynamo.client(), dynamo.unique_table_name("bench"));
        rt.block_on(db.create_table_if_missing().send()).unwrap();
        b.iter_custom(|iters| {
            let started = Instant::now();
            for _ in 0..iters {
                rt.block_on(write_all(&db, &orders));
            }
            started.elapsed()
        })
    });
    // The same items the backfill writes, with their index keys, into a
    // table with the index: the server's speed for exactly those writes
    // (unconditioned, without the read a conditioned update makes).
    group.bench_function(
        "batch_write of the indexed items (Db::batch_write, default)",
        |b| {
            let db = Db::<V2>::new(dynamo.client(), dynamo.unique_table_name("bench"));
            rt.block_on(db.create_table_if_missing().send()).unwrap();
            let indexed: Vec<Order> = orders
                .iter()
                .map(|o| Order {
                    customer_id: o.customer_id,
                    order_id: o.order_id,
                    total_cents: o.total_cents,
                    status: o.status.clone(),
                })
                .collect();
            b.iter_custom(|iters| {
                let started = Instant::now();
                for _ in 0..iters {
                    let mut batch = db.batch_write();
                    for order in &indexed {
                        batch = batch.put(order);
                    }
                    rt.block_on(async move { batch.await }).unwrap();
                }
                started.elapsed()
            })
        },
    );
    group.bench_function(
        "hand-written aws-sdk + serde_dynamo: scan, 25 conditioned PartiQL updates per request",
        |b| {
            b.iter_custom(|iters| {
                let mut spent = Duration::ZERO;
                for _ in 0..iters {
                    let db = seeded();
                    let started = Instant::now();
                    let updated = rt.block_on(by_hand(&dynamo.client(), db.table_name()));
                    spent += started.elapsed();
                    assert_eq!(updated as u64, N, "every item rewritten");
                    rt.block_on(drop_table(&dynamo.client(), db.table_name()));
                }
                spent
            })
        },
    );
    for (name, sending) in [
        (
            "backfill (Db::backfill, default: one UpdateItem per item)",
            Sending::One,
        ),
        (
            "backfill (Db::backfill, .statements(25): 25 PartiQL updates per request)",
            Sending::Statements(25),
        ),
        (
            "backfill (Db::backfill, .group(25): 25 updates per transaction)",
            Sending::Group(25),
        ),
    ] {
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let mut spent = Duration::ZERO;
                for _ in 0..iters {
                    let db = seeded();
                    let started = Instant::now();
                    let job = db.backfill::<Order>();
                    let job = match sending {
                        Sending::One => job,
                        Sending::Statements(n) => job.statements(n),
                        Sending::Group(n) => job.group(n),
                    };
                    let totals = rt.block_on(job.send()).unwrap();
                    spent += started.elapsed();
                    assert_eq!(totals.updated, N, "every item rewritten");
                    rt.block_on(drop_table(&dynamo.client(), db.table_name()));
                }
                spent
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(100))
        .measurement_time(Duration::from_secs(5));
    targets = backfill
}
criterion_main!(benches);
