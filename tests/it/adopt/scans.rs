//! Main's newer read and write paths over the table typed by key: scans
//! (plain and parallel), read transactions, upserts and stream records
//! route by key, as gets and queries do, and write no type attribute.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use ddb_entity::stream::Change;
use ddb_entity::stream::lambda::{self, Event};
use ddb_entity::{ErrorKind, Table, UnknownItems};
use serde_json::{Value, json};

use super::legacy::*;

fn junk() -> ddb_entity::Item {
    HashMap::from([
        ("PK".to_owned(), AttributeValue::S("JUNK#1".into())),
        ("SK".to_owned(), AttributeValue::S("WHATEVER".into())),
    ])
}

fn tally(items: &[Everything]) -> [usize; 4] {
    let mut counts = [0; 4];
    for item in items {
        counts[match item {
            Everything::User(_) => 0,
            Everything::Order(_) => 1,
            Everything::OrderLine(_) => 2,
            Everything::OrderItem(_) => 3,
        }] += 1;
    }
    counts
}

#[tokio::test]
async fn a_scan_routes_every_item_by_its_keys() {
    let (_dynamo, db) = legacy_table().await;
    let mut items = hand::dataset();
    items.push(junk());
    put_raw(&db, items).await;

    // No type attribute to filter on: the item of no member's templates
    // is read and left out, the others routed by key.
    let everything: Vec<Everything> = db.scan().collect().await.unwrap();
    assert_eq!(tally(&everything), [2, 3, 2, 2]);
    let parallel: Vec<Everything> = db
        .scan()
        .segments(3)
        .concurrency(2)
        .page_size(2)
        .collect()
        .await
        .unwrap();
    assert_eq!(tally(&parallel), [2, 3, 2, 2]);

    // One entity: orders only, their lines (inside the order key space)
    // never decoded as orders.
    let mut orders: Vec<Order> = db.scan().segments(2).collect().await.unwrap();
    orders.sort_by(|a, b| a.order_id.cmp(&b.order_id));
    let ids: Vec<&str> = orders.iter().map(|o| o.order_id.as_str()).collect();
    assert_eq!(ids, ["ORD-1", "ORD-2", "ORD-3"]);

    // Asked to fail on what it cannot type, it fails on the junk item.
    let err = db
        .scan()
        .on_unknown(UnknownItems::Error)
        .collect::<Vec<Everything>>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnknownType, "{err}");
    assert_eq!(db.scan().count().await.unwrap(), 10);
}

#[tokio::test]
async fn a_read_transaction_checks_the_keys_not_a_type_attribute() {
    let (_dynamo, db) = legacy_table().await;
    put_raw(&db, hand::dataset()).await;
    let order_key = Order::key("bob@example.com", at(2, 12), "ORD-3").unwrap();
    let read = db
        .transact_get()
        .get(User::key("alice@example.com").unwrap())
        .get(order_key.clone())
        .await
        .unwrap();
    assert_eq!(
        read.get(&User::key("alice@example.com").unwrap()).unwrap(),
        Some(alice())
    );
    assert_eq!(
        read.get(&order_key).unwrap(),
        Some(order("bob@example.com", at(2, 12), "ORD-3", 7.0, "open"))
    );
    let everything: Vec<Everything> = read.collect().unwrap();
    assert_eq!(tally(&everything), [1, 1, 0, 0]);
}

#[tokio::test]
async fn an_upsert_writes_no_type_attribute_and_updates_by_key() {
    let (_dynamo, db) = legacy_table().await;
    put_raw(&db, hand::dataset()).await;
    let f = Order::fields();
    let key = || Order::key("carol@example.com", at(5, 8), "ORD-9").unwrap();
    let upsert = |total: f64| {
        db.upsert(key())
            .set(f.order_total, total)
            .set(f.status, "open".to_owned())
    };
    let created = upsert(3.0).await.unwrap();
    assert_eq!(created.order_total, 3.0);
    let stored = raw_item(
        &db,
        "USER#carol@example.com",
        "ORDER#2026-03-05T08:00:00Z#ORD-9",
    )
    .await
    .unwrap();
    assert!(!stored.contains_key(Legacy::SCHEMA.type_attribute));
    // The hand-written order, which has none either, is updated in place.
    let updated = upsert(4.0).await.unwrap();
    assert_eq!(updated.order_total, 4.0);
    let changed = db
        .upsert(Order::key("bob@example.com", at(2, 12), "ORD-3").unwrap())
        .set(f.order_total, 8.0)
        .set(f.status, "shipped".to_owned())
        .await
        .unwrap();
    assert_eq!(changed.status, "shipped");
}

fn s(value: &str) -> Value {
    json!({ "S": value })
}

fn stream_record(keys: Value, new: Value) -> Value {
    json!({
        "eventID": "1",
        "eventName": "INSERT",
        "eventVersion": "1.1",
        "eventSource": "aws:dynamodb",
        "awsRegion": "us-east-1",
        "dynamodb": {
            "ApproximateCreationDateTime": 1_773_480_660.0,
            "Keys": keys,
            "NewImage": new,
            "SequenceNumber": "1",
            "SizeBytes": 59,
            "StreamViewType": "NEW_IMAGE",
        },
        "eventSourceARN": "arn:aws:dynamodb:us-east-1:123456789012:table/app_data/stream/2026-03-14T09:31:00.000",
    })
}

#[test]
fn stream_records_of_a_table_typed_by_key_route_by_key() {
    let order_sk = "ORDER#2026-03-01T09:00:00Z#ORD-1";
    let line_sk = "ORDER#2026-03-01T09:00:00Z#ORD-1#LINE#2";
    let pk = "USER#alice@example.com";
    let event: Event = serde_json::from_value(json!({ "Records": [
        stream_record(
            json!({ "PK": s(pk), "SK": s(order_sk) }),
            json!({
                "PK": s(pk), "SK": s(order_sk),
                "GSI1PK": s("ORDER#ORD-1"), "GSI1SK": s(pk),
                "email": s("alice@example.com"), "placed_at": s("2026-03-01T09:00:00Z"),
                "order_id": s("ORD-1"), "order_total": { "N": "129.99" }, "status": s("shipped"),
            }),
        ),
        stream_record(
            json!({ "PK": s(pk), "SK": s(line_sk) }),
            json!({
                "PK": s(pk), "SK": s(line_sk),
                "email": s("alice@example.com"), "placed_at": s("2026-03-01T09:00:00Z"),
                "order_id": s("ORD-1"), "line": { "N": "2" }, "note": s("gift wrap"),
            }),
        ),
        stream_record(
            json!({ "PK": s("JUNK#1"), "SK": s("WHATEVER") }),
            json!({ "PK": s("JUNK#1"), "SK": s("WHATEVER") }),
        ),
    ]}))
    .unwrap();
    let records = lambda::records::<Everything>(event);
    assert_eq!(records.len(), 3);
    match records[0].change.as_ref().unwrap() {
        Change::Insert {
            new: Some(Everything::Order(order)),
        } => assert_eq!(order.order_id, "ORD-1"),
        other => panic!("expected an order, got {other:?}"),
    }
    match records[1].change.as_ref().unwrap() {
        Change::Insert {
            new: Some(Everything::OrderLine(line)),
        } => assert_eq!(line.note, "gift wrap"),
        other => panic!("expected an order line, got {other:?}"),
    }
    let err = records[2].change.as_ref().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnknownType, "{err}");
}
