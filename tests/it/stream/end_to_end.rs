//! A table's stream end to end: a stream enabled on a real server, items
//! written through the library (and a few by hand, as other code would),
//! the records read back through the DynamoDB Streams API on the same
//! endpoint, and parsed.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use aws_sdk_dynamodb::types::{AttributeValue, StreamSpecification, StreamViewType};
use ddb_entity::local::{LocalDynamo, LocalError};
use ddb_entity::stream::{Change, ChangeKind, Checkpoint, Origin, Poller, Record, lambda, sdk};
use ddb_entity::{Db, Entity, ErrorKind, Table};
use futures_util::{StreamExt, TryStreamExt};

use super::model::*;

/// A running server, a fresh shop table with a stream of `view`, and a
/// Streams API client for the same endpoint.
async fn shop(view: StreamViewType) -> (LocalDynamo, Db<Shop>, sdk::Client) {
    let dynamo = LocalDynamo::start().await.unwrap();
    let db = Db::<Shop>::new(dynamo.client(), dynamo.unique_table_name("stream"));
    db.create_table_if_missing().await.unwrap();
    let stream = StreamSpecification::builder()
        .stream_enabled(true)
        .stream_view_type(view)
        .build()
        .unwrap();
    db.client()
        .update_table()
        .table_name(db.table_name())
        .stream_specification(stream)
        .send()
        .await
        .unwrap();
    let streams = sdk::Client::from_conf(dynamo.streams_config_builder().build());
    (dynamo, db, streams)
}

/// Every record so far, caught up.
async fn read_all(streams: &sdk::Client, db: &Db<Shop>) -> Vec<Record<ShopItem>> {
    let poller = Poller::<ShopItem>::for_table(streams.clone(), db.table_name())
        .await
        .unwrap()
        .follow(false)
        .poll_interval(Duration::from_millis(50));
    tokio::time::timeout(Duration::from_secs(30), poller.records().try_collect())
        .await
        .expect("a caught-up poller ends")
        .unwrap()
}

fn order(order_id: u64, total_cents: i64) -> Order {
    Order {
        customer_id: 42,
        order_id,
        total_cents,
    }
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// What a record is, in one word, for comparing sequences.
fn shape(record: &Record<ShopItem>) -> String {
    let variant = |item: Option<&ShopItem>| match item {
        Some(ShopItem::Customer(_)) => "Customer",
        Some(ShopItem::Order(_)) => "Order",
        Some(ShopItem::Session(_)) => "Session",
        None => "-",
    };
    match &record.change {
        Ok(change) => {
            let image = change.new_image().or(change.old_image());
            format!("{} {}", change.kind(), variant(image))
        }
        Err(err) => format!("{:?}", err.kind()),
    }
}

#[tokio::test]
async fn writes_through_the_library_come_back_as_typed_changes_of_every_entity() {
    let (dynamo, db, streams) = shop(StreamViewType::NewAndOldImages).await;
    let customer = Customer {
        customer_id: 42,
        name: "Ada".into(),
        avatar: Some(Bytes(vec![0, 159, 255])),
    };
    db.put(&customer).await.unwrap();
    db.put(&order(7, 1000)).await.unwrap();
    db.put(&order(8, 500)).await.unwrap();
    db.put(&order(7, 1250)).await.unwrap();
    db.delete(Order::key(42, 8).unwrap()).await.unwrap();
    let session = Session {
        customer_id: 42,
        id: 9,
        expires_at: Some(now() - 60),
    };
    db.put(&session).await.unwrap();

    // Written by other code: no type attribute; and an `ORDER` body under
    // a customer's profile key.
    let s = |v: &str| AttributeValue::S(v.into());
    db.client()
        .put_item()
        .table_name(db.table_name())
        .item("PK", s("CUST#42"))
        .item("SK", s("NOTE#1"))
        .item("text", s("written by hand"))
        .send()
        .await
        .unwrap();
    let mut disguised = order(9, 1).to_item().unwrap();
    disguised.insert("SK".into(), s("PROFILE"));
    disguised.insert("PK".into(), s("CUST#43"));
    db.client()
        .put_item()
        .table_name(db.table_name())
        .set_item(Some(disguised))
        .send()
        .await
        .unwrap();

    // The time to live deletes the expired session: only the embedded
    // server can be asked to sweep now (moto never expires items).
    let swept = match dynamo.sweep_expired_items().await {
        Ok(swept) => Some(swept),
        Err(LocalError::NotEmbedded) => None,
        Err(err) => panic!("{err}"),
    };

    let records = read_all(&streams, &db).await;
    let shapes: Vec<String> = records.iter().map(shape).collect();
    let mut expected = vec![
        "INSERT Customer",
        "INSERT Order",
        "INSERT Order",
        "MODIFY Order",
        "REMOVE Order",
        "INSERT Session",
        "UnknownType",
        "KeyMismatch",
    ];
    if swept.is_some() {
        assert_eq!(swept, Some(1));
        expected.push("REMOVE Session");
    }
    assert_eq!(shapes, expected);

    // Images, decoded and verified.
    assert_eq!(
        records[0].change.as_ref().unwrap(),
        &Change::Insert {
            new: Some(ShopItem::Customer(customer))
        }
    );
    assert_eq!(
        records[3].change.as_ref().unwrap(),
        &Change::Modify {
            old: Some(ShopItem::Order(order(7, 1000))),
            new: Some(ShopItem::Order(order(7, 1250))),
        }
    );
    assert_eq!(
        records[4].change.as_ref().unwrap(),
        &Change::Remove {
            old: Some(ShopItem::Order(order(8, 500)))
        }
    );
    // Who deleted what.
    assert_eq!(records[4].origin, Origin::Request);
    if swept.is_some() {
        // Told apart from the delete request above. On AWS this is
        // `Origin::TimeToLive`; dynoxide 3.2.0 writes the record's
        // `userIdentity` with Lambda's member names (`type`, `principalId`)
        // where the Streams API has `Type`, `PrincipalId`, so the SDK reads
        // an identity with neither (the parser does not guess what an empty
        // one means). The Lambda-shaped case is in `lambda_events.rs`.
        assert_eq!(
            records[8].origin,
            Origin::Other {
                identity_type: String::new(),
                principal_id: String::new()
            }
        );
        assert_eq!(
            records[8].change.as_ref().unwrap().old_image(),
            Some(&ShopItem::Session(session))
        );
    }
    // The foreign records are there, with their keys.
    assert_eq!(
        records[6].change.as_ref().unwrap_err().item_key(),
        Some(("CUST#42", "NOTE#1"))
    );
    assert_eq!(records[7].sort_key(), Some("PROFILE"));

    // Every record has a shard and a sequence number, increasing, and the
    // table it is from.
    let sequence: Vec<u128> = records
        .iter()
        .map(|r| r.sequence_number.as_deref().unwrap().parse().unwrap())
        .collect();
    assert!(sequence.windows(2).all(|w| w[0] < w[1]), "{sequence:?}");
    assert!(records.iter().all(|r| r.shard_id.is_some()));
    assert!(
        records
            .iter()
            .all(|r| r.table_name.as_deref() == Some(db.table_name()))
    );
}

#[tokio::test]
async fn a_resumed_poller_goes_on_after_its_checkpoint_without_repeats() {
    let (_dynamo, db, streams) = shop(StreamViewType::NewImage).await;
    for order_id in 1..=5 {
        db.put(&order(order_id, 100)).await.unwrap();
    }
    let poller = Poller::<Order>::for_table(streams.clone(), db.table_name())
        .await
        .unwrap()
        .follow(false)
        .batch_size(2);
    let mut checkpoint = Checkpoint::default();
    let first: Vec<Record<Order>> = poller.records().take(3).try_collect().await.unwrap();
    for record in &first {
        checkpoint.advance(record);
    }
    // Stored and read back, as a service would between runs.
    let stored = serde_json::to_string(&checkpoint).unwrap();
    let checkpoint: Checkpoint = serde_json::from_str(&stored).unwrap();

    for order_id in 6..=7 {
        db.put(&order(order_id, 100)).await.unwrap();
    }
    let rest: Vec<Record<Order>> = Poller::<Order>::for_table(streams, db.table_name())
        .await
        .unwrap()
        .resume(checkpoint)
        .follow(false)
        .records()
        .try_collect()
        .await
        .unwrap();
    let ids = |records: &[Record<Order>]| -> Vec<u64> {
        records
            .iter()
            .map(|r| r.change.as_ref().unwrap().new_image().unwrap().order_id)
            .collect()
    };
    assert_eq!(ids(&first), [1, 2, 3]);
    assert_eq!(ids(&rest), [4, 5, 6, 7]);
}

#[tokio::test]
async fn each_view_type_carries_what_it_promises_on_a_real_server() {
    for (view, insert, modify, remove) in [
        (
            StreamViewType::NewAndOldImages,
            (false, true),
            (true, true),
            (true, false),
        ),
        (
            StreamViewType::NewImage,
            (false, true),
            (false, true),
            (false, false),
        ),
        (
            StreamViewType::OldImage,
            (false, false),
            (true, false),
            (true, false),
        ),
        (
            StreamViewType::KeysOnly,
            (false, false),
            (false, false),
            (false, false),
        ),
    ] {
        let (_dynamo, db, streams) = shop(view.clone()).await;
        db.put(&order(7, 1)).await.unwrap();
        db.put(&order(7, 2)).await.unwrap();
        db.delete(Order::key(42, 7).unwrap()).await.unwrap();
        let records = read_all(&streams, &db).await;
        let images: Vec<(ChangeKind, (bool, bool))> = records
            .iter()
            .map(|record| {
                let change = record
                    .change
                    .as_ref()
                    .unwrap_or_else(|err| panic!("{view:?}: {err}"));
                (
                    change.kind(),
                    (change.old_image().is_some(), change.new_image().is_some()),
                )
            })
            .collect();
        assert_eq!(
            images,
            [
                (ChangeKind::Insert, insert),
                (ChangeKind::Modify, modify),
                (ChangeKind::Remove, remove),
            ],
            "{view:?}"
        );
        assert!(
            records
                .iter()
                .all(|r| r.view.map(|v| v.as_str()) == Some(view.as_str()))
        );
        assert!(
            records
                .iter()
                .all(|r| r.sort_key() == Some("ORDER#00000000000000000007"))
        );
    }
}

/// The records a Lambda function would receive, made from the Streams
/// API's records, parse exactly as the poller's do.
#[tokio::test]
async fn a_lambda_event_of_real_records_parses_as_the_poller_reads_them() {
    let (_dynamo, db, streams) = shop(StreamViewType::NewAndOldImages).await;
    db.put(&order(7, 1)).await.unwrap();
    db.put(&order(7, 2)).await.unwrap();
    db.delete(Order::key(42, 7).unwrap()).await.unwrap();

    // By hand with the SDK: ListStreams, DescribeStream, GetShardIterator,
    // GetRecords.
    let listed = streams
        .list_streams()
        .table_name(db.table_name())
        .send()
        .await
        .unwrap();
    let arn = listed.streams()[0].stream_arn().unwrap().to_owned();
    let described = streams
        .describe_stream()
        .stream_arn(&arn)
        .send()
        .await
        .unwrap();
    let shard = described.stream_description().unwrap().shards()[0]
        .shard_id()
        .unwrap()
        .to_owned();
    let iterator = streams
        .get_shard_iterator()
        .stream_arn(&arn)
        .shard_id(&shard)
        .shard_iterator_type(sdk::types::ShardIteratorType::TrimHorizon)
        .send()
        .await
        .unwrap()
        .shard_iterator()
        .unwrap()
        .to_owned();
    let raw = streams
        .get_records()
        .shard_iterator(iterator)
        .send()
        .await
        .unwrap()
        .records()
        .to_vec();
    assert_eq!(raw.len(), 3);

    let event = lambda::event_from_sdk_records(raw, &arn).unwrap();
    let from_lambda = lambda::records_of_table::<ShopItem>(event, db.table_name());
    let from_poller = read_all(&streams, &db).await;
    assert_eq!(from_lambda.len(), from_poller.len());
    for (lambda, polled) in from_lambda.iter().zip(&from_poller) {
        assert_eq!(
            lambda.change.as_ref().unwrap(),
            polled.change.as_ref().unwrap()
        );
        assert_eq!(lambda.sequence_number, polled.sequence_number);
        assert_eq!(lambda.keys, polled.keys);
    }
    assert_eq!(
        from_lambda
            .iter()
            .map(|r| r.change.as_ref().unwrap().kind())
            .collect::<Vec<_>>(),
        [ChangeKind::Insert, ChangeKind::Modify, ChangeKind::Remove]
    );
}

/// Another table's stream read with this table's types (a poller pointed
/// at the wrong stream): every record is reported, with its own keys.
#[tokio::test]
async fn another_tables_records_are_reported_not_dropped() {
    use aws_sdk_dynamodb::types::{
        AttributeDefinition, BillingMode, KeySchemaElement, KeyType, ScalarAttributeType,
    };
    let dynamo = LocalDynamo::start().await.unwrap();
    let client = dynamo.client();
    let legacy = dynamo.unique_table_name("legacy");
    client
        .create_table()
        .table_name(&legacy)
        .key_schema(
            KeySchemaElement::builder()
                .attribute_name("id")
                .key_type(KeyType::Hash)
                .build()
                .unwrap(),
        )
        .attribute_definitions(
            AttributeDefinition::builder()
                .attribute_name("id")
                .attribute_type(ScalarAttributeType::N)
                .build()
                .unwrap(),
        )
        .billing_mode(BillingMode::PayPerRequest)
        .stream_specification(
            StreamSpecification::builder()
                .stream_enabled(true)
                .stream_view_type(StreamViewType::NewAndOldImages)
                .build()
                .unwrap(),
        )
        .send()
        .await
        .unwrap();
    for id in ["1", "2"] {
        client
            .put_item()
            .table_name(&legacy)
            .item("id", AttributeValue::N(id.into()))
            .item("_type", AttributeValue::S("ORDER".into()))
            .send()
            .await
            .unwrap();
    }
    let streams = sdk::Client::from_conf(dynamo.streams_config_builder().build());
    let records: Vec<Record<ShopItem>> = Poller::for_table(streams, &legacy)
        .await
        .unwrap()
        .follow(false)
        .records()
        .try_collect()
        .await
        .unwrap();
    assert_eq!(records.len(), 2);
    for (record, id) in records.iter().zip(["1", "2"]) {
        let err = record.change.as_ref().unwrap_err();
        assert_eq!(err.kind(), ErrorKind::ForeignRecord);
        let message = err.to_string();
        assert!(message.contains(&format!("keys id={id} ")), "{message}");
        assert!(record.sequence_number.is_some() && record.shard_id.is_some());
        assert_eq!(record.table_name.as_deref(), Some(legacy.as_str()));
    }
}

#[tokio::test]
async fn a_table_without_a_stream_says_so() {
    let dynamo = LocalDynamo::start().await.unwrap();
    let db = Db::<Shop>::new(dynamo.client(), dynamo.unique_table_name("nostream"));
    db.create_table_if_missing().await.unwrap();
    let streams = sdk::Client::from_conf(dynamo.streams_config_builder().build());
    let err = Poller::<ShopItem>::for_table(streams, db.table_name())
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NoStream, "{err}");
    assert!(err.to_string().contains(db.table_name()));
    // The table's declared shape is what the parser checks keys against.
    assert_eq!(Shop::SCHEMA.primary.partition_key, "PK");
}
