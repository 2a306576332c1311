//! Write sharding (issue 13): items land in the shard the frozen function
//! gives, reads of a sharded partition merge every shard into one order
//! with one cursor, a failing shard fails the read, and the hot-partition
//! lint reads the templates.

mod cursors;
mod faults;
mod lint;
mod merge;
mod placement;
mod resharding;

use ddb_entity::key::{self, KeyPart};
use ddb_entity::local::LocalDynamo;
use ddb_entity::shard::shard_of;
use ddb_entity::{Collection, Db, Entity};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::support::{App, Gsi1, Gsi2, RequestLog, logged_app_table};

#[derive(
    ddb_entity::KeyPart,
    Serialize,
    Deserialize,
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
)]
pub enum Status {
    Open,
    Shipped,
    Cancelled,
}

/// Seed 003's "all orders with status X", over 16 shards of a status.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "ORDER#{order_id}", sk = "ORDER")]
#[entity(index = Gsi1, pk = "STATUS#{status}#{shard(order_id) % 16}", sk = "ORDER#{placed}#{order_id}")]
pub struct StatusOrder {
    pub order_id: u64,
    pub status: Status,
    pub placed: u32,
    pub total_cents: i64,
}

/// The same partitions' prefix over 8 shards: what a change of count is.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "ORDER#{order_id}", sk = "ORDER")]
#[entity(index = Gsi1, pk = "STATUS#{status}#{shard(order_id) % 8}", sk = "ORDER#{placed}#{order_id}")]
pub struct StatusOrder8 {
    pub order_id: u64,
    pub status: Status,
    pub placed: u32,
    pub total_cents: i64,
}

/// Returns share the orders' sharded partitions: the same prefix and
/// count, their own key space.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "RETURN#{return_id}", sk = "RETURN")]
#[entity(index = Gsi1, pk = "STATUS#{status}#{shard(return_id) % 16}", sk = "RETURN#{placed}#{return_id}")]
pub struct StatusReturn {
    pub return_id: u64,
    pub status: Status,
    pub placed: u32,
}

/// Either, in merged order.
#[derive(Collection, Debug, Clone, PartialEq)]
pub enum StatusItem {
    Order(StatusOrder),
    Return(StatusReturn),
}

/// Both, as a struct.
#[derive(Collection, Debug)]
pub struct StatusView {
    pub orders: Vec<StatusOrder>,
    pub returns: Vec<StatusReturn>,
}

/// A sharded primary key: one day's events over 8 partitions, chosen by
/// the event id (a field of the sort key).
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "DAY#{day}#{shard(event_id) % 8}", sk = "EVENT#{at}#{event_id}")]
pub struct Event {
    pub day: u32,
    pub at: u32,
    pub event_id: u64,
    pub payload: String,
}

/// An index sharded by a field outside its key (`region`): an update that
/// moves the index key must carry it.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "SHIPMENT#{shipment_id}", sk = "SHIPMENT")]
#[entity(index = Gsi2, pk = "SHIPPING#{status}#{shard(region, shipment_id) % 4}", sk = "{shipment_id}")]
pub struct Shipment {
    pub shipment_id: u64,
    pub status: Status,
    pub region: String,
}

/// Pings whose index sort key repeats across shards: ties in the merge.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "PING#{ping_id}", sk = "PING")]
#[entity(index = Gsi2, pk = "PINGS#{status}#{shard(ping_id) % 4}", sk = "{minute}")]
pub struct Ping {
    pub ping_id: u64,
    pub status: Status,
    pub minute: u16,
}

/// The shard the documented function gives for `parts`, computed here from
/// the module docs' definition (not the library's code): FNV-1a 64 over the
/// encodings joined by `#`, MurmurHash3's finaliser, modulo `count`.
pub fn documented_shard(count: u16, parts: &[&dyn Encode]) -> u16 {
    let mut bytes = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            bytes.push(b'#');
        }
        bytes.extend_from_slice(part.encoded().as_bytes());
    }
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in bytes {
        h ^= u64::from(byte);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^= h >> 33;
    let shard = (h % u64::from(count)) as u16;
    // And the library agrees.
    let encoded: Vec<String> = parts.iter().map(|p| p.encoded()).collect();
    let encoded: Vec<&str> = encoded.iter().map(String::as_str).collect();
    assert_eq!(shard_of(count, &encoded), shard);
    shard
}

/// A key part as its key encoding.
pub trait Encode {
    fn encoded(&self) -> String;
}

impl<T: KeyPart> Encode for T {
    fn encoded(&self) -> String {
        key::encode(self).expect("encodes")
    }
}

/// `03/16`.
pub fn component(shard: u16, count: u16) -> String {
    let width = (count - 1).to_string().len();
    format!("{shard:0width$}/{count}")
}

/// The order ids `1..` whose shard (of 16) is wanted, `sizes[s]` of them
/// for shard `s`, open, placed at pseudo-random times.
pub fn skewed_orders(sizes: [usize; 16], status: Status) -> Vec<StatusOrder> {
    let mut left = sizes;
    let mut orders = Vec::new();
    let mut order_id = 0u64;
    while left.iter().any(|n| *n > 0) {
        order_id += 1;
        let shard = usize::from(documented_shard(16, &[&order_id]));
        if left[shard] == 0 {
            continue;
        }
        left[shard] -= 1;
        orders.push(StatusOrder {
            order_id,
            status,
            // Collisions on `placed` across shards and within one.
            placed: 1000 + (order_id.wrapping_mul(7919) % 97) as u32,
            total_cents: order_id as i64 * 10,
        });
    }
    orders
}

/// `orders` sorted as the index sorts them: by their GSI1 sort key.
pub fn index_order(orders: &[StatusOrder]) -> Vec<StatusOrder> {
    let mut sorted = orders.to_vec();
    sorted.sort_by_key(|o| (o.placed, o.order_id));
    sorted
}

/// A Query request as sent: the partition value it names and its `Limit`.
pub type Sent = (String, Option<u64>);

/// Every Query request a client sends, as the partition it names and its
/// `Limit`, in order of sending.
#[derive(Debug, Default, Clone)]
pub struct QueryLog(RequestLog);

impl QueryLog {
    pub fn queries(&self) -> Vec<Sent> {
        self.0
            .bodies("Query")
            .iter()
            .map(|body| (partition_of(body), body["Limit"].as_u64()))
            .collect()
    }

    pub fn clear(&self) {
        self.0.clear();
    }
}

/// The partition value a Query body's key condition names: its first
/// string value (`:v0`, the partition key's).
pub fn partition_of(body: &Value) -> String {
    let values = body["ExpressionAttributeValues"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    let mut names: Vec<&String> = values.keys().collect();
    names.sort();
    let expression = body["KeyConditionExpression"].as_str().unwrap_or_default();
    // The partition's placeholder is the one compared with `=` first.
    names
        .into_iter()
        .find(|name| {
            expression
                .split(" AND ")
                .next()
                .is_some_and(|clause| clause.ends_with(name.as_str()))
        })
        .and_then(|name| values[name]["S"].as_str())
        .unwrap_or_default()
        .to_owned()
}

/// A table whose client logs its Query requests.
pub async fn logged_table() -> (LocalDynamo, Db<App>, QueryLog) {
    let (dynamo, db, log) = logged_app_table().await;
    (dynamo, db, QueryLog(log))
}

/// Puts every item in one batch write.
pub async fn put_all<E: Entity<Table = App>>(db: &Db<App>, items: &[E]) {
    let mut batch = db.batch_write();
    for item in items {
        batch = batch.put(item);
    }
    batch.await.expect("the batch is written");
}
