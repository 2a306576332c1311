//! Entities: typed items of one kind in the single table.

mod arg;
mod field;
mod item;
mod keys;
mod timestamp;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::key::KeyError;
use crate::table::{IndexSchema, Table};

pub use arg::KeyArg;
pub use field::Field;
#[doc(hidden)]
pub use field::KeyRole;
pub use item::Item;
pub(crate) use item::attribute;
#[doc(hidden)]
pub use keys::SortKeyBuilder;
pub use keys::{IndexKey, Key, Partition, SortKey};
pub use timestamp::Timestamp;

/// An entity: one kind of item in the single table, with key templates.
///
/// `#[derive(Entity)]` implements it from a struct's `#[entity(…)]`
/// attributes, together with typed key builders (`Order::key(…)`,
/// `Order::partition(…)`, `Order::sk()`, one `…_partition`/`…_sk` pair per
/// index). The item stored is the serde body of the struct (in
/// serde_dynamo's mapping, by [`codec`](crate::codec)) plus the key
/// attributes and the type attribute, so
/// reading an entity back never needs to parse a key.
///
/// A hand implementation shows what the derive writes:
///
/// ```
/// use ddb_entity::key::{KeyBuf, KeyError};
/// use ddb_entity::{Entity, IndexEntry, Key, Table};
/// use serde::{Deserialize, Serialize};
///
/// ddb_entity::table! {
///     /// The app's table.
///     pub struct App { partition_key: "PK", sort_key: "SK" }
/// }
///
/// /// pk = "CUST#{id}", sk = "PROFILE"
/// #[derive(Serialize, Deserialize)]
/// struct Customer { id: u64, name: String }
///
/// impl Entity for Customer {
///     type Table = App;
///     const NAME: &'static str = "Customer";
///     const TYPE: &'static str = "PROFILE";
///     const INDEXES: &'static [ddb_entity::IndexSchema] = &[];
///
///     fn primary_key(&self) -> Result<Key<Self>, KeyError> {
///         let mut pk = KeyBuf::new();
///         pk.literal("CUST").part(&self.id)?;
///         let mut sk = KeyBuf::new();
///         sk.literal("PROFILE");
///         Ok(Key::new(pk.finish_partition()?, sk.finish()))
///     }
///
///     fn index_entries(&self) -> Result<Vec<IndexEntry>, KeyError> {
///         Ok(Vec::new())
///     }
///
///     fn index_changes(
///         _: &Key<Self>,
///         _: &ddb_entity::__private::Changes,
///     ) -> ddb_entity::Result<Vec<ddb_entity::__private::IndexChange>> {
///         Ok(Vec::new()) // no index, nothing to recompute
///     }
/// }
///
/// let item = Customer { id: 42, name: "Ada".into() }.to_item()?;
/// assert_eq!(item["PK"].as_s().unwrap(), "CUST#00000000000000000042");
/// assert_eq!(item["SK"].as_s().unwrap(), "PROFILE");
/// assert_eq!(item["_type"].as_s().unwrap(), "PROFILE");
/// assert_eq!(Customer::from_item(item)?.name, "Ada");
/// # Ok::<(), ddb_entity::Error>(())
/// ```
pub trait Entity: Serialize + DeserializeOwned {
    /// The table the entity lives in.
    type Table: Table;

    /// The Rust type's name, for error messages.
    const NAME: &'static str;

    /// The entity type: the first literal segment of its sort key (`ORDER`
    /// for `ORDER#{placed}#{id}`) unless declared with `type = "…"`. Written
    /// to the table's type attribute on every item.
    const TYPE: &'static str;

    /// The global secondary indexes the entity fills (index overloading:
    /// several entity types fill the same generic index).
    const INDEXES: &'static [IndexSchema];

    /// The attribute of the optimistic-locking version
    /// (`#[entity(version = "field")]`), if the entity has one: puts and
    /// deletes then succeed only against the version they were read at, and
    /// every write increments it.
    const VERSION_ATTRIBUTE: Option<&'static str> = None;

    /// The value's version (0 for an entity without one, or never stored).
    fn version(&self) -> u64 {
        0
    }

    /// Writes the maintained timestamps into `item` for a write at `now`:
    /// `updated_at` always, `created_at` when the value's is not set yet
    /// (`#[entity(created_at = "…", updated_at = "…")]`; nothing otherwise).
    #[doc(hidden)]
    fn stamp(&self, item: &mut Item, now: std::time::SystemTime) -> crate::Result<()> {
        let _ = (item, now);
        Ok(())
    }

    /// The `updated_at` attribute and its value for an update at `now`.
    #[doc(hidden)]
    fn updated_at(
        now: std::time::SystemTime,
    ) -> crate::Result<Option<(&'static str, aws_sdk_dynamodb::types::AttributeValue)>>
    where
        Self: Sized,
    {
        let _ = now;
        Ok(None)
    }

    /// The primary key of this value.
    fn primary_key(&self) -> Result<Key<Self>, KeyError>
    where
        Self: Sized;

    /// The key of this value in each index of [`INDEXES`](Entity::INDEXES),
    /// in that order; `key: None` where a sparse index's `Option` field is
    /// `None` (the item is then absent from that index).
    fn index_entries(&self) -> Result<Vec<IndexEntry>, KeyError>;

    /// How an update's changes move the entity's index keys: for every
    /// index whose template uses a changed field, the recomputed key (or
    /// its removal when an `Option` hole becomes `None`). An index whose
    /// other template fields the update does not set is
    /// [`Error::MissingKeyField`](crate::Error::MissingKeyField).
    #[doc(hidden)]
    fn index_changes(
        key: &Key<Self>,
        changes: &crate::op::Changes,
    ) -> crate::Result<Vec<crate::op::IndexChange>>
    where
        Self: Sized;

    /// The whole item: the serde body, the primary key, the type attribute
    /// and the key attributes of every index the value belongs to.
    fn to_item(&self) -> crate::Result<Item>
    where
        Self: Sized,
    {
        item::to_item(self)
    }

    /// Decodes an item written by [`to_item`](Entity::to_item). An item
    /// whose type attribute names another entity type is an error, never a
    /// mis-decoded value.
    fn from_item(item: Item) -> crate::Result<Self>
    where
        Self: Sized,
    {
        item::from_item(item)
    }
}

/// One index's part of an entity's item: its key, or `None` when the
/// entity's value is absent from that (sparse) index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexEntry {
    /// The index.
    pub index: IndexSchema,
    /// The key values, or `None` for "not in this index".
    pub key: Option<IndexKey>,
}
