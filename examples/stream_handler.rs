//! A Lambda-style stream handler, tested locally on real stream records.
//!
//! ```sh
//! cargo run --example stream_handler --features streams
//! ```
//!
//! `handle` is what a Lambda function subscribed to the table's stream
//! would run (wrap it in `lambda_runtime::service_fn`; no Lambda runtime is
//! needed here): it keeps each customer's order total up to date from the
//! typed changes, skips what is not its business, and reports the records
//! it could not read as batch item failures, so Lambda retries from there
//! instead of losing them.
//!
//! `main` enables a stream on the embedded DynamoDB, writes through the
//! library, reads the real records back with the DynamoDB Streams API on
//! the same endpoint, turns them into the event Lambda would deliver, and
//! calls the handler; then it feeds the handler a hand-written event with
//! a record it cannot read.

use std::collections::BTreeMap;

use aws_sdk_dynamodb::types::{StreamSpecification, StreamViewType};
use ddb_entity::local::LocalDynamo;
use ddb_entity::stream::lambda::{self, DynamoDbBatchItemFailure, DynamoDbEventResponse, Event};
use ddb_entity::stream::{Change, Origin, sdk};
use ddb_entity::{Collection, Db, Entity, ErrorKind};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    /// The shop's single table.
    pub struct Shop { partition_key: "PK", sort_key: "SK" }
}

/// A customer's profile.
#[derive(Entity, Serialize, Deserialize, Debug)]
#[entity(table = Shop, pk = "CUST#{customer_id}", sk = "PROFILE")]
struct Customer {
    customer_id: u64,
    name: String,
}

/// An order, under its customer.
#[derive(Entity, Serialize, Deserialize, Debug)]
#[entity(table = Shop, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}")]
struct Order {
    customer_id: u64,
    order_id: u64,
    total_cents: i64,
}

/// Every entity of the table: what a record of its stream can be.
#[derive(Collection, Debug)]
enum ShopItem {
    Customer(Customer),
    Order(Order),
}

/// The projection the handler maintains: each customer's order total.
type Totals = BTreeMap<u64, i64>;

/// The Lambda handler.
fn handle(event: Event, totals: &mut Totals) -> DynamoDbEventResponse {
    let mut response = DynamoDbEventResponse::default();
    for record in lambda::records::<ShopItem>(event) {
        let change = match &record.change {
            Ok(change) => change,
            // Not an entity of ours (another tool's item, another table's
            // record): no retry will change that. Say so, and go on.
            Err(err)
                if matches!(
                    err.kind(),
                    ErrorKind::UnknownType | ErrorKind::ForeignRecord
                ) =>
            {
                println!("  skipped {:?}: {err}", record.sequence_number);
                continue;
            }
            // Ours, but unreadable: stop here and let Lambda retry from this
            // record (then its on-failure destination gets it).
            Err(err) => {
                println!("  FAILED  {:?}: {err}", record.sequence_number);
                let mut failure = DynamoDbBatchItemFailure::default();
                failure.item_identifier = record.sequence_number.clone();
                response.batch_item_failures.push(failure);
                break;
            }
        };
        if let Change::Insert {
            new: Some(ShopItem::Customer(customer)),
        } = change
        {
            println!("  welcome, {}", customer.name);
        }
        let order_total = |item: Option<&ShopItem>| match item {
            Some(ShopItem::Order(order)) => Some((order.customer_id, order.total_cents)),
            _ => None,
        };
        let before = order_total(change.old_image());
        let after = order_total(change.new_image());
        for (customer_id, cents) in before.map(|(c, t)| (c, -t)).into_iter().chain(after) {
            *totals.entry(customer_id).or_default() += cents;
        }
        let how = match (change, &record.origin) {
            (Change::Remove { .. }, Origin::TimeToLive) => " (expired)",
            _ => "",
        };
        println!(
            "  {} {:?}{how}",
            change.kind(),
            record.sort_key().unwrap_or_default()
        );
    }
    response
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dynamo = LocalDynamo::start().await?;
    let db = Db::<Shop>::new(dynamo.client(), dynamo.unique_table_name("shop"));
    db.create_table_if_missing().await?;
    let stream = StreamSpecification::builder()
        .stream_enabled(true)
        .stream_view_type(StreamViewType::NewAndOldImages)
        .build()?;
    db.client()
        .update_table()
        .table_name(db.table_name())
        .stream_specification(stream)
        .send()
        .await?;

    let order = |customer_id, order_id, total_cents| Order {
        customer_id,
        order_id,
        total_cents,
    };
    db.put(&Customer {
        customer_id: 42,
        name: "Ada".into(),
    })
    .await?;
    db.put(&order(42, 1, 1_000)).await?;
    db.put(&order(42, 2, 2_500)).await?;
    db.put(&order(7, 3, 990)).await?;
    db.put(&order(42, 1, 1_200)).await?; // a modify: 1 000 -> 1 200
    db.delete(Order::key(42, 2)?).await?;

    // The records as Lambda would get them: read with the Streams API
    // (ListStreams, DescribeStream, GetShardIterator, GetRecords).
    let streams = sdk::Client::from_conf(dynamo.streams_config_builder().build());
    let listed = streams
        .list_streams()
        .table_name(db.table_name())
        .send()
        .await?;
    let arn = listed.streams()[0]
        .stream_arn()
        .unwrap_or_default()
        .to_owned();
    let described = streams.describe_stream().stream_arn(&arn).send().await?;
    let mut records = Vec::new();
    for shard in described
        .stream_description()
        .map(|d| d.shards())
        .unwrap_or_default()
    {
        let iterator = streams
            .get_shard_iterator()
            .stream_arn(&arn)
            .shard_id(shard.shard_id().unwrap_or_default())
            .shard_iterator_type(sdk::types::ShardIteratorType::TrimHorizon)
            .send()
            .await?;
        let page = streams
            .get_records()
            .set_shard_iterator(iterator.shard_iterator)
            .send()
            .await?;
        records.extend(page.records.unwrap_or_default());
    }
    let event = lambda::event_from_sdk_records(records, &arn)?;
    println!("event of {} real records:", event.records.len());
    let mut totals = Totals::new();
    let response = handle(event, &mut totals);
    println!("totals: {totals:?}");
    assert_eq!(totals, Totals::from([(7, 990), (42, 1_200)]));
    assert!(response.batch_item_failures.is_empty());

    // A hand-written event: another table's record (skipped), then an
    // order whose total is not an integer (reported, not lost).
    let event: Event = serde_json::from_str(
        r#"{"Records": [
        {"eventID": "1", "eventName": "INSERT", "awsRegion": "us-east-1",
         "dynamodb": {"Keys": {"Id": {"N": "101"}}, "NewImage": {"Id": {"N": "101"}},
                      "SequenceNumber": "900", "SizeBytes": 20, "StreamViewType": "NEW_AND_OLD_IMAGES"}},
        {"eventID": "2", "eventName": "INSERT", "awsRegion": "us-east-1",
         "dynamodb": {"Keys": {"PK": {"S": "CUST#00000000000000000042"}, "SK": {"S": "ORDER#00000000000000000009"}},
                      "NewImage": {"PK": {"S": "CUST#00000000000000000042"}, "SK": {"S": "ORDER#00000000000000000009"},
                                   "_type": {"S": "order"}, "customer_id": {"N": "42"}, "order_id": {"N": "9"},
                                   "total_cents": {"N": "12.5"}},
                      "SequenceNumber": "901", "SizeBytes": 90, "StreamViewType": "NEW_AND_OLD_IMAGES"}}
    ]}"#,
    )?;
    println!("hand-written event:");
    let response = handle(event, &mut totals);
    let failed: Vec<_> = response
        .batch_item_failures
        .iter()
        .map(|failure| failure.item_identifier.as_deref())
        .collect();
    println!("batch item failures: {failed:?}");
    assert_eq!(failed, [Some("901")]);
    assert_eq!(totals, Totals::from([(7, 990), (42, 1_200)]));
    Ok(())
}
