//! A sharded partition reads as one: the merged read equals an in-memory
//! sort of the same items, forward and reverse, at every limit and page
//! size, across pages and cursors, with shards of very different sizes and
//! empty ones; each shard is asked only for what can still be used.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use futures_util::TryStreamExt;

use ddb_entity::op::Page;
use ddb_entity::{Cursor, ErrorKind, UnknownItems};
use serde::{Deserialize, Serialize};

use super::*;

/// Shard sizes from 40 items to none: 74 open orders.
const SIZES: [usize; 16] = [40, 1, 0, 12, 3, 0, 2, 0, 7, 1, 0, 0, 5, 2, 0, 1];

/// The open orders of [`SIZES`], and shipped orders (another partition
/// of the same shards) that no read of the open ones may see.
async fn seed(db: &Db<App>) -> Vec<StatusOrder> {
    let open = skewed_orders(SIZES, Status::Open);
    assert_eq!(open.len(), 74);
    let shipped: Vec<StatusOrder> = (1..=10)
        .map(|i| StatusOrder {
            order_id: 100_000 + i,
            status: Status::Shipped,
            placed: 1000 + i as u32,
            total_cents: 0,
        })
        .collect();
    put_all(db, &open).await;
    put_all(db, &shipped).await;
    index_order(&open)
}

fn open() -> ddb_entity::Partition<Gsi1> {
    StatusOrder::gsi1_partition(Status::Open).unwrap()
}

fn ids(orders: &[StatusOrder]) -> Vec<u64> {
    orders.iter().map(|o| o.order_id).collect()
}

fn directed(sorted: &[StatusOrder], reverse: bool) -> Vec<StatusOrder> {
    let mut out = sorted.to_vec();
    if reverse {
        out.reverse();
    }
    out
}

#[tokio::test]
async fn merged_reads_equal_an_in_memory_sort_at_every_limit_and_page_size() {
    let (_dynamo, db, _log) = logged_table().await;
    let sorted = seed(&db).await;
    for reverse in [false, true] {
        let expected = directed(&sorted, reverse);
        for limit in [
            None,
            Some(0),
            Some(1),
            Some(5),
            Some(41),
            Some(74),
            Some(100),
        ] {
            for page_size in [None, Some(1), Some(7), Some(100)] {
                let mut query = db.query(open()).reverse(reverse);
                if let Some(limit) = limit {
                    query = query.limit(limit);
                }
                if let Some(size) = page_size {
                    query = query.page_size(size);
                }
                let read: Vec<StatusOrder> = query.all().await.unwrap();
                let want = &expected[..limit.unwrap_or(usize::MAX).min(expected.len())];
                assert_eq!(
                    ids(&read),
                    ids(want),
                    "reverse {reverse}, limit {limit:?}, page size {page_size:?}"
                );
            }
        }
    }
}

#[tokio::test]
async fn pages_of_a_size_are_full_and_one_cursor_resumes_every_shard() {
    let (_dynamo, db, _log) = logged_table().await;
    let sorted = seed(&db).await;
    for reverse in [false, true] {
        let expected = directed(&sorted, reverse);
        for size in [1, 5, 16, 33] {
            // As a stream: every page full but the last, which ends it.
            let pages: Vec<Page<Vec<StatusOrder>>> = db
                .query(open())
                .reverse(reverse)
                .page_size(size)
                .pages()
                .try_collect()
                .await
                .unwrap();
            let (last, full) = pages.split_last().unwrap();
            let shape: Vec<(usize, bool)> = pages
                .iter()
                .map(|p| (p.items.len(), p.cursor.is_some()))
                .collect();
            assert!(
                full.iter()
                    .all(|p| p.items.len() == size && p.cursor.is_some()),
                "reverse {reverse}, size {size}: {shape:?}"
            );
            assert!(last.cursor.is_none());
            let read: Vec<StatusOrder> = pages.into_iter().flat_map(|p| p.items).collect();
            assert_eq!(ids(&read), ids(&expected), "reverse {reverse}, size {size}");
        }

        // By hand, the cursor through its text, the page size changing
        // between pages (a cursor does not bind it).
        let mut read = Vec::new();
        let mut cursor: Option<Cursor> = None;
        for turn in 0.. {
            let mut query = db
                .query(open())
                .reverse(reverse)
                .page_size(if turn % 2 == 0 { 3 } else { 11 });
            if let Some(cursor) = cursor.take() {
                let text = cursor.to_string();
                assert!(text.starts_with("m2."), "{text}");
                query = query.after(text.parse().unwrap());
            }
            let page: Page<Vec<StatusOrder>> = query.page().await.unwrap();
            read.extend(page.items);
            match page.cursor {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
        assert_eq!(ids(&read), ids(&expected));

        // Without a page size: each page is what one request per shard
        // yields, and the pages still make the whole order.
        let pages: Vec<Page<Vec<StatusOrder>>> = db
            .query(open())
            .reverse(reverse)
            .pages()
            .try_collect()
            .await
            .unwrap();
        let read: Vec<StatusOrder> = pages.into_iter().flat_map(|p| p.items).collect();
        assert_eq!(ids(&read), ids(&expected));
    }
}

#[tokio::test]
async fn a_limit_stops_at_its_items_and_its_cursor_resumes_the_rest() {
    let (_dynamo, db, _log) = logged_table().await;
    let sorted = seed(&db).await;
    let pages: Vec<Page<Vec<StatusOrder>>> = db
        .query(open())
        .limit(10)
        .page_size(4)
        .pages()
        .try_collect()
        .await
        .unwrap();
    let sizes: Vec<usize> = pages.iter().map(|p| p.items.len()).collect();
    assert_eq!(sizes, [4, 4, 2]);
    // Stopped by the limit, not the end: the last page still has a cursor.
    let cursor = pages.last().unwrap().cursor.clone().unwrap();
    let rest: Vec<StatusOrder> = db.query(open()).after(cursor).all().await.unwrap();
    let first: Vec<StatusOrder> = pages.into_iter().flat_map(|p| p.items).collect();
    assert_eq!(ids(&first), ids(&sorted[..10]));
    assert_eq!(ids(&rest), ids(&sorted[10..]));
}

#[tokio::test]
async fn each_shard_is_asked_once_for_what_the_limit_can_still_take() {
    let (_dynamo, db, log) = logged_table().await;
    let sorted = seed(&db).await;
    let shards: HashSet<String> = open()
        .shard_partitions()
        .into_iter()
        .map(|p| p.into_string())
        .collect();
    assert_eq!(shards.len(), 16);

    // The first 5: one request per shard (empty ones too), each for 5,
    // and none once the 5 are known.
    log.clear();
    let first: Vec<StatusOrder> = db.query(open()).limit(5).all().await.unwrap();
    assert_eq!(ids(&first), ids(&sorted[..5]));
    let queries = log.queries();
    assert_eq!(queries.len(), 16, "{queries:?}");
    assert!(queries.iter().all(|(_, limit)| *limit == Some(5)));
    let asked: HashSet<String> = queries.into_iter().map(|(p, _)| p).collect();
    assert_eq!(asked, shards);

    // One at a time: the same requests, the same items.
    log.clear();
    let serial: Vec<StatusOrder> = db
        .query(open())
        .limit(5)
        .shard_concurrency(1)
        .all()
        .await
        .unwrap();
    assert_eq!(serial, first);
    assert_eq!(log.queries().len(), 16);

    // A page of 4 then asks each shard for 4 at most, and a later page
    // asks again only the shards whose items it used up.
    log.clear();
    let page: Page<Vec<StatusOrder>> = db.query(open()).page_size(4).page().await.unwrap();
    assert_eq!(ids(&page.items), ids(&sorted[..4]));
    assert!(log.queries().iter().all(|(_, limit)| *limit == Some(4)));
    assert_eq!(log.queries().len(), 16);
    log.clear();
    let next: Page<Vec<StatusOrder>> = db
        .query(open())
        .page_size(4)
        .after(page.cursor.unwrap())
        .page()
        .await
        .unwrap();
    assert_eq!(ids(&next.items), ids(&sorted[4..8]));
    // Resuming asks again exactly the shards that still hold items after
    // the first page (the cursor holds positions, not items), once each:
    // never an empty shard, nor one the first page finished.
    let pending: HashSet<String> = sorted[4..]
        .iter()
        .map(|o| {
            open()
                .shard(documented_shard(16, &[&o.order_id]))
                .unwrap()
                .into_string()
        })
        .collect();
    let asked: Vec<String> = log.queries().into_iter().map(|(p, _)| p).collect();
    assert_eq!(asked.len(), pending.len(), "{asked:?}");
    assert_eq!(asked.into_iter().collect::<HashSet<_>>(), pending);

    // The whole partition, either way: one Query per shard (each shard
    // fits one response), none after the merge.
    for reverse in [false, true] {
        log.clear();
        let all: Vec<StatusOrder> = db.query(open()).reverse(reverse).all().await.unwrap();
        assert_eq!(ids(&all), ids(&directed(&sorted, reverse)));
        let queries = log.queries();
        assert_eq!(queries.len(), 16, "{queries:?}");
        assert!(queries.iter().all(|(_, limit)| limit.is_none()));
        assert_eq!(
            queries.into_iter().map(|(p, _)| p).collect::<HashSet<_>>(),
            shards
        );
    }

    // A partition whose every shard is empty: one Query each, one empty
    // page, no cursor.
    log.clear();
    let cancelled = StatusOrder::gsi1_partition(Status::Cancelled).unwrap();
    let pages: Vec<Page<Vec<StatusOrder>>> = db
        .query(cancelled)
        .limit(3)
        .pages()
        .try_collect()
        .await
        .unwrap();
    assert_eq!(pages.len(), 1);
    assert!(pages[0].items.is_empty() && pages[0].cursor.is_none());
    let queries = log.queries();
    assert_eq!(queries.len(), 16, "{queries:?}");
    assert!(queries.iter().all(|(_, limit)| *limit == Some(3)));
}

#[tokio::test]
async fn sort_key_conditions_apply_to_every_shard() {
    let (_dynamo, db, log) = logged_table().await;
    let sorted = seed(&db).await;
    let sk = StatusOrder::gsi1_sk;
    let within = |low: u32, high: u32| -> Vec<u64> {
        ids(&sorted
            .iter()
            .filter(|o| (low..=high).contains(&o.placed))
            .cloned()
            .collect::<Vec<_>>())
    };
    let between: Vec<StatusOrder> = db
        .query(open())
        .sk_between(sk().placed(1010u32), sk().placed(1050u32))
        .all()
        .await
        .unwrap();
    assert_eq!(ids(&between), within(1010, 1050));
    let newest_after: Vec<StatusOrder> = db
        .query(open())
        .sk_gt(sk().placed(1080u32))
        .reverse(true)
        .limit(3)
        .all()
        .await
        .unwrap();
    let mut after = within(1081, u32::MAX);
    after.reverse();
    assert_eq!(ids(&newest_after), after[..3.min(after.len())]);
    let before: Vec<StatusOrder> = db
        .query(open())
        .sk_lt(sk().placed(1020u32))
        .all()
        .await
        .unwrap();
    assert_eq!(ids(&before), within(0, 1019));
    let one = &sorted[17];
    let exact: Vec<StatusOrder> = db
        .query(open())
        .sk_eq(sk().placed(one.placed).order_id(one.order_id))
        .all()
        .await
        .unwrap();
    assert_eq!(exact, std::slice::from_ref(one));

    // A range that holds nothing sends nothing, to any shard.
    log.clear();
    let none: Vec<StatusOrder> = db
        .query(open())
        .sk_between(sk().placed(1050u32), sk().placed(1010u32))
        .all()
        .await
        .unwrap();
    assert!(none.is_empty());
    assert!(log.queries().is_empty());
}

#[tokio::test]
async fn collections_merge_every_type_of_the_sharded_partition() {
    let (_dynamo, db, _log) = logged_table().await;
    let orders = seed(&db).await;
    let returns: Vec<StatusReturn> = (1..=20)
        .map(|return_id| StatusReturn {
            return_id,
            status: Status::Open,
            placed: 1000 + return_id as u32 * 3,
        })
        .collect();
    put_all(&db, &returns).await;

    // One merged order over both types: by the index sort key, whose
    // type prefixes (`ORDER#`, `RETURN#`) sort orders first.
    let items: Vec<StatusItem> = db.query(open()).all().await.unwrap();
    let mut expected: Vec<StatusItem> = orders.iter().cloned().map(StatusItem::Order).collect();
    expected.extend(returns.iter().cloned().map(StatusItem::Return));
    assert_eq!(items, expected);

    let view: StatusView = db.query(open()).reverse(true).collect().await.unwrap();
    assert_eq!(view.orders.len(), 74);
    assert_eq!(view.returns.len(), 20);
    assert_eq!(view.returns[0].return_id, 20);

    // A typed range keeps to the orders' key space in every shard.
    let only_orders: Vec<StatusItem> = db
        .query(open())
        .sk_ge(StatusOrder::gsi1_sk().placed(0u32))
        .all()
        .await
        .unwrap();
    assert_eq!(only_orders.len(), 74);
}

#[tokio::test]
async fn a_foreign_item_in_one_shard_follows_the_unknown_items_policy() {
    let (_dynamo, db, _log) = logged_table().await;
    let orders = seed(&db).await;
    // An item of a type no collection holds, in shard 3's partition.
    let shard3 = open().shard(3).unwrap().into_string();
    let foreign: ddb_entity::Item = [
        ("PK", "ALIEN#1"),
        ("SK", "ALIEN"),
        ("GSI1PK", shard3.as_str()),
        ("GSI1SK", "ORDER#0000001050#x"),
        ("_type", "ALIEN"),
    ]
    .into_iter()
    .map(|(k, v)| {
        (
            k.to_owned(),
            aws_sdk_dynamodb::types::AttributeValue::S(v.to_owned()),
        )
    })
    .collect();
    db.client()
        .put_item()
        .table_name(db.table_name())
        .set_item(Some(foreign))
        .send()
        .await
        .unwrap();

    let skipped: Vec<StatusOrder> = db.query(open()).all().await.unwrap();
    assert_eq!(ids(&skipped), ids(&orders));
    let err = db
        .query(open())
        .on_unknown(UnknownItems::Error)
        .all::<StatusOrder>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnknownType);
    assert!(err.to_string().contains("ALIEN"), "{err}");
}

#[tokio::test]
async fn ties_between_shards_go_to_the_lower_shard_and_reverse_exactly() {
    let (_dynamo, db, _log) = logged_table().await;
    // Each minute in several shards, at most once per shard.
    let mut pings = Vec::new();
    let mut used: HashSet<(u16, u16)> = HashSet::new();
    for ping_id in 1..=60u64 {
        let minute = (ping_id % 7) as u16;
        let shard = documented_shard(4, &[&ping_id]);
        if used.insert((minute, shard)) {
            pings.push((
                shard,
                Ping {
                    ping_id,
                    status: Status::Open,
                    minute,
                },
            ));
        }
    }
    assert!(pings.len() > 14, "ties need several shards per minute");
    put_all(
        &db,
        &pings.iter().map(|(_, p)| p.clone()).collect::<Vec<_>>(),
    )
    .await;
    pings.sort_by_key(|(shard, ping)| (ping.minute, *shard));
    let expected: Vec<u64> = pings.iter().map(|(_, p)| p.ping_id).collect();

    let partition = || Ping::gsi2_partition(Status::Open).unwrap();
    let forward: Vec<Ping> = db.query(partition()).all().await.unwrap();
    assert_eq!(
        forward.iter().map(|p| p.ping_id).collect::<Vec<_>>(),
        expected
    );
    let backward: Vec<Ping> = db.query(partition()).reverse(true).all().await.unwrap();
    let mut reversed = expected.clone();
    reversed.reverse();
    assert_eq!(
        backward.iter().map(|p| p.ping_id).collect::<Vec<_>>(),
        reversed
    );
    // Page by page, the same tie order.
    let pages: Vec<Page<Vec<Ping>>> = db
        .query(partition())
        .page_size(1)
        .pages()
        .try_collect()
        .await
        .unwrap();
    let paged: Vec<u64> = pages
        .into_iter()
        .flat_map(|p| p.items)
        .map(|p| p.ping_id)
        .collect();
    assert_eq!(paged, expected);
}

ddb_entity::table! {
    /// A table and an index without sort keys.
    pub struct Flat {
        partition_key: "PK",
        indexes: { pub ByKind = "ByKind" { partition_key: "KIND" } },
    }
}

/// Devices by kind over 4 shards of an index without a sort key.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = Flat, pk = "DEVICE#{id}", type = "DEVICE")]
#[entity(index = ByKind, pk = "KIND#{kind}#{shard(id) % 4}")]
pub struct FlatDevice {
    pub id: u64,
    pub kind: Status,
}

#[tokio::test]
async fn an_index_without_a_sort_key_reads_shard_after_shard() {
    let dynamo = LocalDynamo::start().await.unwrap();
    let db = Db::<Flat>::new(dynamo.client(), dynamo.unique_table_name("flat"));
    db.create_table_if_missing().await.unwrap();
    let devices: Vec<FlatDevice> = (1..=30)
        .map(|id| FlatDevice {
            id,
            kind: Status::Open,
        })
        .collect();
    for device in &devices {
        db.put(device).await.unwrap();
    }
    let shard = |device: &FlatDevice| documented_shard(4, &[&device.id]);
    let partition = || FlatDevice::by_kind_partition(Status::Open).unwrap();

    // No sort key to merge by: shard 0's items, then shard 1's, …
    let read: Vec<FlatDevice> = db.query(partition()).all().await.unwrap();
    assert_eq!(read.len(), 30);
    let shards: Vec<u16> = read.iter().map(shard).collect();
    assert!(shards.windows(2).all(|w| w[0] <= w[1]), "{shards:?}");
    let mut ids: Vec<u64> = read.iter().map(|d| d.id).collect();
    ids.sort_unstable();
    assert_eq!(ids, (1..=30).collect::<Vec<_>>());

    // Pages and their cursor read each exactly once, in the same order.
    let pages: Vec<Page<Vec<FlatDevice>>> = db
        .query(partition())
        .page_size(4)
        .pages()
        .try_collect()
        .await
        .unwrap();
    let paged: Vec<FlatDevice> = pages.into_iter().flat_map(|p| p.items).collect();
    assert_eq!(paged, read);
}

/// Query requests between sending and their answer: the most at once.
#[derive(Debug, Default, Clone)]
struct InFlight(Arc<(AtomicUsize, AtomicUsize)>);

impl InFlight {
    fn most(&self) -> usize {
        self.0.1.swap(0, Ordering::SeqCst)
    }
}

impl aws_sdk_dynamodb::config::Intercept for InFlight {
    fn name(&self) -> &'static str {
        "InFlight"
    }

    fn read_before_transmit(
        &self,
        _: &aws_sdk_dynamodb::config::interceptors::BeforeTransmitInterceptorContextRef<'_>,
        _: &aws_sdk_dynamodb::config::RuntimeComponents,
        _: &mut aws_sdk_dynamodb::config::ConfigBag,
    ) -> Result<(), aws_sdk_dynamodb::error::BoxError> {
        let now = self.0.0.fetch_add(1, Ordering::SeqCst) + 1;
        self.0.1.fetch_max(now, Ordering::SeqCst);
        Ok(())
    }

    fn read_after_transmit(
        &self,
        _: &aws_sdk_dynamodb::config::interceptors::BeforeDeserializationInterceptorContextRef<'_>,
        _: &aws_sdk_dynamodb::config::RuntimeComponents,
        _: &mut aws_sdk_dynamodb::config::ConfigBag,
    ) -> Result<(), aws_sdk_dynamodb::error::BoxError> {
        self.0.0.fetch_sub(1, Ordering::SeqCst);
        Ok(())
    }
}

#[tokio::test]
async fn shard_concurrency_bounds_the_requests_in_flight() {
    let dynamo = LocalDynamo::start().await.unwrap();
    let in_flight = InFlight::default();
    let config = dynamo
        .config_builder()
        .interceptor(in_flight.clone())
        .build();
    let db = Db::<App>::new(
        aws_sdk_dynamodb::Client::from_conf(config),
        dynamo.unique_table_name("shards"),
    );
    db.create_table_if_missing().await.unwrap();
    let sorted = seed(&db).await;
    in_flight.most();

    // At most 3 of the 16 at once, in waves, and the same order; by
    // default all 16 are sent before the first answer is read.
    for (bound, reverse) in [(3, false), (1, true)] {
        let read: Vec<StatusOrder> = db
            .query(open())
            .reverse(reverse)
            .shard_concurrency(bound)
            .all()
            .await
            .unwrap();
        assert_eq!(ids(&read), ids(&directed(&sorted, reverse)));
        let most = in_flight.most();
        assert!(
            (1..=bound).contains(&most),
            "{most} in flight, bound {bound}"
        );
    }
    let read: Vec<StatusOrder> = db.query(open()).all().await.unwrap();
    assert_eq!(ids(&read), ids(&sorted));
    let most = in_flight.most();
    assert!(most > 3, "{most} in flight by default");
}

#[tokio::test]
async fn count_first_one_and_filters_read_every_shard() {
    let (_dynamo, db, log) = logged_table().await;
    let sorted = seed(&db).await;
    let sk = StatusOrder::gsi1_sk;

    // count: every shard counted once (Select=COUNT), summed; a limit cuts it.
    log.clear();
    assert_eq!(db.query(open()).count().await.unwrap(), 74);
    assert_eq!(log.queries().len(), 16);
    assert_eq!(db.query(open()).limit(10).count().await.unwrap(), 10);

    // first: the merged order's first, either way, one item per shard asked.
    log.clear();
    let first: Option<StatusOrder> = db.query(open()).first().await.unwrap();
    assert_eq!(first.as_ref(), sorted.first());
    let queries = log.queries();
    assert_eq!(queries.len(), 16, "{queries:?}");
    assert!(queries.iter().all(|(_, limit)| *limit == Some(1)));
    let last: Option<StatusOrder> = db.query(open()).reverse(true).first().await.unwrap();
    assert_eq!(last.as_ref(), sorted.last());
    let cancelled = StatusOrder::gsi1_partition(Status::Cancelled).unwrap();
    assert_eq!(
        db.query(cancelled).first::<StatusOrder>().await.unwrap(),
        None
    );

    // one: a second item in any shard makes it not unique.
    let err = db.query(open()).one::<StatusOrder>().await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::MoreThanOne);
    let one = &sorted[17];
    let found: Option<StatusOrder> = db
        .query(open())
        .sk_eq(sk().placed(one.placed).order_id(one.order_id))
        .one()
        .await
        .unwrap();
    assert_eq!(found.as_ref(), Some(one));

    // A filter applies in every shard; the merge keeps the order, and a
    // limit counts the merged items it returns.
    let f = StatusOrder::fields();
    let dear: Vec<StatusOrder> = sorted
        .iter()
        .filter(|o| o.total_cents > 300)
        .cloned()
        .collect();
    assert!(dear.len() > 10 && dear.len() < 74);
    let read: Vec<StatusOrder> = db
        .query(open())
        .filter(f.total_cents.gt(300))
        .all()
        .await
        .unwrap();
    assert_eq!(ids(&read), ids(&dear));
    let counted = db
        .query(open())
        .filter(f.total_cents.gt(300))
        .count()
        .await
        .unwrap();
    assert_eq!(counted, dear.len());
    let limited: Vec<StatusOrder> = db
        .query(open())
        .filter(f.total_cents.gt(300))
        .reverse(true)
        .limit(5)
        .all()
        .await
        .unwrap();
    let mut newest = dear.clone();
    newest.reverse();
    assert_eq!(ids(&limited), ids(&newest[..5]));
    let pages: Vec<Page<Vec<StatusOrder>>> = db
        .query(open())
        .filter(f.total_cents.gt(300))
        .page_size(4)
        .pages()
        .try_collect()
        .await
        .unwrap();
    let paged: Vec<StatusOrder> = pages.into_iter().flat_map(|p| p.items).collect();
    assert_eq!(ids(&paged), ids(&dear));
}
