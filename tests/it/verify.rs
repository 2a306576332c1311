//! Items written by other code, as an adversary would write them: a body
//! stored under someone else's key, an `ORDER`-typed item at a sort key no
//! order has, a stale index key. Every typed read — get, query (table and
//! index), collection, batch get, a transaction's old item, a delete's old
//! item, an update's new one — refuses them with a `KeyMismatch` naming
//! the stored key (behind `DecodeAfterWrite` when the write was applied), never returning a wrong value and never panicking. And
//! decode errors name the field and the key.

use aws_sdk_dynamodb::types::AttributeValue;
use ddb_entity::{Db, Entity, Error, ErrorKind, Item, UnknownItems};

use crate::model::{CustomerOrder, CustomerView, Ticket, date};
use crate::support::App;

/// Customer 9's order 90: the body an adversary copies.
fn order(customer_id: u64, order_id: u64) -> CustomerOrder {
    CustomerOrder {
        customer_id,
        order_id,
        placed: date(2026, 3, 14),
        total_cents: 4200,
    }
}

async fn raw_put(db: &Db<App>, item: Item) {
    db.client()
        .put_item()
        .table_name(db.table_name())
        .set_item(Some(item))
        .send()
        .await
        .expect("PutItem succeeds");
}

fn s(value: &str) -> AttributeValue {
    AttributeValue::S(value.to_owned())
}

/// `item` with its table key replaced.
fn moved(mut item: Item, partition: &str, sort: &str) -> Item {
    item.insert("PK".into(), s(partition));
    item.insert("SK".into(), s(sort));
    item
}

fn assert_mismatch(err: &Error, stored: (&str, &str), what: &str) {
    assert_eq!(err.kind(), ErrorKind::KeyMismatch, "{what}: {err}");
    assert_eq!(err.entity(), Some("CustomerOrder"), "{what}: {err}");
    assert_eq!(err.item_key(), Some(stored), "{what}: {err}");
    let message = err.to_string();
    assert!(
        message.contains(&format!("PK={}", stored.0)) && message.contains("SK="),
        "{what}: the message names the stored key: {message}"
    );
}

/// `order`'s item as a build that kept key fields in the body wrote it
/// (or other code does): its serde body whole, key fields included.
fn with_body_copies(order: &CustomerOrder) -> Item {
    let mut item = order.to_item().unwrap();
    item.extend(ddb_entity::codec::to_item(order).unwrap());
    item
}

/// Customer 9's order 90 stored at customer 8's key for order 90, with its
/// body copies of the key fields saying customer 9 (a key field stored in
/// the key only is read from the key, so only a copy can disagree with it).
#[tokio::test]
async fn a_body_under_another_key_is_refused_by_every_typed_read() {
    let (_dynamo, db) = crate::support::app_table().await;
    let key8 = order(8, 90).primary_key().unwrap();
    let stored = (key8.partition().to_owned(), key8.sort().to_owned());
    let stored = (stored.0.as_str(), stored.1.as_str());
    let forged = || moved(with_body_copies(&order(9, 90)), stored.0, stored.1);
    raw_put(&db, forged()).await;
    // A real order of customer 8 beside it.
    db.put(&order(8, 1)).await.unwrap();

    let err = db
        .get(key8.clone())
        .consistent_read(true)
        .await
        .unwrap_err();
    assert_mismatch(&err, stored, "get");

    let err = db
        .query(CustomerOrder::partition(8u64).unwrap())
        .all::<CustomerOrder>()
        .await
        .unwrap_err();
    assert_mismatch(&err, stored, "query");

    let err = db
        .query(CustomerOrder::partition(8u64).unwrap())
        .collect::<CustomerView>()
        .await
        .unwrap_err();
    assert_mismatch(&err, stored, "collection");

    // Through GSI1: the item carries customer 9's index key, and the
    // table key of customer 8.
    let err = db
        .query(CustomerOrder::gsi1_partition(90u64).unwrap())
        .all::<CustomerOrder>()
        .await
        .unwrap_err();
    assert_mismatch(&err, stored, "index query");

    let err = db
        .batch_get()
        .get(key8.clone())
        .get(order(8, 1).primary_key().unwrap())
        .collect::<Vec<CustomerOrder>>()
        .await
        .unwrap_err();
    assert_mismatch(&err, stored, "batch get");

    // A transaction whose create finds it: the old item is refused too.
    let err = db.transact().create(&order(8, 90)).await.unwrap_err();
    let reason = &err.cancellation_reasons()[0];
    let old = reason
        .old::<CustomerOrder>()
        .expect("an old item")
        .unwrap_err();
    assert_mismatch(&old, stored, "transaction old item");

    // An update's new item: the write is done (the item is of the right
    // type), the value not returned; the error says the write was applied
    // and why its result is refused.
    let fields = CustomerOrder::fields();
    let err = db
        .update(key8.clone())
        .set(fields.total_cents, 1)
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::DecodeAfterWrite, "{err}");
    assert!(!err.is_retryable(), "{err}");
    let cause = std::error::Error::source(&err)
        .and_then(|source| source.downcast_ref::<Error>())
        .expect("the refused read is the cause");
    assert_mismatch(cause, stored, "update");

    // A put or a delete returning the item it replaced or deleted: the
    // write is applied, so the error says so (not "rewrite it", which is
    // wrong advice for an item that is gone) and is not retryable.
    let applied = |err: &Error, what: &str, operation: &str| {
        assert_eq!(err.kind(), ErrorKind::DecodeAfterWrite, "{what}: {err}");
        assert!(!err.is_retryable(), "{what}: {err}");
        let message = err.to_string();
        assert!(
            message.contains(&format!("the {operation} of"))
                && message.contains("was applied")
                && message.contains("do not send it again"),
            "{what}: {message}"
        );
        let cause = std::error::Error::source(err)
            .and_then(|source| source.downcast_ref::<Error>())
            .expect("the refused read is the cause");
        assert_mismatch(cause, stored, what);
    };
    let err = db.put(&order(8, 90)).returning_old().await.unwrap_err();
    applied(&err, "put returning old", "put");
    assert_eq!(
        db.get(key8.clone()).await.unwrap(),
        Some(order(8, 90)),
        "the put was applied"
    );
    raw_put(&db, forged()).await;
    let err = db.delete(key8.clone()).returning_old().await.unwrap_err();
    applied(&err, "delete returning old", "delete");
    assert_eq!(
        db.get(key8.clone()).consistent_read(true).await.unwrap(),
        None,
        "the delete was applied"
    );
}

/// An `ORDER`-typed copy of an order's body at sort keys no `CustomerOrder`
/// has: one that does not parse, and one nested under the order's own key.
#[tokio::test]
async fn an_order_at_a_sort_key_that_is_not_its_own_is_refused() {
    let (_dynamo, db) = crate::support::app_table().await;
    let real = order(8, 1);
    db.put(&real).await.unwrap();
    let key = real.primary_key().unwrap();
    let line = format!("{}#LINE#0001", key.sort());
    for sk in [line.as_str(), "ORDER#not-a-date#1", "ORDER#", "ORDER"] {
        let item = moved(real.to_item().unwrap(), key.partition(), sk);
        raw_put(&db, item).await;
        let query = || db.query(CustomerOrder::partition(8u64).unwrap());
        let err = query().all::<CustomerOrder>().await.unwrap_err();
        assert_mismatch(&err, (key.partition(), sk), sk);
        let err = query()
            .sk_begins_with(CustomerOrder::sk().placed(date(2026, 3, 14)))
            .collect::<CustomerView>()
            .await
            .map(|view| view.orders.len());
        if sk == line {
            assert_mismatch(&err.unwrap_err(), (key.partition(), sk), "nested, in range");
        }
        // The real one is still read by its key.
        assert_eq!(db.get(key.clone()).await.unwrap(), Some(real.clone()));
        db.delete(
            ddb_entity::Key::<CustomerOrder>::new(key.partition().into(), sk.into()).unwrap(),
        )
        .await
        .unwrap();
    }
}

/// An index key left behind: an order moved to another id by a raw write,
/// and a closed ticket still in the open-tickets index.
#[tokio::test]
async fn a_stale_index_key_fails_a_read_through_that_index_only() {
    let (_dynamo, db) = crate::support::app_table().await;
    let real = order(8, 1);
    let mut item = real.to_item().unwrap();
    item.insert("GSI1PK".into(), s("ORDER#777"));
    raw_put(&db, item).await;
    let err = db
        .query(CustomerOrder::gsi1_partition(777u64).unwrap())
        .all::<CustomerOrder>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::KeyMismatch, "{err}");
    assert!(err.to_string().contains("GSI1PK"), "{err}");
    // Read by its own key, it is the order it says it is.
    let key = real.primary_key().unwrap();
    assert_eq!(db.get(key.clone()).await.unwrap(), Some(real.clone()));
    let all: Vec<CustomerOrder> = db
        .query(CustomerOrder::partition(8u64).unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(all, [real]);

    let closed = Ticket {
        customer_id: 8,
        ticket_id: 3,
        subject: "late".into(),
        open_since: None,
    };
    let mut item = closed.to_item().unwrap();
    item.insert("GSI2PK".into(), s("OPEN#2026-03-14"));
    item.insert("GSI2SK".into(), s("TICKET#0000000003"));
    raw_put(&db, item).await;
    let err = db
        .query(Ticket::gsi2_partition(date(2026, 3, 14)).unwrap())
        .all::<Ticket>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::KeyMismatch, "{err}");
    assert!(err.to_string().contains("would not write"), "{err}");
    let key = closed.primary_key().unwrap();
    assert_eq!(db.get(key).await.unwrap(), Some(closed));
}

#[tokio::test]
async fn a_key_of_a_kilobyte_is_shortened_in_the_message() {
    let (_dynamo, db) = crate::support::app_table().await;
    let real = order(8, 1);
    let long = format!("ORDER#{}", "9".repeat(1000));
    raw_put(&db, moved(real.to_item().unwrap(), "CUST#8", &long)).await;
    let err = db
        .query(CustomerOrder::partition(8u64).unwrap())
        .all::<CustomerOrder>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::KeyMismatch);
    assert!(err.to_string().len() < 800, "{}", err.to_string().len());
    assert_eq!(err.item_key().unwrap().1, long, "the accessor has it whole");
}

// ---------------------------------------------------------------------
// Item 11: actionable messages.

#[tokio::test]
async fn a_decode_error_names_the_field_the_entity_and_the_key() {
    let (_dynamo, db) = crate::support::app_table().await;
    let real = order(8, 1);
    let key = real.primary_key().unwrap();
    let mut item = real.to_item().unwrap();
    item.insert("total_cents".into(), s("12"));
    raw_put(&db, item).await;
    for err in [
        db.get(key.clone()).await.unwrap_err(),
        db.query(CustomerOrder::partition(8u64).unwrap())
            .all::<CustomerOrder>()
            .await
            .unwrap_err(),
    ] {
        assert_eq!(err.kind(), ErrorKind::Decode, "{err}");
        assert_eq!(err.field(), Some("total_cents"));
        assert_eq!(err.item_key(), Some((key.partition(), key.sort())));
        let expected = format!(
            "`total_cents` of `CustomerOrder` at PK={} SK={}: expected a number, found a string",
            key.partition(),
            key.sort()
        );
        assert!(err.to_string().contains(&expected), "{err}");
    }

    // A missing field (of the body: `placed` is read from the key), and a
    // value of the wrong kind inside a list.
    let mut item = real.to_item().unwrap();
    item.remove("total_cents");
    raw_put(&db, item).await;
    let err = db.get(key.clone()).await.unwrap_err();
    assert_eq!(err.field(), Some("total_cents"), "{err}");
    assert!(
        err.to_string()
            .contains("`total_cents` of `CustomerOrder` at PK="),
        "{err}"
    );
    assert!(err.to_string().ends_with(": no such attribute"), "{err}");
    let mut item = real.to_item().unwrap();
    item.insert("placed".into(), AttributeValue::L(vec![s("x")]));
    raw_put(&db, item).await;
    let err = db.get(key.clone()).await.unwrap_err();
    assert_eq!(err.field(), Some("placed"), "{err}");
}

#[tokio::test]
async fn an_item_without_a_type_attribute_is_explained_under_either_policy() {
    let (_dynamo, db) = crate::support::app_table().await;
    let mut item = order(8, 1).to_item().unwrap();
    item.remove("_type");
    raw_put(&db, item).await;
    for policy in [UnknownItems::Skip, UnknownItems::Error] {
        let err = db
            .query(CustomerOrder::partition(8u64).unwrap())
            .on_unknown(policy)
            .collect::<CustomerView>()
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::UnknownType, "{err}");
        let message = err.to_string();
        assert!(message.contains("no type attribute (`_type`)"), "{message}");
        assert!(message.contains("PK=CUST#8"), "{message}");
        assert!(!message.contains("UnknownItems::Skip"), "{message}");
    }

    // A known type the collection does not hold, under Error: say how to
    // skip it.
    let mut item = order(8, 2).to_item().unwrap();
    item.insert("_type".into(), s("LINE"));
    raw_put(&db, item).await;
    let err = db
        .query(CustomerOrder::partition(8u64).unwrap())
        .sk_ge(CustomerOrder::sk().placed(date(2026, 3, 14)).order_id(2u64))
        .on_unknown(UnknownItems::Error)
        .collect::<CustomerView>()
        .await
        .unwrap_err();
    assert!(err.to_string().contains(r#"type "LINE""#), "{err}");
    assert!(err.to_string().contains("UnknownItems::Skip"), "{err}");
}

/// A primary key of integers only: a read finds each field of the decoded
/// value exactly as it was read back from the stored key, which proves the
/// key (an integer parses only the text it writes) without writing it
/// again.
#[derive(Entity, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "CUST#{customer_id}", sk = "LINE#{order_id:6}#{line}")]
struct OrderLine {
    customer_id: u64,
    order_id: u32,
    line: i16,
    quantity: u32,
}

/// An integer key whose field decodes as one more than its key says: the
/// value does not hold what was read back, so its key is written and
/// compared, and refused.
#[derive(Entity, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "CUST#{customer_id}", sk = "SHIFTED#{line}")]
struct Shifted {
    customer_id: u64,
    #[serde(deserialize_with = "one_more")]
    line: u16,
}

fn one_more<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<u16, D::Error> {
    <u16 as serde::Deserialize>::deserialize(deserializer).map(|line| line + 1)
}

fn assert_refused(err: &Error, entity: &str, stored: (&str, &str), what: &str) {
    assert_eq!(err.kind(), ErrorKind::KeyMismatch, "{what}: {err}");
    assert_eq!(err.entity(), Some(entity), "{what}: {err}");
    assert_eq!(err.item_key(), Some(stored), "{what}: {err}");
}

/// Stored keys that are not the text the value writes are refused, on the
/// path that proves a key from its integers as on any other: a partition
/// integer with a leading zero or a sign, a declared width not kept, a
/// full width not kept, a body copy that disagrees with its key, and a
/// field that decodes to another value than its key says.
#[tokio::test]
async fn a_key_of_integers_is_proven_only_by_its_own_text() {
    let (_dynamo, db) = crate::support::app_table().await;
    let line = OrderLine {
        customer_id: 42,
        order_id: 12,
        line: -3,
        quantity: 5,
    };
    db.put(&line).await.unwrap();
    let key = line.primary_key().unwrap();
    let (partition, sort) = (key.partition().to_owned(), key.sort().to_owned());
    assert_eq!(partition, "CUST#42");
    let line_text = sort.rsplit('#').next().unwrap().to_owned();
    assert_eq!(sort, format!("LINE#000012#{line_text}"));
    assert_eq!(
        db.get(key.clone()).consistent_read(true).await.unwrap(),
        Some(line.clone())
    );
    assert_eq!(
        db.query(OrderLine::partition(42u64).unwrap())
            .all::<OrderLine>()
            .await
            .unwrap(),
        vec![line.clone()]
    );

    let not_canonical = [
        ("CUST#042".to_owned(), sort.clone()),
        ("CUST#+42".to_owned(), sort.clone()),
        (partition.clone(), format!("LINE#12#{line_text}")),
        (partition.clone(), format!("LINE#0000012#{line_text}")),
        (partition.clone(), "LINE#000012#-3".to_owned()),
        (partition.clone(), "LINE#000012#-0003".to_owned()),
        (partition.clone(), format!("LINE#000012#{line_text}#")),
    ];
    for (pk, sk) in &not_canonical {
        raw_put(&db, moved(line.to_item().unwrap(), pk, sk)).await;
        let stored = ddb_entity::Key::<OrderLine>::new(pk.clone(), sk.clone()).unwrap();
        let err = db.get(stored).consistent_read(true).await.unwrap_err();
        assert_refused(&err, "OrderLine", (pk, sk), &format!("get {pk} {sk}"));
        if *pk == partition {
            let err = db
                .query(OrderLine::partition(42u64).unwrap())
                .all::<OrderLine>()
                .await
                .unwrap_err();
            assert_refused(&err, "OrderLine", (pk, sk), &format!("query {sk}"));
        }
        let stored = ddb_entity::Key::<OrderLine>::new(pk.clone(), sk.clone()).unwrap();
        db.delete(stored).await.unwrap();
    }

    // Customer 9's line stored at customer 42's key, its body copies
    // saying 9: decoded from the copies, and refused.
    let theirs = OrderLine {
        customer_id: 9,
        ..line.clone()
    };
    let mut forged = theirs.to_item().unwrap();
    forged.extend(ddb_entity::codec::to_item(&theirs).unwrap());
    raw_put(&db, moved(forged, &partition, &sort)).await;
    let err = db.get(key.clone()).consistent_read(true).await.unwrap_err();
    assert_refused(&err, "OrderLine", (&partition, &sort), "body copy");
    // Only the customer copied: the others read back from the key.
    let mut forged = line.to_item().unwrap();
    forged.insert("customer_id".into(), AttributeValue::N("9".into()));
    raw_put(&db, forged).await;
    let err = db.get(key.clone()).consistent_read(true).await.unwrap_err();
    assert_refused(&err, "OrderLine", (&partition, &sort), "one body copy");

    let shifted = Shifted {
        customer_id: 42,
        line: 7,
    };
    db.put(&shifted).await.unwrap();
    let key = shifted.primary_key().unwrap();
    let err = db.get(key.clone()).consistent_read(true).await.unwrap_err();
    assert_refused(
        &err,
        "Shifted",
        (key.partition(), key.sort()),
        "a field decoded to another value",
    );
}
