//! A stream record once parsed: what changed, typed, and where it sits in
//! the stream.

use std::fmt;
use std::str::FromStr;
use std::time::SystemTime;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::collection::CollectionItem;
use crate::error::Result;
use crate::item::{Item, attribute};
use crate::table::Table;

/// One record of a table's stream: the change, typed as `T` (an entity, or
/// a `#[derive(Collection)]` enum of the table's entities), and where it
/// sits in the stream.
///
/// A record that cannot be read as a `T` is still a `Record`, with the
/// reason in [`change`](Record::change): a foreign item
/// ([`ErrorKind::UnknownType`](crate::error::ErrorKind::UnknownType), or
/// [`ErrorKind::ForeignRecord`](crate::error::ErrorKind::ForeignRecord) for
/// another table's keys), a body that does not decode
/// ([`ErrorKind::Decode`](crate::error::ErrorKind::Decode)), a stored key that is
/// not the decoded value's ([`ErrorKind::KeyMismatch`](crate::error::ErrorKind::KeyMismatch)),
/// a record not as DynamoDB documents it
/// ([`ErrorKind::MalformedRecord`](crate::error::ErrorKind::MalformedRecord)).
/// Its key and sequence number are there either way, so no record is ever
/// dropped unseen and every one can be checkpointed.
///
/// ```
/// use ddb_entity::stream::{Change, Origin, Record};
/// # use ddb_entity::Entity;
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// # #[derive(Entity, Serialize, Deserialize, Debug)]
/// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// # struct Customer { id: u64, name: String }
///
/// fn handle(record: Record<Customer>) -> ddb_entity::Result<()> {
///     match record.change? {
///         Change::Insert { new: Some(customer) } => println!("welcome {}", customer.name),
///         Change::Remove { .. } if record.origin == Origin::TimeToLive => println!("expired"),
///         _ => {}
///     }
///     Ok(())
/// }
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub struct Record<T> {
    /// What changed, or why the record is not a `T` (the key below says
    /// which item it is about).
    pub change: Result<Change<T>>,
    /// The item's key attributes, as recorded (the record's `Keys`).
    pub keys: Item,
    /// Who made the change: a request, or DynamoDB's time to live.
    pub origin: Origin,
    /// Where the record sits in its shard: what to checkpoint. `None` only
    /// for a hand-made Lambda event without one.
    pub sequence_number: Option<String>,
    /// The shard the record was read from (from a
    /// [`Poller`]; a Lambda event does not say).
    ///
    #[cfg_attr(feature = "streams", doc = "[`Poller`]: crate::stream::Poller")]
    #[cfg_attr(
        not(feature = "streams"),
        doc = "[`Poller`]: https://docs.rs/ddb-entity/latest/ddb_entity/stream/struct.Poller.html"
    )]
    pub shard_id: Option<String>,
    /// The record's unique id (`eventID`).
    pub event_id: String,
    /// Which images the stream captures, when the record says.
    pub view: Option<ViewType>,
    /// When DynamoDB wrote the record (to the second), when it says.
    pub approximate_creation_time: Option<SystemTime>,
    /// The table whose stream the record is from, when the record says
    /// (Lambda's `eventSourceARN`, a poller's stream).
    pub table_name: Option<String>,
}

impl<T: CollectionItem> Record<T> {
    /// The item's partition key value (`None` when the record's keys hold
    /// no string under the table's partition key attribute).
    ///
    /// ```
    /// # use ddb_entity::stream::Record;
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(ddb_entity::Entity, serde::Serialize, serde::Deserialize)]
    /// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// # struct Customer { id: u64 }
    /// fn partition(record: &Record<Customer>) -> &str {
    ///     record.partition_key().unwrap_or("(none)")
    /// }
    /// ```
    pub fn partition_key(&self) -> Option<&str> {
        string(&self.keys, T::Table::SCHEMA.primary.partition_key)
    }

    /// The item's sort key value (`None` on a table without a sort key, or
    /// when the keys hold no string there).
    ///
    /// ```
    /// # use ddb_entity::stream::Record;
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(ddb_entity::Entity, serde::Serialize, serde::Deserialize)]
    /// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// # struct Customer { id: u64 }
    /// fn is_profile(record: &Record<Customer>) -> bool {
    ///     record.sort_key() == Some("PROFILE")
    /// }
    /// ```
    pub fn sort_key(&self) -> Option<&str> {
        T::Table::SCHEMA
            .primary
            .sort_key
            .and_then(|name| string(&self.keys, name))
    }
}

fn string<'i>(item: &'i Item, name: &str) -> Option<&'i str> {
    match attribute(item, name) {
        Some(AttributeValue::S(value)) => Some(value),
        _ => None,
    }
}

/// What a stream record says happened to an item, with the images its
/// stream captures decoded as `T`.
///
/// An image is `None` exactly when the stream's [`ViewType`] does not
/// capture it: `KEYS_ONLY` gives no image at all (the kind and
/// [`Record::keys`] only — read the item if you need its current state),
/// `NEW_IMAGE` no `old`, `OLD_IMAGE` no `new`. An image the view type
/// promises but the record lacks is an error
/// ([`ErrorKind::MalformedRecord`](crate::error::ErrorKind::MalformedRecord)),
/// never a silent `None`.
///
/// # Example
///
/// ```
/// use ddb_entity::stream::{Change, ChangeKind};
///
/// let change: Change<u32> = Change::Modify { old: Some(1), new: Some(2) };
/// assert_eq!(change.kind(), ChangeKind::Modify);
/// assert_eq!((change.old_image(), change.new_image()), (Some(&1), Some(&2)));
/// assert_eq!(change.into_new_image(), Some(2));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Change<T> {
    /// A new item was written (`INSERT`).
    Insert {
        /// The item written (`None` on `KEYS_ONLY` and `OLD_IMAGE` streams).
        new: Option<T>,
    },
    /// An existing item was changed (`MODIFY`): by a put, an update, or a
    /// put of an identical item — DynamoDB writes a record only when
    /// something changed.
    Modify {
        /// The item before (`None` on `KEYS_ONLY` and `NEW_IMAGE` streams).
        old: Option<T>,
        /// The item after (`None` on `KEYS_ONLY` and `OLD_IMAGE` streams).
        new: Option<T>,
    },
    /// An item was deleted (`REMOVE`), by a request or by the time to live
    /// ([`Record::origin`]).
    Remove {
        /// The item deleted (`None` on `KEYS_ONLY` and `NEW_IMAGE` streams).
        old: Option<T>,
    },
}

impl<T> Change<T> {
    /// Insert, modify or remove.
    ///
    /// See [the example](Change#example).
    pub fn kind(&self) -> ChangeKind {
        match self {
            Change::Insert { .. } => ChangeKind::Insert,
            Change::Modify { .. } => ChangeKind::Modify,
            Change::Remove { .. } => ChangeKind::Remove,
        }
    }

    /// The item after the change, when there is one and the stream
    /// captures it.
    ///
    /// See [the example](Change#example).
    pub fn new_image(&self) -> Option<&T> {
        match self {
            Change::Insert { new } | Change::Modify { new, .. } => new.as_ref(),
            Change::Remove { .. } => None,
        }
    }

    /// The item before the change, when there was one and the stream
    /// captures it.
    ///
    /// See [the example](Change#example).
    pub fn old_image(&self) -> Option<&T> {
        match self {
            Change::Modify { old, .. } | Change::Remove { old } => old.as_ref(),
            Change::Insert { .. } => None,
        }
    }

    /// The item after the change, owned.
    ///
    /// See [the example](Change#example).
    pub fn into_new_image(self) -> Option<T> {
        match self {
            Change::Insert { new } | Change::Modify { new, .. } => new,
            Change::Remove { .. } => None,
        }
    }
}

/// The kind of a [`Change`], as DynamoDB names it in `eventName`.
///
/// # Example
///
/// ```
/// use ddb_entity::stream::ChangeKind;
///
/// assert_eq!("MODIFY".parse::<ChangeKind>(), Ok(ChangeKind::Modify));
/// assert_eq!(ChangeKind::Remove.to_string(), "REMOVE");
/// assert_eq!(ChangeKind::Insert.as_str(), "INSERT");
/// assert!("UPSERT".parse::<ChangeKind>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChangeKind {
    /// `INSERT`
    Insert,
    /// `MODIFY`
    Modify,
    /// `REMOVE`
    Remove,
}

impl ChangeKind {
    /// The name DynamoDB gives it.
    ///
    /// See [the example](ChangeKind#example).
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::Insert => "INSERT",
            ChangeKind::Modify => "MODIFY",
            ChangeKind::Remove => "REMOVE",
        }
    }
}

impl fmt::Display for ChangeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ChangeKind {
    type Err = UnknownName;

    fn from_str(name: &str) -> Result<Self, UnknownName> {
        match name {
            "INSERT" => Ok(ChangeKind::Insert),
            "MODIFY" => Ok(ChangeKind::Modify),
            "REMOVE" => Ok(ChangeKind::Remove),
            _ => Err(UnknownName),
        }
    }
}

/// What a stream captures of each changed item (its `StreamViewType`).
///
/// # Example
///
/// ```
/// use ddb_entity::stream::ViewType;
///
/// let view: ViewType = "NEW_AND_OLD_IMAGES".parse().unwrap();
/// assert!(view.captures_new() && view.captures_old());
/// assert!(!ViewType::KeysOnly.captures_new());
/// assert_eq!(ViewType::NewImage.as_str(), "NEW_IMAGE");
/// assert!(ViewType::NewImage.captures_new() && !ViewType::NewImage.captures_old());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ViewType {
    /// `KEYS_ONLY`: the key attributes, no image.
    KeysOnly,
    /// `NEW_IMAGE`: the item after the change.
    NewImage,
    /// `OLD_IMAGE`: the item before the change.
    OldImage,
    /// `NEW_AND_OLD_IMAGES`: both.
    NewAndOldImages,
}

impl ViewType {
    /// The name DynamoDB gives it.
    ///
    /// See [the example](ViewType#example).
    pub fn as_str(self) -> &'static str {
        match self {
            ViewType::KeysOnly => "KEYS_ONLY",
            ViewType::NewImage => "NEW_IMAGE",
            ViewType::OldImage => "OLD_IMAGE",
            ViewType::NewAndOldImages => "NEW_AND_OLD_IMAGES",
        }
    }

    /// Whether records carry the item after the change.
    ///
    /// See [the example](ViewType#example).
    pub fn captures_new(self) -> bool {
        matches!(self, ViewType::NewImage | ViewType::NewAndOldImages)
    }

    /// Whether records carry the item before the change.
    ///
    /// See [the example](ViewType#example).
    pub fn captures_old(self) -> bool {
        matches!(self, ViewType::OldImage | ViewType::NewAndOldImages)
    }
}

impl fmt::Display for ViewType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ViewType {
    type Err = UnknownName;

    fn from_str(name: &str) -> Result<Self, UnknownName> {
        match name {
            "KEYS_ONLY" => Ok(ViewType::KeysOnly),
            "NEW_IMAGE" => Ok(ViewType::NewImage),
            "OLD_IMAGE" => Ok(ViewType::OldImage),
            "NEW_AND_OLD_IMAGES" => Ok(ViewType::NewAndOldImages),
            _ => Err(UnknownName),
        }
    }
}

/// A name that is not one DynamoDB uses (parsing a [`ChangeKind`] or a
/// [`ViewType`]).
///
/// ```
/// assert!("keys_only".parse::<ddb_entity::stream::ViewType>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("not a name DynamoDB Streams uses")]
pub struct UnknownName;

/// Who made a change.
///
/// # Example
///
/// ```
/// use ddb_entity::stream::Origin;
///
/// assert_eq!(Origin::from_identity(None), Origin::Request);
/// assert_eq!(Origin::from_identity(Some(("Service", "dynamodb.amazonaws.com"))), Origin::TimeToLive);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Origin {
    /// A request to the table (a put, update, delete, transaction, …): the
    /// record has no `userIdentity`.
    Request,
    /// DynamoDB's time to live deleted an expired item (`userIdentity`
    /// type `Service`, principal `dynamodb.amazonaws.com`); only on a
    /// [`Change::Remove`].
    TimeToLive,
    /// A `userIdentity` DynamoDB does not document for streams, kept as
    /// recorded rather than guessed at.
    Other {
        /// `userIdentity.type`
        identity_type: String,
        /// `userIdentity.principalId`
        principal_id: String,
    },
}

impl Origin {
    /// The origin a record's `userIdentity` (its type and principal) means.
    ///
    /// See [the example](Origin#example).
    pub fn from_identity(identity: Option<(&str, &str)>) -> Self {
        match identity {
            None => Origin::Request,
            Some(("Service", "dynamodb.amazonaws.com")) => Origin::TimeToLive,
            Some((identity_type, principal_id)) => Origin::Other {
                identity_type: identity_type.to_owned(),
                principal_id: principal_id.to_owned(),
            },
        }
    }
}
