//! Items as DynamoDB stores them, and the rules it holds every item to
//! (size, numbers, time to live), checked here so operations only send
//! what it accepts.
//!
//! Examples: [`Set`](Set#example), [`Item`], [`MAX_ITEM_SIZE`],
//! [`SCHEMA_VERSION_ATTRIBUTE`], [`item_size`].
//!
//! ```
//! use ddb_entity::item::{MAX_ITEM_SIZE, item_size};
//! use ddb_entity::{Entity, Item};
//! # use serde::{Deserialize, Serialize};
//! # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
//!
//! #[derive(Entity, Serialize, Deserialize)]
//! #[entity(table = App, pk = "DOC#{id}", sk = "DOC")]
//! struct Doc { id: u64, text: String }
//!
//! // What is stored, and how DynamoDB counts it against its 400 KB.
//! let item: Item = Doc { id: 1, text: "hello".into() }.to_item()?;
//! assert!(item_size(&item) < 100);
//! // Too large is refused before anything is sent, naming the entity.
//! # let config = ddb_entity::sdk::Config::builder()
//! #     .behavior_version(ddb_entity::sdk::config::BehaviorVersion::latest()).build();
//! let db = ddb_entity::Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
//! let huge = Doc { id: 1, text: "x".repeat(MAX_ITEM_SIZE) };
//! let err = db.put(&huge).preview().unwrap_err();
//! assert!(err.to_string().contains("Doc"), "{err}");
//! # Ok::<(), ddb_entity::Error>(())
//! ```

mod schema_version;
mod set;
pub(crate) mod size;
pub(crate) mod ttl;

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::error::{Repr, Result};
use crate::table::{KeyAttributeType, TableSchema};

pub use schema_version::SCHEMA_VERSION_ATTRIBUTE;
pub(crate) use set::{BINARY_SET, NUMBER_SET, STRING_SET};
pub use set::{Set, SetElement};
pub use size::{MAX_ITEM_SIZE, item_size};

/// Refuses a value of `attribute` that a multi-attribute index of
/// `schema` keys by, when it is not of the index's declared type (or an
/// empty string or binary): DynamoDB refuses such a write ("Type mismatch
/// for Index Key"), and some emulators store it, so it is refused here,
/// before sending, alike everywhere. Every whole-item write and every
/// update's `set` pass through it.
pub(crate) fn check_index_attribute(
    schema: &TableSchema,
    entity: &'static str,
    attribute: &str,
    value: &AttributeValue,
) -> Result<()> {
    for index in schema.multi_key_indexes {
        let Some(key) = index.attributes().find(|a| a.name == attribute) else {
            continue;
        };
        let ok = match (key.ty, value) {
            (KeyAttributeType::S, AttributeValue::S(s)) => !s.is_empty(),
            (KeyAttributeType::N, AttributeValue::N(_)) => true,
            (KeyAttributeType::B, AttributeValue::B(b)) => !b.as_ref().is_empty(),
            // An explicit NULL is no key: the item is out of the index.
            (_, AttributeValue::Null(_)) => true,
            _ => false,
        };
        if !ok {
            let found = match value {
                AttributeValue::S(_) => "a string",
                AttributeValue::N(_) => "a number",
                AttributeValue::B(_) => "binary",
                AttributeValue::Bool(_) => "a boolean",
                AttributeValue::M(_) => "a map",
                AttributeValue::L(_) => "a list",
                AttributeValue::Ss(_) | AttributeValue::Ns(_) | AttributeValue::Bs(_) => "a set",
                _ => "a value",
            };
            let found = match value {
                AttributeValue::S(s) if s.is_empty() => "an empty string",
                AttributeValue::B(b) if b.as_ref().is_empty() => "empty binary",
                _ => found,
            };
            return Err(Repr::IndexAttribute {
                entity,
                index: index.name,
                attribute: attribute.to_owned(),
                expected: key.ty.as_str(),
                found,
            }
            .into());
        }
    }
    Ok(())
}

/// A DynamoDB item as the SDK represents it.
///
/// ```
/// use ddb_entity::{Entity, item::Item, sdk::types::AttributeValue};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// # #[derive(Entity, Serialize, Deserialize)]
/// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// # struct Customer { id: u64, name: String }
///
/// let item: Item = Customer { id: 1, name: "Ada".into() }.to_item()?;
/// assert_eq!(item["SK"], AttributeValue::S("PROFILE".into()));
/// assert_eq!(item["name"], AttributeValue::S("Ada".into()));
/// # Ok::<(), ddb_entity::Error>(())
/// ```
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

/// The stored primary key values of `item`, where they are strings.
pub(crate) fn stored_keys<'i>(
    item: &'i Item,
    schema: &TableSchema,
) -> (Option<&'i str>, Option<&'i str>) {
    let string = |name: &str| match attribute(item, name) {
        Some(AttributeValue::S(value)) => Some(value.as_str()),
        _ => None,
    };
    (
        string(schema.primary.partition_key),
        schema.primary.sort_key.and_then(string),
    )
}
