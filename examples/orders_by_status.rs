//! "All orders with status X", without a hot partition.
//!
//! `GSI1PK = STATUS#<status>` puts every open order of the shop in one
//! partition, which DynamoDB holds to about 1,000 writes a second however
//! the table is provisioned. Spread over 16 shards chosen by a stable hash
//! of the order id — `STATUS#<status>#<shard>` — the writes land on 16
//! partitions, and a Query of the status reads all 16 concurrently and
//! merges them newest first, as if they were one.
//!
//! ```sh
//! cargo run --example orders_by_status
//! ```
//!
//! Prints the hot-partition lint on both layouts, the keys written, and
//! every request the client sends with the partition it names and its
//! `Limit`.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use ddb_entity::local::LocalDynamo;
use ddb_entity::op::Page;
use ddb_entity::{Db, Entity, KeyPart};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    /// The single table.
    pub struct App {
        partition_key: "PK",
        sort_key: "SK",
        indexes: {
            /// Orders by status, newest first.
            pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
        },
    }
}

#[derive(KeyPart, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Status {
    Open,
    Shipped,
}

/// The first design: one partition per status.
#[derive(Entity, Serialize, Deserialize, Debug)]
#[entity(table = App, pk = "ORDER#{order_id}", sk = "ORDER")]
#[entity(index = Gsi1, pk = "STATUS#{status}", sk = "{placed_at}#{order_id}")]
struct HotOrder {
    order_id: u64,
    status: Status,
    placed_at: u64,
}

/// The fix: 16 partitions per status, chosen by the order id.
#[derive(Entity, Serialize, Deserialize, Debug, Clone)]
#[entity(table = App, pk = "ORDER#{order_id}", sk = "ORDER")]
#[entity(index = Gsi1, pk = "STATUS#{status}#{shard(order_id) % 16}", sk = "{placed_at}#{order_id}")]
struct Order {
    order_id: u64,
    status: Status,
    /// Epoch seconds.
    placed_at: u64,
    total_cents: i64,
}

/// Every request the SDK sends: the operation, and for a Query the
/// partition it names and its `Limit`.
#[derive(Debug, Clone, Default)]
struct Requests(Arc<Mutex<Vec<String>>>);

impl Requests {
    fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

impl aws_sdk_dynamodb::config::Intercept for Requests {
    fn name(&self) -> &'static str {
        "Requests"
    }

    fn read_before_transmit(
        &self,
        context: &aws_sdk_dynamodb::config::interceptors::BeforeTransmitInterceptorContextRef<'_>,
        _: &aws_sdk_dynamodb::config::RuntimeComponents,
        _: &mut aws_sdk_dynamodb::config::ConfigBag,
    ) -> Result<(), aws_sdk_dynamodb::error::BoxError> {
        let request = context.request();
        let operation = request
            .headers()
            .get("x-amz-target")
            .unwrap_or_default()
            .rsplit('.')
            .next()
            .unwrap_or_default()
            .to_owned();
        let body = std::str::from_utf8(request.body().bytes().unwrap_or_default())?;
        let line = if operation == "Query" {
            // The partition is the first string value of the key condition.
            let partition = body
                .split("\":{\"S\":\"")
                .nth(1)
                .and_then(|rest| rest.split('"').next())
                .unwrap_or("?");
            let limit = body
                .split("\"Limit\":")
                .nth(1)
                .and_then(|rest| rest.split([',', '}']).next())
                .unwrap_or("none");
            format!("Query GSI1PK = {partition}, Limit {limit}")
        } else {
            operation
        };
        self.0.lock().unwrap().push(line);
        Ok(())
    }
}

type Error = Box<dyn std::error::Error + Send + Sync>;

fn print_requests(requests: &[String]) {
    let queries = requests.iter().filter(|r| r.starts_with("Query")).count();
    let plural = if requests.len() == 1 { "" } else { "s" };
    println!("  {} request{plural} ({queries} Query):", requests.len());
    for request in requests {
        println!("    {request}");
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Error> {
    // 1. The lint, from the templates alone.
    println!("hot-partition lint, first design:");
    print!(
        "  {}",
        ddb_entity::lint::hot_partitions(&[HotOrder::LAYOUT])
    );
    let lint = ddb_entity::lint::hot_partitions(&[Order::LAYOUT]);
    println!("hot-partition lint, sharded: {lint}\n");
    assert!(lint.is_empty());

    let dynamo = LocalDynamo::start().await?;
    let requests = Requests::default();
    let client = aws_sdk_dynamodb::Client::from_conf(
        dynamo
            .config_builder()
            .interceptor(requests.clone())
            .build(),
    );
    let db = Db::<App>::new(client, dynamo.unique_table_name("orders-by-status"));
    db.create_table_if_missing().await?;
    requests.take();

    // 2. 200 orders, a third of them shipped, in one batch write.
    let orders: Vec<Order> = (1..=200)
        .map(|order_id| Order {
            order_id,
            status: if order_id % 3 == 0 {
                Status::Shipped
            } else {
                Status::Open
            },
            placed_at: 1_773_480_000 + order_id * 37,
            total_cents: 1_000 + order_id as i64,
        })
        .collect();
    let mut batch = db.batch_write();
    for order in &orders {
        batch = batch.put(order);
    }
    batch.await?;
    println!("wrote 200 orders; the keys of the first three:");
    for order in &orders[..3] {
        let index = &order.index_entries()?[0];
        let key = index.key.as_ref().expect("every order is in GSI1");
        println!(
            "  PK = {}  GSI1PK = {}  GSI1SK = {}",
            order.primary_key()?.partition(),
            key.partition,
            key.sort.as_deref().unwrap_or_default()
        );
    }
    let mut per_shard: BTreeMap<String, usize> = BTreeMap::new();
    for order in orders.iter().filter(|o| o.status == Status::Open) {
        let partition = order.index_entries()?[0].key.clone().unwrap().partition;
        let shard = partition.rsplit('#').next().unwrap_or_default().to_owned();
        *per_shard.entry(shard).or_default() += 1;
    }
    println!("open orders per shard: {per_shard:?}");
    print_requests(&requests.take());

    // 3. The 10 newest open orders: one Query per shard, each for at most
    // 10, merged newest first.
    let open = || Order::gsi1_partition(Status::Open).expect("a valid partition");
    let newest: Vec<Order> = db.query(open()).reverse(true).limit(10).all().await?;
    println!(
        "\nthe 10 newest open orders: {:?}",
        newest.iter().map(|o| o.order_id).collect::<Vec<_>>()
    );
    print_requests(&requests.take());

    // 4. Every open order, in pages of 50, resumed through one cursor.
    let mut cursor = None;
    let mut page_number = 0;
    loop {
        let mut query = db.query(open()).reverse(true).page_size(50);
        if let Some(cursor) = cursor.take() {
            query = query.after(cursor);
        }
        let page: Page<Vec<Order>> = query.page().await?;
        page_number += 1;
        let sent = requests.take();
        println!(
            "page {page_number}: {} orders, cursor {}, {} Query requests",
            page.items.len(),
            page.cursor
                .as_ref()
                .map_or("none (done)".to_owned(), |c| format!(
                    "{} chars",
                    c.to_string().len()
                )),
            sent.len()
        );
        match page.cursor {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }

    // 5. One order by id: the key computes nothing to fan out.
    let order = db.get(Order::key(7u64)?).await?.expect("order 7 exists");
    println!("\nget order 7: {:?}", order.status);
    print_requests(&requests.take());

    // 6. Shipping it moves it to the same shard of the shipped status.
    let fields = Order::fields();
    db.update(Order::key(7u64)?)
        .set(fields.status, Status::Shipped)
        .set(fields.placed_at, order.placed_at)
        .await?;
    let index = db
        .get(Order::key(7u64)?)
        .await?
        .expect("order 7 exists")
        .index_entries()?;
    println!(
        "shipped order 7: GSI1PK = {}",
        index[0].key.as_ref().expect("in GSI1").partition
    );
    print_requests(&requests.take());
    Ok(())
}
