//! A primary-key field read back from the stored key, as the body decoder
//! receives it: an integer as the integer the key reader parsed (no text
//! formatted to be parsed again), anything else as the attribute the codec
//! writes for it.
//!
//! It deserializes itself, independently of how the rest of the body is
//! held (an SDK item, a wire item): every request is answered exactly as
//! the codec answers it for the `N` the integer would be stored as — the
//! same values, the same errors — because whatever the integer cannot
//! answer directly (a value out of the asked type's range, a float, a
//! string, a sequence…) is answered by that very `N`.

use aws_sdk_dynamodb::types::AttributeValue;
use serde::de::{self, Visitor};
use serde::ser::{self, Impossible, Serialize};

use super::{Result, Value};
use crate::codec::error::DecodeError;

/// A key field's value, read back from the stored key (see the module).
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq)]
pub enum KeyFieldValue {
    /// An unsigned integer (`u8` to `u64`).
    U64(u64),
    /// A signed integer (`i8` to `i64`).
    I64(i64),
    /// Any other value, as the codec writes it.
    Attribute(AttributeValue),
}

impl KeyFieldValue {
    /// `value` as the codec would write it (an integer kept as such).
    pub(crate) fn of<T: Serialize + ?Sized>(
        value: &T,
    ) -> std::result::Result<Self, crate::codec::EncodeError> {
        match value.serialize(Integer) {
            Ok(value) => Ok(value),
            Err(NotInteger) => crate::codec::to_attribute_value(value).map(Self::Attribute),
        }
    }

    /// The attribute the codec writes for this value.
    ///
    /// ```
    /// use aws_sdk_dynamodb::types::AttributeValue;
    /// use ddb_entity::codec::KeyFieldValue;
    ///
    /// let n = KeyFieldValue::U64(42).into_attribute();
    /// assert_eq!(n, AttributeValue::N("42".into()));
    /// ```
    pub fn into_attribute(self) -> AttributeValue {
        match self {
            KeyFieldValue::U64(n) => AttributeValue::N(n.to_string()),
            KeyFieldValue::I64(n) => AttributeValue::N(n.to_string()),
            KeyFieldValue::Attribute(value) => value,
        }
    }
}

/// An integer request: visited directly when the value fits the asked
/// type (what parsing its text gives), through the text otherwise (the
/// codec's error).
macro_rules! integer_methods {
    ($($method:ident => $visit:ident: $ty:ty;)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let fits = match &self {
                KeyFieldValue::U64(n) => <$ty>::try_from(*n).ok(),
                KeyFieldValue::I64(n) => <$ty>::try_from(*n).ok(),
                KeyFieldValue::Attribute(_) => None,
            };
            match fits {
                Some(n) => visitor.$visit(n),
                None => Value(&mut self.into_attribute()).$method(visitor),
            }
        }
    )*};
}

impl<'de> de::Deserializer<'de> for KeyFieldValue {
    type Error = DecodeError;

    /// As the codec reads a number for a self-describing target: `i64`
    /// first, then `u64`.
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self {
            KeyFieldValue::U64(n) => match i64::try_from(n) {
                Ok(i) => visitor.visit_i64(i),
                Err(_) => visitor.visit_u64(n),
            },
            KeyFieldValue::I64(i) => visitor.visit_i64(i),
            KeyFieldValue::Attribute(mut value) => Value(&mut value).deserialize_any(visitor),
        }
    }

    integer_methods! {
        deserialize_i8 => visit_i8: i8;
        deserialize_i16 => visit_i16: i16;
        deserialize_i32 => visit_i32: i32;
        deserialize_i64 => visit_i64: i64;
        deserialize_u8 => visit_u8: u8;
        deserialize_u16 => visit_u16: u16;
        deserialize_u32 => visit_u32: u32;
        deserialize_u64 => visit_u64: u64;
    }

    /// A number is no `NULL`: `Some`, as the codec reads it.
    #[inline]
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self {
            KeyFieldValue::Attribute(mut value) => Value(&mut value).deserialize_option(visitor),
            integer => visitor.visit_some(integer),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    through_value! { into_attribute;
        deserialize_bool() deserialize_i128() deserialize_u128() deserialize_f32()
        deserialize_f64() deserialize_char() deserialize_str() deserialize_string()
        deserialize_bytes() deserialize_byte_buf() deserialize_unit() deserialize_seq()
        deserialize_map() deserialize_identifier() deserialize_ignored_any()
        deserialize_unit_struct(name: &'static str)
        deserialize_tuple(len: usize)
        deserialize_tuple_struct(name: &'static str, len: usize)
        deserialize_struct(name: &'static str, fields: &'static [&'static str])
        deserialize_enum(name: &'static str, variants: &'static [&'static str])
    }
}

/// Serializes a plain integer (`u8`…`u64`, `i8`…`i64`) as itself; anything
/// else is [`NotInteger`], and is written by the codec instead.
struct Integer;

/// What [`Integer`] answers to anything but a plain integer.
#[derive(Debug)]
struct NotInteger;

impl std::fmt::Display for NotInteger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not an integer")
    }
}

impl std::error::Error for NotInteger {}

impl ser::Error for NotInteger {
    fn custom<T: std::fmt::Display>(_msg: T) -> Self {
        NotInteger
    }
}

macro_rules! integers {
    ($($method:ident: $ty:ty => $variant:ident;)*) => {$(
        #[inline]
        fn $method(self, v: $ty) -> std::result::Result<KeyFieldValue, NotInteger> {
            Ok(KeyFieldValue::$variant(v.into()))
        }
    )*};
}

macro_rules! not_integers {
    ($($method:ident: $ty:ty;)*) => {$(
        fn $method(self, _: $ty) -> std::result::Result<KeyFieldValue, NotInteger> {
            Err(NotInteger)
        }
    )*};
}

impl ser::Serializer for Integer {
    type Ok = KeyFieldValue;
    type Error = NotInteger;
    type SerializeSeq = Impossible<KeyFieldValue, NotInteger>;
    type SerializeTuple = Impossible<KeyFieldValue, NotInteger>;
    type SerializeTupleStruct = Impossible<KeyFieldValue, NotInteger>;
    type SerializeTupleVariant = Impossible<KeyFieldValue, NotInteger>;
    type SerializeMap = Impossible<KeyFieldValue, NotInteger>;
    type SerializeStruct = Impossible<KeyFieldValue, NotInteger>;
    type SerializeStructVariant = Impossible<KeyFieldValue, NotInteger>;

    integers! {
        serialize_u8: u8 => U64;
        serialize_u16: u16 => U64;
        serialize_u32: u32 => U64;
        serialize_u64: u64 => U64;
        serialize_i8: i8 => I64;
        serialize_i16: i16 => I64;
        serialize_i32: i32 => I64;
        serialize_i64: i64 => I64;
    }

    not_integers! {
        serialize_bool: bool;
        serialize_i128: i128;
        serialize_u128: u128;
        serialize_f32: f32;
        serialize_f64: f64;
        serialize_char: char;
        serialize_str: &str;
        serialize_bytes: &[u8];
        serialize_unit_struct: &'static str;
    }

    fn serialize_none(self) -> std::result::Result<KeyFieldValue, NotInteger> {
        Err(NotInteger)
    }

    fn serialize_some<T: ?Sized + Serialize>(
        self,
        _: &T,
    ) -> std::result::Result<KeyFieldValue, NotInteger> {
        Err(NotInteger)
    }

    fn serialize_unit(self) -> std::result::Result<KeyFieldValue, NotInteger> {
        Err(NotInteger)
    }

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
    ) -> std::result::Result<KeyFieldValue, NotInteger> {
        Err(NotInteger)
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: &T,
    ) -> std::result::Result<KeyFieldValue, NotInteger> {
        Err(NotInteger)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> std::result::Result<KeyFieldValue, NotInteger> {
        Err(NotInteger)
    }

    fn serialize_seq(
        self,
        _: Option<usize>,
    ) -> std::result::Result<Self::SerializeSeq, NotInteger> {
        Err(NotInteger)
    }

    fn serialize_tuple(self, _: usize) -> std::result::Result<Self::SerializeTuple, NotInteger> {
        Err(NotInteger)
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> std::result::Result<Self::SerializeTupleStruct, NotInteger> {
        Err(NotInteger)
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> std::result::Result<Self::SerializeTupleVariant, NotInteger> {
        Err(NotInteger)
    }

    fn serialize_map(
        self,
        _: Option<usize>,
    ) -> std::result::Result<Self::SerializeMap, NotInteger> {
        Err(NotInteger)
    }

    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> std::result::Result<Self::SerializeStruct, NotInteger> {
        Err(NotInteger)
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> std::result::Result<Self::SerializeStructVariant, NotInteger> {
        Err(NotInteger)
    }
}
