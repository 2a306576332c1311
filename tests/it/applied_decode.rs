//! Every write that was applied and then fails to decode says so (issue
//! 30): `DecodeAfterWrite`, "was applied, do not send it again", not
//! retryable. The update's and put/delete `returning_old` cases are in
//! guards.rs and verify.rs; here the other paths that return an item:
//! upsert, `update(…).returning_old()`, `upsert(…).returning_old()` and
//! `put(…).returning_new()`. Transactions and batch writes return no item,
//! so they decode nothing.

use aws_sdk_dynamodb::types::AttributeValue;
use ddb_entity::{Entity, Error, ErrorKind};
use serde::{Deserialize, Serialize, Serializer};

use crate::support::{App, app_table, stored_item};

#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "VISITS#{id}", sk = "VISITS")]
struct Visits {
    id: u32,
    #[serde(default)]
    visits: u32,
    #[serde(default)]
    name: String,
}

/// Written as text, read as a number: an entity whose own item does not
/// decode back.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "ODD#{id}", sk = "ODD")]
struct Odd {
    id: u32,
    #[serde(serialize_with = "as_text")]
    n: u32,
}

fn as_text<S: Serializer>(n: &u32, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&format!("n{n}"))
}

async fn visits(db: &ddb_entity::Db<App>, expected: &str) {
    let stored = stored_item(db, &Visits::key(1).unwrap()).await;
    assert_eq!(stored["visits"], AttributeValue::N(expected.into()));
}

fn applied(err: &Error, what: &str) {
    assert_eq!(err.kind(), ErrorKind::DecodeAfterWrite, "{what}: {err:?}");
    assert!(!err.is_retryable(), "{what}: {err}");
    let message = err.to_string();
    assert!(
        message.contains("was applied") && message.contains("do not send it again"),
        "{what}: {message}"
    );
}

#[tokio::test]
async fn upserts_and_returned_items_that_do_not_decode_say_the_write_was_applied() {
    let (_dynamo, db) = app_table().await;
    let f = Visits::fields();
    // Another program stored `name` as a number.
    let mut raw = Visits {
        id: 1,
        visits: 0,
        name: String::new(),
    }
    .to_item()
    .unwrap();
    raw.insert("name".into(), AttributeValue::N("42".into()));
    crate::support::put_raw(&db, raw).await;
    let key = || Visits::key(1).unwrap();

    let upsert = || {
        db.upsert(key())
            .add(f.visits, 1)
            .idempotency_token("visit-1")
    };
    applied(&upsert().await.unwrap_err(), "upsert");
    visits(&db, "1").await;
    // Sent again with the same token: recognised, applied once.
    applied(&upsert().await.unwrap_err(), "upsert again");
    visits(&db, "1").await;

    let err = db
        .update(key())
        .add(f.visits, 1)
        .returning_old()
        .await
        .unwrap_err();
    applied(&err, "update returning old");
    visits(&db, "2").await;
    let err = db
        .upsert(key())
        .add(f.visits, 1)
        .returning_old()
        .await
        .unwrap_err();
    applied(&err, "upsert returning old");
    visits(&db, "3").await;

    // A put returning what it wrote, of an entity that does not read back.
    let odd = Odd { id: 1, n: 7 };
    let err = db.put(&odd).returning_new().await.unwrap_err();
    applied(&err, "put returning new");
    let stored = stored_item(&db, &Odd::key(1).unwrap()).await;
    assert_eq!(
        stored["n"],
        AttributeValue::S("n7".into()),
        "it was written"
    );
    let err = db
        .create(&Odd { id: 2, n: 8 })
        .returning_new()
        .await
        .unwrap_err();
    applied(&err, "create returning new");
}
