//! A stored item as the one decode ([`decode_stored`](super::convert::decode_stored))
//! reads it, whichever way it is held: an SDK [`Item`] (a get, a batch, a
//! stream record, items obtained elsewhere), or an [`ItemTree`] parsed once
//! from a response's bytes (a typed query or scan page). The decode's steps
//! — take the stored keys out, check the type, restore the key fields,
//! read the schema version, decode the body, verify — are written once,
//! over this trait; each representation only says how its attributes are
//! taken out and looked at.

use std::time::SystemTime;

use aws_sdk_dynamodb::types::AttributeValue;

use super::StoredBody;
use super::verify::{StoredKeys, keep_keys_found_by};
use crate::codec::wire::Wire;
use crate::codec::{ItemTree, KeyFieldValue};
use crate::item::{Item, SCHEMA_VERSION_ATTRIBUTE, ttl};
use crate::layout::EntityLayout;
use crate::table::TableSchema;

/// The schema-version attribute as an item holds it.
pub(crate) enum Version {
    /// None: the item predates versioning.
    Missing,
    /// A number, parsed (`None`: its text is no `u64`).
    Number(Option<u64>),
    /// Some other type.
    Other,
}

/// An item being decoded (crate-private: the two representations are
/// ours).
pub(crate) trait Stored<'de>: Sized {
    /// Takes the key attributes, the type attribute and the write tokens
    /// out: what remains is the body ([`StoredKeys::take`]'s rules).
    fn take_keys(&mut self, schema: &TableSchema, layout: &EntityLayout) -> StoredKeys;

    /// Whether the body holds a top-level attribute `name`.
    fn holds(&self, name: &str) -> bool;

    /// The body's attribute names.
    fn names(&self) -> impl Iterator<Item = &str>;

    /// Takes the schema-version attribute out.
    fn take_version(&mut self) -> Version;

    /// The body, with the key fields read back from the key that it does
    /// not hold.
    fn into_body(self, key_fields: Vec<(&'static str, KeyFieldValue)>) -> StoredBody<'de>;

    /// The text of the top-level number attribute `name` (`None`: missing,
    /// or not a number).
    fn number(&self, name: &str) -> Option<&str>;

    /// Marks the item as read by its table key (a get, a batch get, a
    /// transaction's get, a write's returned item): its index keys are not
    /// how it was found, so a stale one does not fail the read
    /// ([`keep_keys_found_by`](super::verify::keep_keys_found_by)'s rule).
    fn found_by_table(&mut self, schema: &TableSchema);

    /// Whether the item is past its time to live at `now`
    /// ([`ttl::expired`]'s rule, whatever holds the item).
    fn is_expired(&self, schema: &TableSchema, now: SystemTime) -> bool {
        schema
            .ttl_attribute
            .is_some_and(|attribute| ttl::expired(self.number(attribute), now))
    }
}

impl Stored<'static> for Item {
    fn take_keys(&mut self, schema: &TableSchema, layout: &EntityLayout) -> StoredKeys {
        StoredKeys::take(self, schema, layout)
    }

    fn holds(&self, name: &str) -> bool {
        crate::item::attribute(self, name).is_some()
    }

    fn names(&self) -> impl Iterator<Item = &str> {
        self.keys().map(String::as_str)
    }

    fn take_version(&mut self) -> Version {
        match self.remove(SCHEMA_VERSION_ATTRIBUTE) {
            None => Version::Missing,
            Some(AttributeValue::N(n)) => Version::Number(n.parse().ok()),
            Some(_) => Version::Other,
        }
    }

    fn into_body(self, key_fields: Vec<(&'static str, KeyFieldValue)>) -> StoredBody<'static> {
        StoredBody::new(self, key_fields)
    }

    fn number(&self, name: &str) -> Option<&str> {
        self.get(name)
            .and_then(|value| value.as_n().ok())
            .map(String::as_str)
    }

    fn found_by_table(&mut self, schema: &TableSchema) {
        keep_keys_found_by(self, schema, None);
    }
}

impl<'de> Stored<'de> for ItemTree<'de> {
    fn take_keys(&mut self, schema: &TableSchema, layout: &EntityLayout) -> StoredKeys {
        StoredKeys::take_from_tree(self, schema, layout)
    }

    fn holds(&self, name: &str) -> bool {
        self.entries.iter().any(|(key, _)| key == name)
    }

    fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(key, _)| &**key)
    }

    fn take_version(&mut self) -> Version {
        let Some(at) = self
            .entries
            .iter()
            .position(|(key, _)| key == SCHEMA_VERSION_ATTRIBUTE)
        else {
            return Version::Missing;
        };
        match self.entries.remove(at).1 {
            Wire::N(n) => Version::Number(n.parse().ok()),
            _ => Version::Other,
        }
    }

    fn into_body(self, key_fields: Vec<(&'static str, KeyFieldValue)>) -> StoredBody<'de> {
        StoredBody::wire(self.entries, key_fields)
    }

    fn number(&self, name: &str) -> Option<&str> {
        self.entries
            .iter()
            .find_map(|(key, value)| (key == name).then_some(value))
            .and_then(|value| match value {
                Wire::N(n) => Some(&**n),
                _ => None,
            })
    }

    fn found_by_table(&mut self, _: &TableSchema) {
        self.found_by = None;
    }
}
