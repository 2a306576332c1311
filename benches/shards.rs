//! Reading a sharded partition on the embedded DynamoDB: the same 1,600
//! open orders in one partition (`STATUS#{status}`, GSI1) and spread over
//! 16 shards (`STATUS#{status}#{shard(order_id) % 16}`, GSI2), read
//!
//! - from the one partition (one Query, the baseline),
//! - from the 16 shards merged (ours: 16 Queries in flight, a k-way merge),
//! - from the 16 shards by hand, as a user writes it without us: the SDK's
//!   `query` per shard (following `LastEvaluatedKey`), `serde_dynamo`
//!   decoding, then one sort — one shard after another, and all 16 at once
//!   (tokio tasks),
//!
//! whole, and as the 20 newest (`reverse`, `limit(20)`). Goal: the merged
//! read within 1.3× of the one-partition read. Same server, same runtime,
//! one run.
//!
//! `cargo bench -p ddb-entity-benches --bench shards`

use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::AttributeValue;
use criterion::{Criterion, criterion_group, criterion_main};
use ddb_entity::local::LocalDynamo;
use ddb_entity::{Db, Entity, KeyPart};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    /// The bench table.
    pub struct App {
        partition_key: "PK",
        sort_key: "SK",
        indexes: {
            pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
            pub Gsi2 = "GSI2" { partition_key: "GSI2PK", sort_key: "GSI2SK" },
        },
    }
}

#[derive(KeyPart, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Status {
    Open,
}

/// Each order in both layouts.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "ORDER#{order_id}", sk = "ORDER")]
#[entity(index = Gsi1, pk = "STATUS#{status}", sk = "{placed}#{order_id}", allow_hot = "the bench's baseline")]
#[entity(index = Gsi2, pk = "STATUS#{status}#{shard(order_id) % 16}", sk = "{placed}#{order_id}")]
struct Order {
    order_id: u64,
    status: Status,
    placed: u32,
    total_cents: i64,
    customer: String,
}

const N: u64 = 1_600;
const NEWEST: usize = 20;

async fn seed(db: &Db<App>) {
    let orders: Vec<Order> = (1..=N)
        .map(|order_id| Order {
            order_id,
            status: Status::Open,
            placed: 20_260_000 + (order_id * 7919 % 5000) as u32,
            total_cents: order_id as i64 * 13,
            customer: format!("customer-{}@example.com", order_id % 97),
        })
        .collect();
    let mut batch = db.batch_write();
    for order in &orders {
        batch = batch.put(order);
    }
    batch.await.unwrap();
}

fn one_partition() -> ddb_entity::Partition<Gsi1> {
    Order::gsi1_partition(Status::Open).unwrap()
}

fn sharded() -> ddb_entity::Partition<Gsi2> {
    Order::gsi2_partition(Status::Open).unwrap()
}

/// What a user writes without us: the shards' `GSI2PK` values (formatted
/// once, outside the timing), and a table to query.
#[derive(Clone)]
struct ByHand {
    client: Client,
    table: String,
    shards: Vec<String>,
}

impl ByHand {
    /// One shard, every page, decoded with `serde_dynamo`; with `newest`,
    /// the shard's newest `newest` only.
    async fn shard(self, shard: usize, newest: Option<usize>) -> Vec<Order> {
        let mut orders = Vec::new();
        let mut start = None;
        loop {
            let output = self
                .client
                .query()
                .table_name(&self.table)
                .index_name("GSI2")
                .key_condition_expression("GSI2PK = :pk")
                .expression_attribute_values(":pk", AttributeValue::S(self.shards[shard].clone()))
                .scan_index_forward(newest.is_none())
                .set_limit(newest.map(|n| n as i32))
                .set_exclusive_start_key(start)
                .send()
                .await
                .unwrap();
            let items = output.items.unwrap_or_default();
            orders.extend(serde_dynamo::from_items::<_, Order>(items).unwrap());
            start = output.last_evaluated_key;
            if start.is_none() || newest.is_some() {
                return orders;
            }
        }
    }

    /// Sorted as the index sorts, newest first and cut with `newest`.
    fn sorted(mut orders: Vec<Order>, newest: Option<usize>) -> Vec<Order> {
        orders.sort_by_key(|o| (o.placed, o.order_id));
        if let Some(newest) = newest {
            orders.reverse();
            orders.truncate(newest);
        }
        orders
    }

    async fn one_after_another(&self, newest: Option<usize>) -> Vec<Order> {
        let mut all = Vec::new();
        for shard in 0..self.shards.len() {
            all.extend(self.clone().shard(shard, newest).await);
        }
        Self::sorted(all, newest)
    }

    async fn all_at_once(&self, newest: Option<usize>) -> Vec<Order> {
        let mut tasks = tokio::task::JoinSet::new();
        for shard in 0..self.shards.len() {
            tasks.spawn(self.clone().shard(shard, newest));
        }
        let mut all = Vec::new();
        while let Some(orders) = tasks.join_next().await {
            all.extend(orders.unwrap());
        }
        Self::sorted(all, newest)
    }
}

fn reads(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let dynamo = rt.block_on(LocalDynamo::start_embedded()).unwrap();
    let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("bench"));
    rt.block_on(db.create_table_if_missing().send()).unwrap();
    rt.block_on(seed(&db));
    let by_hand = ByHand {
        client: db.client().clone(),
        table: db.table_name().to_owned(),
        shards: sharded()
            .shard_partitions()
            .into_iter()
            .map(|p| p.into_string())
            .collect(),
    };

    // Every way reads the same orders in the same order.
    let whole: Vec<Order> = rt.block_on(db.query(one_partition()).all()).unwrap();
    assert_eq!(whole.len() as u64, N);
    assert_eq!(
        rt.block_on(db.query(sharded()).all::<Order>()).unwrap(),
        whole
    );
    assert_eq!(rt.block_on(by_hand.one_after_another(None)), whole);
    assert_eq!(rt.block_on(by_hand.all_at_once(None)), whole);
    let newest: Vec<Order> = rt
        .block_on(db.query(one_partition()).reverse(true).limit(NEWEST).all())
        .unwrap();
    assert_eq!(
        rt.block_on(
            db.query(sharded())
                .reverse(true)
                .limit(NEWEST)
                .all::<Order>()
        )
        .unwrap(),
        newest
    );
    assert_eq!(rt.block_on(by_hand.one_after_another(Some(NEWEST))), newest);
    assert_eq!(rt.block_on(by_hand.all_at_once(Some(NEWEST))), newest);

    let mut group = c.benchmark_group("read 1,600 orders");
    group.bench_function("one partition", |b| {
        b.iter(|| {
            rt.block_on(db.query(one_partition()).all::<Order>())
                .unwrap()
        })
    });
    group.bench_function("16 shards merged (ours)", |b| {
        b.iter(|| rt.block_on(db.query(sharded()).all::<Order>()).unwrap())
    });
    group.bench_function("16 shards by hand, one after another", |b| {
        b.iter(|| rt.block_on(by_hand.one_after_another(None)))
    });
    group.bench_function("16 shards by hand, all at once", |b| {
        b.iter(|| rt.block_on(by_hand.all_at_once(None)))
    });
    group.finish();

    let mut group = c.benchmark_group("the 20 newest of 1,600 orders");
    group.bench_function("one partition", |b| {
        b.iter(|| {
            rt.block_on(
                db.query(one_partition())
                    .reverse(true)
                    .limit(NEWEST)
                    .all::<Order>(),
            )
            .unwrap()
        })
    });
    group.bench_function("16 shards merged (ours)", |b| {
        b.iter(|| {
            rt.block_on(
                db.query(sharded())
                    .reverse(true)
                    .limit(NEWEST)
                    .all::<Order>(),
            )
            .unwrap()
        })
    });
    group.bench_function("16 shards by hand, one after another", |b| {
        b.iter(|| rt.block_on(by_hand.one_after_another(Some(NEWEST))))
    });
    group.bench_function("16 shards by hand, all at once", |b| {
        b.iter(|| rt.block_on(by_hand.all_at_once(Some(NEWEST))))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(5));
    targets = reads
}
criterion_main!(benches);
