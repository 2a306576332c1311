//! An entity's item: its serde body plus the attributes the table needs,
//! and back.

use std::time::SystemTime;

use aws_sdk_dynamodb::types::AttributeValue;

use super::stored::{Stored, Version};
use super::verify::{StoredKeys, item_at};
use super::{Entity, Key, keys};
use crate::codec::{self, ItemTree, KeyFieldValue};
use crate::error::{Expected, Repr, Result};
use crate::item::SCHEMA_VERSION_ATTRIBUTE;
use crate::item::{Item, stored_keys, type_tag};
use crate::table::{KeySchema, Table, TableSchema, Typing};

/// The whole item of `entity`, its maintained timestamps written as of
/// `now`.
pub(crate) fn to_item<E: Entity>(entity: &E, now: SystemTime) -> Result<Item> {
    to_item_stamped(entity, Some(now))
}

/// The whole item of `entity`; its maintained timestamps written as of
/// `now`, or — `None` — left as the value holds them (a backfill rewrites
/// an item without it counting as an update).
pub(crate) fn to_item_stamped<E: Entity>(entity: &E, now: Option<SystemTime>) -> Result<Item> {
    let schema = E::Table::SCHEMA;
    // Room for the attributes added below: primary key, type, index keys.
    let reserve = 3 + 2 * E::INDEXES.len();
    // `None` is stored as no attribute rather than as NULL: then
    // `attribute_exists` means `Some`, a sparse index keyed on the field
    // works, and an update's `remove` leaves the same item a put of `None`
    // does. serde reads a missing `Option` field back as `None`.
    let mut item = codec::encode_entity(entity, reserve).map_err(|err| Repr::Encode {
        entity: E::RUST_NAME,
        source: Box::new(err),
    })?;
    // A primary-key field is stored in the key only unless the entity keeps
    // copies (`key_fields = "key_and_body"`); reads restore it from the key
    // (`restore_key_fields`). An attribute a multi-attribute index is keyed
    // on is that index's key, so it stays.
    for attribute in E::LAYOUT.key_only_attributes() {
        if !is_multi_key_attribute(&schema, attribute) {
            item.remove(attribute);
        }
    }
    if let Some(now) = now {
        entity.stamp(&mut item, now)?;
    }
    if !schema.multi_key_indexes.is_empty() {
        for (name, value) in &item {
            crate::item::check_index_attribute(&schema, E::RUST_NAME, name, value)?;
        }
    }
    if let Some(version) = E::SCHEMA_VERSION {
        if item.contains_key(SCHEMA_VERSION_ATTRIBUTE) {
            return Err(Repr::AttributeClash {
                entity: E::RUST_NAME,
                attribute: SCHEMA_VERSION_ATTRIBUTE,
            }
            .into());
        }
        item.insert(
            SCHEMA_VERSION_ATTRIBUTE.to_owned(),
            AttributeValue::N(version.to_string()),
        );
    }
    // The library owns every key attribute of the table, including those of
    // indexes this entity does not fill: a field serialised under one would
    // be overwritten, or would slip the item into another entity's index.
    // A raw key attribute is the field itself: written by serde, once.
    // The names are compared as they are, not hashed: a few short
    // comparisons per attribute cost less than a lookup per owned name.
    let owned = |name: &str| owned_attribute(&schema, name) && !E::LAYOUT.is_raw_attribute(name);
    if item.keys().any(|name| owned(name)) {
        // Named in declaration order, whatever the map's order.
        let attribute = schema
            .key_attributes()
            .into_iter()
            .chain([schema.type_attribute, schema.token_attribute])
            .find(|attribute| owned(attribute) && item.contains_key(*attribute))
            .unwrap_or(schema.type_attribute);
        return Err(Repr::AttributeClash {
            entity: E::RUST_NAME,
            attribute,
        }
        .into());
    }
    let mut put = |attribute: &str, value: String| {
        item.insert(attribute.to_owned(), AttributeValue::S(value));
    };
    let (partition, sort) = entity.primary_key()?.into_parts();
    put(schema.primary.partition_key, partition);
    if let Some(sort_key) = schema.primary.sort_key {
        put(sort_key, sort);
    }
    // A table typed by key keeps its own convention: no type attribute.
    if schema.typing.writes_type_attribute() {
        put(schema.type_attribute, E::TYPE_TAG.to_owned());
    }
    for entry in entity.index_entries()? {
        let Some(key) = entry.key else { continue };
        // Whoever built the entry (generated or hand-written code), DynamoDB
        // refuses the item if an index key is empty or too long.
        keys::check_index_key(E::RUST_NAME, &entry.index, &key)?;
        let mut put_index = |attribute: &'static str, value: String| {
            // An index keyed by the table's own attributes writes them
            // again: its template must write what the table key wrote.
            match item.get(attribute) {
                Some(AttributeValue::S(written)) if *written != value => {
                    Err(crate::error::Error::from(Repr::IndexKeyClash {
                        entity: E::RUST_NAME,
                        index: entry.index.name,
                        attribute,
                        table: written.clone(),
                        written: value,
                    }))
                }
                _ => {
                    item.insert(attribute.to_owned(), AttributeValue::S(value));
                    Ok(())
                }
            }
        };
        put_index(entry.index.keys.partition_key, key.partition)?;
        if let (Some(attribute), Some(value)) = (entry.index.keys.sort_key, key.sort) {
            put_index(attribute, value)?;
        }
    }
    Ok(item)
}

/// Whether `attribute` is a key attribute of one of the table's
/// multi-attribute indexes (an entity field stored under its own name).
fn is_multi_key_attribute(schema: &TableSchema, attribute: &str) -> bool {
    schema
        .multi_key_indexes
        .iter()
        .any(|index| index.attributes().any(|key| key.name == attribute))
}

/// The primary-key fields an upsert writes into the body of an item it may
/// create: none of those stored in the key only (an item stored in the declared format has no
/// copies, and an upsert of it must not add them), the others as
/// [`EntityHooks::key_fields`] reads them back from `key`.
pub(crate) fn key_copies<E: Entity>(key: &Key<E>) -> Result<Vec<(&'static str, AttributeValue)>> {
    let schema = E::Table::SCHEMA;
    let fields = E::key_fields(key)?;
    Ok(fields
        .into_iter()
        .filter(|(attribute, _)| {
            !E::LAYOUT.is_key_only(attribute) || is_multi_key_attribute(&schema, attribute)
        })
        .map(|(attribute, value)| (attribute, value.into_attribute()))
        .collect())
}

/// The one restore point: every read decodes through
/// [`decode_stored`], which calls it after the stored keys are taken out
/// of the item and before the body is decoded. A primary-key field the
/// body does not hold (stored in the key only, the default; or an item
/// written by other code) is read back from the stored key with the
/// entity's own key reader ([`EntityHooks::key_fields`], the parse updates
/// use), as the attribute serde decodes it from: returned, for
/// [`StoredBody`] to hand to the decoder after the body's own attributes
/// (no name allocated and hashed into the item per field), those the body
/// holds left out. A field the
/// body holds is left as it is: an item written with copies decodes from
/// them, and verification ([`StoredKeys::verify`]) still catches a copy
/// that disagrees with its key.
pub(crate) fn restore_key_fields<'de, E: Entity>(
    body: &impl Stored<'de>,
    stored: &mut StoredKeys,
) -> Result<Vec<(&'static str, KeyFieldValue)>> {
    // How many of the fields' attributes the body holds, in one pass over
    // its names (each is there once).
    let wanted = E::LAYOUT.key_field_attributes().count();
    if wanted == 0 {
        return Ok(Vec::new());
    }
    let held = body
        .names()
        .filter(|name| {
            E::LAYOUT
                .key_field_attributes()
                .any(|attribute| attribute == *name)
        })
        .count();
    if held == wanted {
        return Ok(Vec::new());
    }
    // Without a partition key there is nothing to read back; decoding
    // reports the missing field, with where the item is.
    let (Some(partition), sort) = stored.strings() else {
        return Ok(Vec::new());
    };
    let schema = E::Table::SCHEMA;
    // A key that is not one of `E`'s: the item is stored under a key its
    // entity does not write, which verification would report as well.
    let unreadable = |err: crate::error::Error, stored: &StoredKeys| {
        let (partition, _) = stored.strings();
        crate::error::Error::from(Repr::KeyMismatch {
            entity: E::RUST_NAME,
            at: stored.at(&schema),
            attribute: schema.primary.partition_key,
            stored: partition.map(str::to_owned),
            expected: Expected::Unparsable {
                templates: templates::<E>(),
                why: err.to_string(),
            },
        })
    };
    if let Err(err) = Key::<E>::check(partition, sort.unwrap_or_default()) {
        return Err(unreadable(err, stored));
    }
    // The stored strings are lent to the key, not copied, and put back.
    let Some((partition, sort)) = stored.take_strings() else {
        return Ok(Vec::new());
    };
    let had_sort = sort.is_some();
    let key = Key::<E>::checked(partition, sort.unwrap_or_default());
    let fields = E::key_fields(&key);
    let (partition, sort) = key.into_parts();
    stored.put_strings(partition, had_sort.then_some(sort));
    let mut fields = fields.map_err(|err| unreadable(err, stored))?;
    // A field the body holds is decoded from the body.
    if held > 0 {
        fields.retain(|(name, _)| !body.holds(name));
    }
    Ok(fields)
}

/// `E`'s primary-key templates, for messages.
fn templates<E: Entity>() -> String {
    match E::LAYOUT.key_templates() {
        (partition, Some(sort)) => format!("`{partition}` / `{sort}`"),
        (partition, None) => format!("`{partition}`"),
    }
}

/// The value `item` decodes to as an `E`, and the key attributes taken
/// out of it (to verify against the value, and to say where it is): the
/// write token set aside, the key fields restored, the schema version's
/// upcast applied. The one decode of a stored item, for every read and the
/// backfill alike; the keys are verified after it. With `check`, the type
/// is checked first ([`StoredKeys::check_type`], on the attributes just
/// taken out: the item is not searched for them twice).
pub(crate) fn decode_stored<'de, E: Entity>(
    mut item: impl Stored<'de>,
    check: bool,
) -> Result<(E, StoredKeys)> {
    let schema = E::Table::SCHEMA;
    let mut stored = item.take_keys(&schema, E::LAYOUT);
    if check {
        stored.check_type::<E>()?;
    }
    let key_fields = restore_key_fields::<E>(&item, &mut stored)?;
    let read_back = ReadBack::of::<E>(&key_fields);
    let version = take_schema_version::<E>(&mut item);
    let body = item.into_body(key_fields);
    let entity = E::decode_body(version, body).map_err(|err| {
        let path = err.path();
        Repr::Decode {
            entity: E::RUST_NAME,
            at: stored.at(&schema),
            field: (!path.is_empty()).then_some(path),
            source: err.message().into(),
        }
    })?;
    if read_back.is_some_and(|read_back| read_back.found_in(&entity)) {
        stored.primary_read_back();
    }
    Ok((entity, stored))
}

/// Every primary-key field of an item, as read back from its stored key
/// (none held by the body), when each is an integer: kept aside before
/// the body is decoded, to find them unchanged in the decoded value. Plain
/// numbers, copied and dropped for nothing.
struct ReadBack {
    fields: [ReadBackInteger; READ_BACK_MAX],
    len: usize,
}

/// An integer key field as [`KeyFieldValue`] holds it.
#[derive(Clone, Copy)]
enum ReadBackInteger {
    U64(u64),
    I64(i64),
}

/// The most key fields [`ReadBack`] keeps; a key of more is verified by
/// writing it.
const READ_BACK_MAX: usize = 4;

impl ReadBack {
    /// The integers of `key_fields`, when they are every one of `E`'s
    /// primary-key fields.
    fn of<E: Entity>(key_fields: &[(&'static str, KeyFieldValue)]) -> Option<Self> {
        if key_fields.is_empty()
            || key_fields.len() > READ_BACK_MAX
            || key_fields.len() != E::LAYOUT.key_field_attributes().count()
        {
            return None;
        }
        let mut kept = ReadBack {
            fields: [ReadBackInteger::U64(0); READ_BACK_MAX],
            len: key_fields.len(),
        };
        for (slot, (_, value)) in kept.fields.iter_mut().zip(key_fields) {
            *slot = match *value {
                KeyFieldValue::U64(n) => ReadBackInteger::U64(n),
                KeyFieldValue::I64(n) => ReadBackInteger::I64(n),
                KeyFieldValue::Attribute(_) => return None,
            };
        }
        Some(kept)
    }

    /// Whether `entity` holds every field as it was read back, each of a
    /// key type whose parse is canonical ([`EntityHooks::key_field_is`]):
    /// then the stored primary key is exactly the one `entity` writes, as
    /// the key reader matched its literals and left nothing over.
    fn found_in<E: Entity>(&self, entity: &E) -> bool {
        let mut read_back = self.fields[..self.len].iter().enumerate();
        read_back.all(|(position, integer)| {
            let value = match *integer {
                ReadBackInteger::U64(n) => KeyFieldValue::U64(n),
                ReadBackInteger::I64(n) => KeyFieldValue::I64(n),
            };
            entity.key_field_is(position, &value)
        })
    }
}

/// Whether the library writes an attribute named `name` in a table of
/// `schema`: a key attribute of the table or of any of its indexes, the
/// type attribute (where the table has one) or the write token.
pub(crate) fn owned_attribute(schema: &TableSchema, name: &str) -> bool {
    let is_key = |keys: &KeySchema| name == keys.partition_key || keys.sort_key == Some(name);
    (name == schema.type_attribute && schema.typing.writes_type_attribute())
        || schema.is_token_attribute(name)
        || is_key(&schema.primary)
        || schema.indexes.iter().any(|index| is_key(&index.keys))
}

/// Decodes `item` as an `E`: its type attribute must be `E`'s, its body
/// must decode (a failure names the field and where the item is stored),
/// and its stored key attributes must be the keys the decoded value
/// generates ([`StoredKeys::verify`]), so no read returns a value stored
/// under a key that is not its own. The write token is the library's, never
/// the entity's: it is taken out first, so even an entity that denies
/// unknown fields reads an item written with one.
pub(crate) fn from_item<E: Entity>(item: Item) -> Result<E> {
    let (entity, stored) = decode_stored::<E>(item, true)?;
    stored.verify(&entity)?;
    Ok(entity)
}

/// The schema version `item` was written at, taken out of it: for an
/// entity that declares versions, the stored number (1 when the item has
/// none: it predates versioning); for one that does not, its only shape.
pub(crate) fn take_schema_version<'de, E: Entity>(item: &mut impl Stored<'de>) -> u64 {
    let Some(current) = E::SCHEMA_VERSION else {
        return 0;
    };
    match item.take_version() {
        Version::Missing => 1,
        // A value that is no number is reported by decoding as the oldest
        // shape, whose error names the item.
        Version::Number(n) => n.unwrap_or(current.max(1) + 1),
        Version::Other => current + 1,
    }
}

/// [`from_item`] of an item parsed from a response's bytes, routed to `E`
/// by its type (the type attribute, or on a table typed by key the one
/// member whose templates its keys parse against: the check
/// [`StoredKeys::check_type`] would make, already made).
pub(crate) fn from_tree<E: Entity>(tree: ItemTree<'_>) -> Result<E> {
    let (entity, stored) = decode_stored::<E>(tree, false)?;
    stored.verify(&entity)?;
    Ok(entity)
}

/// Decodes an item read by its primary key (a get, a batch get, a
/// transaction's get, a write's returned item), whether the SDK parsed it
/// or it was parsed from the response's bytes: its index keys are not how
/// it was found, so a stale one does not fail the read; its type is
/// checked and its table key verified, as [`from_item`] does.
pub(crate) fn from_item_by_key<'de, E: Entity>(mut item: impl Stored<'de>) -> Result<E> {
    item.found_by_table(&E::Table::SCHEMA);
    let (entity, stored) = decode_stored::<E>(item, true)?;
    stored.verify(&entity)?;
    Ok(entity)
}

/// The one check every typed read makes before decoding: the item is an
/// `E`. On a table typed by attribute its type attribute is `E`'s; on one
/// typed by key its stored keys parse as `E`'s templates; on one typed by
/// both, an item with a type attribute goes by it and one without by its
/// keys.
pub(crate) fn check_type<E: Entity>(item: &Item) -> Result<()> {
    let schema = E::Table::SCHEMA;
    let tag = match schema.typing {
        Typing::Key => None,
        _ => type_tag(item, &schema),
    };
    check_stored_type::<E>(tag, stored_keys(item, &schema), || item_at(item, &schema))
}

/// [`check_type`] on what it reads: the type attribute's string (`None`
/// where the table has none, or the item none that is a string), the
/// stored keys' strings, and where the item is (for the error). The one
/// type check, whether the item still holds its keys or they were taken
/// out of it ([`StoredKeys::check_type`]).
pub(crate) fn check_stored_type<E: Entity>(
    tag: Option<&str>,
    (partition, sort): (Option<&str>, Option<&str>),
    at: impl FnOnce() -> crate::error::ItemAt,
) -> Result<()> {
    let schema = E::Table::SCHEMA;
    if tag.is_none() && schema.typing.reads_keys() {
        return match partition {
            Some(partition) if E::key_matches(partition, sort) => Ok(()),
            _ => Err(Repr::KeyNotOfEntity {
                entity: E::RUST_NAME,
                templates: E::LAYOUT.key_templates(),
                at: at(),
            }
            .into()),
        };
    }
    match tag {
        Some(tag) if tag == E::TYPE_TAG => Ok(()),
        found => Err(Repr::WrongType {
            entity: E::RUST_NAME,
            expected: E::TYPE_TAG,
            found: found.map(str::to_owned),
        }
        .into()),
    }
}
