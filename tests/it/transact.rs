//! Transactions: typed actions on several entity types in one
//! TransactWriteItems, all or nothing, refused before sending when
//! DynamoDB would refuse them, and cancellations mapped back to the
//! actions — including a `TransactionConflict` injected around the real
//! server.

use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, ready};

use aws_sdk_dynamodb::config::interceptors::{
    BeforeDeserializationInterceptorContextMut, BeforeTransmitInterceptorContextMut,
};
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::error::BoxError;
use aws_sdk_dynamodb::types::AttributeValue;
use aws_smithy_types::body::SdkBody;
use bytes::Bytes;
use ddb_entity::local::LocalDynamo;
use ddb_entity::op::{ActionKind, CancellationCode};
use ddb_entity::{Condition, Db, Entity, Error, ErrorKind, Key};
use http_body::Frame;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::model::{Address, Customer, CustomerOrder, Ticket, User, date};
use crate::support::{App, Gsi1, RequestLog, app_table, logged_app_table, stored_item};

/// GSI1 holds members by team, ordered by rank and name: a template of
/// three non-key fields, recomputed by updates.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "MEMBER#{id}", sk = "MEMBER")]
#[entity(index = Gsi1, pk = "TEAM#{team}", sk = "{rank:2}#{name}")]
struct Member {
    id: u32,
    team: String,
    rank: u8,
    name: String,
}

/// A balance under optimistic locking.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "ACCOUNT#{name}", sk = "ACCOUNT", version = "version")]
struct Account {
    name: String,
    balance: i64,
    #[serde(default)]
    version: u64,
}

fn customer(id: u64, name: &str) -> Customer {
    Customer {
        customer_id: id,
        name: name.into(),
    }
}

fn address(customer_id: u64, seq: u16, city: &str) -> Address {
    Address {
        customer_id,
        seq,
        city: city.into(),
    }
}

fn order(customer_id: u64, order_id: u64, total_cents: i64) -> CustomerOrder {
    CustomerOrder {
        customer_id,
        order_id,
        placed: date(2026, 3, 14),
        total_cents,
    }
}

fn account(name: &str, balance: i64, version: u64) -> Account {
    Account {
        name: name.into(),
        balance,
        version,
    }
}

async fn read<E: Entity<Table = App> + Send + Sync>(db: &Db<App>, key: Key<E>) -> Option<E> {
    db.get(key).consistent_read(true).await.unwrap()
}

#[tokio::test]
async fn one_failing_condition_cancels_every_action_and_nothing_is_written() {
    let (_dynamo, db) = app_table().await;
    db.put(&customer(42, "Ada")).await.unwrap();
    db.put(&address(42, 1, "Paris")).await.unwrap();
    let f = Customer::fields();

    let err = db
        .transact()
        .create(&order(42, 7, 500))
        .put(&address(42, 2, "Lyon"))
        .delete(Address::key(42, 1u16).unwrap())
        .update(
            db.update(Customer::key(42).unwrap())
                .set(f.name, "Ada L.".into())
                .condition(f.name.equals("Grace".into())),
        )
        .await
        .unwrap_err();
    assert!(err.is_transaction_canceled(), "{err:?}");
    assert!(err.is_condition_failed(), "{err:?}");
    assert!(!err.is_retryable() && !err.is_transaction_conflict());
    assert_eq!(err.code(), Some("TransactionCanceledException"));
    let codes: Vec<_> = err
        .cancellation_reasons()
        .iter()
        .map(|r| r.code().clone())
        .collect();
    assert_eq!(
        codes,
        [
            CancellationCode::None,
            CancellationCode::None,
            CancellationCode::None,
            CancellationCode::ConditionalCheckFailed
        ]
    );
    assert!(
        err.to_string()
            .contains("action 3 (update of a `Customer` at CUST#42 / PROFILE)"),
        "{err}"
    );

    // Nothing happened: no order, no second address, the first one kept.
    let order_key = || CustomerOrder::key(42, date(2026, 3, 14), 7).unwrap();
    assert_eq!(read(&db, order_key()).await, None);
    assert_eq!(read(&db, Address::key(42, 2u16).unwrap()).await, None);
    assert_eq!(
        read(&db, Address::key(42, 1u16).unwrap()).await,
        Some(address(42, 1, "Paris"))
    );
    assert_eq!(
        read(&db, Customer::key(42).unwrap()).await.unwrap().name,
        "Ada"
    );

    // With a condition that holds, everything happens.
    db.transact()
        .create(&order(42, 7, 500))
        .put(&address(42, 2, "Lyon"))
        .delete(Address::key(42, 1u16).unwrap())
        .update(
            db.update(Customer::key(42).unwrap())
                .set(f.name, "Ada L.".into())
                .condition(f.name.equals("Ada".into())),
        )
        .await
        .unwrap();
    assert_eq!(read(&db, order_key()).await, Some(order(42, 7, 500)));
    assert_eq!(
        read(&db, Address::key(42, 2u16).unwrap()).await,
        Some(address(42, 2, "Lyon"))
    );
    assert_eq!(read(&db, Address::key(42, 1u16).unwrap()).await, None);
    assert_eq!(
        read(&db, Customer::key(42).unwrap()).await.unwrap().name,
        "Ada L."
    );
}

#[tokio::test]
async fn actions_on_five_entity_types_are_one_request() {
    let (_dynamo, db, log) = logged_app_table().await;
    db.put(&address(42, 1, "Paris")).await.unwrap();
    db.put(&customer(42, "Ada")).await.unwrap();
    log.clear();

    let user = User {
        email: "ada@example.com".into(),
        name: "Ada".into(),
        active_since: Some(date(2026, 1, 1)),
    };
    let ticket = Ticket {
        customer_id: 42,
        ticket_id: 1,
        subject: "late".into(),
        open_since: Some(date(2026, 3, 1)),
    };
    let tx = db
        .transact()
        .put(&user)
        .put(db.create(&ticket))
        .put(&order(42, 7, 500))
        .delete(db.delete(Address::key(42, 1u16).unwrap()))
        .condition_check(
            Customer::key(42).unwrap(),
            Customer::fields().name.equals("Ada".into()),
        );
    assert_eq!(tx.len(), 5);
    tx.send().await.unwrap();
    assert_eq!(log.operations(), ["TransactWriteItems"]);

    assert_eq!(
        read(&db, User::key("ada@example.com").unwrap()).await,
        Some(user)
    );
    assert_eq!(
        read(&db, Ticket::key(42, 1u32).unwrap()).await,
        Some(ticket)
    );
    assert_eq!(
        read(&db, CustomerOrder::key(42, date(2026, 3, 14), 7).unwrap()).await,
        Some(order(42, 7, 500))
    );
    assert_eq!(read(&db, Address::key(42, 1u16).unwrap()).await, None);

    // Index keys are written as a put alone writes them.
    let item = stored_item(&db, &CustomerOrder::key(42, date(2026, 3, 14), 7).unwrap()).await;
    let alone = order(42, 7, 500).to_item().unwrap();
    assert_eq!(item["GSI1PK"], alone["GSI1PK"]);
    assert_eq!(item["GSI1SK"], alone["GSI1SK"]);

    // An empty transaction sends nothing.
    log.clear();
    let empty = db.transact();
    assert!(empty.is_empty());
    empty.await.unwrap();
    assert!(log.operations().is_empty());
}

#[tokio::test]
async fn an_update_in_a_transaction_recomputes_index_keys_and_leaves_sparse_indexes() {
    let (_dynamo, db, log) = logged_app_table().await;
    let ada = Member {
        id: 1,
        team: "FINANCE".into(),
        rank: 3,
        name: "Ada".into(),
    };
    let ticket = Ticket {
        customer_id: 42,
        ticket_id: 1,
        subject: "late".into(),
        open_since: Some(date(2026, 3, 1)),
    };
    db.put(&ada).await.unwrap();
    db.put(&ticket).await.unwrap();
    assert!(
        stored_item(&db, &Ticket::key(42, 1u32).unwrap())
            .await
            .contains_key("GSI2PK")
    );
    log.clear();

    let m = Member::fields();
    let t = Ticket::fields();
    db.transact()
        .update(
            db.update(Member::key(1u32).unwrap())
                .set(m.team, "RESEARCH".into())
                .set(m.rank, 4)
                .set(m.name, "Ada".into()),
        )
        .update(
            db.update(Ticket::key(42, 1u32).unwrap())
                .remove(t.open_since),
        )
        .await
        .unwrap();
    assert_eq!(log.operations(), ["TransactWriteItems"]);

    let member = stored_item(&db, &Member::key(1u32).unwrap()).await;
    let moved = Member {
        team: "RESEARCH".into(),
        rank: 4,
        ..ada.clone()
    };
    let alone = moved.to_item().unwrap();
    assert_eq!(member["GSI1PK"], AttributeValue::S("TEAM#RESEARCH".into()));
    assert_eq!(member["GSI1PK"], alone["GSI1PK"]);
    assert_eq!(member["GSI1SK"], alone["GSI1SK"]);
    assert_eq!(Member::from_item(member).unwrap(), moved);

    let closed = stored_item(&db, &Ticket::key(42, 1u32).unwrap()).await;
    assert!(!closed.contains_key("GSI2PK") && !closed.contains_key("GSI2SK"));
    assert!(!closed.contains_key("open_since"));
    let open: Vec<Ticket> = db
        .query(Ticket::gsi2_partition(date(2026, 3, 1)).unwrap())
        .all()
        .await
        .unwrap();
    assert!(open.is_empty(), "the closed ticket left the sparse index");

    // An update that cannot recompute its index key is refused before
    // sending, naming the action.
    log.clear();
    let err = db
        .transact()
        .put(&customer(1, "Grace"))
        .update(
            db.update(Member::key(1u32).unwrap())
                .set(m.team, "OPS".into()),
        )
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidAction, "{err:?}");
    assert_eq!(err.entity(), Some("Member"));
    let source = cause(&err);
    assert_eq!(source.kind(), ErrorKind::MissingKeyField, "{source:?}");
    assert!(source.to_string().contains("set `rank`"), "{source}");
    assert!(err.to_string().starts_with(
        "action 1 of the transaction (update of a `Member`) cannot be sent: updating `Member` changes index GSI1's key"
    ), "{err}");
    assert!(log.operations().is_empty());
}

#[tokio::test]
async fn versioned_entities_are_checked_and_bumped_inside_a_transaction() {
    let (_dynamo, db) = app_table().await;
    let key = |name: &str| Account::key(name).unwrap();

    // Creates store version 1.
    db.transact()
        .create(&account("alice", 100, 0))
        .put(&account("bob", 0, 0))
        .await
        .unwrap();
    let alice = read(&db, key("alice")).await.unwrap();
    let bob = read(&db, key("bob")).await.unwrap();
    assert_eq!((alice.version, bob.version), (1, 1));

    // A transfer: both at the version they were read at, both bumped.
    db.transact()
        .put(&Account {
            balance: 70,
            ..alice.clone()
        })
        .put(&Account {
            balance: 30,
            ..bob.clone()
        })
        .await
        .unwrap();
    let alice2 = read(&db, key("alice")).await.unwrap();
    assert_eq!((alice2.balance, alice2.version), (70, 2));

    // A second transfer from the stale read is refused as a version conflict.
    let err = db
        .transact()
        .put(&Account {
            balance: 0,
            ..bob.clone()
        })
        .put(&Account {
            balance: 40,
            ..alice.clone()
        })
        .await
        .unwrap_err();
    assert!(
        err.is_version_conflict() && err.is_condition_failed(),
        "{err:?}"
    );
    let reasons = err.cancellation_reasons();
    assert_eq!(reasons.len(), 2);
    for (reason, (name, found)) in reasons.iter().zip([("bob", 2), ("alice", 2)]) {
        let stale = reason.stale_version().expect("a version conflict");
        assert_eq!((stale.expected, stale.found), (1, Some(found)));
        assert_eq!(reason.partition(), key(name).partition());
        assert_eq!(reason.old::<Account>().unwrap().unwrap().version, 2);
    }
    assert!(
        err.to_string()
            .contains("version conflict: expected 1, found 2"),
        "{err}"
    );
    assert_eq!(read(&db, key("alice")).await.unwrap(), alice2);

    // Updates and deletes check the version they are given.
    let f = Account::fields();
    let err = db
        .transact()
        .update(
            db.update(key("alice"))
                .add(f.balance, -10)
                .expect_version(2),
        )
        .delete(db.delete(key("bob")).expect_version(1))
        .await
        .unwrap_err();
    let reasons = err.cancellation_reasons();
    assert!(!reasons[0].is_failure() && !reasons[0].is_version_conflict());
    assert_eq!(
        reasons[1].stale_version().map(|s| (s.expected, s.found)),
        Some((1, Some(2)))
    );
    assert_eq!(reasons[1].action(), ActionKind::Delete);
    db.transact()
        .update(
            db.update(key("alice"))
                .add(f.balance, -10)
                .expect_version(2),
        )
        .delete(db.delete(key("bob")).expect_version(2))
        .await
        .unwrap();
    let alice3 = read(&db, key("alice")).await.unwrap();
    assert_eq!((alice3.balance, alice3.version), (60, 3));
    assert_eq!(read(&db, key("bob")).await, None);

    // A create of a taken key is told apart from a version conflict.
    let err = db
        .transact()
        .create(&account("alice", 0, 0))
        .await
        .unwrap_err();
    let reason = &err.cancellation_reasons()[0];
    assert!(
        reason.is_already_exists() && !reason.is_version_conflict(),
        "{reason:?}"
    );
    assert!(!err.is_version_conflict() && err.is_condition_failed());
}

#[tokio::test]
async fn the_same_item_twice_and_more_than_100_actions_are_refused_before_sending() {
    let (_dynamo, db, log) = logged_app_table().await;
    let ada = customer(42, "Ada");

    let err = db
        .transact()
        .put(&address(42, 1, "Paris"))
        .put(&ada)
        .condition_check(Customer::key(42).unwrap(), Condition::item_exists())
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::DuplicateAction, "{err:?}");
    assert_eq!(err.item_key(), Some(("CUST#42", "PROFILE")));
    assert!(err.to_string().starts_with(
        "actions 1 (a `Customer`) and 2 (a `Customer`) of the transaction both address the item CUST#42 / PROFILE"
    ), "{err}");

    let too_many = (0..101).fold(db.transact(), |tx, id| tx.put(&customer(id, "x")));
    let err = too_many.await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TransactionTooLarge, "{err:?}");
    assert!(
        err.to_string()
            .contains("at most 100 actions, this one has 101"),
        "{err}"
    );

    // An action whose parts fail is named by index and entity type.
    let err = db
        .transact()
        .put(&ada)
        .put(&address(42, 1000, "Nowhere")) // seq is declared 3 digits wide
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidAction, "{err:?}");
    assert_eq!(err.entity(), Some("Address"));
    assert!(
        err.to_string()
            .starts_with("action 1 of the transaction (put of an `Address`)"),
        "{err}"
    );
    assert!(cause(&err).is_key(), "{err:?}");
    let err = db
        .transact()
        .update(db.update(Customer::key(42).unwrap()))
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidAction, "{err:?}");
    assert!(
        err.to_string()
            .starts_with("action 0 of the transaction (update of a `Customer`)"),
        "{err}"
    );
    assert_eq!(cause(&err).kind(), ErrorKind::EmptyUpdate);
    let other_table = Db::<App>::new(db.client().clone(), "another-table");
    let err = db.transact().put(other_table.put(&ada)).await.unwrap_err();
    assert!(err.to_string().contains("table `another-table`"), "{err}");
    let err = db
        .transact()
        .put(&ada)
        .idempotency_token("x".repeat(37))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("1 to 36 characters"), "{err}");
    assert!(log.operations().is_empty(), "{:?}", log.operations());

    // Exactly 100 actions go in one request.
    let full = (0..100).fold(db.transact(), |tx, id| tx.put(&customer(id, "x")));
    full.await.unwrap();
    assert_eq!(log.operations(), ["TransactWriteItems"]);
    assert_eq!(
        read(&db, Customer::key(99).unwrap()).await.unwrap().name,
        "x"
    );
}

#[tokio::test]
async fn every_cancellation_reason_names_its_action_entity_and_key() {
    let (_dynamo, db) = app_table().await;
    let user = User {
        email: "ada@example.com".into(),
        name: "Ada".into(),
        active_since: None,
    };
    db.put(&user).await.unwrap();
    db.put(&customer(42, "Ada")).await.unwrap();
    db.put(&address(42, 1, "Paris")).await.unwrap();

    let err = db
        .transact()
        .put(&customer(7, "Grace"))
        .create(&user)
        .update(
            db.update(Ticket::key(42, 9u32).unwrap())
                .set(Ticket::fields().subject, "late".into()),
        )
        .condition_check(
            Customer::key(42).unwrap(),
            Customer::fields().name.equals("Grace".into()),
        )
        .delete(
            db.delete(Address::key(42, 1u16).unwrap())
                .condition(Address::fields().city.equals("Lyon".into())),
        )
        .await
        .unwrap_err();
    let reasons = err.cancellation_reasons();
    let summary: Vec<_> = reasons
        .iter()
        .map(|r| {
            (
                r.index(),
                r.action(),
                r.entity(),
                r.partition(),
                r.sort(),
                r.code().as_str(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (0, ActionKind::Put, "Customer", "CUST#7", "PROFILE", "None"),
            (
                1,
                ActionKind::Create,
                "User",
                "USER#ada@example.com",
                "PROFILE",
                "ConditionalCheckFailed"
            ),
            (
                2,
                ActionKind::Update,
                "Ticket",
                "CUST#42",
                "TICKET#0000000009",
                "ConditionalCheckFailed"
            ),
            (
                3,
                ActionKind::ConditionCheck,
                "Customer",
                "CUST#42",
                "PROFILE",
                "ConditionalCheckFailed"
            ),
            (
                4,
                ActionKind::Delete,
                "Address",
                "CUST#42",
                "ADDR#001",
                "ConditionalCheckFailed"
            ),
        ]
    );
    assert!(reasons[1].is_already_exists());
    assert_eq!(reasons[1].old::<User>().unwrap().unwrap(), user);
    assert!(reasons[2].is_not_found() && reasons[2].old_item().is_none());
    assert_eq!(reasons[3].old::<Customer>().unwrap().unwrap().name, "Ada");
    assert_eq!(
        reasons[4].old::<Address>().unwrap().unwrap(),
        address(42, 1, "Paris")
    );
    assert!(
        reasons[4].old::<Customer>().unwrap().is_err(),
        "an old item is never decoded as the wrong type"
    );
    assert!(reasons[0].old_item().is_none() && !reasons[0].is_failure());
    for reason in &reasons[1..] {
        assert!(reason.is_condition_failed() && !reason.is_version_conflict());
    }
    // The message names the failed actions only.
    let message = err.to_string();
    assert!(!message.contains("action 0"), "{message}");
    assert!(
        message.contains("action 1 (create of a `User` at USER#ada@example.com / PROFILE): ConditionalCheckFailed (the key is taken)"),
        "{message}"
    );
    assert!(message.contains("(no item to update)"), "{message}");
    // Keys, never item values, in Debug output of the reasons.
    let debug = format!("{:?}", reasons[4]);
    assert!(
        debug.contains("ADDR#001") && !debug.contains("Paris"),
        "{debug}"
    );
    assert_eq!(read(&db, Customer::key(7).unwrap()).await, None);

    // Every action brings its old item back: the library classifies
    // failures by it.
    let err = db
        .transact()
        .create(&user)
        .delete(
            db.delete(Address::key(42, 1u16).unwrap())
                .condition(Address::fields().city.equals("Lyon".into())),
        )
        .await
        .unwrap_err();
    let reasons = err.cancellation_reasons();
    assert!(reasons[0].is_already_exists());
    assert!(reasons[1].is_condition_failed() && reasons[1].old_item().is_some());
}

#[tokio::test]
async fn an_idempotency_token_is_accepted_and_a_replay_writes_nothing_more() {
    let (_dynamo, db) = app_table().await;
    db.put(&account("alice", 0, 0)).await.unwrap();
    let f = Account::fields();
    let tx = || {
        db.transact()
            .update(db.update(Account::key("alice").unwrap()).add(f.balance, 10))
            .put(&customer(1, "Ada"))
            .idempotency_token("deposit-0001")
    };
    tx().await.unwrap();
    let after = read(&db, Account::key("alice").unwrap()).await.unwrap();
    assert_eq!((after.balance, after.version), (10, 2));

    // DynamoDB answers a replay with the same token (within ten minutes)
    // with success and writes nothing, and refuses the token on another
    // transaction. moto ignores the token: there the replay writes again.
    tx().await.unwrap();
    if std::env::var("DDB_ENDPOINT").is_err() {
        let again = read(&db, Account::key("alice").unwrap()).await.unwrap();
        assert_eq!(again, after, "the replay wrote nothing");

        let err = db
            .transact()
            .put(&customer(2, "Grace"))
            .idempotency_token("deposit-0001")
            .await
            .unwrap_err();
        assert_eq!(
            err.code(),
            Some("IdempotentParameterMismatchException"),
            "{err:?}"
        );
        assert!(!err.is_retryable() && !err.is_transaction_canceled());
        assert_eq!(read(&db, Customer::key(2).unwrap()).await, None);
    }
}

/// Makes the real server cancel chosen TransactWriteItems requests, then
/// makes the cancellation read `TransactionConflict` — what DynamoDB answers
/// when another transaction holds one of the items.
///
/// Before signing, the request gets one more action: a condition check on
/// an item that does not exist, so the server cancels the transaction
/// having applied nothing. Before deserialization, that action's reason is
/// dropped and the reason of action `conflicting` reads
/// `TransactionConflict`.
#[derive(Debug, Clone, Default)]
struct ConflictInjector(Arc<Mutex<Injection>>);

#[derive(Debug, Default)]
struct Injection {
    /// How many of the next TransactWriteItems requests to cancel.
    remaining: usize,
    /// The action whose reason reads `TransactionConflict`.
    conflicting: usize,
    /// The action count of the request in flight, when it was rewritten.
    in_flight: Option<usize>,
    /// Cancellations rewritten so far.
    injected: usize,
}

impl ConflictInjector {
    fn cancel_next(&self, requests: usize, conflicting: usize) {
        let mut state = self.0.lock().unwrap();
        state.remaining = requests;
        state.conflicting = conflicting;
    }

    fn injected(&self) -> usize {
        self.0.lock().unwrap().injected
    }
}

const FAULT_PARTITION: &str = "FAULT#not-there";

impl Intercept for ConflictInjector {
    fn name(&self) -> &'static str {
        "ConflictInjector"
    }

    fn modify_before_signing(
        &self,
        context: &mut BeforeTransmitInterceptorContextMut<'_>,
        _: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let request = context.request_mut();
        let target = request.headers().get("x-amz-target").unwrap_or_default();
        if !target.ends_with(".TransactWriteItems") {
            return Ok(());
        }
        let mut state = self.0.lock().unwrap();
        if state.remaining == 0 {
            return Ok(());
        }
        state.remaining -= 1;
        let body = request.body().bytes().ok_or("a streaming request body")?;
        let mut json: Value = serde_json::from_slice(body)?;
        let items = json["TransactItems"]
            .as_array_mut()
            .ok_or("no TransactItems")?;
        let actions = items.len();
        let table = items[0]
            .as_object()
            .and_then(|action| action.values().next())
            .and_then(|action| action["TableName"].as_str())
            .ok_or("no TableName")?
            .to_owned();
        items.push(json!({
            "ConditionCheck": {
                "TableName": table,
                "Key": { "PK": { "S": FAULT_PARTITION }, "SK": { "S": "FAULT" } },
                "ConditionExpression": "attribute_exists(#pk)",
                "ExpressionAttributeNames": { "#pk": "PK" },
            }
        }));
        // Not a request the caller made: the server must not remember it.
        json.as_object_mut()
            .ok_or("not an object")?
            .remove("ClientRequestToken");
        let body = serde_json::to_vec(&json)?;
        request
            .headers_mut()
            .insert("content-length", body.len().to_string());
        *request.body_mut() = SdkBody::from(body);
        state.in_flight = Some(actions);
        Ok(())
    }

    fn modify_before_deserialization(
        &self,
        context: &mut BeforeDeserializationInterceptorContextMut<'_>,
        _: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let mut state = self.0.lock().unwrap();
        let Some(actions) = state.in_flight.take() else {
            return Ok(());
        };
        state.injected += 1;
        let conflicting = state.conflicting;
        let response = context.response_mut();
        response.headers_mut().remove("content-length");
        let served = std::mem::replace(response.body_mut(), SdkBody::taken());
        *response.body_mut() = SdkBody::from_body_1_x(Rewrite {
            inner: served,
            read: Vec::new(),
            edit: Some((actions, conflicting)),
        });
        Ok(())
    }
}

/// The server's cancellation, with the injected action's reason dropped
/// and action `conflicting`'s reading `TransactionConflict`. Anything else
/// (the server did not cancel) is left as it is, for the test to see.
fn as_conflict(served: Vec<u8>, actions: usize, conflicting: usize) -> Vec<u8> {
    let Ok(mut json) = serde_json::from_slice::<Value>(&served) else {
        return served;
    };
    let canceled = json["__type"]
        .as_str()
        .is_some_and(|t| t.ends_with("TransactionCanceledException"));
    let Some(reasons) = json["CancellationReasons"].as_array_mut() else {
        return served;
    };
    let injected_failed = reasons.len() == actions + 1
        && reasons[actions]["Code"] == "ConditionalCheckFailed"
        && reasons[..actions].iter().all(|r| r["Code"] == "None");
    if !canceled || !injected_failed {
        return served;
    }
    reasons.truncate(actions);
    reasons[conflicting] = json!({
        "Code": "TransactionConflict",
        "Message": "Transaction is ongoing for the item",
    });
    let codes: Vec<&str> = reasons
        .iter()
        .map(|r| r["Code"].as_str().unwrap())
        .collect();
    let message = format!(
        "Transaction cancelled, please refer cancellation reasons for specific reasons [{}]",
        codes.join(", ")
    );
    let object = json.as_object_mut().unwrap();
    for field in ["message", "Message"] {
        if object.contains_key(field) {
            object.insert(field.to_owned(), Value::String(message.clone()));
        }
    }
    serde_json::to_vec(&json).unwrap()
}

/// A response body read whole, then handed on edited by [`as_conflict`].
struct Rewrite {
    inner: SdkBody,
    read: Vec<u8>,
    /// The action count and the conflicting action; `None` once handed on.
    edit: Option<(usize, usize)>,
}

impl http_body::Body for Rewrite {
    type Data = Bytes;
    type Error = aws_smithy_types::body::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let this = self.get_mut();
        loop {
            if this.edit.is_none() {
                return Poll::Ready(None);
            }
            match ready!(Pin::new(&mut this.inner).poll_frame(cx)) {
                Some(Ok(frame)) => {
                    if let Ok(data) = frame.into_data() {
                        this.read.extend_from_slice(&data);
                    }
                }
                Some(Err(err)) => return Poll::Ready(Some(Err(err))),
                None => {
                    let (actions, conflicting) = this.edit.take().expect("checked above");
                    let body = as_conflict(std::mem::take(&mut this.read), actions, conflicting);
                    return Poll::Ready(Some(Ok(Frame::data(Bytes::from(body)))));
                }
            }
        }
    }
}

/// A table whose client cancels the transactions the injector is told to.
async fn conflicting_app_table() -> (LocalDynamo, Db<App>, RequestLog, ConflictInjector) {
    let dynamo = LocalDynamo::start().await.expect("local DynamoDB starts");
    let log = RequestLog::default();
    let faults = ConflictInjector::default();
    let config = dynamo
        .config_builder()
        .interceptor(log.clone())
        .interceptor(faults.clone())
        .build();
    let db = Db::<App>::new(
        aws_sdk_dynamodb::Client::from_conf(config),
        dynamo.unique_table_name("it"),
    );
    db.create_table_if_missing().send().await.unwrap();
    log.clear();
    (dynamo, db, log, faults)
}

#[tokio::test]
async fn a_transaction_conflict_is_retryable_writes_nothing_and_a_retry_applies_once() {
    let (_dynamo, db, log, faults) = conflicting_app_table().await;
    db.put(&account("alice", 100, 0)).await.unwrap();
    let f = Account::fields();
    let transfer = || {
        db.transact()
            .update(
                db.update(Account::key("alice").unwrap())
                    .add(f.balance, -30),
            )
            .create(&account("bob", 30, 0))
            .put(&customer(1, "Ada"))
    };

    faults.cancel_next(1, 1);
    let err = transfer().await.unwrap_err();
    assert_eq!(faults.injected(), 1);
    assert!(err.is_transaction_canceled(), "{err:?}");
    assert!(
        err.is_transaction_conflict() && err.is_retryable(),
        "{err:?}"
    );
    assert!(!err.is_condition_failed() && !err.is_version_conflict());
    let reasons = err.cancellation_reasons();
    assert_eq!(reasons.len(), 3, "the injected action is not reported");
    assert!(reasons[1].is_transaction_conflict());
    assert_eq!(
        (
            reasons[1].index(),
            reasons[1].entity(),
            reasons[1].partition()
        ),
        (1, "Account", Account::key("bob").unwrap().partition())
    );
    assert_eq!(
        reasons[1].message(),
        Some("Transaction is ongoing for the item")
    );
    assert!(!reasons[0].is_failure() && !reasons[2].is_failure());
    assert!(
        err.to_string().contains(
            "action 1 (create of an `Account` at ACCOUNT#bob / ACCOUNT): TransactionConflict"
        ),
        "{err}"
    );
    // Nothing was written.
    let alice = read(&db, Account::key("alice").unwrap()).await.unwrap();
    assert_eq!((alice.balance, alice.version), (100, 1));
    assert_eq!(read(&db, Account::key("bob").unwrap()).await, None);
    assert_eq!(read(&db, Customer::key(1).unwrap()).await, None);

    // A retry loop: two more conflicts, then the transaction goes through,
    // once.
    faults.cancel_next(2, 0);
    log.clear();
    let mut attempts = 0;
    loop {
        attempts += 1;
        match transfer().await {
            Ok(()) => break,
            Err(err) if err.is_retryable() && attempts < 10 => {
                assert!(err.cancellation_reasons()[0].is_transaction_conflict());
            }
            Err(err) => panic!("{err:?}"),
        }
    }
    assert_eq!(attempts, 3);
    assert_eq!(faults.injected(), 3);
    assert_eq!(log.count("TransactWriteItems"), 3);
    let alice = read(&db, Account::key("alice").unwrap()).await.unwrap();
    assert_eq!((alice.balance, alice.version), (70, 2), "debited once");
    let bob = read(&db, Account::key("bob").unwrap()).await.unwrap();
    assert_eq!((bob.balance, bob.version), (30, 1));
    assert_eq!(
        read(&db, Customer::key(1).unwrap()).await.unwrap().name,
        "Ada"
    );
    // The injected condition check wrote nothing either.
    let stray = db
        .client()
        .get_item()
        .table_name(db.table_name())
        .key("PK", AttributeValue::S(FAULT_PARTITION.into()))
        .key("SK", AttributeValue::S("FAULT".into()))
        .send()
        .await
        .unwrap();
    assert!(stray.item.is_none());
}

/// The library error an error wraps (an invalid action's reason).
fn cause(err: &Error) -> &Error {
    std::error::Error::source(err)
        .and_then(|source| source.downcast_ref::<Error>())
        .expect("wraps a ddb_entity::Error")
}
