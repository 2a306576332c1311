//! Counters do not conflict (issue 26, item 5): an update declared
//! commutative (`bump_version(false)`: only `add`s) keeps a versioned
//! entity's version, so editors holding it are not refused.

use ddb_entity::{Entity, ErrorKind, Set};
use serde::{Deserialize, Serialize};

use crate::support::{App, logged_app_table};

#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "TASK#{id}", sk = "TASK", version = "version")]
struct Task {
    id: u32,
    #[serde(default)]
    title: String,
    #[serde(default)]
    comments: u32,
    #[serde(default)]
    watchers: Set<String>,
    #[serde(default)]
    version: u64,
}

#[tokio::test]
async fn concurrent_counters_and_set_adds_do_not_make_editors_conflict() {
    let (dynamo, db, log) = logged_app_table().await;
    let f = Task::fields();
    let task = db
        .create(&Task {
            id: 1,
            title: "draft".into(),
            comments: 0,
            watchers: Set::default(),
            version: 0,
        })
        .returning_new()
        .await
        .unwrap();
    assert_eq!(task.version, 1);

    // 40 commenters and watchers at once, while two editors edit in turn,
    // each from the version it read. (moto has no per-item atomicity: its
    // concurrent updates lose each other's changes, the version included,
    // so there the commenters come one at a time, between the edits.)
    let concurrent = dynamo.is_embedded();
    let comment = |n: u32| {
        let db = db.clone();
        async move {
            let update = db.update(Task::key(1).unwrap()).bump_version(false);
            match n % 2 {
                0 => update.add(f.comments, 1).await,
                _ => update.add_to_set(f.watchers, [format!("w{n}")]).await,
            }
        }
    };
    let mut commenters = tokio::task::JoinSet::new();
    if concurrent {
        for n in 0..40u32 {
            commenters.spawn(comment(n));
        }
    }
    let mut version = task.version;
    for title in ["first edit", "second edit"] {
        if !concurrent {
            for n in 0..20u32 {
                comment(n + 20 * (version as u32 - 1)).await.unwrap();
            }
        }
        let edited = db
            .update(Task::key(1).unwrap())
            .set(f.title, title.to_owned())
            .expect_version(version)
            .await
            .expect("no conflict with counters");
        assert_eq!(edited.version, version + 1);
        version = edited.version;
    }
    while let Some(done) = commenters.join_next().await {
        done.unwrap().unwrap();
    }
    let stored = db
        .get(Task::key(1).unwrap())
        .consistent_read(true)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (
            stored.title.as_str(),
            stored.comments,
            stored.watchers.len(),
            stored.version
        ),
        ("second edit", 20, 20, 3),
        "every add kept, only the edits bumped the version"
    );

    // The default: an add bumps the version, and the editor holding the
    // old one is refused.
    db.update(Task::key(1).unwrap())
        .add(f.comments, 1)
        .await
        .unwrap();
    let err = db
        .update(Task::key(1).unwrap())
        .set(f.title, "stale".into())
        .expect_version(3)
        .await
        .unwrap_err();
    assert!(err.is_version_conflict(), "{err:?}");

    // Only additions may keep the version: refused before sending.
    log.clear();
    let err = db
        .update(Task::key(1).unwrap())
        .add(f.comments, 1)
        .set(f.title, "sneaky".into())
        .bump_version(false)
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidExpression, "{err:?}");
    assert!(err.to_string().contains("`title`"), "{err}");
    assert!(log.operations().is_empty());

    // An upsert that creates the item keeps the rule: it starts at 1.
    let created = db
        .upsert(Task::key(2).unwrap())
        .add(f.comments, 1)
        .bump_version(false)
        .await
        .unwrap();
    assert_eq!((created.comments, created.version), (1, 1));
    let again = db
        .upsert(Task::key(2).unwrap())
        .add(f.comments, 1)
        .bump_version(false)
        .await
        .unwrap();
    assert_eq!((again.comments, again.version), (2, 1));
}
