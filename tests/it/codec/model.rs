//! Types exercising serde's attributes, and strategies for their values.

use std::collections::BTreeMap;

use proptest::prelude::*;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Bytes through `serialize_bytes` (what `serde_bytes` does).
#[derive(Debug, Clone, PartialEq)]
pub struct Bin(pub Vec<u8>);

impl Serialize for Bin {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.0)
    }
}

impl<'de> Deserialize<'de> for Bin {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Bin;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("bytes")
            }
            fn visit_bytes<E>(self, v: &[u8]) -> Result<Bin, E> {
                Ok(Bin(v.to_vec()))
            }
            fn visit_byte_buf<E>(self, v: Vec<u8>) -> Result<Bin, E> {
                Ok(Bin(v))
            }
        }
        d.deserialize_byte_buf(V)
    }
}

/// `#[serde(with = "...")]` storing a number as a string.
mod as_text {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(v)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Meters(pub u32);

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Marker;

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub struct Inner {
    pub sku: String,
    pub qty: u16,
    #[serde(default)]
    pub note: Option<String>,
}

/// Externally tagged, every variant kind.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub enum Shape {
    Unit,
    #[serde(rename = "renamed")]
    Renamed,
    Newtype(i64),
    Tuple(u8, String),
    Struct {
        x: i32,
        inner: Inner,
    },
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "kind")]
pub enum Internal {
    A { a: u32 },
    B(Inner),
    C,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "t", content = "c")]
pub enum Adjacent {
    Num(u64),
    Text(String),
    Empty,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
pub enum Untagged {
    Number(i64),
    Word(String),
    Pair { left: bool, right: Option<u8> },
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Extra {
    pub extra_flag: bool,
    #[serde(default)]
    pub extra_count: Option<u32>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum KeyKind {
    Red,
    Green,
}

/// Everything at once.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Doc {
    #[serde(rename = "ID")]
    pub id: u64,
    pub small: u8,
    pub medium: u16,
    pub wide: u32,
    pub tiny: i8,
    pub short: i16,
    pub int: i32,
    pub signed: i64,
    pub ratio: f64,
    pub ratio32: f32,
    pub name: String,
    pub letter: char,
    pub flag: bool,
    #[serde(default)]
    pub defaulted: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maybe: Option<String>,
    pub nullable: Option<i64>,
    pub nested: Inner,
    pub lines: Vec<Inner>,
    pub tags: BTreeMap<String, u32>,
    pub by_number: BTreeMap<u32, String>,
    pub by_kind: BTreeMap<KeyKind, bool>,
    pub tuple: (u8, String),
    pub unit: (),
    pub meters: Meters,
    pub marker: Marker,
    pub shape: Shape,
    pub shapes: Vec<Shape>,
    pub internal: Internal,
    pub adjacent: Adjacent,
    pub untagged: Untagged,
    pub blob: Bin,
    #[serde(with = "as_text")]
    pub as_text: u64,
    #[serde(with = "serde_dynamo::string_set", default)]
    pub names: Vec<String>,
    #[serde(with = "serde_dynamo::number_set", default)]
    pub numbers: Vec<u32>,
    #[serde(with = "serde_dynamo::binary_set", default)]
    pub blobs: Vec<Bin>,
    #[serde(skip)]
    pub skipped: u8,
}

/// A struct with `flatten`, which serde buffers through `deserialize_any`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Flat {
    pub id: u64,
    #[serde(flatten)]
    pub extra: Extra,
    #[serde(flatten)]
    pub rest: BTreeMap<String, Untagged>,
}

/// Strings with any characters, empty ones included.
pub fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[a-zA-Z0-9 _#-]{0,12}",
        1 => any::<String>(),
    ]
}

/// Floats that compare equal after a round trip (no NaN), extremes included.
pub fn finite_f64() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>().prop_filter("finite", |f| f.is_finite()),
        Just(0.0),
        Just(-0.0),
        Just(f64::MAX),
        Just(f64::MIN_POSITIVE),
        Just(5e-324),
        Just(0.1 + 0.2),
        Just(1e21),
        Just(123456789.0),
    ]
}

/// Floats including NaN and the infinities (for encoding: serde_dynamo
/// writes their text; the number check refuses them later).
pub fn any_f64() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => finite_f64(),
        1 => Just(f64::NAN),
        1 => Just(f64::INFINITY),
        1 => Just(f64::NEG_INFINITY),
    ]
}

pub fn any_f32() -> impl Strategy<Value = f32> {
    prop_oneof![
        4 => any::<f32>().prop_filter("finite", |f| f.is_finite()),
        1 => Just(f32::MAX),
        1 => Just(f32::MIN_POSITIVE),
    ]
}

pub fn inner() -> impl Strategy<Value = Inner> {
    (text(), any::<u16>(), proptest::option::of(text())).prop_map(|(sku, qty, note)| Inner {
        sku,
        qty,
        note,
    })
}

pub fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        Just(Shape::Unit),
        Just(Shape::Renamed),
        any::<i64>().prop_map(Shape::Newtype),
        (any::<u8>(), text()).prop_map(|(a, b)| Shape::Tuple(a, b)),
        (any::<i32>(), inner()).prop_map(|(x, inner)| Shape::Struct { x, inner }),
    ]
}

pub fn internal() -> impl Strategy<Value = Internal> {
    prop_oneof![
        any::<u32>().prop_map(|a| Internal::A { a }),
        inner().prop_map(Internal::B),
        Just(Internal::C),
    ]
}

pub fn adjacent() -> impl Strategy<Value = Adjacent> {
    prop_oneof![
        any::<u64>().prop_map(Adjacent::Num),
        text().prop_map(Adjacent::Text),
        Just(Adjacent::Empty),
    ]
}

pub fn untagged() -> impl Strategy<Value = Untagged> {
    prop_oneof![
        any::<i64>().prop_map(Untagged::Number),
        text().prop_map(Untagged::Word),
        (any::<bool>(), proptest::option::of(any::<u8>()))
            .prop_map(|(left, right)| Untagged::Pair { left, right }),
    ]
}

pub fn bin() -> impl Strategy<Value = Bin> {
    proptest::collection::vec(any::<u8>(), 0..8).prop_map(Bin)
}

pub fn doc_with(ratio: impl Strategy<Value = f64>) -> impl Strategy<Value = Doc> {
    let numbers = (
        any::<u64>(),
        any::<u8>(),
        any::<u16>(),
        any::<u32>(),
        any::<i8>(),
        any::<i16>(),
        any::<i32>(),
        any::<i64>(),
        ratio,
        any_f32(),
    );
    let scalars = (
        text(),
        any::<char>(),
        any::<bool>(),
        any::<u32>(),
        proptest::option::of(text()),
        proptest::option::of(any::<i64>()),
        any::<u64>(),
    );
    let nested = (
        inner(),
        proptest::collection::vec(inner(), 0..3),
        proptest::collection::btree_map(text(), any::<u32>(), 0..3),
        proptest::collection::btree_map(any::<u32>(), text(), 0..3),
        proptest::collection::btree_map(
            prop_oneof![Just(KeyKind::Red), Just(KeyKind::Green)],
            any::<bool>(),
            0..2,
        ),
        (any::<u8>(), text()),
        any::<u32>(),
    );
    let variants = (
        shape(),
        proptest::collection::vec(shape(), 0..3),
        internal(),
        adjacent(),
        untagged(),
        bin(),
        proptest::collection::vec(text(), 0..3),
        proptest::collection::vec(any::<u32>(), 0..3),
        proptest::collection::vec(bin(), 0..3),
    );
    (numbers, scalars, nested, variants).prop_map(
        |(
            (id, small, medium, wide, tiny, short, int, signed, ratio, ratio32),
            (name, letter, flag, defaulted, maybe, nullable, as_text),
            (nested, lines, tags, by_number, by_kind, tuple, meters),
            (shape, shapes, internal, adjacent, untagged, blob, names, numbers, blobs),
        )| Doc {
            id,
            small,
            medium,
            wide,
            tiny,
            short,
            int,
            signed,
            ratio,
            ratio32,
            name,
            letter,
            flag,
            defaulted,
            maybe,
            nullable,
            nested,
            lines,
            tags,
            by_number,
            by_kind,
            tuple,
            unit: (),
            meters: Meters(meters),
            marker: Marker,
            shape,
            shapes,
            internal,
            adjacent,
            untagged,
            blob,
            as_text,
            names,
            numbers,
            blobs,
            skipped: 0,
        },
    )
}

pub fn flat() -> impl Strategy<Value = Flat> {
    (
        any::<u64>(),
        any::<bool>(),
        proptest::option::of(any::<u32>()),
        proptest::collection::btree_map("r_[a-z]{1,4}", untagged(), 0..3),
    )
        .prop_map(|(id, extra_flag, extra_count, rest)| Flat {
            id,
            extra: Extra {
                extra_flag,
                extra_count,
            },
            rest,
        })
}
