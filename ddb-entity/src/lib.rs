#![doc = include_str!("../README.md")]
#![cfg_attr(docsrs, feature(doc_cfg))]

// Unit tests derive entities, whose generated code names `::ddb_entity`.
#[cfg(test)]
extern crate self as ddb_entity;

// Imports point down docs/architecture.md's rooms: checked over the source.
#[cfg(test)]
mod layering;

mod batch;
mod capacity;
#[cfg(feature = "client")]
#[cfg_attr(docsrs, doc(cfg(feature = "client")))]
pub mod client;
pub mod codec;
mod collection;
mod cursor;
mod db;
mod entity;
mod error;
#[cfg(feature = "evolve")]
#[cfg_attr(docsrs, doc(cfg(feature = "evolve")))]
pub mod evolve;
mod expr;
mod future;
pub mod item;
pub mod key;
pub mod layout;
pub mod lint;
#[cfg(feature = "local")]
#[cfg_attr(docsrs, doc(cfg(feature = "local")))]
pub mod local;
pub mod model;
mod read;
pub mod shard;
pub mod stream;
#[cfg(feature = "survey")]
#[cfg_attr(docsrs, doc(cfg(feature = "survey")))]
pub mod survey;
mod table;
mod transact;
mod write;

#[doc(hidden)]
pub mod __private;

pub use capacity::Capacity;
pub use collection::{Collection, CollectionItem, Member, UnknownItems};
pub use cursor::Cursor;
#[cfg(feature = "sealed-cursors")]
#[cfg_attr(docsrs, doc(cfg(feature = "sealed-cursors")))]
pub use cursor::CursorSeal;
pub use db::Db;
pub use entity::{
    Entity, Field, FieldPath, IndexEntry, IndexKey, Key, KeyArg, Partition, RawKey, SortKey,
    SortRange, Timestamp, UnorderedSortKey, Versioned,
};
pub use error::{Error, ErrorKind, Misconfiguration, Result};
pub use expr::{AttributeType, Condition, OrderedValue, SizeOf};
pub use item::{Item, Set, SetElement};
pub use table::{
    Billing, Index, IndexKind, IndexSchema, KeyAttribute, KeyAttributeType, KeySchema, LocalIndex,
    MultiKeyIndex, MultiKeyIndexSchema, Primary, Projection, QueryIndex, SortedIndex, SortedTable,
    Table, TableSchema, Throughput, Typing, validate_table_name,
};

/// The operation builders `Db`'s methods return, what their futures and
/// results are made of, and what their errors carry.
///
/// Builders are made by [`Db`] (`db.get(key)`, `db.query(partition)`, …),
/// configured with their methods and sent with `.await` (or
/// `.send().await`); each is `#[must_use]`.
///
/// Examples: the batches' ([`BatchGet`](op::BatchGet#example),
/// [`BatchWrite`](op::BatchWrite#example)), a canceled transaction's
/// reasons ([`CancellationReason`](op::CancellationReason#example)), what a
/// batch left pending ([`PendingWrite`](op::PendingWrite#example)), and
/// each builder's page.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use ddb_entity::op::{Get, Put, Query};
/// use ddb_entity::{Db, Entity, Primary, local::LocalDynamo};
/// use serde::{Deserialize, Serialize};
///
/// ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
///
/// #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
/// #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// struct Customer { id: u64, name: String }
///
/// # let dynamo = LocalDynamo::start().await?;
/// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// # db.create_table_if_missing().await?;
/// let ada = Customer { id: 1, name: "Ada".into() };
/// // Builders can be named, kept, passed around; nothing is sent until awaited.
/// let put: Put<'_, '_, Customer> = db.put(&ada);
/// put.await?;
/// let get: Get<'_, Customer> = db.get(Customer::key(1)?).consistent_read(true);
/// assert_eq!(get.await?, Some(ada));
/// let query: Query<'_, Primary<App>> = db.query(Customer::partition(1)?);
/// assert_eq!(query.count().await?, 1);
/// # Ok(())
/// # }
/// ```
pub mod op {
    pub use crate::batch::{BatchGet, BatchGetPartial, BatchRetry, BatchWrite};
    pub use crate::error::{
        ActionKind, CancellationCode, CancellationReason, CursorFault, PendingKey, PendingWrite,
        StaleVersion, WriteKind,
    };
    pub use crate::future::OpFuture;
    pub use crate::model::{CreateTable, DriftCheck, Provisioned};
    pub use crate::read::{
        Get, MultiQuery, Page, Partial, Projected, Query, ReadOperation, ReadPlan, ReadShape, Scan,
        ScanPage, SortCondition, Whole,
    };
    pub use crate::transact::{
        TransactDelete, TransactGet, TransactGetResult, TransactPut, Transaction,
    };
    pub use crate::write::{
        Delete, DeleteReturningOld, Put, PutReturningNew, PutReturningOld, Update,
        UpdateReturningOld,
    };
}

/// Typed fields and their key roles: what an update may change.
///
/// ```
/// use ddb_entity::Entity;
/// use ddb_entity::field::{Field, KeyOnly, Stored};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// struct Customer { id: u64, visits: u64 }
///
/// // `id` builds the primary key and is stored in it only: no update can
/// // change it, no filter can name it; `visits` can be set or added to.
/// let f = Customer::fields();
/// let _id: Field<Customer, u64, KeyOnly> = f.id;
/// let _visits: Field<Customer, u64, Stored> = f.visits;
/// ```
pub mod field {
    pub use crate::entity::{
        Addable, Field, InBody, IndexKeyPart, KeyOnly, PrimaryKeyPart, Settable, Stored, Unkeyed,
    };
}

/// What `table!` forwards to: not for direct use.
#[doc(hidden)]
pub use ddb_entity_derive::__table;
/// `#[derive(Collection)]`: a typed view of a partition holding several
/// entity types, filled by one Query ([`Query::collect`](op::Query::collect)).
///
/// - On a **struct** whose named fields are each `Option<E>` (at most one
///   item) or `Vec<E>` (any number, in the order the Query returns them:
///   sort-key order) of an entity type `E`, it implements [`Collection`]
///   and [`Default`] (every field empty). **Do not also derive `Default`**:
///   the two impls would conflict. A second item for an `Option` field is
///   [`ErrorKind::MoreThanOne`].
/// - On an **enum** of one-field variants `Variant(E)`, it implements
///   [`CollectionItem`], so a `Vec` of the enum is a [`Collection`] for
///   streams of mixed items.
///
/// Items are routed by the table's type attribute, which holds each
/// entity's [`Entity::TYPE_TAG`]. An item of a type no member holds is left to
/// the query's [`UnknownItems`] policy; it is never decoded as another
/// type. Refused at compile time: a field that is not `Option<E>`/`Vec<E>`,
/// a variant that does not hold exactly one value, a collection with no
/// member, the same entity type held twice, generic parameters, a member
/// that is not an [`Entity`], members of different tables, and two members
/// with the same [`Entity::TYPE_TAG`] (give one of them `type = "…"` in its
/// `#[entity(…)]`).
///
/// ```
/// use ddb_entity::{Collection, CollectionItem, Entity, Error};
/// use serde::{Deserialize, Serialize};
///
/// ddb_entity::table! {
///     /// The app's table.
///     pub struct App { partition_key: "PK", sort_key: "SK" }
/// }
///
/// #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
/// #[entity(table = App, pk = "CUST#{customer_id}", sk = "PROFILE")]
/// struct Customer { customer_id: u64, name: String }
///
/// #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
/// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}")]
/// struct Order { customer_id: u64, order_id: u64 }
///
/// /// Everything under `CUST#{customer_id}`.
/// #[derive(Collection, Debug)]
/// struct CustomerView {
///     customer: Option<Customer>,
///     orders: Vec<Order>,
/// }
///
/// /// One item of that partition, whichever type it is.
/// #[derive(Collection, Debug, PartialEq)]
/// enum CustomerItem {
///     Customer(Customer),
///     Order(Order),
/// }
///
/// assert_eq!(<CustomerView as Collection>::TYPES, ["customer", "order"]);
///
/// // What a Query does with each item it receives, in sort-key order:
/// let items = [
///     Order { customer_id: 42, order_id: 1 }.to_item()?,
///     Order { customer_id: 42, order_id: 2 }.to_item()?,
///     Customer { customer_id: 42, name: "Ada".into() }.to_item()?,
/// ];
/// let mut view = CustomerView::default();
/// for item in items.clone() {
///     let entity_type = item["_type"].as_s().unwrap().clone();
///     assert!(view.push_item(&entity_type, item)?);
/// }
/// assert_eq!(view.customer.unwrap().name, "Ada");
/// assert_eq!(view.orders.iter().map(|o| o.order_id).collect::<Vec<_>>(), [1, 2]);
///
/// // The enum takes any of its types, and declines the others.
/// let item = Customer { customer_id: 42, name: "Ada".into() }.to_item()?;
/// let decoded = CustomerItem::from_typed_item("customer", item.clone())?;
/// assert!(matches!(decoded, Some(CustomerItem::Customer(c)) if c.name == "Ada"));
/// assert_eq!(CustomerItem::from_typed_item("ticket", item)?, None);
/// # Ok::<(), Error>(())
/// ```
pub use ddb_entity_derive::Collection;
pub use ddb_entity_derive::Entity;
pub use ddb_entity_derive::KeyPart;

/// The crate's own name for the `aws-sdk-dynamodb` crate it is built on, so
/// users and generated code name the same version.
pub use aws_sdk_dynamodb as sdk;

/// The examples of `#[derive(Entity)]`'s reference, which lives in the
/// derive crate (it cannot run them: they need this crate).
#[cfg(doctest)]
#[doc = include_str!("../../ddb-entity-derive/docs/entity.md")]
struct DeriveEntityReference;

/// The examples of `#[derive(KeyPart)]`'s reference, likewise.
#[cfg(doctest)]
#[doc = include_str!("../../ddb-entity-derive/docs/key_part.md")]
struct DeriveKeyPartReference;
