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
pub(crate) mod stored;
mod timestamp;
pub(crate) mod verify;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::Result;
use crate::item::Item;
use crate::layout::EntityLayout;
use crate::table::{IndexSchema, Table};

pub use arg::{KeyArg, KeyArgPart, PartitionPart, RawKey, key_arg};
pub use field::{
    Addable, Field, InBody, IndexKeyPart, KeyOnly, PrimaryKeyPart, Settable, Stored, Unkeyed,
};
pub(crate) use hooks::{Action, Change, spare_key_fields};
pub use hooks::{Changes, EntityHooks, IndexChange, Lookup, Stamp, StoredBody};
pub(crate) use keys::check_index_key;
pub use keys::{
    InARange, IndexKey, Key, KeyWriter, Partition, RangeBound, ShardInputs, SortKey,
    SortKeyBuilder, UnorderedSortKey,
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
    /// The table the entity lives in: every operation on the entity takes a
    /// `Db` of this table, checked at compile time.
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// # #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}", type = "order")]
    /// # #[entity(index = Gsi1, pk = "OPEN#{open_since}", sk = "{order_id}")] // sparse
    /// # struct Order { customer_id: u64, order_id: u32, open_since: Option<u32>, total_cents: i64 }
    /// use ddb_entity::Table;
    ///
    /// let schema = <Order as Entity>::Table::SCHEMA;
    /// assert_eq!((schema.primary.partition_key, schema.primary.sort_key), ("PK", Some("SK")));
    /// ```
    type Table: Table;

    /// The Rust type's name (`"Order"`), for messages and `tracing` spans.
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// # #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}", type = "order")]
    /// # #[entity(index = Gsi1, pk = "OPEN#{open_since}", sk = "{order_id}")] // sparse
    /// # struct Order { customer_id: u64, order_id: u32, open_since: Option<u32>, total_cents: i64 }
    /// assert_eq!(Order::RUST_NAME, "Order");
    /// ```
    const RUST_NAME: &'static str;

    /// The value of the table's type attribute on every item of this
    /// entity: the struct's name in snake case (`Order` → `order`,
    /// `LineItem` → `line_item`) unless declared with `type = "…"`. Reads
    /// decode an item as this entity only when its type attribute holds it,
    /// so two entities of one table must not share it (a collection
    /// refuses it at compile time, the model's `duplicate-type` lint for
    /// the whole table). Renaming the struct changes it: declare
    /// `type = "…"` to keep what is stored.
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// # #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}", type = "order")]
    /// # #[entity(index = Gsi1, pk = "OPEN#{open_since}", sk = "{order_id}")] // sparse
    /// # struct Order { customer_id: u64, order_id: u32, open_since: Option<u32>, total_cents: i64 }
    /// // Declared: `type = "order"`.
    /// assert_eq!(Order::TYPE_TAG, "order");
    /// let item = Order { customer_id: 42, order_id: 7, open_since: None, total_cents: 1299 }.to_item()?;
    /// assert_eq!(item["_type"].as_s().unwrap(), "order");
    /// # Ok::<(), ddb_entity::Error>(())
    /// ```
    const TYPE_TAG: &'static str;

    /// The global secondary indexes the entity fills (index overloading:
    /// several entity types fill the same generic index).
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// # #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}", type = "order")]
    /// # #[entity(index = Gsi1, pk = "OPEN#{open_since}", sk = "{order_id}")] // sparse
    /// # struct Order { customer_id: u64, order_id: u32, open_since: Option<u32>, total_cents: i64 }
    /// let names: Vec<&str> = Order::INDEXES.iter().map(|index| index.name).collect();
    /// assert_eq!(names, ["GSI1"]);
    /// ```
    const INDEXES: &'static [IndexSchema];

    /// The entity's key templates as data: what the hot-partition lint
    /// ([`lint::hot_partitions`](crate::lint::hot_partitions)) and models
    /// of the table read. `#[derive(Entity)]` writes it; an entity
    /// implemented by hand describes no keys unless it writes one too.
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// # #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}", type = "order")]
    /// # #[entity(index = Gsi1, pk = "OPEN#{open_since}", sk = "{order_id}")] // sparse
    /// # struct Order { customer_id: u64, order_id: u32, open_since: Option<u32>, total_cents: i64 }
    /// assert_eq!(Order::LAYOUT.primary().unwrap().partition.source, "CUST#{customer_id}");
    /// assert_eq!(Order::LAYOUT.primary().unwrap().sort.map(|sk| sk.source), Some("ORDER#{order_id}"));
    /// assert!(Order::LAYOUT.index("GSI1").unwrap().sparse);
    /// ```
    const LAYOUT: &'static EntityLayout =
        &EntityLayout::undescribed(Self::RUST_NAME, Self::TYPE_TAG);

    /// The primary key of this value: what `Order::key(…)` builds from the
    /// same fields.
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// # #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}", type = "order")]
    /// # #[entity(index = Gsi1, pk = "OPEN#{open_since}", sk = "{order_id}")] // sparse
    /// # struct Order { customer_id: u64, order_id: u32, open_since: Option<u32>, total_cents: i64 }
    /// let order = Order { customer_id: 42, order_id: 7, open_since: None, total_cents: 1299 };
    /// let key = order.primary_key()?;
    /// assert_eq!(key.partition(), "CUST#42");
    /// assert_eq!(key.sort(), "ORDER#0000000007");
    /// assert_eq!(key, Order::key(42, 7u32)?);
    /// # Ok::<(), ddb_entity::Error>(())
    /// ```
    fn primary_key(&self) -> Result<Key<Self>>;

    /// The key of this value in each index of [`INDEXES`](Entity::INDEXES),
    /// in that order; `key: None` where a sparse index's `Option` field is
    /// `None` (the item is then absent from that index).
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// # #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}", type = "order")]
    /// # #[entity(index = Gsi1, pk = "OPEN#{open_since}", sk = "{order_id}")] // sparse
    /// # struct Order { customer_id: u64, order_id: u32, open_since: Option<u32>, total_cents: i64 }
    /// let closed = Order { customer_id: 42, order_id: 7, open_since: None, total_cents: 1299 };
    /// let entries = closed.index_entries()?;
    /// assert_eq!((entries[0].index.name, entries[0].key.is_none()), ("GSI1", true));
    /// let open = Order { open_since: Some(20260314), ..closed };
    /// let key = open.index_entries()?.remove(0).key.unwrap();
    /// assert_eq!(key.partition, "OPEN#20260314");
    /// # Ok::<(), ddb_entity::Error>(())
    /// ```
    fn index_entries(&self) -> Result<Vec<IndexEntry>>;

    /// The whole item: the serde body, the primary key, the type attribute
    /// and the key attributes of every index the value belongs to. Maintained
    /// timestamps are written as of now.
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// # #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}", type = "order")]
    /// # #[entity(index = Gsi1, pk = "OPEN#{open_since}", sk = "{order_id}")] // sparse
    /// # struct Order { customer_id: u64, order_id: u32, open_since: Option<u32>, total_cents: i64 }
    /// let order = Order { customer_id: 42, order_id: 7, open_since: Some(20260314), total_cents: 1299 };
    /// let item = order.to_item()?;
    /// assert_eq!(item["PK"].as_s().unwrap(), "CUST#42");
    /// assert_eq!(item["GSI1PK"].as_s().unwrap(), "OPEN#20260314");
    /// assert_eq!(item["total_cents"].as_n().unwrap(), "1299");
    /// # Ok::<(), ddb_entity::Error>(())
    /// ```
    fn to_item(&self) -> Result<Item> {
        convert::to_item(self, std::time::SystemTime::now())
    }

    /// Decodes an item written by [`to_item`](Entity::to_item). An item
    /// whose type attribute names another entity type is an error, never a
    /// mis-decoded value; so is one whose stored key attributes (the
    /// table's, and any index key it carries) are not the keys of the value
    /// its body decodes to ([`ErrorKind::KeyMismatch`](crate::error::ErrorKind::KeyMismatch)).
    /// A decode failure names the field and the item's key.
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// # #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}", type = "order")]
    /// # #[entity(index = Gsi1, pk = "OPEN#{open_since}", sk = "{order_id}")] // sparse
    /// # struct Order { customer_id: u64, order_id: u32, open_since: Option<u32>, total_cents: i64 }
    /// let order = Order { customer_id: 42, order_id: 7, open_since: None, total_cents: 1299 };
    /// let item = order.to_item()?;
    /// assert_eq!(Order::from_item(item.clone())?, order);
    ///
    /// // An item of another entity type is refused, never mis-decoded.
    /// let mut other = item;
    /// other.insert("_type".into(), ddb_entity::sdk::types::AttributeValue::S("refund".into()));
    /// let err = Order::from_item(other).unwrap_err();
    /// assert_eq!(err.kind(), ddb_entity::ErrorKind::WrongType);
    /// # Ok::<(), ddb_entity::Error>(())
    /// ```
    fn from_item(item: Item) -> Result<Self> {
        convert::from_item(item)
    }
}

/// An entity with an optimistic-locking version
/// (`#[entity(version = "field")]`): puts and deletes succeed only against
/// the version they were read at, and every write increments it. Writes
/// that check a version ([`expect_version`](crate::write::Update::expect_version))
/// take only such entities.
///
/// ```
/// use ddb_entity::{Db, Entity, Key, Versioned};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "DOC#{id}", sk = "DOC", version = "version")]
/// struct Doc { id: u64, text: String, #[serde(default)] version: u64 }
///
/// /// Deletes any versioned entity, only at the version the caller read.
/// async fn delete_read<E: Versioned>(db: &Db<E::Table>, key: Key<E>, read: u64) -> ddb_entity::Result<()> {
///     db.delete(key).expect_version(read).await
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # let dynamo = ddb_entity::local::LocalDynamo::start().await?;
/// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// # db.create_table_if_missing().await?;
/// db.create(&Doc { id: 1, text: "v1".into(), version: 0 }).await?; // stored at version 1
/// assert!(delete_read(&db, Doc::key(1)?, 0).await.unwrap_err().is_version_conflict());
/// delete_read(&db, Doc::key(1)?, 1).await?;
/// # Ok(())
/// # }
/// ```
///
/// An entity without a version is not `Versioned`:
///
/// ```compile_fail
/// # use ddb_entity::{Entity, Versioned};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "NOTE#{id}", sk = "NOTE")]
/// struct Note { id: u64 }
///
/// async fn delete_read<E: Versioned>(db: &ddb_entity::Db<E::Table>, key: ddb_entity::Key<E>, read: u64) -> ddb_entity::Result<()> {
///     db.delete(key).expect_version(read).await
/// }
/// let _ = delete_read::<Note>;
/// ```
pub trait Versioned: Entity {}

/// One index's part of an entity's item: its key, or `None` when the
/// entity's value is absent from that (sparse) index.
///
/// ```
/// use ddb_entity::{Entity, IndexEntry};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
/// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "TICKET#{id}", sk = "TICKET")]
/// #[entity(index = Gsi1, pk = "OPEN#{opened}", sk = "{id}")] // sparse
/// struct Ticket { id: u64, opened: Option<u32> }
///
/// let open: Vec<IndexEntry> = Ticket { id: 1, opened: Some(20260314) }.index_entries()?;
/// assert_eq!(open[0].index.name, "GSI1");
/// let key = open[0].key.as_ref().unwrap();
/// assert_eq!(key.partition, "OPEN#20260314");
/// assert_eq!(key.sort.as_deref(), Some("00000000000000000001"));
/// let closed = Ticket { id: 1, opened: None }.index_entries()?;
/// assert!(closed[0].key.is_none(), "not in the index: no GSI1PK, no GSI1SK");
/// # Ok::<(), ddb_entity::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexEntry {
    /// The index.
    pub index: IndexSchema,
    /// The key values, or `None` for "not in this index".
    pub key: Option<IndexKey>,
}
