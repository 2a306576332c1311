//! Drift: live tables changed behind the model's back, and every
//! difference reported.

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, CreateGlobalSecondaryIndexAction, GlobalSecondaryIndex,
    GlobalSecondaryIndexUpdate, KeySchemaElement, KeyType, Projection, ProjectionType,
    ProvisionedThroughput, ScalarAttributeType, TimeToLiveSpecification,
};
use ddb_entity::Db;
use ddb_entity::local::LocalDynamo;
use ddb_entity::model::DifferenceKind;

use super::ledger::Ledger;
use super::shop::App;

fn key(name: &str, kind: KeyType) -> KeySchemaElement {
    KeySchemaElement::builder()
        .attribute_name(name)
        .key_type(kind)
        .build()
        .unwrap()
}

fn string_attribute(name: &str) -> AttributeDefinition {
    AttributeDefinition::builder()
        .attribute_name(name)
        .attribute_type(ScalarAttributeType::S)
        .build()
        .unwrap()
}

fn projection(kind: ProjectionType) -> Projection {
    Projection::builder().projection_type(kind).build()
}

fn throughput(read: i64, write: i64) -> ProvisionedThroughput {
    ProvisionedThroughput::builder()
        .read_capacity_units(read)
        .write_capacity_units(write)
        .build()
        .unwrap()
}

/// Waits until the table and its indexes are ACTIVE (an index added by
/// UpdateTable backfills first).
async fn until_active(client: &Client, table: &str) {
    for _ in 0..200 {
        let described = client
            .describe_table()
            .table_name(table)
            .send()
            .await
            .unwrap();
        let table = described.table().unwrap();
        let active = table.table_status().is_some_and(|s| s.as_str() == "ACTIVE")
            && table
                .global_secondary_indexes()
                .iter()
                .all(|gsi| gsi.index_status().is_none_or(|s| s.as_str() == "ACTIVE"));
        if active {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("table {table} did not become ACTIVE");
}

#[tokio::test]
async fn an_index_added_behind_the_models_back_is_reported() {
    let dynamo = LocalDynamo::start().await.unwrap();
    let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("drift"));
    db.create_table_if_missing().await.unwrap();
    assert!(db.drift().await.unwrap().is_empty());

    dynamo
        .client()
        .update_table()
        .table_name(db.table_name())
        .attribute_definitions(string_attribute("GSI9PK"))
        .global_secondary_index_updates(
            GlobalSecondaryIndexUpdate::builder()
                .create(
                    CreateGlobalSecondaryIndexAction::builder()
                        .index_name("GSI9")
                        .key_schema(key("GSI9PK", KeyType::Hash))
                        .projection(projection(ProjectionType::KeysOnly))
                        .build()
                        .unwrap(),
                )
                .build(),
        )
        .send()
        .await
        .expect("UpdateTable adds an index");
    until_active(db.client(), db.table_name()).await;

    let drift = db.drift().await.unwrap();
    assert_eq!(drift.differences.len(), 1, "{drift}");
    let added = &drift.differences[0];
    assert_eq!(added.kind, DifferenceKind::UndeclaredIndex);
    assert_eq!(added.subject, "index `GSI9`");
    assert!(added.found.contains("`GSI9PK` (HASH)"), "{added}");
    // Not a request breaker: the table still serves the declared patterns.
    db.create_table_if_missing().await.unwrap();
}

#[tokio::test]
async fn a_table_made_by_hand_differs_in_every_way_it_was_made_differently() {
    let dynamo = LocalDynamo::start().await.unwrap();
    let client = dynamo.client();
    let name = dynamo.unique_table_name("by-hand");
    // `pk`/`sk` instead of `PK`/`SK`; provisioned; GSI1 keys-only on other
    // names; no GSI2.
    client
        .create_table()
        .table_name(&name)
        .attribute_definitions(string_attribute("pk"))
        .attribute_definitions(string_attribute("sk"))
        .attribute_definitions(string_attribute("gsi1pk"))
        .key_schema(key("pk", KeyType::Hash))
        .key_schema(key("sk", KeyType::Range))
        .billing_mode(BillingMode::Provisioned)
        .provisioned_throughput(throughput(1, 1))
        .global_secondary_indexes(
            GlobalSecondaryIndex::builder()
                .index_name("GSI1")
                .key_schema(key("gsi1pk", KeyType::Hash))
                .projection(projection(ProjectionType::KeysOnly))
                .provisioned_throughput(throughput(1, 1))
                .build()
                .unwrap(),
        )
        .send()
        .await
        .unwrap();
    until_active(&client, &name).await;

    let db = Db::<App>::new(client, name);
    let drift = db.drift().await.unwrap();
    let kinds: Vec<DifferenceKind> = drift.differences.iter().map(|d| d.kind).collect();
    assert_eq!(
        kinds,
        [
            DifferenceKind::PrimaryKey,
            DifferenceKind::IndexKeys,
            DifferenceKind::Projection,
            DifferenceKind::MissingIndex,
            DifferenceKind::Billing,
        ],
        "{drift}"
    );
    let text = drift.to_string();
    assert!(
        text.contains(
            "the primary key: declared `PK` (HASH), `SK` (RANGE), found `pk` (HASH), `sk` (RANGE)"
        ),
        "{text}"
    );
    assert!(
        text.contains("index `GSI1`: declared ALL, found KEYS_ONLY"),
        "{text}"
    );
    assert!(text.contains("index `GSI2` is missing"), "{text}");
    assert!(
        text.contains("the table's billing: declared PAY_PER_REQUEST, found PROVISIONED"),
        "{text}"
    );
    // What breaks requests is refused by create_table_if_missing.
    let err = db.create_table_if_missing().await.unwrap_err();
    assert_eq!(err.kind(), ddb_entity::ErrorKind::SchemaMismatch);
}

#[tokio::test]
async fn capacity_and_time_to_live_drift() {
    let dynamo = LocalDynamo::start().await.unwrap();
    let db = Db::<Ledger>::new(dynamo.client(), dynamo.unique_table_name("ledger"));
    db.create_table_if_missing().await.unwrap();
    let drift = db.drift().await.unwrap();
    assert!(drift.is_empty(), "{drift}");

    db.client()
        .update_table()
        .table_name(db.table_name())
        .provisioned_throughput(throughput(20, 20))
        .send()
        .await
        .expect("UpdateTable changes the table's capacity");
    until_active(db.client(), db.table_name()).await;
    db.client()
        .update_time_to_live()
        .table_name(db.table_name())
        .time_to_live_specification(
            TimeToLiveSpecification::builder()
                .enabled(false)
                .attribute_name("expires_at")
                .build()
                .unwrap(),
        )
        .send()
        .await
        .expect("UpdateTimeToLive turns it off");

    let drift = db.drift().await.unwrap();
    let found: Vec<(DifferenceKind, &str, &str)> = drift
        .differences
        .iter()
        .map(|d| (d.kind, d.declared.as_str(), d.found.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            (
                DifferenceKind::Capacity,
                "10 read / 10 write units",
                "20 read / 20 write units"
            ),
            (DifferenceKind::TimeToLive, "on for `expires_at`", "off"),
        ],
        "{drift}"
    );
}

#[tokio::test]
async fn a_missing_table_is_one_difference() {
    let dynamo = LocalDynamo::start().await.unwrap();
    let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("nowhere"));
    let drift = db.drift().await.unwrap();
    assert_eq!(drift.differences.len(), 1);
    assert_eq!(drift.differences[0].kind, DifferenceKind::MissingTable);
    assert!(drift.differences[0].kind.breaks_requests());
}
