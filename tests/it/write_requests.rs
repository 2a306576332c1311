//! What a failed write costs in requests (issue 24, item 3): a not-found
//! update or a refused delete is one request where the server returns the
//! stored item with a failed condition; a consistent read is added only
//! until the handle has seen it do so.

use ddb_entity::Entity;
use serde::{Deserialize, Serialize};

use crate::support::{App, logged_app_table};

#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "REQ#{id}", sk = "REQ", version = "version")]
struct Ticket {
    id: u32,
    replies: u32,
    #[serde(default)]
    version: u64,
}

#[tokio::test]
async fn a_not_found_update_or_delete_is_one_request_once_the_server_returned_an_old_item() {
    let (_dynamo, db, log) = logged_app_table().await;
    let f = Ticket::fields();

    // A fresh handle has not seen the server return an old item: a failed
    // condition without one is decided by a consistent read.
    let err = db
        .update(Ticket::key(1).unwrap())
        .add(f.replies, 1)
        .await
        .unwrap_err();
    assert!(err.is_not_found(), "{err:?}");
    assert_eq!(log.operations(), ["UpdateItem", "GetItem"]);

    // A create over a stored item: the server returns it with the failure.
    let ticket = Ticket {
        id: 2,
        replies: 0,
        version: 0,
    };
    db.create(&ticket).await.unwrap();
    log.clear();
    assert!(db.create(&ticket).await.unwrap_err().is_already_exists());
    assert_eq!(log.operations(), ["PutItem"], "the old item came back");

    // From then on "no item came back" means "no item".
    log.clear();
    let err = db
        .update(Ticket::key(3).unwrap())
        .add(f.replies, 1)
        .await
        .unwrap_err();
    assert!(err.is_not_found(), "{err:?}");
    let err = db
        .upsert(Ticket::key(3).unwrap())
        .add(f.replies, 1)
        .expect_version(4)
        .await
        .unwrap_err();
    assert!(err.is_version_conflict(), "{err:?}");
    let err = db
        .delete(Ticket::key(3).unwrap())
        .expect_version(4)
        .await
        .unwrap_err();
    assert!(err.is_version_conflict(), "{err:?}");
    assert_eq!(
        log.operations(),
        ["UpdateItem", "UpdateItem", "DeleteItem"],
        "one request each, no read"
    );
    assert_eq!(log.count("GetItem"), 0);

    // The stored item still decides a failure where there is one.
    log.clear();
    let err = db
        .update(Ticket::key(2).unwrap())
        .add(f.replies, 1)
        .expect_version(9)
        .await
        .unwrap_err();
    assert!(err.is_version_conflict(), "{err:?}");
    assert_eq!(log.operations(), ["UpdateItem"]);

    // Clones of the handle share what it learnt.
    log.clear();
    let err = db
        .clone()
        .update(Ticket::key(4).unwrap())
        .add(f.replies, 1)
        .await
        .unwrap_err();
    assert!(err.is_not_found());
    assert_eq!(log.operations(), ["UpdateItem"]);
}
