//! Decoding: serde's `Deserializer` over `AttributeValue`s, reading an owned
//! item (moving its strings and binaries into the value) or a borrowed one.
//!
//! The two differ only in how a value is held, so the deserializer is
//! written once ([`Value`], in `value`), generic over a [`Source`]: a
//! `&mut AttributeValue` (`owned`) hands out its strings and binaries by
//! taking them, a `&'de AttributeValue` (`borrowed`) by lending them for
//! the item's lifetime; map keys, numbers, booleans and the shape are read
//! in place by both. Each rule below is therefore written once, and
//! monomorphisation gives each mode code as direct as a hand-written one.
//!
//! It follows serde_dynamo 4's mapping rule for rule, quirks included, so
//! that data it wrote (and data it would refuse) reads the same:
//!
//! - `N` is parsed straight into the primitive asked for (`str::parse`, the
//!   same grammar serde_dynamo uses); a self-describing read (`flatten`,
//!   untagged enums) tries `i64`, then `u64`, then `f64`.
//! - `NULL` is `None`, `()` and unit structs; anything else is `Some`.
//! - A struct reads from `M`, or positionally from `L`; a map from `M`;
//!   sequences, tuples and tuple structs from `L`, `SS`, `NS` or `BS`.
//! - An enum reads from `S` (a unit variant) or from a one-key `M`
//!   (`{variant: content}`; a unit variant's content is not looked at).
//! - Bytes read from `B` only (`serde_bytes`); `char` from a one-character
//!   `S`; 128-bit integers are refused, as serde_dynamo refuses them.
//! - Map keys are strings, parsed when the key type is an integer or bool.
//! - An ignored attribute is still checked as serde_dynamo checks it: a
//!   number in it must parse as some number, and `NULL: false` is refused.
//!
//! Where serde_dynamo panics (an `AttributeValue` variant newer than the
//! SDK it was built against) this returns an error.

/// `Deserializer` requests answered by the codec's [`Value`] over the
/// attribute `self.$to()` makes of the deserializer: how a body (its
/// whole `M`) and a key field (its attribute) forward what they do not
/// answer themselves. Each method is listed with its arguments before
/// the visitor.
macro_rules! through_value {
    ($to:ident; $($method:ident($($arg:ident: $ty:ty),*))*) => {$(
        fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value> {
            Value(&mut self.$to()).$method($($arg,)* visitor)
        }
    )*};
}

mod body;
pub(super) mod borrowed;
mod key_field;
mod owned;
mod value;
pub(crate) mod wire;

pub(crate) use body::{Body, WireBody};
pub use key_field::KeyFieldValue;
pub(crate) use value::Value;

use std::fmt;
use std::str::FromStr;

use aws_sdk_dynamodb::types::AttributeValue;
use serde::de::{self, Deserializer, Visitor};
use serde::forward_to_deserialize_any;

use super::error::DecodeError;

type Result<T, E = DecodeError> = std::result::Result<T, E>;

/// A number's text longer than this is cut in error messages (`f64::MAX`
/// is 309 digits).
const NUMBER_TEXT_SHOWN: usize = 48;

fn shown(text: &str) -> String {
    if text.len() <= NUMBER_TEXT_SHOWN {
        return text.to_owned();
    }
    let cut = (0..=NUMBER_TEXT_SHOWN)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    format!("{}… ({} characters)", &text[..cut], text.len())
}

/// Parses an `N` into the primitive asked for, with no intermediate value.
#[inline]
fn parse<T>(text: &str, type_name: &'static str) -> Result<T>
where
    T: FromStr,
    T::Err: fmt::Display,
{
    text.parse()
        .map_err(|err| parse_error(text, type_name, err))
}

#[cold]
fn parse_error(text: &str, type_name: &'static str, err: impl fmt::Display) -> DecodeError {
    DecodeError::text(format!(
        "cannot read the number {} as {type_name}: {err}",
        shown(text)
    ))
}

/// A number read by a self-describing target: serde_dynamo's order, the
/// first parse that succeeds wins.
#[inline]
fn visit_number<'de, V: Visitor<'de>>(text: &str, visitor: V) -> Result<V::Value> {
    if let Ok(i) = text.parse::<i64>() {
        return visitor.visit_i64(i);
    }
    if let Ok(u) = text.parse::<u64>() {
        return visitor.visit_u64(u);
    }
    match text.parse::<f64>() {
        Ok(f) => visitor.visit_f64(f),
        Err(err) => Err(parse_error(text, "a number", err)),
    }
}

/// Whether serde_dynamo reads `text` as some number: every `i64` and `u64`
/// text is also an `f64` text, so the `f64` grammar decides.
#[inline]
fn is_number(text: &str) -> bool {
    (!text.is_empty() && text.len() <= 19 && text.bytes().all(|b| b.is_ascii_digit()))
        || text.parse::<f64>().is_ok()
}

/// What serde_dynamo checks of a value nobody reads (an attribute the
/// struct has no field for, a unit variant's content): it walks it as
/// `deserialize_any` would, so a malformed number or `NULL: false` anywhere
/// inside fails the read.
pub(super) fn check_ignored(value: &AttributeValue) -> Result<()> {
    match value {
        AttributeValue::S(_)
        | AttributeValue::B(_)
        | AttributeValue::Bool(_)
        | AttributeValue::Null(true)
        | AttributeValue::Ss(_)
        | AttributeValue::Bs(_) => Ok(()),
        AttributeValue::N(text) => check_number(text),
        AttributeValue::Ns(set) => check_numbers(set.iter().map(String::as_str)),
        AttributeValue::L(list) => list
            .iter()
            .enumerate()
            .try_for_each(|(i, value)| check_ignored(value).map_err(|e| e.at_index(i))),
        AttributeValue::M(map) => map
            .iter()
            .try_for_each(|(key, value)| check_ignored(value).map_err(|e| e.at_key(key))),
        other => Err(shape_of(other).expected("a DynamoDB value")),
    }
}

/// An ignored `N`, checked as serde_dynamo checks it.
#[inline]
fn check_number(text: &str) -> Result<()> {
    if is_number(text) {
        Ok(())
    } else {
        Err(parse_error(text, "a number", "not a decimal number"))
    }
}

/// An ignored `NS`, each member checked, the first bad one named.
fn check_numbers<'a>(set: impl Iterator<Item = &'a str>) -> Result<()> {
    set.enumerate()
        .try_for_each(|(i, text)| check_number(text).map_err(|e| e.at_index(i)))
}

/// What a value is, as the rules look at it: its DynamoDB type, with a
/// number's text, a string's text and a boolean read in place. The same
/// for every way a value is held (an SDK `AttributeValue`, DynamoDB's
/// JSON).
#[derive(Clone, Copy)]
pub(super) enum Shape<'a> {
    S(&'a str),
    N(&'a str),
    B,
    Bool(bool),
    Null(bool),
    M,
    L,
    Ss,
    Ns,
    Bs,
    /// A type this SDK version does not know.
    Unknown,
}

impl Shape<'_> {
    /// The type's name, for "found …".
    pub(super) fn describe(self) -> &'static str {
        match self {
            Shape::S(_) => "a string",
            Shape::N(_) => "a number",
            Shape::B => "a binary",
            Shape::Bool(_) => "a boolean",
            Shape::Null(true) => "a null",
            Shape::Null(false) => "NULL: false (which DynamoDB never stores)",
            Shape::M => "a map",
            Shape::L => "a list",
            Shape::Ss => "a string set",
            Shape::Ns => "a number set",
            Shape::Bs => "a binary set",
            Shape::Unknown => "an attribute type this SDK version does not know",
        }
    }

    /// "expected `expected`, found this".
    #[cold]
    pub(super) fn expected(self, expected: &'static str) -> DecodeError {
        DecodeError::expected_found(expected, self.describe())
    }
}

/// An SDK value's shape.
#[inline]
pub(super) fn shape_of(value: &AttributeValue) -> Shape<'_> {
    match value {
        AttributeValue::S(s) => Shape::S(s),
        AttributeValue::N(n) => Shape::N(n),
        AttributeValue::B(_) => Shape::B,
        AttributeValue::Bool(b) => Shape::Bool(*b),
        AttributeValue::Null(n) => Shape::Null(*n),
        AttributeValue::M(_) => Shape::M,
        AttributeValue::L(_) => Shape::L,
        AttributeValue::Ss(_) => Shape::Ss,
        AttributeValue::Ns(_) => Shape::Ns,
        AttributeValue::Bs(_) => Shape::Bs,
        _ => Shape::Unknown,
    }
}

/// An SDK value's `NS` members, read in place.
#[inline]
pub(super) fn numbers_of(value: &AttributeValue) -> Option<std::slice::Iter<'_, String>> {
    match value {
        AttributeValue::Ns(set) => Some(set.iter()),
        _ => None,
    }
}

/// How a decoded value is held, and so how its parts are handed out: what
/// the owned and borrowed modes do differently, and nothing else.
///
/// Each accessor returns its part when the value is of that type and gives
/// the value back otherwise, so the caller can try the next rule or name
/// what it found in the error.
pub(super) trait Source<'de>: Sized {
    /// The value's shape, to match on, read in place and name in errors.
    fn shape(&self) -> Shape<'_>;
    /// An `NS`'s members, read in place.
    fn numbers(&self) -> Option<impl ExactSizeIterator<Item = &str>>;
    /// What serde_dynamo checks of the value when nobody reads it.
    fn check_ignored(&self) -> Result<()>;
    /// An `S`'s string: taken (`visit_string`) or lent (`visit_borrowed_str`).
    fn string(self) -> Result<impl Deserializer<'de, Error = DecodeError>, Self>;
    /// A `B`'s bytes: taken (`visit_byte_buf`) or lent (`visit_borrowed_bytes`).
    fn blob(self) -> Result<impl Deserializer<'de, Error = DecodeError>, Self>;
    /// An `S`'s string lent as a map key is (for an enum's unit variant:
    /// its name is looked at, never taken).
    fn text(self) -> Result<impl KeyText<'de>, Self>;
    /// An `L`'s elements.
    fn elements(self) -> Result<impl ExactSizeIterator<Item = Self>, Self>;
    /// An `M`'s entries, each key with its value.
    fn entries(self) -> Result<impl ExactSizeIterator<Item = (impl KeyText<'de>, Self)>, Self>;
    /// An `SS`'s members, each read as serde reads a lone string.
    fn strings(
        self,
    ) -> Result<impl ExactSizeIterator<Item = impl Deserializer<'de, Error = DecodeError>>, Self>;
    /// A `BS`'s members: whatever is asked, each offers its bytes.
    fn blobs(
        self,
    ) -> Result<impl ExactSizeIterator<Item = impl Deserializer<'de, Error = DecodeError>>, Self>;
}

/// A number of a number set, read alone: numbers parse, anything else is
/// read as a number first (so an `NS` holds no `Option`s or strings, as in
/// serde_dynamo).
pub(super) struct NumberDe<'a>(pub(super) &'a str);

macro_rules! parse_number_methods {
    ($($method:ident => $visit:ident: $ty:ty, $name:literal;)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            visitor.$visit(parse::<$ty>(self.0, $name)?)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for NumberDe<'_> {
    type Error = DecodeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visit_number(self.0, visitor)
    }

    parse_number_methods! {
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

    forward_to_deserialize_any! {
        bool char str string bytes byte_buf option unit unit_struct newtype_struct
        seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

/// A map key's text, handed to the visitor as the mode allows: borrowed
/// for the input's lifetime from a borrowed item, transiently from an owned
/// one (the key stays with the map, to name it in an error).
pub(super) trait KeyText<'de>: Copy {
    /// The text, however long it lives.
    fn as_str(&self) -> &str;
    /// Visits it as a string.
    fn visit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value>;
    /// Visits it as an enum's unit variant (serde's unit-only access).
    fn visit_enum<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value>;
}

/// A map key (attribute name), as serde_dynamo reads one: a string; parsed
/// for an integer or bool key; an enum's unit variant; anything else is
/// offered the string.
pub(super) struct KeyDe<K>(pub(super) K);

macro_rules! parse_key_methods {
    ($($method:ident => $visit:ident: $ty:ty;)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            match self.0.as_str().parse::<$ty>() {
                Ok(n) => visitor.$visit(n),
                Err(_) => Err(key_error(
                    self.0.as_str(),
                    concat!("an integer (", stringify!($ty), ")"),
                )),
            }
        }
    )*};
}

#[cold]
fn key_error(key: &str, expected: &str) -> DecodeError {
    DecodeError::text(format!("expected {expected} as the map key, found `{key}`"))
}

impl<'de, K: KeyText<'de>> de::Deserializer<'de> for KeyDe<K> {
    type Error = DecodeError;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.0.visit(visitor)
    }

    #[inline]
    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.0.visit(visitor)
    }

    parse_key_methods! {
        deserialize_i8 => visit_i8: i8;
        deserialize_i16 => visit_i16: i16;
        deserialize_i32 => visit_i32: i32;
        deserialize_i64 => visit_i64: i64;
        deserialize_i128 => visit_i128: i128;
        deserialize_u8 => visit_u8: u8;
        deserialize_u16 => visit_u16: u16;
        deserialize_u32 => visit_u32: u32;
        deserialize_u64 => visit_u64: u64;
        deserialize_u128 => visit_u128: u128;
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0.as_str() {
            "true" => visitor.visit_bool(true),
            "false" => visitor.visit_bool(false),
            other => Err(key_error(other, "`true` or `false`")),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.0.visit_enum(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    forward_to_deserialize_any! {
        f32 f64 char str string bytes byte_buf option unit unit_struct
        seq tuple tuple_struct map struct ignored_any
    }
}
