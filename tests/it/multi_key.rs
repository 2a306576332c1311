//! What the servers do with multi-attribute index keys (DynamoDB,
//! November 2025: a global index key of up to four partition and four sort
//! attributes, each in its native type). The library does not declare
//! them yet; this pins down, through the raw SDK, what both servers the
//! suite runs on accept and refuse, so that the typed support can be built
//! on behaviour both agree on.

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, AttributeValue, BillingMode, GlobalSecondaryIndex, KeySchemaElement,
    KeyType, Projection, ProjectionType, ScalarAttributeType,
};
use ddb_entity::local::LocalDynamo;

fn key(name: &str, kind: KeyType) -> KeySchemaElement {
    KeySchemaElement::builder()
        .attribute_name(name)
        .key_type(kind)
        .build()
        .expect("complete")
}

fn definition(name: &str, ty: ScalarAttributeType) -> AttributeDefinition {
    AttributeDefinition::builder()
        .attribute_name(name)
        .attribute_type(ty)
        .build()
        .expect("complete")
}

/// `(tournament, region)` → `(round, score)`: strings, then numbers.
async fn create(client: &Client, table: &str) {
    client
        .create_table()
        .table_name(table)
        .billing_mode(BillingMode::PayPerRequest)
        .key_schema(key("PK", KeyType::Hash))
        .attribute_definitions(definition("PK", ScalarAttributeType::S))
        .attribute_definitions(definition("tournament", ScalarAttributeType::S))
        .attribute_definitions(definition("region", ScalarAttributeType::S))
        .attribute_definitions(definition("round", ScalarAttributeType::N))
        .attribute_definitions(definition("score", ScalarAttributeType::N))
        .global_secondary_indexes(
            GlobalSecondaryIndex::builder()
                .index_name("ByRound")
                .key_schema(key("tournament", KeyType::Hash))
                .key_schema(key("region", KeyType::Hash))
                .key_schema(key("round", KeyType::Range))
                .key_schema(key("score", KeyType::Range))
                .projection(
                    Projection::builder()
                        .projection_type(ProjectionType::All)
                        .build(),
                )
                .build()
                .expect("complete"),
        )
        .send()
        .await
        .expect("a multi-attribute index is created");
}

/// The ids a Query of `condition` returns, or `None` for a
/// ValidationException.
async fn query(
    client: &Client,
    table: &str,
    condition: &str,
    values: &[(&str, AttributeValue)],
) -> Option<Vec<String>> {
    let mut request = client
        .query()
        .table_name(table)
        .index_name("ByRound")
        .key_condition_expression(condition);
    // `region` is a reserved word: every attribute goes by a placeholder.
    for (placeholder, name) in [
        ("#t", "tournament"),
        ("#r", "region"),
        ("#n", "round"),
        ("#s", "score"),
    ] {
        if condition.contains(placeholder) {
            request = request.expression_attribute_names(placeholder, name);
        }
    }
    for (placeholder, value) in values {
        request = request.expression_attribute_values(*placeholder, value.clone());
    }
    match request.send().await {
        Ok(output) => Some(
            output
                .items()
                .iter()
                .filter_map(|item| item.get("PK")?.as_s().ok().cloned())
                .collect(),
        ),
        Err(err) => {
            let code = err.as_service_error().and_then(|e| e.meta().code());
            assert_eq!(code, Some("ValidationException"), "{err:?}");
            None
        }
    }
}

#[tokio::test]
async fn both_servers_take_multi_attribute_index_keys() {
    let dynamo = LocalDynamo::start().await.expect("local DynamoDB starts");
    let client = dynamo.client();
    let table = dynamo.unique_table_name("multi");
    create(&client, &table).await;
    let described = client
        .describe_table()
        .table_name(&table)
        .send()
        .await
        .expect("described");
    let keys: Vec<(String, KeyType)> = described.table().expect("table").global_secondary_indexes()
        [0]
    .key_schema()
    .iter()
    .map(|k| (k.attribute_name().to_owned(), k.key_type().clone()))
    .collect();
    assert_eq!(keys.len(), 4, "{keys:?}");

    for (id, tournament, region, round, score) in [
        ("a", "T1", "eu", 1, 10),
        ("b", "T1", "eu", 1, 30),
        ("c", "T1", "eu", 2, 5),
        ("d", "T1", "us", 1, 50),
        ("e", "T2", "eu", 1, 1),
    ] {
        client
            .put_item()
            .table_name(&table)
            .item("PK", AttributeValue::S(id.into()))
            .item("tournament", AttributeValue::S(tournament.into()))
            .item("region", AttributeValue::S(region.into()))
            .item("round", AttributeValue::N(round.to_string()))
            .item("score", AttributeValue::N(score.to_string()))
            .send()
            .await
            .expect("put");
    }
    // Without every key attribute, an item is not in the index.
    client
        .put_item()
        .table_name(&table)
        .item("PK", AttributeValue::S("f".into()))
        .item("tournament", AttributeValue::S("T1".into()))
        .item("region", AttributeValue::S("eu".into()))
        .send()
        .await
        .expect("put");

    let s = |v: &str| AttributeValue::S(v.into());
    let n = |v: u32| AttributeValue::N(v.to_string());
    let (t1, eu) = ((":t", s("T1")), (":r", s("eu")));
    let partition = "#t = :t AND #r = :r";
    // Equality on every partition attribute; the sort attributes order the
    // result as numbers, left to right.
    assert_eq!(
        query(&client, &table, partition, &[t1.clone(), eu.clone()]).await,
        Some(vec!["a".into(), "b".into(), "c".into()])
    );
    assert_eq!(
        query(
            &client,
            &table,
            "#t = :t AND #r = :r AND #n = :n AND #s > :s",
            &[t1.clone(), eu.clone(), (":n", n(1)), (":s", n(15))]
        )
        .await,
        Some(vec!["b".into()])
    );
    assert_eq!(
        query(
            &client,
            &table,
            "#t = :t AND #r = :r AND #n BETWEEN :lo AND :hi",
            &[t1.clone(), eu.clone(), (":lo", n(2)), (":hi", n(9))]
        )
        .await,
        Some(vec!["c".into()])
    );
    // Refused: a partition attribute left out, and a condition on a later
    // sort attribute without equality on the earlier ones.
    assert_eq!(
        query(&client, &table, "#t = :t", std::slice::from_ref(&t1)).await,
        None
    );
    assert_eq!(
        query(
            &client,
            &table,
            "#t = :t AND #r = :r AND #s > :s",
            &[t1, eu, (":s", n(15))]
        )
        .await,
        None
    );
}
