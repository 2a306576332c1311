//! What the two servers do with table definitions where they part from
//! DynamoDB: why the declaration is checked before any request, and why
//! drift reads a billing mode the way it does.
//!
//! - An LSI on a table without a sort key, and capacity on an index of an
//!   on-demand table: DynamoDB and the embedded server refuse both; moto
//!   creates the table. `TableSchema::validate` refuses them first.
//! - A GSI of a provisioned table without its own capacity: DynamoDB
//!   refuses it; both servers accept it. The definition always states one
//!   (the table's by default), so it never depends on that.
//! - An index added by UpdateTable is `ACTIVE` at once on both (DynamoDB:
//!   `CREATING` while it backfills).
//! - A provisioned table's description: the embedded server has no
//!   `BillingModeSummary`, moto has one; drift reads the mode from the
//!   capacity when the summary is missing (DynamoDB's own convention).

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, CreateGlobalSecondaryIndexAction, GlobalSecondaryIndex,
    GlobalSecondaryIndexUpdate, KeySchemaElement, KeyType, LocalSecondaryIndex, Projection,
    ProjectionType, ProvisionedThroughput, ScalarAttributeType,
};
use ddb_entity::local::LocalDynamo;
use ddb_entity::{Db, ErrorKind, Table};

use super::ledger::Ledger;

fn key(name: &str, kind: KeyType) -> KeySchemaElement {
    KeySchemaElement::builder()
        .attribute_name(name)
        .key_type(kind)
        .build()
        .unwrap()
}

fn attribute(name: &str) -> AttributeDefinition {
    AttributeDefinition::builder()
        .attribute_name(name)
        .attribute_type(ScalarAttributeType::S)
        .build()
        .unwrap()
}

fn all() -> Projection {
    Projection::builder()
        .projection_type(ProjectionType::All)
        .build()
}

fn capacity() -> ProvisionedThroughput {
    ProvisionedThroughput::builder()
        .read_capacity_units(1)
        .write_capacity_units(1)
        .build()
        .unwrap()
}

/// Whether the server created the table.
async fn created(
    request: aws_sdk_dynamodb::operation::create_table::builders::CreateTableFluentBuilder,
) -> bool {
    request.send().await.is_ok()
}

#[tokio::test]
async fn what_dynamodb_refuses_is_refused_before_the_server_is_asked() {
    ddb_entity::table! {
        /// A local index needs a sort key to sort by another.
        pub struct HashOnly {
            partition_key: "PK",
            local_indexes: { pub ByName = "ByName" { sort_key: "name" } },
        }
    }
    ddb_entity::table! {
        /// Capacity on an index of an on-demand table.
        pub struct Mixed {
            partition_key: "PK",
            sort_key: "SK",
            indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", capacity: { read: 1, write: 1 } } },
        }
    }
    for (err, expected) in [
        (
            HashOnly::SCHEMA.validate().unwrap_err(),
            "needs a table with a sort key",
        ),
        (Mixed::SCHEMA.validate().unwrap_err(), "bills on demand"),
    ] {
        assert_eq!(err.kind(), ErrorKind::InvalidSchema);
        assert!(err.to_string().contains(expected), "{err}");
    }
    // And nothing is sent.
    let dynamo = LocalDynamo::start().await.unwrap();
    let db = Db::<Mixed>::new(dynamo.client(), dynamo.unique_table_name("mixed"));
    let err = db.create_table_if_missing().await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidSchema);
    assert!(
        db.drift().await.unwrap().differences[0].kind
            == ddb_entity::model::DifferenceKind::MissingTable
    );

    // What the servers do with the same requests, sent raw.
    let client: Client = dynamo.client();
    let lsi_on_hash_only = created(
        client
            .create_table()
            .table_name(dynamo.unique_table_name("lsi"))
            .attribute_definitions(attribute("PK"))
            .attribute_definitions(attribute("name"))
            .key_schema(key("PK", KeyType::Hash))
            .billing_mode(BillingMode::PayPerRequest)
            .local_secondary_indexes(
                LocalSecondaryIndex::builder()
                    .index_name("ByName")
                    .key_schema(key("PK", KeyType::Hash))
                    .key_schema(key("name", KeyType::Range))
                    .projection(all())
                    .build()
                    .unwrap(),
            ),
    )
    .await;
    let capacity_on_demand = created(
        client
            .create_table()
            .table_name(dynamo.unique_table_name("mixed"))
            .attribute_definitions(attribute("PK"))
            .attribute_definitions(attribute("GSI1PK"))
            .key_schema(key("PK", KeyType::Hash))
            .billing_mode(BillingMode::PayPerRequest)
            .global_secondary_indexes(
                GlobalSecondaryIndex::builder()
                    .index_name("GSI1")
                    .key_schema(key("GSI1PK", KeyType::Hash))
                    .projection(all())
                    .provisioned_throughput(capacity())
                    .build()
                    .unwrap(),
            ),
    )
    .await;
    let embedded = dynamo.is_embedded();
    assert_eq!(
        lsi_on_hash_only, !embedded,
        "moto accepts it, DynamoDB does not"
    );
    assert_eq!(
        capacity_on_demand, !embedded,
        "moto accepts it, DynamoDB does not"
    );
}

#[tokio::test]
async fn both_servers_accept_a_provisioned_index_without_capacity() {
    let dynamo = LocalDynamo::start().await.unwrap();
    let accepted = created(
        dynamo
            .client()
            .create_table()
            .table_name(dynamo.unique_table_name("no-capacity"))
            .attribute_definitions(attribute("PK"))
            .attribute_definitions(attribute("GSI1PK"))
            .key_schema(key("PK", KeyType::Hash))
            .billing_mode(BillingMode::Provisioned)
            .provisioned_throughput(capacity())
            .global_secondary_indexes(
                GlobalSecondaryIndex::builder()
                    .index_name("GSI1")
                    .key_schema(key("GSI1PK", KeyType::Hash))
                    .projection(all())
                    .build()
                    .unwrap(),
            ),
    )
    .await;
    assert!(
        accepted,
        "DynamoDB requires the index's capacity; neither server does"
    );
    // The definition states it for every index all the same.
    let input = ddb_entity::model::create_table_input(&Ledger::SCHEMA, "ledger").unwrap();
    assert!(
        input
            .global_secondary_indexes()
            .iter()
            .all(|gsi| gsi.provisioned_throughput().is_some())
    );
}

#[tokio::test]
async fn an_index_added_live_is_active_at_once_and_billing_is_described_differently() {
    let dynamo = LocalDynamo::start().await.unwrap();
    let client = dynamo.client();
    let db = Db::<Ledger>::new(client.clone(), dynamo.unique_table_name("live"));
    db.create_table_if_missing().await.unwrap();
    let added = client
        .update_table()
        .table_name(db.table_name())
        .attribute_definitions(attribute("GSI9PK"))
        .global_secondary_index_updates(
            GlobalSecondaryIndexUpdate::builder()
                .create(
                    CreateGlobalSecondaryIndexAction::builder()
                        .index_name("GSI9")
                        .key_schema(key("GSI9PK", KeyType::Hash))
                        .projection(all())
                        .provisioned_throughput(capacity())
                        .build()
                        .unwrap(),
                )
                .build(),
        )
        .send()
        .await
        .unwrap();
    let gsi9 = added
        .table_description()
        .unwrap()
        .global_secondary_indexes()
        .iter()
        .find(|gsi| gsi.index_name() == Some("GSI9"))
        .unwrap();
    assert_eq!(gsi9.index_status().map(|s| s.as_str()), Some("ACTIVE"));

    let described = client
        .describe_table()
        .table_name(db.table_name())
        .send()
        .await
        .unwrap();
    let summary = described.table().unwrap().billing_mode_summary();
    assert_eq!(summary.is_some(), !dynamo.is_embedded(), "{summary:?}");
    // Either way, drift reads it as provisioned: only the new index differs.
    let drift = db.drift().await.unwrap();
    assert_eq!(drift.differences.len(), 1, "{drift}");
}
