//! The mapping's corners, each against serde_dynamo. (The property tests
//! in `tests/it/codec` compare the two on random values and items.)

use std::collections::{BTreeMap, HashMap};

use aws_sdk_dynamodb::types::AttributeValue;
use serde::{Deserialize, Serialize};

use super::*;

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.to_owned())
}

fn n(text: &str) -> AttributeValue {
    AttributeValue::N(text.to_owned())
}

fn m<const N: usize>(entries: [(&str, AttributeValue); N]) -> AttributeValue {
    AttributeValue::M(
        entries
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect(),
    )
}

/// Ours (owned and borrowed) and serde_dynamo: both `Ok` and equal, or
/// both `Err`; returns ours.
fn decode<T>(value: AttributeValue) -> Result<T, DecodeError>
where
    T: serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let theirs = serde_dynamo::from_attribute_value::<_, T>(value.clone());
    let borrowed = from_attribute_value_ref::<T>(&value);
    let ours = from_attribute_value::<T>(value);
    match (&ours, &borrowed, &theirs) {
        // Compared by `Debug`, so that NaNs compare.
        (Ok(a), Ok(b), Ok(c)) => assert!(
            format!("{a:?}") == format!("{b:?}") && format!("{a:?}") == format!("{c:?}"),
            "{a:?} {b:?} {c:?}"
        ),
        (Err(_), Err(_), Err(_)) => {}
        _ => panic!("ours {ours:?}, borrowed {borrowed:?}, serde_dynamo {theirs:?}"),
    }
    ours
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Point {
    x: i32,
    y: i32,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum Shape {
    Empty,
    Circle(u32),
    Rect { w: u32, h: u32 },
}

#[test]
fn serde_dynamo_s_quirks_are_kept() {
    // A struct reads from a list, positionally; a struct variant does not.
    assert_eq!(
        decode::<Point>(AttributeValue::L(vec![n("1"), n("2")])).unwrap(),
        Point { x: 1, y: 2 }
    );
    assert!(decode::<Shape>(m([("Rect", AttributeValue::L(vec![n("1"), n("2")]))])).is_err());
    // A unit variant's content is not looked at.
    assert_eq!(
        decode::<Shape>(m([("Empty", n("not a number"))])).unwrap(),
        Shape::Empty
    );
    assert_eq!(decode::<Shape>(s("Empty")).unwrap(), Shape::Empty);
    assert!(decode::<Shape>(s("Circle")).is_err());
    assert!(decode::<Shape>(m([("Circle", n("1")), ("Empty", n("1"))])).is_err());
    // An attribute nobody reads is still walked: a malformed number or a
    // NULL false inside it fails the read.
    let point = |extra: AttributeValue| m([("x", n("1")), ("y", n("2")), ("z", extra)]);
    assert!(decode::<Point>(point(s("anything"))).is_ok());
    assert!(decode::<Point>(point(AttributeValue::L(vec![n("1e3")]))).is_ok());
    assert!(decode::<Point>(point(AttributeValue::L(vec![n("x")]))).is_err());
    assert!(decode::<Point>(point(AttributeValue::Null(false))).is_err());
    assert!(decode::<Point>(point(AttributeValue::Ns(vec!["1".into(), "?".into()]))).is_err());
    // Any number text Rust parses: a sign, a float for an integer field not.
    assert_eq!(decode::<u8>(n("+7")).unwrap(), 7);
    assert!(decode::<u8>(n("256")).is_err());
    assert!(decode::<i64>(n("1.0")).is_err());
    assert!(decode::<f64>(n("NaN")).unwrap().is_nan());
    // 128-bit integers are refused both ways, except as map keys.
    assert!(decode::<u128>(n("1")).is_err());
    assert!(to_attribute_value(&1u128).is_err());
    assert_eq!(
        decode::<BTreeMap<u128, bool>>(m([("7", AttributeValue::Bool(true))])).unwrap(),
        BTreeMap::from([(7, true)])
    );
    // NULL is None, and NULL false is not.
    assert_eq!(
        decode::<Option<u8>>(AttributeValue::Null(true)).unwrap(),
        None
    );
    assert!(decode::<Option<u8>>(AttributeValue::Null(false)).is_err());
    // A number set holds numbers only: not even an Option of one.
    assert!(decode::<Vec<Option<u8>>>(AttributeValue::Ns(vec!["1".into()])).is_err());
    assert_eq!(
        decode::<Vec<u8>>(AttributeValue::Ns(vec!["1".into()])).unwrap(),
        [1]
    );
}

#[test]
fn encoding_matches_serde_dynamo() {
    #[derive(Serialize)]
    struct All {
        unit: (),
        none: Option<u8>,
        shapes: Vec<Shape>,
        #[serde(with = "serde_dynamo::string_set")]
        names: Vec<&'static str>,
        #[serde(with = "serde_dynamo::number_set")]
        numbers: Vec<f32>,
        keyed: BTreeMap<i128, char>,
        float: f64,
    }
    let all = All {
        unit: (),
        none: None,
        shapes: vec![Shape::Empty, Shape::Circle(2), Shape::Rect { w: 1, h: 2 }],
        names: vec!["a", "b"],
        numbers: vec![0.5, 1e30],
        keyed: BTreeMap::from([(-1, 'x')]),
        float: 1e300,
    };
    let item = to_item(&all).unwrap();
    assert_eq!(
        item,
        serde_dynamo::to_item::<_, HashMap<String, AttributeValue>>(&all).unwrap()
    );
    assert_eq!(
        item["names"],
        AttributeValue::Ss(vec!["a".into(), "b".into()])
    );
    assert!(item["none"].is_null());
    // A set codec over something that is not a list of its type is refused.
    #[derive(Serialize)]
    struct BadSet {
        #[serde(with = "serde_dynamo::number_set")]
        set: Vec<String>,
    }
    assert!(
        to_item(&BadSet {
            set: vec!["x".into()]
        })
        .is_err()
    );
    // Only what serialises as a map is an item.
    assert!(to_item(&Shape::Empty).is_err());
    assert_eq!(to_item(&Shape::Circle(1)).unwrap()["Circle"], n("1"));
    assert!(to_item(&7u8).is_err());
}

#[test]
fn an_entity_body_leaves_top_level_nulls_out() {
    #[derive(Serialize)]
    struct Body {
        kept: Option<u8>,
        gone: Option<u8>,
        unit: (),
        nested: Option<Option<u8>>,
        list: Vec<Option<u8>>,
        #[serde(flatten)]
        extra: BTreeMap<String, Option<u8>>,
    }
    let body = Body {
        kept: Some(1),
        gone: None,
        unit: (),
        nested: Some(None),
        list: vec![None],
        extra: BTreeMap::from([("e1".into(), None), ("e2".into(), Some(2))]),
    };
    let mut expected = to_item(&body).unwrap();
    expected.retain(|_, v| !v.is_null());
    let item = encode_entity(&body, 3).unwrap();
    assert_eq!(item, expected);
    assert_eq!(item.len(), 3, "{item:?}");
    assert_eq!(
        item["list"],
        AttributeValue::L(vec![AttributeValue::Null(true)])
    );

    // Two fields under one name: the last one written decides, as when
    // NULLs are filtered after serde_dynamo wrote them.
    #[derive(Serialize)]
    struct Twice {
        #[serde(rename = "a")]
        first: Option<u8>,
        #[serde(rename = "a")]
        second: Option<u8>,
    }
    for (first, second) in [
        (Some(1), None),
        (None, Some(2)),
        (Some(1), Some(2)),
        (None, None),
    ] {
        let twice = Twice { first, second };
        let mut expected = to_item(&twice).unwrap();
        expected.retain(|_, v| !v.is_null());
        assert_eq!(
            encode_entity(&twice, 0).unwrap(),
            expected,
            "{first:?} {second:?}"
        );
    }
}

#[test]
fn borrowed_decoding_borrows() {
    #[derive(Deserialize)]
    struct View<'a> {
        name: &'a str,
        #[serde(borrow)]
        city: std::borrow::Cow<'a, str>,
        tags: Vec<&'a str>,
    }
    let item: crate::item::Item = HashMap::from([
        ("name".to_owned(), s("Ada")),
        ("city".to_owned(), s("London")),
        ("tags".to_owned(), AttributeValue::Ss(vec!["x".into()])),
    ]);
    let view: View<'_> = from_item_ref(&item).unwrap();
    assert_eq!((view.name, view.tags[0]), ("Ada", "x"));
    assert!(matches!(view.city, std::borrow::Cow::Borrowed("London")));
}

/// An entity's body with the key fields handed beside it
/// ([`decode_body`]) decodes exactly as the item with them inserted: every
/// kind of request a body can meet, its errors included.
#[test]
fn a_body_and_its_key_fields_decode_as_one_item() {
    fn same<T>(item: &[(&str, AttributeValue)], extra: &[(&'static str, KeyFieldValue)])
    where
        T: serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
    {
        let item: Item = item
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect();
        let mut whole = item.clone();
        for (name, value) in extra {
            whole
                .entry((*name).to_owned())
                .or_insert(value.clone().into_attribute());
        }
        let expected = from_item::<T>(whole);
        let (mut item, mut extra) = (item, extra.to_vec());
        extra.retain(|(name, _)| !item.contains_key(*name));
        let got = decode_body::<T>(&mut item, &mut extra);
        match (expected, got) {
            (Ok(a), Ok(b)) => assert_eq!(a, b),
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
            (a, b) => panic!("the whole item read {a:?}, the body and key fields {b:?}"),
        }
    }

    #[derive(Deserialize, Debug, PartialEq)]
    struct Order {
        customer_id: u64,
        order_id: u64,
        status: String,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Strict {
        customer_id: u64,
        status: String,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Flattened {
        customer_id: u64,
        #[serde(flatten)]
        rest: BTreeMap<String, String>,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(untagged)]
    enum Untagged {
        Order { customer_id: u64, status: String },
        Other { note: String },
    }
    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(tag = "kind")]
    enum Tagged {
        Order { customer_id: u64 },
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Newtype(Order);
    #[derive(Deserialize, Debug, PartialEq)]
    struct Unit;

    let body = [("status", s("SHIPPED")), ("order_id", n("7"))];
    let keys = [("customer_id", KeyFieldValue::U64(42))];
    same::<Order>(&body, &keys);
    same::<Newtype>(&body, &keys);
    same::<HashMap<String, serde_json::Value>>(&body, &keys);
    same::<BTreeMap<String, String>>(&[("status", s("SHIPPED"))], &keys);
    same::<Untagged>(&[("status", s("SHIPPED"))], &keys);
    same::<Untagged>(&[("note", s("x"))], &[]);
    same::<Tagged>(&[("kind", s("Order"))], &keys);
    same::<Flattened>(&[("status", s("SHIPPED")), ("city", s("London"))], &keys);
    same::<Strict>(&[("status", s("SHIPPED"))], &keys);
    // A body that holds the field decodes from its own copy.
    same::<Order>(
        &[
            ("status", s("SHIPPED")),
            ("order_id", n("7")),
            ("customer_id", n("9")),
        ],
        &keys,
    );
    // Errors: a key field the type refuses, one missing, an unknown
    // attribute, and every request a map cannot answer.
    same::<Order>(
        &body,
        &[("customer_id", KeyFieldValue::Attribute(s("forty-two")))],
    );
    same::<Order>(&body, &[("customer_id", KeyFieldValue::I64(-1))]);
    same::<Order>(&[("status", s("SHIPPED"))], &keys);
    same::<Strict>(&[("status", s("SHIPPED")), ("extra", s("x"))], &keys);
    same::<Strict>(&body, &keys);
    same::<String>(&body, &keys);
    same::<u64>(&body, &keys);
    same::<bool>(&body, &keys);
    same::<Vec<String>>(&body, &keys);
    same::<(u64, String)>(&body, &keys);
    same::<Option<Order>>(&body, &keys);
    same::<Unit>(&body, &keys);
    same::<()>(&body, &keys);
    same::<serde::de::IgnoredAny>(
        &body,
        &[("customer_id", KeyFieldValue::Attribute(n("not a number")))],
    );
}

/// A key field handed over as an integer ([`KeyFieldValue`]) reads exactly
/// as the `N` the codec writes for it: every request, values at every
/// integer type's limits, errors included; and `KeyFieldValue::of` keeps
/// exactly the plain integers as such.
#[test]
fn a_key_field_integer_reads_as_its_number() {
    fn same<T>(value: &KeyFieldValue)
    where
        T: serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
    {
        let expected = from_attribute_value::<T>(value.clone().into_attribute());
        let got = T::deserialize(value.clone());
        match (expected, got) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{value:?}"),
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{value:?}"),
            (a, b) => panic!("{value:?}: the number read {a:?}, the integer {b:?}"),
        }
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Id(u32);
    #[derive(Deserialize, Debug, PartialEq)]
    enum Kind {
        A,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(untagged)]
    enum Either {
        Small(u8),
        Text(String),
        Big(u64),
    }

    let unsigned = [
        0,
        1,
        127,
        128,
        255,
        256,
        32_767,
        32_768,
        65_535,
        65_536,
        i32::MAX as u64,
        u32::MAX as u64,
        u32::MAX as u64 + 1,
        i64::MAX as u64,
        i64::MAX as u64 + 1,
        u64::MAX,
    ];
    let signed = [
        0,
        -1,
        i8::MIN as i64,
        i8::MIN as i64 - 1,
        i16::MIN as i64,
        i16::MIN as i64 - 1,
        i32::MIN as i64,
        i32::MIN as i64 - 1,
        i64::MIN,
        42,
        i64::MAX,
    ];
    let values = unsigned
        .into_iter()
        .map(KeyFieldValue::U64)
        .chain(signed.into_iter().map(KeyFieldValue::I64));
    for value in values {
        same::<u8>(&value);
        same::<u16>(&value);
        same::<u32>(&value);
        same::<u64>(&value);
        same::<u128>(&value);
        same::<i8>(&value);
        same::<i16>(&value);
        same::<i32>(&value);
        same::<i64>(&value);
        same::<i128>(&value);
        same::<f32>(&value);
        same::<f64>(&value);
        same::<bool>(&value);
        same::<char>(&value);
        same::<String>(&value);
        same::<Option<u8>>(&value);
        same::<Option<u64>>(&value);
        same::<Option<Option<i64>>>(&value);
        same::<Id>(&value);
        same::<Kind>(&value);
        same::<Either>(&value);
        same::<serde_json::Value>(&value);
        same::<Vec<u8>>(&value);
        same::<(u64,)>(&value);
        same::<()>(&value);
        same::<HashMap<String, u64>>(&value);
        same::<serde::de::IgnoredAny>(&value);
    }

    assert_eq!(KeyFieldValue::of(&42u8).unwrap(), KeyFieldValue::U64(42));
    assert_eq!(
        KeyFieldValue::of(&u64::MAX).unwrap(),
        KeyFieldValue::U64(u64::MAX)
    );
    assert_eq!(KeyFieldValue::of(&-5i32).unwrap(), KeyFieldValue::I64(-5));
    assert_eq!(
        KeyFieldValue::of(&i64::MIN).unwrap(),
        KeyFieldValue::I64(i64::MIN)
    );
    assert_eq!(
        KeyFieldValue::of("x").unwrap(),
        KeyFieldValue::Attribute(s("x"))
    );
    assert_eq!(
        KeyFieldValue::of(&1.5f64).unwrap(),
        KeyFieldValue::Attribute(n("1.5"))
    );
    assert_eq!(
        KeyFieldValue::of(&Some(3u8)).unwrap(),
        KeyFieldValue::Attribute(n("3"))
    );
    assert_eq!(
        KeyFieldValue::U64(u64::MAX).into_attribute(),
        to_attribute_value(&u64::MAX).unwrap()
    );
    assert_eq!(
        KeyFieldValue::I64(i64::MIN).into_attribute(),
        to_attribute_value(&i64::MIN).unwrap()
    );
}
