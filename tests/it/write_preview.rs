//! A write's preview is what the server receives (issue 26, item 6): each
//! preview is compared, field by field, with the request body the SDK
//! sends for the same write (the same token given to both), captured by an
//! SDK interceptor; previews send nothing.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::{AttributeValue, TransactWriteItem};
use ddb_entity::Entity;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::support::{App, Gsi1, logged_app_table};

#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "NOTE#{id}", sk = "NOTE", version = "version")]
#[entity(index = Gsi1, pk = "AUTHOR#{author}", sk = "NOTE#{id}")]
struct Note {
    id: u32,
    author: String,
    text: String,
    #[serde(default)]
    views: u32,
    #[serde(default)]
    version: u64,
}

/// An attribute value as DynamoDB's JSON protocol writes it.
fn value(v: &AttributeValue) -> Value {
    match v {
        AttributeValue::S(s) => json!({ "S": s }),
        AttributeValue::N(n) => json!({ "N": n }),
        AttributeValue::Bool(b) => json!({ "BOOL": b }),
        AttributeValue::Null(b) => json!({ "NULL": b }),
        AttributeValue::Ss(s) => json!({ "SS": s }),
        AttributeValue::Ns(s) => json!({ "NS": s }),
        AttributeValue::L(l) => json!({ "L": l.iter().map(value).collect::<Vec<_>>() }),
        AttributeValue::M(m) => json!({ "M": map(m) }),
        other => panic!("not in these tests: {other:?}"),
    }
}

fn map(m: &HashMap<String, AttributeValue>) -> Value {
    Value::Object(m.iter().map(|(k, v)| (k.clone(), value(v))).collect())
}

/// The members of a request that are set, in the protocol's names.
fn members(fields: Vec<(&str, Option<Value>)>) -> Value {
    Value::Object(
        fields
            .into_iter()
            .filter_map(|(name, v)| v.map(|v| (name.to_owned(), v)))
            .collect::<Map<_, _>>(),
    )
}

fn names(n: Option<&HashMap<String, String>>) -> Option<Value> {
    n.map(|n| json!(n))
}

fn values(v: Option<&HashMap<String, AttributeValue>>) -> Option<Value> {
    v.map(map)
}

fn text(s: Option<&str>) -> Option<Value> {
    s.map(|s| json!(s))
}

/// The body of a single-item write, from its preview: what every one has,
/// and its own members (item or key, update expression).
macro_rules! single {
    ($p:expr, [$($own:expr),*]) => {
        members(vec![
            ("TableName", text($p.table_name())),
            $($own,)*
            ("ConditionExpression", text($p.condition_expression())),
            ("ExpressionAttributeNames", names($p.expression_attribute_names())),
            ("ExpressionAttributeValues", values($p.expression_attribute_values())),
            ("ReturnValues", text($p.return_values().map(|r| r.as_str()))),
            (
                "ReturnValuesOnConditionCheckFailure",
                text($p.return_values_on_condition_check_failure().map(|r| r.as_str())),
            ),
            ("ReturnConsumedCapacity", text($p.return_consumed_capacity().map(|r| r.as_str()))),
        ])
    };
}

/// A transaction action's body, the same way.
macro_rules! action {
    ($a:expr, [$($own:expr),*]) => {
        members(vec![
            ("TableName", text(Some($a.table_name()))),
            $($own,)*
            ("ConditionExpression", text($a.condition_expression())),
            ("ExpressionAttributeNames", names($a.expression_attribute_names())),
            ("ExpressionAttributeValues", values($a.expression_attribute_values())),
            (
                "ReturnValuesOnConditionCheckFailure",
                text($a.return_values_on_condition_check_failure().map(|r| r.as_str())),
            ),
        ])
    };
}

fn action(item: &TransactWriteItem) -> Value {
    if let Some(u) = item.update() {
        return json!({ "Update": action!(u, [("Key", Some(map(u.key()))), ("UpdateExpression", text(Some(u.update_expression())))]) });
    }
    if let Some(p) = item.put() {
        return json!({ "Put": action!(p, [("Item", Some(map(p.item())))]) });
    }
    let d = item.delete().expect("only updates, puts and deletes here");
    json!({ "Delete": action!(d, [("Key", Some(map(d.key())))]) })
}

#[tokio::test]
async fn every_write_preview_is_the_request_its_send_sends() {
    let (_dynamo, db, log) = logged_app_table().await;
    let then = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_780_000_000);
    let db = db.with_clock(move || then);
    let f = Note::fields();
    let note = Note {
        id: 1,
        author: "ada".into(),
        text: "first".into(),
        views: 0,
        version: 0,
    };

    // A create (a versioned entity's: type, index keys, version, token).
    let create = || db.create(&note).idempotency_token("create-1");
    let preview = create().preview().unwrap();
    assert!(log.operations().is_empty(), "a preview sends nothing");
    create().await.unwrap();
    let expected = single!(preview, [("Item", preview.item().map(map))]);
    assert_eq!(log.bodies("PutItem"), [expected]);
    let item = preview.item().unwrap();
    assert_eq!(item["GSI1PK"], AttributeValue::S("AUTHOR#ada".into()));
    assert_eq!(item["_wt"], AttributeValue::S("create-1".into()));

    // An update: the changes, the version, the token history.
    log.clear();
    let update = || {
        db.update(Note::key(1).unwrap())
            .set(f.text, "second".to_owned())
            .add(f.views, 1)
            .expect_version(1)
            .idempotency_token("update-1")
    };
    let preview = update().preview().unwrap();
    assert!(log.operations().is_empty(), "a preview sends nothing");
    let updated = update().await.unwrap();
    assert_eq!(
        (updated.text.as_str(), updated.views, updated.version),
        ("second", 1, 2)
    );
    let expected = single!(
        preview,
        [
            ("Key", preview.key().map(map)),
            ("UpdateExpression", text(preview.update_expression()))
        ]
    );
    assert_eq!(log.bodies("UpdateItem"), [expected]);
    let slots = preview.expression_attribute_names().unwrap();
    assert!(slots.values().any(|name| name == "_wt3"), "{preview:?}");

    // A refused update is refused by the preview too.
    let err = db.update(Note::key(1).unwrap()).preview().unwrap_err();
    assert_eq!(err.kind(), ddb_entity::ErrorKind::EmptyUpdate, "{err:?}");

    // A transaction.
    log.clear();
    let transaction = || {
        db.transact()
            .update(db.update(Note::key(1).unwrap()).add(f.views, 1))
            .put(&Note {
                id: 2,
                version: 0,
                ..note.clone()
            })
            .delete(Note::key(3).unwrap())
            .idempotency_token("transaction-1")
    };
    let preview = transaction().preview().unwrap();
    assert!(log.operations().is_empty(), "a preview sends nothing");
    transaction().await.unwrap();
    let expected = members(vec![
        (
            "TransactItems",
            Some(Value::Array(
                preview.transact_items().iter().map(action).collect(),
            )),
        ),
        ("ClientRequestToken", text(preview.client_request_token())),
        (
            "ReturnConsumedCapacity",
            text(preview.return_consumed_capacity().map(|r| r.as_str())),
        ),
    ]);
    assert_eq!(log.bodies("TransactWriteItems"), [expected]);

    // A delete.
    log.clear();
    let delete = || db.delete(Note::key(2).unwrap()).expect_version(1);
    let preview = delete().preview().unwrap();
    assert!(log.operations().is_empty(), "a preview sends nothing");
    delete().await.unwrap();
    let expected = single!(preview, [("Key", preview.key().map(map))]);
    assert_eq!(log.bodies("DeleteItem"), [expected]);
    assert!(db.get(Note::key(2).unwrap()).await.unwrap().is_none());
}
