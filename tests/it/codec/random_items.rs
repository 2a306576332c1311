//! Random attribute values and items — well-formed or not — decoded into
//! many targets: ours (owned and borrowed) and serde_dynamo agree.

use std::collections::BTreeMap;
use std::fmt;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use ddb_entity::{Item, codec};
use proptest::prelude::*;
use serde::Deserialize;
use serde::de::{DeserializeOwned, Deserializer, MapAccess, SeqAccess, Visitor};

use super::model::*;
use super::same;

/// Number texts: integers at the edges of every width, floats in every
/// notation, and texts serde_dynamo or DynamoDB would refuse.
pub fn number_text() -> impl Strategy<Value = String> {
    let fixed = prop::sample::select(vec![
        "0",
        "-0",
        "+7",
        "1",
        "-1",
        "127",
        "128",
        "-128",
        "-129",
        "255",
        "256",
        "32767",
        "65535",
        "65536",
        "2147483647",
        "4294967295",
        "4294967296",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775808",
        "-9223372036854775809",
        "18446744073709551615",
        "18446744073709551616",
        "3.0",
        "1.5",
        "-2.25",
        ".5",
        "5.",
        "1e5",
        "1E2",
        "-1e-5",
        "1e400",
        "-1e-400",
        "00012",
        "NaN",
        "nan",
        "inf",
        "-inf",
        "infinity",
        "",
        "-",
        "e5",
        " 1",
        "1 ",
        "0x10",
        "1_0",
        "abc",
        "1,5",
        "١",
        "123456789012345678901234567890123456789",
    ])
    .prop_map(str::to_owned);
    prop_oneof![
        3 => fixed,
        2 => any::<i64>().prop_map(|n| n.to_string()),
        1 => any::<u64>().prop_map(|n| n.to_string()),
        1 => any::<u8>().prop_map(|n| n.to_string()),
        2 => any::<f64>().prop_map(|n| n.to_string()),
        1 => any::<f32>().prop_map(|n| n.to_string()),
        1 => "[-+]?[0-9]{0,3}[.]?[0-9]{0,3}([eE][-+]?[0-9]{1,3})?",
    ]
}

/// Attribute names: the models' own (so fields match), and others.
fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(vec![
            "ID", "small", "name", "letter", "flag", "nested", "lines", "tags", "tuple", "unit",
            "shape", "internal", "adjacent", "untagged", "blob", "names", "numbers", "blobs",
            "SKU", "QTY", "NOTE", "Unit", "renamed", "Newtype", "Tuple", "Struct", "x", "inner",
            "kind", "A", "B", "C", "a", "t", "c", "Num", "Text", "Empty", "left", "right", "id",
            "extra_flag", "extra_count", "r_ab", "true", "false", "1", "-3", "300", "Red", "Green",
        ])
        .prop_map(str::to_owned),
        1 => text(),
    ]
}

fn blob() -> impl Strategy<Value = Blob> {
    proptest::collection::vec(any::<u8>(), 0..4).prop_map(Blob::new)
}

/// Any attribute value, `NULL: false` and malformed numbers included.
pub fn attribute_value() -> impl Strategy<Value = AttributeValue> {
    let leaf = prop_oneof![
        3 => number_text().prop_map(AttributeValue::N),
        3 => text().prop_map(AttributeValue::S),
        1 => any::<bool>().prop_map(AttributeValue::Bool),
        1 => Just(AttributeValue::Null(true)),
        1 => Just(AttributeValue::Null(false)),
        1 => blob().prop_map(AttributeValue::B),
        1 => proptest::collection::vec(text(), 0..3).prop_map(AttributeValue::Ss),
        1 => proptest::collection::vec(number_text(), 0..3).prop_map(AttributeValue::Ns),
        1 => proptest::collection::vec(blob(), 0..3).prop_map(AttributeValue::Bs),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(AttributeValue::L),
            proptest::collection::hash_map(name(), inner, 0..4).prop_map(AttributeValue::M),
        ]
    })
}

pub fn item() -> impl Strategy<Value = Item> {
    proptest::collection::hash_map(name(), attribute_value(), 0..6)
}

/// Whatever `deserialize_any` offers, recorded: shows exactly which visitor
/// method each value reached (maps sorted, as their order is the map's).
#[derive(Debug, PartialEq)]
pub enum Any {
    Bool(bool),
    I64(i64),
    U64(u64),
    F64(String),
    Str(String),
    Bytes(Vec<u8>),
    Unit,
    None,
    Some(Box<Any>),
    Newtype(Box<Any>),
    Seq(Vec<Any>),
    Map(Vec<(String, Any)>),
}

impl<'de> Deserialize<'de> for Any {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(AnyVisitor)
    }
}

struct AnyVisitor;

impl<'de> Visitor<'de> for AnyVisitor {
    type Value = Any;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("anything")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Any, E> {
        Ok(Any::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Any, E> {
        Ok(Any::I64(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Any, E> {
        Ok(Any::U64(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Any, E> {
        Ok(Any::F64(format!("{v:?}")))
    }
    fn visit_str<E>(self, v: &str) -> Result<Any, E> {
        Ok(Any::Str(v.to_owned()))
    }
    fn visit_bytes<E>(self, v: &[u8]) -> Result<Any, E> {
        Ok(Any::Bytes(v.to_vec()))
    }
    fn visit_unit<E>(self) -> Result<Any, E> {
        Ok(Any::Unit)
    }
    fn visit_none<E>(self) -> Result<Any, E> {
        Ok(Any::None)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Any, D::Error> {
        Ok(Any::Some(Box::new(Any::deserialize(d)?)))
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Any, D::Error> {
        Ok(Any::Newtype(Box::new(Any::deserialize(d)?)))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Any, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = seq.next_element()? {
            out.push(v);
        }
        Ok(Any::Seq(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Any, A::Error> {
        let mut out: Vec<(String, Any)> = Vec::new();
        while let Some((k, v)) = map.next_entry::<String, Any>()? {
            out.push((k, v));
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(Any::Map(out))
    }
}

/// A struct with no fields: every attribute is ignored (and still checked
/// as serde_dynamo checks ignored values).
#[derive(Deserialize, Debug)]
pub struct Nothing {}

/// Ours, owned and borrowed, against serde_dynamo, for one target type.
fn agree<T: DeserializeOwned + fmt::Debug>(value: &AttributeValue) -> Result<(), TestCaseError> {
    let what = std::any::type_name::<T>();
    let theirs = serde_dynamo::from_attribute_value::<_, T>(value.clone());
    same(
        what,
        &codec::from_attribute_value::<T>(value.clone()),
        &theirs,
    )?;
    same(what, &codec::from_attribute_value_ref::<T>(value), &theirs)
}

fn agree_on_item<T: DeserializeOwned + fmt::Debug>(item: &Item) -> Result<(), TestCaseError> {
    let what = std::any::type_name::<T>();
    let theirs = serde_dynamo::from_item::<_, T>(item.clone());
    same(what, &codec::from_item::<T>(item.clone()), &theirs)?;
    same(what, &codec::from_item_ref::<T>(item), &theirs)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn any_value_decodes_the_same_into_scalars(value in attribute_value()) {
        agree::<u8>(&value)?;
        agree::<u16>(&value)?;
        agree::<u32>(&value)?;
        agree::<u64>(&value)?;
        agree::<i8>(&value)?;
        agree::<i16>(&value)?;
        agree::<i32>(&value)?;
        agree::<i64>(&value)?;
        agree::<i128>(&value)?;
        agree::<u128>(&value)?;
        agree::<f32>(&value)?;
        agree::<f64>(&value)?;
        agree::<bool>(&value)?;
        agree::<char>(&value)?;
        agree::<String>(&value)?;
        agree::<()>(&value)?;
        agree::<Marker>(&value)?;
        agree::<Meters>(&value)?;
        agree::<Bin>(&value)?;
        agree::<Option<u32>>(&value)?;
        agree::<Option<String>>(&value)?;
        agree::<Option<Option<bool>>>(&value)?;
    }

    #[test]
    fn any_value_decodes_the_same_into_compounds(value in attribute_value()) {
        agree::<Any>(&value)?;
        agree::<serde_json::Value>(&value)?;
        agree::<Vec<u32>>(&value)?;
        agree::<Vec<String>>(&value)?;
        agree::<Vec<Option<u8>>>(&value)?;
        agree::<Vec<Bin>>(&value)?;
        agree::<Vec<Any>>(&value)?;
        agree::<(u8, String)>(&value)?;
        agree::<(Any, Any)>(&value)?;
        agree::<BTreeMap<String, i64>>(&value)?;
        agree::<BTreeMap<u8, Any>>(&value)?;
        agree::<BTreeMap<i16, Any>>(&value)?;
        agree::<BTreeMap<bool, Any>>(&value)?;
        agree::<BTreeMap<char, Any>>(&value)?;
        agree::<BTreeMap<KeyKind, Any>>(&value)?;
        agree::<BTreeMap<String, Any>>(&value)?;
        agree::<Nothing>(&value)?;
        agree::<Inner>(&value)?;
        agree::<Shape>(&value)?;
        agree::<KeyKind>(&value)?;
        agree::<Internal>(&value)?;
        agree::<Adjacent>(&value)?;
        agree::<Untagged>(&value)?;
        agree::<Extra>(&value)?;
        agree::<Flat>(&value)?;
        agree::<Doc>(&value)?;
    }

    #[test]
    fn any_item_decodes_the_same(item in item()) {
        agree_on_item::<Any>(&item)?;
        agree_on_item::<serde_json::Value>(&item)?;
        agree_on_item::<Nothing>(&item)?;
        agree_on_item::<Inner>(&item)?;
        agree_on_item::<Shape>(&item)?;
        agree_on_item::<Internal>(&item)?;
        agree_on_item::<Untagged>(&item)?;
        agree_on_item::<Flat>(&item)?;
        agree_on_item::<Doc>(&item)?;
        agree_on_item::<BTreeMap<String, Any>>(&item)?;
        agree_on_item::<Option<Inner>>(&item)?;
        agree_on_item::<u64>(&item)?;
        agree_on_item::<Vec<Any>>(&item)?;
    }
}
