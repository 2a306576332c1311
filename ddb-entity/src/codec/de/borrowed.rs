//! A borrowed value as a [`Source`]: strings, binaries and map keys are
//! lent for the item's lifetime (`visit_borrowed_str`), so a `&str` or
//! `Cow<str>` field borrows and a `String` field copies once. Nothing is
//! rebuilt or re-hashed.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use serde::de::value::{BorrowedBytesDeserializer, BorrowedStrDeserializer};
use serde::de::{self, Visitor};

use super::value::{Enum, visit_map};
use super::{KeyText, Result, Shape, Source, check_ignored, numbers_of, shape_of};
use crate::codec::error::DecodeError;

impl<'de> Source<'de> for &'de AttributeValue {
    #[inline]
    fn shape(&self) -> Shape<'_> {
        shape_of(self)
    }

    #[inline]
    fn numbers(&self) -> Option<impl ExactSizeIterator<Item = &str>> {
        numbers_of(self).map(|set| set.map(String::as_str))
    }

    fn check_ignored(&self) -> Result<()> {
        check_ignored(self)
    }

    #[inline]
    fn string(self) -> Result<impl de::Deserializer<'de, Error = DecodeError>, Self> {
        match self {
            AttributeValue::S(s) => Ok(BorrowedStrDeserializer::<DecodeError>::new(s)),
            other => Err(other),
        }
    }

    #[inline]
    fn blob(self) -> Result<impl de::Deserializer<'de, Error = DecodeError>, Self> {
        match self {
            AttributeValue::B(b) => Ok(BorrowedBytesDeserializer::<DecodeError>::new(b.as_ref())),
            other => Err(other),
        }
    }

    #[inline]
    fn text(self) -> Result<impl KeyText<'de>, Self> {
        match self {
            AttributeValue::S(s) => Ok(Borrowed(s)),
            other => Err(other),
        }
    }

    #[inline]
    fn elements(self) -> Result<impl ExactSizeIterator<Item = Self>, Self> {
        match self {
            AttributeValue::L(list) => Ok(list.iter()),
            other => Err(other),
        }
    }

    #[inline]
    fn entries(self) -> Result<impl ExactSizeIterator<Item = (impl KeyText<'de>, Self)>, Self> {
        match self {
            AttributeValue::M(map) => Ok(entries(map)),
            other => Err(other),
        }
    }

    #[inline]
    fn strings(
        self,
    ) -> Result<impl ExactSizeIterator<Item = impl de::Deserializer<'de, Error = DecodeError>>, Self>
    {
        match self {
            AttributeValue::Ss(set) => Ok(set
                .iter()
                .map(|s| BorrowedStrDeserializer::<DecodeError>::new(s))),
            other => Err(other),
        }
    }

    #[inline]
    fn blobs(
        self,
    ) -> Result<impl ExactSizeIterator<Item = impl de::Deserializer<'de, Error = DecodeError>>, Self>
    {
        match self {
            AttributeValue::Bs(set) => Ok(set
                .iter()
                .map(|b| BorrowedBytesDeserializer::<DecodeError>::new(b.as_ref()))),
            other => Err(other),
        }
    }
}

/// A borrowed map's entries, keys lent for the item's lifetime.
#[inline]
fn entries<'de>(
    map: &'de HashMap<String, AttributeValue>,
) -> impl ExactSizeIterator<Item = (Borrowed<'de>, &'de AttributeValue)> {
    map.iter().map(|(key, value)| (Borrowed(key), value))
}

/// A key of a borrowed map, offered for the item's lifetime.
#[derive(Clone, Copy)]
struct Borrowed<'de>(&'de str);

impl<'de> KeyText<'de> for Borrowed<'de> {
    fn as_str(&self) -> &str {
        self.0
    }

    #[inline]
    fn visit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_borrowed_str(self.0)
    }

    fn visit_enum<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_enum(BorrowedStrDeserializer::<DecodeError>::new(self.0))
    }
}

/// A borrowed item read as a whole: what [`Value`](super::Value) does with an `M`
/// holding it, without the `M`.
pub(crate) struct Item<'de>(pub(crate) &'de HashMap<String, AttributeValue>);

macro_rules! not_a_map {
    ($($method:ident$(($($arg:ident: $ty:ty),*))?;)*) => {$(
        fn $method<V: Visitor<'de>>(self, $($($arg: $ty,)*)? _visitor: V) -> Result<V::Value> {
            $($(let _ = $arg;)*)?
            Err(not_a_map(stringify!($method)))
        }
    )*};
}

#[cold]
fn not_a_map(method: &str) -> DecodeError {
    let expected = match method.trim_start_matches("deserialize_") {
        "bool" => "a boolean",
        "str" | "string" | "identifier" | "char" => "a string",
        "bytes" | "byte_buf" => "a binary",
        "unit" | "unit_struct" => "a null",
        "seq" | "tuple" | "tuple_struct" => "a list or a set",
        _ => "a number",
    };
    DecodeError::expected_found(expected, "a map")
}

impl<'de> de::Deserializer<'de> for Item<'de> {
    type Error = DecodeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visit_map(entries(self.0), visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visit_map(entries(self.0), visitor)
    }

    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        visit_map(entries(self.0), visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_enum(Enum(entries(self.0)))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.0
            .iter()
            .try_for_each(|(key, value)| check_ignored(value).map_err(|e| e.at_key(key)))?;
        visitor.visit_unit()
    }

    not_a_map! {
        deserialize_bool; deserialize_i8; deserialize_i16; deserialize_i32; deserialize_i64;
        deserialize_u8; deserialize_u16; deserialize_u32; deserialize_u64;
        deserialize_f32; deserialize_f64; deserialize_char; deserialize_str; deserialize_string;
        deserialize_bytes; deserialize_byte_buf; deserialize_unit; deserialize_seq;
        deserialize_identifier;
        deserialize_unit_struct(name: &'static str);
        deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize);
    }
}
