//! A late attempt applies nothing (issue 30).
//!
//! [`HeldFirst`] is the client's HTTP layer around the real server: the
//! first attempt of the next write is *held* on its way to the server (in a
//! task of its own, so the SDK giving up on it does not cancel it), the
//! SDK's attempt timeout fires and its second attempt is applied. The
//! program then writes the item again, another writer writes it, and only
//! then is the held attempt let through: its bytes are the first call's
//! (same token), and the item must not take its effect a second time.
//!
//! Each case is deterministic: the held attempt is released by the test and
//! its answer awaited, so nothing depends on timing.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use aws_sdk_dynamodb::config::http::HttpRequest;
use aws_smithy_runtime_api::client::http::{
    HttpConnector, HttpConnectorFuture, SharedHttpConnector,
};
use ddb_entity::local::LocalDynamo;
use ddb_entity::{Db, Entity, Set};
use serde::{Deserialize, Serialize};
use tokio::sync::{Notify, oneshot};

use crate::support::{App, Around, WRITES, answer_of, operation, table_around};

/// A counter.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "LATE#{id}", sk = "COUNTER")]
struct Counter {
    id: u32,
    hits: i64,
    #[serde(default)]
    log: Vec<String>,
    #[serde(default)]
    tags: Set<String>,
}

/// A document under optimistic locking.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "LATEDOC#{id}", sk = "DOC", version = "version")]
struct Page {
    id: u32,
    body: String,
    #[serde(default)]
    version: u64,
}

/// The held attempt: released by [`HeldFirst::release`], which waits for
/// the server's answer (its HTTP status and error type, if any).
struct Held {
    release: Arc<Notify>,
    answered: oneshot::Receiver<(u16, String)>,
}

#[derive(Default)]
struct State {
    armed: bool,
    held: Option<Held>,
}

/// The HTTP layer that holds attempts.
#[derive(Default)]
struct HeldFirst {
    state: Mutex<State>,
}

impl HeldFirst {
    /// Holds the first attempt of the next write.
    fn hold_next_write(&self) {
        self.state.lock().unwrap().armed = true;
    }

    /// Lets the held attempt reach the server and returns its answer.
    async fn release(&self) -> (u16, String) {
        let held = self
            .state
            .lock()
            .unwrap()
            .held
            .take()
            .expect("an attempt was held");
        held.release.notify_one();
        held.answered.await.expect("the held attempt is answered")
    }
}

impl Around for HeldFirst {
    fn call(&self, inner: &SharedHttpConnector, request: HttpRequest) -> HttpConnectorFuture {
        let write = WRITES.contains(&operation(&request));
        let mut state = self.state.lock().unwrap();
        if !(write && state.armed) {
            return inner.call(request);
        }
        state.armed = false;
        let release = Arc::new(Notify::new());
        let (tx, answered) = oneshot::channel();
        state.held = Some(Held {
            release: Arc::clone(&release),
            answered,
        });
        let inner = inner.clone();
        // The attempt goes on in its own task: the SDK's timeout drops the
        // future below, not the request.
        tokio::spawn(async move {
            release.notified().await;
            let answer = answer_of(inner.call(request).await).await;
            let _ = tx.send(answer);
        });
        HttpConnectorFuture::new(std::future::pending())
    }
}

/// moto, one Python process for the whole suite, may take seconds to
/// answer; the timeout only has to give up on the held attempt.
fn attempt_timeout(embedded: bool) -> Duration {
    if embedded {
        Duration::from_millis(300)
    } else {
        Duration::from_secs(5)
    }
}

/// A table reached through the holding client (SDK standard retries, 3
/// attempts, an attempt timeout that gives up on the held attempt) and
/// through a clean one: the other writer, and the truth.
async fn table() -> (LocalDynamo, Db<App>, Db<App>, Arc<HeldFirst>) {
    table_around("late", true, attempt_timeout, |_| HeldFirst::default()).await
}

fn counter(id: u32) -> Counter {
    Counter {
        id,
        hits: 0,
        log: Vec::new(),
        tags: Set::default(),
    }
}

async fn stored(clean: &Db<App>, id: u32) -> Counter {
    clean
        .get(Counter::key(id).unwrap())
        .consistent_read(true)
        .await
        .unwrap()
        .expect("the counter exists")
}

/// The held attempt reached the server after two later writes and was
/// refused, not applied: a failed condition (or, for a transaction, a
/// cancellation, or the server's own idempotency answering it as done).
fn refused(answer: &(u16, String), transaction: bool) {
    let (status, kind) = answer;
    let condition = *status == 400
        && (kind.ends_with("ConditionalCheckFailedException")
            || (transaction && kind.ends_with("TransactionCanceledException")));
    assert!(
        condition || (transaction && *status == 200),
        "the late attempt was answered {answer:?}"
    );
}

#[tokio::test]
async fn a_late_attempt_of_an_add_is_not_added_again_after_later_writes() {
    let (_dynamo, db, clean, held) = table().await;
    let f = Counter::fields();
    clean.put(&counter(1)).await.unwrap();

    held.hold_next_write();
    let after = db.update(Counter::key(1).unwrap()).add(f.hits, 1).await;
    assert_eq!(after.unwrap().hits, 1, "the SDK's second attempt applied");
    // The program's next write, then another writer's.
    db.update(Counter::key(1).unwrap())
        .add(f.hits, 10)
        .await
        .unwrap();
    clean
        .update(Counter::key(1).unwrap())
        .add(f.hits, 100)
        .await
        .unwrap();
    refused(&held.release().await, false);

    assert_eq!(stored(&clean, 1).await.hits, 111);
}

#[tokio::test]
async fn a_late_attempt_of_an_append_is_not_appended_again() {
    let (_dynamo, db, clean, held) = table().await;
    let f = Counter::fields();
    clean.put(&counter(2)).await.unwrap();

    held.hold_next_write();
    db.update(Counter::key(2).unwrap())
        .append(f.log, ["a".to_owned()])
        .await
        .unwrap();
    db.update(Counter::key(2).unwrap())
        .append(f.log, ["b".to_owned()])
        .await
        .unwrap();
    clean
        .update(Counter::key(2).unwrap())
        .append(f.log, ["c".to_owned()])
        .await
        .unwrap();
    refused(&held.release().await, false);

    assert_eq!(stored(&clean, 2).await.log, ["a", "b", "c"]);
}

#[tokio::test]
async fn a_late_attempt_of_a_set_add_does_not_bring_back_a_deleted_element() {
    let (_dynamo, db, clean, held) = table().await;
    let f = Counter::fields();
    clean.put(&counter(3)).await.unwrap();

    held.hold_next_write();
    db.update(Counter::key(3).unwrap())
        .add_to_set(f.tags, ["x".to_owned()])
        .await
        .unwrap();
    // The program takes it out again; another writer adds its own.
    db.update(Counter::key(3).unwrap())
        .delete_from_set(f.tags, ["x".to_owned()])
        .add(f.hits, 1)
        .await
        .unwrap();
    clean
        .update(Counter::key(3).unwrap())
        .add_to_set(f.tags, ["y".to_owned()])
        .await
        .unwrap();
    refused(&held.release().await, false);

    assert_eq!(stored(&clean, 3).await.tags, Set::from(["y".to_owned()]));
}

#[tokio::test]
async fn a_late_attempt_of_an_upsert_is_not_applied_again() {
    let (_dynamo, db, clean, held) = table().await;
    let f = Counter::fields();

    held.hold_next_write();
    let created = db.upsert(Counter::key(4).unwrap()).add(f.hits, 1).await;
    assert_eq!(created.unwrap().hits, 1);
    db.update(Counter::key(4).unwrap())
        .add(f.hits, 10)
        .await
        .unwrap();
    clean
        .upsert(Counter::key(4).unwrap())
        .add(f.hits, 100)
        .await
        .unwrap();
    refused(&held.release().await, false);

    assert_eq!(stored(&clean, 4).await.hits, 111);
}

#[tokio::test]
async fn a_late_attempt_of_a_versioned_update_does_not_bring_back_its_body() {
    let (_dynamo, db, clean, held) = table().await;
    let f = Page::fields();
    clean
        .put(&Page {
            id: 5,
            body: "zero".into(),
            version: 0,
        })
        .await
        .unwrap();
    let start = clean
        .get(Page::key(5).unwrap())
        .consistent_read(true)
        .await
        .unwrap()
        .unwrap()
        .version;

    held.hold_next_write();
    db.update(Page::key(5).unwrap())
        .set(f.body, "one".into())
        .await
        .unwrap();
    db.update(Page::key(5).unwrap())
        .set(f.body, "two".into())
        .await
        .unwrap();
    clean
        .update(Page::key(5).unwrap())
        .set(f.body, "three".into())
        .await
        .unwrap();
    refused(&held.release().await, false);

    let page = clean
        .get(Page::key(5).unwrap())
        .consistent_read(true)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((page.body.as_str(), page.version), ("three", start + 3));
}

#[tokio::test]
async fn a_late_attempt_of_a_transaction_is_not_applied_again() {
    let (_dynamo, db, clean, held) = table().await;
    let f = Counter::fields();
    clean.put(&counter(6)).await.unwrap();
    clean.put(&counter(7)).await.unwrap();

    held.hold_next_write();
    db.transact()
        .update(db.update(Counter::key(6).unwrap()).add(f.hits, 1))
        .update(db.update(Counter::key(7).unwrap()).add(f.hits, 1))
        .await
        .unwrap();
    db.update(Counter::key(6).unwrap())
        .add(f.hits, 10)
        .await
        .unwrap();
    clean
        .update(Counter::key(7).unwrap())
        .add(f.hits, 100)
        .await
        .unwrap();
    refused(&held.release().await, true);

    assert_eq!(stored(&clean, 6).await.hits, 11);
    assert_eq!(stored(&clean, 7).await.hits, 101);
}

#[tokio::test]
async fn the_token_history_holds_four_tokens_whatever_the_number_of_writes() {
    let (_dynamo, db, clean, _held) = table().await;
    let f = Counter::fields();
    clean.put(&counter(8)).await.unwrap();
    let mut tokens = Vec::new();
    for _ in 0..6 {
        db.update(Counter::key(8).unwrap())
            .add(f.hits, 1)
            .await
            .unwrap();
        let item = crate::support::stored_item(&clean, &Counter::key(8).unwrap()).await;
        let slot = |name: &str| item.get(name).and_then(|v| v.as_s().ok()).cloned();
        tokens.push(slot("_wt").expect("the newest token"));
        // The slots are the last four writes' tokens, newest first.
        let expected: Vec<_> = tokens.iter().rev().take(4).cloned().collect();
        let held: Vec<_> = ["_wt", "_wt1", "_wt2", "_wt3"]
            .iter()
            .map(|name| slot(name).unwrap())
            .take(expected.len())
            .collect();
        assert_eq!(held, expected);
        assert!(
            item.keys().filter(|name| name.starts_with("_wt")).count() == 4,
            "{item:?}"
        );
    }
}

/// What the token history cannot cover, as documented: a plain put stores
/// no history and a delete leaves no item, so a late attempt of an earlier
/// update (upsert) arriving after them is a first attempt as far as the
/// item can tell, and applies. Sent [`server_idempotent`], DynamoDB's own
/// idempotency refuses it whatever the item holds — on the embedded
/// server; moto ignores `ClientRequestToken`, so that half is skipped there.
///
/// [`server_idempotent`]: ddb_entity::op::Update::server_idempotent
#[tokio::test]
async fn a_late_update_after_a_plain_put_applies_again_unless_server_idempotent() {
    let (dynamo, db, clean, held) = table().await;
    let f = Counter::fields();
    clean.put(&counter(9)).await.unwrap();

    held.hold_next_write();
    db.update(Counter::key(9).unwrap())
        .add(f.hits, 1)
        .await
        .unwrap();
    // A plain put replaces the item, and its token history with it.
    clean
        .put(&Counter {
            hits: 50,
            ..counter(9)
        })
        .await
        .unwrap();
    let (status, _) = held.release().await;
    assert_eq!(status, 200, "documented: the late attempt applies");
    assert_eq!(stored(&clean, 9).await.hits, 51);

    if !dynamo.is_embedded() {
        eprintln!("skipped on moto: it ignores ClientRequestToken");
        return;
    }
    clean.put(&counter(10)).await.unwrap();
    held.hold_next_write();
    db.update(Counter::key(10).unwrap())
        .add(f.hits, 1)
        .server_idempotent()
        .await
        .unwrap();
    assert_eq!(stored(&clean, 10).await.hits, 1, "the resend applied");
    clean
        .put(&Counter {
            hits: 50,
            ..counter(10)
        })
        .await
        .unwrap();
    for _ in 0..5 {
        clean
            .update(Counter::key(10).unwrap())
            .add(f.hits, 100)
            .await
            .unwrap();
    }
    let (status, _) = held.release().await;
    // DynamoDB's answer to a request token it has seen: success, nothing
    // applied.
    assert_eq!(status, 200);
    assert_eq!(stored(&clean, 10).await.hits, 550);
}

#[tokio::test]
async fn a_late_upsert_after_a_delete_recreates_the_item_unless_server_idempotent() {
    let (dynamo, db, clean, held) = table().await;
    let f = Counter::fields();

    held.hold_next_write();
    db.upsert(Counter::key(11).unwrap())
        .add(f.hits, 1)
        .await
        .unwrap();
    db.delete(Counter::key(11).unwrap()).await.unwrap();
    let (status, _) = held.release().await;
    assert_eq!(status, 200, "documented: the late attempt applies");
    assert_eq!(stored(&clean, 11).await.hits, 1, "the item is back");

    if !dynamo.is_embedded() {
        eprintln!("skipped on moto: it ignores ClientRequestToken");
        return;
    }
    held.hold_next_write();
    db.upsert(Counter::key(12).unwrap())
        .add(f.hits, 1)
        .server_idempotent()
        .await
        .unwrap();
    db.delete(Counter::key(12).unwrap()).await.unwrap();
    let (status, _) = held.release().await;
    assert_eq!(status, 200);
    let gone = clean
        .get(Counter::key(12).unwrap())
        .consistent_read(true)
        .await
        .unwrap();
    assert_eq!(gone, None, "the late attempt did not bring it back");
}
