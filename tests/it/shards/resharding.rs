//! Re-sharding, carried out as the derive reference's *Re-sharding*
//! section says, on a real server: a new count is a new key, so an index
//! gets a new index beside it and a backfill, and a sharded primary key
//! gets its items moved, one transaction each, while reads cover both
//! layouts. Neither loses, duplicates or resurrects an item when a writer
//! changes it mid-migration.

use ddb_entity::{Condition, Entity};
use serde::{Deserialize, Serialize};

use super::*;
use crate::support::{App, Gsi2, app_table};

/// Before the change: open orders over 4 shards of GSI1.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "RORDER#{order_id}", sk = "RORDER", type = "RORDER")]
#[entity(index = Gsi1, pk = "RSTATUS#{status}#{shard(order_id) % 4}", sk = "{placed}#{order_id}")]
struct OrderBefore {
    order_id: u64,
    status: Status,
    placed: u32,
    note: String,
}

/// During the change: the same items (same type), every write filling the
/// old index and the new one, GSI2 over 8 shards.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "RORDER#{order_id}", sk = "RORDER", type = "RORDER")]
#[entity(index = Gsi1, pk = "RSTATUS#{status}#{shard(order_id) % 4}", sk = "{placed}#{order_id}")]
#[entity(index = Gsi2, pk = "RSTATUS#{status}#{shard(order_id) % 8}", sk = "{placed}#{order_id}")]
struct OrderDuring {
    order_id: u64,
    status: Status,
    placed: u32,
    note: String,
}

fn order(order_id: u64) -> OrderDuring {
    OrderDuring {
        order_id,
        status: Status::Open,
        placed: 100 + (order_id * 37 % 50) as u32,
        note: format!("order {order_id}"),
    }
}

fn before(order: &OrderDuring) -> OrderBefore {
    OrderBefore {
        order_id: order.order_id,
        status: order.status,
        placed: order.placed,
        note: order.note.clone(),
    }
}

/// The backfill of one item read from the old index: its index keys
/// written again (an update of the fields they read, to the values read),
/// only if those fields are still what was read. A writer that changed
/// them since wrote both indexes itself: the backfill then has nothing to
/// do. Returns whether it wrote.
async fn backfill(db: &Db<App>, read: &OrderDuring) -> bool {
    let f = OrderDuring::fields();
    let written = db
        .update(OrderDuring::key(read.order_id).unwrap())
        .set(f.status, read.status)
        .set(f.placed, read.placed)
        .condition(
            f.status
                .equals(read.status)
                .and(f.placed.equals(read.placed)),
        )
        .await;
    match written {
        Ok(_) => true,
        Err(err) if err.is_condition_failed() => false,
        Err(err) => panic!("backfill of {}: {err}", read.order_id),
    }
}

fn sorted(mut orders: Vec<OrderDuring>) -> Vec<OrderDuring> {
    orders.sort_by_key(|o| (o.placed, o.order_id));
    orders
}

#[tokio::test]
async fn an_index_gets_its_new_count_beside_the_old_one_and_a_backfill() {
    let (_dynamo, db) = app_table().await;
    let open_before = OrderDuring::gsi1_partition(Status::Open).unwrap();
    let open_after = OrderDuring::gsi2_partition(Status::Open).unwrap();
    // The change is visible in the layout: the new count, on a new index.
    let counts: Vec<(Option<&str>, Option<u16>)> = OrderDuring::LAYOUT
        .keys
        .iter()
        .map(|key| {
            (
                key.index.map(|index| index.name),
                key.partition.shard().map(|spec| spec.count()),
            )
        })
        .collect();
    assert_eq!(
        counts,
        [
            (None, None),
            (Some("GSI1"), Some(4)),
            (Some("GSI2"), Some(8))
        ]
    );

    // 30 orders written before the deploy, 10 after it.
    let orders: Vec<OrderDuring> = (1..=40).map(order).collect();
    let old: Vec<OrderBefore> = orders[..30].iter().map(before).collect();
    put_all(&db, &old).await;
    put_all(&db, &orders[30..]).await;

    // Until the backfill, the new index holds only what the new code wrote:
    // reads stay on the old one.
    let new_index: Vec<OrderDuring> = db.query(open_after.clone()).all().await.unwrap();
    assert_eq!(new_index, sorted(orders[30..].to_vec()));
    let old_index: Vec<OrderDuring> = db.query(open_before.clone()).all().await.unwrap();
    assert_eq!(old_index, sorted(orders.clone()));

    // The backfill reads the old index page by page (here: the open
    // orders, every shard merged) and writes each item's keys again. A
    // writer ships order 7 between the backfill's read and its write.
    let mut cursor = None;
    let mut written = 0;
    loop {
        let mut query = db.query(open_before.clone()).page_size(9);
        if let Some(cursor) = cursor.take() {
            query = query.after(cursor);
        }
        let page: ddb_entity::op::Page<Vec<OrderDuring>> = query.page().await.unwrap();
        for read in &page.items {
            if read.order_id == 7 {
                let f = OrderDuring::fields();
                db.update(OrderDuring::key(7u64).unwrap())
                    .set(f.status, Status::Shipped)
                    .set(f.placed, read.placed)
                    .await
                    .unwrap();
            }
            written += usize::from(backfill(&db, read).await);
        }
        match page.cursor {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    // Order 7's writer filled both indexes; the backfill left it alone.
    assert_eq!(written, 39);

    // Both indexes now answer the same, in the same merged order; order 7
    // is shipped in both, and in its documented shard of 8.
    let mut open = orders.clone();
    let mut shipped = open.remove(6);
    shipped.status = Status::Shipped;
    let new_index: Vec<OrderDuring> = db.query(open_after).all().await.unwrap();
    let old_index: Vec<OrderDuring> = db.query(open_before).all().await.unwrap();
    assert_eq!(new_index, sorted(open.clone()));
    assert_eq!(old_index, new_index);
    let shipped_after = OrderDuring::gsi2_partition(Status::Shipped).unwrap();
    assert_eq!(
        shipped_after
            .shard(documented_shard(8, &[&7u64]))
            .unwrap()
            .as_str(),
        shipped.index_entries().unwrap()[1]
            .key
            .as_ref()
            .unwrap()
            .partition
    );
    let found: Vec<OrderDuring> = db.query(shipped_after).all().await.unwrap();
    assert_eq!(found, [shipped]);

    // A backfill run again finds nothing left to change, and changes nothing.
    let again: Vec<OrderDuring> = db
        .query(OrderDuring::gsi1_partition(Status::Open).unwrap())
        .all()
        .await
        .unwrap();
    for read in &again {
        assert!(backfill(&db, read).await);
    }
    let after_again: Vec<OrderDuring> = db
        .query(OrderDuring::gsi2_partition(Status::Open).unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(after_again, sorted(open));
}

/// One day's readings over 4 shards of the table's own partition key...
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "RDAY#{day}#{shard(reading_id) % 4}", sk = "AT#{at}#{reading_id}", type = "READING")]
struct ReadingBefore {
    day: u32,
    at: u32,
    reading_id: u64,
    value: i64,
}

/// ...and over 8: the same type, other keys.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "RDAY#{day}#{shard(reading_id) % 8}", sk = "AT#{at}#{reading_id}", type = "READING")]
struct ReadingAfter {
    day: u32,
    at: u32,
    reading_id: u64,
    value: i64,
}

impl From<ReadingBefore> for ReadingAfter {
    fn from(old: ReadingBefore) -> Self {
        ReadingAfter {
            day: old.day,
            at: old.at,
            reading_id: old.reading_id,
            value: old.value,
        }
    }
}

const DAY: u32 = 20_260_314;

/// A read during the migration: both layouts' partitions of the day, each
/// merged over its shards, then merged with each other. An item is under
/// one layout or the other, never both (each move is one transaction).
async fn readings_of_the_day(db: &Db<App>) -> Vec<ReadingAfter> {
    let old: Vec<ReadingBefore> = db
        .query(ReadingBefore::partition(DAY).unwrap())
        .all()
        .await
        .unwrap();
    let new: Vec<ReadingAfter> = db
        .query(ReadingAfter::partition(DAY).unwrap())
        .all()
        .await
        .unwrap();
    let mut all: Vec<ReadingAfter> = old.into_iter().map(ReadingAfter::from).chain(new).collect();
    all.sort_by_key(|r| (r.at, r.reading_id));
    all
}

/// Moves one item: the new key created, the old deleted only if it is
/// still as read, in one transaction. A writer that changed the item
/// since cancels the move (condition failed): read it again and retry.
async fn move_reading(db: &Db<App>, old: &ReadingBefore) -> ddb_entity::Result<()> {
    let f = ReadingBefore::fields();
    db.transact()
        .create(&ReadingAfter::from(old.clone()))
        .delete(
            db.delete(ReadingBefore::key(old.day, old.at, old.reading_id)?)
                .condition(Condition::item_exists().and(f.value.equals(old.value))),
        )
        .await
}

#[tokio::test]
async fn a_sharded_primary_key_moves_item_by_item_while_reads_cover_both_counts() {
    let (_dynamo, db) = app_table().await;
    let readings: Vec<ReadingBefore> = (1..=30)
        .map(|reading_id| ReadingBefore {
            day: DAY,
            at: (reading_id * 13 % 17) as u32,
            reading_id,
            value: reading_id as i64,
        })
        .collect();
    put_all(&db, &readings).await;
    let mut expected: Vec<ReadingAfter> =
        readings.iter().cloned().map(ReadingAfter::from).collect();
    expected.sort_by_key(|r| (r.at, r.reading_id));
    assert_eq!(readings_of_the_day(&db).await, expected);

    // The job: the old partition's first 12 (every shard merged), moved.
    let first: Vec<ReadingBefore> = db
        .query(ReadingBefore::partition(DAY).unwrap())
        .limit(12)
        .all()
        .await
        .unwrap();
    for old in &first {
        move_reading(&db, old).await.unwrap();
    }
    // Half way: every reading once, under one count or the other.
    assert_eq!(readings_of_the_day(&db).await, expected);
    let moved: Vec<ReadingAfter> = db
        .query(ReadingAfter::partition(DAY).unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(moved.len(), 12);

    // The rest, with a writer changing reading 30 after the job read it:
    // the move is cancelled, the job reads it again and moves the new value.
    let rest: Vec<ReadingBefore> = db
        .query(ReadingBefore::partition(DAY).unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(rest.len(), 18);
    for old in &rest {
        if old.reading_id == 30 {
            db.put(&ReadingBefore {
                value: -30,
                ..old.clone()
            })
            .await
            .unwrap();
            let err = move_reading(&db, old).await.unwrap_err();
            assert!(err.is_condition_failed(), "{err}");
            let again = db
                .get(ReadingBefore::key(DAY, old.at, 30u64).unwrap())
                .await
                .unwrap()
                .unwrap();
            move_reading(&db, &again).await.unwrap();
        } else {
            move_reading(&db, old).await.unwrap();
        }
    }
    for reading in &mut expected {
        if reading.reading_id == 30 {
            reading.value = -30;
        }
    }

    // Done: the old layout's partitions are empty, the new one's hold
    // every reading in its documented shard of 8.
    let left: Vec<ReadingBefore> = db
        .query(ReadingBefore::partition(DAY).unwrap())
        .all()
        .await
        .unwrap();
    assert!(left.is_empty(), "{left:?}");
    let after: Vec<ReadingAfter> = db
        .query(ReadingAfter::partition(DAY).unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(after, expected);
    for reading in &after {
        let shard = documented_shard(8, &[&reading.reading_id]);
        let key = ReadingAfter::key(DAY, reading.at, reading.reading_id).unwrap();
        assert!(
            key.partition()
                .ends_with(&format!("#{}", component(shard, 8))),
            "{key:?}"
        );
        let got = db.get(key).await.unwrap();
        assert_eq!(got.as_ref(), Some(reading));
    }
}
