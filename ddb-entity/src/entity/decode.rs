//! An item's body into an entity, naming the field that fails.
//!
//! serde_dynamo decodes the values, but its errors name neither the field
//! nor what was found ("Expected num"). So the top level of the item — one
//! attribute per entity field — is walked here, handing each value to
//! serde_dynamo and keeping the attribute's name and type for the message:
//! "`total_cents`: expected a number, found a string". A decoder that
//! tracks its own path replaces this module whole; [`BodyError`] is the
//! shape the codec expects of it.

use std::collections::hash_map;
use std::fmt;

use aws_sdk_dynamodb::types::AttributeValue;
use serde::de::{self, DeserializeOwned, DeserializeSeed, MapAccess, Visitor};

use crate::error::Cause;
use crate::item::Item;

/// Why a body could not be decoded: the field (top-level attribute) that
/// failed, when known, and what was wrong with it.
pub(crate) struct BodyError {
    pub(crate) field: Option<String>,
    pub(crate) source: Cause,
}

/// Decodes the body `item` (key and type attributes already taken out).
pub(crate) fn decode_body<E: DeserializeOwned>(item: Item) -> Result<E, BodyError> {
    E::deserialize(Body(item)).map_err(|err| BodyError {
        field: err.field,
        source: Box::new(Detail(err.message)),
    })
}

/// What was wrong, without the field (the error names it).
#[derive(Debug)]
struct Detail(String);

impl fmt::Display for Detail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Detail {}

/// The decoding error: serde's, with the field it is about.
#[derive(Debug)]
struct DecodeError {
    field: Option<String>,
    message: String,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.field {
            Some(field) => write!(f, "`{field}`: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for DecodeError {}

impl de::Error for DecodeError {
    fn custom<T: fmt::Display>(message: T) -> Self {
        DecodeError {
            field: None,
            message: message.to_string(),
        }
    }

    fn missing_field(field: &'static str) -> Self {
        DecodeError {
            field: Some(field.to_owned()),
            message: format!("the item has no `{field}` attribute"),
        }
    }
}

impl DecodeError {
    /// serde_dynamo's error for the value of attribute `field`, which was
    /// `found`.
    fn at(field: String, found: Found, err: serde_dynamo::Error) -> Self {
        let text = err.to_string();
        let expected = match text.as_str() {
            "Expected string" => Some("a string"),
            "Expected num" => Some("a number"),
            "Expected bool" => Some("a boolean"),
            "Expected map" => Some("a map"),
            "Expected seq" => Some("a list"),
            "Expected char" => Some("a one-character string"),
            "Expected unit" | "Expected unit struct" => Some("null"),
            "Expected enum" => Some("an enum (a string, or a map of one entry)"),
            "Expected binary data" => Some("binary data"),
            _ => None,
        };
        // A mismatch inside a map or list is about a value deeper down,
        // not the container itself.
        let message = match (expected, found.container) {
            (Some(expected), false) => format!("expected {expected}, found {}", found.kind),
            (Some(expected), true) => format!("expected {expected} inside it ({})", found.kind),
            (None, _) => text,
        };
        DecodeError {
            field: Some(field),
            message,
        }
    }
}

/// What kind of value an attribute held.
#[derive(Clone, Copy)]
struct Found {
    kind: &'static str,
    /// A map or a list: a failure may be about a value inside it.
    container: bool,
}

/// What an attribute value is, in words.
fn kind(value: &AttributeValue) -> &'static str {
    match value {
        AttributeValue::S(_) => "a string",
        AttributeValue::N(_) => "a number",
        AttributeValue::Bool(_) => "a boolean",
        AttributeValue::Null(_) => "null",
        AttributeValue::M(_) => "a map",
        AttributeValue::L(_) => "a list",
        AttributeValue::B(_) => "binary data",
        AttributeValue::Ss(_) => "a string set",
        AttributeValue::Ns(_) => "a number set",
        AttributeValue::Bs(_) => "a binary set",
        _ => "an unknown kind of value",
    }
}

/// The top level of an item: a map of attributes.
struct Body(Item);

impl Body {
    /// serde_dynamo's deserializer of the whole item, for shapes other
    /// than a struct or a map (an enum entity, …).
    fn whole(self) -> serde_dynamo::Deserializer {
        serde_dynamo::Deserializer::from_attribute_value(AttributeValue::M(self.0).into())
    }
}

fn whole_item(err: serde_dynamo::Error) -> DecodeError {
    DecodeError {
        field: None,
        message: err.to_string(),
    }
}

/// Forwards the other `deserialize_*` methods to serde_dynamo's decoder of
/// the whole item.
macro_rules! forward_to_whole_item {
    ($($method:ident($($arg:ident: $ty:ty),*)),* $(,)?) => {$(
        fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, DecodeError> {
            de::Deserializer::$method(self.whole(), $($arg,)* visitor).map_err(whole_item)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for Body {
    type Error = DecodeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        self.deserialize_map(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        visitor.visit_map(Attributes {
            attributes: self.0.into_iter(),
            value: None,
        })
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        self.deserialize_map(visitor)
    }

    forward_to_whole_item! {
        deserialize_bool(), deserialize_i8(), deserialize_i16(), deserialize_i32(),
        deserialize_i64(), deserialize_u8(), deserialize_u16(), deserialize_u32(),
        deserialize_u64(), deserialize_f32(), deserialize_f64(), deserialize_char(),
        deserialize_str(), deserialize_string(), deserialize_bytes(), deserialize_byte_buf(),
        deserialize_option(), deserialize_unit(), deserialize_seq(), deserialize_identifier(),
        deserialize_ignored_any(),
        deserialize_unit_struct(name: &'static str),
        deserialize_newtype_struct(name: &'static str),
        deserialize_tuple(len: usize),
        deserialize_tuple_struct(name: &'static str, len: usize),
        deserialize_enum(name: &'static str, variants: &'static [&'static str]),
    }
}

/// The attributes, one entry per field, each value decoded by serde_dynamo
/// and its failure named.
struct Attributes {
    attributes: hash_map::IntoIter<String, AttributeValue>,
    value: Option<(String, AttributeValue)>,
}

impl<'de> MapAccess<'de> for Attributes {
    type Error = DecodeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DecodeError> {
        let Some((name, value)) = self.attributes.next() else {
            return Ok(None);
        };
        let key = seed.deserialize(de::value::StrDeserializer::<DecodeError>::new(&name))?;
        self.value = Some((name, value));
        Ok(Some(key))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, DecodeError> {
        let Some((name, value)) = self.value.take() else {
            return Err(de::Error::custom("a value was asked for before its key"));
        };
        // Read before serde_dynamo takes the value, for the message.
        let found = Found {
            kind: kind(&value),
            container: matches!(value, AttributeValue::M(_) | AttributeValue::L(_)),
        };
        seed.deserialize(serde_dynamo::Deserializer::from_attribute_value(
            value.into(),
        ))
        .map_err(|err| DecodeError::at(name, found, err))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.attributes.len())
    }
}
