//! Read transactions: up to 100 typed keys of any entities, read as of
//! one instant into per-key results and collections, refused before
//! sending when DynamoDB would refuse them, and cancellations mapped back
//! to each key.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use aws_sdk_dynamodb::config::interceptors::BeforeDeserializationInterceptorContextMut;
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::error::BoxError;
use aws_smithy_runtime_api::http::StatusCode;
use aws_smithy_types::body::SdkBody;
use ddb_entity::local::LocalDynamo;
use ddb_entity::op::{ActionKind, CancellationCode};
use ddb_entity::{Db, Entity, ErrorKind};
use serde::{Deserialize, Serialize};

use crate::model::{Address, Customer, CustomerOrder, CustomerView, date};
use crate::support::{App, RequestLog, logged_app_table};

async fn seed(db: &Db<App>) {
    db.batch_write()
        .put(&Customer {
            customer_id: 42,
            name: "Ada".into(),
        })
        .put(&Address {
            customer_id: 42,
            seq: 1,
            city: "Paris".into(),
        })
        .put(&CustomerOrder {
            customer_id: 42,
            order_id: 7,
            placed: date(2026, 3, 14),
            total_cents: 1299,
        })
        .await
        .unwrap();
}

#[tokio::test]
async fn keys_of_several_types_are_read_in_one_request_per_key_and_as_a_collection() {
    let (_dynamo, db, log) = logged_app_table().await;
    seed(&db).await;
    log.clear();
    let order_key = || CustomerOrder::key(42u64, date(2026, 3, 14), 7u64).unwrap();
    let read = db
        .transact_get()
        .get(Customer::key(42).unwrap())
        .get(order_key())
        .get(Address::key(42, 1u16).unwrap())
        .get(Address::key(42, 2u16).unwrap()) // no such item
        .get(Customer::key(42).unwrap()) // twice: read once
        .await
        .unwrap();
    assert_eq!(log.operations(), ["TransactGetItems"]);
    assert_eq!((read.len(), read.found()), (4, 3));
    assert_eq!(
        read.get(&Customer::key(42).unwrap()).unwrap().unwrap().name,
        "Ada"
    );
    assert_eq!(read.get(&order_key()).unwrap().unwrap().total_cents, 1299);
    assert!(
        read.get(&Address::key(42, 2u16).unwrap())
            .unwrap()
            .is_none()
    );
    let err = read.get(&Customer::key(7).unwrap()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotInCollection, "{err:?}");

    let view: CustomerView = read.collect().unwrap();
    assert_eq!(view.customer.unwrap().name, "Ada");
    assert_eq!((view.addresses.len(), view.orders.len()), (1, 1));

    // Straight into a collection; nothing asked, nothing sent.
    log.clear();
    let view: CustomerView = db
        .transact_get()
        .get(Customer::key(42).unwrap())
        .collect()
        .await
        .unwrap();
    assert!(view.customer.is_some());
    let empty: Vec<Customer> = db.transact_get().collect().await.unwrap();
    assert!(empty.is_empty());
    assert_eq!(log.operations(), ["TransactGetItems"]);
}

/// Another entity type at a customer's key.
#[derive(Entity, Serialize, Deserialize, Debug)]
#[entity(table = App, pk = "CUST#{customer_id}", sk = "PROFILE", type = "LEGACY")]
struct LegacyProfile {
    customer_id: u64,
}

#[tokio::test]
async fn over_100_keys_a_key_of_two_types_or_an_item_of_another_type_are_refused() {
    let (dynamo, db, log) = logged_app_table().await;
    seed(&db).await;
    log.clear();
    let many = |n: u64| {
        (0..n).fold(db.transact_get(), |tx, id| {
            tx.get(Customer::key(id).unwrap())
        })
    };
    let err = many(101).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TransactionTooLarge, "{err:?}");
    let err = db
        .transact_get()
        .get(Customer::key(42).unwrap())
        .get(LegacyProfile::key(42u64).unwrap())
        .await
        .unwrap_err();
    assert!(err.is_duplicate_key(), "{err:?}");
    assert!(log.operations().is_empty(), "refused before sending");

    // DynamoDB takes 100 (since 2022); moto 5.2.5 still refuses over 25.
    let most = if dynamo.is_embedded() { 100 } else { 25 };
    let read = many(most).await.unwrap();
    let found = usize::from(most > 42); // customer 42 is stored
    assert_eq!((read.len(), read.found()), (most as usize, found));
    assert_eq!(log.operations(), ["TransactGetItems"]);

    let err = db
        .transact_get()
        .get(LegacyProfile::key(42u64).unwrap())
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::WrongType, "{err:?}");
    assert!(err.is_wrong_type());
}

/// Answers the next TransactGetItems as DynamoDB does when a transaction
/// is writing one of its items: canceled, the second key's reason
/// `TransactionConflict` (after the real server answered).
#[derive(Debug, Clone, Default)]
struct ConflictOnce(Arc<AtomicBool>);

impl Intercept for ConflictOnce {
    fn name(&self) -> &'static str {
        "ConflictOnce"
    }

    fn modify_before_deserialization(
        &self,
        context: &mut BeforeDeserializationInterceptorContextMut<'_>,
        _: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        if self.0.swap(false, Ordering::SeqCst) {
            let body = serde_json::json!({
                "__type": "com.amazonaws.dynamodb.v20120810#TransactionCanceledException",
                "Message": "Transaction cancelled, please refer cancellation reasons for specific reasons [None, TransactionConflict]",
                "CancellationReasons": [
                    { "Code": "None" },
                    { "Code": "TransactionConflict", "Message": "Transaction is ongoing for the item" },
                ],
            });
            let response = context.response_mut();
            *response.status_mut() = StatusCode::try_from(400)?;
            response.headers_mut().remove("content-length");
            *response.body_mut() = SdkBody::from(serde_json::to_vec(&body)?);
        }
        Ok(())
    }
}

#[tokio::test]
async fn a_canceled_read_transaction_names_each_key_and_is_retryable() {
    let dynamo = LocalDynamo::start().await.unwrap();
    let log = RequestLog::default();
    let conflict = ConflictOnce::default();
    let config = dynamo
        .config_builder()
        .interceptor(log.clone())
        .interceptor(conflict.clone())
        // The SDK would retry a conflict itself; the library's mapping is
        // what is tested here.
        .retry_config(aws_sdk_dynamodb::config::retry::RetryConfig::disabled())
        .build();
    let db = Db::<App>::new(
        aws_sdk_dynamodb::Client::from_conf(config),
        dynamo.unique_table_name("tget"),
    );
    db.create_table_if_missing().await.unwrap();
    seed(&db).await;
    conflict.0.store(true, Ordering::SeqCst);
    let read = || {
        db.transact_get()
            .get(Customer::key(42).unwrap())
            .get(Address::key(42, 1u16).unwrap())
    };
    let err = read().await.unwrap_err();
    assert!(
        err.is_transaction_canceled() && err.is_transaction_conflict(),
        "{err:?}"
    );
    assert!(err.is_retryable() && !err.is_condition_failed());
    let reasons = err.cancellation_reasons();
    assert_eq!(reasons.len(), 2);
    assert_eq!(
        (reasons[1].action(), reasons[1].entity(), reasons[1].code()),
        (
            ActionKind::Get,
            "Address",
            &CancellationCode::TransactionConflict
        )
    );
    assert_eq!(reasons[1].sort(), Address::key(42, 1u16).unwrap().sort());
    assert!(!reasons[0].is_failure());
    assert!(
        err.to_string().starts_with("TransactGetItems on table"),
        "{err}"
    );
    assert_eq!(err.entity(), Some("Address"));

    // Sent again, it reads.
    let again = read().await.unwrap();
    assert_eq!(again.found(), 2);
}
