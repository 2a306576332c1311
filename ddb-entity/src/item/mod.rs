//! Items as DynamoDB stores them, and the rules it holds every item to
//! (size, numbers, time to live), checked here so operations only send
//! what it accepts.

mod set;
pub(crate) mod size;
pub(crate) mod ttl;

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::table::TableSchema;

pub use set::{Set, SetElement};
pub use size::{MAX_ITEM_SIZE, item_size};

/// A DynamoDB item as the SDK represents it.
pub type Item = HashMap<String, AttributeValue>;

/// The entity type an item's type attribute names: `None` when it has no
/// type attribute, or one that is not a string (no entity of this library
/// wrote it).
pub(crate) fn type_tag<'i>(item: &'i Item, schema: &TableSchema) -> Option<&'i str> {
    match attribute(item, schema.type_attribute) {
        Some(AttributeValue::S(tag)) => Some(tag),
        _ => None,
    }
}

/// The attribute `name` of `item`. A small item is scanned rather than
/// hashed into: comparing a dozen short names costs less than SipHash-ing
/// one (this runs for every item a query decodes).
pub(crate) fn attribute<'a>(item: &'a Item, name: &str) -> Option<&'a AttributeValue> {
    if item.len() <= 16 {
        item.iter()
            .find_map(|(key, value)| (key == name).then_some(value))
    } else {
        item.get(name)
    }
}
