//! Sealed cursors (`Db::with_cursor_seal`): pages hand out cursors that a
//! client can neither read nor forge, bound to their query, rotating and
//! expiring; every refusal comes before a request is sent.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, UNIX_EPOCH};

use chrono::{DateTime, Utc};
use futures_util::TryStreamExt;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

use ddb_entity::key::Year;
use ddb_entity::op::{CursorFault, Page};
use ddb_entity::{Cursor, CursorSeal, Db, Error, ErrorKind};

use crate::model::*;
use crate::support::{App, RequestLog, logged_app_table};

const KEY_1: [u8; 32] = *b"cursor key 1 for tests, 32 bytes";
const KEY_2: [u8; 32] = *b"cursor key 2 for tests, 32 bytes";
const ADA: &str = "ada@example.com";

fn at(seconds: i64) -> DateTime<Utc> {
    DateTime::from_timestamp(seconds, 0).unwrap()
}

/// Ada's seven orders in 2026 (and one of Bob's, never to be seen).
async fn seed(db: &Db<App>) -> Vec<Order> {
    let mut orders = Vec::new();
    for i in 0..7 {
        let order = Order {
            email: ADA.into(),
            order_id: format!("A-{i}"),
            placed_at: at(1_767_225_600 + i * 86_400),
            status: OrderStatus::Open,
            total_cents: 100 * i,
        };
        db.put(&order).await.unwrap();
        orders.push(order);
    }
    let bob = Order {
        email: "bob@example.com".into(),
        ..orders[0].clone()
    };
    db.put(&bob).await.unwrap();
    orders
}

fn ids(orders: &[Order]) -> Vec<&str> {
    orders.iter().map(|o| o.order_id.as_str()).collect()
}

/// Ada's orders of 2026, oldest first: the listing the tests page through.
fn listing(db: &Db<App>) -> ddb_entity::op::Query<'_, ddb_entity::Primary<App>> {
    db.query(Order::partition(ADA).unwrap())
        .sk_begins_with(Order::sk().placed_at_prefix(Year(2026)))
}

/// A handle on the same table with `seal`.
fn sealed(db: &Db<App>, seal: CursorSeal) -> Db<App> {
    db.clone().with_cursor_seal(seal)
}

/// The first page's cursor of `listing` on `db`, three orders a page.
async fn first_cursor(db: &Db<App>) -> Cursor {
    let page: Page<Vec<Order>> = listing(db).page_size(3).page().await.unwrap();
    page.cursor.expect("more to read")
}

/// The error and what the log saw: nothing may have been sent.
fn refusal(result: Result<Vec<Order>, Error>, log: &RequestLog) -> CursorFault {
    let err = result.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidCursor, "{err}");
    assert!(log.operations().is_empty(), "refused before sending");
    err.cursor_fault().expect("a cursor fault")
}

/// Base64url without padding, decoded leniently: to look inside a cursor.
fn base64url(text: &str) -> Vec<u8> {
    let sextets: Vec<u32> = text
        .bytes()
        .map(|c| match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'-' => 62,
            _ => 63,
        })
        .map(u32::from)
        .collect();
    sextets
        .chunks(4)
        .flat_map(|chunk| {
            let n = chunk
                .iter()
                .enumerate()
                .fold(0, |n, (i, s)| n | s << (18 - 6 * i));
            (0..chunk.len() - 1).map(move |i| (n >> (16 - 8 * i)) as u8)
        })
        .collect()
}

#[tokio::test]
async fn sealed_cursors_page_through_a_listing_without_loss_or_repeat_nor_disclosing_keys() {
    let (_dynamo, db, log) = logged_app_table().await;
    let orders = seed(&db).await;
    let db = sealed(&db, CursorSeal::new(1, KEY_1));
    log.clear();

    let mut seen = Vec::new();
    let mut texts = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut query = listing(&db).page_size(3);
        if let Some(text) = cursor.take() {
            query = query.after(text.parse().unwrap());
        }
        let page: Page<Vec<Order>> = query.page().await.unwrap();
        seen.extend(page.items);
        match page.cursor {
            Some(next) => {
                assert!(next.is_sealed());
                let text = next.to_string();
                texts.push(text.clone());
                cursor = Some(text);
            }
            None => break,
        }
    }
    assert_eq!(ids(&seen), ids(&orders));
    assert!(
        (3..=4).contains(&log.count("Query")),
        "{:?}",
        log.operations()
    );
    for text in &texts {
        assert!(text.starts_with("s1."), "{text}");
        assert!(text.len() < 140, "{} characters: {text}", text.len());
        let bytes = base64url(&text[3..]);
        for secret in [ADA.as_bytes(), b"USER#", b"ORDER#", b"2026-01"] {
            assert!(!bytes.windows(secret.len()).any(|w| w == secret), "{text}");
        }
    }

    // The same as a Stream of pages, each cursor sealed.
    let pages: Vec<Page<Vec<Order>>> = listing(&db)
        .page_size(3)
        .pages()
        .try_collect()
        .await
        .unwrap();
    let streamed: Vec<&str> = pages.iter().flat_map(|p| ids(&p.items)).collect();
    assert_eq!(streamed, ids(&orders));
    let (last, others) = pages.split_last().unwrap();
    assert!(
        others
            .iter()
            .all(|p| p.cursor.as_ref().is_some_and(Cursor::is_sealed))
    );
    assert!(last.cursor.is_none());
}

#[tokio::test]
async fn every_bit_flip_truncation_and_extension_of_a_sealed_cursor_is_refused_before_sending() {
    let (_dynamo, db, log) = logged_app_table().await;
    seed(&db).await;
    let db = sealed(
        &db,
        CursorSeal::new(1, KEY_1).expire_after(Duration::from_secs(600)),
    );
    let text = first_cursor(&db).await.to_string();
    log.clear();

    let mut candidates = Vec::new();
    for byte in 0..text.len() {
        for bit in 0..8 {
            let mut flipped = text.clone().into_bytes();
            flipped[byte] ^= 1 << bit;
            // A flip of the top bit is not text (the cursor is ASCII).
            candidates.extend(String::from_utf8(flipped));
        }
    }
    assert_eq!(candidates.len(), text.len() * 7);
    candidates.extend((0..text.len()).map(|len| text[..len].to_owned()));
    for extra in [
        "A", "g", "-", "_", "AA", "AAA", "AAAA", "=", "==", ".", "%3D", "\n",
    ] {
        candidates.push(format!("{text}{extra}"));
    }
    let mut faults = std::collections::BTreeMap::new();
    for candidate in &candidates {
        let (sealed, result) = match candidate.parse::<Cursor>() {
            Err(err) => (false, Err(err)),
            Ok(cursor) => (cursor.is_sealed(), listing(&db).after(cursor).all().await),
        };
        let fault = refusal(result, &log);
        // What still reads as sealed fails to authenticate; the rest is
        // no cursor at all, or an unsealed one.
        if sealed {
            assert_eq!(fault, CursorFault::Unauthentic, "{candidate}");
        } else {
            assert!(
                matches!(fault, CursorFault::Malformed | CursorFault::Unsealed),
                "{candidate}: {fault}"
            );
        }
        *faults.entry(fault.as_str()).or_insert(0) += 1;
    }
    // About 5 of the 7 flips of a base64url character give another one,
    // which reaches the seal.
    assert!(faults["unauthentic"] > text.len() * 3, "{faults:?}");

    // The untouched cursor still resumes.
    let rest: Vec<Order> = listing(&db)
        .after(text.parse().unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(rest.len(), 4);
}

#[tokio::test]
async fn a_cursor_sealed_for_one_query_is_refused_by_another_on_the_same_partition() {
    let (_dynamo, db, log) = logged_app_table().await;
    seed(&db).await;
    let plain_db = db.clone();
    let db = sealed(&db, CursorSeal::new(1, KEY_1));
    let cursor = first_cursor(&db).await;
    log.clear();

    let partition = || db.query(Order::partition(ADA).unwrap());
    let others = [
        ("reversed", listing(&db).reverse(true)),
        ("no sort-key condition", partition()),
        (
            "another year",
            partition().sk_begins_with(Order::sk().placed_at_prefix(Year(2025))),
        ),
        (
            "a range ending elsewhere",
            partition().sk_between(
                Order::sk().placed_at_prefix(Year(2026)),
                Order::sk().placed_at_prefix(Year(2027)),
            ),
        ),
    ];
    for (what, query) in others {
        let fault = refusal(query.after(cursor.clone()).all().await, &log);
        assert_eq!(fault, CursorFault::Unauthentic, "{what}");
    }
    // The same table under another name (another stage), same key.
    let staging = Db::<App>::new(db.client().clone(), format!("{}-staging", db.table_name()))
        .with_cursor_seal(CursorSeal::new(1, KEY_1));
    let fault = refusal(listing(&staging).after(cursor.clone()).all().await, &log);
    assert_eq!(fault, CursorFault::Unauthentic);
    // Another partition, and an index.
    let bob = db
        .query(Order::partition("bob@example.com").unwrap())
        .sk_begins_with(Order::sk().placed_at_prefix(Year(2026)));
    assert_eq!(
        refusal(bob.after(cursor.clone()).all().await, &log),
        CursorFault::Unauthentic
    );
    let by_id = db.query(Order::gsi1_partition("A-3").unwrap());
    assert_eq!(
        refusal(by_id.after(cursor.clone()).all().await, &log),
        CursorFault::Unauthentic
    );

    // Sealed and unsealed handles do not take each other's cursors.
    let plain = first_cursor(&plain_db).await;
    log.clear();
    let fault = refusal(listing(&db).after(plain).all().await, &log);
    assert_eq!(fault, CursorFault::Unsealed);
    let fault = refusal(listing(&plain_db).after(cursor.clone()).all().await, &log);
    assert_eq!(fault, CursorFault::NoSeal);

    // What does not change which items follow, or their order, is free:
    // page size, limit, consistency, projection.
    let rest: Vec<Order> = listing(&db)
        .page_size(1)
        .limit(10)
        .consistent_read(true)
        .projection(["email", "order_id", "placed_at", "status", "total_cents"])
        .after(cursor)
        .all()
        .await
        .unwrap();
    assert_eq!(ids(&rest), ["A-3", "A-4", "A-5", "A-6"]);
}

#[tokio::test]
async fn rotation_opens_old_cursors_and_seals_with_the_new_key() {
    let (_dynamo, db, log) = logged_app_table().await;
    seed(&db).await;
    let before = sealed(&db, CursorSeal::new(1, KEY_1));
    let during = sealed(&db, CursorSeal::new(2, KEY_2).also_open(1, KEY_1));
    let after = sealed(&db, CursorSeal::new(2, KEY_2));

    // A client holds a cursor from before the rotation.
    let old = first_cursor(&before).await;
    let rest: Vec<Order> = listing(&during).after(old.clone()).all().await.unwrap();
    assert_eq!(ids(&rest), ["A-3", "A-4", "A-5", "A-6"]);

    // New cursors are sealed with the new key: the new key alone opens
    // them, the old one does not.
    let new = first_cursor(&during).await;
    let rest: Vec<Order> = listing(&after).after(new.clone()).all().await.unwrap();
    assert_eq!(rest.len(), 4);
    log.clear();
    assert_eq!(
        refusal(listing(&before).after(new).all().await, &log),
        CursorFault::Unauthentic
    );

    // Once the old key is retired, its cursors are refused.
    assert_eq!(
        refusal(listing(&after).after(old).all().await, &log),
        CursorFault::Unauthentic
    );
}

#[tokio::test]
async fn an_expired_cursor_is_refused_before_sending() {
    let (_dynamo, db, log) = logged_app_table().await;
    seed(&db).await;
    let seconds = Arc::new(AtomicU64::new(1_773_480_660));
    let clock = Arc::clone(&seconds);
    let db = sealed(
        &db,
        CursorSeal::new(1, KEY_1).expire_after(Duration::from_secs(900)),
    )
    .with_clock(move || UNIX_EPOCH + Duration::from_secs(clock.load(Ordering::SeqCst)));
    let cursor = first_cursor(&db).await;

    seconds.fetch_add(899, Ordering::SeqCst);
    let rest: Vec<Order> = listing(&db).after(cursor.clone()).all().await.unwrap();
    assert_eq!(rest.len(), 4, "valid until its last second");

    seconds.fetch_add(1, Ordering::SeqCst);
    log.clear();
    let err = listing(&db)
        .after(cursor.clone())
        .all::<Order>()
        .await
        .unwrap_err();
    assert_eq!(err.cursor_fault(), Some(CursorFault::Expired), "{err}");
    assert!(err.to_string().contains("expired"), "{err}");
    assert!(log.operations().is_empty(), "refused before sending");
    // A seal without an expiry still honours the one sealed inside.
    let lenient = db.clone().with_cursor_seal(CursorSeal::new(1, KEY_1));
    assert_eq!(
        refusal(listing(&lenient).after(cursor).all().await, &log),
        CursorFault::Expired
    );
}

/// A change to a cursor's text.
#[derive(Debug, Clone)]
enum Mutation {
    Flip {
        at: usize,
        bit: u8,
    },
    Truncate {
        at: usize,
    },
    Extend(String),
    Replace {
        at: usize,
        with: char,
    },
    Insert {
        at: usize,
        with: char,
    },
    Remove {
        at: usize,
    },
    /// Another cursor's text from this position on.
    Splice {
        at: usize,
    },
}

impl Mutation {
    fn apply(&self, text: &str, other: &str) -> Option<String> {
        let index = |at: &usize| at % text.len();
        let mut bytes = text.as_bytes().to_vec();
        match self {
            Mutation::Flip { at, bit } => bytes[index(at)] ^= 1 << bit,
            Mutation::Truncate { at } => bytes.truncate(index(at)),
            Mutation::Extend(tail) => bytes.extend_from_slice(tail.as_bytes()),
            Mutation::Replace { at, with } => bytes[index(at)] = *with as u8,
            Mutation::Insert { at, with } => bytes.insert(index(at), *with as u8),
            Mutation::Remove { at } => {
                bytes.remove(index(at));
            }
            Mutation::Splice { at } => {
                let at = index(at).min(other.len());
                bytes.truncate(at);
                bytes.extend_from_slice(&other.as_bytes()[at..]);
            }
        }
        String::from_utf8(bytes)
            .ok()
            .filter(|mutated| mutated != text)
    }
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let char = prop::sample::select(
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ %"
            .iter()
            .map(|&c| char::from(c))
            .collect::<Vec<_>>(),
    );
    prop_oneof![
        (any::<usize>(), 0u8..8).prop_map(|(at, bit)| Mutation::Flip { at, bit }),
        any::<usize>().prop_map(|at| Mutation::Truncate { at }),
        "[A-Za-z0-9_=.-]{1,8}".prop_map(Mutation::Extend),
        (any::<usize>(), char.clone()).prop_map(|(at, with)| Mutation::Replace { at, with }),
        (any::<usize>(), char).prop_map(|(at, with)| Mutation::Insert { at, with }),
        any::<usize>().prop_map(|at| Mutation::Remove { at }),
        any::<usize>().prop_map(|at| Mutation::Splice { at }),
    ]
}

/// Random listings, their sealed cursors, and random changes to them: a
/// changed cursor is never opened (and never panics), the unchanged one
/// always is, and none is opened by another listing.
#[test]
fn no_mutation_of_a_random_sealed_cursor_is_ever_opened() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let (_dynamo, db, log) = runtime.block_on(logged_app_table());
    let seal = CursorSeal::new(7, KEY_1).also_open(3, KEY_2);
    let db = db.with_cursor_seal(seal.clone().expire_after(Duration::from_secs(60)));
    let mut runner = TestRunner::new(Config {
        cases: 128,
        failure_persistence: None,
        ..Config::default()
    });
    let case = (
        "[a-z0-9.+_-]{1,24}@[a-z]{1,12}\\.[a-z]{2,3}",
        prop::collection::vec(("[ -~]{1,12}", 0i64..4_102_444_800), 2..4),
        any::<bool>(),
        prop::collection::vec(mutation(), 1..24),
    );
    runner
        .run(&case, |(email, orders, reverse, mutations)| {
            runtime.block_on(async {
                for (i, (order_id, placed_at)) in orders.iter().enumerate() {
                    let order = Order {
                        email: email.clone(),
                        order_id: format!("{order_id}{i}"),
                        placed_at: at(*placed_at),
                        status: OrderStatus::Shipped,
                        total_cents: 1,
                    };
                    db.put(&order).await.unwrap();
                }
                let query = |reverse: bool| {
                    db.query(Order::partition(email.as_str()).unwrap())
                        .sk_begins_with(Order::sk())
                        .reverse(reverse)
                        // Never sends: only the cursor is checked.
                        .limit(0)
                };
                let page: Page<Vec<Order>> = db
                    .query(Order::partition(email.as_str()).unwrap())
                    .sk_begins_with(Order::sk())
                    .reverse(reverse)
                    .page_size(1)
                    .page()
                    .await
                    .unwrap();
                let cursor = page.cursor.expect("two orders or more");
                let text = cursor.to_string();
                log.clear();
                let query = &query;
                let opens = |text: &str| {
                    let text = text.to_owned();
                    async move {
                        match text.parse::<Cursor>() {
                            Err(err) => Err(err),
                            Ok(cursor) => query(reverse).after(cursor).all::<Order>().await,
                        }
                    }
                };
                prop_assert!(opens(&text).await.is_ok(), "the cursor itself opens");
                let other = query(!reverse).after(cursor).all::<Order>().await;
                prop_assert_eq!(
                    other.unwrap_err().cursor_fault(),
                    Some(CursorFault::Unauthentic)
                );
                // Another listing's cursor, to splice from.
                let unsealed = Db::<App>::new(db.client().clone(), db.table_name().to_owned());
                let other_text = unsealed
                    .query(Order::partition(email.as_str()).unwrap())
                    .page_size(1)
                    .page::<Vec<Order>>()
                    .await
                    .unwrap()
                    .cursor
                    .unwrap()
                    .to_string();
                log.clear();
                for mutation in &mutations {
                    let Some(mutated) = mutation.apply(&text, &other_text) else {
                        continue;
                    };
                    let result = opens(&mutated).await;
                    let err = result.err().ok_or_else(|| {
                        TestCaseError::fail(format!("{mutation:?} of {text} opened: {mutated}"))
                    })?;
                    prop_assert_eq!(err.kind(), ErrorKind::InvalidCursor);
                }
                prop_assert!(log.operations().is_empty(), "{:?}", log.operations());
                Ok(())
            })
        })
        .unwrap();
}

#[tokio::test]
async fn a_sealed_cursor_of_a_filtered_listing_resumes_only_that_filter() {
    let (_dynamo, db, log) = logged_app_table().await;
    seed(&db).await;
    let db = sealed(&db, CursorSeal::new(1, KEY_1));
    let total = || Order::fields().total_cents;
    // Orders of 2 € or more, read three at a time.
    let filtered = |at_least: i64| listing(&db).filter(total().ge(at_least));
    let page: Page<Vec<Order>> = filtered(200).page_size(3).page().await.unwrap();
    assert_eq!(ids(&page.items), ["A-2", "A-3", "A-4"]);
    let cursor = page.cursor.expect("more to read");
    log.clear();

    // The same filter, built again: the listing goes on.
    let rest: Vec<Order> = filtered(200).after(cursor.clone()).all().await.unwrap();
    assert_eq!(ids(&rest), ["A-5", "A-6"]);
    log.clear();
    // No filter, another value, another condition: refused before sending.
    let others = [
        ("no filter", listing(&db)),
        ("another value", filtered(300)),
        ("another condition", listing(&db).filter(total().gt(200))),
        (
            "one more condition",
            filtered(200).filter(Order::fields().status.equals(OrderStatus::Open)),
        ),
    ];
    for (what, query) in others {
        let fault = refusal(query.after(cursor.clone()).all().await, &log);
        assert_eq!(fault, CursorFault::Unauthentic, "{what}");
    }
    // And an unfiltered listing's cursor is refused by a filtered one.
    let plain = first_cursor(&db).await;
    log.clear();
    let fault = refusal(filtered(200).after(plain).all().await, &log);
    assert_eq!(fault, CursorFault::Unauthentic);
}
