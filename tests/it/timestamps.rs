//! Created/updated timestamps maintained by the library.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

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

/// A clock a test sets by hand, shared with the `Db` it is given to.
#[derive(Clone, Default)]
struct HandClock(Arc<AtomicU64>);

impl HandClock {
    fn set(&self, millis: u64) {
        self.0.store(millis, Ordering::SeqCst);
    }

    fn now(&self) -> SystemTime {
        UNIX_EPOCH + Duration::from_millis(self.0.load(Ordering::SeqCst))
    }
}

#[tokio::test]
async fn a_write_sets_updated_and_keeps_a_set_created() {
    let (_dynamo, db) = app_table().await;
    let clock = HandClock::default();
    let db = db.with_clock({
        let clock = clock.clone();
        move || clock.now()
    });
    clock.set(1_773_480_660_000);
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
    assert_eq!(
        (first.created, first.updated),
        (1_773_480_660_000, 1_773_480_660_000)
    );

    clock.set(1_773_480_661_000);
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
    assert_eq!(
        (second.created, second.updated),
        (1_773_480_660_000, 1_773_480_661_000),
        "creation time kept, update time moved"
    );

    clock.set(1_773_480_662_500);
    let third = db
        .update(Note::key(1u32).unwrap())
        .set(Note::fields().text, "third".into())
        .await
        .unwrap();
    assert_eq!(
        (third.created, third.updated),
        (1_773_480_660_000, 1_773_480_662_500),
        "an update moves updated only"
    );

    // A batch write and a transaction read the same clock.
    clock.set(1_773_480_663_000);
    db.batch_write()
        .put(&Note {
            id: 2,
            text: "batched".into(),
            created: 0,
            updated: 0,
        })
        .await
        .unwrap();
    clock.set(1_773_480_664_000);
    db.transact()
        .create(&Note {
            id: 3,
            text: "transacted".into(),
            created: 0,
            updated: 0,
        })
        .await
        .unwrap();
    for (id, at) in [(2u32, 1_773_480_663_000), (3, 1_773_480_664_000)] {
        let note = db
            .get(Note::key(id).unwrap())
            .consistent_read(true)
            .await
            .unwrap()
            .unwrap();
        assert_eq!((note.created, note.updated), (at, at), "note {id}");
    }
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
