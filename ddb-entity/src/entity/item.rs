//! An entity's item: its serde body plus the attributes the table needs.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use super::Entity;
use crate::codec;
use crate::error::{Error, Result};
use crate::table::Table;

/// A DynamoDB item as the SDK represents it.
pub type Item = HashMap<String, AttributeValue>;

pub(super) fn to_item<E: Entity>(entity: &E) -> Result<Item> {
    let schema = E::Table::SCHEMA;
    // Room for the attributes added below: primary key, type, index keys.
    let reserve = 3 + 2 * E::INDEXES.len();
    // `None` is stored as no attribute rather than as NULL: then
    // `attribute_exists` means `Some`, a sparse index keyed on the field
    // works, and an update's `remove` leaves the same item a put of `None`
    // does. serde reads a missing `Option` field back as `None`.
    let mut item = codec::encode_entity(entity, reserve).map_err(|err| Error::Encode {
        entity: E::NAME,
        source: serde::ser::Error::custom(err),
    })?;
    entity.stamp(&mut item, std::time::SystemTime::now())?;
    // The library owns every key attribute of the table, including those of
    // indexes this entity does not fill: a field serialised under one would
    // be overwritten, or would slip the item into another entity's index.
    // The names are compared as they are, not hashed: a few short
    // comparisons per attribute cost less than a lookup per owned name.
    if item.keys().any(|name| owned_attribute::<E>(name)) {
        // Named in declaration order, whatever the map's order.
        let attribute = schema
            .key_attributes()
            .into_iter()
            .chain([schema.type_attribute])
            .find(|attribute| item.contains_key(*attribute))
            .unwrap_or(schema.type_attribute);
        return Err(Error::AttributeClash {
            entity: E::NAME,
            attribute,
        });
    }
    let mut put = |attribute: &str, value: String| {
        item.insert(attribute.to_owned(), AttributeValue::S(value));
    };
    let (partition, sort) = entity.primary_key()?.into_parts();
    put(schema.primary.partition_key, partition);
    if let Some(sort_key) = schema.primary.sort_key {
        put(sort_key, sort);
    }
    put(schema.type_attribute, E::TYPE.to_owned());
    for entry in entity.index_entries()? {
        let Some(key) = entry.key else { continue };
        put(entry.index.keys.partition_key, key.partition);
        if let (Some(attribute), Some(value)) = (entry.index.keys.sort_key, key.sort) {
            put(attribute, value);
        }
    }
    Ok(item)
}

/// Whether the library writes an attribute named `name` in `E`'s table: a
/// key attribute of the table or of any of its indexes, or the type.
fn owned_attribute<E: Entity>(name: &str) -> bool {
    let schema = E::Table::SCHEMA;
    let is_key =
        |keys: &crate::KeySchema| name == keys.partition_key || keys.sort_key == Some(name);
    if name == schema.type_attribute || is_key(&schema.primary) {
        return true;
    }
    schema.indexes.iter().any(|index| is_key(&index.keys))
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

pub(super) fn from_item<E: Entity>(item: Item) -> Result<E> {
    match attribute(&item, E::Table::SCHEMA.type_attribute) {
        Some(AttributeValue::S(found)) if found == E::TYPE => {}
        found => {
            return Err(Error::WrongType {
                entity: E::NAME,
                expected: E::TYPE,
                found: match found {
                    Some(AttributeValue::S(found)) => Some(found.clone()),
                    Some(other) => Some(format!("{other:?}")),
                    None => None,
                },
            });
        }
    }
    codec::from_item(item).map_err(|err| Error::Decode {
        entity: E::NAME,
        source: serde::de::Error::custom(err),
    })
}
