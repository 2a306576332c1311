//! A GetItem's response body, read from its bytes: the item (`Item`),
//! parsed once into an [`ItemTree`] whose strings are borrowed from the
//! body, and `ConsumedCapacity`. The body's structure is checked by the
//! page's split ([`split`]): a body cut short is an error.

use std::sync::Arc;

use aws_sdk_dynamodb::types::ConsumedCapacity;
use bytes::Bytes;

use super::found::Origin;
use super::seam::{Capture, Slot};
use super::split::{split, wire_capacity};
use crate::codec::ItemTree;
use crate::codec::wire::parse_item;
use crate::error::Error;

/// The body of one request's successful response, taken by the seam.
#[derive(Debug, Default)]
pub(crate) struct Body(Slot);

impl Body {
    /// The interceptor to add to the request (`customize().interceptor`).
    pub(crate) fn capture(&self) -> Capture {
        Capture(Arc::clone(&self.0))
    }

    /// The body's bytes, once the request succeeded.
    pub(crate) fn take(&self, origin: &Origin) -> Result<Bytes, Error> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .ok_or_else(|| origin.malformed("the response body was not read"))
    }
}

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
                one.capacity = wire_capacity(value).map_err(|err| format!("{name}: {err}"))?;
            }
            _ => {
                serde_json::from_str::<serde::de::IgnoredAny>(value)
                    .map_err(|err| format!("{name}: {err}"))?;
            }
        }
    }
    Ok(one)
}

#[cfg(test)]
mod tests {
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
    fn no_item_is_none() {
        for body in [&br#"{}"#[..], br#"{"ConsumedCapacity":{"CapacityUnits":1.0}}"#] {
            let body = Bytes::from_static(body);
            assert!(read_item(&body, &origin()).unwrap().item.is_none());
        }
    }
}
