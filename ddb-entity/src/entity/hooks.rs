//! What generated code implements besides [`Entity`](super::Entity): the
//! maintenance every write does on the entity's behalf. Hidden: reached
//! only through `__private`, never part of the public API.

use std::any::Any;
use std::time::SystemTime;

use aws_sdk_dynamodb::types::AttributeValue;

use super::{AttrPath, IndexKey, Key, Timestamp};
use crate::codec::{DecodeError, KeyFieldValue};
use crate::error::{Repr, Result};
use crate::item::Item;
use crate::table::IndexSchema;

/// What `#[derive(Entity)]` writes next to the `Entity` impl: the index
/// keys an update moves, the maintained timestamps, the optimistic-locking
/// version. A hand-written entity without indexes, version or timestamps
/// implements it with [`index_changes`](EntityHooks::index_changes)
/// returning no change.
#[doc(hidden)]
pub trait EntityHooks: Sized {
    /// Whether stored key values parse as this entity's primary key: the
    /// leading literals, every hole's value and nothing left over. How a
    /// table typed by key (`typed_by: Key`) knows an item's entity. A
    /// hand-written entity matches no key unless it says otherwise.
    fn key_matches(partition: &str, sort: Option<&str>) -> bool {
        let _ = (partition, sort);
        false
    }

    /// The entity's schema version (`#[entity(schema_version = N)]`),
    /// stored in every item it writes under
    /// [`SCHEMA_VERSION_ATTRIBUTE`](crate::item::SCHEMA_VERSION_ATTRIBUTE);
    /// `None` for an entity that declares none.
    const SCHEMA_VERSION: Option<u64> = None;

    /// Decodes a body stored at schema `version` (1 for an item without
    /// the attribute): the current shape directly, an older one through
    /// the entity's upcast chain (`#[entity(upcast = [V1, V2])]`).
    fn decode_body(version: u64, body: StoredBody<'_>) -> std::result::Result<Self, DecodeError>
    where
        Self: serde::de::DeserializeOwned,
    {
        let _ = version;
        body.decode()
    }

    /// The value's version (0 for an entity without one, or never stored).
    fn version(&self) -> u64 {
        0
    }

    /// The maintained `updated_at` timestamp, if any.
    const UPDATED_AT: Option<Stamp> = None;

    /// The maintained `created_at` timestamp, if any.
    const CREATED_AT: Option<Stamp> = None;

    /// Whether the value's `created_at` field is unset (so a write stamps
    /// it); `false` for an entity without one.
    fn created_unset(&self) -> bool {
        false
    }

    /// Writes the maintained timestamps into `item` for a write at `now`:
    /// `updated_at` always, `created_at` while the value's is not set.
    fn stamp(&self, item: &mut Item, now: SystemTime) -> Result<()> {
        let created = Self::CREATED_AT.filter(|_| self.created_unset());
        for stamp in Self::UPDATED_AT.into_iter().chain(created) {
            let (attribute, value) = stamp.entry(now)?;
            item.insert(attribute.to_owned(), value);
        }
        Ok(())
    }

    /// The `updated_at` attribute and its value for an update at `now`.
    fn updated_at(now: SystemTime) -> Result<Option<(&'static str, AttributeValue)>> {
        Self::UPDATED_AT.map(|stamp| stamp.entry(now)).transpose()
    }

    /// The `created_at` attribute and its value for an item created at
    /// `now` (an upsert keeps a stored one).
    fn created_at(now: SystemTime) -> Result<Option<(&'static str, AttributeValue)>> {
        Self::CREATED_AT.map(|stamp| stamp.entry(now)).transpose()
    }

    /// The primary-key fields, parsed back from `key`, as the attributes
    /// the entity's body stores them under: what an upsert writes, since it
    /// may create the item. (A hand-written entity without it cannot be
    /// upserted: the item would not decode, which is refused before
    /// sending.)
    fn key_fields(key: &Key<Self>) -> Result<Vec<(&'static str, KeyFieldValue)>> {
        let _ = key;
        Ok(Vec::new())
    }

    /// Whether this value's primary-key field at `position` (in the order
    /// [`key_fields`](Self::key_fields) returns them) is `value`, as
    /// `key_fields` read it back from a stored key, for a key type whose
    /// parse is canonical
    /// ([`KeyPart::CANONICAL`](crate::key::KeyPart::CANONICAL)). Generated
    /// only for a primary key of plain holes, each field once, none raw or
    /// generic, no shard: then, with every field found so, the stored key
    /// is the one the value writes. False by default (verification writes
    /// the key and compares).
    fn key_field_is(&self, position: usize, value: &KeyFieldValue) -> bool {
        let _ = (position, value);
        false
    }

    /// For every index whose template uses a field the update changes, the
    /// recomputed key (or its removal when an `Option` hole becomes
    /// `None`); a template field the update does not set is
    /// `MissingKeyField`.
    fn index_changes(key: &Key<Self>, changes: &Changes) -> Result<Vec<IndexChange>>;
}

/// A maintained timestamp (`updated_at = "…"`, `created_at = "…"`): its
/// attribute, and how its value is written for an instant.
#[derive(Clone, Copy)]
pub struct Stamp {
    entity: &'static str,
    attribute: &'static str,
    encode: fn(&'static str, SystemTime) -> Result<AttributeValue>,
}

impl Stamp {
    /// The timestamp of `entity` stored under `attribute` as a `T`.
    pub const fn of<T: Timestamp>(entity: &'static str, attribute: &'static str) -> Self {
        Stamp {
            entity,
            attribute,
            encode: encode::<T>,
        }
    }

    /// Its attribute and its value for the instant `now`.
    fn entry(&self, now: SystemTime) -> Result<(&'static str, AttributeValue)> {
        Ok((self.attribute, (self.encode)(self.entity, now)?))
    }
}

/// A maintained timestamp of type `T` for the instant `now`, as stored.
fn encode<T: Timestamp>(entity: &'static str, now: SystemTime) -> Result<AttributeValue> {
    crate::codec::to_attribute_value(&T::from_system_time(now)).map_err(|source| {
        Repr::Encode {
            entity,
            source: Box::new(source),
        }
        .into()
    })
}

/// The changes of one update, as generated code reads them to recompute
/// index keys.
#[derive(Default)]
pub struct Changes {
    pub(crate) entries: Vec<Change>,
    /// The update may create the item (an upsert).
    pub(crate) creates: bool,
}

/// One field an update changes (or a place inside it).
pub(crate) struct Change {
    /// The Rust name of the field.
    pub(crate) field: &'static str,
    /// The attribute changed: the field's, or a place inside it.
    pub(crate) path: AttrPath,
    pub(crate) action: Action,
    /// The typed value of a `set` of the whole field, for key
    /// recomputation.
    pub(crate) value: Option<Box<dyn Any + Send + Sync>>,
}

impl Change {
    /// A change of a library-maintained attribute (version, timestamp,
    /// write token): no typed value.
    pub(crate) fn maintained(attribute: &'static str, action: Action) -> Self {
        Change {
            field: attribute,
            path: AttrPath::top(attribute),
            action,
            value: None,
        }
    }
}

/// What an update does to one attribute (or a place inside one).
pub(crate) enum Action {
    /// `SET p = v`.
    Set(AttributeValue),
    /// `REMOVE p`.
    Remove,
    /// `ADD p v`: a number added, or elements added to a set.
    Add(AttributeValue),
    /// `DELETE p v`: elements taken out of a set.
    Delete(AttributeValue),
    /// `SET p = if_not_exists(p, v)`: the first value kept.
    SetIfNotExists(AttributeValue),
    /// `SET p = list_append(…)`: elements at the end (or the front) of a
    /// list, which is created if missing.
    Append { values: AttributeValue, front: bool },
    /// `SET p = if_not_exists(p, 0) + v`: a number inside a document
    /// (`ADD` takes only top-level attributes).
    Increment(AttributeValue),
}

impl Action {
    /// The value the action writes, where it has one.
    pub(crate) fn value(&self) -> Option<&AttributeValue> {
        match self {
            Action::Set(v)
            | Action::Add(v)
            | Action::Delete(v)
            | Action::SetIfNotExists(v)
            | Action::Increment(v)
            | Action::Append { values: v, .. } => Some(v),
            Action::Remove => None,
        }
    }
}

/// What an update does to one field, seen from generated code.
pub enum Lookup<'a, T> {
    /// The update does not change the field.
    Untouched,
    /// The field is set to this value.
    Set(&'a T),
    /// The field is removed (an `Option` becoming `None`).
    Removed,
    /// The field is added to (or otherwise changed on the server): its
    /// new value is unknown here.
    Added,
}

impl Changes {
    /// Whether the update may create the item (an upsert): then every index
    /// key the entity writes must be computable from the changes and the
    /// key, and is written.
    pub fn creates(&self) -> bool {
        self.creates
    }

    /// Whether the update changes any of `fields`.
    pub fn touches(&self, fields: &[&str]) -> bool {
        self.entries.iter().any(|c| fields.contains(&c.field))
    }

    /// The value the update sets `field` (of type `T`) to, to recompute
    /// the key of index `index`: an update that changes the field
    /// otherwise (adds to it, sets a place inside it) leaves the key
    /// unknown, `MissingKeyField`.
    pub fn value_of<T: 'static>(
        &self,
        entity: &'static str,
        index: &'static str,
        field: &'static str,
    ) -> Result<&T> {
        match self.lookup::<T>(field) {
            Lookup::Set(value) => Ok(value),
            _ => Err(Repr::MissingKeyField {
                entity,
                index,
                field,
            }
            .into()),
        }
    }

    /// As [`value_of`](Changes::value_of), for an `Option` field, which an
    /// update may also remove: then `None`.
    pub fn value_or_removed<T: 'static>(
        &self,
        entity: &'static str,
        index: &'static str,
        field: &'static str,
    ) -> Result<Option<&T>> {
        match self.lookup::<T>(field) {
            Lookup::Removed => Ok(None),
            _ => self.value_of(entity, index, field).map(Some),
        }
    }

    /// What the update does to `field`, whose type is `T`.
    pub fn lookup<T: 'static>(&self, field: &str) -> Lookup<'_, T> {
        match self.entries.iter().rev().find(|c| c.field == field) {
            None => Lookup::Untouched,
            Some(change) => match &change.action {
                Action::Remove if change.path.is_top() => Lookup::Removed,
                Action::Set(_) if change.path.is_top() => change
                    .value
                    .as_ref()
                    .and_then(|value| value.downcast_ref::<T>())
                    .map_or(Lookup::Untouched, Lookup::Set),
                // Computed on the server, or a place inside the field:
                // the field's new value is unknown here.
                _ => Lookup::Added,
            },
        }
    }
}

/// How one index's key attributes change with an update.
#[derive(Debug)]
pub enum IndexChange {
    /// Write these key values.
    Set(IndexSchema, IndexKey),
    /// Remove the key attributes: the item leaves the (sparse) index.
    Remove(IndexSchema),
}

/// An item's body as a read decodes it: its attributes (keys, type and
/// write token taken out) and the primary-key fields read back from its
/// key that the attributes lack, decoded as one map without inserting the
/// fields into the item first. The attributes are an SDK item's, or those
/// of an item parsed from a response's bytes (borrowing from them).
#[doc(hidden)]
pub struct StoredBody<'de> {
    attributes: Attributes<'de>,
    key_fields: Vec<(&'static str, KeyFieldValue)>,
}

/// Where a [`StoredBody`]'s attributes are held.
enum Attributes<'de> {
    Item(Item),
    Wire(crate::codec::wire::Entries<'de>),
}

impl<'de> StoredBody<'de> {
    /// `item`, and `key_fields`, none of which `item` holds (an item
    /// written with copies decodes from its copies: `restore_key_fields`
    /// leaves those out).
    pub(crate) fn new(item: Item, key_fields: Vec<(&'static str, KeyFieldValue)>) -> Self {
        debug_assert!(
            key_fields
                .iter()
                .all(|(name, _)| crate::item::attribute(&item, name).is_none())
        );
        StoredBody {
            attributes: Attributes::Item(item),
            key_fields,
        }
    }

    /// The attributes of an item parsed from a response's bytes, and
    /// `key_fields`, none of which they hold.
    pub(crate) fn wire(
        entries: crate::codec::wire::Entries<'de>,
        key_fields: Vec<(&'static str, KeyFieldValue)>,
    ) -> Self {
        StoredBody {
            attributes: Attributes::Wire(entries),
            key_fields,
        }
    }

    /// Decodes the body as a `T` (the entity, or an earlier shape of it).
    pub fn decode<T: serde::de::DeserializeOwned>(self) -> std::result::Result<T, DecodeError> {
        let mut key_fields = self.key_fields;
        let decoded = match self.attributes {
            Attributes::Item(mut item) => crate::codec::decode_body(&mut item, &mut key_fields),
            Attributes::Wire(entries) => crate::codec::decode_wire_body(entries, &mut key_fields),
        };
        recycle_key_fields(key_fields);
        decoded
    }
}

thread_local! {
    /// A key-field list handed back once its body is decoded
    /// ([`StoredBody::decode`]), for the next item's
    /// [`EntityHooks::key_fields`]: a read would otherwise allocate and
    /// free one per item.
    static SPARE_KEY_FIELDS: std::cell::Cell<Vec<(&'static str, KeyFieldValue)>> =
        const { std::cell::Cell::new(Vec::new()) };
}

/// The most key fields a kept list has room for (a primary key has a few).
const SPARE_KEY_FIELDS_CAPACITY: usize = 16;

/// An empty key-field list with room for `capacity`: the spare one, or a
/// new one.
pub(crate) fn spare_key_fields(capacity: usize) -> Vec<(&'static str, KeyFieldValue)> {
    let mut fields = SPARE_KEY_FIELDS
        .try_with(std::cell::Cell::take)
        .unwrap_or_default();
    fields.reserve(capacity);
    fields
}

/// Keeps `fields`' allocation for the next [`spare_key_fields`] on this
/// thread (a small one only).
fn recycle_key_fields(mut fields: Vec<(&'static str, KeyFieldValue)>) {
    if fields.capacity() == 0 || fields.capacity() > SPARE_KEY_FIELDS_CAPACITY {
        return;
    }
    fields.clear();
    let _ = SPARE_KEY_FIELDS.try_with(|spare| spare.set(fields));
}
