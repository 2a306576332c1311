//! The one `Deserializer` over an attribute value, generic over how the
//! value is held ([`Source`]): every serde rule of the parent module is
//! written here once, and each `Source` only says how to hand out what a
//! rule reaches for.

use serde::de::{
    self, DeserializeSeed, Deserializer as _, EnumAccess, MapAccess, SeqAccess, VariantAccess,
    Visitor,
};
use serde::forward_to_deserialize_any;

use super::{KeyDe, KeyText, NumberDe, Result, Shape, Source, parse, visit_number};
use crate::codec::error::DecodeError;

/// A deserializer over one attribute value, held as `S` holds it.
pub(crate) struct Value<S>(pub(crate) S);

macro_rules! number_methods {
    ($($method:ident => $visit:ident: $ty:ty, $name:literal;)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            match self.0.shape() {
                Shape::N(text) => visitor.$visit(parse::<$ty>(text, $name)?),
                other => Err(other.expected("a number")),
            }
        }
    )*};
}

impl<'de, S: Source<'de>> de::Deserializer<'de> for Value<S> {
    type Error = DecodeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0.shape() {
            Shape::N(text) => visit_number(text, visitor),
            Shape::S(_) => self.deserialize_string(visitor),
            Shape::Bool(b) => visitor.visit_bool(b),
            Shape::B => self.deserialize_byte_buf(visitor),
            Shape::Null(true) => visitor.visit_unit(),
            Shape::M => self.deserialize_map(visitor),
            Shape::L | Shape::Ss | Shape::Ns | Shape::Bs => visit_seq(self.0, visitor),
            other => Err(other.expected("a DynamoDB value")),
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
        match self.0.shape() {
            Shape::Bool(b) => visitor.visit_bool(b),
            other => Err(other.expected("a boolean")),
        }
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let shape = self.0.shape();
        if let Shape::S(s) = shape {
            let mut chars = s.chars();
            if let (Some(c), None) = (chars.next(), chars.next()) {
                return visitor.visit_char(c);
            }
        }
        Err(shape.expected("a one-character string"))
    }

    #[inline]
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_string(visitor)
    }

    #[inline]
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0.string() {
            Ok(text) => text.deserialize_any(visitor),
            Err(other) => Err(other.shape().expected("a string")),
        }
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_byte_buf(visitor)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0.blob() {
            Ok(bytes) => bytes.deserialize_any(visitor),
            Err(other) => Err(other.shape().expected("a binary")),
        }
    }

    #[inline]
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0.shape() {
            Shape::Null(true) => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0.shape() {
            Shape::Null(true) => visitor.visit_unit(),
            other => Err(other.expected("a null")),
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

    #[inline]
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0.entries() {
            Ok(entries) => visit_map(entries, visitor),
            Err(other) => Err(other.shape().expected("a map")),
        }
    }

    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.0.shape() {
            // serde_dynamo reads a struct from a list positionally.
            Shape::L => visit_seq(self.0, visitor),
            _ => self.deserialize_map(visitor),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let value = match self.0.text() {
            Ok(variant) => return variant.visit_enum(visitor),
            Err(value) => value,
        };
        match value.entries() {
            Ok(entries) => visitor.visit_enum(Enum(entries)),
            Err(other) => Err(other
                .shape()
                .expected("an enum (a string, or a map with one key)")),
        }
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_string(visitor)
    }

    #[inline]
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.0.check_ignored()?;
        visitor.visit_unit()
    }
}

/// An `L`, `SS`, `NS` or `BS` as a sequence.
fn visit_seq<'de, S: Source<'de>, V: Visitor<'de>>(value: S, visitor: V) -> Result<V::Value> {
    let value = match value.elements() {
        Ok(elements) => return visitor.visit_seq(Seq::new(elements.map(Value))),
        Err(value) => value,
    };
    if let Some(set) = value.numbers() {
        // Numbers are read in place, however the value is held.
        return visitor.visit_seq(Seq::new(set.map(NumberDe)));
    }
    let value = match value.strings() {
        Ok(strings) => return visitor.visit_seq(Seq::new(strings)),
        Err(value) => value,
    };
    match value.blobs() {
        Ok(blobs) => visitor.visit_seq(Seq::new(blobs)),
        Err(other) => Err(other.shape().expected("a list or a set")),
    }
}

/// The entries of an `M` (or of an item) as a map.
#[inline]
pub(super) fn visit_map<'de, I, K, S, V>(entries: I, visitor: V) -> Result<V::Value>
where
    I: ExactSizeIterator<Item = (K, S)>,
    K: KeyText<'de>,
    S: Source<'de>,
    V: Visitor<'de>,
{
    visitor.visit_map(Map {
        iter: entries,
        entry: None,
    })
}

/// The members of a list or a set, each read by its own deserializer,
/// errors naming its position.
struct Seq<I> {
    iter: I,
    index: usize,
}

impl<I> Seq<I> {
    #[inline]
    fn new(iter: I) -> Self {
        Self { iter, index: 0 }
    }
}

impl<'de, I, D> SeqAccess<'de> for Seq<I>
where
    I: ExactSizeIterator<Item = D>,
    D: de::Deserializer<'de, Error = DecodeError>,
{
    type Error = DecodeError;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let Some(member) = self.iter.next() else {
            return Ok(None);
        };
        let index = self.index;
        self.index += 1;
        match seed.deserialize(member) {
            Ok(element) => Ok(Some(element)),
            Err(err) => Err(err.at_index(index)),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// The attributes of an `M` (or of the item), in the map's own order.
pub(super) struct Map<I, K, S> {
    pub(super) iter: I,
    pub(super) entry: Option<(K, S)>,
}

impl<'de, I, K, S> MapAccess<'de> for Map<I, K, S>
where
    I: ExactSizeIterator<Item = (K, S)>,
    K: KeyText<'de>,
    S: Source<'de>,
{
    type Error = DecodeError;

    #[inline]
    fn next_key_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let Some((key, value)) = self.iter.next() else {
            return Ok(None);
        };
        self.entry = Some((key, value));
        match seed.deserialize(KeyDe(key)) {
            Ok(key) => Ok(Some(key)),
            Err(err) => Err(err.at_key(key.as_str())),
        }
    }

    #[inline]
    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value> {
        let Some((key, value)) = self.entry.take() else {
            return Err(DecodeError::text("a map value was read before its key"));
        };
        seed.deserialize(Value(value))
            .map_err(|err| err.at_key(key.as_str()))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// An enum written as `{variant: content}`, from the map's entries.
pub(super) struct Enum<I>(pub(super) I);

impl<'de, I, K, S> EnumAccess<'de> for Enum<I>
where
    I: ExactSizeIterator<Item = (K, S)>,
    K: KeyText<'de>,
    S: Source<'de>,
{
    type Error = DecodeError;
    type Variant = Variant<K, S>;

    fn variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<(T::Value, Variant<K, S>)> {
        let mut entries = self.0;
        let len = entries.len();
        let (Some((name, content)), None) = (entries.next(), entries.next()) else {
            return Err(DecodeError::text(format!(
                "expected an enum written as a map with one key (the variant), found a map with {len} keys"
            )));
        };
        match seed.deserialize(VariantName(name)) {
            Ok(variant) => Ok((variant, Variant { name, content })),
            Err(err) => Err(err.at_key(name.as_str())),
        }
    }
}

/// A variant's name, read as serde reads a lone string (every request
/// offered the string; an enum offered it as a unit variant).
struct VariantName<K>(K);

impl<'de, K: KeyText<'de>> de::Deserializer<'de> for VariantName<K> {
    type Error = DecodeError;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.0.visit(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.0.visit_enum(visitor)
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}

/// A variant's content; errors in it name the variant.
pub(super) struct Variant<K, S> {
    name: K,
    content: S,
}

impl<'de, K: KeyText<'de>, S: Source<'de>> VariantAccess<'de> for Variant<K, S> {
    type Error = DecodeError;

    fn unit_variant(self) -> Result<()> {
        // serde_dynamo does not look at a unit variant's content.
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(Value(self.content))
            .map_err(|err| err.at_key(self.name.as_str()))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        visit_seq(self.content, visitor).map_err(|err| err.at_key(self.name.as_str()))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        // Unlike a struct, a struct variant reads only from a map.
        Value(self.content)
            .deserialize_map(visitor)
            .map_err(|err| err.at_key(self.name.as_str()))
    }
}
