//! The DynamoDB event a Lambda function receives
//! ([`aws_lambda_events::event::dynamodb::Event`]), parsed into typed
//! [`Record`]s. With the `lambda` feature.
//!
//! ```
//! use aws_lambda_events::event::dynamodb::Event;
//! use ddb_entity::stream::{Change, lambda};
//! # use ddb_entity::{Collection, Entity};
//! # use serde::{Deserialize, Serialize};
//! # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
//! # #[derive(Entity, Serialize, Deserialize, Debug)]
//! # #[entity(table = App, pk = "CUST#{customer_id}", sk = "PROFILE")]
//! # struct Customer { customer_id: u64, name: String }
//! # #[derive(Entity, Serialize, Deserialize, Debug)]
//! # #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}")]
//! # struct Order { customer_id: u64, order_id: u64 }
//!
//! #[derive(Collection, Debug)]
//! enum AppItem {
//!     Customer(Customer),
//!     Order(Order),
//! }
//!
//! /// The handler: what `lambda_runtime::service_fn` would call.
//! fn handle(event: Event) -> Vec<String> {
//!     let mut seen = Vec::new();
//!     for record in lambda::records::<AppItem>(event) {
//!         match record.change {
//!             Ok(Change::Insert { new: Some(AppItem::Order(order)) }) => {
//!                 seen.push(format!("order {} placed", order.order_id));
//!             }
//!             Ok(_) => {}
//!             // Never dropped silently: the key says which item, the error why.
//!             Err(err) => seen.push(format!("unreadable {:?}: {err}", record.sequence_number)),
//!         }
//!     }
//!     seen
//! }
//!
//! let event: Event = serde_json::from_str(r#"{"Records": [{
//!     "eventID": "1", "eventName": "INSERT", "eventVersion": "1.1",
//!     "eventSource": "aws:dynamodb", "awsRegion": "us-east-1",
//!     "dynamodb": {
//!         "Keys": {"PK": {"S": "CUST#42"}, "SK": {"S": "ORDER#00000000000000000007"}},
//!         "NewImage": {
//!             "PK": {"S": "CUST#42"}, "SK": {"S": "ORDER#00000000000000000007"},
//!             "_type": {"S": "order"}, "customer_id": {"N": "42"}, "order_id": {"N": "7"}
//!         },
//!         "SequenceNumber": "111", "SizeBytes": 26, "StreamViewType": "NEW_AND_OLD_IMAGES"
//!     }
//! }]}"#).unwrap();
//! assert_eq!(handle(event), ["order 7 placed"]);
//! ```

use std::time::{Duration, UNIX_EPOCH};

/// The Lambda event types this module reads, re-exported so that a handler
/// names the same version of `aws_lambda_events`.
pub use aws_lambda_events::event::dynamodb::{Event, EventRecord};
/// What a handler answers with "report batch item failures" on: the
/// sequence numbers of the records to be retried.
pub use aws_lambda_events::event::streams::{DynamoDbBatchItemFailure, DynamoDbEventResponse};

use super::parse::{RawRecord, parse, table_of_arn};
use super::record::Record;
use crate::collection::CollectionItem;
use crate::item::Item;

/// Every record of `event`, in order, each parsed as a change of `T`s (see
/// [`Record`]: a record that is not a `T` is there too, with the reason).
///
/// ```
/// # use ddb_entity::stream::lambda;
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// # #[derive(ddb_entity::Entity, serde::Serialize, serde::Deserialize)]
/// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// # struct Customer { id: u64 }
/// let event = aws_lambda_events::event::dynamodb::Event::default();
/// assert!(lambda::records::<Customer>(event).is_empty());
/// ```
pub fn records<T: CollectionItem>(event: Event) -> Vec<Record<T>> {
    event.records.into_iter().map(record).collect()
}

/// Like [`records`], refusing the records of any other table than
/// `table_name` (by their `eventSourceARN`) as
/// [`ErrorKind::ForeignRecord`](crate::error::ErrorKind::ForeignRecord): for a
/// function subscribed to several streams by mistake.
///
/// ```
/// # use ddb_entity::{ErrorKind, stream::lambda};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// # #[derive(ddb_entity::Entity, serde::Serialize, serde::Deserialize, Debug)]
/// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// # struct Customer { id: u64 }
/// let event: lambda::Event = serde_json::from_str(r#"{"Records": [{
///     "eventID": "1", "eventName": "REMOVE", "awsRegion": "us-east-1",
///     "eventSourceARN": "arn:aws:dynamodb:us-east-1:123456789012:table/billing/stream/2026-03-14T09:31:00.000",
///     "dynamodb": {"Keys": {"PK": {"S": "CUST#1"}, "SK": {"S": "PROFILE"}}, "SizeBytes": 20,
///                  "StreamViewType": "KEYS_ONLY", "SequenceNumber": "5"}
/// }]}"#).unwrap();
/// let records = lambda::records_of_table::<Customer>(event, "app");
/// assert_eq!(records[0].change.as_ref().unwrap_err().kind(), ErrorKind::ForeignRecord);
/// ```
pub fn records_of_table<T: CollectionItem>(event: Event, table_name: &str) -> Vec<Record<T>> {
    event
        .records
        .into_iter()
        .map(|one| parse(raw(one), Some(table_name)))
        .collect()
}

/// One record of an event, parsed as a change of `T`s.
///
/// ```
/// # use ddb_entity::stream::{lambda, Change};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// # #[derive(ddb_entity::Entity, serde::Serialize, serde::Deserialize)]
/// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// # struct Customer { id: u64 }
/// let one: aws_lambda_events::event::dynamodb::EventRecord = serde_json::from_str(r#"{
///     "eventID": "1", "eventName": "REMOVE", "awsRegion": "us-east-1",
///     "dynamodb": {"Keys": {"PK": {"S": "CUST#1"}, "SK": {"S": "PROFILE"}}, "SizeBytes": 20,
///                  "StreamViewType": "KEYS_ONLY", "SequenceNumber": "5"}
/// }"#).unwrap();
/// let record = lambda::record::<Customer>(one);
/// assert!(matches!(record.change, Ok(Change::Remove { old: None })));
/// assert_eq!(record.partition_key(), Some("CUST#1"));
/// ```
pub fn record<T: CollectionItem>(record: EventRecord) -> Record<T> {
    parse(raw(record), None)
}

fn raw(record: EventRecord) -> RawRecord {
    let change = record.change;
    // The event's images are never absent, only empty (the crate reads a
    // missing or null one as an empty map); no item is empty, as every item
    // holds its key.
    let image =
        |item: serde_dynamo::Item| -> Option<Item> { (!item.is_empty()).then(|| Item::from(item)) };
    // A missing time reads as the epoch: no record was written then.
    let micros = change.approximate_creation_date_time.timestamp_micros();
    let created = (micros > 0).then(|| UNIX_EPOCH + Duration::from_micros(micros.unsigned_abs()));
    RawRecord {
        event_name: record.event_name,
        event_id: record.event_id,
        sequence_number: change.sequence_number,
        shard_id: None,
        keys: Item::from(change.keys),
        new_image: image(change.new_image),
        old_image: image(change.old_image),
        view: change.stream_view_type.map(|view| view.to_string()),
        identity: record
            .user_identity
            .map(|identity| (identity.type_, identity.principal_id)),
        created,
        table_name: record
            .event_source_arn
            .as_deref()
            .and_then(table_of_arn)
            .map(str::to_owned),
        unreadable: None,
    }
}

/// The Lambda event AWS would hand a function subscribed to the stream
/// `stream_arn`, made of records read with the Streams API: to test a
/// handler locally on real records of the embedded server (or any other).
/// With the `lambda` and `streams` features.
///
/// An attribute of a type the Streams SDK does not know cannot be put in
/// the event: [`ErrorKind::MalformedRecord`](crate::error::ErrorKind::MalformedRecord).
///
/// ```
/// use aws_sdk_dynamodbstreams::types::{AttributeValue, OperationType, Record, StreamRecord, StreamViewType};
/// use ddb_entity::stream::lambda;
///
/// let keys = [("PK".to_owned(), AttributeValue::S("CUST#1".into()))];
/// let record = Record::builder()
///     .event_id("1")
///     .event_name(OperationType::Insert)
///     .dynamodb(
///         StreamRecord::builder()
///             .set_keys(Some(keys.into()))
///             .sequence_number("100")
///             .stream_view_type(StreamViewType::KeysOnly)
///             .build(),
///     )
///     .build();
/// let arn = "arn:aws:dynamodb:us-east-1:000000000000:table/app/stream/1";
/// let event = lambda::event_from_sdk_records(vec![record], arn)?;
/// assert_eq!(event.records[0].event_name, "INSERT");
/// assert_eq!(event.records[0].event_source_arn.as_deref(), Some(arn));
/// # Ok::<(), ddb_entity::Error>(())
/// ```
#[cfg(feature = "streams")]
#[cfg_attr(docsrs, doc(cfg(feature = "streams")))]
pub fn event_from_sdk_records(
    records: Vec<aws_sdk_dynamodbstreams::types::Record>,
    stream_arn: &str,
) -> crate::error::Result<Event> {
    let mut event = Event::default();
    for record in records {
        event.records.push(event_record(record, stream_arn)?);
    }
    Ok(event)
}

#[cfg(feature = "streams")]
fn event_record(
    record: aws_sdk_dynamodbstreams::types::Record,
    stream_arn: &str,
) -> crate::error::Result<EventRecord> {
    use aws_lambda_events::event::dynamodb::{StreamRecord, StreamViewType, UserIdentity};
    use chrono::DateTime;

    let change = record
        .dynamodb
        .unwrap_or_else(|| aws_sdk_dynamodbstreams::types::StreamRecord::builder().build());
    let keys = super::api::convert_image(change.keys)?.unwrap_or_default();
    let item = |image| -> crate::error::Result<serde_dynamo::Item> {
        let image = super::api::convert_image(image)?.unwrap_or_default();
        Ok(serde_dynamo::Item::from(image))
    };
    let mut out = StreamRecord::default();
    out.new_image = item(change.new_image)?;
    out.old_image = item(change.old_image)?;
    out.keys = serde_dynamo::Item::from(keys);
    out.sequence_number = change.sequence_number;
    out.size_bytes = change.size_bytes.unwrap_or_default();
    out.stream_view_type = change
        .stream_view_type
        .and_then(|view| match view.as_str() {
            "KEYS_ONLY" => Some(StreamViewType::KeysOnly),
            "NEW_IMAGE" => Some(StreamViewType::NewImage),
            "OLD_IMAGE" => Some(StreamViewType::OldImage),
            "NEW_AND_OLD_IMAGES" => Some(StreamViewType::NewAndOldImages),
            _ => None,
        });
    if let Some(time) = change.approximate_creation_date_time
        && let Some(time) = DateTime::from_timestamp(time.secs(), time.subsec_nanos())
    {
        out.approximate_creation_date_time = time;
    }
    let mut event = EventRecord::default();
    event.change = out;
    event.aws_region = record.aws_region.unwrap_or_default();
    event.event_id = record.event_id.unwrap_or_default();
    event.event_name = record
        .event_name
        .map(|name| name.as_str().to_owned())
        .unwrap_or_default();
    event.event_source = record.event_source;
    event.event_version = record.event_version;
    event.event_source_arn = Some(stream_arn.to_owned());
    event.user_identity = record.user_identity.map(|identity| {
        let mut user = UserIdentity::default();
        user.type_ = identity.r#type.unwrap_or_default();
        user.principal_id = identity.principal_id.unwrap_or_default();
        user
    });
    Ok(event)
}
