//! Typed writes cannot touch the wrong data (issue 10, items 7, 8, 10):
//!
//! - a write never touches an item of another type at its key (or one
//!   without a type attribute): the type attribute is part of every
//!   update's, delete's, put's and condition check's condition;
//! - what DynamoDB would refuse is refused before sending, naming the
//!   field: index keys too long or empty, numbers it cannot store in any
//!   value of an update or a condition, a transaction over 4 MB;
//! - a failed condition is decided from the stored item, read when the
//!   server does not return it, never from its absence.

use aws_sdk_dynamodb::types::AttributeValue;
use ddb_entity::key::KeyError;
use ddb_entity::{Condition, Db, Entity, ErrorKind, IndexEntry, IndexKey, Key, Partition, Primary};
use serde::{Deserialize, Serialize};

use crate::exactly_once::{Plan, lossy_table};
use crate::support::{App, Gsi1, Gsi2, RequestLog, logged_app_table, stored_item};

/// A customer profile.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
struct Profile {
    id: u64,
    name: String,
    visits: i64,
    tags: Option<Vec<f64>>,
}

/// Another type whose key template yields the same keys: a legacy record.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "CUST#{id}", sk = "PROFILE", type = "LEGACY")]
struct Legacy {
    id: u64,
    note: String,
}

/// A versioned type at the same keys again.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "CUST#{id}", sk = "PROFILE", type = "VPROFILE", version = "version")]
struct VersionedProfile {
    id: u64,
    name: String,
    #[serde(default)]
    version: u64,
}

impl Profile {
    fn clone_with_id(&self, id: u64) -> Profile {
        Profile { id, ..self.clone() }
    }
}

fn profile(id: u64) -> Profile {
    Profile {
        id,
        name: "Ada".into(),
        visits: 0,
        tags: None,
    }
}

/// Every way a typed write could reach the item at `CUST#14 / PROFILE`:
/// each is refused by the server's evaluation of its own condition and
/// leaves the stored item exactly as it was.
async fn every_write_leaves_it_untouched(db: &Db<App>, log: &RequestLog, found: Option<&str>) {
    let key = || Profile::key(14).unwrap();
    let before = stored_item(db, &key()).await;
    let f = Profile::fields();
    let check = |what: &str, err: ddb_entity::Error| {
        assert_eq!(err.kind(), ErrorKind::WrongType, "{what}: {err:?}");
        let entity = if what.starts_with("versioned") {
            "VersionedProfile"
        } else {
            "Profile"
        };
        assert_eq!(err.entity(), Some(entity), "{what}");
        assert_eq!(
            err.item_key(),
            Some((key().partition(), "PROFILE")),
            "{what}"
        );
        let message = err.to_string();
        assert!(message.contains("untouched"), "{what}: {message}");
        match found {
            Some(tag) => assert!(message.contains(&format!("\"{tag}\"")), "{message}"),
            None => assert!(message.contains("no type attribute"), "{message}"),
        }
    };
    log.clear();
    check(
        "set",
        db.update(key())
            .set(f.name, "renamed".into())
            .await
            .unwrap_err(),
    );
    check("add", db.update(key()).add(f.visits, 1).await.unwrap_err());
    check("remove", db.update(key()).remove(f.tags).await.unwrap_err());
    check("delete", db.delete(key()).await.unwrap_err());
    check(
        "delete returning old",
        db.delete(key()).returning_old().await.unwrap_err(),
    );
    check(
        "conditional delete",
        db.delete(key())
            .condition(f.visits.ge(0))
            .await
            .unwrap_err(),
    );
    check("put", db.put(&profile(14)).await.unwrap_err());
    check(
        "conditional put",
        db.put(&profile(14))
            .condition(Condition::item_exists())
            .await
            .unwrap_err(),
    );
    let versioned = VersionedProfile {
        id: 14,
        name: "v".into(),
        version: 3,
    };
    check("versioned put", db.put(&versioned).await.unwrap_err());
    check(
        "versioned update",
        db.update(VersionedProfile::key(14).unwrap())
            .set(VersionedProfile::fields().name, "w".into())
            .expect_version(3)
            .await
            .unwrap_err(),
    );
    // A create finds the key taken, whatever holds it.
    assert!(
        db.create(&profile(14))
            .await
            .unwrap_err()
            .is_already_exists()
    );
    // One request per write: the old item comes back with the failure.
    assert_eq!(log.operations().len(), 11, "{:?}", log.operations());

    // In a transaction, every kind of action is canceled on it.
    for tx in [
        db.transact().update(db.update(key()).add(f.visits, 1)),
        db.transact().delete(key()),
        db.transact().put(&profile(14)),
        db.transact()
            .condition_check(key(), f.visits.ge(0))
            .put(&profile(15)),
    ] {
        let err = tx.await.unwrap_err();
        assert!(
            err.is_transaction_canceled() && err.is_condition_failed(),
            "{err:?}"
        );
    }
    assert_eq!(db.get(Profile::key(15).unwrap()).await.ok().flatten(), None);

    assert_eq!(
        stored_item(db, &key()).await,
        before,
        "the item is untouched"
    );
}

#[tokio::test]
async fn a_typed_write_never_touches_an_item_of_another_type_at_its_key() {
    let (_dynamo, db, log) = logged_app_table().await;
    db.put(&Legacy {
        id: 14,
        note: "from the old system".into(),
    })
    .await
    .unwrap();
    every_write_leaves_it_untouched(&db, &log, Some("LEGACY")).await;
    // The legacy item is still readable as what it is.
    let legacy = db.get(Legacy::key(14).unwrap()).await.unwrap().unwrap();
    assert_eq!(legacy.note, "from the old system");
}

#[tokio::test]
async fn a_typed_write_never_touches_an_item_written_without_a_type() {
    let (_dynamo, db, log) = logged_app_table().await;
    let key = Profile::key(14).unwrap();
    let mut raw = key.to_attributes();
    raw.insert("name".into(), AttributeValue::S("Ada".into()));
    raw.insert("visits".into(), AttributeValue::N("5".into()));
    crate::support::put_raw(&db, raw).await;
    every_write_leaves_it_untouched(&db, &log, None).await;
}

#[tokio::test]
async fn an_update_of_an_item_with_an_ill_typed_field_says_it_was_applied_and_is_not_applied_twice()
{
    let (_dynamo, db, _log) = logged_app_table().await;
    db.put(&profile(7)).await.unwrap();
    // Another program stored `name` as a number.
    db.client()
        .update_item()
        .table_name(db.table_name())
        .set_key(Some(Profile::key(7).unwrap().to_attributes()))
        .update_expression("SET #n = :n")
        .expression_attribute_names("#n", "name")
        .expression_attribute_values(":n", AttributeValue::N("42".into()))
        .send()
        .await
        .unwrap();
    let f = Profile::fields();
    let add = || {
        db.update(Profile::key(7).unwrap())
            .add(f.visits, 1)
            .idempotency_token("visit-7-0001")
    };
    let err = add().await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::DecodeAfterWrite, "{err:?}");
    assert!(!err.is_retryable());
    assert!(err.to_string().contains("was applied"), "{err}");
    assert_eq!(err.item_key().map(|k| k.1), Some("PROFILE"));
    // The caller who sends it again with the same token adds nothing more.
    let err = add().await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::DecodeAfterWrite, "{err:?}");
    let stored = stored_item(&db, &Profile::key(7).unwrap()).await;
    assert_eq!(stored["visits"], AttributeValue::N("1".into()));
}

/// Keys from long values: a partition and a sort key in each index.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "DEVICE#{id}", sk = "DEVICE")]
#[entity(index = Gsi1, pk = "OWNER#{owner}", sk = "LABEL#{label}")]
#[entity(index = Gsi2, pk = "SERIAL#{serial}", sk = "DEVICE")] // sparse
struct Device {
    id: u32,
    owner: String,
    label: String,
    serial: Option<String>,
    reading: f64,
    history: Vec<f64>,
}

fn device() -> Device {
    Device {
        id: 1,
        owner: "ada".into(),
        label: "kitchen".into(),
        serial: None,
        reading: 1.5,
        history: vec![1.0, 2.0],
    }
}

#[tokio::test]
async fn every_index_key_an_item_writes_is_checked_before_sending() {
    let (_dynamo, db, log) = logged_app_table().await;
    let long = |n: usize| "x".repeat(n);
    // The sparse GSI2 only when its `Option` is `Some`.
    let cases = [
        (
            "GSI1",
            "GSI1PK",
            Device {
                owner: long(2048),
                ..device()
            },
        ),
        (
            "GSI1",
            "GSI1SK",
            Device {
                label: long(1024),
                ..device()
            },
        ),
        (
            "GSI2",
            "GSI2PK",
            Device {
                serial: Some(long(2100)),
                ..device()
            },
        ),
    ];
    for (index, attribute, value) in &cases {
        for err in [
            db.put(value).await.unwrap_err(),
            db.create(value).await.unwrap_err(),
            db.batch_write().put(value).await.unwrap_err(),
            db.transact().put(value).await.unwrap_err(),
        ] {
            // In a transaction, the action's error wraps the key's.
            let err = match std::error::Error::source(&err)
                .and_then(|source| source.downcast_ref::<ddb_entity::Error>())
            {
                Some(inner) if err.kind() == ErrorKind::InvalidAction => inner,
                _ => &err,
            };
            assert!(err.is_key(), "{err:?}");
            assert!(
                matches!(err.key_error(), Some(KeyError::TooLong { .. })),
                "{err:?}"
            );
            let message = err.to_string();
            assert!(
                message.contains(&format!(
                    "the `{index}` key attribute `{attribute}` of a `Device`"
                )),
                "{message}"
            );
        }
    }
    // The same values are refused when an update moves the index keys.
    let f = Device::fields();
    for err in [
        db.update(Device::key(1).unwrap())
            .set(f.owner, long(2100))
            .set(f.label, "kitchen".into())
            .await
            .unwrap_err(),
        db.update(Device::key(1).unwrap())
            .set(f.owner, "ada".into())
            .set(f.label, long(1100))
            .await
            .unwrap_err(),
        db.update(Device::key(1).unwrap())
            .set(f.serial, Some(long(3000)))
            .await
            .unwrap_err(),
    ] {
        assert!(err.is_key(), "{err:?}");
        assert!(
            matches!(err.key_error(), Some(KeyError::TooLong { .. })),
            "{err:?}"
        );
    }
    assert!(log.operations().is_empty(), "{:?}", log.operations());

    // At the limits, DynamoDB takes them; `None` writes no GSI2 key.
    let fits = Device {
        owner: long(2048 - "OWNER#".len()),
        label: long(1024 - "LABEL#".len()),
        ..device()
    };
    db.put(&fits).await.unwrap();
    let item = stored_item(&db, &Device::key(1).unwrap()).await;
    assert_eq!(item["GSI1PK"].as_s().unwrap().len(), 2048);
    assert_eq!(item["GSI1SK"].as_s().unwrap().len(), 1024);
    assert!(!item.contains_key("GSI2PK"));
}

/// A hand-written entity whose index entry is empty: the library's own
/// check catches what no generated builder made.
#[derive(Serialize, Deserialize)]
struct Handmade {
    id: u32,
}

impl Entity for Handmade {
    type Table = App;
    const RUST_NAME: &'static str = "Handmade";
    const TYPE_TAG: &'static str = "HANDMADE";
    const INDEXES: &'static [ddb_entity::IndexSchema] = &[<Gsi1 as ddb_entity::Index>::SCHEMA];

    fn primary_key(&self) -> ddb_entity::Result<Key<Self>> {
        Key::new(format!("HAND#{}", self.id), "HANDMADE".into())
    }

    fn index_entries(&self) -> ddb_entity::Result<Vec<IndexEntry>> {
        Ok(vec![IndexEntry {
            index: <Gsi1 as ddb_entity::Index>::SCHEMA,
            key: Some(IndexKey {
                partition: String::new(),
                sort: Some("x".repeat(1025)),
            }),
        }])
    }
}

impl ddb_entity::__private::EntityHooks for Handmade {
    fn index_changes(
        _: &Key<Self>,
        _: &ddb_entity::__private::Changes,
    ) -> ddb_entity::Result<Vec<ddb_entity::__private::IndexChange>> {
        Ok(Vec::new())
    }
}

#[tokio::test]
async fn hand_built_keys_are_checked_too() {
    let (_dynamo, db, log) = logged_app_table().await;
    let err = db.put(&Handmade { id: 1 }).await.unwrap_err();
    assert_eq!(err.key_error(), Some(&KeyError::EmptyKey), "{err:?}");
    assert!(err.to_string().contains("`GSI1PK`"), "{err}");
    assert!(
        Key::<Handmade>::new(String::new(), "HANDMADE".into())
            .unwrap_err()
            .is_key()
    );
    assert!(
        Key::<Handmade>::new("HAND#1".into(), String::new())
            .unwrap_err()
            .is_key()
    );
    assert!(
        Key::<Handmade>::new("x".repeat(2049), "S".into())
            .unwrap_err()
            .is_key()
    );
    assert!(
        Partition::<Primary<App>>::new(String::new())
            .unwrap_err()
            .is_key()
    );
    assert!(
        Partition::<Gsi1>::new("x".repeat(2049))
            .unwrap_err()
            .is_key()
    );
    assert!(log.operations().is_empty(), "{:?}", log.operations());
}

#[tokio::test]
async fn numbers_dynamodb_cannot_store_are_refused_in_every_value_before_sending() {
    let (_dynamo, db, log) = logged_app_table().await;
    let f = Device::fields();
    let key = || Device::key(1).unwrap();
    let named = |err: ddb_entity::Error, attribute: &str| {
        assert_eq!(err.kind(), ErrorKind::InvalidNumber, "{err:?}");
        assert_eq!(err.entity(), Some("Device"));
        assert!(
            err.to_string().contains(&format!("`{attribute}`")),
            "{attribute}: {err}"
        );
    };
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1e200, -1e-200] {
        named(
            db.update(key()).set(f.reading, bad).await.unwrap_err(),
            "reading",
        );
        named(
            db.update(key()).add(f.reading, bad).await.unwrap_err(),
            "reading",
        );
        named(
            db.update(key())
                .set(f.history, vec![1.0, bad])
                .await
                .unwrap_err(),
            "history[1]",
        );
        named(
            db.update(key())
                .set(f.reading, 2.0)
                .condition(f.reading.lt(bad))
                .await
                .unwrap_err(),
            "reading",
        );
        named(
            db.delete(key())
                .condition(f.reading.between(0.0, bad))
                .await
                .unwrap_err(),
            "reading",
        );
        named(
            db.put(&device())
                .condition(f.history.equals(vec![bad]))
                .await
                .unwrap_err(),
            "history[0]",
        );
        named(
            db.put(&Device {
                reading: bad,
                ..device()
            })
            .await
            .unwrap_err(),
            "reading",
        );
        // Inside a transaction: the action is refused, naming the number.
        for err in [
            db.transact()
                .update(db.update(key()).add(f.reading, bad))
                .await
                .unwrap_err(),
            db.transact()
                .condition_check(key(), f.reading.equals(bad))
                .await
                .unwrap_err(),
        ] {
            assert_eq!(err.kind(), ErrorKind::InvalidAction, "{err:?}");
            assert!(err.to_string().contains("`reading`"), "{err}");
        }
    }
    assert!(log.operations().is_empty(), "{:?}", log.operations());
}

/// Half of DynamoDB's item limit: two of them fit a transaction's 4 MB,
/// eleven do not.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "BLOB#{id}", sk = "BLOB")]
struct Blob {
    id: u32,
    data: String,
}

#[tokio::test]
async fn a_transaction_over_4_mb_is_refused_before_sending() {
    let (_dynamo, db, log) = logged_app_table().await;
    let blob = |id| Blob {
        id,
        data: "x".repeat(390_000),
    };
    let blobs: Vec<Blob> = (0..11).map(blob).collect();
    let mut tx = db.transact();
    for b in &blobs {
        tx = tx.put(b);
    }
    let err = tx.await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TransactionTooLarge, "{err:?}");
    assert!(err.to_string().contains("4 MB"), "{err}");
    assert!(log.operations().is_empty(), "{:?}", log.operations());
    // Ten fit.
    let mut tx = db.transact();
    for b in &blobs[..10] {
        tx = tx.put(b);
    }
    tx.await.unwrap();
    assert_eq!(log.count("TransactWriteItems"), 1);
}

/// Whether the server returns the old item with a failed condition or not,
/// the outcome is the same: it is decided from the stored item.
#[tokio::test]
async fn a_failed_condition_is_decided_from_the_stored_item_when_the_server_returns_none() {
    for forget in [false, true] {
        let plan = Plan {
            forget_old_items: forget,
            ..Plan::calm(11)
        };
        let (_dynamo, db, _clean, lossy) = lossy_table(plan, false).await;
        let f = Profile::fields();
        db.put(&profile(1)).await.unwrap();

        // The item exists, the caller's condition fails: not "not found".
        let err = db
            .update(Profile::key(1).unwrap())
            .add(f.visits, 1)
            .condition(f.name.equals("Grace".into()))
            .await
            .unwrap_err();
        assert!(err.is_condition_failed() && !err.is_not_found(), "{err:?}");
        let err = db
            .delete(Profile::key(1).unwrap())
            .condition(f.visits.gt(10))
            .await
            .unwrap_err();
        assert!(err.is_condition_failed() && !err.is_not_found(), "{err:?}");
        // The item is missing: "not found".
        let err = db
            .update(Profile::key(2).unwrap())
            .add(f.visits, 1)
            .await
            .unwrap_err();
        assert!(err.is_not_found(), "{err:?}");
        // Taken, stale and foreign are told apart the same way.
        assert!(
            db.create(&profile(1))
                .await
                .unwrap_err()
                .is_already_exists()
        );
        db.put(&VersionedProfile {
            id: 3,
            name: "v".into(),
            version: 0,
        })
        .await
        .unwrap();
        let err = db
            .put(&VersionedProfile {
                id: 3,
                name: "w".into(),
                version: 0,
            })
            .await
            .unwrap_err();
        assert_eq!(err.version_conflict(), Some((0, Some(1))), "{err:?}");
        db.put(&Legacy {
            id: 4,
            note: "old".into(),
        })
        .await
        .unwrap();
        let err = db
            .update(Profile::key(4).unwrap())
            .add(f.visits, 1)
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::WrongType, "{err:?}");

        // In a transaction too: an update whose condition fails on an
        // existing item is not "not found", a taken key is "already
        // exists", a missing item is "not found".
        let err = db
            .transact()
            .update(
                db.update(Profile::key(1).unwrap())
                    .add(f.visits, 1)
                    .condition(f.name.equals("Grace".into())),
            )
            .create(&profile(1).clone_with_id(5))
            .await
            .unwrap_err();
        let reasons = err.cancellation_reasons();
        assert!(
            reasons[0].is_condition_failed() && !reasons[0].is_not_found(),
            "{reasons:?}"
        );
        let err = db
            .transact()
            .create(&profile(1))
            .update(db.update(Profile::key(6).unwrap()).add(f.visits, 1))
            .await
            .unwrap_err();
        let reasons = err.cancellation_reasons();
        assert!(reasons[0].is_already_exists(), "{reasons:?}");
        assert!(reasons[1].is_not_found(), "{reasons:?}");

        // A failure without an item is read once: "no item came back" is
        // not "no item is stored" — until the handle has seen the server
        // return items with failures, after which a single write's missing
        // item costs no read (issue 24). With the items returned, that
        // leaves the transaction's missing update; without, every failure.
        let ledger = lossy.ledger();
        let (forgotten, read) = if forget { (7, 9) } else { (0, 1) };
        assert_eq!(ledger.forgotten, forgotten, "{ledger:?}");
        assert_eq!(ledger.delivered["GetItem"], read, "{ledger:?}");
    }
}
