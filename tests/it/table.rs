//! The foundation: a real server, a real table, real round trips.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use ddb_entity::local::LocalDynamo;
use ddb_entity::op::Provisioned;
use ddb_entity::{Db, ErrorKind, Table};

use crate::support::{App, app_table};

fn s(value: &str) -> AttributeValue {
    AttributeValue::S(value.to_owned())
}

#[tokio::test]
async fn creating_a_table_twice_is_a_no_op() {
    let dynamo = LocalDynamo::start().await.unwrap();
    let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("twice"));

    assert_eq!(
        db.create_table_if_missing().await.unwrap(),
        Provisioned::Created
    );
    assert_eq!(
        db.create_table_if_missing().await.unwrap(),
        Provisioned::AlreadyExisted
    );

    let described = db
        .client()
        .describe_table()
        .table_name(db.table_name())
        .send()
        .await
        .unwrap();
    let table = described.table().unwrap();
    let mut indexes: Vec<_> = table
        .global_secondary_indexes()
        .iter()
        .filter_map(|gsi| gsi.index_name())
        .collect();
    indexes.sort();
    assert_eq!(indexes, ["GSI1", "GSI2"]);
    assert_eq!(
        App::SCHEMA.key_attributes(),
        ["PK", "SK", "GSI1PK", "GSI1SK", "GSI2PK", "GSI2SK"]
    );
}

#[tokio::test]
async fn an_item_written_is_read_back_equal() {
    let (_dynamo, db) = app_table().await;
    let item = HashMap::from([
        ("PK".to_owned(), s("CUST#42")),
        ("SK".to_owned(), s("PROFILE")),
        ("_type".to_owned(), s("CUSTOMER")),
        ("name".to_owned(), s("Ada")),
        (
            "balance_cents".to_owned(),
            AttributeValue::N("-1250".into()),
        ),
    ]);
    db.client()
        .put_item()
        .table_name(db.table_name())
        .set_item(Some(item.clone()))
        .send()
        .await
        .unwrap();

    let read = db
        .client()
        .get_item()
        .table_name(db.table_name())
        .key("PK", s("CUST#42"))
        .key("SK", s("PROFILE"))
        .consistent_read(true)
        .send()
        .await
        .unwrap();
    assert_eq!(read.item(), Some(&item));
}

#[tokio::test]
async fn a_missing_item_is_none() {
    let (_dynamo, db) = app_table().await;
    let read = db
        .client()
        .get_item()
        .table_name(db.table_name())
        .key("PK", s("CUST#404"))
        .key("SK", s("PROFILE"))
        .send()
        .await
        .unwrap();
    assert_eq!(read.item(), None);
}

#[tokio::test]
async fn an_existing_table_with_other_keys_is_a_schema_mismatch() {
    ddb_entity::table! {
        /// The same table name, declared with different keys.
        struct Other { partition_key: "pk", sort_key: "sk" }
    }
    let (dynamo, db) = app_table().await;
    let other = Db::<Other>::new(dynamo.client(), db.table_name());

    let err = other.create_table_if_missing().await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::SchemaMismatch, "{err:?}");
    assert!(err.to_string().contains("primary key"), "{err}");
}

#[tokio::test]
async fn an_existing_table_missing_a_declared_index_is_a_schema_mismatch() {
    ddb_entity::table! {
        /// The app table plus an index the real table does not have.
        struct Grown {
            partition_key: "PK",
            sort_key: "SK",
            indexes: { GsiNew = "GSI9" { partition_key: "GSI9PK" } },
        }
    }
    let (dynamo, db) = app_table().await;
    let grown = Db::<Grown>::new(dynamo.client(), db.table_name());

    let err = grown.create_table_if_missing().await.unwrap_err();
    assert!(err.to_string().contains("index `GSI9` is missing"), "{err}");
}

#[tokio::test]
async fn an_invalid_schema_is_refused_before_any_request() {
    ddb_entity::table! {
        /// The type attribute collides with the sort key.
        struct Clash { partition_key: "PK", sort_key: "SK", type_attribute: "SK" }
    }
    // Nothing listens on port 9 of loopback: a request would fail with a
    // connection error, so a schema error proves nothing was sent.
    let dynamo = LocalDynamo::connect("http://127.0.0.1:9").unwrap();
    let db = Db::<Clash>::new(dynamo.client(), "clash");
    let err = db.create_table_if_missing().await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidSchema, "{err:?}");
}

#[tokio::test]
async fn an_invalid_table_name_is_refused_before_any_request() {
    // Nothing listens on port 9 of loopback: a request would fail with a
    // connection error, so a validation error proves nothing was sent.
    let dynamo = LocalDynamo::connect("http://127.0.0.1:9").unwrap();
    for name in ["no spaces allowed!", "ab", &"x".repeat(256)] {
        let db = Db::<App>::new(dynamo.client(), name);
        let err = db.create_table_if_missing().await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidSchema, "{name}: {err:?}");
        assert!(err.to_string().contains("table name"), "{err}");
    }
}
