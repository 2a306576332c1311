//! What DynamoDB refuses in an item, checked before any request is sent: an
//! item over 400 KB, and numbers it cannot store exactly. Also the request
//! size estimate that keeps a batch under the 16 MB request limit.

use aws_sdk_dynamodb::types::AttributeValue;

use super::Item;
use crate::error::{Error, Repr, Result};

/// DynamoDB's limit on one item: 400 KB, attribute names included
/// (409 600 bytes as [`item_size`] counts them).
///
/// ```
/// use ddb_entity::item::MAX_ITEM_SIZE;
/// # use ddb_entity::Entity;
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// # #[derive(Entity, Serialize, Deserialize)]
/// # #[entity(table = App, pk = "NOTE#{id}", sk = "NOTE")]
/// # struct Note { id: u64, text: String }
///
/// assert_eq!(MAX_ITEM_SIZE, 409_600);
/// let too_big = Note { id: 1, text: "x".repeat(MAX_ITEM_SIZE) };
/// // Over the limit: a put of it is refused before it is sent (`ErrorKind::ItemTooLarge`).
/// assert!(ddb_entity::item::item_size(&too_big.to_item()?) > MAX_ITEM_SIZE);
/// # Ok::<(), ddb_entity::Error>(())
/// ```
pub const MAX_ITEM_SIZE: usize = 400 * 1024;

/// The most significant digits a DynamoDB number holds.
const MAX_DIGITS: usize = 38;

/// The size of an item as DynamoDB counts it against the 400 KB limit and
/// for capacity units: for every attribute, the UTF-8 bytes of its name plus
/// the size of its value —
///
/// - a string: its UTF-8 bytes; a binary: its raw bytes (not base64);
/// - a number: 1 byte per two significant digits before the decimal point
///   and per two after it (each half rounded up), plus 1, plus 1 more when
///   negative;
/// - a boolean or null: 1 byte;
/// - a list or map: 3 bytes, plus for each element its size and 1 byte
///   (and a map entry's name);
/// - a set: the sum of its elements.
///
/// DynamoDB documents the number size only as "approximately 1 byte per two
/// significant digits, plus 1"; the rule above is the exact one the
/// dynoxide emulator measured against DynamoDB (`1.5` takes 3 bytes, `-42`
/// takes 3).
///
/// ```
/// use ddb_entity::Entity;
/// use ddb_entity::item::item_size;
/// use serde::{Deserialize, Serialize};
///
/// ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "NOTE#{id}", sk = "NOTE")]
/// struct Note { id: u32, text: String }
///
/// let item = Note { id: 7, text: "hello".into() }.to_item()?;
/// // PK "NOTE#7" (2 + 6), SK "NOTE" (2 + 4), _type "NOTE" (5 + 4),
/// // text "hello" (4 + 5); `id` is stored in the key only.
/// assert_eq!(item_size(&item), 8 + 6 + 9 + 9);
/// # Ok::<(), ddb_entity::Error>(())
/// ```
pub fn item_size(item: &Item) -> usize {
    item.iter()
        .map(|(name, value)| name.len() + value_size(value))
        .sum()
}

fn value_size(value: &AttributeValue) -> usize {
    match value {
        AttributeValue::S(s) => s.len(),
        AttributeValue::N(n) => number_size(n),
        AttributeValue::B(b) => b.as_ref().len(),
        AttributeValue::Bool(_) | AttributeValue::Null(_) => 1,
        AttributeValue::Ss(set) => set.iter().map(String::len).sum(),
        AttributeValue::Ns(set) => set.iter().map(|n| number_size(n)).sum(),
        AttributeValue::Bs(set) => set.iter().map(|b| b.as_ref().len()).sum(),
        AttributeValue::L(list) => 3 + list.iter().map(|v| 1 + value_size(v)).sum::<usize>(),
        AttributeValue::M(map) => {
            3 + map
                .iter()
                .map(|(name, v)| name.len() + 1 + value_size(v))
                .sum::<usize>()
        }
        // A variant added to the SDK after this crate: count its debug form,
        // which is longer than any encoding of it.
        other => format!("{other:?}").len(),
    }
}

fn number_size(n: &str) -> usize {
    match parse_number(n) {
        Ok(number) => {
            // Digits before the decimal point, and after it.
            let int = usize::try_from(number.exponent + 1)
                .unwrap_or(0)
                .min(number.digits);
            let frac = number.digits - int;
            int.div_ceil(2) + frac.div_ceil(2) + 1 + usize::from(number.negative)
        }
        // Refused by `check_item` anyway; its text length bounds it.
        Err(_) => n.len() + 1,
    }
}

/// Checks what DynamoDB would refuse or silently change in `entity`'s item:
/// empty sets ([`ErrorKind::EmptySet`](crate::error::ErrorKind::EmptySet)), numbers it cannot store exactly (([`ErrorKind::InvalidNumber`](crate::error::ErrorKind::InvalidNumber))), then the
/// 400 KB limit (([`ErrorKind::ItemTooLarge`](crate::error::ErrorKind::ItemTooLarge))). Returns the item's size.
///
/// Every write of a whole item (put, create, batch put, transaction put)
/// goes through it before its request is built.
pub(crate) fn check_item(entity: &'static str, item: &Item) -> Result<usize> {
    for (name, value) in item {
        check_numbers(entity, name, value)?;
    }
    let size = item_size(item);
    if size > MAX_ITEM_SIZE {
        return Err(Repr::ItemTooLarge {
            entity,
            size,
            limit: MAX_ITEM_SIZE,
        }
        .into());
    }
    Ok(size)
}

/// Checks one value written outside a whole item (an update's `set` or
/// `add`, a condition's operand) for numbers DynamoDB cannot store and
/// empty sets, naming
/// `attribute` (and the path inside it) in the error.
pub(crate) fn check_value(
    entity: &'static str,
    attribute: &str,
    value: &AttributeValue,
) -> Result<()> {
    check_numbers(entity, attribute, value)
}

/// Walks one attribute value, naming the path of a bad number
/// (`readings[3].celsius`).
fn check_numbers(entity: &'static str, path: &str, value: &AttributeValue) -> Result<()> {
    let refuse = |path: String, n: &str, reason: &'static str| -> Error {
        Repr::InvalidNumber {
            entity,
            attribute: path,
            value: shorten(n),
            reason,
        }
        .into()
    };
    let empty_set = match value {
        AttributeValue::Ss(set) => set.is_empty(),
        AttributeValue::Ns(set) => set.is_empty(),
        AttributeValue::Bs(set) => set.is_empty(),
        _ => false,
    };
    if empty_set {
        return Err(Repr::EmptySet {
            entity,
            attribute: path.to_owned(),
        }
        .into());
    }
    match value {
        AttributeValue::N(n) => parse_number(n)
            .map(drop)
            .map_err(|reason| refuse(path.to_owned(), n, reason)),
        AttributeValue::Ns(set) => set.iter().try_for_each(|n| {
            parse_number(n)
                .map(drop)
                .map_err(|reason| refuse(path.to_owned(), n, reason))
        }),
        AttributeValue::L(list) => list
            .iter()
            .enumerate()
            .try_for_each(|(i, v)| check_numbers(entity, &format!("{path}[{i}]"), v)),
        AttributeValue::M(map) => map
            .iter()
            .try_for_each(|(name, v)| check_numbers(entity, &format!("{path}.{name}"), v)),
        _ => Ok(()),
    }
}

/// A number's text for an error message: `f64::MAX` prints 309 digits.
fn shorten(n: &str) -> String {
    const KEEP: usize = 48;
    if n.len() <= KEEP {
        return n.to_owned();
    }
    let cut = (0..=KEEP)
        .rev()
        .find(|&i| n.is_char_boundary(i))
        .unwrap_or(0);
    format!("{}… ({} characters)", &n[..cut], n.len())
}

/// A decimal number as DynamoDB sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Number {
    negative: bool,
    /// Significant digits, leading and trailing zeros trimmed (0 for zero).
    digits: usize,
    /// The power of ten of the leading significant digit (`123.4` → 2).
    exponent: i64,
}

/// Parses a DynamoDB `N` value and checks that DynamoDB stores it exactly:
/// at most 38 significant digits, magnitude from 1E-130 to
/// 9.9999999999999999999999999999999999999E+125, or zero. What the codec
/// writes for a NaN or an infinity (`NaN`, `inf`) is not a number at all.
/// (`u128`/`i128` fields never get here: the codec refuses to serialise
/// them, as serde_dynamo does.)
fn parse_number(text: &str) -> Result<Number, &'static str> {
    const NOT_A_NUMBER: &str =
        "it is not a decimal number (a NaN or an infinity has no DynamoDB representation)";
    let (negative, rest) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(at) => (&rest[..at], Some(&rest[at + 1..])),
        None => (rest, None),
    };
    let (int, frac) = match mantissa.split_once('.') {
        Some((int, frac)) => (int, frac),
        None => (mantissa, ""),
    };
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if int.len() + frac.len() == 0 || !all_digits(int) || !all_digits(frac) {
        return Err(NOT_A_NUMBER);
    }
    let exponent: i64 = match exponent {
        None => 0,
        Some(e) => {
            let unsigned = e.strip_prefix(['+', '-']).unwrap_or(e);
            if unsigned.is_empty() || !all_digits(unsigned) {
                return Err(NOT_A_NUMBER);
            }
            // An exponent past i64 is out of range whichever its sign.
            e.parse().map_err(|_| RANGE)?
        }
    };
    let digits = int.bytes().chain(frac.bytes());
    let leading = digits.clone().take_while(|&b| b == b'0').count();
    let total = int.len() + frac.len();
    if leading == total {
        // DynamoDB range-checks a zero too, as if its last written digit
        // were a 1: `0e126` overflows and `0.0e-130` underflows.
        let last_digit = exponent.checked_sub(frac.len() as i64).ok_or(RANGE)?;
        if !(-130..=125).contains(&last_digit) {
            return Err(RANGE);
        }
        return Ok(Number {
            negative: false,
            digits: 0,
            exponent: 0,
        });
    }
    let trailing = digits.rev().take_while(|&b| b == b'0').count();
    let significant = total - leading - trailing;
    // int.len() and leading are string lengths: far below i64::MAX.
    let leading_power = int.len() as i64 - 1 - leading as i64;
    let power = leading_power.checked_add(exponent).ok_or(RANGE)?;
    if significant > MAX_DIGITS {
        return Err("it has more than 38 significant digits, which DynamoDB refuses to store");
    }
    if !(-130..=125).contains(&power) {
        return Err(RANGE);
    }
    Ok(Number {
        negative,
        digits: significant,
        exponent: power,
    })
}

const RANGE: &str = "its magnitude is outside DynamoDB's range (1E-130 to 9.99…E+125)";

/// An upper bound of the bytes `value` takes in a request's JSON body
/// (`{"S":"…"}`, base64 for binaries, escapes for quotes and control
/// characters), for keeping a batch under the 16 MB request limit. The
/// item size DynamoDB counts is always smaller; the wire size is what the
/// limit applies to.
pub(crate) fn wire_size(item: &Item) -> usize {
    2 + item
        .iter()
        .map(|(name, value)| json_string(name) + 1 + wire_value(value) + 1)
        .sum::<usize>()
}

fn wire_value(value: &AttributeValue) -> usize {
    let base64 = |b: &[u8]| b.len().div_ceil(3) * 4 + 2;
    // (type tag length, body length): `{"` tag `":` body `}`.
    let (tag, body) = match value {
        AttributeValue::S(s) | AttributeValue::N(s) => (1, json_string(s)),
        AttributeValue::B(b) => (1, base64(b.as_ref())),
        AttributeValue::Bool(_) | AttributeValue::Null(_) => (4, 5),
        AttributeValue::Ss(set) | AttributeValue::Ns(set) => {
            (2, 2 + set.iter().map(|s| json_string(s) + 1).sum::<usize>())
        }
        AttributeValue::Bs(set) => (
            2,
            2 + set.iter().map(|b| base64(b.as_ref()) + 1).sum::<usize>(),
        ),
        AttributeValue::L(list) => (1, 2 + list.iter().map(|v| wire_value(v) + 1).sum::<usize>()),
        AttributeValue::M(map) => (1, wire_size(map)),
        other => (4, format!("{other:?}").len() * 6),
    };
    tag + 5 + body
}

/// A JSON string's length with its quotes, every escape at its longest.
fn json_string(s: &str) -> usize {
    2 + s
        .bytes()
        .map(|b| match b {
            b'"' | b'\\' => 2,
            0..0x20 | 0x7f => 6,
            _ => 1,
        })
        .sum::<usize>()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(pairs: &[(&str, AttributeValue)]) -> Item {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect()
    }

    fn n(s: &str) -> AttributeValue {
        AttributeValue::N(s.to_owned())
    }

    #[test]
    fn numbers_dynamodb_stores_exactly_pass() {
        for ok in [
            "0",
            "-0",
            "0.000",
            "1",
            "-17",
            "+5",
            "3.25",
            ".5",
            "5.",
            "1e125",
            "9.9999999999999999999999999999999999999E+125",
            "1E-130",
            "-1E-130",
            "12345678901234567890123456789012345678",
            "1234567890123456789012345678901234567800000",
            "0.00000000000000000000000000000000000000000012345678901234567890123456789012345678",
            &u64::MAX.to_string(),
            &i64::MIN.to_string(),
            &(0.1f64 + 0.2).to_string(),
            &1e100f64.to_string(),
            &f32::MAX.to_string(),
        ] {
            assert!(parse_number(ok).is_ok(), "{ok} should be accepted");
        }
    }

    #[test]
    fn numbers_dynamodb_refuses_or_rounds_are_refused() {
        for bad in [
            "",
            "-",
            ".",
            "NaN",
            "inf",
            "-inf",
            "1e",
            "1e+",
            "0x10",
            "1 000",
            "0e126",
            "0.0e-130",
            "1e99999999999999999999",
            "123456789012345678901234567890123456789",
            &u128::MAX.to_string(),
            &i128::MIN.to_string(),
            "1E126",
            "1E-131",
            &f64::NAN.to_string(),
            &f64::INFINITY.to_string(),
            &f64::MAX.to_string(),
            &1e-200f64.to_string(),
            &(5e-324f64).to_string(),
            &f64::MIN_POSITIVE.to_string(),
        ] {
            assert!(parse_number(bad).is_err(), "{bad} should be refused");
        }
        assert!(
            parse_number("123456789012345678901234567890123456789")
                .unwrap_err()
                .contains("38 significant digits")
        );
        assert!(parse_number("1E126").unwrap_err().contains("range"));
        assert!(parse_number("NaN").unwrap_err().contains("NaN"));
    }

    #[test]
    fn number_digits_and_exponent() {
        let parsed = parse_number("-00123.4500e2").unwrap();
        assert_eq!(
            parsed,
            Number {
                negative: true,
                digits: 5,
                exponent: 4
            }
        );
        assert_eq!(parse_number("0.00123").unwrap().exponent, -3);
        assert_eq!(parse_number("1000").unwrap().digits, 1);
        assert!(parse_number("0e125").is_ok() && parse_number("0.0e-129").is_ok());
    }

    #[test]
    fn number_sizes_match_dynamodb() {
        // Byte-exact values dynoxide measured against DynamoDB.
        for (literal, size) in [
            ("1", 2),
            ("12", 2),
            ("123", 3),
            ("1234567890123456789", 11),
            ("12345678901234567890123456789012345678", 20),
            ("0042", 2),
            ("100", 2),
            ("0.0000001", 2),
            ("0", 1),
            ("-0", 1),
            ("1E125", 2),
            ("1E-100", 2),
            ("1.5", 3),
            ("1.200", 3),
            ("3.14159", 5),
            ("100.5", 4),
            ("0.15", 2),
            ("-42", 3),
            ("-1E125", 3),
            ("-0.15", 3),
        ] {
            assert_eq!(number_size(literal), size, "{literal}");
        }
    }

    #[test]
    fn item_size_follows_the_documented_rules() {
        let nested = item(&[
            ("s", AttributeValue::S("héllo".into())), // 1 + 6
            ("n", n("-123.45")),                      // 1 + 3 + 1 + 1
            ("b", AttributeValue::Bool(true)),        // 1 + 1
            (
                "l",
                AttributeValue::L(vec![n("1"), AttributeValue::Null(true)]),
            ), // 1 + 3 + (1 + 2) + (1 + 1)
            (
                "m",
                AttributeValue::M(item(&[("k", AttributeValue::S("v".into()))])),
            ), // 1 + 3 + (1 + 1 + 1)
            ("ss", AttributeValue::Ss(vec!["ab".into(), "cde".into()])), // 2 + 5
        ]);
        assert_eq!(item_size(&nested), 7 + 6 + 2 + 9 + 7 + 7);
    }

    #[test]
    fn check_item_names_the_path_of_a_bad_number_and_the_size() {
        let bad = item(&[(
            "readings",
            AttributeValue::L(vec![
                n("1"),
                AttributeValue::M(item(&[("celsius", n(&f64::MAX.to_string()))])),
            ]),
        )]);
        let err = check_item("Sensor", &bad).unwrap_err();
        assert_eq!(err.kind(), crate::error::ErrorKind::InvalidNumber);
        assert_eq!(err.entity(), Some("Sensor"));
        assert!(err.to_string().contains("`readings[1].celsius`"), "{err}");
        assert!(err.to_string().contains("309 characters"), "{err}");

        let big = item(&[("text", AttributeValue::S("x".repeat(MAX_ITEM_SIZE)))]);
        let err = check_item("Note", &big).unwrap_err();
        assert!(
            err.is_item_too_large() && err.entity() == Some("Note"),
            "{err:?}"
        );
        assert!(
            err.to_string()
                .contains(&format!("{} bytes", MAX_ITEM_SIZE + 4)),
            "{err}"
        );
        let fits = item(&[("text", AttributeValue::S("x".repeat(MAX_ITEM_SIZE - 4)))]);
        assert_eq!(check_item("Note", &fits).unwrap(), MAX_ITEM_SIZE);
    }

    #[test]
    fn wire_size_bounds_the_json_encoding() {
        let value = item(&[
            ("q\"uote", AttributeValue::S("a\nb\u{1}é".into())),
            ("n", n("12")),
            (
                "b",
                AttributeValue::B(aws_sdk_dynamodb::primitives::Blob::new(vec![0u8; 10])),
            ),
            ("l", AttributeValue::L(vec![AttributeValue::Bool(false)])),
            (
                "m",
                AttributeValue::M(item(&[("x", AttributeValue::Null(true))])),
            ),
        ]);
        assert!(wire_size(&value) >= item_size(&value));
        // Exact for plain text: `{"S":"x"}`, `{"N":"12"}`, `{"BOOL":false}`.
        assert_eq!(wire_value(&AttributeValue::S("x".into())), 9);
        assert_eq!(wire_value(&n("12")), 10);
        assert_eq!(wire_value(&AttributeValue::Bool(false)), 14);
        // Escapes at their longest: `\\"`, `\\u0001`.
        assert_eq!(json_string("\"\u{1}"), 2 + 2 + 6);
    }
}
