//! Mixed item collections: one Query, several entity types, demultiplexed.
//!
//! Items are told apart by the table's type attribute, which every entity
//! writes with its [`Entity::TYPE_TAG`] — the leading literal of its sort key
//! (`ORDER` for `ORDER#{placed}#{id}`). Matching that attribute exactly,
//! rather than matching sort-key prefixes, works the same on every index
//! (an index's sort key need not start with the type) and cannot confuse
//! `ORDER` with `ORDER#ITEM`: two member types with one `TYPE_TAG` are refused
//! when the collection is declared.

use crate::entity::Entity;
use crate::entity::verify::item_at;
use crate::error::{Repr, Result};
use crate::item::{self, Item};
use crate::table::Table;

/// A typed view of one Query's items: a struct of `Option<E>`/`Vec<E>`
/// fields (`#[derive(Collection)]`), or a `Vec` of a [`CollectionItem`].
pub trait Collection: Default + Send {
    /// The table its members live in.
    type Table: Table;

    /// The collection's name, for errors.
    const NAME: &'static str;

    /// The entity types it holds (their [`Entity::TYPE_TAG`]s).
    const TYPES: &'static [&'static str];

    /// Adds one item whose type attribute is `entity_type`, keeping the
    /// order items arrive in (the sort-key order). `Ok(false)` when no
    /// member has that type: the caller applies its [`UnknownItems`] policy.
    fn push_item(&mut self, entity_type: &str, item: Item) -> Result<bool>;

    /// Demultiplexes items obtained elsewhere (a stream record, a raw SDK
    /// call) exactly as a query does, with the given [`UnknownItems`] policy.
    fn from_items(items: impl IntoIterator<Item = Item>, policy: UnknownItems) -> Result<Self>
    where
        Self: Sized,
    {
        let mut collection = Self::default();
        for item in items {
            demultiplex(&mut collection, item, policy)?;
        }
        Ok(collection)
    }
}

/// One item of a mixed stream: an enum of one-field variants
/// (`#[derive(Collection)]` on the enum), or any single [`Entity`].
pub trait CollectionItem: Sized + Send {
    /// The table its variants live in.
    type Table: Table;

    /// The item type's name, for errors.
    const NAME: &'static str;

    /// The entity types it can be.
    const TYPES: &'static [&'static str];

    /// Decodes an item of type `entity_type`; `Ok(None)` when no variant
    /// has that type.
    fn from_typed_item(entity_type: &str, item: Item) -> Result<Option<Self>>;
}

impl<E: Entity + Send> CollectionItem for E {
    type Table = E::Table;
    const NAME: &'static str = E::RUST_NAME;
    const TYPES: &'static [&'static str] = &[E::TYPE_TAG];

    fn from_typed_item(entity_type: &str, item: Item) -> Result<Option<Self>> {
        if entity_type == E::TYPE_TAG {
            E::from_item(item).map(Some)
        } else {
            Ok(None)
        }
    }
}

impl<T: CollectionItem> Collection for Vec<T> {
    type Table = T::Table;
    const NAME: &'static str = T::NAME;
    const TYPES: &'static [&'static str] = T::TYPES;

    fn push_item(&mut self, entity_type: &str, item: Item) -> Result<bool> {
        match T::from_typed_item(entity_type, item)? {
            Some(value) => {
                self.push(value);
                Ok(true)
            }
            None => Ok(false),
        }
    }
}

/// What a query does with an item whose entity type the collection does not
/// hold (another entity type sharing the partition, or an item written by
/// another tool).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum UnknownItems {
    /// Skip it, with a `tracing` warning naming its type (not its values).
    #[default]
    Skip,
    /// Fail the query with [`ErrorKind::UnknownType`](crate::ErrorKind::UnknownType).
    Error,
    /// Ask DynamoDB to return only items of the collection's types (a
    /// filter on the type attribute): items of other types, and items
    /// without one, are still read — and count towards `limit` and the
    /// read capacity, as every filtered item does — but never returned.
    /// What a [`Scan`](crate::op::Scan) does unless told otherwise: in a
    /// single table, every entity type is in it.
    Filter,
}

/// Routes one item into `collection` by its type attribute. An item with no
/// (string) type attribute is always an error: it is not ours to guess.
pub(crate) fn demultiplex<C: Collection>(
    collection: &mut C,
    item: Item,
    policy: UnknownItems,
) -> Result<()> {
    let schema = C::Table::SCHEMA;
    let unknown = |item: &Item, found| Repr::UnknownType {
        collection: C::NAME,
        found,
        at: item_at(item, &schema),
        type_attribute: schema.type_attribute,
    };
    let Some(tag) = item::type_tag(&item, &schema) else {
        return Err(unknown(&item, None).into());
    };
    let apply_policy = |unknown: Repr, entity_type: &str| match policy {
        UnknownItems::Skip => {
            tracing::warn!(
                collection = C::NAME,
                entity_type,
                "skipping an item of a type the collection does not hold"
            );
            Ok(())
        }
        // The server was asked not to return it: it did anyway.
        UnknownItems::Error | UnknownItems::Filter => Err(unknown.into()),
    };
    // A type no member holds is decided here, while the item is at hand
    // for the message. A member's type is named by its `&'static str`: no
    // copy of the attribute per item (the item moves into `push_item`).
    let Some(&known) = C::TYPES.iter().find(|known| **known == tag) else {
        let found = tag.to_owned();
        return apply_policy(unknown(&item, Some(found.clone())), &found);
    };
    if collection.push_item(known, item)? {
        return Ok(());
    }
    // A hand-written collection whose `TYPES` and `push_item` disagree:
    // the same policy, without the key (the item went to `push_item`).
    apply_policy(unknown(&Item::new(), Some(known.to_owned())), known)
}

/// Whether two members of a collection share an entity type, checked at
/// compile time by `#[derive(Collection)]`.
#[doc(hidden)]
pub const fn has_duplicate_type(types: &[&str]) -> bool {
    let mut i = 0;
    while i < types.len() {
        let mut j = i + 1;
        while j < types.len() {
            if str_eq(types[i], types[j]) {
                return true;
            }
            j += 1;
        }
        i += 1;
    }
    false
}

pub(crate) const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}
