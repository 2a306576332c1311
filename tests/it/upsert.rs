//! Upsert: update-or-create in one UpdateItem, every key computed from the
//! fields given, refused before sending when they cannot make an item.

use std::time::{Duration, UNIX_EPOCH};

use aws_sdk_dynamodb::types::AttributeValue;
use ddb_entity::op::ActionKind;
use ddb_entity::{Entity, ErrorKind};
use serde::{Deserialize, Serialize};

use crate::model::{CustomerOrder, Ticket, date};
use crate::support::{App, Gsi1, logged_app_table, stored_item};

/// Stock per SKU, found by warehouse on GSI1 (ordered by bin), counted up
/// and down, versioned, with a creation time kept.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "SKU#{sku}", sk = "STOCK", version = "version", created_at = "created", updated_at = "updated")]
#[entity(index = Gsi1, pk = "WAREHOUSE#{warehouse}", sk = "BIN#{bin:4}#{sku}")]
struct Stock {
    sku: String,
    warehouse: String,
    bin: u16,
    on_hand: i64,
    note: Option<String>,
    #[serde(default)]
    version: u64,
    #[serde(default)]
    created: u64,
    #[serde(default)]
    updated: u64,
}

#[tokio::test]
async fn an_upsert_creates_then_changes_in_one_request_each_with_every_key() {
    let (_dynamo, db, log) = logged_app_table().await;
    let db = db.with_clock(|| UNIX_EPOCH + Duration::from_secs(1_000));
    let f = Stock::fields();
    let restock = |amount: i64| {
        db.upsert(Stock::key("A-1").unwrap())
            .set(f.warehouse, "east".to_owned())
            .set(f.bin, 7)
            .add(f.on_hand, amount)
    };
    log.clear();
    let created = restock(10).await.unwrap();
    assert_eq!(log.operations(), ["UpdateItem"]);
    assert_eq!(
        (
            created.on_hand,
            created.version,
            created.created,
            created.updated
        ),
        (10, 1, 1_000_000, 1_000_000)
    );
    let stored = stored_item(&db, &Stock::key("A-1").unwrap()).await;
    assert_eq!(stored["_type"], AttributeValue::S("stock".into()));
    assert!(
        !stored.contains_key("sku"),
        "the key field is stored in the key only, as a put stores it: {stored:?}"
    );
    assert_eq!(stored["GSI1PK"], AttributeValue::S("WAREHOUSE#east".into()));
    assert_eq!(stored["GSI1SK"], AttributeValue::S("BIN#0007#A-1".into()));

    let db = db.with_clock(|| UNIX_EPOCH + Duration::from_secs(2_000));
    let changed = db
        .upsert(Stock::key("A-1").unwrap())
        .set(f.warehouse, "east".to_owned())
        .set(f.bin, 3)
        .add(f.on_hand, -4)
        .await
        .unwrap();
    assert_eq!(
        (
            changed.on_hand,
            changed.version,
            changed.created,
            changed.updated
        ),
        (6, 2, 1_000_000, 2_000_000),
        "the first creation time kept"
    );
    let found: Vec<Stock> = db
        .query(Stock::gsi1_partition("east").unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(found, [changed], "found by its index, moved to bin 3");
}

#[tokio::test]
async fn an_upsert_that_cannot_make_every_key_or_field_is_refused_before_sending() {
    let (_dynamo, db, log) = logged_app_table().await;
    let f = Stock::fields();
    let key = || Stock::key("A-1").unwrap();

    // An index key field left out: the item could be created without it.
    let err = db.upsert(key()).add(f.on_hand, 1).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::MissingKeyField, "{err:?}");
    assert!(err.to_string().contains("warehouse"), "{err}");
    let err = db
        .upsert(key())
        .set(f.warehouse, "east".to_owned())
        .add(f.on_hand, 1)
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::MissingKeyField, "{err:?}");
    assert!(err.to_string().contains("`bin`"), "{err}");

    // A field a new item needs, left out.
    let err = db
        .upsert(key())
        .set(f.warehouse, "east".to_owned())
        .set(f.bin, 1)
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::IncompleteUpsert, "{err:?}");
    assert!(err.to_string().contains("on_hand"), "{err}");
    assert!(log.operations().is_empty(), "{:?}", log.operations());
}

#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "COUNTER#{name}", sk = "COUNTER")]
struct Counter {
    name: String,
    hits: u64,
    by_day: std::collections::HashMap<String, u64>,
}

#[tokio::test]
async fn a_path_inside_a_field_cannot_be_upserted() {
    let (_dynamo, db, log) = logged_app_table().await;
    let f = Counter::fields();
    let err = db
        .upsert(Counter::key("home").unwrap())
        .add(f.hits, 1)
        .add_at(f.by_day.key("2026-03-14"), 1)
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::IncompleteUpsert, "{err:?}");
    assert!(err.to_string().contains("by_day.2026-03-14"), "{err}");
    assert!(log.operations().is_empty());
    // The whole field is fine.
    let counter = db
        .upsert(Counter::key("home").unwrap())
        .add(f.hits, 1)
        .set_if_not_exists(f.by_day, Default::default())
        .await
        .unwrap();
    assert_eq!(counter.hits, 1);
}

#[tokio::test]
async fn a_resent_upsert_adds_once() {
    let (_dynamo, db, _log) = logged_app_table().await;
    let f = Counter::fields();
    for _ in 0..3 {
        db.upsert(Counter::key("home").unwrap())
            .add(f.hits, 5)
            .set_if_not_exists(f.by_day, Default::default())
            .idempotency_token("hit-0001")
            .await
            .unwrap();
    }
    let counter = db
        .get(Counter::key("home").unwrap())
        .consistent_read(true)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(counter.hits, 5, "applied once");
}

/// Another entity type at the key `COUNTER#home / COUNTER`.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "COUNTER#{name}", sk = "COUNTER", type = "GAUGE")]
struct Gauge {
    name: String,
    level: i64,
}

#[tokio::test]
async fn an_upsert_leaves_an_item_of_another_type_untouched() {
    let (_dynamo, db, _log) = logged_app_table().await;
    let gauge = Gauge {
        name: "home".into(),
        level: 3,
    };
    db.put(&gauge).await.unwrap();
    let err = db
        .upsert(Counter::key("home").unwrap())
        .add(Counter::fields().hits, 1)
        .set_if_not_exists(Counter::fields().by_day, Default::default())
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::WrongType, "{err:?}");
    assert!(err.is_wrong_type() && err.is_condition_failed());
    assert_eq!(
        db.get(Gauge::key("home").unwrap())
            .consistent_read(true)
            .await
            .unwrap(),
        Some(gauge)
    );
}

#[tokio::test]
async fn an_upsert_writes_indexes_made_of_key_fields_and_keeps_sparse_ones_in_step() {
    let (_dynamo, db, _log) = logged_app_table().await;
    // CustomerOrder's GSI1 is made of primary-key fields only.
    db.upsert(CustomerOrder::key(42u64, date(2026, 3, 14), 9931u64).unwrap())
        .set(CustomerOrder::fields().total_cents, 1299)
        .await
        .unwrap();
    let order: Option<CustomerOrder> = db
        .query(CustomerOrder::gsi1_partition(9931u64).unwrap())
        .one()
        .await
        .unwrap();
    assert_eq!(order.map(|o| o.total_cents), Some(1299));

    // Ticket's GSI2 is sparse on `open_since`: left out, the item is out of
    // it; set, in; removed, out again.
    let f = Ticket::fields();
    let key = || Ticket::key(42u64, 1u32).unwrap();
    let open = || db.query(Ticket::gsi2_partition(date(2026, 3, 1)).unwrap());
    db.upsert(key())
        .set(f.subject, "late".to_owned())
        .await
        .unwrap();
    assert_eq!(open().count().await.unwrap(), 0);
    db.upsert(key())
        .set(f.subject, "late".to_owned())
        .set(f.open_since, Some(date(2026, 3, 1)))
        .await
        .unwrap();
    assert_eq!(open().count().await.unwrap(), 1);
    // Every upsert could create the item: it gives what a new one needs.
    let err = db.upsert(key()).remove(f.open_since).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::IncompleteUpsert, "{err:?}");
    db.upsert(key())
        .set(f.subject, "late".to_owned())
        .remove(f.open_since)
        .await
        .unwrap();
    assert_eq!(open().count().await.unwrap(), 0);
}

#[tokio::test]
async fn an_upsert_in_a_transaction_creates_checks_versions_and_maps_its_cancellation() {
    let (_dynamo, db, _log) = logged_app_table().await;
    let f = Counter::fields();
    let upsert = || {
        db.upsert(Counter::key("home").unwrap())
            .add(f.hits, 1)
            .set_if_not_exists(f.by_day, Default::default())
    };
    db.transact().update(upsert()).await.unwrap();
    db.transact().update(upsert()).await.unwrap();
    let counter = db
        .get(Counter::key("home").unwrap())
        .consistent_read(true)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(counter.hits, 2);

    db.put(&Gauge {
        name: "away".into(),
        level: 1,
    })
    .await
    .unwrap();
    let err = db
        .transact()
        .update(
            db.upsert(Counter::key("away").unwrap())
                .add(f.hits, 1)
                .set_if_not_exists(f.by_day, Default::default()),
        )
        .await
        .unwrap_err();
    let reason = &err.cancellation_reasons()[0];
    assert_eq!(reason.action(), ActionKind::Upsert);
    assert!(
        reason.is_wrong_type() && !reason.is_not_found(),
        "{reason:?}"
    );

    // A version expected: 0 means "not there yet".
    let s = Stock::fields();
    let stock = |expected: u64| {
        db.upsert(Stock::key("B-2").unwrap())
            .set(s.warehouse, "west".to_owned())
            .set(s.bin, 1)
            .add(s.on_hand, 1)
            .expect_version(expected)
    };
    assert_eq!(stock(0).await.unwrap().version, 1);
    let err = stock(0).await.unwrap_err();
    assert!(err.is_version_conflict(), "{err:?}");
    assert_eq!(err.version_conflict(), Some((0, Some(1))));
    assert_eq!(stock(1).await.unwrap().version, 2);
}
