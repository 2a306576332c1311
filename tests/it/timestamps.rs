//! Created/updated timestamps maintained by the library.

use std::time::{SystemTime, UNIX_EPOCH};

use chrono::{DateTime, Utc};
use ddb_entity::Entity;
use serde::{Deserialize, Serialize};

use crate::support::{App, app_table};

/// Epoch-millisecond timestamps.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "NOTE#{id}", sk = "NOTE", created_at = "created", updated_at = "updated")]
struct Note {
    id: u32,
    text: String,
    #[serde(default)]
    created: u64,
    #[serde(default)]
    updated: u64,
}

/// chrono timestamps, unset while `None`.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "DOC#{id}", sk = "DOC", created_at = "created_at", updated_at = "updated_at")]
struct Doc {
    id: u32,
    created_at: Option<DateTime<Utc>>,
    updated_at: Option<DateTime<Utc>>,
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
}

#[tokio::test]
async fn a_write_sets_updated_and_keeps_a_set_created() {
    let (_dynamo, db) = app_table().await;
    let before = now_ms();
    db.create(&Note {
        id: 1,
        text: "first".into(),
        created: 0,
        updated: 0,
    })
    .await
    .unwrap();
    let first = db
        .get(Note::key(1u32).unwrap())
        .consistent_read(true)
        .await
        .unwrap()
        .unwrap();
    let after = now_ms();
    assert!((before..=after).contains(&first.created), "{first:?}");
    assert_eq!(first.updated, first.created);

    std::thread::sleep(std::time::Duration::from_millis(5));
    db.put(&Note {
        text: "second".into(),
        ..first.clone()
    })
    .await
    .unwrap();
    let second = db
        .get(Note::key(1u32).unwrap())
        .consistent_read(true)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(second.created, first.created, "creation time kept");
    assert!(second.updated > first.updated, "{second:?}");

    std::thread::sleep(std::time::Duration::from_millis(5));
    let third = db
        .update(Note::key(1u32).unwrap())
        .set(Note::fields().text, "third".into())
        .await
        .unwrap();
    assert_eq!(third.created, first.created);
    assert!(
        third.updated > second.updated,
        "an update moves updated: {third:?}"
    );
}

#[test]
fn chrono_timestamps_are_set_when_none() {
    let doc = Doc {
        id: 1,
        created_at: None,
        updated_at: None,
    };
    let item = doc.to_item().unwrap();
    let stored = Doc::from_item(item).unwrap();
    let created = stored.created_at.expect("set on write");
    let now: DateTime<Utc> = SystemTime::now().into();
    assert!((now - created).num_seconds().abs() < 60);
    assert_eq!(stored.updated_at, Some(created));

    let earlier: DateTime<Utc> = "2026-01-01T00:00:00Z".parse().unwrap();
    let kept = Doc::from_item(
        Doc {
            created_at: Some(earlier),
            ..stored
        }
        .to_item()
        .unwrap(),
    )
    .unwrap();
    assert_eq!(kept.created_at, Some(earlier));
}
