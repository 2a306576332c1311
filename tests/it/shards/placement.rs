//! Every write puts an item in the shard the documented function gives —
//! checked against what the server holds (raw scans and gets), for puts,
//! creates, batches, transactions and updates that move an index key —
//! and a read by full key finds it.

use aws_sdk_dynamodb::types::AttributeValue;
use ddb_entity::{Entity, ErrorKind, Item};

use super::*;
use crate::support::{App, app_table, stored_item};

/// Every item of the table, as the server holds it.
async fn scan(db: &Db<App>) -> Vec<Item> {
    let mut items = Vec::new();
    let mut start = None;
    loop {
        let page = db
            .client()
            .scan()
            .table_name(db.table_name())
            .set_exclusive_start_key(start)
            .send()
            .await
            .expect("Scan succeeds");
        items.extend(page.items.unwrap_or_default());
        start = page.last_evaluated_key;
        if start.is_none() {
            return items;
        }
    }
}

fn s<'a>(item: &'a Item, name: &str) -> &'a str {
    item.get(name)
        .and_then(|value| value.as_s().ok())
        .map(String::as_str)
        .unwrap_or_else(|| panic!("`{name}` is a string in {item:?}"))
}

#[tokio::test]
async fn every_way_of_writing_puts_each_item_in_its_documented_shard() {
    let (_dynamo, db) = app_table().await;
    // put, create, a batch, a transaction: 40 orders.
    let orders: Vec<StatusOrder> = (1..=40)
        .map(|order_id| StatusOrder {
            order_id,
            status: if order_id % 3 == 0 {
                Status::Shipped
            } else {
                Status::Open
            },
            placed: 500 + order_id as u32,
            total_cents: 1,
        })
        .collect();
    for order in &orders[..5] {
        db.put(order).await.unwrap();
    }
    for order in &orders[5..10] {
        db.create(order).await.unwrap();
    }
    put_all(&db, &orders[10..35]).await;
    let mut transaction = db.transact();
    for order in &orders[35..] {
        transaction = transaction.put(order);
    }
    transaction.await.unwrap();

    let stored = scan(&db).await;
    assert_eq!(stored.len(), 40);
    let mut shards_used = std::collections::HashSet::new();
    for item in &stored {
        let order_id: u64 = s(item, "PK").trim_start_matches("ORDER#").parse().unwrap();
        let order = &orders[order_id as usize - 1];
        let shard = documented_shard(16, &[&order_id]);
        shards_used.insert(shard);
        let status = key::encode(&order.status).unwrap();
        assert_eq!(
            s(item, "GSI1PK"),
            format!("STATUS#{status}#{}", component(shard, 16)),
            "order {order_id}"
        );
        assert_eq!(
            s(item, "GSI1SK"),
            format!("ORDER#{:010}#{:020}", order.placed, order_id)
        );
    }
    // 40 ids spread over most of the 16 shards.
    assert!(shards_used.len() >= 12, "{shards_used:?}");

    // A golden placement, for readers of this test: order 9931 is in shard 15.
    assert_eq!(documented_shard(16, &[&9931u64]), 15);
    let golden = StatusOrder {
        order_id: 9931,
        status: Status::Open,
        placed: 1,
        total_cents: 0,
    };
    assert_eq!(
        golden.index_entries().unwrap()[0]
            .key
            .as_ref()
            .unwrap()
            .partition,
        "STATUS#Open#15/16"
    );
}

#[tokio::test]
async fn an_update_of_the_status_moves_the_item_to_the_same_shard_of_the_new_status() {
    let (_dynamo, db) = app_table().await;
    let order = StatusOrder {
        order_id: 77,
        status: Status::Open,
        placed: 9,
        total_cents: 5,
    };
    db.put(&order).await.unwrap();
    let shard = component(documented_shard(16, &[&77u64]), 16);

    // The index key's other field (its sort key's `placed`) goes with it;
    // the shard's `order_id` is read back from the key.
    let fields = StatusOrder::fields();
    let updated = db
        .update(StatusOrder::key(77u64).unwrap())
        .set(fields.status, Status::Shipped)
        .set(fields.placed, 9)
        .await
        .unwrap();
    assert_eq!(updated.status, Status::Shipped);
    let item = stored_item(&db, &StatusOrder::key(77u64).unwrap()).await;
    assert_eq!(s(&item, "GSI1PK"), format!("STATUS#Shipped#{shard}"));

    // Found there, and no longer among the open orders.
    let shipped: Vec<StatusOrder> = db
        .query(StatusOrder::gsi1_partition(Status::Shipped).unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(shipped, [updated]);
    let open: Vec<StatusOrder> = db
        .query(StatusOrder::gsi1_partition(Status::Open).unwrap())
        .all()
        .await
        .unwrap();
    assert!(open.is_empty());
}

#[tokio::test]
async fn an_index_sharded_by_a_field_outside_its_key_needs_it_in_an_update() {
    let (_dynamo, db) = app_table().await;
    let shipment = Shipment {
        shipment_id: 5,
        status: Status::Open,
        region: "eu-west-1".into(),
    };
    db.put(&shipment).await.unwrap();
    let item = stored_item(&db, &Shipment::key(5u64).unwrap()).await;
    let shard = documented_shard(4, &[&"eu-west-1", &5u64]);
    assert_eq!(
        s(&item, "GSI2PK"),
        format!("SHIPPING#Open#{}", component(shard, 4))
    );

    // The status alone: the shard reads the region too, which the update
    // does not say. Refused before sending, naming it.
    let fields = Shipment::fields();
    let err = db
        .update(Shipment::key(5u64).unwrap())
        .set(fields.status, Status::Shipped)
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::MissingKeyField);
    assert!(err.to_string().contains("`region`"), "{err}");

    // With it (even unchanged), the key moves; a new region moves the shard.
    db.update(Shipment::key(5u64).unwrap())
        .set(fields.status, Status::Shipped)
        .set(fields.region, "us-east-1".to_owned())
        .await
        .unwrap();
    let item = stored_item(&db, &Shipment::key(5u64).unwrap()).await;
    let shard = documented_shard(4, &[&"us-east-1", &5u64]);
    assert_eq!(
        s(&item, "GSI2PK"),
        format!("SHIPPING#Shipped#{}", component(shard, 4))
    );
    let found: Vec<Shipment> = db
        .query(Shipment::gsi2_partition(Status::Shipped).unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(found.len(), 1);
}

#[tokio::test]
async fn a_sharded_primary_key_is_written_read_updated_and_deleted_by_its_full_key() {
    let (_dynamo, db, log) = logged_table().await;
    let events: Vec<Event> = (1..=30)
        .map(|event_id| Event {
            day: 20260314,
            at: 900 + (event_id as u32 * 37) % 60,
            event_id,
            payload: format!("e{event_id}"),
        })
        .collect();
    put_all(&db, &events[..20]).await;
    for event in &events[20..] {
        db.put(event).await.unwrap();
    }

    // The key computes the shard: a get is one GetItem, no fan-out.
    let key = Event::key(20260314u32, 900 + (7 * 37) % 60, 7u64).unwrap();
    let shard = documented_shard(8, &[&7u64]);
    assert_eq!(
        key.partition(),
        format!("DAY#20260314#{}", component(shard, 8))
    );
    log.clear();
    let got = db.get(key.clone()).await.unwrap().unwrap();
    assert_eq!(got, events[6]);
    assert!(log.queries().is_empty());
    for item in scan(&db).await {
        let event_id: u64 = s(&item, "SK").rsplit('#').next().unwrap().parse().unwrap();
        let shard = documented_shard(8, &[&event_id]);
        assert_eq!(
            s(&item, "PK"),
            format!("DAY#20260314#{}", component(shard, 8))
        );
    }

    // An update addresses the item by its key (shard and all).
    let fields = Event::fields();
    let updated = db
        .update(key.clone())
        .set(fields.payload, "changed".to_owned())
        .await
        .unwrap();
    assert_eq!(updated.payload, "changed");

    // The day, read as one partition: one Query per shard, in the order
    // of the sort key.
    log.clear();
    let day: Vec<Event> = db
        .query(Event::partition(20260314u32).unwrap())
        .all()
        .await
        .unwrap();
    let mut expected = events.clone();
    expected[6].payload = "changed".into();
    expected.sort_by_key(|e| (e.at, e.event_id));
    assert_eq!(day, expected);
    let mut partitions: Vec<String> = log.queries().into_iter().map(|(p, _)| p).collect();
    partitions.sort();
    let every: Vec<String> = (0..8)
        .map(|shard| format!("DAY#20260314#{}", component(shard, 8)))
        .collect();
    assert_eq!(partitions, every);

    db.delete(key.clone()).await.unwrap();
    assert!(db.get(key).await.unwrap().is_none());
}

#[tokio::test]
async fn an_item_in_the_wrong_shard_is_refused_when_read() {
    let (_dynamo, db) = app_table().await;
    let order = StatusOrder {
        order_id: 12,
        status: Status::Open,
        placed: 3,
        total_cents: 1,
    };
    db.put(&order).await.unwrap();
    // Written by other code into a shard its id does not choose.
    let right = documented_shard(16, &[&12u64]);
    let wrong = (right + 1) % 16;
    let mut item = order.to_item().unwrap();
    item.insert(
        "GSI1PK".into(),
        AttributeValue::S(format!("STATUS#Open#{}", component(wrong, 16))),
    );
    db.client()
        .put_item()
        .table_name(db.table_name())
        .set_item(Some(item))
        .send()
        .await
        .unwrap();
    let err = db
        .query(StatusOrder::gsi1_partition(Status::Open).unwrap())
        .all::<StatusOrder>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::KeyMismatch, "{err}");
    assert!(err.to_string().contains("GSI1PK"), "{err}");
}
