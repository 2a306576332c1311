//! Items as DynamoDB stores them, and the rules it holds every item to
//! (size, numbers, time to live), checked here so operations only send
//! what it accepts.

pub(crate) mod size;
pub(crate) mod ttl;

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::table::TableSchema;

pub use size::{MAX_ITEM_SIZE, item_size};

/// A DynamoDB item as the SDK represents it.
pub type Item = HashMap<String, AttributeValue>;

/// The entity type an item's type attribute names: `None` when it has no
/// type attribute, or one that is not a string (no entity of this library
/// wrote it).
pub(crate) fn type_tag<'i>(item: &'i Item, schema: &TableSchema) -> Option<&'i str> {
    match item.get(schema.type_attribute) {
        Some(AttributeValue::S(tag)) => Some(tag),
        _ => None,
    }
}
