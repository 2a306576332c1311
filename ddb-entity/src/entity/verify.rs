//! The stored key against the decoded entity: a typed read never returns a
//! value whose keys are not the keys it was stored (and found) under.
//!
//! The body of an item and its key attributes are written together by
//! [`to_item`](super::codec::to_item), but nothing stops other code from
//! writing a body under another key (customer 9's order at customer 8's
//! key), an `ORDER`-typed item at a sort key no `Order` has, or leaving an
//! index key behind when a field changed. Each would be returned as valid
//! by a read of that key, that partition or that index. So every decode
//! takes the stored key attributes out of the item first and, once the
//! body is decoded, compares them with the keys the value generates.
//!
//! Only the keys an item was found by are compared (see
//! [`keep_keys_found_by`]): a get checks the table key, a query of an
//! index that index's key too. A consequence to know: after a key template
//! changes, items stored under the old template are refused by reads
//! through that key until they are written again (backfilled).

use aws_sdk_dynamodb::types::AttributeValue;

use super::Entity;
use super::convert::check_stored_type;
use super::keys::recycle_key_buffer;
use crate::codec::ItemTree;
use crate::codec::wire::Wire;
use crate::error::{Error, Expected, ItemAt, Repr, Result};
use crate::item::Item;
use crate::layout::EntityLayout;
use crate::table::{Table, TableSchema};

/// The key attributes an item was stored under, taken out of it. Each is
/// held as the string it is, `None` where the item holds no string: every
/// use of a stored key (the type check, reading key fields back,
/// verification, where the item is) reads its string only, and a value of
/// another type is a key no entity writes, reported as one that is absent.
#[derive(Default)]
pub(crate) struct StoredKeys {
    partition: Option<String>,
    sort: Option<String>,
    /// The index key attributes the item carries (none but the table's own
    /// after a read by primary key: see [`keep_keys_found_by`]), each
    /// listed even when it is no string (then a mismatch).
    index: Vec<(&'static str, Option<String>)>,
    /// The type attribute, taken out with the keys (on a table whose
    /// entities write one): what [`StoredKeys::check_type`] reads, so the
    /// item is not searched for it a second time.
    tag: Option<String>,
    /// Whether the decoded value holds every primary-key field exactly as
    /// read back from these keys, each of a key type whose parse is
    /// canonical (see [`StoredKeys::primary_read_back`]).
    primary_read_back: bool,
}

impl StoredKeys {
    /// Takes the key attributes, the type attribute and the write token out
    /// of `item`: what remains is the body. A *raw* key attribute (a field
    /// that is the key attribute itself, see `EntityLayout::is_raw_attribute`)
    /// is copied and stays in the body, which needs it; no other entity
    /// field has a key attribute's name (the library refuses to write such
    /// an entity).
    pub(crate) fn take(item: &mut Item, schema: &TableSchema, layout: &EntityLayout) -> Self {
        if layout.has_raw_key() {
            Self::take_by_name(item, schema, |name| layout.is_raw_attribute(name))
        } else {
            Self::take_in_one_pass(item, schema)
        }
    }

    /// [`StoredKeys::take`] name by name, for an entity with raw key
    /// attributes (`is_raw`), which are copied and stay in the body.
    fn take_by_name(item: &mut Item, schema: &TableSchema, is_raw: impl Fn(&str) -> bool) -> Self {
        item.retain(|name, _| !schema.is_token_attribute(name));
        let primary = schema.primary;
        let is_primary =
            |name: &str| name == primary.partition_key || primary.sort_key == Some(name);
        // One buffer for the set-aside names looked up (none for the table's
        // own key attributes, which `keep_keys_found_by` never sets aside).
        let mut aside_name = String::new();
        let mut take = |name: &str| {
            let aside = if is_primary(name) {
                None
            } else {
                aside_name.clear();
                aside_name.push(SET_ASIDE);
                aside_name.push_str(name);
                item.remove(aside_name.as_str())
            };
            if is_raw(name) {
                if let Some(value) = aside {
                    // Not how the item was found (so not verified), but
                    // part of its body.
                    item.insert(name.to_owned(), value);
                    return None;
                }
                item.get(name).cloned()
            } else {
                item.remove(name)
            }
        };
        let partition = take(schema.primary.partition_key).and_then(string_of);
        let sort = schema
            .primary
            .sort_key
            .and_then(&mut take)
            .and_then(string_of);
        let mut index = Vec::new();
        for keys in schema.indexes.iter().map(|index| index.keys) {
            for name in std::iter::once(keys.partition_key).chain(keys.sort_key) {
                if let Some(value) = take(name) {
                    index.push((name, string_of(value)));
                }
            }
        }
        let tag = if schema.typing.writes_type_attribute() {
            item.remove(schema.type_attribute).and_then(string_of)
        } else {
            None
        };
        StoredKeys {
            partition,
            sort,
            index,
            tag,
            ..StoredKeys::default()
        }
    }

    /// [`StoredKeys::take`] for an entity with no raw key attribute (every
    /// key attribute leaves the body), in one pass over the item: each name
    /// compared, none hashed, nothing looked up twice, each string moved
    /// out as it is. The write token goes too
    /// (it is the library's, never the body's). What it takes, and in what
    /// order the index keys are listed (the schema's), is what looking
    /// each name up takes.
    fn take_in_one_pass(item: &mut Item, schema: &TableSchema) -> Self {
        let primary = schema.primary;
        let tagged = schema.typing.writes_type_attribute();
        let indexed = !schema.indexes.is_empty();
        let mut stored = StoredKeys::default();
        let mut unordered = false;
        // Each attribute the library owns leaves the map, its string moved
        // into `stored` first (what is left, an empty string, frees
        // nothing).
        item.retain(|name, value| {
            let mut take = || match value {
                AttributeValue::S(value) => Some(std::mem::take(value)),
                _ => None,
            };
            if same(name, primary.partition_key) {
                stored.partition = take();
            } else if primary.sort_key.is_some_and(|sort| same(name, sort)) {
                stored.sort = take();
            } else if let Some(attribute) =
                indexed.then(|| index_key_attribute(schema, name)).flatten()
            {
                unordered |= !stored.index.is_empty();
                stored.index.push((attribute, take()));
            } else if tagged && same(name, schema.type_attribute) {
                stored.tag = take();
            } else if starts_alike(name, schema.token_attribute) && schema.is_token_attribute(name)
            {
                // Dropped.
            } else if name
                .strip_prefix(SET_ASIDE)
                .is_some_and(|aside| index_key_attribute(schema, aside).is_some())
            {
                // Set aside (not how the item was found): dropped.
            } else {
                return true;
            }
            false
        });
        if unordered {
            stored
                .index
                .sort_by_key(|(name, _)| index_key_position(schema, name));
        }
        stored
    }

    /// [`StoredKeys::take`] of an item parsed from a response's bytes, in
    /// one pass over its attributes: the index keys it was not found by
    /// (`tree.found_by`) are set aside as [`keep_keys_found_by`] sets them
    /// aside on an SDK item (dropped; a raw key attribute stays in the
    /// body, unverified), and a raw key attribute it was found by is
    /// copied and stays in the body, as the take by name does.
    pub(crate) fn take_from_tree(
        tree: &mut ItemTree<'_>,
        schema: &TableSchema,
        layout: &EntityLayout,
    ) -> Self {
        let primary = schema.primary;
        let tagged = schema.typing.writes_type_attribute();
        let raw_keys = layout.has_raw_key();
        let kept = tree
            .found_by
            .and_then(|name| schema.index(name))
            .map(|index| index.keys);
        let mut stored = StoredKeys::default();
        let mut unordered = false;
        let sought = Sought::of(schema);
        tree.entries.retain(|(name, value)| {
            if !sought.may_be(name) {
                return true;
            }
            let raw = raw_keys && layout.is_raw_attribute(name);
            // A key is read as its string only (as `string_of` reads an
            // SDK value): any other type is a key no entity writes.
            let copy = || match value {
                Wire::S(text) => Some(text.clone().into_owned()),
                _ => None,
            };
            if name == primary.partition_key {
                stored.partition = copy();
                raw
            } else if primary.sort_key == Some(&**name) {
                stored.sort = copy();
                raw
            } else if let Some(attribute) = index_key_attribute(schema, name) {
                if kept
                    .is_some_and(|k| k.partition_key == attribute || k.sort_key == Some(attribute))
                {
                    unordered |= !stored.index.is_empty();
                    stored.index.push((attribute, copy()));
                }
                raw
            } else if tagged && name == schema.type_attribute {
                stored.tag = copy();
                false
            } else {
                !schema.is_token_attribute(name)
            }
        });
        if unordered {
            stored
                .index
                .sort_by_key(|(name, _)| index_key_position(schema, name));
        }
        stored
    }

    /// The type check of a read ([`check_stored_type`]) on the attributes
    /// [`StoredKeys::take`] took out: the item is not searched for them a
    /// second time.
    pub(crate) fn check_type<E: Entity>(&self) -> Result<()> {
        check_stored_type::<E>(self.tag.as_deref(), self.strings(), || {
            self.at(&E::Table::SCHEMA)
        })
    }

    /// The stored partition and sort key strings (`None` where missing or
    /// not a string).
    pub(crate) fn strings(&self) -> (Option<&str>, Option<&str>) {
        (self.partition.as_deref(), self.sort.as_deref())
    }

    /// Moves the stored partition and sort key strings out, to lend them
    /// to a [`Key`](super::Key) without copying them; `None` without a
    /// partition key string. [`StoredKeys::put_strings`] puts them back.
    pub(crate) fn take_strings(&mut self) -> Option<(String, Option<String>)> {
        let partition = std::mem::take(self.partition.as_mut()?);
        let sort = self.sort.as_mut().map(std::mem::take);
        Some((partition, sort))
    }

    /// Puts back what [`StoredKeys::take_strings`] took.
    pub(crate) fn put_strings(&mut self, partition: String, sort: Option<String>) {
        if let Some(stored) = &mut self.partition {
            *stored = partition;
        }
        if let (Some(stored), Some(sort)) = (&mut self.sort, sort) {
            *stored = sort;
        }
    }

    /// Marks the primary key as proven by the decoded value: it holds
    /// every primary-key field exactly as the key reader read it back from
    /// these keys (literals matched, nothing left over), and each key type
    /// parses only the text it writes (`KeyPart::CANONICAL`), so the keys
    /// it writes are these. [`StoredKeys::verify`] then writes no primary
    /// key to compare. Only `decode_stored` marks it, right after
    /// decoding the value the keys are verified against.
    pub(crate) fn primary_read_back(&mut self) {
        self.primary_read_back = true;
    }

    /// Where the item is stored, for messages.
    pub(crate) fn at(&self, schema: &TableSchema) -> ItemAt {
        ItemAt {
            partition: (schema.primary.partition_key, self.partition.clone()),
            sort: schema
                .primary
                .sort_key
                .map(|name| (name, self.sort.clone())),
        }
    }

    /// Whether the keys `entity` generates are the stored ones: the table's
    /// partition and sort key always, and every index key attribute the
    /// item carries (an index attribute the value would not write at all —
    /// a sparse index it has left — is a mismatch too). A primary key the
    /// value was found to hold field by field
    /// ([`StoredKeys::primary_read_back`]) is not written again.
    pub(crate) fn verify<E: Entity>(&self, entity: &E) -> Result<()> {
        if !self.primary_read_back {
            self.verify_primary(entity)?;
        }
        self.verify_index(entity)
    }

    /// The stored `attribute` is not what `entity` writes.
    fn mismatch<E: Entity>(
        &self,
        attribute: &'static str,
        stored: Option<&String>,
        expected: Expected,
    ) -> Error {
        Error::from(Repr::KeyMismatch {
            entity: E::RUST_NAME,
            at: self.at(&E::Table::SCHEMA),
            attribute,
            stored: stored.cloned(),
            expected,
        })
    }

    /// The table's partition and sort key, written from `entity` and
    /// compared.
    fn verify_primary<E: Entity>(&self, entity: &E) -> Result<()> {
        let primary = E::Table::SCHEMA.primary;
        let key = entity.primary_key().map_err(|err| {
            let expected = Expected::Unbuildable(err.to_string());
            self.mismatch::<E>(primary.partition_key, self.partition.as_ref(), expected)
        })?;
        let (partition, sort) = key.into_parts();
        let primary_mismatch = if !holds(self.partition.as_ref(), &partition) {
            let expected = Expected::Value(partition.clone());
            Some(self.mismatch::<E>(primary.partition_key, self.partition.as_ref(), expected))
        } else if let Some(name) = primary.sort_key
            && !holds(self.sort.as_ref(), &sort)
        {
            let expected = Expected::Value(sort.clone());
            Some(self.mismatch::<E>(name, self.sort.as_ref(), expected))
        } else {
            None
        };
        // Compared: the strings serve the next key built on this thread.
        recycle_key_buffer(partition);
        recycle_key_buffer(sort);
        match primary_mismatch {
            Some(mismatch) => Err(mismatch),
            None => Ok(()),
        }
    }

    /// The index key attributes the item carries, against those `entity`
    /// writes.
    fn verify_index<E: Entity>(&self, entity: &E) -> Result<()> {
        // Index keys are computed only when the item carries some: a read
        // by primary key has taken them off (they are not what found it).
        if self.index.is_empty() {
            return Ok(());
        }
        let (first, stored) = &self.index[0];
        let entries = entity.index_entries().map_err(|err| {
            let expected = Expected::Unbuildable(err.to_string());
            self.mismatch::<E>(first, stored.as_ref(), expected)
        })?;
        for (name, stored) in &self.index {
            // As `to_item` writes them: a later index's value wins.
            let expected = entries
                .iter()
                .filter_map(|entry| {
                    let key = entry.key.as_ref()?;
                    let keys = entry.index.keys;
                    if keys.partition_key == *name {
                        Some(key.partition.as_str())
                    } else if keys.sort_key == Some(*name) {
                        key.sort.as_deref()
                    } else {
                        None
                    }
                })
                .next_back();
            match expected {
                Some(expected) if holds(stored.as_ref(), expected) => {}
                Some(expected) => {
                    let expected = Expected::Value(expected.to_owned());
                    return Err(self.mismatch::<E>(name, stored.as_ref(), expected));
                }
                None => return Err(self.mismatch::<E>(name, stored.as_ref(), Expected::Absent)),
            }
        }
        Ok(())
    }
}

/// Takes off `item` the index key attributes that are not how it was
/// found: all of them after a read by primary key (`index: None`), all but
/// the queried index's after a query. Only the keys an item was found by
/// are then verified against its body: a stale key of some other index
/// does not make a correct read fail.
///
/// They are set aside under another name rather than dropped: for an
/// entity whose field *is* such an attribute (a raw key, `pk = field`),
/// [`StoredKeys::take`] puts it back into the body (unverified, as the
/// others are).
pub(crate) fn keep_keys_found_by(item: &mut Item, schema: &TableSchema, index: Option<&str>) {
    let kept = index.and_then(|name| schema.index(name)).map(|i| i.keys);
    let keep = |name: &str| {
        schema.primary.partition_key == name
            || schema.primary.sort_key == Some(name)
            || kept.is_some_and(|k| k.partition_key == name || k.sort_key == Some(name))
    };
    for keys in schema.indexes.iter().map(|index| index.keys) {
        for name in std::iter::once(keys.partition_key).chain(keys.sort_key) {
            if !keep(name)
                && let Some(value) = item.remove(name)
            {
                item.insert(set_aside(name), value);
            }
        }
    }
}

/// The in-memory name of an index key attribute set aside by
/// [`keep_keys_found_by`]: no attribute DynamoDB stores starts with NUL.
fn set_aside(name: &str) -> String {
    format!("{SET_ASIDE}{name}")
}

/// What [`set_aside`] puts before an attribute's name.
const SET_ASIDE: char = '\0';

/// The index key attribute named `name` (not one of the table's own key
/// attributes), as the schema spells it.
fn index_key_attribute(schema: &TableSchema, name: &str) -> Option<&'static str> {
    if schema.indexes.is_empty()
        || name == schema.primary.partition_key
        || schema.primary.sort_key == Some(name)
    {
        return None;
    }
    index_key_attributes(schema).find(|attribute| *attribute == name)
}

/// The lengths and first bytes of the names a take out of a tree looks
/// for (the key attributes, the type attribute, the write tokens): a name
/// of another length or first byte is body, told so without comparing
/// its text with each.
struct Sought {
    lengths: u64,
    firsts: u64,
}

impl Sought {
    fn of(schema: &TableSchema) -> Self {
        let mut sought = Sought {
            lengths: 0,
            firsts: 0,
        };
        let mut add = |name: &str, len: usize| {
            sought.lengths |= 1 << (len % 64);
            sought.firsts |= 1 << (name.as_bytes().first().copied().unwrap_or(0) % 64);
        };
        let token = schema.token_attribute;
        let names = [schema.primary.partition_key, schema.type_attribute, token];
        for name in names.into_iter().chain(schema.primary.sort_key) {
            add(name, name.len());
        }
        for name in index_key_attributes(schema) {
            add(name, name.len());
        }
        // A write token's history: the name and one digit.
        add(token, token.len() + 1);
        sought
    }

    /// Whether `name` may be one of them.
    #[inline]
    fn may_be(&self, name: &str) -> bool {
        let first = name.as_bytes().first().copied().unwrap_or(0);
        self.lengths & (1 << (name.len() % 64)) != 0 && self.firsts & (1 << (first % 64)) != 0
    }
}

/// Where `name` is first among the index key attributes.
fn index_key_position(schema: &TableSchema, name: &str) -> usize {
    index_key_attributes(schema)
        .position(|attribute| attribute == name)
        .unwrap_or(usize::MAX)
}

/// Every index's key attributes, in the schema's order.
fn index_key_attributes(schema: &TableSchema) -> impl Iterator<Item = &'static str> + '_ {
    schema
        .indexes
        .iter()
        .flat_map(|index| std::iter::once(index.keys.partition_key).chain(index.keys.sort_key))
}

/// Where `item` is stored, for messages about it.
pub(crate) fn item_at(item: &Item, schema: &TableSchema) -> ItemAt {
    let value = |name: &str| string(item.get(name));
    ItemAt {
        partition: (
            schema.primary.partition_key,
            value(schema.primary.partition_key),
        ),
        sort: schema.primary.sort_key.map(|name| (name, value(name))),
    }
}

/// Whether `stored` is the string `expected`.
fn holds(stored: Option<&String>, expected: &str) -> bool {
    stored.is_some_and(|value| value == expected)
}

/// Whether `name` is `owned`: the lengths and first bytes compared before
/// the text (most names the one-pass take meets are neither, and are told
/// so without a call to compare memory).
#[inline]
fn same(name: &str, owned: &str) -> bool {
    name.len() == owned.len() && starts_alike(name, owned) && name == owned
}

/// Whether `name` and `owned` start with the same byte (or either is
/// empty): a name unlike `owned` there neither is it nor starts with it.
#[inline]
fn starts_alike(name: &str, owned: &str) -> bool {
    match (name.as_bytes().first(), owned.as_bytes().first()) {
        (Some(a), Some(b)) => a == b,
        _ => true,
    }
}

/// The string a stored key attribute holds, if it is one.
fn string_of(value: AttributeValue) -> Option<String> {
    match value {
        AttributeValue::S(value) => Some(value),
        _ => None,
    }
}

fn string(value: Option<&AttributeValue>) -> Option<String> {
    match value {
        Some(AttributeValue::S(value)) => Some(value.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Table;

    crate::table! {
        struct App {
            partition_key: "PK",
            sort_key: "SK",
            indexes: {
                Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
                Gsi2 = "GSI2" { partition_key: "GSI2PK", sort_key: "GSI2SK" },
            },
        }
    }

    /// The one-pass take (no raw key attribute) takes out of every item
    /// exactly what the name-by-name take does, and lists the index keys
    /// in the same order: every subset of keys, set-aside keys, the type,
    /// write tokens and body attributes.
    #[test]
    fn one_pass_take_is_the_take_by_name() {
        let names = [
            "PK", "SK", "GSI1PK", "GSI1SK", "GSI2PK", "GSI2SK", "\0GSI1PK", "\0GSI2SK", "_type",
            "_wt", "_wt2", "_wt7", "name", "\0name",
        ];
        let schema = App::SCHEMA;
        // Strings, and (every other subset) a number where a name's index
        // is even: a key that is no string is taken as well.
        for subset in 0u32..(1 << names.len()) {
            let value =
                |i: usize, name: &str| match i.is_multiple_of(2) && !subset.is_multiple_of(2) {
                    true => AttributeValue::N(i.to_string()),
                    false => AttributeValue::S(format!("{name}={i}")),
                };
            let item: Item = names
                .iter()
                .enumerate()
                .filter(|(i, _)| subset & (1 << i) != 0)
                .map(|(i, name)| (name.to_string(), value(i, name)))
                .collect();
            let (mut one, mut other) = (item.clone(), item);
            let a = StoredKeys::take_in_one_pass(&mut one, &schema);
            let b = StoredKeys::take_by_name(&mut other, &schema, |_| false);
            assert_eq!(one, other, "body of subset {subset:#b}");
            assert_eq!(a.partition, b.partition, "subset {subset:#b}");
            assert_eq!(a.sort, b.sort, "subset {subset:#b}");
            assert_eq!(a.index, b.index, "subset {subset:#b}");
            assert_eq!(a.tag, b.tag, "subset {subset:#b}");
        }
    }

    /// The take of an item parsed from a response's bytes takes exactly
    /// what setting aside the keys it was not found by and then taking
    /// does on the SDK's item, leaves the same body (in the body's order)
    /// and lists the index keys in the same order: every subset of keys,
    /// the type, write tokens and body attributes, found by the table or
    /// by either index.
    #[test]
    fn the_take_of_a_tree_is_the_take_of_the_sdk_item() {
        use crate::codec::wire::Wire;
        let names = [
            "PK", "GSI2SK", "SK", "GSI1PK", "GSI1SK", "GSI2PK", "_type", "_wt", "_wt2", "name",
            "other",
        ];
        let schema = App::SCHEMA;
        let layout = EntityLayout::undescribed("Test", "test");
        for found_by in [None, Some("GSI1"), Some("GSI2")] {
            for subset in 0u32..(1 << names.len()) {
                let entries: Vec<(String, AttributeValue)> = names
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| subset & (1 << i) != 0)
                    .map(|(i, name)| (name.to_string(), AttributeValue::S(format!("{name}={i}"))))
                    .collect();
                let mut item: Item = entries.iter().cloned().collect();
                keep_keys_found_by(&mut item, &schema, found_by);
                let a = StoredKeys::take(&mut item, &schema, &layout);
                let mut tree = ItemTree {
                    entries: entries
                        .into_iter()
                        .map(|(name, value)| (name.into(), Wire::from_attribute_value(value)))
                        .collect(),
                    found_by,
                };
                let b = StoredKeys::take_from_tree(&mut tree, &schema, &layout);
                let at = format!("subset {subset:#b} found by {found_by:?}");
                assert_eq!(tree.to_item_lossy(), item, "body of {at}");
                assert_eq!(a.partition, b.partition, "{at}");
                assert_eq!(a.sort, b.sort, "{at}");
                assert_eq!(a.index, b.index, "{at}");
                assert_eq!(a.tag, b.tag, "{at}");
            }
        }
    }
}
