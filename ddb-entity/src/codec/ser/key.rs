//! Map keys: DynamoDB attribute names are strings.

use serde::Serialize;
use serde::ser;

use super::{Refused, Result};
use crate::codec::error::EncodeError;

/// Serializes a map key into the attribute name: strings, chars, integers
/// (as their decimal text, 128-bit ones included), bools (`true`/`false`)
/// and unit variants (their name), through newtypes. serde_dynamo's rule.
pub(super) struct KeySer;

#[cold]
fn not_a_string(what: &str) -> EncodeError {
    EncodeError::text(format!(
        "a map key must serialise as a string (or an integer, a bool or a unit variant), not as {what}"
    ))
}

impl ser::Serializer for KeySer {
    type Ok = String;
    type Error = EncodeError;
    type SerializeSeq = Refused<String>;
    type SerializeTuple = Refused<String>;
    type SerializeTupleStruct = Refused<String>;
    type SerializeTupleVariant = Refused<String>;
    type SerializeMap = Refused<String>;
    type SerializeStruct = Refused<String>;
    type SerializeStructVariant = Refused<String>;

    fn serialize_bool(self, v: bool) -> Result<String> {
        Ok(if v { "true" } else { "false" }.to_owned())
    }

    fn serialize_i8(self, v: i8) -> Result<String> {
        Ok(v.to_string())
    }

    fn serialize_i16(self, v: i16) -> Result<String> {
        Ok(v.to_string())
    }

    fn serialize_i32(self, v: i32) -> Result<String> {
        Ok(v.to_string())
    }

    fn serialize_i64(self, v: i64) -> Result<String> {
        Ok(v.to_string())
    }

    fn serialize_i128(self, v: i128) -> Result<String> {
        Ok(v.to_string())
    }

    fn serialize_u8(self, v: u8) -> Result<String> {
        Ok(v.to_string())
    }

    fn serialize_u16(self, v: u16) -> Result<String> {
        Ok(v.to_string())
    }

    fn serialize_u32(self, v: u32) -> Result<String> {
        Ok(v.to_string())
    }

    fn serialize_u64(self, v: u64) -> Result<String> {
        Ok(v.to_string())
    }

    fn serialize_u128(self, v: u128) -> Result<String> {
        Ok(v.to_string())
    }

    fn serialize_f32(self, _v: f32) -> Result<String> {
        Err(not_a_string("a float"))
    }

    fn serialize_f64(self, _v: f64) -> Result<String> {
        Err(not_a_string("a float"))
    }

    fn serialize_char(self, v: char) -> Result<String> {
        Ok(v.to_string())
    }

    #[inline]
    fn serialize_str(self, v: &str) -> Result<String> {
        Ok(v.to_owned())
    }

    fn serialize_bytes(self, _v: &[u8]) -> Result<String> {
        Err(not_a_string("bytes"))
    }

    fn serialize_none(self) -> Result<String> {
        Err(not_a_string("an Option"))
    }

    fn serialize_some<T: ?Sized + Serialize>(self, _value: &T) -> Result<String> {
        Err(not_a_string("an Option"))
    }

    fn serialize_unit(self) -> Result<String> {
        Err(not_a_string("a unit"))
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<String> {
        Err(not_a_string("a unit struct"))
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<String> {
        Ok(variant.to_owned())
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<String> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<String> {
        Err(not_a_string("an enum variant with content"))
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(not_a_string("a sequence"))
    }

    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple> {
        Err(not_a_string("a tuple"))
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(not_a_string("a tuple struct"))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(not_a_string("an enum variant with content"))
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap> {
        Err(not_a_string("a map"))
    }

    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeStruct> {
        Err(not_a_string("a struct"))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(not_a_string("an enum variant with content"))
    }
}
