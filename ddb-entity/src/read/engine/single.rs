//! The response bodies of reads by key, read from their bytes. A
//! GetItem's: its item (`Item`), parsed once into an [`ItemTree`] whose
//! strings are borrowed from the body, and `ConsumedCapacity`. A
//! BatchGetItem's: each of the table's items kept as its slice of the body
//! (no copy, parsed once when decoded), the table's `UnprocessedKeys` as
//! the SDK holds them (retried as before), and `ConsumedCapacity`. The
//! body's structure is checked by the page's split ([`split`]): a body cut
//! short is an error.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::ConsumedCapacity;
use bytes::Bytes;
use serde_json::value::RawValue;

use super::found::{ItemText, Origin, body_text};
use super::split::{member, member_error, split, wire_capacity};
use crate::codec::ItemTree;
use crate::codec::wire::{parse_item, to_item};
use crate::error::Error;
use crate::item::Item;

/// What a GetItem's body holds.
pub(crate) struct OneItem<'a> {
    pub(crate) item: Option<ItemTree<'a>>,
    pub(crate) capacity: Option<ConsumedCapacity>,
}

/// Reads a GetItem's `body`; one that is not DynamoDB's JSON fails as the
/// SDK fails a response it cannot parse.
pub(crate) fn read_item<'a>(body: &'a Bytes, origin: &Origin) -> Result<OneItem<'a>, Error> {
    read(body).map_err(|detail| origin.malformed(&detail))
}

fn read(body: &Bytes) -> Result<OneItem<'_>, String> {
    // UTF-8 checked once for the body, not string by string.
    let text = std::str::from_utf8(body).map_err(|err| err.to_string())?;
    let page = split(text)?;
    if !page.items.is_empty() {
        return Err("a GetItem response holds no `Items`".to_owned());
    }
    let mut one = OneItem {
        item: None,
        capacity: None,
    };
    for (name, value) in page.members {
        match name {
            "Item" if value != "null" => {
                let entries = parse_item(value).map_err(|err| format!("Item: {err}"))?;
                one.item = Some(ItemTree {
                    entries,
                    found_by: None,
                });
            }
            "ConsumedCapacity" => {
                one.capacity = wire_capacity(value).map_err(|err| member_error(name, err))?;
            }
            _ => member::<serde::de::IgnoredAny>(name, value).map(drop)?,
        }
    }
    Ok(one)
}

/// What a BatchGetItem's body holds for one table.
pub(crate) struct BatchItems {
    /// Each item's text, a span of the body.
    pub(crate) items: Vec<ItemText>,
    /// The keys left unprocessed, as the SDK holds them.
    pub(crate) unprocessed: Vec<Item>,
    pub(crate) capacity: Vec<ConsumedCapacity>,
}

/// Reads a BatchGetItem's `body`, for `table`; one that is not DynamoDB's
/// JSON fails as the SDK fails a response it cannot parse.
pub(crate) fn read_batch(body: Bytes, table: &str, origin: &Origin) -> Result<BatchItems, Error> {
    read_batch_text(body, table).map_err(|detail| origin.malformed(&detail))
}

/// The `UnprocessedKeys` of one table (its other members, the request's
/// settings, are the request's own).
#[derive(serde::Deserialize)]
struct WireKeys<'a> {
    #[serde(rename = "Keys", borrow)]
    keys: Vec<&'a RawValue>,
}

fn read_batch_text(body: Bytes, table: &str) -> Result<BatchItems, String> {
    let body = body_text(body)?;
    let text = body.as_str();
    let page = split(text)?;
    if !page.items.is_empty() {
        return Err("a BatchGetItem response holds no `Items`".to_owned());
    }
    let mut batch = BatchItems {
        items: Vec::new(),
        unprocessed: Vec::new(),
        capacity: Vec::new(),
    };
    for (name, value) in page.members {
        match name {
            "Responses" => {
                let mut tables: HashMap<String, Vec<&RawValue>> = member(name, value)?;
                batch.items = tables
                    .remove(table)
                    .unwrap_or_default()
                    .into_iter()
                    .map(|item| {
                        // The item's place in the body it was read from.
                        let start = item.get().as_ptr() as usize - text.as_ptr() as usize;
                        ItemText::new(&body, start..start + item.get().len())
                    })
                    .collect();
            }
            "UnprocessedKeys" => {
                let mut tables: HashMap<String, WireKeys<'_>> = member(name, value)?;
                let keys = tables.remove(table).map(|left| left.keys);
                for key in keys.unwrap_or_default() {
                    let entries = parse_item(key.get()).map_err(|e| member_error(name, e))?;
                    batch.unprocessed.push(
                        to_item(&entries)
                            .ok_or("a key of an attribute type this version does not know")?,
                    );
                }
            }
            "ConsumedCapacity" => {
                let capacities: Vec<&RawValue> = member(name, value)?;
                for capacity in capacities {
                    batch
                        .capacity
                        .extend(wire_capacity(capacity.get()).map_err(|e| member_error(name, e))?);
                }
            }
            _ => member::<serde::de::IgnoredAny>(name, value).map(drop)?,
        }
    }
    Ok(batch)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    fn origin() -> Arc<Origin> {
        Origin::new("GetItem", "t")
    }

    #[test]
    fn an_item_and_its_capacity_are_read_and_a_cut_body_is_an_error() {
        let body = Bytes::from_static(
            br#"{"Item":{"PK":{"S":"a\"b"},"n":{"N":"1"}},"ConsumedCapacity":{"TableName":"t","CapacityUnits":0.5}}"#,
        );
        let one = read_item(&body, &origin()).unwrap();
        let item = one.item.unwrap();
        assert_eq!(item.string("PK"), Some("a\"b"));
        assert_eq!(one.capacity.unwrap().capacity_units(), Some(0.5));
        for cut in 0..body.len() {
            let err = read_item(&body.slice(..cut), &origin()).err().unwrap();
            assert!(
                err.to_string()
                    .contains("the GetItem response is not DynamoDB's JSON"),
                "{err}"
            );
        }
    }

    #[test]
    fn a_batch_s_items_unprocessed_keys_and_capacity_are_read() {
        let body = Bytes::from_static(
            br#"{"Responses":{"other":[{"PK":{"S":"x"}}],"t":[{"PK":{"S":"a"}},{"PK":{"S":"b\u00e9"}}]},"UnprocessedKeys":{"t":{"Keys":[{"PK":{"S":"c"},"SK":{"S":"d"}}],"ConsistentRead":true}},"ConsumedCapacity":[{"TableName":"t","CapacityUnits":1.5},{"TableName":"other","CapacityUnits":0.5}]}"#,
        );
        let origin = Origin::new("BatchGetItem", "t");
        let batch = read_batch(body.clone(), "t", &origin).unwrap();
        let items: Vec<&str> = batch.items.iter().map(ItemText::as_str).collect();
        assert_eq!(items, [r#"{"PK":{"S":"a"}}"#, r#"{"PK":{"S":"b\u00e9"}}"#]);
        assert_eq!(batch.unprocessed.len(), 1);
        assert_eq!(batch.unprocessed[0]["SK"].as_s().unwrap(), "d");
        let units: Vec<_> = batch.capacity.iter().map(|c| c.capacity_units()).collect();
        assert_eq!(units, [Some(1.5), Some(0.5)]);
        for cut in 0..body.len() {
            assert!(read_batch(body.slice(..cut), "t", &origin).is_err());
        }
        let empty = read_batch(Bytes::from_static(b"{}"), "t", &origin).unwrap();
        assert!(empty.items.is_empty() && empty.unprocessed.is_empty());
    }

    #[test]
    fn no_item_is_none() {
        for body in [
            &br#"{}"#[..],
            br#"{"ConsumedCapacity":{"CapacityUnits":1.0}}"#,
        ] {
            let body = Bytes::from_static(body);
            assert!(read_item(&body, &origin()).unwrap().item.is_none());
        }
    }
}
