//! Query: typed sort-key conditions, order, limits, pages, cursors, and the
//! request count of each.

use futures_util::TryStreamExt;

use ddb_entity::key::{Year, YearMonth};
use ddb_entity::op::Page;
use ddb_entity::{Cursor, Db, ErrorKind, UnknownItems};

use crate::model::*;
use crate::support::{App, logged_app_table};

/// Customer 42 with a profile and orders across 2025–2026.
async fn seed(db: &Db<App>) -> Vec<CustomerOrder> {
    db.put(&Customer {
        customer_id: 42,
        name: "Ada".into(),
    })
    .await
    .unwrap();
    let dates = [
        date(2025, 12, 31),
        date(2026, 1, 15),
        date(2026, 3, 1),
        date(2026, 3, 14),
        date(2026, 3, 14),
        date(2026, 3, 31),
        date(2026, 4, 1),
    ];
    let mut orders = Vec::new();
    for (i, placed) in dates.into_iter().enumerate() {
        let order = CustomerOrder {
            customer_id: 42,
            order_id: 9000 + i as u64,
            placed,
            total_cents: 100 * i as i64,
        };
        db.put(&order).await.unwrap();
        orders.push(order);
    }
    // Another customer's orders must never show up.
    db.put(&CustomerOrder {
        customer_id: 43,
        order_id: 1,
        placed: date(2026, 3, 14),
        total_cents: 1,
    })
    .await
    .unwrap();
    orders
}

fn ids(orders: &[CustomerOrder]) -> Vec<u64> {
    orders.iter().map(|o| o.order_id).collect()
}

#[tokio::test]
async fn sort_key_cuts_select_years_months_days_and_ranges_in_one_request_each() {
    let (_dynamo, db, log) = logged_app_table().await;
    seed(&db).await;
    let partition = || CustomerOrder::partition(42u64).unwrap();
    log.clear();

    let all: Vec<CustomerOrder> = db
        .query(partition())
        .sk_begins_with(CustomerOrder::sk())
        .all()
        .await
        .unwrap();
    assert_eq!(ids(&all), [9000, 9001, 9002, 9003, 9004, 9005, 9006]);

    let year = db
        .query(partition())
        .sk_begins_with(CustomerOrder::sk().placed_prefix(Year(2026)));
    assert_eq!(
        ids(&year.all().await.unwrap()),
        [9001, 9002, 9003, 9004, 9005, 9006]
    );

    let march = db
        .query(partition())
        .sk_begins_with(CustomerOrder::sk().placed_prefix(YearMonth(2026, 3)));
    assert_eq!(ids(&march.all().await.unwrap()), [9002, 9003, 9004, 9005]);

    let day = db
        .query(partition())
        .sk_begins_with(CustomerOrder::sk().placed(date(2026, 3, 14)));
    assert_eq!(ids(&day.all().await.unwrap()), [9003, 9004]);

    // BETWEEN a month and a month includes every order of the last one.
    let range = db.query(partition()).sk_between(
        CustomerOrder::sk().placed_prefix(YearMonth(2026, 1)),
        CustomerOrder::sk().placed_prefix(YearMonth(2026, 3)),
    );
    assert_eq!(
        ids(&range.all().await.unwrap()),
        [9001, 9002, 9003, 9004, 9005]
    );

    let exact = db.query(partition()).sk_eq(
        CustomerOrder::sk()
            .placed(date(2026, 3, 31))
            .order_id(9005u64),
    );
    assert_eq!(ids(&exact.all().await.unwrap()), [9005]);

    assert_eq!(log.count("Query"), 6, "{:?}", log.operations());
    assert_eq!(log.operations().len(), 6);
}

#[tokio::test]
async fn comparisons_treat_a_prefix_as_everything_under_it() {
    let (_dynamo, db, _log) = logged_app_table().await;
    seed(&db).await;
    let q = || db.query(CustomerOrder::partition(42u64).unwrap());
    let march = || CustomerOrder::sk().placed_prefix(YearMonth(2026, 3));

    let before: Vec<CustomerOrder> = q().sk_lt(march()).all().await.unwrap();
    assert_eq!(ids(&before), [9000, 9001]);
    let through: Vec<CustomerOrder> = q().sk_le(march()).all().await.unwrap();
    assert_eq!(ids(&through), [9000, 9001, 9002, 9003, 9004, 9005]);
    let after: Vec<CustomerOrder> = q().sk_gt(march()).all().await.unwrap();
    assert_eq!(ids(&after), [9006]);
    let from: Vec<CustomerOrder> = q().sk_ge(march()).all().await.unwrap();
    assert_eq!(ids(&from), [9002, 9003, 9004, 9005, 9006]);
}

#[tokio::test]
async fn reverse_and_limit_give_the_newest_first() {
    let (_dynamo, db, _log) = logged_app_table().await;
    seed(&db).await;
    let newest: Vec<CustomerOrder> = db
        .query(CustomerOrder::partition(42u64).unwrap())
        .sk_begins_with(CustomerOrder::sk())
        .reverse(true)
        .limit(3)
        .all()
        .await
        .unwrap();
    assert_eq!(ids(&newest), [9006, 9005, 9004]);
}

#[tokio::test]
async fn pages_resume_from_a_cursor_without_loss_or_repeat() {
    let (_dynamo, db, log) = logged_app_table().await;
    let orders = seed(&db).await;
    let query = || {
        db.query(CustomerOrder::partition(42u64).unwrap())
            .sk_begins_with(CustomerOrder::sk())
    };
    log.clear();

    // Page by page through cursors, as an API handing them to clients would.
    let mut seen = Vec::new();
    let mut cursor: Option<Cursor> = None;
    loop {
        let mut q = query().page_size(3);
        if let Some(cursor) = cursor.take() {
            let text = cursor.to_string();
            q = q.after(text.parse().unwrap());
        }
        let page: Page<Vec<CustomerOrder>> = q.page().await.unwrap();
        seen.extend(page.items);
        match page.cursor {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    assert_eq!(ids(&seen), ids(&orders));
    // 7 items by 3: two full pages, then one with 1 item (DynamoDB cannot
    // know a full page was the last, so a 4th request may find nothing).
    assert!(
        (3..=4).contains(&log.count("Query")),
        "{:?}",
        log.operations()
    );

    // The same as a Stream of pages.
    let pages: Vec<Page<Vec<CustomerOrder>>> =
        query().page_size(3).pages().try_collect().await.unwrap();
    let streamed: Vec<u64> = pages.iter().flat_map(|p| ids(&p.items)).collect();
    assert_eq!(streamed, ids(&orders));
    assert!(pages.last().unwrap().cursor.is_none());
}

#[tokio::test]
async fn a_cursor_cannot_move_a_query_to_another_partition_or_index() {
    let (_dynamo, db, log) = logged_app_table().await;
    seed(&db).await;
    let page: Page<Vec<CustomerOrder>> = db
        .query(CustomerOrder::partition(42u64).unwrap())
        .page_size(2)
        .page()
        .await
        .unwrap();
    let cursor = page.cursor.expect("more to read");
    log.clear();

    let err = db
        .query(CustomerOrder::partition(43u64).unwrap())
        .after(cursor.clone())
        .all::<CustomerOrder>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidCursor, "{err:?}");

    let err = db
        .query(CustomerOrder::gsi1_partition(9000u64).unwrap())
        .after(cursor)
        .all::<CustomerOrder>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidCursor, "{err:?}");

    let tampered = "c2.ME9UIEEgQ1VSU09S".parse::<Cursor>();
    assert_eq!(tampered.unwrap_err().kind(), ErrorKind::InvalidCursor);
    assert!(log.operations().is_empty(), "refused before sending");
}

#[tokio::test]
async fn an_index_query_finds_an_order_by_id() {
    let (_dynamo, db, _log) = logged_app_table().await;
    seed(&db).await;
    let found: Vec<CustomerOrder> = db
        .query(CustomerOrder::gsi1_partition(9003u64).unwrap())
        .sk_eq(CustomerOrder::gsi1_sk().customer_id(42u64))
        .all()
        .await
        .unwrap();
    assert_eq!(ids(&found), [9003]);
}

#[tokio::test]
async fn items_of_other_types_are_skipped_or_refused_by_policy() {
    let (_dynamo, db, _log) = logged_app_table().await;
    seed(&db).await;
    // The partition also holds the customer's PROFILE.
    let orders: Vec<CustomerOrder> = db
        .query(CustomerOrder::partition(42u64).unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(orders.len(), 7);

    let err = db
        .query(CustomerOrder::partition(42u64).unwrap())
        .on_unknown(UnknownItems::Error)
        .all::<CustomerOrder>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnknownType, "{err:?}");
    assert!(err.to_string().contains(r#"type "customer""#), "{err}");
}

#[tokio::test]
async fn an_item_missing_a_field_is_a_decode_error_naming_it() {
    let (_dynamo, db, _log) = logged_app_table().await;
    let mut item = ddb_entity::Entity::to_item(&Customer {
        customer_id: 5,
        name: "x".into(),
    })
    .unwrap();
    item.remove("name");
    db.client()
        .put_item()
        .table_name(db.table_name())
        .set_item(Some(item))
        .send()
        .await
        .unwrap();
    let err = db.get(Customer::key(5u64).unwrap()).await.unwrap_err();
    assert!(
        err.kind() == ErrorKind::Decode && err.entity() == Some("Customer"),
        "{err:?}"
    );
    assert_eq!(err.field(), Some("name"), "{err}");
}

#[tokio::test]
async fn a_partition_past_one_megabyte_costs_the_pages_it_needs_and_no_more() {
    let (_dynamo, db, log) = logged_app_table().await;
    // 12 orders of ~100 KB: about 1.2 MB, so DynamoDB pages it.
    let padding = "x".repeat(100_000);
    for order_id in 0..12u64 {
        let ticket = Ticket {
            customer_id: 7,
            ticket_id: order_id as u32,
            subject: padding.clone(),
            open_since: None,
        };
        db.put(&ticket).await.unwrap();
    }
    log.clear();
    let tickets: Vec<Ticket> = db
        .query(Ticket::partition(7u64).unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(tickets.len(), 12, "every item, across pages");
    let requests = log.count("Query");
    // Each page but the last stops at 1 MB: ceil(1.2 MB / 1 MB) = 2. An
    // emulator that does not page at 1 MB answers in 1; never more than 2.
    assert!((1..=2).contains(&requests), "{requests} requests");
}

#[tokio::test]
async fn a_composite_view_of_several_entity_types_costs_exactly_one_query() {
    let (_dynamo, db, log) = logged_app_table().await;
    let orders = seed(&db).await;
    for seq in [2u16, 1] {
        db.put(&Address {
            customer_id: 42,
            seq,
            city: format!("city {seq}"),
        })
        .await
        .unwrap();
    }
    db.put(&Ticket {
        customer_id: 42,
        ticket_id: 1,
        subject: "late".into(),
        open_since: None,
    })
    .await
    .unwrap();
    log.clear();

    let view: CustomerView = db
        .query(Customer::partition(42u64).unwrap())
        .collect()
        .await
        .unwrap();
    assert_eq!(log.operations(), ["Query"], "one round trip");
    assert_eq!(view.customer.unwrap().name, "Ada");
    let seqs: Vec<u16> = view.addresses.iter().map(|a| a.seq).collect();
    assert_eq!(seqs, [1, 2], "sort-key order");
    assert_eq!(ids(&view.orders), ids(&orders));

    // The same partition as a stream of mixed items, in sort-key order
    // (ORDER < PROFILE < TICKET); CustomerItem has no address variant, so
    // the addresses are skipped by the default policy.
    log.clear();
    let items: Vec<CustomerItem> = db
        .query(Customer::partition(42u64).unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(log.count("Query"), 1);
    let kinds: Vec<&str> = items
        .iter()
        .map(|item| match item {
            CustomerItem::Customer(_) => "customer",
            CustomerItem::Order(_) => "order",
            CustomerItem::Ticket(_) => "ticket",
        })
        .collect();
    let mut expected = vec!["order"; 7];
    expected.push("customer");
    expected.push("ticket");
    assert_eq!(kinds, expected);
}

/// The orders of `CustomerOrder`, read without their totals: a summary
/// type with the same key templates and the same stored type.
#[derive(ddb_entity::Entity, serde::Serialize, serde::Deserialize, Debug, PartialEq)]
#[entity(table = App, type = "customer_order", pk = "CUST#{customer_id}", sk = "ORDER#{placed}#{order_id}")]
struct OrderRef {
    customer_id: u64,
    order_id: u64,
    placed: chrono::NaiveDate,
    /// Not projected: absent on a projected read.
    total_cents: Option<i64>,
}

#[tokio::test]
async fn a_projection_reads_only_the_attributes_asked_for_and_still_demultiplexes() {
    let (_dynamo, db, _log) = logged_app_table().await;
    seed(&db).await;
    let refs: Vec<OrderRef> = db
        .query(OrderRef::partition(42u64).unwrap())
        .projection(["customer_id", "order_id", "placed", "PK"])
        .page_size(3)
        .all()
        .await
        .unwrap();
    assert_eq!(refs.len(), 7, "every page resumed from its cursor");
    assert!(refs.iter().all(|r| r.total_cents.is_none()), "{refs:?}");
    assert_eq!(refs[0].order_id, 9000);

    let full: Vec<OrderRef> = db
        .query(OrderRef::partition(42u64).unwrap())
        .all()
        .await
        .unwrap();
    assert!(full.iter().all(|r| r.total_cents.is_some()));
}

/// The text of a cursor with these fields, however forged: the format is
/// base64url of length-prefixed fields (one-byte lengths below 128), the
/// index name first.
fn forged_cursor(index: &str, pairs: &[(&str, &str)]) -> String {
    let mut bytes = Vec::new();
    let fields = std::iter::once(index).chain(pairs.iter().flat_map(|(n, v)| [*n, *v]));
    for field in fields {
        bytes.push(
            u8::try_from(field.len())
                .ok()
                .filter(|len| *len < 128)
                .unwrap(),
        );
        bytes.extend_from_slice(field.as_bytes());
    }
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut text = String::from("c2.");
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            text.push(char::from(ALPHABET[(n >> (18 - 6 * i)) as usize & 63]));
        }
    }
    text
}

#[tokio::test]
async fn a_forged_cursor_is_refused_unless_it_is_exactly_the_key_of_the_queried_index() {
    let (_dynamo, db, log) = logged_app_table().await;
    seed(&db).await;
    let mine = "CUST#00000000000000000042";
    let theirs = "CUST#00000000000000000043";
    let sk = "ORDER#2026-03-14#00000000000000000001";
    let forged: [(&str, Vec<(&str, &str)>); 7] = [
        // The partition attribute twice: the check passes on one value,
        // the request would use the other.
        ("", vec![("PK", mine), ("PK", theirs), ("SK", sk)]),
        ("", vec![("PK", theirs), ("SK", sk), ("PK", mine)]),
        ("", vec![("PK", mine), ("SK", sk), ("SK", "PROFILE")]),
        // Not the table's key schema.
        ("", vec![("PK", mine)]),
        ("", vec![("PK", mine), ("SK", sk), ("GSI1PK", "ORDER#1")]),
        ("", vec![("PK", mine), ("total_cents", "1")]),
        ("", vec![("PK", mine), ("SK", sk), ("_type", "ORDER")]),
    ];
    log.clear();
    for (index, pairs) in &forged {
        let result = forged_cursor(index, pairs)
            .parse::<Cursor>()
            .and_then(|cursor| Ok(db.query(CustomerOrder::partition(42u64)?).after(cursor)));
        let err = match result {
            Err(err) => err,
            Ok(query) => query.all::<CustomerOrder>().await.unwrap_err(),
        };
        assert_eq!(err.kind(), ErrorKind::InvalidCursor, "{pairs:?}: {err}");
    }
    // On an index: its keys and the table's, nothing less.
    let gsi = |pairs: &[(&str, &str)]| forged_cursor("GSI1", pairs).parse::<Cursor>().unwrap();
    let err = db
        .query(CustomerOrder::gsi1_partition(9003u64).unwrap())
        .after(gsi(&[
            ("GSI1PK", "ORDER#00000000000000009003"),
            ("GSI1SK", mine),
        ]))
        .all::<CustomerOrder>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidCursor, "{err}");
    assert!(log.operations().is_empty(), "refused before sending");
}

#[tokio::test]
async fn an_index_query_pages_through_its_own_cursors() {
    let (_dynamo, db, _log) = logged_app_table().await;
    for ticket_id in 0..5u32 {
        db.put(&Ticket {
            customer_id: 7,
            ticket_id,
            subject: "late".into(),
            open_since: Some(date(2026, 3, 14)),
        })
        .await
        .unwrap();
    }
    let mut seen = Vec::new();
    let mut cursor: Option<Cursor> = None;
    for _ in 0..10 {
        let mut query = db
            .query(Ticket::gsi2_partition(date(2026, 3, 14)).unwrap())
            .page_size(2);
        if let Some(cursor) = cursor.take() {
            query = query.after(cursor.to_string().parse().unwrap());
        }
        let page: Page<Vec<Ticket>> = query.page().await.unwrap();
        seen.extend(page.items.iter().map(|t| t.ticket_id));
        match page.cursor {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    assert_eq!(seen, [0, 1, 2, 3, 4]);
}
