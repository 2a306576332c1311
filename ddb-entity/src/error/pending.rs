//! What a batch hands back when it could not finish: the writes and keys
//! still pending, typed, ready to be sent again.

use aws_sdk_dynamodb::types::WriteRequest;

use super::Item;

/// What a batch write does to its key.
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
    pub fn entity(&self) -> &'static str {
        self.entity
    }

    /// A put or a delete.
    pub fn kind(&self) -> WriteKind {
        self.kind
    }

    /// The partition key value.
    pub fn partition(&self) -> &str {
        &self.partition
    }

    /// The sort key value (empty on a table without a sort key).
    pub fn sort(&self) -> &str {
        &self.sort
    }

    /// Where the write was in its batch (0 for the first write added).
    pub fn position(&self) -> usize {
        self.position
    }

    /// The SDK request: the whole item of a put, the key of a delete.
    pub fn request(&self) -> &WriteRequest {
        &self.request
    }
}

/// A key of a batch get that DynamoDB did not answer for: its entity type
/// and key values, ready to be asked for again ([`BatchGet::resend`](crate::batch::BatchGet::resend)).
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
    pub fn entity(&self) -> &'static str {
        self.entity
    }

    /// The entity's type attribute value ([`Entity::TYPE_TAG`](crate::entity::Entity::TYPE_TAG)), e.g. `"ORDER"`.
    pub fn entity_type(&self) -> &'static str {
        self.entity_type
    }

    /// The partition key value.
    pub fn partition(&self) -> &str {
        &self.partition
    }

    /// The sort key value (empty on a table without a sort key).
    pub fn sort(&self) -> &str {
        &self.sort
    }

    /// Where the key was in its batch (0 for the first key added).
    pub fn position(&self) -> usize {
        self.position
    }

    /// The key as the attribute map a request takes.
    pub fn attributes(&self) -> &Item {
        &self.attributes
    }
}
