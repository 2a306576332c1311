//! An entity's item: its serde body plus the attributes the table needs,
//! and back.

use std::time::SystemTime;

use aws_sdk_dynamodb::types::AttributeValue;

use super::Entity;
use super::decode::decode_body;
use super::verify::{StoredKeys, keep_keys_found_by};
use crate::error::{Repr, Result};
use crate::item::{Item, type_tag};
use crate::table::Table;

/// The whole item of `entity`, its maintained timestamps written as of
/// `now`.
pub(crate) fn to_item<E: Entity>(entity: &E, now: SystemTime) -> Result<Item> {
    let mut item: Item = serde_dynamo::to_item(entity).map_err(|source| Repr::Encode {
        entity: E::RUST_NAME,
        source: Box::new(source),
    })?;
    // `None` is stored as no attribute rather than as NULL: then
    // `attribute_exists` means `Some`, a sparse index keyed on the field
    // works, and an update's `remove` leaves the same item a put of `None`
    // does. serde reads a missing `Option` field back as `None`.
    item.retain(|_, value| !matches!(value, AttributeValue::Null(true)));
    entity.stamp(&mut item, now)?;
    let schema = E::Table::SCHEMA;
    // The library owns every key attribute of the table, including those of
    // indexes this entity does not fill: a field serialised under one would
    // be overwritten, or would slip the item into another entity's index.
    // A raw key attribute is the field itself: written by serde, once.
    let owned = schema
        .key_attributes()
        .into_iter()
        .filter(|attribute| !E::RAW_ATTRIBUTES.contains(attribute))
        .chain([schema.type_attribute]);
    for attribute in owned {
        if item.contains_key(attribute) {
            return Err(Repr::AttributeClash {
                entity: E::RUST_NAME,
                attribute,
            }
            .into());
        }
    }
    let mut put = |attribute: &str, value: String| {
        item.insert(attribute.to_owned(), AttributeValue::S(value));
    };
    let (partition, sort) = entity.primary_key()?.into_parts();
    put(schema.primary.partition_key, partition);
    if let Some(sort_key) = schema.primary.sort_key {
        put(sort_key, sort);
    }
    put(schema.type_attribute, E::TYPE_TAG.to_owned());
    for entry in entity.index_entries()? {
        let Some(key) = entry.key else { continue };
        put(entry.index.keys.partition_key, key.partition);
        if let (Some(attribute), Some(value)) = (entry.index.keys.sort_key, key.sort) {
            put(attribute, value);
        }
    }
    Ok(item)
}

/// Decodes `item` as an `E`: its type attribute must be `E`'s, its body
/// must decode (a failure names the field and where the item is stored),
/// and its stored key attributes must be the keys the decoded value
/// generates ([`StoredKeys::verify`]), so no read returns a value stored
/// under a key that is not its own.
pub(crate) fn from_item<E: Entity>(mut item: Item) -> Result<E> {
    check_type::<E>(&item)?;
    let schema = E::Table::SCHEMA;
    let stored = StoredKeys::take(&mut item, &schema, E::RAW_ATTRIBUTES);
    let entity = decode_body::<E>(item).map_err(|failure| Repr::Decode {
        entity: E::RUST_NAME,
        at: stored.at(&schema),
        field: failure.field,
        source: failure.source,
    })?;
    stored.verify(&entity)?;
    Ok(entity)
}

/// Decodes an item read by its primary key (a get, a write's returned
/// item): its index keys are not how it was found, so a stale one does not
/// fail the read; its table key is verified.
pub(crate) fn from_item_by_key<E: Entity>(mut item: Item) -> Result<E> {
    keep_keys_found_by(&mut item, &E::Table::SCHEMA, None);
    E::from_item(item)
}

/// The one check every typed read makes before decoding: the item's type
/// attribute is `E`'s.
pub(crate) fn check_type<E: Entity>(item: &Item) -> Result<()> {
    match type_tag(item, &E::Table::SCHEMA) {
        Some(tag) if tag == E::TYPE_TAG => Ok(()),
        found => Err(Repr::WrongType {
            entity: E::RUST_NAME,
            expected: E::TYPE_TAG,
            found: found.map(str::to_owned),
        }
        .into()),
    }
}
