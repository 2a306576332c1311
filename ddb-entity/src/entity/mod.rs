//! Entities: typed items of one kind in the single table.

mod arg;
pub(crate) mod convert;
pub(crate) use convert::owned_attribute;
mod field;
mod hooks;
mod keys;
mod path;
mod range;
pub(crate) mod schema_version;
mod timestamp;
pub(crate) mod verify;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::Result;
use crate::item::Item;
use crate::layout::EntityLayout;
use crate::table::{IndexSchema, Table};

pub use arg::{KeyArg, RawKey};
pub use field::{
    Addable, Field, InBody, IndexKeyPart, KeyOnly, PrimaryKeyPart, Settable, Stored, Unkeyed,
};
pub(crate) use hooks::{Action, Change};
pub use hooks::{Changes, EntityHooks, IndexChange, Lookup};
pub(crate) use keys::check_index_key;
pub use keys::{
    IndexKey, Key, KeyWriter, Partition, ShardInputs, SortKey, SortKeyBuilder, UnorderedSortKey,
};
pub use path::FieldPath;
pub(crate) use path::{AttrPath, Step};
pub(crate) use range::RangeCondition;
pub use range::SortRange;
pub use timestamp::Timestamp;

/// An entity: one kind of item in the single table, with key templates.
///
/// `#[derive(Entity)]` implements it from a struct's `#[entity(…)]`
/// attributes, together with typed key builders (`Order::key(…)`,
/// `Order::partition(…)`, `Order::sk()`, one `…_partition`/`…_sk` pair per
/// index). The item stored is the serde body of the struct plus the key
/// attributes and the type attribute.
///
/// A hand implementation shows what the derive writes. Besides `Entity`,
/// it implements the hidden `__private::EntityHooks` (what every write
/// maintains: index keys an update moves, timestamps, the version), which
/// has nothing to do for an entity without indexes:
///
/// ```
/// use ddb_entity::key::KeyBuf;
/// use ddb_entity::{Entity, IndexEntry, Key};
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
///     const RUST_NAME: &'static str = "Customer";
///     const TYPE_TAG: &'static str = "PROFILE";
///     const INDEXES: &'static [ddb_entity::IndexSchema] = &[];
///
///     fn primary_key(&self) -> ddb_entity::Result<Key<Self>> {
///         let mut pk = KeyBuf::new();
///         pk.literal("CUST").part(&self.id)?;
///         Key::new(pk.finish(), "PROFILE".to_owned())
///     }
///
///     fn index_entries(&self) -> ddb_entity::Result<Vec<IndexEntry>> {
///         Ok(Vec::new())
///     }
/// }
///
/// impl ddb_entity::__private::EntityHooks for Customer {
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
pub trait Entity: Serialize + DeserializeOwned + Send + Sync + 'static + EntityHooks {
    /// The table the entity lives in.
    type Table: Table;

    /// The Rust type's name (`"Order"`), for messages and `tracing` spans.
    const RUST_NAME: &'static str;

    /// The value of the table's type attribute on every item of this
    /// entity: the first literal segment of its sort key (`ORDER` for
    /// `ORDER#{placed}#{id}`) unless declared with `type = "…"`. Reads
    /// decode an item as this entity only when its type attribute holds it.
    const TYPE_TAG: &'static str;

    /// The global secondary indexes the entity fills (index overloading:
    /// several entity types fill the same generic index).
    const INDEXES: &'static [IndexSchema];

    /// The entity's key templates as data: what the hot-partition lint
    /// ([`lint::hot_partitions`](crate::lint::hot_partitions)) and models
    /// of the table read. `#[derive(Entity)]` writes it; an entity
    /// implemented by hand describes no keys unless it writes one too.
    const LAYOUT: &'static EntityLayout =
        &EntityLayout::undescribed(Self::RUST_NAME, Self::TYPE_TAG);

    /// The primary key of this value.
    fn primary_key(&self) -> Result<Key<Self>>;

    /// The key of this value in each index of [`INDEXES`](Entity::INDEXES),
    /// in that order; `key: None` where a sparse index's `Option` field is
    /// `None` (the item is then absent from that index).
    fn index_entries(&self) -> Result<Vec<IndexEntry>>;

    /// The whole item: the serde body, the primary key, the type attribute
    /// and the key attributes of every index the value belongs to. Maintained
    /// timestamps are written as of now.
    fn to_item(&self) -> Result<Item> {
        convert::to_item(self, std::time::SystemTime::now())
    }

    /// Decodes an item written by [`to_item`](Entity::to_item). An item
    /// whose type attribute names another entity type is an error, never a
    /// mis-decoded value; so is one whose stored key attributes (the
    /// table's, and any index key it carries) are not the keys of the value
    /// its body decodes to ([`ErrorKind::KeyMismatch`](crate::error::ErrorKind::KeyMismatch)).
    /// A decode failure names the field and the item's key.
    fn from_item(item: Item) -> Result<Self> {
        convert::from_item(item)
    }
}

/// An entity with an optimistic-locking version
/// (`#[entity(version = "field")]`): puts and deletes succeed only against
/// the version they were read at, and every write increments it. Writes
/// that check a version ([`expect_version`](crate::write::Update::expect_version))
/// take only such entities.
pub trait Versioned: Entity {}

/// One index's part of an entity's item: its key, or `None` when the
/// entity's value is absent from that (sparse) index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexEntry {
    /// The index.
    pub index: IndexSchema,
    /// The key values, or `None` for "not in this index".
    pub key: Option<IndexKey>,
}
