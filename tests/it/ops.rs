//! Get, put, create and delete of typed entities.

use crate::model::*;
use crate::support::{app_table, logged_app_table};

fn ticket(open_since: Option<chrono::NaiveDate>) -> Ticket {
    Ticket {
        customer_id: 42,
        ticket_id: 7,
        subject: "late parcel".into(),
        open_since,
    }
}

#[tokio::test]
async fn put_then_get_reads_the_entity_back_in_one_request_each() {
    let (_dynamo, db, log) = logged_app_table().await;
    let customer = Customer {
        customer_id: 42,
        name: "Ada".into(),
    };
    db.put(&customer).await.unwrap();
    let read = db
        .get(Customer::key(42).unwrap())
        .consistent_read(true)
        .await
        .unwrap();
    assert_eq!(read, Some(customer));
    assert_eq!(log.operations(), ["PutItem", "GetItem"]);
}

#[tokio::test]
async fn get_of_a_missing_key_is_none() {
    let (_dynamo, db) = app_table().await;
    assert_eq!(db.get(Customer::key(404).unwrap()).await.unwrap(), None);
}

#[tokio::test]
async fn put_replaces_and_create_refuses_an_existing_key() {
    let (_dynamo, db) = app_table().await;
    db.create(&ticket(None)).await.unwrap();

    let err = db
        .create(&ticket(Some(date(2026, 1, 1))))
        .await
        .unwrap_err();
    assert!(err.is_already_exists(), "{err:?}");
    assert!(err.is_condition_failed(), "{err:?}");
    assert!(err.to_string().contains("already exists"), "{err}");
    let stored = db
        .get(Ticket::key(42, 7u32).unwrap())
        .consistent_read(true)
        .await;
    assert_eq!(stored.unwrap(), Some(ticket(None)), "nothing was written");

    db.put(&ticket(Some(date(2026, 1, 1)))).await.unwrap();
    let stored = db
        .get(Ticket::key(42, 7u32).unwrap())
        .consistent_read(true)
        .await;
    assert_eq!(stored.unwrap(), Some(ticket(Some(date(2026, 1, 1)))));
}

#[tokio::test]
async fn delete_removes_and_can_return_the_old_entity() {
    let (_dynamo, db) = app_table().await;
    db.put(&ticket(None)).await.unwrap();

    let old = db
        .delete(Ticket::key(42, 7u32).unwrap())
        .returning_old()
        .await
        .unwrap();
    assert_eq!(old, Some(ticket(None)));
    assert_eq!(
        db.get(Ticket::key(42, 7u32).unwrap())
            .consistent_read(true)
            .await
            .unwrap(),
        None
    );

    // Deleting what is not there is fine, and says so.
    let old = db
        .delete(Ticket::key(42, 7u32).unwrap())
        .returning_old()
        .await
        .unwrap();
    assert_eq!(old, None);
    db.delete(Ticket::key(42, 7u32).unwrap()).await.unwrap();
}

#[tokio::test]
async fn reading_an_item_of_another_type_at_a_key_is_a_typed_error() {
    let (_dynamo, db) = app_table().await;
    db.put(&Customer {
        customer_id: 42,
        name: "Ada".into(),
    })
    .await
    .unwrap();
    // A key built by hand that lands on the customer's profile: reading it
    // as a User is refused, never mis-decoded (both types write the sort
    // key PROFILE): its type attribute says `customer`.
    let key = ddb_entity::Key::<User>::new(
        Customer::key(42).unwrap().partition().to_owned(),
        "PROFILE".into(),
    )
    .unwrap();
    let err = db.get(key).await.unwrap_err();
    assert!(
        err.kind() == ddb_entity::ErrorKind::WrongType && err.entity() == Some("User"),
        "{err:?}"
    );
}

#[tokio::test]
async fn an_invalid_key_fails_before_any_request() {
    let (_dynamo, db, log) = logged_app_table().await;
    let address = Address {
        customer_id: 1,
        seq: 1000, // the template declares 3 digits
        city: "Lyon".into(),
    };
    let err = db.put(&address).await.unwrap_err();
    assert!(err.is_key(), "{err:?}");
    assert!(log.operations().is_empty(), "{:?}", log.operations());
}

#[tokio::test]
async fn a_missing_table_is_a_typed_service_error() {
    let (dynamo, _db) = app_table().await;
    let missing = ddb_entity::Db::<crate::support::App>::new(dynamo.client(), "no-such-table");
    let err = missing.get(Customer::key(1).unwrap()).await.unwrap_err();
    assert!(err.is_resource_not_found(), "{err:?}");
    assert!(std::error::Error::source(&err).is_some());
    assert!(
        err.to_string().contains("GetItem on table `no-such-table`"),
        "{err}"
    );
}
