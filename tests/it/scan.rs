//! Scans: typed and demultiplexed, filtered, split into parallel segments
//! with bounded concurrency, resumable, and never silently partial.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use aws_sdk_dynamodb::config::interceptors::BeforeTransmitInterceptorContextRef;
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::error::BoxError;
use aws_sdk_dynamodb::types::AttributeValue;
use ddb_entity::local::LocalDynamo;
use ddb_entity::op::ScanPage;
use ddb_entity::{Cursor, Db, ErrorKind, UnknownItems};
use futures_util::TryStreamExt;

use crate::model::{Customer, CustomerItem, CustomerOrder, Ticket, date};
use crate::support::{App, Gsi2, RequestLog, logged_app_table};

/// 30 customers, each with two orders; customer 0..9 with an open ticket.
async fn seed(db: &Db<App>) {
    let mut batch = db.batch_write();
    for id in 0..30u64 {
        batch = batch.put(&Customer {
            customer_id: id,
            name: format!("c{id}"),
        });
        for order_id in [1, 2] {
            batch = batch.put(&CustomerOrder {
                customer_id: id,
                order_id: id * 10 + order_id,
                placed: date(2026, 3, 1),
                total_cents: i64::try_from(order_id).unwrap() * 100,
            });
        }
        if id < 10 {
            batch = batch.put(&Ticket {
                customer_id: id,
                ticket_id: 1,
                subject: "late".into(),
                open_since: Some(date(2026, 3, 2)),
            });
        }
    }
    batch.await.unwrap();
}

/// Items no entity of this library wrote: one without a type attribute,
/// one of a type no collection here holds.
async fn foreign_items(db: &Db<App>) {
    for (pk, typ) in [("LEGACY#1", None), ("OTHER#1", Some("WIDGET"))] {
        let mut item = HashMap::from([
            ("PK".to_owned(), AttributeValue::S(pk.into())),
            ("SK".to_owned(), AttributeValue::S("X".into())),
        ]);
        if let Some(typ) = typ {
            item.insert("_type".to_owned(), AttributeValue::S(typ.into()));
        }
        db.client()
            .put_item()
            .table_name(db.table_name())
            .set_item(Some(item))
            .send()
            .await
            .unwrap();
    }
}

#[tokio::test]
async fn a_scan_returns_the_collection_types_only_and_foreign_items_follow_the_policy() {
    let (_dynamo, db, log) = logged_app_table().await;
    seed(&db).await;
    foreign_items(&db).await;
    log.clear();

    let customers: Vec<Customer> = db.scan().all().await.unwrap();
    assert_eq!(customers.len(), 30);
    assert_eq!(log.operations(), ["Scan"], "one page for a small table");

    // Several types at once: demultiplexed like a query's collection.
    let items: Vec<CustomerItem> = db.scan().all().await.unwrap();
    let tickets = items
        .iter()
        .filter(|i| matches!(i, CustomerItem::Ticket(_)))
        .count();
    assert_eq!((items.len(), tickets), (100, 10));

    // Asked to see them, foreign items meet the query's policy: another
    // type is skipped, an item without a type is refused.
    let err = db
        .scan()
        .on_unknown(UnknownItems::Skip)
        .all::<Customer>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnknownType, "{err:?}");
    assert!(err.to_string().contains("no type attribute"), "{err}");
    let err = db
        .scan()
        .on_unknown(UnknownItems::Error)
        .all::<CustomerItem>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnknownType, "{err:?}");
}

#[tokio::test]
async fn a_scan_filters_after_the_read_and_counts_on_the_server() {
    let (_dynamo, db, log) = logged_app_table().await;
    seed(&db).await;
    log.clear();
    let f = CustomerOrder::fields();
    let big: Vec<CustomerOrder> = db.scan().filter(f.total_cents.ge(200)).all().await.unwrap();
    assert_eq!(big.len(), 30);
    assert!(big.iter().all(|o| o.total_cents == 200));
    assert_eq!(
        db.scan()
            .filter(f.total_cents.ge(200))
            .count()
            .await
            .unwrap(),
        big.len(),
        "a filtered count counts the filter's entity only: what `all` returns, no other type"
    );
    assert_eq!(db.scan().count().await.unwrap(), 100);
    // A sparse index holds only what qualifies.
    assert_eq!(db.scan_index::<Gsi2>().count().await.unwrap(), 10);
    let open: Vec<Ticket> = db.scan_index::<Gsi2>().all().await.unwrap();
    assert_eq!(open.len(), 10);
    assert_eq!(log.count("Scan"), 5);
}

#[tokio::test]
async fn parallel_segments_read_every_item_once_with_bounded_concurrency() {
    let dynamo = LocalDynamo::start().await.unwrap();
    let log = RequestLog::default();
    let in_flight = InFlight::default();
    let config = dynamo
        .config_builder()
        .interceptor(log.clone())
        .interceptor(in_flight.clone())
        .build();
    let db = Db::<App>::new(
        aws_sdk_dynamodb::Client::from_conf(config),
        dynamo.unique_table_name("scan"),
    );
    db.create_table_if_missing().await.unwrap();
    seed(&db).await;
    log.clear();
    in_flight.reset();

    let pages: Vec<ScanPage<Vec<Customer>>> = db
        .scan()
        .segments(4)
        .concurrency(2)
        .page_size(4)
        .pages()
        .try_collect()
        .await
        .unwrap();
    let ids: Vec<u64> = pages
        .iter()
        .flat_map(|p| p.items.iter().map(|c| c.customer_id))
        .collect();
    let distinct: BTreeSet<u64> = ids.iter().copied().collect();
    assert_eq!(ids.len(), 30, "every customer once: {ids:?}");
    assert_eq!(distinct.len(), 30);
    let segments: BTreeSet<u32> = pages.iter().map(|p| p.segment).collect();
    assert_eq!(segments, BTreeSet::from([0, 1, 2, 3]));
    // Each segment ends with a page without a cursor.
    for segment in 0..4 {
        let last = pages.iter().rev().find(|p| p.segment == segment).unwrap();
        assert!(last.cursor.is_none());
    }
    assert_eq!(log.count("Scan"), pages.len());
    assert!(pages.len() >= 100 / 4, "page_size 4 over 100 items");
    assert_eq!(in_flight.max(), 2, "at most two segments at once");
}

/// Counts Scan requests in flight at once.
#[derive(Debug, Clone, Default)]
struct InFlight {
    now: Arc<AtomicUsize>,
    max: Arc<AtomicUsize>,
}

impl InFlight {
    fn max(&self) -> usize {
        self.max.load(Ordering::SeqCst)
    }

    fn reset(&self) {
        self.max.store(0, Ordering::SeqCst);
    }
}

impl Intercept for InFlight {
    fn name(&self) -> &'static str {
        "InFlight"
    }

    fn read_before_transmit(
        &self,
        _: &BeforeTransmitInterceptorContextRef<'_>,
        _: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let now = self.now.fetch_add(1, Ordering::SeqCst) + 1;
        self.max.fetch_max(now, Ordering::SeqCst);
        Ok(())
    }

    fn read_after_attempt(
        &self,
        _: &aws_sdk_dynamodb::config::interceptors::FinalizerInterceptorContextRef<'_>,
        _: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        self.now.fetch_sub(1, Ordering::SeqCst);
        Ok(())
    }
}

/// Fails every Scan request of one segment before it is sent.
#[derive(Debug)]
struct FailSegment(u32);

impl Intercept for FailSegment {
    fn name(&self) -> &'static str {
        "FailSegment"
    }

    fn read_before_transmit(
        &self,
        context: &BeforeTransmitInterceptorContextRef<'_>,
        _: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let body = context.request().body().bytes().unwrap_or_default();
        let body: serde_json::Value = serde_json::from_slice(body).unwrap_or_default();
        if body["Segment"] == self.0 {
            return Err(format!("segment {} is unreachable", self.0).into());
        }
        Ok(())
    }
}

#[tokio::test]
async fn a_failing_segment_fails_the_whole_scan() {
    let dynamo = LocalDynamo::start().await.unwrap();
    let config = dynamo.config_builder().interceptor(FailSegment(2)).build();
    let db = Db::<App>::new(
        aws_sdk_dynamodb::Client::from_conf(config),
        dynamo.unique_table_name("scan"),
    );
    db.create_table_if_missing().await.unwrap();
    seed(&db).await;

    let err = db.scan().segments(4).all::<Customer>().await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Service, "{err:?}");
    assert!(
        err.to_string().contains("segment 2 is unreachable"),
        "{err}"
    );

    // The stream hands out what it read, then the error, then nothing.
    let results: Vec<_> = futures_util::StreamExt::collect::<Vec<_>>(
        db.scan()
            .segments(4)
            .concurrency(1)
            .pages::<Vec<Customer>>(),
    )
    .await;
    let errors = results.iter().filter(|r| r.is_err()).count();
    assert_eq!(errors, 1);
    assert!(
        results.last().unwrap().is_err(),
        "the error ends the stream"
    );
    let pages: Vec<u32> = results
        .iter()
        .filter_map(|r| r.as_ref().ok().map(|p| p.segment))
        .collect();
    assert_eq!(pages, [0, 1], "segments before the failing one, in order");
}

#[tokio::test]
async fn a_scan_resumes_every_segment_from_its_cursor() {
    let (_dynamo, db, _log) = logged_app_table().await;
    seed(&db).await;
    let scan = || db.scan().segments(3).page_size(2);
    let mut checkpoint: HashMap<u32, Option<Cursor>> = HashMap::new();
    let mut seen = Vec::new();
    {
        let mut pages = Box::pin(scan().pages::<Vec<Customer>>());
        for _ in 0..7 {
            let page = pages.try_next().await.unwrap().unwrap();
            seen.extend(page.items.iter().map(|c| c.customer_id));
            checkpoint.insert(page.segment, page.cursor);
        }
    }
    let mut resumed = scan();
    for (segment, cursor) in checkpoint.clone() {
        resumed = resumed.resume(segment, cursor);
    }
    let rest: Vec<Customer> = resumed.all().await.unwrap();
    seen.extend(rest.iter().map(|c| c.customer_id));
    seen.sort_unstable();
    assert_eq!(seen, (0..30).collect::<Vec<_>>(), "each once");

    // A cursor of one segment is refused for another, and a query's for a
    // scan.
    let (segment, cursor) = checkpoint
        .into_iter()
        .find_map(|(s, c)| c.map(|c| (s, c)))
        .unwrap();
    let err = scan()
        .resume((segment + 1) % 3, Some(cursor.clone()))
        .all::<Customer>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidCursor, "{err:?}");
    let err = db
        .scan()
        .segments(4)
        .page_size(2)
        .resume(segment, Some(cursor.clone()))
        .all::<Customer>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidCursor, "{err:?}");
    let err = db
        .query(Customer::partition(1).unwrap())
        .after(cursor)
        .all::<Customer>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidCursor, "{err:?}");
    let err = scan().segments(0).all::<Customer>().await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidExpression, "{err:?}");
}

#[tokio::test]
async fn a_limited_page_stream_stops_at_the_limit_and_resumes_right_after_it() {
    let (_dynamo, db, log) = logged_app_table().await;
    seed(&db).await;
    foreign_items(&db).await;
    let scan = || db.scan().segments(3).page_size(4);
    log.clear();
    let pages: Vec<ScanPage<Vec<Customer>>> = scan().limit(10).pages().try_collect().await.unwrap();
    let seen: Vec<u64> = pages
        .iter()
        .flat_map(|p| p.items.iter().map(|c| c.customer_id))
        .collect();
    assert_eq!(seen.len(), 10, "exactly the limit: {seen:?}");
    // One request per page, and those of the other segments in flight
    // when the limit was reached (dropped unread).
    let scans = log.count("Scan");
    assert!((pages.len()..=pages.len() + 2).contains(&scans), "{scans}");
    // Each segment's pages come in its order, each once.
    let mut checkpoint: HashMap<u32, Option<Cursor>> = HashMap::new();
    for page in &pages {
        checkpoint.insert(page.segment, page.cursor.clone());
    }
    // The last page was cut at the limit: its cursor resumes right after
    // its last item, and the checkpoint of every segment loses nothing.
    let mut resumed = scan();
    for (segment, cursor) in checkpoint {
        resumed = resumed.resume(segment, cursor);
    }
    let rest: Vec<Customer> = resumed.all().await.unwrap();
    let mut all: Vec<u64> = seen;
    all.extend(rest.iter().map(|c| c.customer_id));
    all.sort_unstable();
    assert_eq!(all, (0..30).collect::<Vec<_>>(), "each once");
}

#[tokio::test]
async fn a_scan_over_segments_pages_as_one_listing_with_one_cursor() {
    let (_dynamo, db, log) = logged_app_table().await;
    seed(&db).await;
    foreign_items(&db).await;
    let scan = || db.scan().segments(4).page_size(7);
    let whole: Vec<u64> = scan()
        .all::<Customer>()
        .await
        .unwrap()
        .iter()
        .map(|c| c.customer_id)
        .collect();
    log.clear();
    let mut seen = Vec::new();
    let mut cursor: Option<Cursor> = None;
    let mut pages = 0;
    loop {
        let mut s = scan();
        if let Some(at) = cursor.take() {
            let text = at.to_string();
            assert!(text.starts_with("p1."), "{text}");
            s = s.after(text.parse().unwrap());
        }
        let page: ddb_entity::op::Page<Vec<Customer>> = s.page().await.unwrap();
        pages += 1;
        assert!(page.items.len() <= 7);
        seen.extend(page.items.iter().map(|c| c.customer_id));
        match page.cursor {
            Some(next) => cursor = Some(next),
            None => break,
        }
        assert!(pages < 20, "the listing ends");
    }
    // Segment after segment, each item once: the order `all` returns.
    assert_eq!(seen, whole);
    assert_eq!(pages, 30usize.div_ceil(7), "every page full but the last");
    // Each page reads at most its page and the segments read ahead (4 at
    // once by default), page_size items a request: never the table per page.
    assert!(log.count("Scan") <= pages * 4 + 8, "{}", log.count("Scan"));

    // A cursor of one scan is refused by another scan, and by a query.
    let page: ddb_entity::op::Page<Vec<Customer>> = scan().page().await.unwrap();
    let cursor = page.cursor.unwrap();
    for other in [
        db.scan().segments(3).page_size(7).after(cursor.clone()),
        db.scan().segments(4).segment(1, 4).after(cursor.clone()),
    ] {
        let err = other.all::<Customer>().await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidCursor, "{err:?}");
    }
    let err = db
        .scan_index::<Gsi2>()
        .segments(4)
        .after(cursor.clone())
        .all::<Ticket>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidCursor, "{err:?}");
    let err = db
        .query(Customer::partition(1).unwrap())
        .after(cursor)
        .all::<Customer>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidCursor, "{err:?}");

    // A segment's own cursor is taken by `after` as `resume` of it.
    let mut stream = Box::pin(db.scan().segments(4).page_size(2).pages::<Vec<Customer>>());
    let first = stream.try_next().await.unwrap().unwrap();
    drop(stream);
    let rest: Vec<Customer> = db
        .scan()
        .segments(4)
        .segment(first.segment, 4)
        .after(first.cursor.clone().unwrap())
        .all()
        .await
        .unwrap();
    let alone: Vec<Customer> = db.scan().segment(first.segment, 4).all().await.unwrap();
    assert_eq!(rest.len() + first.items.len(), alone.len());
}

#[tokio::test]
async fn a_throttled_scan_backs_off_within_its_budget() {
    let dynamo = LocalDynamo::start().await.unwrap();
    let clean = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("scan"));
    clean.create_table_if_missing().await.unwrap();
    seed(&clean).await;
    let throttle = crate::support::Throttle::every(3, &["Scan"]);
    // The SDK's own retries off: the scan's backoff is under test.
    let config = dynamo
        .config_builder()
        .interceptor(throttle.clone())
        .retry_config(aws_sdk_dynamodb::config::retry::RetryConfig::disabled())
        .build();
    let db = Db::<App>::new(
        aws_sdk_dynamodb::Client::from_conf(config),
        clean.table_name(),
    );
    let retry = ddb_entity::op::BatchRetry::new()
        .max_attempts(10)
        .base_delay(std::time::Duration::from_millis(1))
        .max_delay(std::time::Duration::from_millis(10));
    let scan = || db.scan().segments(3).page_size(5);
    let customers: Vec<Customer> = scan().retry(retry).all().await.unwrap();
    assert_eq!(customers.len(), 30);
    let pages: Vec<ScanPage<Vec<Customer>>> =
        scan().retry(retry).pages().try_collect().await.unwrap();
    assert_eq!(pages.iter().map(|p| p.items.len()).sum::<usize>(), 30);
    assert!(throttle.throttled() > 10, "{}", throttle.throttled());
    // Without a budget, the first throttle ends the scan and says so.
    let err = scan().all::<Customer>().await.unwrap_err();
    assert!(err.is_throttled(), "{err}");
}
