//! Batch writes and reads of mixed entity types: chunking to the service
//! limits (counted on the wire), demultiplexing, and the input refused
//! before anything is sent. Faults and retries are in `faults.rs`.

use ddb_entity::item::{MAX_ITEM_SIZE, item_size};
use ddb_entity::op::BatchRetry;
use ddb_entity::{Db, Entity, ErrorKind, Key};
use serde::{Deserialize, Serialize};

use crate::model::*;
use crate::support::{App, app_table, logged_app_table};

fn customer(id: u64) -> Customer {
    Customer {
        customer_id: id,
        name: format!("customer {id}"),
    }
}

fn order(customer_id: u64, order_id: u64) -> CustomerOrder {
    CustomerOrder {
        customer_id,
        order_id,
        placed: date(2026, 3, 1 + (order_id % 28) as u32),
        total_cents: order_id as i64 * 100,
    }
}

/// A note with a text of any size.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "NOTE#{id}", sk = "NOTE")]
struct Note {
    id: u32,
    text: String,
}

#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "READING#{id}", sk = "READING")]
struct Reading {
    id: u32,
    value: f64,
}

#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "WIDE#{id}", sk = "WIDE")]
struct Wide {
    id: u32,
    value: u128,
}

#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "COUNTER#{name}", sk = "COUNTER", version = "version")]
struct Counter {
    name: String,
    version: u64,
}

#[tokio::test]
async fn an_empty_batch_sends_nothing() {
    let (_dynamo, db, log) = logged_app_table().await;
    let batch = db.batch_write();
    assert!(batch.is_empty());
    batch.await.unwrap();
    let read: Vec<Customer> = db.batch_get().collect().await.unwrap();
    assert!(read.is_empty());
    let view: CustomerView = db.batch_get().collect().await.unwrap();
    assert_eq!(view, CustomerView::default());
    assert_eq!(log.operations(), Vec::<String>::new());
}

#[tokio::test]
async fn writes_are_sent_25_to_a_request_and_keys_100() {
    let (_dynamo, db, log) = logged_app_table().await;
    let mut batch = db.batch_write();
    for id in 1..=26 {
        batch = batch.put(&customer(id));
    }
    assert_eq!(batch.len(), 26);
    batch.await.unwrap();
    assert_eq!(log.count("BatchWriteItem"), 2);

    // 250 writes of two types and 10 deletes: 11 requests.
    log.clear();
    let mut batch = db.batch_write().concurrency(2);
    for id in 1..=125 {
        batch = batch.put(&customer(id)).put(&order(id, id * 7));
    }
    for id in 1..=10 {
        batch = batch.delete(Customer::key(1000 + id).unwrap());
    }
    batch.await.unwrap();
    assert_eq!(log.operations(), vec!["BatchWriteItem"; 11]);

    // 250 keys: 3 requests, and everything read back, in the order asked.
    log.clear();
    let mut read = db.batch_get().consistent_read(true);
    for id in 1..=125 {
        read = read
            .get(order(id, id * 7).primary_key().unwrap())
            .get(Customer::key(id).unwrap());
    }
    let items: Vec<CustomerItem> = read.collect().await.unwrap();
    assert_eq!(log.operations(), vec!["BatchGetItem"; 3]);
    let expected: Vec<CustomerItem> = (1..=125)
        .flat_map(|id| {
            [
                CustomerItem::Order(order(id, id * 7)),
                CustomerItem::Customer(customer(id)),
            ]
        })
        .collect();
    assert_eq!(items, expected);
}

#[tokio::test]
async fn a_batch_get_fills_a_collection_of_several_types_in_the_order_asked() {
    let (_dynamo, db) = app_table().await;
    let addresses = [3u16, 1, 2].map(|seq| Address {
        customer_id: 42,
        seq,
        city: format!("city {seq}"),
    });
    let mut batch = db
        .batch_write()
        .put(&customer(42))
        .put(&order(42, 9))
        .put(&order(42, 8));
    for address in &addresses {
        batch = batch.put(address);
    }
    batch.await.unwrap();

    let view: CustomerView = db
        .batch_get()
        .get(Address::key(42, 2u16).unwrap())
        .get(order(42, 8).primary_key().unwrap())
        .get(Customer::key(42).unwrap())
        .get(Address::key(42, 3u16).unwrap())
        .get(order(42, 9).primary_key().unwrap())
        .get(Address::key(42, 99u16).unwrap()) // no such item
        .consistent_read(true)
        .collect()
        .await
        .unwrap();
    assert_eq!(view.customer, Some(customer(42)));
    let seqs: Vec<u16> = view.addresses.iter().map(|a| a.seq).collect();
    assert_eq!(seqs, [2, 3]);
    assert_eq!(view.orders, [order(42, 8), order(42, 9)]);
}

#[tokio::test]
async fn two_writes_to_one_key_are_refused_before_sending() {
    let (_dynamo, db, log) = logged_app_table().await;
    let err = db
        .batch_write()
        .put(&customer(1))
        .put(&customer(2))
        .put(&Customer {
            customer_id: 1,
            name: "again".into(),
        })
        .await
        .unwrap_err();
    assert!(err.is_duplicate_key(), "{err:?}");
    let message = err.to_string();
    assert!(message.contains("CUST#1 / PROFILE"), "{message}");

    let err = db
        .batch_write()
        .put(&order(1, 1))
        .delete(order(1, 1).primary_key().unwrap())
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::DuplicateKey, "{err:?}");
    assert!(
        err.to_string()
            .starts_with("BatchWriteItem addresses the key CUST#1 / ORDER#")
            && err
                .to_string()
                .contains("(a `CustomerOrder` and a `CustomerOrder`)"),
        "{err}"
    );
    assert_eq!(log.operations(), Vec::<String>::new());
}

#[tokio::test]
async fn a_key_read_twice_is_read_once_but_one_key_as_two_types_is_refused() {
    let (_dynamo, db, log) = logged_app_table().await;
    db.put(&customer(42)).await.unwrap();
    log.clear();

    let read: Vec<Customer> = db
        .batch_get()
        .get(Customer::key(42).unwrap())
        .get(Customer::key(42).unwrap())
        .collect()
        .await
        .unwrap();
    assert_eq!(read, [customer(42)]);
    assert_eq!(log.count("BatchGetItem"), 1);

    // A User key built by hand onto the customer's PK/SK.
    let as_user = Key::<User>::new(
        Customer::key(42).unwrap().partition().to_owned(),
        "PROFILE".into(),
    )
    .unwrap();
    log.clear();
    let err = db
        .batch_get()
        .get(Customer::key(42).unwrap())
        .get(as_user.clone())
        .collect::<Vec<CustomerOrUser>>()
        .await
        .unwrap_err();
    assert!(err.is_duplicate_key(), "{err:?}");
    assert_eq!(log.count("BatchGetItem"), 0);

    // Alone, the User key finds a customer's item (both types write the
    // sort key PROFILE): a typed error, never a mis-decoded User; its type
    // attribute says `customer`.
    let err = db
        .batch_get()
        .get(as_user)
        .collect::<Vec<User>>()
        .await
        .unwrap_err();
    assert!(
        err.kind() == ErrorKind::WrongType && err.entity() == Some("User"),
        "{err:?}"
    );
}

/// Customer and User both write the sort key PROFILE, under distinct
/// types (`customer`, `user`): one collection holds both.
#[derive(ddb_entity::Collection, Debug, PartialEq)]
enum CustomerOrUser {
    Customer(Customer),
    User(User),
}

#[tokio::test]
async fn a_collection_that_cannot_hold_a_type_asked_for_is_refused_before_sending() {
    let (_dynamo, db, log) = logged_app_table().await;
    let err = db
        .batch_get()
        .get(Customer::key(1).unwrap())
        .collect::<Vec<Ticket>>()
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains("`Customer` items") && err.to_string().contains("Ticket"),
        "{err}"
    );
    assert!(log.operations().is_empty());
}

#[tokio::test]
async fn an_item_over_400_kb_is_refused_before_sending_with_its_type_and_size() {
    let (dynamo, db, log) = logged_app_table().await;
    let big = Note {
        id: 1,
        text: "x".repeat(MAX_ITEM_SIZE),
    };
    let size = item_size(&big.to_item().unwrap());
    // A create also stores its write token: `_wt` and 21 characters.
    for (err, size) in [
        (db.batch_write().put(&big).await.unwrap_err(), size),
        (db.put(&big).await.unwrap_err(), size),
        (db.create(&big).await.unwrap_err(), size + 3 + 21),
    ] {
        assert!(err.is_item_too_large(), "{err:?}");
        assert_eq!(err.entity(), Some("Note"));
        assert!(
            err.to_string().contains(&format!(
                "A `Note` item is {size} bytes, over DynamoDB's item limit of 409600 bytes"
            )),
            "{err}"
        );
    }
    assert!(log.operations().is_empty(), "nothing was sent");

    // Exactly at the limit, DynamoDB takes it. (dynoxide measured the limit
    // against DynamoDB to the byte; moto stops at 405 000 bytes, a rounder
    // guess, so the cross-check writes a smaller item.)
    let limit = if dynamo.is_embedded() {
        MAX_ITEM_SIZE
    } else {
        400_000
    };
    let fits = Note {
        id: 2,
        text: "x".repeat(limit - (size - MAX_ITEM_SIZE)),
    };
    assert_eq!(item_size(&fits.to_item().unwrap()), limit);
    db.batch_write().put(&fits).await.unwrap();
    let read: Vec<Note> = db
        .batch_get()
        .get(Note::key(2u32).unwrap())
        .collect()
        .await
        .unwrap();
    assert_eq!(read, [fits]);
}

#[tokio::test]
async fn a_batch_past_16_mb_on_the_wire_is_split_below_25_writes() {
    let (_dynamo, db, log) = logged_app_table().await;
    // A control character is 1 byte of the item but 6 in the request's
    // JSON (`\u0001`): 7 notes of ~400 KB are ~17 MB on the wire, more
    // than one 16 MB request holds.
    let notes: Vec<Note> = (0..7)
        .map(|id| Note {
            id,
            text: "\u{1}".repeat(400_000),
        })
        .collect();
    let mut batch = db.batch_write();
    for note in &notes {
        assert!(item_size(&note.to_item().unwrap()) < MAX_ITEM_SIZE);
        batch = batch.put(note);
    }
    batch.await.unwrap();
    assert_eq!(log.count("BatchWriteItem"), 2);
    let read: Vec<Note> = db
        .batch_get()
        .get(Note::key(0u32).unwrap())
        .get(Note::key(6u32).unwrap())
        .consistent_read(true)
        .collect()
        .await
        .unwrap();
    assert_eq!(read, [notes[0].clone(), notes[6].clone()]);
}

#[tokio::test]
async fn numbers_dynamodb_cannot_store_are_refused_before_sending() {
    let (_dynamo, db, log) = logged_app_table().await;
    for value in [
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        1e300,
        f64::MAX,
        1e-200,
    ] {
        let reading = Reading { id: 1, value };
        for err in [
            db.batch_write().put(&reading).await.unwrap_err(),
            db.put(&reading).await.unwrap_err(),
        ] {
            assert_eq!(err.kind(), ErrorKind::InvalidNumber, "{value}: {err:?}");
            assert_eq!(err.entity(), Some("Reading"));
            assert!(
                err.to_string().starts_with("`Reading` holds ")
                    && err.to_string().contains(" in `value`, "),
                "{err}"
            );
        }
    }
    // serde_dynamo does not serialise 128-bit integers at all.
    let err = db
        .batch_write()
        .put(&Wide { id: 1, value: 1 })
        .await
        .unwrap_err();
    assert!(
        err.kind() == ErrorKind::Encode && err.entity() == Some("Wide"),
        "{err:?}"
    );
    assert!(log.operations().is_empty(), "nothing was sent");

    // The extremes DynamoDB does store come back unchanged.
    let kept = [
        1e125,
        -1e125,
        1e-130,
        2.5e-100,
        0.1 + 0.2,
        -0.0,
        f64::MIN_POSITIVE * 1e178,
    ];
    let mut batch = db.batch_write();
    for (id, value) in kept.iter().enumerate() {
        batch = batch.put(&Reading {
            id: id as u32,
            value: *value,
        });
    }
    batch.await.unwrap();
    let mut read = db.batch_get().consistent_read(true);
    for id in 0..kept.len() {
        read = read.get(Reading::key(id as u32).unwrap());
    }
    let read: Vec<Reading> = read.collect().await.unwrap();
    let values: Vec<f64> = read.iter().map(|r| r.value).collect();
    assert_eq!(values, kept);
}

#[tokio::test]
async fn a_versioned_entity_is_refused_in_a_batch_put_but_can_be_deleted() {
    let (_dynamo, db, log) = logged_app_table().await;
    let counter = Counter {
        name: "hits".into(),
        version: 0,
    };
    let err = db.batch_write().put(&counter).await.unwrap_err();
    assert!(err.to_string().contains("versioned"), "{err}");
    assert!(log.operations().is_empty());

    db.put(&counter).await.unwrap();
    db.batch_write()
        .delete(Counter::key("hits").unwrap())
        .await
        .unwrap();
    let gone = db
        .get(Counter::key("hits").unwrap())
        .consistent_read(true)
        .await
        .unwrap();
    assert_eq!(gone, None);
}

#[tokio::test]
async fn a_request_that_fails_for_good_stops_the_batch_and_accounts_for_every_write() {
    let (dynamo, _db, _log) = logged_app_table().await;
    let log = crate::support::RequestLog::default();
    let client = aws_sdk_dynamodb::Client::from_conf(
        dynamo.config_builder().interceptor(log.clone()).build(),
    );
    let missing = Db::<App>::new(client, dynamo.unique_table_name("missing"));

    let mut batch = missing.batch_write().concurrency(1);
    for id in 0..60 {
        batch = batch.put(&customer(id));
    }
    let err = batch.await.unwrap_err();
    assert!(err.is_resource_not_found(), "{err:?}");
    assert_eq!(err.unprocessed_writes().len(), 60);
    assert_eq!(
        log.count("BatchWriteItem"),
        1,
        "no request after a fatal error"
    );

    let err = missing
        .batch_get()
        .get(Customer::key(1).unwrap())
        .retry(BatchRetry::new())
        .collect::<Vec<Customer>>()
        .await
        .unwrap_err();
    assert!(err.is_resource_not_found(), "{err:?}");
    assert_eq!(err.unprocessed_keys().len(), 1);
    assert_eq!(err.unprocessed_keys()[0].entity(), "Customer");
}
