//! A table's stream, as typed changes: each record parsed into a
//! [`Change`] — insert, modify (old and new images) or remove — of an
//! entity, or of any entity of a `#[derive(Collection)]` enum, with the
//! record's key, sequence number and origin (a request, or the time to
//! live) beside it.
//!
//! Records come from two sources, each behind a feature:
//!
//! | source | feature | entry point |
//! | --- | --- | --- |
//! | a Lambda function's DynamoDB event (`aws_lambda_events`) | `lambda` | [`lambda::records`] |
//! | the DynamoDB Streams API, polled over every shard | `streams` | [`Poller`], [`from_sdk_record`] |
//!
//! Both go through one parser, which decodes each image exactly as a query
//! decodes an item: routed by the type attribute to the member of `T` that
//! holds that entity type, the body decoded, and the stored keys (table
//! and index keys) verified against the decoded value. Nothing is dropped
//! and nothing is guessed: a record that is not a `T` keeps its place in
//! the sequence with an error saying which item it is about and why —
//!
//! | the record | [`Record::change`] |
//! | --- | --- |
//! | an item of an entity type `T` does not hold | `Err`, [`ErrorKind::UnknownType`](crate::error::ErrorKind::UnknownType), with the type found |
//! | an item with no type attribute (written by other code) | `Err`, [`ErrorKind::UnknownType`](crate::error::ErrorKind::UnknownType) |
//! | keys that are not this table's (another table's stream) | `Err`, [`ErrorKind::ForeignRecord`](crate::error::ErrorKind::ForeignRecord) |
//! | a body that does not decode (a number in a string field, …) | `Err`, [`ErrorKind::Decode`](crate::error::ErrorKind::Decode), naming the field |
//! | the type of one entity under the keys of another | `Err`, [`ErrorKind::KeyMismatch`](crate::error::ErrorKind::KeyMismatch) |
//! | an image its view type promises but it lacks, an unknown event name, an image under another key than the record's | `Err`, [`ErrorKind::MalformedRecord`](crate::error::ErrorKind::MalformedRecord) |
//!
//! What each stream view type gives (an absent image is `None`, never an
//! error):
//!
//! | view type | insert | modify | remove |
//! | --- | --- | --- | --- |
//! | `NEW_AND_OLD_IMAGES` | `new` | `old`, `new` | `old` |
//! | `NEW_IMAGE` | `new` | `new` | nothing |
//! | `OLD_IMAGE` | nothing | `old` | `old` |
//! | `KEYS_ONLY` | nothing | nothing | nothing |
//!
//! A `KEYS_ONLY` record carries no type attribute, so it cannot be told to
//! be a `T` at all: it is a `Change` with no image, and [`Record::keys`]
//! says which item changed (read it for its current state).
//!
//! Deletions by the time to live are [`Origin::TimeToLive`]; a delete
//! request's are [`Origin::Request`].
//!
//! ```
//! use ddb_entity::stream::{Change, ChangeKind, Origin, Record};
//! # use ddb_entity::{Collection, Entity};
//! # use serde::{Deserialize, Serialize};
//! # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
//! # #[derive(Entity, Serialize, Deserialize, Debug)]
//! # #[entity(table = App, pk = "CUST#{customer_id}", sk = "PROFILE")]
//! # struct Customer { customer_id: u64, name: String }
//! # #[derive(Entity, Serialize, Deserialize, Debug)]
//! # #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}")]
//! # struct Order { customer_id: u64, order_id: u64, total_cents: i64 }
//!
//! /// Every entity of the table, as one type.
//! #[derive(Collection, Debug)]
//! enum AppItem {
//!     Customer(Customer),
//!     Order(Order),
//! }
//!
//! fn apply(record: &Record<AppItem>) -> Result<(), String> {
//!     match &record.change {
//!         Ok(Change::Modify { old: Some(AppItem::Order(old)), new: Some(AppItem::Order(new)) }) => {
//!             println!("order {}: {} -> {}", new.order_id, old.total_cents, new.total_cents);
//!         }
//!         Ok(Change::Remove { .. }) if record.origin == Origin::TimeToLive => {}
//!         Ok(change) => println!("{} of {:?}", change.kind(), record.partition_key()),
//!         Err(err) => return Err(format!("{:?}: {err}", record.sequence_number)),
//!     }
//!     Ok(())
//! }
//! ```
//!
#![cfg_attr(feature = "lambda", doc = "[`lambda::records`]: lambda::records")]
#![cfg_attr(
    not(feature = "lambda"),
    doc = "[`lambda::records`]: https://docs.rs/ddb-entity/latest/ddb_entity/stream/lambda/fn.records.html"
)]
#![cfg_attr(
    feature = "streams",
    doc = "[`Poller`]: Poller\n[`from_sdk_record`]: from_sdk_record"
)]
#![cfg_attr(
    not(feature = "streams"),
    doc = "[`Poller`]: https://docs.rs/ddb-entity/latest/ddb_entity/stream/struct.Poller.html\n[`from_sdk_record`]: https://docs.rs/ddb-entity/latest/ddb_entity/stream/fn.from_sdk_record.html"
)]

#[cfg(feature = "streams")]
mod api;
mod checkpoint;
#[cfg(feature = "lambda")]
#[cfg_attr(docsrs, doc(cfg(feature = "lambda")))]
pub mod lambda;
#[cfg(any(feature = "lambda", feature = "streams"))]
mod parse;
#[cfg(feature = "streams")]
mod poller;
mod record;

#[cfg(feature = "streams")]
#[cfg_attr(docsrs, doc(cfg(feature = "streams")))]
pub use api::from_sdk_record;
/// The `aws-sdk-dynamodbstreams` crate this module is built on, so users name
/// the same version.
#[cfg(feature = "streams")]
#[cfg_attr(docsrs, doc(cfg(feature = "streams")))]
pub use aws_sdk_dynamodbstreams as sdk;
pub use checkpoint::Checkpoint;
#[cfg(feature = "streams")]
#[cfg_attr(docsrs, doc(cfg(feature = "streams")))]
pub use poller::{Poller, StartAt};
pub use record::{Change, ChangeKind, Origin, Record, UnknownName, ViewType};
