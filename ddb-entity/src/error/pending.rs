//! What a batch hands back when it could not finish: the writes and keys
//! still pending, typed, ready to be sent again.

use aws_sdk_dynamodb::types::WriteRequest;

use super::Item;

/// What a batch write does to its key: see [`PendingWrite`'s
/// example](PendingWrite#example).
///
/// ```
/// use ddb_entity::op::WriteKind;
/// assert_ne!(WriteKind::Put, WriteKind::Delete);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WriteKind {
    /// Put the whole item, replacing any item with the key.
    Put,
    /// Delete the item with the key.
    Delete,
}

/// A write of a batch that DynamoDB did not confirm: its entity type, what
/// it does and its key, and the request itself, ready to be sent again
/// ([`BatchWrite::resend`](crate::batch::BatchWrite::resend)).
///
/// # Example
///
/// A batch against a table not created yet fails for good, and hands back
/// every write; once the table exists, they are sent again as they were:
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use ddb_entity::op::WriteKind;
/// use ddb_entity::{Db, Entity, local::LocalDynamo};
/// use serde::{Deserialize, Serialize};
///
/// ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
///
/// #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
/// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}")]
/// struct Order { customer_id: u64, order_id: u64 }
///
/// let dynamo = LocalDynamo::start().await?;
/// let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("pending"));
/// let err = db
///     .batch_write()
///     .put(&Order { customer_id: 1, order_id: 1 })
///     .delete(Order::key(1, 2)?)
///     .await
///     .unwrap_err();
/// let pending = err.unprocessed_writes();
/// assert_eq!(pending.len(), 2);
/// assert_eq!((pending[0].position(), pending[0].kind()), (0, WriteKind::Put));
/// assert_eq!((pending[1].position(), pending[1].kind()), (1, WriteKind::Delete));
/// assert_eq!(pending[0].entity(), "Order");
/// assert!(pending[0].partition().starts_with("CUST#") && pending[0].sort().starts_with("ORDER#"));
/// assert!(pending[0].request().put_request().is_some());
/// assert!(pending[1].request().delete_request().is_some());
///
/// db.create_table_if_missing().await?;
/// db.batch_write().resend(err.into_unprocessed_writes()).await?;
/// assert!(db.get(Order::key(1, 1)?).await?.is_some());
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct PendingWrite {
    pub(crate) position: usize,
    pub(crate) entity: &'static str,
    pub(crate) kind: WriteKind,
    pub(crate) partition: String,
    pub(crate) sort: String,
    pub(crate) request: WriteRequest,
    /// Upper bound of its JSON size in a request.
    pub(crate) wire: usize,
}

impl PendingWrite {
    /// The entity type's name ([`Entity::RUST_NAME`](crate::entity::Entity::RUST_NAME)), e.g. `"Order"`.
    ///
    /// See [the example](PendingWrite#example).
    pub fn entity(&self) -> &'static str {
        self.entity
    }

    /// A put or a delete.
    ///
    /// See [the example](PendingWrite#example).
    pub fn kind(&self) -> WriteKind {
        self.kind
    }

    /// The partition key value.
    ///
    /// See [the example](PendingWrite#example).
    pub fn partition(&self) -> &str {
        &self.partition
    }

    /// The sort key value (empty on a table without a sort key).
    ///
    /// See [the example](PendingWrite#example).
    pub fn sort(&self) -> &str {
        &self.sort
    }

    /// Where the write was in its batch (0 for the first write added).
    ///
    /// See [the example](PendingWrite#example).
    pub fn position(&self) -> usize {
        self.position
    }

    /// The SDK request: the whole item of a put, the key of a delete.
    ///
    /// See [the example](PendingWrite#example).
    pub fn request(&self) -> &WriteRequest {
        &self.request
    }
}

/// A key of a batch get that DynamoDB did not answer for: its entity type
/// and key values, ready to be asked for again ([`BatchGet::resend`](crate::batch::BatchGet::resend)).
///
/// # Example
///
/// A batch read of a table not created yet fails for good, and hands back
/// every key; once the table exists, they are asked for again:
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use ddb_entity::{Db, Entity, local::LocalDynamo};
/// use serde::{Deserialize, Serialize};
///
/// ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
///
/// #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
/// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}", type = "ORDER")]
/// struct Order { customer_id: u64, order_id: u64 }
///
/// let dynamo = LocalDynamo::start().await?;
/// let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("pending"));
/// let read = db.batch_get().get(Order::key(1, 1)?).get(Order::key(1, 2)?);
/// let err = read.collect::<Vec<Order>>().await.unwrap_err();
/// let pending = err.unprocessed_keys();
/// assert_eq!(pending.len(), 2);
/// assert_eq!((pending[1].position(), pending[1].entity()), (1, "Order"));
/// assert_eq!(pending[1].entity_type(), "ORDER");
/// assert!(pending[1].partition().starts_with("CUST#") && pending[1].sort().starts_with("ORDER#"));
/// assert_eq!(pending[1].attributes().len(), 2); // PK and SK
///
/// db.create_table_if_missing().await?;
/// db.put(&Order { customer_id: 1, order_id: 2 }).await?;
/// let orders: Vec<Order> = db.batch_get().resend(err.into_unprocessed_keys()).collect().await?;
/// assert_eq!(orders, [Order { customer_id: 1, order_id: 2 }]);
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct PendingKey {
    pub(crate) position: usize,
    pub(crate) entity: &'static str,
    pub(crate) entity_type: &'static str,
    pub(crate) partition: String,
    pub(crate) sort: String,
    pub(crate) attributes: Item,
}

impl PendingKey {
    /// The entity type's name ([`Entity::RUST_NAME`](crate::entity::Entity::RUST_NAME)), e.g. `"Order"`.
    ///
    /// See [the example](PendingKey#example).
    pub fn entity(&self) -> &'static str {
        self.entity
    }

    /// The entity's type attribute value ([`Entity::TYPE_TAG`](crate::entity::Entity::TYPE_TAG)), e.g. `"ORDER"`.
    ///
    /// See [the example](PendingKey#example).
    pub fn entity_type(&self) -> &'static str {
        self.entity_type
    }

    /// The partition key value.
    ///
    /// See [the example](PendingKey#example).
    pub fn partition(&self) -> &str {
        &self.partition
    }

    /// The sort key value (empty on a table without a sort key).
    ///
    /// See [the example](PendingKey#example).
    pub fn sort(&self) -> &str {
        &self.sort
    }

    /// Where the key was in its batch (0 for the first key added).
    ///
    /// See [the example](PendingKey#example).
    pub fn position(&self) -> usize {
        self.position
    }

    /// The key as the attribute map a request takes.
    ///
    /// See [the example](PendingKey#example).
    pub fn attributes(&self) -> &Item {
        &self.attributes
    }
}
