//! Decoding a borrowed item: strings, binaries and map keys are offered for
//! the item's lifetime (`visit_borrowed_str`), so a `&str` or `Cow<str>`
//! field borrows and a `String` field copies once. Nothing is rebuilt or
//! re-hashed. Same mapping as the owned decoder (see the parent module).

use std::collections::{HashMap, hash_map};

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use serde::de::value::{BorrowedBytesDeserializer, BorrowedStrDeserializer};
use serde::de::{self, DeserializeSeed, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor};

use super::{KeyDe, KeyText, NumberDe, Result, check_ignored, parse, visit_number};
use crate::codec::error::DecodeError;

/// A deserializer that reads one borrowed attribute value.
pub(crate) struct Value<'de>(pub(crate) &'de AttributeValue);

macro_rules! number_methods {
    ($($method:ident => $visit:ident: $ty:ty, $name:literal;)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            match self.0 {
                AttributeValue::N(text) => visitor.$visit(parse::<$ty>(text, $name)?),
                other => Err(DecodeError::expected("a number", other)),
            }
        }
    )*};
}

impl<'de> de::Deserializer<'de> for Value<'de> {
    type Error = DecodeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            AttributeValue::N(text) => visit_number(text, visitor),
            AttributeValue::S(s) => visitor.visit_borrowed_str(s),
            AttributeValue::Bool(b) => visitor.visit_bool(*b),
            AttributeValue::B(b) => visitor.visit_borrowed_bytes(b.as_ref()),
            AttributeValue::Null(true) => visitor.visit_unit(),
            AttributeValue::M(map) => visit_map(map, visitor),
            value @ (AttributeValue::L(_)
            | AttributeValue::Ss(_)
            | AttributeValue::Ns(_)
            | AttributeValue::Bs(_)) => visit_seq(value, visitor),
            other => Err(DecodeError::expected("a DynamoDB value", other)),
        }
    }

    number_methods! {
        deserialize_i8 => visit_i8: i8, "an i8";
        deserialize_i16 => visit_i16: i16, "an i16";
        deserialize_i32 => visit_i32: i32, "an i32";
        deserialize_i64 => visit_i64: i64, "an i64";
        deserialize_u8 => visit_u8: u8, "a u8";
        deserialize_u16 => visit_u16: u16, "a u16";
        deserialize_u32 => visit_u32: u32, "a u32";
        deserialize_u64 => visit_u64: u64, "a u64";
        deserialize_f32 => visit_f32: f32, "an f32";
        deserialize_f64 => visit_f64: f64, "an f64";
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            AttributeValue::Bool(b) => visitor.visit_bool(*b),
            other => Err(DecodeError::expected("a boolean", other)),
        }
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if let AttributeValue::S(s) = self.0 {
            let mut chars = s.chars();
            if let (Some(c), None) = (chars.next(), chars.next()) {
                return visitor.visit_char(c);
            }
        }
        Err(DecodeError::expected("a one-character string", self.0))
    }

    #[inline]
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_string(visitor)
    }

    #[inline]
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            AttributeValue::S(s) => visitor.visit_borrowed_str(s),
            other => Err(DecodeError::expected("a string", other)),
        }
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            AttributeValue::B(b) => visitor.visit_borrowed_bytes(b.as_ref()),
            other => Err(DecodeError::expected("a binary", other)),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_bytes(visitor)
    }

    #[inline]
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            AttributeValue::Null(true) => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            AttributeValue::Null(true) => visitor.visit_unit(),
            other => Err(DecodeError::expected("a null", other)),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visit_seq(self.0, visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        visit_seq(self.0, visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        visit_seq(self.0, visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            AttributeValue::M(map) => visit_map(map, visitor),
            other => Err(DecodeError::expected("a map", other)),
        }
    }

    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.0 {
            AttributeValue::M(map) => visit_map(map, visitor),
            // serde_dynamo reads a struct from a list positionally.
            list @ AttributeValue::L(_) => visit_seq(list, visitor),
            other => Err(DecodeError::expected("a map", other)),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.0 {
            AttributeValue::S(variant) => {
                visitor.visit_enum(BorrowedStrDeserializer::<DecodeError>::new(variant))
            }
            AttributeValue::M(map) => visitor.visit_enum(Enum(map)),
            other => Err(DecodeError::expected(
                "an enum (a string, or a map with one key)",
                other,
            )),
        }
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_string(visitor)
    }

    #[inline]
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        check_ignored(self.0)?;
        visitor.visit_unit()
    }
}

fn visit_seq<'de, V: Visitor<'de>>(value: &'de AttributeValue, visitor: V) -> Result<V::Value> {
    match value {
        AttributeValue::L(list) => visitor.visit_seq(List {
            iter: list.iter(),
            index: 0,
        }),
        AttributeValue::Ss(set) => visitor.visit_seq(StringSet {
            iter: set.iter(),
            index: 0,
        }),
        AttributeValue::Ns(set) => visitor.visit_seq(NumberSet {
            iter: set.iter(),
            index: 0,
        }),
        AttributeValue::Bs(set) => visitor.visit_seq(BinarySet {
            iter: set.iter(),
            index: 0,
        }),
        other => Err(DecodeError::expected("a list or a set", other)),
    }
}

#[inline]
fn visit_map<'de, V: Visitor<'de>>(
    map: &'de HashMap<String, AttributeValue>,
    visitor: V,
) -> Result<V::Value> {
    visitor.visit_map(Map {
        iter: map.iter(),
        entry: None,
    })
}

/// The attributes of an `M` (or of the item), in the map's own order.
struct Map<'de> {
    iter: hash_map::Iter<'de, String, AttributeValue>,
    entry: Option<(&'de String, &'de AttributeValue)>,
}

impl<'de> MapAccess<'de> for Map<'de> {
    type Error = DecodeError;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let Some((key, value)) = self.iter.next() else {
            return Ok(None);
        };
        self.entry = Some((key, value));
        match seed.deserialize(KeyDe(Borrowed(key))) {
            Ok(key) => Ok(Some(key)),
            Err(err) => Err(err.at_key(key)),
        }
    }

    #[inline]
    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value> {
        let Some((key, value)) = self.entry.take() else {
            return Err(DecodeError::text("a map value was read before its key"));
        };
        seed.deserialize(Value(value))
            .map_err(|err| err.at_key(key))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
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

/// The elements of an `L`.
struct List<'de> {
    iter: std::slice::Iter<'de, AttributeValue>,
    index: usize,
}

impl<'de> SeqAccess<'de> for List<'de> {
    type Error = DecodeError;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let Some(value) = self.iter.next() else {
            return Ok(None);
        };
        let index = self.index;
        self.index += 1;
        match seed.deserialize(Value(value)) {
            Ok(element) => Ok(Some(element)),
            Err(err) => Err(err.at_index(index)),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// The elements of an `SS`: each read as serde reads a lone string.
struct StringSet<'de> {
    iter: std::slice::Iter<'de, String>,
    index: usize,
}

impl<'de> SeqAccess<'de> for StringSet<'de> {
    type Error = DecodeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let Some(value) = self.iter.next() else {
            return Ok(None);
        };
        let index = self.index;
        self.index += 1;
        seed.deserialize(BorrowedStrDeserializer::<DecodeError>::new(value))
            .map(Some)
            .map_err(|err| err.at_index(index))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// The elements of an `NS`.
struct NumberSet<'de> {
    iter: std::slice::Iter<'de, String>,
    index: usize,
}

impl<'de> SeqAccess<'de> for NumberSet<'de> {
    type Error = DecodeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let Some(value) = self.iter.next() else {
            return Ok(None);
        };
        let index = self.index;
        self.index += 1;
        seed.deserialize(NumberDe(value))
            .map(Some)
            .map_err(|err| err.at_index(index))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// The elements of a `BS`: whatever is asked, each offers its bytes.
struct BinarySet<'de> {
    iter: std::slice::Iter<'de, Blob>,
    index: usize,
}

impl<'de> SeqAccess<'de> for BinarySet<'de> {
    type Error = DecodeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let Some(value) = self.iter.next() else {
            return Ok(None);
        };
        let index = self.index;
        self.index += 1;
        seed.deserialize(BorrowedBytesDeserializer::<DecodeError>::new(
            value.as_ref(),
        ))
        .map(Some)
        .map_err(|err| err.at_index(index))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// An enum written as `{variant: content}`.
struct Enum<'de>(&'de HashMap<String, AttributeValue>);

impl<'de> EnumAccess<'de> for Enum<'de> {
    type Error = DecodeError;
    type Variant = Variant<'de>;

    fn variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<(T::Value, Variant<'de>)> {
        let mut entries = self.0.iter();
        let (Some((name, content)), None) = (entries.next(), entries.next()) else {
            return Err(DecodeError::text(format!(
                "expected an enum written as a map with one key (the variant), found a map with {} keys",
                self.0.len()
            )));
        };
        match seed.deserialize(BorrowedStrDeserializer::<DecodeError>::new(name)) {
            Ok(variant) => Ok((variant, Variant { name, content })),
            Err(err) => Err(err.at_key(name)),
        }
    }
}

struct Variant<'de> {
    name: &'de str,
    content: &'de AttributeValue,
}

impl<'de> VariantAccess<'de> for Variant<'de> {
    type Error = DecodeError;

    fn unit_variant(self) -> Result<()> {
        // serde_dynamo does not look at a unit variant's content.
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(Value(self.content))
            .map_err(|err| err.at_key(self.name))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        visit_seq(self.content, visitor).map_err(|err| err.at_key(self.name))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        // Unlike a struct, a struct variant reads only from a map.
        match self.content {
            AttributeValue::M(map) => visit_map(map, visitor),
            other => Err(DecodeError::expected("a map", other)),
        }
        .map_err(|err| err.at_key(self.name))
    }
}

/// A borrowed item read as a whole: what [`Value`] does with an `M`
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
        visit_map(self.0, visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visit_map(self.0, visitor)
    }

    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        visit_map(self.0, visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_enum(Enum(self.0))
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
