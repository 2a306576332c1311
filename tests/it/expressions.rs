//! Update and condition expressions beyond set/remove/add: document paths
//! into maps and lists, set and list operations, `if_not_exists`, and the
//! conditions `contains`, `size`, `attribute_type` and `IN` — typed from
//! the entity's fields, in updates, transactions and conditions.

use std::collections::HashMap;

use ddb_entity::{AttributeType, Condition, Db, Entity, ErrorKind, Set};
use serde::{Deserialize, Serialize};

use crate::support::{App, logged_app_table, stored_item};

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Address {
    city: String,
}

#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "PROFILE#{id}", sk = "PROFILE")]
struct Profile {
    id: u32,
    /// Keyed by a label, which may be a reserved word or hold `.` and `[`.
    addresses: HashMap<String, Address>,
    counters: HashMap<String, i64>,
    tags: Set<String>,
    years: Set<u16>,
    keys: Set<Vec<u8>>,
    #[serde(default)]
    history: Vec<String>,
    first_seen: Option<String>,
    status: String,
}

fn profile() -> Profile {
    Profile {
        id: 1,
        addresses: HashMap::from([("home".to_owned(), city("Paris"))]),
        counters: HashMap::new(),
        tags: Set::from(["rust"]),
        years: Set::new(),
        keys: Set::new(),
        history: vec!["a".into(), "b".into(), "c".into()],
        first_seen: None,
        status: "ACTIVE".into(),
    }
}

fn city(name: &str) -> Address {
    Address { city: name.into() }
}

async fn read(db: &Db<App>) -> Profile {
    db.get(Profile::key(1u32).unwrap())
        .consistent_read(true)
        .await
        .unwrap()
        .unwrap()
}

#[tokio::test]
async fn document_paths_reach_map_entries_and_list_elements_whatever_their_names() {
    let (_dynamo, db, log) = logged_app_table().await;
    db.put(&profile()).await.unwrap();
    let f = Profile::fields();
    log.clear();

    let updated = db
        .update(Profile::key(1u32).unwrap())
        // Reserved words, dots and brackets: every name is a placeholder.
        .set_at(f.addresses.key("name"), city("Lyon"))
        .set_at(f.addresses.key("a.b[0]#c"), city("Nice"))
        .remove_at(f.addresses.key("home"))
        .set_at(f.history.at(0), "A".to_owned())
        .remove_at(f.history.at(1))
        .add_at(f.counters.key("size"), 2)
        .await
        .unwrap();
    assert_eq!(log.operations(), ["UpdateItem"], "one request");
    assert_eq!(updated.addresses.len(), 2);
    assert_eq!(updated.addresses["name"], city("Lyon"));
    assert_eq!(updated.addresses["a.b[0]#c"], city("Nice"));
    assert_eq!(updated.history, ["A", "c"]);
    assert_eq!(updated.counters["size"], 2);

    // A counter inside a map: a missing one counts from 0.
    let again = db
        .update(Profile::key(1u32).unwrap())
        .add_at(f.counters.key("size"), 3)
        .add_at(f.counters.key("heart"), -1)
        .await
        .unwrap();
    assert_eq!(
        again.counters,
        HashMap::from([("size".into(), 5), ("heart".into(), -1)])
    );

    // Conditions read paths too.
    let err = db
        .update(Profile::key(1u32).unwrap())
        .set(f.status, "GONE".into())
        .condition(f.counters.key("size").gt(10))
        .await
        .unwrap_err();
    assert!(err.is_condition_failed(), "{err:?}");
    db.update(Profile::key(1u32).unwrap())
        .set(f.status, "BUSY".into())
        .condition(
            f.addresses
                .key("a.b[0]#c")
                .exists()
                .and(f.history.at(0).equals("A".into())),
        )
        .await
        .unwrap();
}

#[tokio::test]
async fn two_changes_of_one_place_are_refused_before_sending() {
    let (_dynamo, db, log) = logged_app_table().await;
    db.put(&profile()).await.unwrap();
    let f = Profile::fields();
    log.clear();
    let err = db
        .update(Profile::key(1u32).unwrap())
        .set(f.addresses, HashMap::new())
        .set_at(f.addresses.key("home"), city("Lyon"))
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidExpression, "{err:?}");
    assert!(
        err.to_string().contains("`addresses` and `addresses.home`"),
        "{err}"
    );
    assert!(log.operations().is_empty());
}

#[tokio::test]
async fn sets_of_strings_numbers_and_bytes_grow_and_shrink_atomically() {
    let (_dynamo, db, _log) = logged_app_table().await;
    db.put(&profile()).await.unwrap();
    let stored = stored_item(&db, &Profile::key(1u32).unwrap()).await;
    assert_eq!(stored["tags"].as_ss().unwrap(), &["rust"], "a DynamoDB set");
    assert!(
        !stored.contains_key("years"),
        "an empty set is no attribute"
    );

    let f = Profile::fields();
    let updated = db
        .update(Profile::key(1u32).unwrap())
        .add_to_set(f.tags, ["aws".to_owned(), "rust".to_owned()])
        .add_to_set(f.years, [2025, 2026])
        .add_to_set(f.keys, [vec![0u8, 1], vec![255]])
        .await
        .unwrap();
    assert_eq!(updated.tags, Set::from(["aws", "rust"]));
    assert_eq!(updated.years, Set::from([2025, 2026]));
    assert_eq!(updated.keys, Set::from([vec![0, 1], vec![255]]));
    let stored = stored_item(&db, &Profile::key(1u32).unwrap()).await;
    assert!(
        stored["years"].is_ns() && stored["keys"].is_bs(),
        "{stored:?}"
    );

    let updated = db
        .update(Profile::key(1u32).unwrap())
        .delete_from_set(f.tags, ["rust".to_owned(), "absent".to_owned()])
        .delete_from_set(f.years, [2025, 2026])
        // Nothing to add: no change (DynamoDB has no empty set to send).
        .add_to_set(f.keys, [])
        .await
        .unwrap();
    assert_eq!(updated.tags, Set::from(["aws"]));
    assert!(
        updated.years.is_empty(),
        "the last element took the attribute"
    );
    let stored = stored_item(&db, &Profile::key(1u32).unwrap()).await;
    assert!(!stored.contains_key("years"));

    // An update of nothing but empty set operations changes nothing.
    let err = db
        .update(Profile::key(1u32).unwrap())
        .add_to_set(f.tags, Vec::<String>::new())
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::EmptyUpdate);
}

#[derive(Entity, Serialize, Deserialize, Debug)]
#[entity(table = App, pk = "RAW#{id}", sk = "RAW")]
struct RawSet {
    id: u32,
    #[serde(with = "serde_dynamo::string_set")]
    tags: Vec<String>,
}

#[tokio::test]
async fn an_empty_set_dynamodb_cannot_store_is_refused_before_sending() {
    let (_dynamo, db, log) = logged_app_table().await;
    let err = db
        .put(&RawSet {
            id: 1,
            tags: Vec::new(),
        })
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::EmptySet, "{err:?}");
    assert!(err.to_string().contains("`tags`"), "{err}");
    assert!(log.operations().is_empty());
}

#[tokio::test]
async fn lists_grow_at_either_end_and_first_values_are_kept() {
    let (_dynamo, db, _log) = logged_app_table().await;
    let mut fresh = profile();
    fresh.history.clear();
    db.put(&fresh).await.unwrap();
    let f = Profile::fields();
    let updated = db
        .update(Profile::key(1u32).unwrap())
        .append(f.history, ["x".to_owned(), "y".to_owned()])
        .set_if_not_exists(f.first_seen, Some("2026-03-14".to_owned()))
        .await
        .unwrap();
    assert_eq!(updated.history, ["x", "y"], "a missing list is created");
    let updated = db
        .update(Profile::key(1u32).unwrap())
        .prepend(f.history, ["w".to_owned()])
        .set_if_not_exists(f.first_seen, Some("2026-04-01".to_owned()))
        .await
        .unwrap();
    assert_eq!(updated.history, ["w", "x", "y"]);
    assert_eq!(updated.first_seen.as_deref(), Some("2026-03-14"), "kept");
}

#[tokio::test]
async fn an_append_resent_with_its_token_is_applied_once() {
    let (_dynamo, db, _log) = logged_app_table().await;
    db.put(&profile()).await.unwrap();
    let f = Profile::fields();
    for _ in 0..2 {
        db.update(Profile::key(1u32).unwrap())
            .append(f.history, ["d".to_owned()])
            .add_to_set(f.years, [2026])
            .add_at(f.counters.key("n"), 1)
            .idempotency_token("append-d")
            .await
            .unwrap();
    }
    let stored = read(&db).await;
    assert_eq!(stored.history, ["a", "b", "c", "d"]);
    assert_eq!(stored.counters["n"], 1);
}

#[tokio::test]
async fn contains_size_attribute_type_and_in_decide_writes_and_checks() {
    let (dynamo, db, log) = logged_app_table().await;
    db.put(&profile()).await.unwrap();
    let f = Profile::fields();
    let key = || Profile::key(1u32).unwrap();
    let holds = |condition: Condition<Profile>| {
        let db = db.clone();
        async move {
            match db
                .update(Profile::key(1u32).unwrap())
                .add_at(f.counters.key("checks"), 1)
                .condition(condition)
                .await
            {
                Ok(_) => true,
                Err(err) if err.is_condition_failed() => false,
                Err(err) => panic!("{err:?}"),
            }
        }
    };
    assert!(holds(f.tags.contains("rust".into())).await);
    assert!(!holds(f.tags.contains("go".into())).await);
    assert!(holds(f.history.contains("b".into())).await);
    assert!(holds(f.status.contains("CTIV")).await);
    assert!(holds(f.status.begins_with("ACT")).await);
    assert!(holds(f.history.size().equals(3)).await);
    assert!(holds(f.tags.size().between(1, 2)).await);
    assert!(holds(f.addresses.size().gt(0)).await);
    assert!(holds(f.status.size().equals(6)).await);
    if dynamo.is_embedded() {
        // moto 5.2.5 fails the request (HTTP 500, "Invalid attribute name")
        // where DynamoDB evaluates the size of a missing attribute as false.
        assert!(
            !holds(f.years.size().ge(0)).await,
            "a missing set has no size"
        );
    }
    assert!(holds(f.tags.has_type(AttributeType::Ss)).await);
    assert!(holds(f.addresses.key("home").has_type(AttributeType::M)).await);
    assert!(!holds(f.status.has_type(AttributeType::N)).await);
    assert!(holds(f.status.is_in(["DISABLED".into(), "ACTIVE".into()])).await);
    assert!(!holds(f.status.is_in(["DISABLED".into()])).await);
    assert!(holds(f.first_seen.equals(None)).await);
    assert!(!holds(f.first_seen.not_equals(None)).await);

    // The same conditions guard a transaction's check.
    let other = || Profile::key(2u32).unwrap();
    db.put(&Profile { id: 2, ..profile() }).await.unwrap();
    let err = db
        .transact()
        .condition_check(key(), f.tags.contains("go".into()))
        .update(db.update(other()).set(f.status, "X".into()))
        .await
        .unwrap_err();
    assert!(
        err.is_transaction_canceled() && err.is_condition_failed(),
        "{err:?}"
    );
    db.transact()
        .condition_check(key(), f.status.is_in(["ACTIVE".into()]))
        .update(db.update(other()).set(f.status, "X".into()))
        .await
        .unwrap();

    // An IN of more than 100 values is refused before sending.
    log.clear();
    let err = db
        .update(key())
        .set(f.status, "X".into())
        .condition(f.status.is_in((0..101).map(|i| i.to_string())))
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidExpression, "{err:?}");
    assert!(err.to_string().contains("101 values"), "{err}");
    assert!(log.operations().is_empty());
}
