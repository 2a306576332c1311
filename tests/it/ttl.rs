//! Time to live: enabled with the table, expired items hidden from reads
//! until DynamoDB gets round to deleting them.

use std::time::{SystemTime, UNIX_EPOCH};

use ddb_entity::local::LocalDynamo;
use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    /// A table whose items can expire.
    pub struct Sessions {
        partition_key: "PK",
        sort_key: "SK",
        ttl_attribute: "expires_at",
    }
}

/// A login session: gone an hour after it was made.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = Sessions, pk = "USER#{user}", sk = "SESSION#{id}")]
struct Session {
    user: String,
    id: u32,
    /// Epoch seconds; `None` never expires.
    expires_at: Option<u64>,
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

async fn sessions() -> (LocalDynamo, Db<Sessions>) {
    let dynamo = LocalDynamo::start().await.unwrap();
    let db = Db::<Sessions>::new(dynamo.client(), dynamo.unique_table_name("ttl"));
    db.create_table_if_missing().await.unwrap();
    (dynamo, db)
}

#[tokio::test]
async fn creating_the_table_turns_time_to_live_on_once() {
    let (_dynamo, db) = sessions().await;
    let described = db
        .client()
        .describe_time_to_live()
        .table_name(db.table_name())
        .send()
        .await
        .unwrap();
    let ttl = described.time_to_live_description().unwrap();
    assert_eq!(ttl.attribute_name(), Some("expires_at"));
    assert_eq!(
        db.create_table_if_missing().await.unwrap(),
        ddb_entity::op::Provisioned::AlreadyExisted
    );
}

#[tokio::test]
async fn reads_hide_expired_items_unless_asked() {
    let (_dynamo, db) = sessions().await;
    let session = |id, expires_at| Session {
        user: "ada".into(),
        id,
        expires_at,
    };
    let expired = session(1, Some(now() - 60));
    let alive = session(2, Some(now() + 3600));
    let forever = session(3, None);
    for s in [&expired, &alive, &forever] {
        db.put(s).await.unwrap();
    }

    assert_eq!(
        db.get(Session::key("ada", 1u32).unwrap()).await.unwrap(),
        None
    );
    let still_there = db
        .get(Session::key("ada", 1u32).unwrap())
        .include_expired(true)
        .await
        .unwrap();
    assert_eq!(
        still_there,
        Some(expired.clone()),
        "DynamoDB has not deleted it yet"
    );
    assert_eq!(
        db.get(Session::key("ada", 2u32).unwrap()).await.unwrap(),
        Some(alive.clone())
    );

    let visible: Vec<Session> = db
        .query(Session::partition("ada").unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(visible, [alive.clone(), forever.clone()]);
    let all: Vec<Session> = db
        .query(Session::partition("ada").unwrap())
        .include_expired(true)
        .all()
        .await
        .unwrap();
    assert_eq!(all, [expired, alive, forever]);

    // A count goes by the same rule, on the server.
    let query = || db.query(Session::partition("ada").unwrap());
    assert_eq!(query().count().await.unwrap(), 2);
    assert_eq!(query().include_expired(true).count().await.unwrap(), 3);
}

#[tokio::test]
async fn reads_go_by_the_handles_clock() {
    let (_dynamo, db) = sessions().await;
    let session = Session {
        user: "ada".into(),
        id: 1,
        expires_at: Some(1_773_484_260),
    };
    db.put(&session).await.unwrap();
    let at = |secs: u64| {
        let instant = UNIX_EPOCH + std::time::Duration::from_secs(secs);
        db.clone().with_clock(move || instant)
    };

    // A second before its time to live the session is there; at it, gone.
    let before = at(1_773_484_259);
    assert_eq!(
        before
            .get(Session::key("ada", 1u32).unwrap())
            .await
            .unwrap(),
        Some(session.clone())
    );
    let expired = at(1_773_484_260);
    assert_eq!(
        expired
            .get(Session::key("ada", 1u32).unwrap())
            .await
            .unwrap(),
        None
    );
    let listed: Vec<Session> = expired
        .query(Session::partition("ada").unwrap())
        .all()
        .await
        .unwrap();
    assert!(listed.is_empty());
    let batch: Vec<Session> = expired
        .batch_get()
        .get(Session::key("ada", 1u32).unwrap())
        .collect()
        .await
        .unwrap();
    assert!(batch.is_empty());
}
