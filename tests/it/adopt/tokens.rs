//! Write tokens on tables typed by key: off by default, so an update
//! leaves what hand-written SDK code leaves, byte for byte; declared on
//! (`write_tokens: true`), the token attribute is the one addition, and a
//! resent update is refused instead of applied twice. The resend here is
//! the very request the library sent, sent again through the raw SDK.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use ddb_entity::local::LocalDynamo;
use ddb_entity::{Db, Entity, Item, Table};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::support::RequestLog;

ddb_entity::table! {
    /// Another service's table, kept in its format.
    pub struct Plain { partition_key: "PK", sort_key: "SK", typed_by: Key }
}

ddb_entity::table! {
    /// The same format, plus the library's write tokens.
    pub struct Tokened { partition_key: "PK", sort_key: "SK", typed_by: Key, write_tokens: true }
}

/// `PK=USER#<email>`, `SK=PROFILE`, a visit counter.
#[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
#[entity(table = Plain, pk = "USER#{email}", sk = "PROFILE")]
struct PlainUser {
    email: String,
    name: String,
    visits: i64,
}

/// The same item on the tokened table.
#[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
#[entity(table = Tokened, pk = "USER#{email}", sk = "PROFILE")]
struct TokenedUser {
    email: String,
    name: String,
    visits: i64,
}

fn s(value: &str) -> AttributeValue {
    AttributeValue::S(value.to_owned())
}

/// What the hand-written code puts.
fn hand_user(email: &str, visits: i64) -> Item {
    HashMap::from([
        ("PK".to_owned(), s(&format!("USER#{email}"))),
        ("SK".to_owned(), s("PROFILE")),
        ("email".to_owned(), s(email)),
        ("name".to_owned(), s("Ann")),
        ("visits".to_owned(), AttributeValue::N(visits.to_string())),
    ])
}

fn key(email: &str) -> Item {
    HashMap::from([
        ("PK".to_owned(), s(&format!("USER#{email}"))),
        ("SK".to_owned(), s("PROFILE")),
    ])
}

/// A table of `T` on `dynamo` through a client whose requests are logged.
async fn table<T: Table>(dynamo: &LocalDynamo) -> (Db<T>, RequestLog) {
    let log = RequestLog::default();
    let config = dynamo.config_builder().interceptor(log.clone()).build();
    let client = aws_sdk_dynamodb::Client::from_conf(config);
    let db = Db::<T>::new(client, dynamo.unique_table_name("tokens"));
    db.create_table_if_missing().send().await.unwrap();
    (db, log)
}

async fn put_raw<T: Table>(db: &Db<T>, item: Item) {
    db.client()
        .put_item()
        .table_name(db.table_name())
        .set_item(Some(item))
        .send()
        .await
        .unwrap();
}

async fn stored<T: Table>(db: &Db<T>, email: &str) -> Item {
    db.client()
        .get_item()
        .table_name(db.table_name())
        .set_key(Some(key(email)))
        .consistent_read(true)
        .send()
        .await
        .unwrap()
        .item
        .unwrap()
}

/// An attribute value as the wire's JSON has it.
fn from_json(value: &Value) -> AttributeValue {
    let (kind, inner) = value.as_object().unwrap().iter().next().unwrap();
    match kind.as_str() {
        "S" => s(inner.as_str().unwrap()),
        "N" => AttributeValue::N(inner.as_str().unwrap().to_owned()),
        "BOOL" => AttributeValue::Bool(inner.as_bool().unwrap()),
        "NULL" => AttributeValue::Null(true),
        "L" => AttributeValue::L(inner.as_array().unwrap().iter().map(from_json).collect()),
        "M" => AttributeValue::M(
            inner
                .as_object()
                .unwrap()
                .iter()
                .map(|(k, v)| (k.clone(), from_json(v)))
                .collect(),
        ),
        other => panic!("no {other} in these tests"),
    }
}

/// Sends the UpdateItem whose JSON body is `body` once more, as the SDK
/// resends a request whose answer was lost: the same expressions, names
/// and values. Whether it was applied.
async fn resend(db: &Db<impl Table>, body: &Value) -> bool {
    let map = |field: &str| -> Option<HashMap<String, AttributeValue>> {
        body.get(field).map(|m| {
            m.as_object()
                .unwrap()
                .iter()
                .map(|(k, v)| (k.clone(), from_json(v)))
                .collect()
        })
    };
    let names = body.get("ExpressionAttributeNames").map(|m| {
        m.as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_owned()))
            .collect()
    });
    db.client()
        .update_item()
        .table_name(db.table_name())
        .set_key(map("Key"))
        .update_expression(body["UpdateExpression"].as_str().unwrap())
        .set_condition_expression(body["ConditionExpression"].as_str().map(str::to_owned))
        .set_expression_attribute_names(names)
        .set_expression_attribute_values(map("ExpressionAttributeValues"))
        .send()
        .await
        .is_ok()
}

#[tokio::test]
async fn without_tokens_an_update_writes_what_hand_written_code_writes() {
    let dynamo = LocalDynamo::start().await.unwrap();
    let (db, log) = table::<Plain>(&dynamo).await;
    const { assert!(!Plain::SCHEMA.write_tokens, "typed by key: off by default") };
    put_raw(&db, hand_user("ann@example.com", 1)).await;
    put_raw(&db, hand_user("bob@example.com", 1)).await;

    let ann = db
        .update(PlainUser::key("ann@example.com").unwrap())
        .add(PlainUser::fields().visits, 1)
        .await
        .unwrap();
    assert_eq!(ann.visits, 2);
    let sent = log.bodies("UpdateItem").remove(0);
    // The hand-written code's own update of the other copy.
    db.client()
        .update_item()
        .table_name(db.table_name())
        .set_key(Some(key("bob@example.com")))
        .update_expression("ADD visits :one")
        .expression_attribute_values(":one", AttributeValue::N("1".into()))
        .send()
        .await
        .unwrap();
    let mut bob = stored(&db, "bob@example.com").await;
    bob.extend(key("ann@example.com"));
    bob.insert("email".into(), s("ann@example.com"));
    assert_eq!(stored(&db, "ann@example.com").await, bob);
    assert_eq!(
        stored(&db, "ann@example.com").await,
        hand_user("ann@example.com", 2)
    );

    // What is lost: the same request resent after a lost answer applies
    // again, and the counter counts the visit twice.
    assert!(resend(&db, &sent).await);
    assert_eq!(
        stored(&db, "ann@example.com").await,
        hand_user("ann@example.com", 3)
    );
}

#[tokio::test]
async fn with_tokens_an_update_adds_the_token_alone_and_applies_once() {
    let dynamo = LocalDynamo::start().await.unwrap();
    let (db, log) = table::<Tokened>(&dynamo).await;
    put_raw(&db, hand_user("ann@example.com", 1)).await;

    db.update(TokenedUser::key("ann@example.com").unwrap())
        .add(TokenedUser::fields().visits, 1)
        .await
        .unwrap();
    let mut after = stored(&db, "ann@example.com").await;
    let token = after.remove(Tokened::SCHEMA.token_attribute).unwrap();
    assert_eq!(token.as_s().unwrap().len(), 21);
    // The token history's other slots (issue 30): the first update fills
    // them with its own token.
    for slot in ["_wt1", "_wt2", "_wt3"] {
        assert_eq!(after.remove(slot).as_ref(), Some(&token), "{slot}");
    }
    assert_eq!(after, hand_user("ann@example.com", 2));

    // The resend finds its own token and is refused: counted once.
    let sent = log.bodies("UpdateItem").remove(0);
    assert!(!resend(&db, &sent).await);
    let mut after = stored(&db, "ann@example.com").await;
    after.retain(|name, _| !name.starts_with(Tokened::SCHEMA.token_attribute));
    assert_eq!(after, hand_user("ann@example.com", 2));
    // No type attribute either way.
    assert!(!after.contains_key(Tokened::SCHEMA.type_attribute));
}
