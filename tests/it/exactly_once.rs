//! Exactly-once effect under ambiguous failures (issue 11).
//!
//! [`LostAnswers`] is the client's HTTP layer around the real server: every
//! request goes over loopback HTTP to the real DynamoDB (dynoxide, or moto
//! with `DDB_ENDPOINT`), and for a share of the *write* requests, once the
//! server has answered — so it has applied the write — the answer is
//!
//! - **cut**: dropped, and the SDK hears a connection reset (an I/O
//!   dispatch failure), or
//! - **delayed**: held past the SDK's attempt timeout (350 ms), which
//!   fires — on moto, a read timeout of the connection instead (see
//!   [`attempt_timeout`]),
//!
//! while the SDK's standard retry mode (3 attempts, its own retry quota
//! unlimited so that every retry the mode allows happens) resends the same
//! request. The draws are a hash of the request body (unique per call: it
//! carries the call's token) and its attempt number, so which attempt of a
//! call is hit does not depend on the interleaving of concurrent calls;
//! the shares are fixed by the plan.
//!
//! The ledger then holds every call to the final state: a call that
//! returned `Ok` applied exactly once, a call that returned an error
//! applied nothing, and no call that applied reported a conflict.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use aws_sdk_dynamodb::config::http::{HttpRequest, HttpResponse};
use aws_sdk_dynamodb::types::AttributeValue;
use aws_smithy_runtime_api::client::http::{
    HttpConnector, HttpConnectorFuture, SharedHttpConnector,
};
use aws_smithy_runtime_api::client::result::ConnectorError;
use aws_smithy_types::body::SdkBody;
use ddb_entity::local::LocalDynamo;
use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};
use tokio::task::JoinSet;

use crate::support::{App, Around, WRITES, operation, read_body, table_around};

/// A counter: created once, then added to.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "HITS#{id}", sk = "HITS")]
struct Hits {
    id: u32,
    hits: i64,
}

/// A document under optimistic locking.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "DOC#{id}", sk = "DOC", version = "version")]
struct Doc {
    id: u32,
    body: String,
    #[serde(default)]
    version: u64,
}

/// What a transaction creates next to the counter it adds to.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "RECEIPT#{id}", sk = "RECEIPT")]
struct Receipt {
    id: u32,
    account: u32,
}

/// What happens to the answer of one attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fault {
    None,
    /// Dropped after the server answered: a connection reset.
    Cut,
    /// Held past the attempt timeout.
    Delay,
    /// Replaced by an HTTP 500 `InternalServerError` (the write applied).
    ServerError,
    /// Replaced by an HTTP 503 `ServiceUnavailable` (the write applied).
    Unavailable,
}

/// Shares of write attempts whose answer is lost, by kind.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    pub seed: u64,
    pub cut: f64,
    pub delay: f64,
    pub server_error: f64,
    pub unavailable: f64,
    /// Answer a failed condition without the old item, as servers that
    /// ignore `ReturnValuesOnConditionCheckFailure` do.
    pub forget_old_items: bool,
    /// Fault only the first attempt of each request.
    pub first_attempt_only: bool,
}

impl Plan {
    pub fn calm(seed: u64) -> Self {
        Plan {
            seed,
            cut: 0.0,
            delay: 0.0,
            server_error: 0.0,
            unavailable: 0.0,
            forget_old_items: false,
            first_attempt_only: false,
        }
    }
}

/// What the injector did, per operation.
#[derive(Debug, Default, Clone)]
pub struct Ledger {
    /// Requests that reached the server (and were answered by it).
    pub delivered: HashMap<&'static str, usize>,
    pub cuts: usize,
    pub delays: usize,
    pub server_errors: usize,
    /// Attempts after the first of one request: the SDK's resends.
    pub resends: usize,
    /// Old items taken out of condition failures.
    pub forgotten: usize,
    /// The `ClientRequestToken` of every TransactWriteItems attempt.
    pub request_tokens: Vec<String>,
}

#[derive(Debug)]
struct State {
    /// How long a delayed answer is held, past the attempt timeout;
    /// `None`: the connection times out reading it instead.
    held: Option<Duration>,
    plan: Mutex<Plan>,
    ledger: Mutex<Ledger>,
    /// Attempts seen per request body: one body per write call (its token
    /// makes it unique), so this counts a call's attempts.
    attempts: Mutex<HashMap<u64, u32>>,
}

/// The HTTP layer; clones share their state.
#[derive(Debug, Clone)]
pub struct LostAnswers {
    state: Arc<State>,
}

impl LostAnswers {
    pub fn ledger(&self) -> Ledger {
        self.state.ledger.lock().unwrap().clone()
    }

    pub fn set_plan(&self, plan: Plan) {
        *self.state.plan.lock().unwrap() = plan;
    }
}

impl State {
    fn draw(&self, operation: &'static str, body: &[u8]) -> Fault {
        let plan = *self.plan.lock().unwrap();
        let mut hasher = DefaultHasher::new();
        body.hash(&mut hasher);
        let body_hash = hasher.finish();
        let attempt = {
            let mut attempts = self.attempts.lock().unwrap();
            let n = attempts.entry(body_hash).or_default();
            *n += 1;
            *n
        };
        if attempt > 1 {
            self.ledger.lock().unwrap().resends += 1;
        }
        if operation == "TransactWriteItems"
            && let Ok(json) = serde_json::from_slice::<serde_json::Value>(body)
        {
            let token = json["ClientRequestToken"].as_str().unwrap_or_default();
            self.ledger
                .lock()
                .unwrap()
                .request_tokens
                .push(token.to_owned());
        }
        if !WRITES.contains(&operation) || (plan.first_attempt_only && attempt > 1) {
            return Fault::None;
        }
        let mut hasher = DefaultHasher::new();
        (plan.seed, body_hash, attempt).hash(&mut hasher);
        let roll = (hasher.finish() >> 11) as f64 / (1u64 << 53) as f64;
        let mut edge = plan.cut;
        if roll < edge {
            return Fault::Cut;
        }
        edge += plan.delay;
        if roll < edge {
            return Fault::Delay;
        }
        edge += plan.server_error;
        if roll < edge {
            return Fault::ServerError;
        }
        edge += plan.unavailable;
        if roll < edge {
            return Fault::Unavailable;
        }
        Fault::None
    }
}

/// The SDK's attempt timeout: 350 ms on the embedded server. moto, one
/// Python process serving the whole suite in parallel (and copying a whole
/// table for every transaction), at times takes seconds to *apply* a
/// request; a short timeout then fires while the write is still in flight
/// and its resend runs beside it, which is not the fault under test (an
/// answer lost after the server applied the write — no client can know of
/// a write that applies after it gave up). There the timeout is 10 s, a
/// guard only, and a delayed answer is a read timeout of the connection.
fn attempt_timeout(embedded: bool) -> Duration {
    if embedded {
        Duration::from_millis(350)
    } else {
        Duration::from_secs(10)
    }
}

impl Around for LostAnswers {
    fn call(&self, inner: &SharedHttpConnector, request: HttpRequest) -> HttpConnectorFuture {
        let operation = operation(&request);
        let body = request.body().bytes().unwrap_or_default().to_vec();
        let fault = self.state.draw(operation, &body);
        let inner = inner.clone();
        let state = Arc::clone(&self.state);
        HttpConnectorFuture::new(async move {
            let mut response = inner.call(request).await?;
            // The server has answered: the write is applied (or refused).
            let body = read_body(response.take_body()).await?;
            *state
                .ledger
                .lock()
                .unwrap()
                .delivered
                .entry(operation)
                .or_default() += 1;
            let answer = |status: u16, body: Vec<u8>| {
                let mut rebuilt =
                    HttpResponse::new(status.try_into().unwrap(), SdkBody::from(body));
                for (name, value) in response.headers() {
                    if name != "content-length" && name != "x-amz-crc32" {
                        rebuilt
                            .headers_mut()
                            .insert(name.to_owned(), value.to_owned());
                    }
                }
                rebuilt
            };
            let forget = state.plan.lock().unwrap().forget_old_items;
            let body = if forget {
                forget_old_item(&state, body)
            } else {
                body
            };
            match fault {
                Fault::None => Ok(answer(response.status().as_u16(), body)),
                Fault::Cut => {
                    state.ledger.lock().unwrap().cuts += 1;
                    Err(ConnectorError::io(
                        "injected: connection reset after the server answered".into(),
                    ))
                }
                Fault::Delay => {
                    state.ledger.lock().unwrap().delays += 1;
                    let Some(held) = state.held else {
                        return Err(ConnectorError::timeout(
                            "injected: read timeout after the server answered".into(),
                        ));
                    };
                    tokio::time::sleep(held).await;
                    Ok(answer(response.status().as_u16(), body))
                }
                Fault::ServerError | Fault::Unavailable => {
                    state.ledger.lock().unwrap().server_errors += 1;
                    let (status, code) = if fault == Fault::ServerError {
                        (500, "InternalServerError")
                    } else {
                        (503, "ServiceUnavailable")
                    };
                    let body = format!(
                        r#"{{"__type":"com.amazonaws.dynamodb.v20120810#{code}","message":"injected after the server applied the request"}}"#
                    );
                    Ok(answer(status, body.into_bytes()))
                }
            }
        })
    }
}

/// The answer to a failed condition (or a canceled transaction) without
/// the old items.
fn forget_old_item(state: &State, body: Vec<u8>) -> Vec<u8> {
    let Ok(mut json) = serde_json::from_slice::<serde_json::Value>(&body) else {
        return body;
    };
    let kind = json["__type"].as_str().unwrap_or_default().to_owned();
    let mut forgotten = 0;
    if kind.ends_with("ConditionalCheckFailedException")
        && let Some(object) = json.as_object_mut()
        && object.remove("Item").is_some()
    {
        forgotten += 1;
    }
    // A canceled transaction's reasons lose theirs too.
    if kind.ends_with("TransactionCanceledException")
        && let Some(reasons) = json["CancellationReasons"].as_array_mut()
    {
        for reason in reasons {
            if let Some(object) = reason.as_object_mut()
                && object.remove("Item").is_some()
            {
                forgotten += 1;
            }
        }
    }
    if forgotten == 0 {
        return body;
    }
    state.ledger.lock().unwrap().forgotten += forgotten;
    serde_json::to_vec(&json).unwrap()
}

/// A table reached through the lossy client (SDK standard retries, 3
/// attempts, an attempt timeout of 350 ms, 10 s on moto) and through a clean one, for the truth.
pub async fn lossy_table(
    plan: Plan,
    retries: bool,
) -> (LocalDynamo, Db<App>, Db<App>, LostAnswers) {
    let (dynamo, db, clean, lossy) =
        table_around("once", retries, attempt_timeout, |embedded| LostAnswers {
            state: Arc::new(State {
                held: embedded.then(|| attempt_timeout(true) + Duration::from_millis(250)),
                plan: Mutex::new(plan),
                ledger: Mutex::default(),
                attempts: Mutex::default(),
            }),
        })
        .await;
    let lossy = LostAnswers::clone(&lossy);
    (dynamo, db, clean, lossy)
}

/// One call's outcome, by kind.
#[derive(Debug, Default)]
struct Tally {
    calls: usize,
    ok: usize,
    errors: Vec<String>,
    double_applies: usize,
    false_conflicts: usize,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.calls += other.calls;
        self.ok += other.ok;
        self.errors.extend(other.errors);
        self.double_applies += other.double_applies;
        self.false_conflicts += other.false_conflicts;
    }
}

/// Runs `call(i)` for every `i` in `ids`, 16 at a time.
async fn run_all<F, Fut, R>(ids: std::ops::Range<u32>, call: F) -> Vec<(u32, R)>
where
    F: Fn(u32) -> Fut,
    Fut: std::future::Future<Output = R> + Send + 'static,
    R: Send + 'static,
{
    run_some(ids, 16, call).await
}

/// Runs `call(i)` for every `i` in `ids`, `width` at a time.
async fn run_some<F, Fut, R>(ids: std::ops::Range<u32>, width: usize, call: F) -> Vec<(u32, R)>
where
    F: Fn(u32) -> Fut,
    Fut: std::future::Future<Output = R> + Send + 'static,
    R: Send + 'static,
{
    let mut out = Vec::new();
    let ids: Vec<u32> = ids.collect();
    for chunk in ids.chunks(width) {
        let mut set = JoinSet::new();
        for &id in chunk {
            let future = call(id);
            set.spawn(async move { (id, future.await) });
        }
        while let Some(done) = set.join_next().await {
            out.push(done.expect("the call does not panic"));
        }
    }
    out.sort_by_key(|(id, _)| *id);
    out
}

async fn read<E: Entity<Table = App>>(clean: &Db<App>, key: ddb_entity::Key<E>) -> Option<E> {
    clean.get(key).consistent_read(true).await.unwrap()
}

/// Holds `outcome` against `applied`: how often the call's effect is in
/// the final state (0 or 1 if all is well; 2 is a double apply).
fn judge<T>(tally: &mut Tally, what: &str, id: u32, outcome: &ddb_entity::Result<T>, applied: u32) {
    tally.calls += 1;
    match outcome {
        Ok(_) => {
            tally.ok += 1;
            if applied > 1 {
                tally.double_applies += 1;
            }
            assert_eq!(
                applied, 1,
                "{what} {id} returned Ok and applied {applied} times"
            );
        }
        Err(err) => {
            if applied > 0 && (err.is_condition_failed() || err.is_already_exists()) {
                tally.false_conflicts += 1;
            }
            tally.errors.push(format!("{what} {id}: {err}"));
            assert_eq!(
                applied, 0,
                "{what} {id} applied {applied} times but returned {err:?}"
            );
        }
    }
}

/// The faults of the exactly-once runs: a third of write answers lost.
fn lossy_plan(seed: u64, forget_old_items: bool) -> Plan {
    Plan {
        seed,
        cut: 0.2,
        delay: 0.1,
        server_error: 0.03,
        unavailable: 0.02,
        forget_old_items,
        first_attempt_only: false,
    }
}

#[tokio::test]
async fn lost_answers_neither_double_apply_nor_turn_into_false_conflicts() {
    let control = lost_answers(lossy_plan(0x0ce_0011, false), true).await;
    assert!(control, "the control group was run");
}

/// The same, on a server that does not return the old item with a failed
/// condition: every decision is made by a consistent read.
#[tokio::test]
async fn lost_answers_are_decided_by_a_read_where_the_server_returns_no_old_item() {
    lost_answers(lossy_plan(0x0ce_0012, true), false).await;
}

/// 460 write calls through lost answers, held to the final state; with
/// `control`, the same faults on 200 raw SDK calls too.
async fn lost_answers(plan: Plan, control: bool) -> bool {
    let (dynamo, db, clean, lossy) = lossy_table(plan, true).await;
    let mut tally: HashMap<&str, Tally> = HashMap::new();
    let f = Hits::fields();

    // 100 creates on fresh keys: each stored once, by its own call.
    let outcomes = run_all(0..100, |id| {
        let db = db.clone();
        async move { db.create(&Hits { id, hits: 0 }).await }
    })
    .await;
    for (id, outcome) in &outcomes {
        let stored = read(&clean, Hits::key(*id).unwrap()).await;
        let t = tally.entry("create").or_default();
        judge(t, "create", *id, outcome, u32::from(stored.is_some()));
    }

    // 100 `add(hits, 1)`: each counter ends at exactly 1.
    let outcomes = run_all(0..100, |id| {
        let db = db.clone();
        async move { db.update(Hits::key(id)?).add(f.hits, 1).await }
    })
    .await;
    for (id, outcome) in &outcomes {
        let stored = read(&clean, Hits::key(*id).unwrap()).await.unwrap();
        if let Ok(returned) = outcome {
            assert_eq!(returned, &stored, "the update returns the entity as stored");
        }
        let t = tally.entry("add").or_default();
        judge(t, "add", *id, outcome, stored.hits as u32);
    }

    // 100 versioned puts over version 1: each stored at version 2.
    let mut seed = clean.batch_write();
    for id in 0..100 {
        seed = seed.put(&Hits {
            id: 10_000 + id,
            hits: 0,
        });
    }
    seed.await.unwrap();
    for id in 0..100 {
        clean
            .create(&Doc {
                id,
                body: "first".into(),
                version: 0,
            })
            .await
            .unwrap();
    }
    let outcomes = run_all(0..100, |id| {
        let db = db.clone();
        async move {
            db.put(&Doc {
                id,
                body: "second".into(),
                version: 1,
            })
            .await
        }
    })
    .await;
    for (id, outcome) in &outcomes {
        let stored = read(&clean, Doc::key(*id).unwrap()).await.unwrap();
        let t = tally.entry("versioned put").or_default();
        // Applied once: version 2; twice would be a conflict or version 3.
        let applied = (stored.version - 1) as u32;
        judge(t, "versioned put", *id, outcome, applied);
        if outcome.is_ok() {
            assert_eq!(stored.body, "second");
        }
    }

    // 50 versioned updates at version 2, then 50 versioned deletes at 3.
    let d = Doc::fields();
    let outcomes = run_all(0..50, |id| {
        let db = db.clone();
        async move {
            db.update(Doc::key(id)?)
                .set(d.body, "third".to_owned())
                .expect_version(2)
                .await
        }
    })
    .await;
    for (id, outcome) in &outcomes {
        let stored = read(&clean, Doc::key(*id).unwrap()).await.unwrap();
        let t = tally.entry("versioned update").or_default();
        judge(
            t,
            "versioned update",
            *id,
            outcome,
            (stored.version - 2) as u32,
        );
    }
    let outcomes = run_all(0..50, |id| {
        let db = db.clone();
        async move { db.delete(Doc::key(id)?).expect_version(3).await }
    })
    .await;
    for (id, outcome) in &outcomes {
        let stored = read(&clean, Doc::key(*id).unwrap()).await;
        let t = tally.entry("versioned delete").or_default();
        judge(
            t,
            "versioned delete",
            *id,
            outcome,
            u32::from(stored.is_none()),
        );
    }

    // 60 transactions: a receipt created, and 1 added to one of 6 accounts.
    // moto ignores the idempotency token, so there a resend is canceled on
    // the items holding the transaction's write token, which the library
    // recognises. moto runs them one at a time: it undoes a canceled
    // transaction by restoring a copy of the whole table taken when it
    // began, without a lock, which would erase concurrent writes.
    for account in 0..6 {
        clean
            .put(&Hits {
                id: 20_000 + account,
                hits: 0,
            })
            .await
            .unwrap();
    }
    let width = if dynamo.is_embedded() { 16 } else { 1 };
    let outcomes = run_some(0..60, width, |id| {
        let db = db.clone();
        async move {
            let account = 20_000 + id % 6;
            db.transact()
                .create(&Receipt { id, account })
                .update(db.update(Hits::key(account)?).add(f.hits, 1))
                .await
        }
    })
    .await;
    let mut ok_per_account: HashMap<u32, i64> = HashMap::new();
    for (id, outcome) in &outcomes {
        let receipt = read(&clean, Receipt::key(*id).unwrap()).await;
        let t = tally.entry("transaction").or_default();
        judge(t, "transaction", *id, outcome, u32::from(receipt.is_some()));
        if outcome.is_ok() {
            *ok_per_account.entry(20_000 + id % 6).or_default() += 1;
        }
    }
    for account in 0..6 {
        let stored = read(&clean, Hits::key(20_000 + account).unwrap())
            .await
            .unwrap();
        let expected = ok_per_account
            .get(&(20_000 + account))
            .copied()
            .unwrap_or(0);
        if stored.hits != expected {
            tally.get_mut("transaction").unwrap().double_applies +=
                (stored.hits - expected).unsigned_abs() as usize;
        }
        assert_eq!(
            stored.hits, expected,
            "account {account}: one add per transaction that returned Ok"
        );
    }

    let ledger = lossy.ledger();
    if control {
        raw_sdk_calls_through_the_same_faults(&db, &clean).await;
    }
    let label = if plan.forget_old_items {
        "no old items returned"
    } else {
        "old items returned"
    };
    let mut total = Tally::default();
    eprintln!(
        "exactly-once on {} ({label}): {} cuts, {} delays, {} 500/503, {} resends by the SDK, {} deciding reads, {} old items withheld; delivered {:?}",
        if dynamo.is_embedded() {
            "dynoxide"
        } else {
            "DDB_ENDPOINT"
        },
        ledger.cuts,
        ledger.delays,
        ledger.server_errors,
        ledger.resends,
        ledger.delivered.get("GetItem").copied().unwrap_or(0),
        ledger.forgotten,
        ledger.delivered
    );
    for (what, t) in &tally {
        eprintln!(
            "  {what:>17}: {} calls, {} ok, {} errors, {} double applies, {} false conflicts",
            t.calls,
            t.ok,
            t.errors.len(),
            t.double_applies,
            t.false_conflicts
        );
    }
    for (_, t) in tally {
        total.add(t);
    }
    assert_eq!(total.calls, 460);
    assert_eq!(total.double_applies, 0);
    assert_eq!(total.false_conflicts, 0);
    assert!(total.errors.is_empty(), "{:#?}", total.errors);
    assert!(ledger.cuts >= 40 && ledger.delays >= 20, "{ledger:?}");
    assert!(ledger.server_errors >= 5, "{ledger:?}");
    assert!(ledger.resends >= 80, "the SDK resent: {ledger:?}");
    assert!(
        ledger.delivered["GetItem"] > 0,
        "some calls were decided by a read: {ledger:?}"
    );
    if plan.forget_old_items {
        assert!(ledger.forgotten >= 50, "{ledger:?}");
    }
    control
}

/// The control: the same faults on hand-written SDK calls, which carry no
/// token. `ADD hits 1` applies twice or three times, and a create
/// (`attribute_not_exists`) reports its own item as taken.
async fn raw_sdk_calls_through_the_same_faults(db: &Db<App>, clean: &Db<App>) {
    // The control: the same faults on hand-written SDK calls, which carry
    // no token. `ADD hits 1` applies twice or three times, and a create
    // (`attribute_not_exists`) reports its own item as taken.
    let outcomes = run_all(0..100, |id| {
        let client = db.client().clone();
        let table = db.table_name().to_owned();
        async move {
            let key = Hits::key(10_000 + id).unwrap().to_attributes();
            client
                .update_item()
                .table_name(table)
                .set_key(Some(key))
                .update_expression("ADD hits :one")
                .expression_attribute_values(":one", AttributeValue::N("1".into()))
                .send()
                .await
                .map(drop)
        }
    })
    .await;
    let mut control_doubles = 0;
    for (id, outcome) in &outcomes {
        let stored = read(clean, Hits::key(10_000 + id).unwrap()).await.unwrap();
        if outcome.is_ok() && stored.hits > 1 {
            control_doubles += 1;
        }
    }
    let outcomes = run_all(0..100, |id| {
        let client = db.client().clone();
        let table = db.table_name().to_owned();
        async move {
            let item = Hits {
                id: 40_000 + id,
                hits: 0,
            }
            .to_item()
            .unwrap();
            client
                .put_item()
                .table_name(table)
                .set_item(Some(item))
                .condition_expression("attribute_not_exists(PK)")
                .send()
                .await
                .map(drop)
        }
    })
    .await;
    let control_false_conflicts = outcomes
        .iter()
        .filter(|(_, outcome)| outcome.is_err())
        .count();
    eprintln!(
        "  control (raw SDK, no token): {control_doubles} of 100 counters added to more than once, {control_false_conflicts} of 100 creates refused although their own item was stored"
    );
    assert!(
        control_doubles > 0 && control_false_conflicts > 0,
        "the faults bite"
    );
}

#[tokio::test]
async fn a_lost_answer_is_retryable_and_a_plain_put_may_be_sent_again() {
    // No retries: one attempt, its answer lost; the error says so.
    let (_dynamo, db, clean, lossy) = lossy_table(Plan::calm(1), false).await;
    let cases = [
        (
            Fault::Cut,
            Plan {
                cut: 1.0,
                ..Plan::calm(2)
            },
        ),
        (
            Fault::ServerError,
            Plan {
                server_error: 1.0,
                ..Plan::calm(3)
            },
        ),
        (
            Fault::Unavailable,
            Plan {
                unavailable: 1.0,
                ..Plan::calm(4)
            },
        ),
        (
            Fault::Delay,
            Plan {
                delay: 1.0,
                ..Plan::calm(5)
            },
        ),
    ];
    for (id, (fault, plan)) in (0u32..).zip(cases) {
        lossy.set_plan(plan);
        let hits = Hits {
            id: 30_000 + id,
            hits: 7,
        };
        // A plain put carries no token: its outcome stays unknown.
        let err = db.put(&hits).await.unwrap_err();
        assert!(err.is_retryable(), "{fault:?}: {err:?}");
        assert!(!err.is_condition_failed(), "{fault:?}: {err:?}");
        // It was applied; sending it again is safe: the same item.
        assert_eq!(
            read(&clean, Hits::key(hits.id).unwrap()).await,
            Some(hits.clone())
        );
        lossy.set_plan(Plan::calm(6));
        db.put(&hits).await.unwrap();
        assert_eq!(read(&clean, Hits::key(hits.id).unwrap()).await, Some(hits));
    }
    // A refused request is not retryable.
    lossy.set_plan(Plan::calm(7));
    let err = db
        .create(&Hits {
            id: 30_000,
            hits: 0,
        })
        .await
        .unwrap_err();
    assert!(err.is_already_exists() && !err.is_retryable(), "{err:?}");
}

#[tokio::test]
async fn without_sdk_retries_a_write_whose_every_answer_is_lost_is_decided_by_one_read() {
    // Every write attempt's answer is cut, and the SDK does not retry: the
    // call cannot know from the answer. A tokened write reads once, finds
    // its token and succeeds; the caller's own resend (same token) is
    // recognised too.
    let (_dynamo, db, clean, lossy) = lossy_table(
        Plan {
            cut: 1.0,
            ..Plan::calm(8)
        },
        false,
    )
    .await;
    let f = Hits::fields();
    db.create(&Hits { id: 1, hits: 0 }).await.unwrap();
    let counter = db
        .update(Hits::key(1).unwrap())
        .add(f.hits, 5)
        .await
        .unwrap();
    assert_eq!(counter.hits, 5);
    assert_eq!(read(&clean, Hits::key(1).unwrap()).await.unwrap().hits, 5);
    let ledger = lossy.ledger();
    assert_eq!(
        (ledger.cuts, ledger.delivered["GetItem"]),
        (2, 2),
        "{ledger:?}"
    );

    // The caller sends the same logical change again as a new call, with
    // the same token: recognised, not added again.
    lossy.set_plan(Plan::calm(9));
    for _ in 0..3 {
        let again = db
            .update(Hits::key(1).unwrap())
            .add(f.hits, 5)
            .idempotency_token("request-0001")
            .await
            .unwrap();
        assert_eq!(again.hits, 10);
    }
    assert_eq!(read(&clean, Hits::key(1).unwrap()).await.unwrap().hits, 10);
    for _ in 0..2 {
        db.create(&Doc {
            id: 1,
            body: "once".into(),
            version: 0,
        })
        .idempotency_token("create-doc-1")
        .await
        .unwrap();
    }
    let err = db
        .create(&Doc {
            id: 1,
            body: "once".into(),
            version: 0,
        })
        .await
        .unwrap_err();
    assert!(
        err.is_already_exists(),
        "another call (another token) is refused: {err:?}"
    );
}

#[tokio::test]
async fn the_token_history_is_four_short_attributes_never_part_of_the_entity() {
    let (_dynamo, db, clean, _lossy) = lossy_table(Plan::calm(12), false).await;
    let f = Hits::fields();
    db.create(&Hits { id: 1, hits: 0 }).await.unwrap();
    let first = crate::support::stored_item(&clean, &Hits::key(1).unwrap()).await;
    let token = first["_wt"].as_s().unwrap().clone();
    assert_eq!(token.len(), 21, "{token}");
    for _ in 0..5 {
        db.update(Hits::key(1).unwrap())
            .add(f.hits, 1)
            .await
            .unwrap();
    }
    let item = crate::support::stored_item(&clean, &Hits::key(1).unwrap()).await;
    // The last four writers' tokens (issue 30), the newest in `_wt`: the
    // item does not grow with writes.
    assert_eq!(item.len(), first.len() + 3);
    assert_ne!(item["_wt"].as_s().unwrap(), &token);
    assert_eq!(
        ddb_entity::item::item_size(&item)
            - ddb_entity::item::item_size(&Hits { id: 1, hits: 5 }.to_item().unwrap()),
        (3 + 21) + 3 * (4 + 21),
        "the token history costs 99 bytes"
    );
    // Reads never see it: the entity, a query, a projection, a batch.
    assert_eq!(
        db.get(Hits::key(1).unwrap()).await.unwrap(),
        Some(Hits { id: 1, hits: 5 })
    );
    let all: Vec<Hits> = db
        .query(Hits::partition(1).unwrap())
        .collect()
        .await
        .unwrap();
    assert_eq!(all, [Hits { id: 1, hits: 5 }]);
    let projected: Vec<Hits> = db
        .query(Hits::partition(1).unwrap())
        .projection(["id", "hits"])
        .collect()
        .await
        .unwrap();
    assert_eq!(projected, [Hits { id: 1, hits: 5 }]);
    // A plain put needs none, and leaves none behind.
    db.put(&Hits { id: 1, hits: 9 }).await.unwrap();
    let item = crate::support::stored_item(&clean, &Hits::key(1).unwrap()).await;
    assert!(!item.contains_key("_wt"));
}

/// An entity whose field is stored under the token's name.
#[derive(Entity, Serialize, Deserialize, Debug)]
#[entity(table = App, pk = "CLASH#{id}", sk = "CLASH")]
struct Clash {
    id: u32,
    #[serde(rename = "_wt")]
    token: String,
}

#[test]
fn the_token_attribute_is_reserved() {
    let err = Clash {
        id: 1,
        token: "mine".into(),
    }
    .to_item()
    .unwrap_err();
    assert_eq!(err.kind(), ddb_entity::ErrorKind::AttributeClash, "{err:?}");
    assert!(err.to_string().contains("`_wt`"), "{err}");

    ddb_entity::table! {
        /// The token attribute named like a key.
        pub struct Bad { partition_key: "PK", sort_key: "SK", token_attribute: "SK" }
    }
    ddb_entity::table! {
        /// Its own name.
        pub struct Good { partition_key: "PK", sort_key: "SK", ttl_attribute: "ttl", token_attribute: "_token" }
    }
    use ddb_entity::Table;
    let err = Bad::SCHEMA.validate().unwrap_err();
    assert!(
        err.to_string().contains("write-token attribute `SK`"),
        "{err}"
    );
    assert_eq!(Good::SCHEMA.token_attribute, "_token");
    Good::SCHEMA.validate().unwrap();
}

#[tokio::test]
async fn a_transaction_resent_by_the_sdk_is_one_transaction_with_one_token() {
    // The first attempt of every write is applied and its answer cut; the
    // SDK's second attempt carries the same request, token included.
    let plan = Plan {
        cut: 1.0,
        first_attempt_only: true,
        ..Plan::calm(13)
    };
    let (_dynamo, db, clean, lossy) = lossy_table(plan, true).await;
    let f = Hits::fields();
    clean.put(&Hits { id: 1, hits: 0 }).await.unwrap();
    let deposit = |id: u32| {
        db.transact()
            .create(&Receipt { id, account: 1 })
            .update(db.update(Hits::key(1).unwrap()).add(f.hits, 10))
    };
    deposit(1).await.unwrap();
    let ledger = lossy.ledger();
    assert_eq!(ledger.cuts, 1, "{ledger:?}");
    // One token, generated for the send, in both attempts.
    let tokens = &ledger.request_tokens;
    assert_eq!(tokens.len(), 2, "{ledger:?}");
    assert_eq!(tokens[0], tokens[1]);
    assert_eq!(tokens[0].len(), 21);
    // DynamoDB (dynoxide) answers the resend with success, having applied
    // nothing; moto, which ignores the token, cancels it on the items that
    // hold it, and the transaction recognises its own write. No read.
    assert_eq!(ledger.delivered.get("GetItem"), None, "{ledger:?}");
    assert_eq!(read(&clean, Hits::key(1).unwrap()).await.unwrap().hits, 10);

    // A token of the caller's wins, and is the one every attempt carries;
    // a new call with it is the same transaction.
    for _ in 0..2 {
        deposit(2).idempotency_token("deposit-2").await.unwrap();
    }
    let ledger = lossy.ledger();
    assert!(
        ledger.request_tokens[2..].iter().all(|t| t == "deposit-2"),
        "{ledger:?}"
    );
    assert_eq!(read(&clean, Hits::key(1).unwrap()).await.unwrap().hits, 20);
    assert!(read(&clean, Receipt::key(2).unwrap()).await.is_some());
}
