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
//! `cargo bench --bench backfill`

use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ddb_entity::local::LocalDynamo;
use ddb_entity::{Db, Entity};
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
