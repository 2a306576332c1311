//! Time to live: DynamoDB deletes an item some time (up to a few days)
//! after its TTL attribute's epoch second has passed; until then reads
//! still return it. Reads here hide such items unless asked not to.

use std::time::{SystemTime, UNIX_EPOCH};

use super::Item;
use crate::table::TableSchema;

/// Whether `item` is past its TTL at `now`. An item with no TTL attribute,
/// or a value DynamoDB itself would not act on (not a number), never
/// expires.
pub(crate) fn is_expired(item: &Item, schema: &TableSchema, now: SystemTime) -> bool {
    let Some(attribute) = schema.ttl_attribute else {
        return false;
    };
    expired(
        item.get(attribute)
            .and_then(|value| value.as_n().ok())
            .map(String::as_str),
        now,
    )
}

/// Whether a time-to-live attribute whose number's text is `number`
/// (`None`: missing, or not a number) is past at `now`: the rule of
/// [`is_expired`], whatever holds the item.
pub(crate) fn expired(number: Option<&str>, now: SystemTime) -> bool {
    let now = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    number
        .and_then(|n| n.parse::<f64>().ok())
        .is_some_and(|expires| expires <= now as f64)
}
