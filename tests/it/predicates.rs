//! Every predicate answers the same for a single write and for the same
//! write as an action of a canceled transaction.

use ddb_entity::{Entity, Error};
use serde::{Deserialize, Serialize};

use crate::support::{App, app_table};

/// Two entity types that share one key: the type guard tells them apart.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "PET#{id}", sk = "PET", type = "CAT", version = "version")]
struct Cat {
    id: u32,
    name: String,
    #[serde(default)]
    version: u64,
}

#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "PET#{id}", sk = "PET", type = "DOG")]
struct Dog {
    id: u32,
    name: String,
}

fn cat(id: u32, version: u64) -> Cat {
    Cat {
        id,
        name: "Tom".into(),
        version,
    }
}

/// What every predicate and accessor says of an error.
#[derive(Debug, PartialEq)]
struct Answers {
    condition_failed: bool,
    already_exists: bool,
    not_found: bool,
    version_conflict: bool,
    version: Option<(u64, Option<u64>)>,
    wrong_type: bool,
    transaction_conflict: bool,
    throttled: bool,
    retryable: bool,
    duplicate_key: bool,
    entity: Option<&'static str>,
    item_key: Option<(String, String)>,
}

fn answers(err: &Error) -> Answers {
    Answers {
        condition_failed: err.is_condition_failed(),
        already_exists: err.is_already_exists(),
        not_found: err.is_not_found(),
        version_conflict: err.is_version_conflict(),
        version: err.version_conflict(),
        wrong_type: err.is_wrong_type(),
        transaction_conflict: err.is_transaction_conflict(),
        throttled: err.is_throttled(),
        retryable: err.is_retryable(),
        duplicate_key: err.is_duplicate_key(),
        entity: err.entity(),
        item_key: err.item_key().map(|(p, s)| (p.to_owned(), s.to_owned())),
    }
}

/// Asserts that the single write and the transaction failed alike.
fn same(what: &str, single: Error, transaction: Error) -> Answers {
    assert!(!single.is_transaction_canceled(), "{what}: {single:?}");
    assert!(
        transaction.is_transaction_canceled(),
        "{what}: {transaction:?}"
    );
    let (one, all) = (answers(&single), answers(&transaction));
    assert_eq!(
        one, all,
        "{what}\n single: {single}\n transaction: {transaction}"
    );
    one
}

#[tokio::test]
async fn a_failed_write_answers_every_predicate_alike_alone_and_in_a_transaction() {
    let (_dynamo, db) = app_table().await;
    db.create(&cat(1, 0)).await.unwrap(); // stored at version 1
    db.put(&Dog {
        id: 2,
        name: "Rex".into(),
    })
    .await
    .unwrap();
    let f = Cat::fields();
    let key = |id: u32| Cat::key(id).unwrap();

    // A create whose key is taken.
    let single = db.create(&cat(1, 0)).await.unwrap_err();
    let transaction = db.transact().create(&cat(1, 0)).await.unwrap_err();
    let a = same("create, key taken", single, transaction);
    assert!(a.already_exists && a.condition_failed && !a.not_found && !a.wrong_type);
    assert_eq!(a.entity, Some("Cat"));

    // An update of a missing item.
    let single = db.update(key(9)).set(f.name, "x".into()).await.unwrap_err();
    let transaction = db
        .transact()
        .update(db.update(key(9)).set(f.name, "x".into()))
        .await
        .unwrap_err();
    let a = same("update, no item", single, transaction);
    assert!(a.not_found && a.condition_failed && !a.already_exists);

    // A stale version.
    let single = db.put(&cat(1, 0)).await.unwrap_err();
    let transaction = db.transact().put(&cat(1, 0)).await.unwrap_err();
    let a = same("put, stale version", single, transaction);
    assert!(a.version_conflict && a.condition_failed);
    assert_eq!(a.version, Some((0, Some(1))));
    let single = db
        .update(key(1))
        .set(f.name, "x".into())
        .expect_version(7)
        .await
        .unwrap_err();
    let transaction = db
        .transact()
        .update(db.update(key(1)).set(f.name, "x".into()).expect_version(7))
        .await
        .unwrap_err();
    let a = same("update, stale version", single, transaction);
    assert_eq!(a.version, Some((7, Some(1))));

    // An item of another type at the key: the type guard.
    let single = db.update(key(2)).set(f.name, "x".into()).await.unwrap_err();
    let transaction = db
        .transact()
        .update(db.update(key(2)).set(f.name, "x".into()))
        .await
        .unwrap_err();
    let a = same("update, another type", single, transaction);
    assert!(a.wrong_type && a.condition_failed && !a.not_found);
    let single = db.delete(key(2)).await.unwrap_err();
    let transaction = db.transact().delete(key(2)).await.unwrap_err();
    let a = same("delete, another type", single, transaction);
    assert!(a.wrong_type && a.condition_failed);
    let single = db.put(&cat(2, 0)).await.unwrap_err();
    let transaction = db.transact().put(&cat(2, 0)).await.unwrap_err();
    let a = same("put, another type", single, transaction);
    assert!(a.wrong_type && a.condition_failed && !a.already_exists);

    // The caller's own condition.
    let single = db
        .update(key(1))
        .set(f.name, "x".into())
        .condition(f.name.equals("Felix".into()))
        .await
        .unwrap_err();
    let transaction = db
        .transact()
        .update(
            db.update(key(1))
                .set(f.name, "x".into())
                .condition(f.name.equals("Felix".into())),
        )
        .await
        .unwrap_err();
    let a = same("update, condition", single, transaction);
    assert!(a.condition_failed && !a.not_found && !a.version_conflict && !a.wrong_type);
    assert!(!a.retryable && !a.throttled && !a.transaction_conflict && !a.duplicate_key);
    assert_eq!(
        a.item_key,
        Some((key(1).partition().to_owned(), "PET".to_owned()))
    );
}
