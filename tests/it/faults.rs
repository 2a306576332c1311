//! Faults injected around the real server, and ledgers that prove batches
//! lose and duplicate nothing through them.
//!
//! [`Faults`] is an SDK interceptor on the client. For a share of the
//! `BatchWriteItem`/`BatchGetItem` requests it does what DynamoDB does
//! under load:
//!
//! - **partial batch**: before the request is signed and sent, it takes
//!   some writes (keys) out of the body, so the server never sees them, and
//!   before the response is deserialised it adds them to the response's
//!   `UnprocessedItems` (`UnprocessedKeys`);
//! - **throttling**: the request reaches the server with nothing in it, and
//!   the answer becomes a `ProvisionedThroughputExceededException`.
//!
//! The server stays real: everything not withheld is written and read by
//! it. The draws come from a seeded generator (which request gets which
//! fault can vary with the interleaving of concurrent requests, the
//! proportions cannot). The interceptor also keeps the ledger of every
//! write that reached the server.

use std::collections::{HashMap, HashSet};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use aws_sdk_dynamodb::config::interceptors::{
    BeforeDeserializationInterceptorContextMut, BeforeTransmitInterceptorContextMut,
};
use aws_sdk_dynamodb::config::retry::RetryConfig;
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::error::BoxError;
use aws_sdk_dynamodb::types::AttributeValue;
use aws_smithy_types::body::SdkBody;
use aws_smithy_types::config_bag::{Storable, StoreReplace};
use bytes::Bytes;
use ddb_entity::local::LocalDynamo;
use ddb_entity::op::{BatchRetry, WriteKind};
use ddb_entity::{CollectionItem, Db, Entity, Item};
use serde_json::{Map, Value, json};

use crate::model::*;
use crate::support::App;

/// Which faults, how often.
#[derive(Debug, Clone, Copy)]
pub struct FaultPlan {
    /// Seeds the draws.
    pub seed: u64,
    /// Share of batch requests answered with throttling.
    pub throttle: f64,
    /// Share of batch requests that lose some (never all) of their writes
    /// or keys to `Unprocessed…`.
    pub partial: f64,
}

/// What was injected so far.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct FaultStats {
    /// Batch requests seen.
    pub requests: usize,
    /// Of which answered with throttling.
    pub throttled: usize,
    /// Of which cut short.
    pub partial: usize,
    /// Writes or keys withheld from the server by partial batches.
    pub withheld: usize,
}

/// The interceptor; clones share their state.
#[derive(Debug, Clone)]
pub struct Faults(Arc<State>);

#[derive(Debug)]
struct State {
    plan: FaultPlan,
    rng: Mutex<u64>,
    stats: Mutex<FaultStats>,
    /// Every put or delete that reached the server, by key.
    delivered: Mutex<HashMap<(String, String), usize>>,
}

/// The fault chosen for the request in flight, from before signing to
/// before deserialisation (the config bag is per operation, and SDK
/// retries are off, so one request is one attempt).
#[derive(Debug, Clone)]
enum Fault {
    None,
    Throttle,
    Partial {
        operation: Operation,
        /// Per table: the writes (or keys) withheld, and for BatchGetItem the
        /// other `KeysAndAttributes` members, to echo in `UnprocessedKeys`.
        withheld: Map<String, Value>,
    },
}

impl Storable for Fault {
    type Storer = StoreReplace<Fault>;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Operation {
    Write,
    Get,
}

impl Faults {
    pub fn new(plan: FaultPlan) -> Self {
        Faults(Arc::new(State {
            plan,
            rng: Mutex::new(plan.seed | 1),
            stats: Mutex::default(),
            delivered: Mutex::default(),
        }))
    }

    pub fn stats(&self) -> FaultStats {
        self.0.stats.lock().unwrap().clone()
    }

    /// How many times a write to each key reached the server.
    pub fn delivered(&self) -> HashMap<(String, String), usize> {
        self.0.delivered.lock().unwrap().clone()
    }

    /// xorshift64*: uniform in [0, 1).
    fn unit(&self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn next(&self) -> u64 {
        let mut x = self.0.rng.lock().unwrap();
        *x ^= *x >> 12;
        *x ^= *x << 25;
        *x ^= *x >> 27;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Picks the fault for one request and rewrites its body to match.
    fn inject(&self, operation: Operation, body: &mut Value) -> Fault {
        let roll = self.unit();
        let plan = self.0.plan;
        let tables = body["RequestItems"]
            .as_object_mut()
            .expect("a batch request has RequestItems");
        let mut stats = self.0.stats.lock().unwrap();
        stats.requests += 1;
        let throttle = roll < plan.throttle;
        let partial = !throttle && roll < plan.throttle + plan.partial;
        let mut withheld = Map::new();
        if throttle {
            stats.throttled += 1;
            tables.clear();
        } else if partial {
            for (table, request) in tables.iter_mut() {
                let entries = match operation {
                    Operation::Write => request.as_array_mut(),
                    Operation::Get => request["Keys"].as_array_mut(),
                }
                .expect("a list of writes or keys");
                if entries.len() < 2 {
                    continue;
                }
                // Some, never all: DynamoDB throttles a batch it can do
                // nothing of.
                let count = 1 + (self.next() % (entries.len() as u64 - 1)) as usize;
                let mut taken = Vec::with_capacity(count);
                for _ in 0..count {
                    let at = (self.next() % entries.len() as u64) as usize;
                    taken.push(entries.remove(at));
                }
                stats.withheld += taken.len();
                let echo = match operation {
                    Operation::Write => Value::Array(taken),
                    Operation::Get => {
                        let mut rest = request.as_object().cloned().unwrap_or_default();
                        rest.insert("Keys".into(), Value::Array(taken));
                        Value::Object(rest)
                    }
                };
                withheld.insert(table.clone(), echo);
            }
            if !withheld.is_empty() {
                stats.partial += 1;
            }
        }
        if operation == Operation::Write {
            let mut delivered = self.0.delivered.lock().unwrap();
            for writes in tables.values() {
                for write in writes.as_array().into_iter().flatten() {
                    *delivered.entry(json_key(write)).or_default() += 1;
                }
            }
        }
        if throttle {
            Fault::Throttle
        } else if withheld.is_empty() {
            Fault::None
        } else {
            Fault::Partial {
                operation,
                withheld,
            }
        }
    }
}

/// `(PK, SK)` of a write request's item or key, as JSON.
fn json_key(write: &Value) -> (String, String) {
    let attributes = match write.get("PutRequest") {
        Some(put) => &put["Item"],
        None => &write["DeleteRequest"]["Key"],
    };
    let s = |name: &str| {
        attributes[name]["S"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    };
    (s("PK"), s("SK"))
}

fn operation(headers: &aws_sdk_dynamodb::config::http::HttpRequest) -> Option<Operation> {
    let target = headers.headers().get("x-amz-target")?;
    match target.rsplit('.').next()? {
        "BatchWriteItem" => Some(Operation::Write),
        "BatchGetItem" => Some(Operation::Get),
        _ => None,
    }
}

impl Intercept for Faults {
    fn name(&self) -> &'static str {
        "Faults"
    }

    // Before signing rather than just before transmit: the body is part of
    // the signature, and a real endpoint would refuse a rewritten body.
    fn modify_before_signing(
        &self,
        context: &mut BeforeTransmitInterceptorContextMut<'_>,
        _: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let request = context.request_mut();
        let Some(operation) = operation(request) else {
            cfg.interceptor_state().store_put(Fault::None);
            return Ok(());
        };
        let bytes = request.body().bytes().ok_or("a batch body is in memory")?;
        let mut body: Value = serde_json::from_slice(bytes)?;
        let fault = self.inject(operation, &mut body);
        let bytes = serde_json::to_vec(&body)?;
        request
            .headers_mut()
            .insert("content-length", bytes.len().to_string());
        *request.body_mut() = SdkBody::from(bytes);
        cfg.interceptor_state().store_put(fault);
        Ok(())
    }

    fn modify_before_deserialization(
        &self,
        context: &mut BeforeDeserializationInterceptorContextMut<'_>,
        _: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let fault = cfg.load::<Fault>().cloned().unwrap_or(Fault::None);
        cfg.interceptor_state().store_put(Fault::None);
        let response = context.response_mut();
        match fault {
            Fault::None => {}
            Fault::Throttle => {
                // The server answered an empty request; the client hears a throttle.
                *response.status_mut() = 400.try_into()?;
                let headers = response.headers_mut();
                headers.remove("content-length");
                headers.remove("x-amz-crc32");
                headers.insert("content-type", "application/x-amz-json-1.0");
                let body = json!({
                    "__type": "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",
                    "message": "injected: the level of configured provisioned throughput for the table was exceeded",
                });
                *response.body_mut() = SdkBody::from(body.to_string());
            }
            Fault::Partial {
                operation,
                withheld,
            } => {
                if !response.status().is_success() {
                    // The whole request failed: the client resends all of it.
                    return Ok(());
                }
                let headers = response.headers_mut();
                headers.remove("content-length");
                headers.remove("x-amz-crc32");
                let served = std::mem::replace(response.body_mut(), SdkBody::taken());
                let merged = Rewrite {
                    inner: served,
                    buffer: Vec::new(),
                    edit: Some(Box::new(move |bytes| {
                        add_unprocessed(operation, withheld, &bytes)
                    })),
                };
                *response.body_mut() = SdkBody::from_body_1_x(merged);
            }
        }
        Ok(())
    }
}

/// The server's answer with the withheld writes (keys) added to its own
/// `UnprocessedItems` (`UnprocessedKeys`).
fn add_unprocessed(operation: Operation, withheld: Map<String, Value>, served: &[u8]) -> Vec<u8> {
    let mut body: Value = serde_json::from_slice(served).expect("the server answers JSON");
    let member = match operation {
        Operation::Write => "UnprocessedItems",
        Operation::Get => "UnprocessedKeys",
    };
    if !body[member].is_object() {
        body[member] = json!({});
    }
    let unprocessed = body[member].as_object_mut().unwrap();
    for (table, echo) in withheld {
        match (operation, unprocessed.get_mut(&table)) {
            (Operation::Write, Some(Value::Array(already))) => {
                already.extend(echo.as_array().cloned().unwrap_or_default());
            }
            (Operation::Get, Some(already)) if already["Keys"].is_array() => {
                let keys = echo["Keys"].as_array().cloned().unwrap_or_default();
                already["Keys"].as_array_mut().unwrap().extend(keys);
            }
            _ => {
                unprocessed.insert(table, echo);
            }
        }
    }
    serde_json::to_vec(&body).unwrap()
}

type Edit = Box<dyn FnOnce(Vec<u8>) -> Vec<u8> + Send + Sync>;

/// A response body that reads the server's whole body, then yields it
/// edited (an interceptor cannot await the body itself).
struct Rewrite {
    inner: SdkBody,
    buffer: Vec<u8>,
    edit: Option<Edit>,
}

impl http_body::Body for Rewrite {
    type Data = Bytes;
    type Error = aws_smithy_types::body::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, Self::Error>>> {
        let this = &mut *self;
        loop {
            if this.edit.is_none() {
                return Poll::Ready(None);
            }
            match Pin::new(&mut this.inner).poll_frame(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Some(Err(err))) => return Poll::Ready(Some(Err(err))),
                Poll::Ready(Some(Ok(frame))) => {
                    if let Ok(data) = frame.into_data() {
                        this.buffer.extend_from_slice(&data);
                    }
                }
                Poll::Ready(None) => {
                    let edit = this.edit.take().unwrap();
                    let edited = edit(std::mem::take(&mut this.buffer));
                    return Poll::Ready(Some(Ok(http_body::Frame::data(Bytes::from(edited)))));
                }
            }
        }
    }
}

/// A table reached through a faulty client (SDK retries off: the batch's
/// own retries are under test) and through a clean one, to check the truth.
async fn faulty_app_table(plan: FaultPlan) -> (LocalDynamo, Db<App>, Db<App>, Faults) {
    let dynamo = LocalDynamo::start().await.expect("local DynamoDB starts");
    let faults = Faults::new(plan);
    let config = dynamo
        .config_builder()
        .interceptor(faults.clone())
        .retry_config(RetryConfig::disabled())
        .build();
    let name = dynamo.unique_table_name("faults");
    let clean = Db::<App>::new(dynamo.client(), name.clone());
    clean
        .create_table_if_missing()
        .await
        .expect("table is created");
    let faulty = Db::<App>::new(aws_sdk_dynamodb::Client::from_conf(config), name);
    (dynamo, faulty, clean, faults)
}

/// Short pauses: the tests retry hundreds of times.
fn quick(attempts: u32) -> BatchRetry {
    BatchRetry::new()
        .max_attempts(attempts)
        .base_delay(Duration::from_millis(1))
        .max_delay(Duration::from_millis(20))
}

/// `customers` customers with 3 orders and 1 ticket each, in write order.
fn population(customers: u64) -> Vec<CustomerItem> {
    let mut all = Vec::new();
    for id in 1..=customers {
        all.push(CustomerItem::Customer(Customer {
            customer_id: id,
            name: format!("customer {id}"),
        }));
        for n in 0..3u64 {
            all.push(CustomerItem::Order(CustomerOrder {
                customer_id: id,
                order_id: id * 10 + n,
                placed: date(2026, 1 + n as u32, 1 + (id % 28) as u32),
                total_cents: (id * 100 + n) as i64,
            }));
        }
        all.push(CustomerItem::Ticket(Ticket {
            customer_id: id,
            ticket_id: id as u32,
            subject: format!("ticket of {id}"),
            open_since: (id % 2 == 0).then(|| date(2026, 2, 1)),
        }));
    }
    all
}

fn key(item: &CustomerItem) -> (String, String) {
    match item {
        CustomerItem::Customer(c) => c.primary_key().unwrap().into_parts(),
        CustomerItem::Order(o) => o.primary_key().unwrap().into_parts(),
        CustomerItem::Ticket(t) => t.primary_key().unwrap().into_parts(),
    }
}

fn entity_name(item: &CustomerItem) -> &'static str {
    match item {
        CustomerItem::Customer(_) => <Customer as Entity>::RUST_NAME,
        CustomerItem::Order(_) => <CustomerOrder as Entity>::RUST_NAME,
        CustomerItem::Ticket(_) => <Ticket as Entity>::RUST_NAME,
    }
}

fn put_all<'db>(
    mut batch: ddb_entity::op::BatchWrite<'db, App>,
    items: &[CustomerItem],
) -> ddb_entity::op::BatchWrite<'db, App> {
    for item in items {
        batch = match item {
            CustomerItem::Customer(c) => batch.put(c),
            CustomerItem::Order(o) => batch.put(o),
            CustomerItem::Ticket(t) => batch.put(t),
        };
    }
    batch
}

fn get_all<'db>(
    mut batch: ddb_entity::op::BatchGet<'db, App>,
    keys: impl IntoIterator<Item = (String, String)>,
) -> ddb_entity::op::BatchGet<'db, App> {
    for (pk, sk) in keys {
        batch = if sk == "PROFILE" {
            batch.get(ddb_entity::Key::<Customer>::new(pk, sk).unwrap())
        } else if sk.starts_with("ORDER#") {
            batch.get(ddb_entity::Key::<CustomerOrder>::new(pk, sk).unwrap())
        } else {
            batch.get(ddb_entity::Key::<Ticket>::new(pk, sk).unwrap())
        };
    }
    batch
}

/// Every item of the table, by a consistent scan through the clean client,
/// decoded; the count of items per key proves no key holds two.
async fn table_contents(clean: &Db<App>) -> Vec<CustomerItem> {
    let mut items: Vec<Item> = Vec::new();
    let mut start = None;
    loop {
        let page = clean
            .client()
            .scan()
            .table_name(clean.table_name())
            .consistent_read(true)
            .set_exclusive_start_key(start)
            .send()
            .await
            .unwrap();
        items.extend(page.items.unwrap_or_default());
        start = page.last_evaluated_key;
        if start.is_none() {
            break;
        }
    }
    items
        .into_iter()
        .map(|item| {
            let Some(AttributeValue::S(kind)) = item.get("_type").cloned() else {
                panic!("an item without a type: {item:?}");
            };
            CustomerItem::from_typed_item(&kind, item).unwrap().unwrap()
        })
        .collect()
}

fn by_key(items: &[CustomerItem]) -> HashMap<(String, String), &CustomerItem> {
    let map: HashMap<_, _> = items.iter().map(|item| (key(item), item)).collect();
    assert_eq!(map.len(), items.len(), "no key twice");
    map
}

#[tokio::test]
async fn five_hundred_writes_through_throttles_and_partial_batches_land_exactly_once() {
    let plan = FaultPlan {
        seed: 0x5eed_0001,
        throttle: 0.2,
        partial: 0.5,
    };
    let (_dynamo, faulty, clean, faults) = faulty_app_table(plan).await;
    let expected = population(100);
    assert_eq!(expected.len(), 500);
    // 40 stale tickets, written cleanly, deleted in the same faulty batch.
    let stale: Vec<Ticket> = (1..=40)
        .map(|id| Ticket {
            customer_id: id,
            ticket_id: 1000 + id as u32,
            subject: "stale".into(),
            open_since: None,
        })
        .collect();
    let mut seed = clean.batch_write();
    for ticket in &stale {
        seed = seed.put(ticket);
    }
    seed.await.unwrap();

    let mut batch = put_all(faulty.batch_write().retry(quick(40)), &expected);
    for ticket in &stale {
        batch = batch.delete(Ticket::key(ticket.customer_id, ticket.ticket_id).unwrap());
    }
    batch.await.unwrap();

    let stats = faults.stats();
    assert!(stats.throttled >= 3, "{stats:?}");
    assert!(stats.partial >= 5 && stats.withheld >= 20, "{stats:?}");
    // 540 writes need 22 requests; every fault costs at least one more.
    assert!(
        stats.requests >= 22 + stats.throttled + stats.partial,
        "{stats:?}"
    );

    // The ledger: each of the 540 writes reached the server exactly once.
    let delivered = faults.delivered();
    let mut writes: HashSet<_> = expected.iter().map(key).collect();
    writes.extend(stale.iter().map(|t| t.primary_key().unwrap().into_parts()));
    assert_eq!(writes.len(), 540);
    assert_eq!(delivered.keys().cloned().collect::<HashSet<_>>(), writes);
    assert!(
        delivered.values().all(|&n| n == 1),
        "a write was delivered twice"
    );

    // The table: exactly the 500 entities, each with its value; no stale ticket.
    let stored = table_contents(&clean).await;
    assert_eq!(stored.len(), 500);
    let stored = by_key(&stored);
    for item in &expected {
        assert_eq!(stored.get(&key(item)), Some(&item), "{:?}", key(item));
    }

    // Read back through the faulty client too: every entity, in key order,
    // the deleted tickets absent.
    let before = faults.stats();
    let keys = expected
        .iter()
        .map(key)
        .chain(stale.iter().map(|t| t.primary_key().unwrap().into_parts()));
    let read: Vec<CustomerItem> = get_all(faulty.batch_get().retry(quick(40)), keys)
        .consistent_read(true)
        .collect()
        .await
        .unwrap();
    assert_eq!(read, expected);
    let after = faults.stats();
    assert!(
        after.throttled > before.throttled || after.partial > before.partial,
        "the reads met faults too: {after:?}"
    );
}

#[tokio::test]
async fn when_the_budget_runs_out_the_error_lists_exactly_the_writes_not_in_the_table() {
    let plan = FaultPlan {
        seed: 0x5eed_0002,
        throttle: 0.3,
        partial: 0.7,
    };
    let (_dynamo, faulty, clean, faults) = faulty_app_table(plan).await;
    let expected = population(60);

    let err = put_all(faulty.batch_write().retry(quick(2)), &expected)
        .await
        .unwrap_err();
    assert!(err.is_unprocessed(), "{err:?}");
    let left = err.unprocessed_writes();
    assert!(!left.is_empty());

    // Each leftover is typed: the entity, a put, its key, its place.
    for write in left {
        let item = &expected[write.position()];
        assert_eq!(write.entity(), entity_name(item));
        assert_eq!(write.kind(), WriteKind::Put);
        assert_eq!(
            (write.partition().to_owned(), write.sort().to_owned()),
            key(item)
        );
    }
    assert!(left.windows(2).all(|w| w[0].position() < w[1].position()));

    // The leftovers are exactly what the table lacks.
    let stored = table_contents(&clean).await;
    let stored_keys: HashSet<_> = stored.iter().map(key).collect();
    let left_keys: HashSet<_> = left
        .iter()
        .map(|w| (w.partition().to_owned(), w.sort().to_owned()))
        .collect();
    let all: HashSet<_> = expected.iter().map(key).collect();
    assert_eq!(left_keys.len(), left.len());
    assert!(stored_keys.is_disjoint(&left_keys));
    assert_eq!(&stored_keys | &left_keys, all);
    // And what is stored is what reached the server, once each.
    let delivered = faults.delivered();
    assert_eq!(
        delivered.keys().cloned().collect::<HashSet<_>>(),
        stored_keys
    );
    assert!(delivered.values().all(|&n| n == 1));

    // Sent again (cleanly), they complete the table.
    let message = err.to_string();
    assert!(
        message.contains(&format!("{} of 300 writes", left.len())),
        "{message}"
    );
    clean
        .batch_write()
        .resend(err.into_unprocessed_writes())
        .await
        .unwrap();
    let stored = table_contents(&clean).await;
    assert_eq!(stored.len(), 300);
    let stored = by_key(&stored);
    assert!(
        expected
            .iter()
            .all(|item| stored.get(&key(item)) == Some(&item))
    );
}

#[tokio::test]
async fn a_batch_throttled_on_every_request_returns_every_write_after_its_attempts() {
    let plan = FaultPlan {
        seed: 3,
        throttle: 1.0,
        partial: 0.0,
    };
    let (_dynamo, faulty, clean, faults) = faulty_app_table(plan).await;
    let expected = population(6); // 30 writes: 2 requests' worth

    let err = put_all(faulty.batch_write().retry(quick(3)), &expected)
        .await
        .unwrap_err();
    assert!(err.is_throttled(), "the last error is kept: {err:?}");
    assert_eq!(err.unprocessed_writes().len(), 30);
    assert_eq!(faults.stats().requests, 2 * 3, "3 attempts per chunk");
    assert!(table_contents(&clean).await.is_empty());
    assert!(faults.delivered().is_empty());
}

#[tokio::test]
async fn a_batch_read_with_no_retries_returns_what_it_read_and_exactly_the_keys_it_did_not() {
    let plan = FaultPlan {
        seed: 0x5eed_0004,
        throttle: 0.0,
        partial: 1.0,
    };
    let (_dynamo, faulty, clean, faults) = faulty_app_table(plan).await;
    let expected = population(50); // 250 keys: 3 requests
    put_all(clean.batch_write(), &expected).await.unwrap();
    let all: Vec<_> = expected.iter().map(key).collect();

    let partial = get_all(
        faulty.batch_get().retry(BatchRetry::no_retries()),
        all.clone(),
    )
    .collect_partial::<Vec<CustomerItem>>()
    .await
    .unwrap();
    assert_eq!(faults.stats().requests, 3);
    assert_eq!(faults.stats().withheld, partial.unprocessed.len());
    let read: HashSet<_> = partial.items.iter().map(key).collect();
    let left: HashSet<_> = partial
        .unprocessed
        .iter()
        .map(|k| (k.partition().to_owned(), k.sort().to_owned()))
        .collect();
    assert!(!left.is_empty() && read.is_disjoint(&left));
    assert_eq!(&read | &left, all.iter().cloned().collect());
    // What was read is correct, in key order.
    let in_order: Vec<_> = expected
        .iter()
        .filter(|item| read.contains(&key(item)))
        .cloned()
        .collect();
    assert_eq!(partial.items, in_order);
    for left in &partial.unprocessed {
        let item = &expected[left.position()];
        assert_eq!(left.entity(), entity_name(item));
        assert_eq!(
            (left.partition().to_owned(), left.sort().to_owned()),
            key(item)
        );
    }

    // Asked again with a budget, the leftovers complete the read.
    let rest: Vec<CustomerItem> = faulty
        .batch_get()
        .retry(quick(40))
        .resend(partial.unprocessed)
        .collect()
        .await
        .unwrap();
    let mut everything: Vec<_> = partial.items.into_iter().chain(rest).collect();
    everything.sort_by_key(|item| all.iter().position(|k| *k == key(item)));
    assert_eq!(everything, expected);

    // The strict form fails with the keys instead.
    let err = get_all(
        faulty.batch_get().retry(BatchRetry::no_retries()),
        all.clone(),
    )
    .collect::<Vec<CustomerItem>>()
    .await
    .unwrap_err();
    assert!(err.is_unprocessed(), "{err:?}");
    assert!(!err.unprocessed_keys().is_empty() && err.unprocessed_keys().len() < 250);
}
