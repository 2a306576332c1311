//! Records of the DynamoDB Streams API (`aws-sdk-dynamodbstreams`), moved
//! into the one parser. The Streams SDK has its own `AttributeValue`, the
//! same shape as DynamoDB's: converted here, value by value.

use std::collections::HashMap;
use std::time::SystemTime;

use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodbstreams::types as streams;

use super::parse::{RawRecord, parse};
use super::record::Record;
use crate::collection::CollectionItem;
use crate::item::Item;

/// Parses one record the Streams API's `GetRecords` returned as a change of
/// `T`s, read from shard `shard_id` of table `table_name`'s stream (either
/// may be `None` when not known).
///
/// A [`Poller`](super::Poller) does this for every record; call it for
/// records you read with the SDK yourself.
///
/// ```
/// use aws_sdk_dynamodbstreams::types::{AttributeValue, OperationType, Record as SdkRecord, StreamRecord};
/// use ddb_entity::stream::{Change, from_sdk_record};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// # #[derive(ddb_entity::Entity, serde::Serialize, serde::Deserialize)]
/// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// # struct Customer { id: u64 }
///
/// let s = |v: &str| AttributeValue::S(v.into());
/// let keys = [("PK".to_owned(), s("CUST#1")), ("SK".to_owned(), s("PROFILE"))];
/// let record = SdkRecord::builder()
///     .event_id("1")
///     .event_name(OperationType::Remove)
///     .dynamodb(StreamRecord::builder().set_keys(Some(keys.into())).sequence_number("100").build())
///     .build();
/// let parsed = from_sdk_record::<Customer>(record, Some("shard-1"), Some("app"));
/// assert!(matches!(parsed.change, Ok(Change::Remove { old: None })));
/// assert_eq!(parsed.sequence_number.as_deref(), Some("100"));
/// ```
pub fn from_sdk_record<T: CollectionItem>(
    record: streams::Record,
    shard_id: Option<&str>,
    table_name: Option<&str>,
) -> Record<T> {
    let mut unreadable = None;
    let mut item = |image: Option<HashMap<String, streams::AttributeValue>>| {
        image.and_then(|image| match convert_item(image) {
            Ok(item) => Some(item),
            Err(why) => {
                unreadable.get_or_insert(why);
                None
            }
        })
    };
    let change = record
        .dynamodb
        .unwrap_or_else(|| streams::StreamRecord::builder().build());
    let keys = item(change.keys).unwrap_or_default();
    let new_image = item(change.new_image);
    let old_image = item(change.old_image);
    let raw = RawRecord {
        event_name: record
            .event_name
            .map(|name| name.as_str().to_owned())
            .unwrap_or_default(),
        event_id: record.event_id.unwrap_or_default(),
        sequence_number: change.sequence_number,
        shard_id: shard_id.map(str::to_owned),
        keys,
        new_image,
        old_image,
        view: change.stream_view_type.map(|view| view.as_str().to_owned()),
        identity: record.user_identity.map(|identity| {
            (
                identity.r#type.unwrap_or_default(),
                identity.principal_id.unwrap_or_default(),
            )
        }),
        created: change
            .approximate_creation_date_time
            .and_then(|time| SystemTime::try_from(time).ok()),
        table_name: table_name.map(str::to_owned),
        unreadable,
    };
    parse(raw, None)
}

/// An image of a Streams record as a DynamoDB item (`None` when absent);
/// an attribute of a type this SDK does not know is a malformed record.
#[cfg(feature = "lambda")]
pub(crate) fn convert_image(
    image: Option<HashMap<String, streams::AttributeValue>>,
) -> crate::error::Result<Option<Item>> {
    image.map(convert_item).transpose().map_err(|detail| {
        crate::error::Repr::MalformedRecord {
            at: crate::error::ItemAt {
                partition: ("(unknown)", None),
                sort: None,
            },
            detail,
        }
        .into()
    })
}

/// A Streams item as a DynamoDB item, or the reason it is not one.
fn convert_item(item: HashMap<String, streams::AttributeValue>) -> Result<Item, String> {
    item.into_iter()
        .map(|(name, value)| Ok((name, convert(value)?)))
        .collect()
}

fn convert(value: streams::AttributeValue) -> Result<AttributeValue, String> {
    use streams::AttributeValue as V;
    Ok(match value {
        V::S(s) => AttributeValue::S(s),
        V::N(n) => AttributeValue::N(n),
        V::B(b) => AttributeValue::B(b),
        V::Bool(b) => AttributeValue::Bool(b),
        V::Null(null) => AttributeValue::Null(null),
        V::Ss(set) => AttributeValue::Ss(set),
        V::Ns(set) => AttributeValue::Ns(set),
        V::Bs(set) => AttributeValue::Bs(set),
        V::L(list) => AttributeValue::L(list.into_iter().map(convert).collect::<Result<_, _>>()?),
        V::M(map) => AttributeValue::M(convert_item(map)?),
        // A type this SDK version does not know: not silently dropped.
        _ => return Err("an attribute holds a type this SDK version does not know".into()),
    })
}
