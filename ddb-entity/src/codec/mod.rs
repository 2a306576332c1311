//! The item codec: serde values to DynamoDB items and back, at the speed of
//! hand-written `AttributeValue` code.
//!
//! It follows serde_dynamo 4's mapping exactly — the same `AttributeValue`
//! for every serde value, the same values read back, the same inputs
//! refused — so items either one wrote read the same with the other, and
//! serde's attributes (`rename`, `default`, `flatten`, `with`, tagged and
//! untagged enums, serde_dynamo's `string_set`/`number_set`/`binary_set`)
//! behave as they do with serde_dynamo. What it does differently is *how*:
//!
//! - it decodes the SDK's `AttributeValue`s in place, where serde_dynamo
//!   first converts the whole item into its own tree (re-hashing every
//!   attribute name into new maps); from an owned item, strings and
//!   binaries move into the value instead of being copied; field names are
//!   matched as borrowed `&str`s; numbers are parsed straight from the
//!   `N` text into the primitive asked for;
//! - it encodes straight into the SDK's types, every map and list sized
//!   from serde's length hints;
//! - its errors name the path of the bad value (`lines[3].sku: expected a
//!   string, found a number`);
//! - where serde_dynamo panics (a map key that serialises as a sequence, an
//!   `AttributeValue` variant newer than its SDK) it returns an error.
//!
//! [`Entity::to_item`](crate::entity::Entity::to_item) and
//! [`Entity::from_item`](crate::entity::Entity::from_item) use it; these functions
//! are for items and values outside an entity (a stream record, a raw SDK
//! call, a key condition value).
//!
//! # Example
//!
//! ```
//! use std::collections::HashMap;
//! use ddb_entity::codec;
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! struct Line { sku: String, qty: u32 }
//!
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! struct Order { id: u64, lines: Vec<Line>, note: Option<String> }
//!
//! let order = Order { id: 7, lines: vec![Line { sku: "A-1".into(), qty: 2 }], note: None };
//! let item = codec::to_item(&order)?;
//! assert_eq!(item["id"].as_n().unwrap(), "7");
//! assert!(item["note"].is_null()); // as serde_dynamo writes it
//! assert_eq!(item, serde_dynamo::to_item::<_, HashMap<_, _>>(&order).unwrap());
//!
//! let borrowed: Order = codec::from_item_ref(&item)?;
//! let owned: Order = codec::from_item(item)?;
//! assert_eq!(owned, order);
//! assert_eq!(borrowed, order);
//!
//! // One value, outside an item.
//! let qty = codec::to_attribute_value(&2u32)?;
//! assert_eq!(qty.as_n().unwrap(), "2");
//! let sku = codec::to_attribute_value("A-1")?;
//! assert_eq!(codec::from_attribute_value_ref::<&str>(&sku)?, "A-1");
//! assert_eq!(codec::from_attribute_value::<u32>(qty)?, 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod de;
pub(crate) use de::wire;
#[doc(hidden)]
pub use de::wire::ItemTree;
mod error;
mod ser;
#[cfg(test)]
mod tests;

use aws_sdk_dynamodb::types::AttributeValue;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::item::Item;

#[doc(hidden)]
pub use de::KeyFieldValue;
pub use error::{DecodeError, EncodeError};

/// Decodes an owned item, moving its strings and binaries into the value.
/// What `serde_dynamo::from_item` returns for the same item, faster.
///
/// See [the module's example](crate::codec#example).
pub fn from_item<T: DeserializeOwned>(item: Item) -> Result<T, DecodeError> {
    from_attribute_value(AttributeValue::M(item))
}

/// Decodes a borrowed item: `&str` and `Cow<str>` fields borrow from it,
/// other strings are copied.
///
/// See [the module's example](crate::codec#example).
pub fn from_item_ref<'de, T: Deserialize<'de>>(item: &'de Item) -> Result<T, DecodeError> {
    T::deserialize(de::borrowed::Item(item))
}

/// Decodes one owned attribute value (`serde_dynamo::from_attribute_value`).
///
/// See [the module's example](crate::codec#example).
pub fn from_attribute_value<T: DeserializeOwned>(
    mut value: AttributeValue,
) -> Result<T, DecodeError> {
    // What is not taken is dropped here, in one sweep.
    T::deserialize(de::Value(&mut value))
}

/// Decodes one borrowed attribute value.
///
/// See [the module's example](crate::codec#example).
pub fn from_attribute_value_ref<'de, T: Deserialize<'de>>(
    value: &'de AttributeValue,
) -> Result<T, DecodeError> {
    T::deserialize(de::Value(value))
}

/// Decodes an item written in DynamoDB's JSON wire format
/// (`{"name": {"S": "Ada"}, "age": {"N": "36"}}`, as in a response body or
/// an export file) by exactly the rules of [`from_item`]: the same value,
/// the same errors as decoding the `AttributeValue` item the SDK would
/// parse from the same text. Strings without escapes are borrowed from
/// `json` (`&str` and `Cow<str>` fields borrow, zero-copy); binaries are
/// base64 decoded as the SDK decodes them. Text that is not such an item
/// is an error too.
///
/// ```
/// use ddb_entity::codec;
/// use serde::Deserialize;
///
/// #[derive(Deserialize, Debug, PartialEq)]
/// struct User<'a> { name: &'a str, age: u8, tags: Vec<String> }
///
/// let json = r#"{"name": {"S": "Ada"}, "age": {"N": "36"}, "tags": {"SS": ["x", "y"]}}"#;
/// let user: User = codec::from_json_item(json)?;
/// assert_eq!(user, User { name: "Ada", age: 36, tags: vec!["x".into(), "y".into()] });
///
/// let err = codec::from_json_item::<User>(r#"{"name": {"N": "1"}, "age": {"N": "36"}, "tags": {"SS": []}}"#)
///     .unwrap_err();
/// assert_eq!(err.to_string(), "name: expected a string, found a number");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn from_json_item<'de, T: Deserialize<'de>>(json: &'de str) -> Result<T, DecodeError> {
    let entries = de::wire::parse_item(json)?;
    T::deserialize(de::Value(&mut de::wire::Wire::M(entries)))
}

/// Encodes a value as an item, exactly as `serde_dynamo::to_item` does:
/// it must serialise as a map, and a `None` field is a `NULL` attribute.
/// ([`Entity::to_item`](crate::entity::Entity::to_item) leaves `None` out instead.)
///
/// See [the module's example](crate::codec#example).
pub fn to_item<T: ?Sized + Serialize>(value: &T) -> Result<Item, EncodeError> {
    ser::ItemSer {
        reserve: 0,
        drop_nulls: false,
    }
    .encode(value)
}

/// Encodes one value (`serde_dynamo::to_attribute_value`).
///
/// See [the module's example](crate::codec#example).
pub fn to_attribute_value<T: ?Sized + Serialize>(value: &T) -> Result<AttributeValue, EncodeError> {
    value.serialize(ser::ValueSer)
}

/// Decodes an entity's body: `item`'s attributes and then `extra`'s (the
/// key fields read back from its key, none named in `item`), as one map.
pub(crate) fn decode_body<T: DeserializeOwned>(
    item: &mut Item,
    extra: &mut Vec<(&'static str, KeyFieldValue)>,
) -> Result<T, DecodeError> {
    T::deserialize(de::Body { item, extra })
}

/// Decodes an entity's body from its tree (an item of a response body):
/// its attributes, then `extra`'s (the key fields read back from its key,
/// none named in the tree), as one map — the rules of [`decode_body`].
pub(crate) fn decode_wire_body<T: DeserializeOwned>(
    mut entries: wire::Entries<'_>,
    extra: &mut Vec<(&'static str, KeyFieldValue)>,
) -> Result<T, DecodeError> {
    T::deserialize(de::WireBody {
        entries: &mut entries,
        extra,
    })
}

/// Encodes an entity's body: top-level `None`s (`NULL`s) left out, and the
/// map sized for `reserve` more attributes (the keys and type the caller
/// adds).
pub(crate) fn encode_entity<T: ?Sized + Serialize>(
    value: &T,
    reserve: usize,
) -> Result<Item, EncodeError> {
    ser::ItemSer {
        reserve,
        drop_nulls: true,
    }
    .encode(value)
}
