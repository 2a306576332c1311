//! Time to live: DynamoDB deletes an item some time (up to a few days)
//! after its TTL attribute's epoch second has passed; until then reads
//! still return it. Reads here hide such items unless asked not to.

use std::time::{SystemTime, UNIX_EPOCH};

use aws_sdk_dynamodb::Client;

use crate::entity::Item;
use crate::table::TableSchema;

/// Seconds since the Unix epoch, by the client's own time source (so a
/// test can control it the way it controls the SDK's).
pub(crate) fn now_seconds(client: &Client) -> u64 {
    let now = client
        .config()
        .time_source()
        .map_or_else(SystemTime::now, |source| source.now());
    now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// Whether `item` is past its TTL at `now` (epoch seconds). An item with
/// no TTL attribute, or a value DynamoDB itself would not act on (not a
/// number), never expires.
pub(crate) fn is_expired(item: &Item, schema: &TableSchema, now: u64) -> bool {
    let Some(attribute) = schema.ttl_attribute else {
        return false;
    };
    item.get(attribute)
        .and_then(|value| value.as_n().ok())
        .and_then(|n| n.parse::<f64>().ok())
        .is_some_and(|expires| expires <= now as f64)
}
