//! DynamoDB's JSON wire format (a response body's items) decoded by the
//! same rules as the SDK's `AttributeValue`s: for random items of every
//! attribute type — sets, maps, lists, binaries, numbers at DynamoDB's
//! limits and malformed ones, strings with escapes and any unicode, `NULL`
//! and `NULL: false` — decoding the item's JSON (`codec::from_json_item`)
//! and decoding the SDK's item (`codec::from_item`) give the same value,
//! or the same error, message and path included.
//!
//! The JSON is written in the order the SDK's map iterates (as a response
//! body has an order and the map has its own), so where an item holds
//! several faults both name the same first one.

use std::borrow::Cow;
use std::fmt;
use std::fmt::Write as _;

use aws_sdk_dynamodb::types::AttributeValue;
use ddb_entity::{Item, codec};
use proptest::prelude::*;
use serde::Deserialize;
use serde::de::DeserializeOwned;

use super::model::*;
use super::random_items::{Any, Nothing, attribute_value, item};

/// A string as JSON: escaped where JSON must, and — with `ascii` — every
/// character beyond ASCII as a `\u` escape (surrogate pairs included), so
/// that strings the decoder must unescape are as common as borrowed ones.
fn write_text(text: &str, ascii: bool, out: &mut String) {
    if !ascii {
        out.push_str(&serde_json::to_string(text).unwrap());
        return;
    }
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            ' '..='~' => out.push(c),
            c => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    write!(out, "\\u{unit:04x}").unwrap();
                }
            }
        }
    }
    out.push('"');
}

fn write_blob(blob: &[u8], out: &mut String) {
    out.push('"');
    out.push_str(&aws_smithy_types::base64::encode(blob));
    out.push('"');
}

fn write_list<T>(items: &[T], out: &mut String, mut each: impl FnMut(&T, &mut String)) {
    out.push('[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        each(item, out);
    }
    out.push(']');
}

/// One attribute value in DynamoDB's JSON.
fn write_value(value: &AttributeValue, ascii: bool, out: &mut String) {
    match value {
        AttributeValue::S(s) => {
            out.push_str("{\"S\":");
            write_text(s, ascii, out);
        }
        AttributeValue::N(n) => {
            out.push_str("{\"N\":");
            write_text(n, ascii, out);
        }
        AttributeValue::B(b) => {
            out.push_str("{\"B\":");
            write_blob(b.as_ref(), out);
        }
        AttributeValue::Bool(b) => write!(out, "{{\"BOOL\":{b}").unwrap(),
        AttributeValue::Null(n) => write!(out, "{{\"NULL\":{n}").unwrap(),
        AttributeValue::Ss(set) => {
            out.push_str("{\"SS\":");
            write_list(set, out, |s, out| write_text(s, ascii, out));
        }
        AttributeValue::Ns(set) => {
            out.push_str("{\"NS\":");
            write_list(set, out, |s, out| write_text(s, ascii, out));
        }
        AttributeValue::Bs(set) => {
            out.push_str("{\"BS\":");
            write_list(set, out, |b, out| write_blob(b.as_ref(), out));
        }
        AttributeValue::L(list) => {
            out.push_str("{\"L\":");
            write_list(list, out, |v, out| write_value(v, ascii, out));
        }
        AttributeValue::M(map) => {
            out.push_str("{\"M\":");
            write_item(map, ascii, out);
        }
        other => panic!("no wire form written for {other:?}"),
    }
    out.push('}');
}

/// An item in DynamoDB's JSON, in the map's own iteration order.
fn write_item(item: &Item, ascii: bool, out: &mut String) {
    out.push('{');
    for (i, (name, value)) in item.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_text(name, ascii, out);
        out.push(':');
        write_value(value, ascii, out);
    }
    out.push('}');
}

fn json(item: &Item, ascii: bool) -> String {
    let mut out = String::new();
    write_item(item, ascii, &mut out);
    out
}

/// The same value (compared by `Debug`), or the same error: message and
/// path.
fn identical<T: fmt::Debug>(
    what: &str,
    wire: &Result<T, codec::DecodeError>,
    sdk: &Result<T, codec::DecodeError>,
) -> Result<(), TestCaseError> {
    match (wire, sdk) {
        (Ok(a), Ok(b)) => prop_assert_eq!(format!("{a:?}"), format!("{b:?}"), "{}", what),
        (Err(a), Err(b)) => prop_assert_eq!(a.to_string(), b.to_string(), "{}", what),
        (a, b) => prop_assert!(false, "{what}: wire {a:?}, SDK {b:?}"),
    }
    Ok(())
}

/// The item's JSON, written plainly and with every non-ASCII character
/// escaped, against the SDK's item, for one target type.
fn agree<T: DeserializeOwned + fmt::Debug>(item: &Item) -> Result<(), TestCaseError> {
    let what = std::any::type_name::<T>();
    // A clone iterates in the same order as the map it was cloned from.
    let sdk = codec::from_item::<T>(item.clone());
    for ascii in [false, true] {
        let text = json(item, ascii);
        identical(what, &codec::from_json_item::<T>(&text), &sdk)?;
    }
    Ok(())
}

/// An item of one attribute, `value`, named `v`.
fn one(value: AttributeValue) -> Item {
    Item::from([("v".to_owned(), value)])
}

/// What reads the one attribute `v`.
#[derive(Deserialize, Debug)]
struct V<T> {
    #[allow(dead_code)]
    v: T,
}

/// Numbers at DynamoDB's limits (38 digits of precision, magnitudes from
/// 1E-130 to 9.99…E+125) and beyond them.
fn limit_number() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "9.9999999999999999999999999999999999999E+125",
        "-9.9999999999999999999999999999999999999E+125",
        "1E-130",
        "-1E-130",
        "99999999999999999999999999999999999999",
        "-99999999999999999999999999999999999999",
        "0.00000000000000000000000000000000000001",
        "1E+126",
        "1E-131",
        "340282366920938463463374607431768211455",
        "170141183460469231731687303715884105727",
    ])
    .prop_map(str::to_owned)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn any_item_decodes_from_its_json_as_from_the_sdk_s(item in item()) {
        agree::<Any>(&item)?;
        agree::<serde_json::Value>(&item)?;
        agree::<Nothing>(&item)?;
        agree::<Inner>(&item)?;
        agree::<Shape>(&item)?;
        agree::<Internal>(&item)?;
        agree::<Untagged>(&item)?;
        agree::<Flat>(&item)?;
        agree::<Doc>(&item)?;
        agree::<std::collections::BTreeMap<String, Any>>(&item)?;
        agree::<Option<Inner>>(&item)?;
        agree::<u64>(&item)?;
        agree::<Vec<Any>>(&item)?;
    }

    #[test]
    fn any_value_decodes_from_its_json_as_from_the_sdk_s(value in attribute_value()) {
        let item = one(value);
        agree::<V<u8>>(&item)?;
        agree::<V<i64>>(&item)?;
        agree::<V<u64>>(&item)?;
        agree::<V<i128>>(&item)?;
        agree::<V<f32>>(&item)?;
        agree::<V<f64>>(&item)?;
        agree::<V<bool>>(&item)?;
        agree::<V<char>>(&item)?;
        agree::<V<String>>(&item)?;
        agree::<V<()>>(&item)?;
        agree::<V<Marker>>(&item)?;
        agree::<V<Meters>>(&item)?;
        agree::<V<Bin>>(&item)?;
        agree::<V<Option<u32>>>(&item)?;
        agree::<V<Option<String>>>(&item)?;
        agree::<V<Option<Option<bool>>>>(&item)?;
        agree::<V<Vec<u32>>>(&item)?;
        agree::<V<Vec<String>>>(&item)?;
        agree::<V<Vec<Option<u8>>>>(&item)?;
        agree::<V<Vec<Bin>>>(&item)?;
        agree::<V<(u8, String)>>(&item)?;
        agree::<V<std::collections::BTreeMap<u8, Any>>>(&item)?;
        agree::<V<std::collections::BTreeMap<bool, Any>>>(&item)?;
        agree::<V<std::collections::BTreeMap<KeyKind, Any>>>(&item)?;
        agree::<V<Shape>>(&item)?;
        agree::<V<KeyKind>>(&item)?;
        agree::<V<Adjacent>>(&item)?;
        agree::<V<Untagged>>(&item)?;
        agree::<V<Extra>>(&item)?;
    }

    #[test]
    fn numbers_at_dynamodb_s_limits_decode_alike(text in limit_number(), set in prop::collection::vec(limit_number(), 1..4)) {
        for value in [AttributeValue::N(text), AttributeValue::Ns(set)] {
            let item = one(value);
            agree::<V<f64>>(&item)?;
            agree::<V<f32>>(&item)?;
            agree::<V<u64>>(&item)?;
            agree::<V<i64>>(&item)?;
            agree::<V<Any>>(&item)?;
            agree::<V<Vec<f64>>>(&item)?;
            agree::<V<serde_json::Value>>(&item)?;
            agree::<Nothing>(&item)?;
        }
    }

    #[test]
    fn well_formed_documents_decode_alike(doc in doc_with(any_f64()), flat in flat()) {
        let item = codec::to_item(&doc).unwrap();
        agree::<Doc>(&item)?;
        prop_assert!(codec::from_json_item::<Doc>(&json(&item, true)).is_ok());
        let item = codec::to_item(&flat).unwrap();
        agree::<Flat>(&item)?;
    }
}

/// A borrowed target borrows from the body where a string has no escapes,
/// and is handed the unescaped string where it has.
#[test]
fn strings_without_escapes_are_borrowed_from_the_body() {
    #[derive(Deserialize)]
    struct Names<'a> {
        #[serde(borrow)]
        plain: Cow<'a, str>,
        #[serde(borrow)]
        escaped: Cow<'a, str>,
        slice: &'a str,
    }
    let body = r#"{"plain":{"S":"Ada"},"escaped":{"S":"A\"da"},"slice":{"S":"Lovelace"}}"#;
    let names: Names = codec::from_json_item(body).unwrap();
    assert!(matches!(names.plain, Cow::Borrowed("Ada")));
    assert!(matches!(names.escaped, Cow::Owned(ref s) if s == "A\"da"));
    assert_eq!(names.slice, "Lovelace");
    let within = body.as_bytes().as_ptr_range();
    assert!(within.contains(&names.slice.as_ptr()));
}

/// What is not an item in DynamoDB's JSON is refused, saying so.
#[test]
fn text_that_is_not_an_item_is_refused() {
    for body in [
        "",
        "[]",
        r#"{"a":{"S":"x"}"#,
        r#"{"a":{}}"#,
        r#"{"a":{"S":"x","N":"1"}}"#,
        r#"{"a":{"S":1}}"#,
        r#"{"a":{"B":"not base64!"}}"#,
        r#"{"a":{"S":"x"}} trailing"#,
    ] {
        let err = codec::from_json_item::<Any>(body).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("not an item in DynamoDB's JSON format"),
            "{body}: {err}"
        );
    }
    // A type this version does not know reads as the SDK's `Unknown`:
    // ignored, it is refused as a value of no known type.
    let err = codec::from_json_item::<Nothing>(r#"{"a":{"XS":[1]}}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "a: expected a DynamoDB value, found an attribute type this SDK version does not know"
    );
}
