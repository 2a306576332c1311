//! Tables without a sort key, and key attributes that are fields: *The
//! DynamoDB Book*'s session store, keyed by `session_token` alone, with a
//! `UserIndex` on `username`. Each key attribute is the field itself,
//! stored once as the string serde writes, with no prefix.

use ddb_entity::local::LocalDynamo;
use ddb_entity::{Db, Entity, Table};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    /// The session store: one item per token.
    pub struct Sessions {
        partition_key: "session_token",
        indexes: {
            /// Every session of a user: hash-only too.
            pub UserIndex = "UserIndex" { partition_key: "username" },
        },
    }
}

/// A session: its token *is* the table's key attribute, its username the
/// index's. No `PK`, no `SESSION#` prefix, each value stored once.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = Sessions, pk = session_token, type = "SESSION")]
#[entity(index = UserIndex, pk = username)]
pub struct Session {
    pub session_token: String,
    pub username: String,
    pub created_at: u64,
}

ddb_entity::table! {
    /// A hash-only table of templated keys.
    pub struct Counters { partition_key: "PK" }
}

/// A counter per name: a template on a table without a sort key.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = Counters, pk = "COUNTER#{name}")]
pub struct Counter {
    pub name: String,
    pub value: u64,
}

async fn sessions() -> (LocalDynamo, Db<Sessions>) {
    let dynamo = LocalDynamo::start().await.expect("local DynamoDB starts");
    let db = Db::<Sessions>::new(dynamo.client(), dynamo.unique_table_name("sessions"));
    db.create_table_if_missing()
        .await
        .expect("table is created");
    (dynamo, db)
}

fn session(token: &str, username: &str, created_at: u64) -> Session {
    Session {
        session_token: token.into(),
        username: username.into(),
        created_at,
    }
}

#[test]
fn a_key_without_a_sort_key_is_the_partition_alone() -> ddb_entity::Result<()> {
    assert_eq!(Sessions::SCHEMA.primary.sort_key, None);
    let key = Session::key("tok-1")?;
    assert_eq!((key.partition(), key.sort()), ("tok-1", ""));
    let attributes = key.to_attributes();
    assert_eq!(attributes.len(), 1);
    assert_eq!(
        attributes["session_token"].as_s().ok().map(String::as_str),
        Some("tok-1")
    );
    assert_eq!(Session::TYPE_TAG, "SESSION");
    assert_eq!(Counter::TYPE_TAG, "counter");
    assert_eq!(Counter::key("logins")?.partition(), "COUNTER#logins");
    // An empty raw key is refused before any request.
    assert!(Session::key("").unwrap_err().is_key());

    let item = session("tok-1", "alice", 7).to_item()?;
    let mut names: Vec<&str> = item.keys().map(String::as_str).collect();
    names.sort_unstable();
    assert_eq!(names, ["_type", "created_at", "session_token", "username"]);
    assert_eq!(Session::from_item(item)?, session("tok-1", "alice", 7));
    Ok(())
}

#[tokio::test]
async fn the_session_store() -> ddb_entity::Result<()> {
    let (_dynamo, db) = sessions().await;
    // Created again: the existing table matches its hash-only declaration.
    db.create_table_if_missing().await?;
    for (token, user, at) in [("t1", "alice", 1), ("t2", "alice", 2), ("t3", "bob", 3)] {
        db.create(&session(token, user, at)).await?;
    }
    assert!(
        db.create(&session("t1", "mallory", 9))
            .await
            .unwrap_err()
            .is_condition_failed(),
        "a token is one item"
    );
    assert_eq!(
        db.get(Session::key("t2")?).await?,
        Some(session("t2", "alice", 2))
    );

    // The stored item holds each value once, under the key attributes.
    let stored = db
        .client()
        .get_item()
        .table_name(db.table_name())
        .set_key(Some(Session::key("t1")?.to_attributes()))
        .send()
        .await
        .expect("GetItem")
        .item
        .expect("stored");
    assert_eq!(
        stored["session_token"].as_s().ok().map(String::as_str),
        Some("t1")
    );
    assert_eq!(
        stored["username"].as_s().ok().map(String::as_str),
        Some("alice")
    );
    // Nothing else: no prefixed copy of a key (the create's write token is
    // the library's one other attribute).
    let mut names: Vec<&str> = stored.keys().map(String::as_str).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        ["_type", "_wt", "created_at", "session_token", "username"],
        "{stored:?}"
    );

    // Every session of a user: one Query on the hash-only index.
    let mut of_alice: Vec<Session> = db
        .query(Session::user_index_partition("alice")?)
        .collect()
        .await?;
    of_alice.sort_by_key(|s| s.created_at);
    assert_eq!(
        of_alice,
        [session("t1", "alice", 1), session("t2", "alice", 2)]
    );
    // Page by page: the cursor is the raw key attributes, and resumes.
    let first: ddb_entity::op::Page<Vec<Session>> = db
        .query(Session::user_index_partition("alice")?)
        .page_size(1)
        .page()
        .await?;
    assert_eq!(first.items.len(), 1);
    let cursor = first.cursor.expect("a second session");
    let rest: Vec<Session> = db
        .query(Session::user_index_partition("alice")?)
        .after(cursor)
        .collect()
        .await?;
    assert_eq!(rest.len(), 1);
    assert_ne!(rest[0], first.items[0]);
    // A whole partition of the table: the one session.
    let one: Vec<Session> = db.query(Session::partition("t3")?).collect().await?;
    assert_eq!(one, [session("t3", "bob", 3)]);

    // Setting the raw index field moves the item in the index: its own
    // SET is the index key, written once.
    let fields = Session::fields();
    let moved = db
        .update(Session::key("t2")?)
        .set(fields.username, "carol".to_owned())
        .await?;
    assert_eq!(moved.username, "carol");
    let of_carol: Vec<Session> = db
        .query(Session::user_index_partition("carol")?)
        .collect()
        .await?;
    assert_eq!(of_carol, [session("t2", "carol", 2)]);

    // Batch and transaction keys carry the partition key alone.
    let got: Vec<Session> = db
        .batch_get()
        .get(Session::key("t1")?)
        .get(Session::key("t3")?)
        .get(Session::key("nope")?)
        .collect()
        .await?;
    assert_eq!(got.len(), 2);
    db.transact()
        .delete(Session::key("t1")?)
        .put(&session("t4", "alice", 4))
        .await?;
    let mut of_alice: Vec<Session> = db
        .query(Session::user_index_partition("alice")?)
        .collect()
        .await?;
    of_alice.sort_by_key(|s| s.created_at);
    assert_eq!(of_alice, [session("t4", "alice", 4)]);
    db.delete(Session::key("t4")?).await?;
    assert_eq!(db.get(Session::key("t4")?).await?, None);
    Ok(())
}

#[tokio::test]
async fn a_templated_key_on_a_hash_only_table() -> ddb_entity::Result<()> {
    let dynamo = LocalDynamo::start().await.expect("local DynamoDB starts");
    let db = Db::<Counters>::new(dynamo.client(), dynamo.unique_table_name("counters"));
    db.create_table_if_missing().await?;
    db.put(&Counter {
        name: "logins".into(),
        value: 1,
    })
    .await?;
    let fields = Counter::fields();
    let counter = db
        .update(Counter::key("logins")?)
        .add(fields.value, 2)
        .await?;
    assert_eq!(counter.value, 3);
    let all: Vec<Counter> = db.query(Counter::partition("logins")?).collect().await?;
    assert_eq!(all, [counter]);
    Ok(())
}

#[tokio::test]
async fn an_upsert_of_a_raw_keyed_session_writes_its_index_key_and_never_sets_its_own_key()
-> ddb_entity::Result<()> {
    let (_dynamo, db) = sessions().await;
    let f = Session::fields();
    // The token is the table's key attribute: the request's `Key` writes
    // it (DynamoDB refuses a SET of a key attribute), the body has it once.
    let created = db
        .upsert(Session::key("tok-1")?)
        .set(f.username, "ada".to_owned())
        .set(f.created_at, 7)
        .await?;
    assert_eq!(created, session("tok-1", "ada", 7));
    let by_user: Vec<Session> = db
        .query(Session::user_index_partition("ada")?)
        .collect()
        .await?;
    assert_eq!(by_user, [session("tok-1", "ada", 7)]);
    // Creating without the index's field is refused before sending: the
    // item would be a session missing from its user's sessions.
    let err = db
        .upsert(Session::key("tok-2")?)
        .set(f.created_at, 8)
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ddb_entity::ErrorKind::MissingKeyField);
    assert!(err.to_string().contains("username"), "{err}");
    assert!(db.get(Session::key("tok-2")?).await?.is_none());
    // Moving the session to another user moves its index key; the
    // creation time, which a new session would need, keeps its first value.
    db.upsert(Session::key("tok-1")?)
        .set(f.username, "bo".to_owned())
        .set_if_not_exists(f.created_at, 9)
        .await?;
    let ada: Vec<Session> = db
        .query(Session::user_index_partition("ada")?)
        .collect()
        .await?;
    assert!(ada.is_empty());
    let bo: Vec<Session> = db
        .query(Session::user_index_partition("bo")?)
        .collect()
        .await?;
    assert_eq!(bo, [session("tok-1", "bo", 7)]);
    Ok(())
}
