//! One read engine, exact semantics on every source (issue 24): a filtered
//! `count()` equals `all().len()` on a partition shared with another type
//! and on a scan beside foreign and untyped items; `first`/`one` behind
//! many items of another type cost one page; over a sharded partition a
//! filter that matches one item in a hundred does not cost a request per
//! item. Every case counts its requests at the SDK layer.

use ddb_entity::{Db, Entity, ErrorKind};
use serde::{Deserialize, Serialize};

use crate::support::{App, RequestLog, logged_app_table};

#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "SHOP#{shop_id}", sk = "PRODUCT#{sku}")]
struct Product {
    shop_id: u64,
    sku: u32,
    status: String,
}

#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "SHOP#{shop_id}", sk = "SHOP")]
struct Shop {
    shop_id: u64,
    status: String,
}

/// Sorts before every `Product` of its shop (`ALPHA#` < `PRODUCT#`).
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "SHOP#{shop_id}", sk = "ALPHA#{n}")]
struct Alpha {
    shop_id: u64,
    n: u32,
}

/// A feed spread over 16 shards, one item in a hundred `hot`. Its key
/// fields are kept as attributes too: a test filters on `event_id`.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "FEED#{day}#{shard(event_id) % 16}", sk = "EVENT#{event_id}")]
#[entity(key_fields = "key_and_body")]
struct FeedEvent {
    day: u32,
    event_id: u64,
    hot: bool,
}

async fn put_all<E: Entity<Table = App>>(db: &Db<App>, items: &[E]) {
    let mut batch = db.batch_write();
    for item in items {
        batch = batch.put(item);
    }
    batch.await.expect("the batch is written");
}

/// 29 active and 3 closed products, and an active shop, in shop 1.
async fn shop_with_products(db: &Db<App>) {
    let products: Vec<Product> = (1..=32)
        .map(|sku| Product {
            shop_id: 1,
            sku,
            status: if sku <= 29 { "active" } else { "closed" }.into(),
        })
        .collect();
    put_all(db, &products).await;
    db.put(&Shop {
        shop_id: 1,
        status: "active".into(),
    })
    .await
    .unwrap();
}

fn active() -> ddb_entity::Condition<Product> {
    Product::fields().status.equals("active".to_owned())
}

#[tokio::test]
async fn a_filtered_count_of_a_shared_partition_counts_only_the_filtered_entity() {
    let (_dynamo, db, log) = logged_app_table().await;
    shop_with_products(&db).await;
    log.clear();
    let counted = db
        .query(Shop::partition(1u64).unwrap())
        .filter(active())
        .count()
        .await
        .unwrap();
    // The active shop used to be counted too (30).
    assert_eq!(counted, 29);
    assert_eq!(log.count("Query"), 1, "{:?}", log.operations());
    let all: Vec<Product> = db
        .query(Shop::partition(1u64).unwrap())
        .filter(active())
        .all()
        .await
        .unwrap();
    assert_eq!(all.len(), counted);
}

/// Puts an item of an entity the table does not declare and an item
/// without a type attribute, both with `status = "active"`.
async fn foreign_and_untyped(db: &Db<App>) {
    use aws_sdk_dynamodb::types::AttributeValue::S;
    for (pk, typed) in [("FOREIGN#1", Some("Stranger")), ("UNTYPED#1", None)] {
        let mut put = db
            .client()
            .put_item()
            .table_name(db.table_name())
            .item("PK", S(pk.into()))
            .item("SK", S("X".into()))
            .item("status", S("active".into()));
        if let Some(name) = typed {
            put = put.item("_type", S(name.into()));
        }
        put.send().await.expect("the raw item is written");
    }
}

#[tokio::test]
async fn a_filtered_scan_count_leaves_foreign_and_untyped_items_out() {
    let (_dynamo, db, log) = logged_app_table().await;
    shop_with_products(&db).await;
    foreign_and_untyped(&db).await;
    log.clear();
    let counted = db.scan().filter(active()).count().await.unwrap();
    // The foreign and the untyped item used to be counted (31).
    assert_eq!(counted, 29);
    assert_eq!(log.count("Scan"), 1, "{:?}", log.operations());
    let all: Vec<Product> = db.scan().filter(active()).all().await.unwrap();
    assert_eq!(all.len(), counted);
}

/// Shop 2: 80 `Alpha` items, then one product.
async fn one_product_behind_eighty_others(db: &Db<App>, log: &RequestLog) {
    let others: Vec<Alpha> = (0..80).map(|n| Alpha { shop_id: 2, n }).collect();
    put_all(db, &others).await;
    db.put(&Product {
        shop_id: 2,
        sku: 7,
        status: "active".into(),
    })
    .await
    .unwrap();
    log.clear();
}

#[tokio::test]
async fn first_and_one_behind_eighty_items_of_another_type_cost_pages_not_items() {
    let (_dynamo, db, log) = logged_app_table().await;
    one_product_behind_eighty_others(&db, &log).await;
    let partition = || Product::partition(2u64).unwrap();

    let first: Option<Product> = db.query(partition()).first().await.unwrap();
    assert_eq!(first.map(|p| p.sku), Some(7));
    // 81 requests before: one item read per request. Now one request of
    // one item, then whole pages once it left the item out.
    assert_eq!(log.count("Query"), 2, "first: {:?}", log.operations());
    log.clear();

    let one: Option<Product> = db.query(partition()).one().await.unwrap();
    assert_eq!(one.map(|p| p.sku), Some(7));
    // 41 before: two items read per request.
    assert_eq!(log.count("Query"), 2, "one: {:?}", log.operations());
    log.clear();

    // A second product further on is still found.
    db.put(&Product {
        shop_id: 2,
        sku: 8,
        status: "active".into(),
    })
    .await
    .unwrap();
    log.clear();
    let err = db.query(partition()).one::<Product>().await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::MoreThanOne);
    assert!(log.count("Query") <= 2, "{:?}", log.operations());
}

/// 1,600 events of day 1 over 16 shards; events 0, 100, … 1500 are hot.
async fn sparse_feed(db: &Db<App>) -> Vec<u64> {
    let events: Vec<FeedEvent> = (0..1600)
        .map(|event_id| FeedEvent {
            day: 1,
            event_id,
            hot: event_id % 100 == 0,
        })
        .collect();
    put_all(db, &events).await;
    let mut hot: Vec<u64> = events
        .iter()
        .filter(|e| e.hot)
        .map(|e| e.event_id)
        .collect();
    // The merged order is the sort key's, and ids encode zero-padded.
    hot.sort_unstable();
    hot
}

#[tokio::test]
async fn a_sparse_filter_over_shards_costs_pages_per_shard_not_items() {
    let (_dynamo, db, log) = logged_app_table().await;
    let hot = sparse_feed(&db).await;
    let feed = || {
        db.query(FeedEvent::partition(1u32).unwrap())
            .filter(FeedEvent::fields().hot.equals(true))
    };
    // Each shard: one request asking for what is missing, and once that
    // left items out, whole pages (each shard's ~100 items are one page).
    let bound = 2 * 16;

    log.clear();
    let first: Option<FeedEvent> = feed().first().await.unwrap();
    assert_eq!(first.map(|e| e.event_id), Some(hot[0]));
    assert!(
        log.count("Query") <= bound,
        "first: {} (933 before)",
        log.count("Query")
    );

    log.clear();
    let ten: Vec<FeedEvent> = feed().limit(10).all().await.unwrap();
    assert_eq!(
        ten.iter().map(|e| e.event_id).collect::<Vec<_>>(),
        hot[..10]
    );
    assert!(
        log.count("Query") <= bound,
        "limit(10): {} (184 before)",
        log.count("Query")
    );

    log.clear();
    let one: Option<FeedEvent> = db
        .query(FeedEvent::partition(1u32).unwrap())
        .filter(FeedEvent::fields().event_id.equals(700u64))
        .one()
        .await
        .unwrap();
    assert_eq!(one.map(|e| e.event_id), Some(700));
    assert!(
        log.count("Query") <= bound,
        "one: {} (571 before)",
        log.count("Query")
    );

    log.clear();
    let counted = feed().count().await.unwrap();
    assert_eq!(counted, hot.len());
    assert_eq!(log.count("Query"), 16, "one count request per shard");
}
