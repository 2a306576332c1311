//! Encoding: serde's `Serializer` into `AttributeValue`s, straight into the
//! SDK's types (no intermediate tree), maps and lists sized from serde's
//! length hints.
//!
//! The mapping is serde_dynamo 4's, rule for rule, so that what we write
//! reads back with serde_dynamo and compares equal to what it writes:
//!
//! - integers and floats are `N`, in Rust's `Display` text (`1e300` is
//!   written out in full, NaN as `NaN` — refused later by the number
//!   check, not here); 128-bit integers are refused;
//! - strings and `char`s are `S`, `bool` is `BOOL`, bytes (`serde_bytes`)
//!   are `B`;
//! - `None`, `()` and unit structs are `NULL`; `Some(x)` and newtypes are
//!   `x`;
//! - sequences, tuples and tuple structs are `L`; maps and structs are
//!   `M`; a map key must be a string, an integer, a bool, a char or a unit
//!   variant;
//! - enums are externally tagged: a unit variant is its name as `S`, any
//!   other is `{name: content}`;
//! - a newtype named as serde_dynamo's `string_set`, `number_set` or
//!   `binary_set` marker turns its list into `SS`, `NS` or `BS`.
//!
//! Where serde_dynamo panics (a map key that is a sequence, a map or
//! bytes) this returns an error.

mod item;
mod key;

use std::collections::HashMap;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use serde::Serialize;
use serde::ser::{self, Impossible};

use super::error::EncodeError;
use key::KeySer;

pub(crate) use item::ItemSer;

type Result<T, E = EncodeError> = std::result::Result<T, E>;

pub(crate) use crate::item::{BINARY_SET, NUMBER_SET, STRING_SET};

/// Serializes one value into an [`AttributeValue`].
#[derive(Clone, Copy)]
pub(crate) struct ValueSer;

impl ser::Serializer for ValueSer {
    type Ok = AttributeValue;
    type Error = EncodeError;
    type SerializeSeq = Seq;
    type SerializeTuple = Seq;
    type SerializeTupleStruct = Seq;
    type SerializeTupleVariant = TupleVariant;
    type SerializeMap = Map;
    type SerializeStruct = Struct;
    type SerializeStructVariant = StructVariant;

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<AttributeValue> {
        Ok(AttributeValue::Bool(v))
    }

    #[inline]
    fn serialize_i8(self, v: i8) -> Result<AttributeValue> {
        Ok(AttributeValue::N(v.to_string()))
    }

    #[inline]
    fn serialize_i16(self, v: i16) -> Result<AttributeValue> {
        Ok(AttributeValue::N(v.to_string()))
    }

    #[inline]
    fn serialize_i32(self, v: i32) -> Result<AttributeValue> {
        Ok(AttributeValue::N(v.to_string()))
    }

    #[inline]
    fn serialize_i64(self, v: i64) -> Result<AttributeValue> {
        Ok(AttributeValue::N(v.to_string()))
    }

    #[inline]
    fn serialize_u8(self, v: u8) -> Result<AttributeValue> {
        Ok(AttributeValue::N(v.to_string()))
    }

    #[inline]
    fn serialize_u16(self, v: u16) -> Result<AttributeValue> {
        Ok(AttributeValue::N(v.to_string()))
    }

    #[inline]
    fn serialize_u32(self, v: u32) -> Result<AttributeValue> {
        Ok(AttributeValue::N(v.to_string()))
    }

    #[inline]
    fn serialize_u64(self, v: u64) -> Result<AttributeValue> {
        Ok(AttributeValue::N(v.to_string()))
    }

    fn serialize_f32(self, v: f32) -> Result<AttributeValue> {
        Ok(AttributeValue::N(v.to_string()))
    }

    fn serialize_f64(self, v: f64) -> Result<AttributeValue> {
        Ok(AttributeValue::N(v.to_string()))
    }

    fn serialize_char(self, v: char) -> Result<AttributeValue> {
        Ok(AttributeValue::S(v.to_string()))
    }

    #[inline]
    fn serialize_str(self, v: &str) -> Result<AttributeValue> {
        Ok(AttributeValue::S(v.to_owned()))
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<AttributeValue> {
        Ok(AttributeValue::B(Blob::new(v)))
    }

    #[inline]
    fn serialize_none(self) -> Result<AttributeValue> {
        Ok(AttributeValue::Null(true))
    }

    #[inline]
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<AttributeValue> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<AttributeValue> {
        Ok(AttributeValue::Null(true))
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<AttributeValue> {
        Ok(AttributeValue::Null(true))
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<AttributeValue> {
        Ok(AttributeValue::S(variant.to_owned()))
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<AttributeValue> {
        let value = value.serialize(self)?;
        match name {
            STRING_SET => to_set(value, "a string set", |v| match v {
                AttributeValue::S(s) => Ok(s),
                other => Err(other),
            })
            .map(AttributeValue::Ss),
            NUMBER_SET => to_set(value, "a number set", |v| match v {
                AttributeValue::N(n) => Ok(n),
                other => Err(other),
            })
            .map(AttributeValue::Ns),
            BINARY_SET => to_set(value, "a binary set", |v| match v {
                AttributeValue::B(b) => Ok(b),
                other => Err(other),
            })
            .map(AttributeValue::Bs),
            _ => Ok(value),
        }
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<AttributeValue> {
        let content = value.serialize(self).map_err(|e| e.at_key(variant))?;
        Ok(tagged(variant, content))
    }

    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<Seq> {
        Ok(Seq(Vec::with_capacity(len.unwrap_or(0))))
    }

    fn serialize_tuple(self, len: usize) -> Result<Seq> {
        Ok(Seq(Vec::with_capacity(len)))
    }

    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Seq> {
        Ok(Seq(Vec::with_capacity(len)))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<TupleVariant> {
        Ok(TupleVariant {
            variant,
            seq: Seq(Vec::with_capacity(len)),
        })
    }

    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<Map> {
        Ok(Map::with_capacity(len.unwrap_or(0)))
    }

    #[inline]
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Struct> {
        Ok(Struct(HashMap::with_capacity(len)))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<StructVariant> {
        Ok(StructVariant {
            variant,
            fields: Struct(HashMap::with_capacity(len)),
        })
    }
}

/// `{variant: content}`, an externally tagged enum value.
fn tagged(variant: &'static str, content: AttributeValue) -> AttributeValue {
    let mut map = HashMap::with_capacity(1);
    map.insert(variant.to_owned(), content);
    AttributeValue::M(map)
}

/// A set codec's list turned into the set: every element must be of the
/// set's type.
fn to_set<T>(
    value: AttributeValue,
    set: &'static str,
    element: impl Fn(AttributeValue) -> Result<T, AttributeValue>,
) -> Result<Vec<T>> {
    let AttributeValue::L(list) = value else {
        return Err(EncodeError::text(format!(
            "{set} must be serialised from a sequence (serde_dynamo's set codecs); it is not one"
        )));
    };
    list.into_iter()
        .enumerate()
        .map(|(i, v)| {
            element(v).map_err(|other| {
                EncodeError::text(format!(
                    "an element of {set} must be of the set's type, found {}",
                    super::error::describe(&other)
                ))
                .at_index(i)
            })
        })
        .collect()
}

/// A list being built.
pub(crate) struct Seq(Vec<AttributeValue>);

impl Seq {
    #[inline]
    fn push<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        let index = self.0.len();
        let value = value.serialize(ValueSer).map_err(|e| e.at_index(index))?;
        self.0.push(value);
        Ok(())
    }
}

impl ser::SerializeSeq for Seq {
    type Ok = AttributeValue;
    type Error = EncodeError;

    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }

    fn end(self) -> Result<AttributeValue> {
        Ok(AttributeValue::L(self.0))
    }
}

impl ser::SerializeTuple for Seq {
    type Ok = AttributeValue;
    type Error = EncodeError;

    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }

    fn end(self) -> Result<AttributeValue> {
        Ok(AttributeValue::L(self.0))
    }
}

impl ser::SerializeTupleStruct for Seq {
    type Ok = AttributeValue;
    type Error = EncodeError;

    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.push(value)
    }

    fn end(self) -> Result<AttributeValue> {
        Ok(AttributeValue::L(self.0))
    }
}

/// A tuple variant being built: `{variant: [..]}`.
pub(crate) struct TupleVariant {
    variant: &'static str,
    seq: Seq,
}

impl ser::SerializeTupleVariant for TupleVariant {
    type Ok = AttributeValue;
    type Error = EncodeError;

    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.seq.push(value).map_err(|e| e.at_key(self.variant))
    }

    fn end(self) -> Result<AttributeValue> {
        Ok(tagged(self.variant, AttributeValue::L(self.seq.0)))
    }
}

/// A map being built (also a struct with `flatten`, which serde writes as a
/// map).
pub(crate) struct Map {
    map: HashMap<String, AttributeValue>,
    key: Option<String>,
}

impl Map {
    fn with_capacity(capacity: usize) -> Self {
        Self {
            map: HashMap::with_capacity(capacity),
            key: None,
        }
    }

    fn key<K: ?Sized + Serialize>(&mut self, key: &K) -> Result<()> {
        if self.key.is_some() {
            return Err(EncodeError::text(
                "a map key was serialised twice without a value",
            ));
        }
        self.key = Some(key.serialize(KeySer)?);
        Ok(())
    }

    fn value<V: ?Sized + Serialize>(&mut self, value: &V) -> Result<()> {
        let Some(key) = self.key.take() else {
            return Err(EncodeError::text(
                "a map value was serialised before its key",
            ));
        };
        self.insert(key, value)
    }

    #[inline]
    fn insert<V: ?Sized + Serialize>(&mut self, key: String, value: &V) -> Result<()> {
        match value.serialize(ValueSer) {
            Ok(value) => {
                self.map.insert(key, value);
                Ok(())
            }
            Err(err) => Err(err.at_key(&key)),
        }
    }

    fn entry<K: ?Sized + Serialize, V: ?Sized + Serialize>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<()> {
        let key = key.serialize(KeySer)?;
        self.insert(key, value)
    }
}

impl ser::SerializeMap for Map {
    type Ok = AttributeValue;
    type Error = EncodeError;

    fn serialize_key<K: ?Sized + Serialize>(&mut self, key: &K) -> Result<()> {
        self.key(key)
    }

    fn serialize_value<V: ?Sized + Serialize>(&mut self, value: &V) -> Result<()> {
        self.value(value)
    }

    fn serialize_entry<K: ?Sized + Serialize, V: ?Sized + Serialize>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<()> {
        self.entry(key, value)
    }

    fn end(self) -> Result<AttributeValue> {
        Ok(AttributeValue::M(self.map))
    }
}

/// A struct being built: a map from its field names.
pub(crate) struct Struct(HashMap<String, AttributeValue>);

impl Struct {
    #[inline]
    fn field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<()> {
        let value = value.serialize(ValueSer).map_err(|e| e.at_key(key))?;
        self.0.insert(key.to_owned(), value);
        Ok(())
    }
}

impl ser::SerializeStruct for Struct {
    type Ok = AttributeValue;
    type Error = EncodeError;

    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.field(key, value)
    }

    fn end(self) -> Result<AttributeValue> {
        Ok(AttributeValue::M(self.0))
    }
}

/// A struct variant being built: `{variant: {..}}`.
pub(crate) struct StructVariant {
    variant: &'static str,
    fields: Struct,
}

impl ser::SerializeStructVariant for StructVariant {
    type Ok = AttributeValue;
    type Error = EncodeError;

    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.fields
            .field(key, value)
            .map_err(|e| e.at_key(self.variant))
    }

    fn end(self) -> Result<AttributeValue> {
        Ok(tagged(self.variant, AttributeValue::M(self.fields.0)))
    }
}

/// The compound type of a serializer that refuses every compound value.
type Refused<T> = Impossible<T, EncodeError>;
