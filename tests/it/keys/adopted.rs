//! Keys written by other code: whatever a template reads, it writes back
//! byte for byte. Foreign keys — valid ones, near misses and noise — are
//! parsed as the templates of a hand-designed table; every one that
//! matches is decoded into its parts and encoded again, and must come back
//! unchanged. The ISO and unordered key parts, alone, the same.

use chrono::{DateTime, Utc};
use ddb_entity::Member;
use ddb_entity::key::{self, IsoMillis, IsoSeconds, KeyReader, Unordered};
use proptest::prelude::*;

use crate::adopt::legacy::{Order, OrderLine};

/// An ISO-8601 instant as hand-written code writes it, or a near miss:
/// another precision, an offset, a lower-case `t`/`z`, an impossible date.
fn iso_like() -> impl Strategy<Value = String> {
    (
        0u32..10_000,
        0u32..14,
        0u32..33,
        0u32..25,
        0u32..61,
        0u32..61,
        prop_oneof![Just(String::new()), "\\.[0-9]{1,4}".prop_map(|s: String| s),],
        prop_oneof![Just("Z"), Just("z"), Just("+00:00"), Just("")],
        prop_oneof![Just('T'), Just('t'), Just(' ')],
    )
        .prop_map(|(y, mo, d, h, mi, s, frac, zone, t)| {
            format!("{y:04}-{mo:02}-{d:02}{t}{h:02}:{mi:02}:{s:02}{frac}{zone}")
        })
}

/// A value segment of a hand-written key: ids, emails, and anything else
/// printable, delimiters and escape characters included.
fn value_like() -> impl Strategy<Value = String> {
    prop_oneof![
        "[A-Z]{3}-[0-9]{1,6}",
        "[a-z]{1,8}@[a-z]{1,8}\\.com",
        "[ -~]{0,10}",
    ]
}

fn number_like() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9]{1,4}",
        "0[0-9]{1,3}",
        "-?[0-9]{1,3}",
        "[ +a-z0-9]{0,3}"
    ]
}

/// A sort key of the order's shape or the line's, or one missing parts.
fn order_sort_key() -> impl Strategy<Value = String> {
    (
        prop_oneof![Just("ORDER"), Just("order"), Just("ORDER_")],
        iso_like(),
        value_like(),
        proptest::option::of((prop_oneof![Just("LINE"), Just("line")], number_like())),
    )
        .prop_map(|(literal, at, id, line)| match line {
            None => format!("{literal}#{at}#{id}"),
            Some((line_literal, n)) => format!("{literal}#{at}#{id}#{line_literal}#{n}"),
        })
}

/// Parses `sk` as `ORDER#{placed_at}#{order_id}` the way the derive does.
fn parse_order(sk: &str) -> Option<(IsoSeconds, String)> {
    let mut reader = KeyReader::new(sk);
    reader.literal("ORDER").ok()?;
    let at: IsoSeconds = reader.part().ok()?;
    let id: String = reader.part().ok()?;
    reader.finish().ok()?;
    Some((at, id))
}

fn parse_line(sk: &str) -> Option<(IsoSeconds, String, Unordered<u32>)> {
    let mut reader = KeyReader::new(sk);
    reader.literal("ORDER").ok()?;
    let at: IsoSeconds = reader.part().ok()?;
    let id: String = reader.part().ok()?;
    reader.literal("LINE").ok()?;
    let line: Unordered<u32> = reader.part().ok()?;
    reader.finish().ok()?;
    Some((at, id, line))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// A foreign sort key matches at most one of the two templates that
    /// share `ORDER#`, and the one it matches writes it back unchanged.
    #[test]
    fn foreign_keys_round_trip_through_decode_and_encode(sk in order_sort_key(), email in value_like()) {
        let pk = format!("USER#{email}");
        let is_order = Member::of::<Order>().key_matches(&pk, Some(&sk));
        let is_line = Member::of::<OrderLine>().key_matches(&pk, Some(&sk));
        prop_assert!(!(is_order && is_line), "{sk} matches both");
        // The user's value, as the template reads it back (escapes undone).
        let user = || {
            let mut reader = KeyReader::new(&pk);
            reader.literal("USER").ok()?;
            let email: String = reader.part().ok()?;
            reader.finish().ok()?;
            Some(email)
        };
        if is_order {
            let (at, id) = parse_order(&sk).expect("a match parses");
            let written = Order::key(user().expect("a match parses"), at, &id).unwrap();
            prop_assert_eq!(written.partition(), pk.as_str());
            prop_assert_eq!(written.sort(), sk.as_str());
        } else {
            prop_assert!(parse_order(&sk).is_none() || user().is_none());
        }
        if is_line {
            let (at, id, line) = parse_line(&sk).expect("a match parses");
            let written = OrderLine::key(user().expect("a match parses"), at, &id, line).unwrap();
            prop_assert_eq!(written.partition(), pk.as_str());
            prop_assert_eq!(written.sort(), sk.as_str());
        }
    }

    /// The ISO key parts read exactly what they write, and nothing else.
    #[test]
    fn iso_text_round_trips_or_is_refused(text in iso_like()) {
        if let Ok(at) = key::decode::<IsoSeconds>(&text) {
            prop_assert_eq!(key::encode(&at).unwrap(), text.clone());
        }
        if let Ok(at) = key::decode::<IsoMillis>(&text) {
            prop_assert_eq!(key::encode(&at).unwrap(), text);
        }
    }

    /// Order: fixed width, so byte order is time order.
    #[test]
    fn iso_seconds_sort_as_instants(a in 0i64..253_402_300_799, b in 0i64..253_402_300_799) {
        let (a, b) = (DateTime::<Utc>::from_timestamp(a, 0).unwrap(), DateTime::<Utc>::from_timestamp(b, 0).unwrap());
        let (ea, eb) = (key::encode(&IsoSeconds(a)).unwrap(), key::encode(&IsoSeconds(b)).unwrap());
        prop_assert_eq!(a.cmp(&b), ea.cmp(&eb));
        prop_assert_eq!(key::decode::<IsoSeconds>(&ea).unwrap(), IsoSeconds(a));
    }

    #[test]
    fn iso_millis_sort_as_instants(a in 0i64..253_402_300_799_999, b in 0i64..253_402_300_799_999) {
        let (a, b) = (DateTime::<Utc>::from_timestamp_millis(a).unwrap(), DateTime::<Utc>::from_timestamp_millis(b).unwrap());
        let (ea, eb) = (key::encode(&IsoMillis(a)).unwrap(), key::encode(&IsoMillis(b)).unwrap());
        prop_assert_eq!(a.cmp(&b), ea.cmp(&eb));
        prop_assert_eq!(key::decode::<IsoMillis>(&ea).unwrap(), IsoMillis(a));
    }

    /// Unpadded numbers: read exactly what is written, no byte above the
    /// delimiter broken, and honestly unordered.
    #[test]
    fn unordered_numbers_round_trip(n: i64, text in number_like()) {
        let written = key::encode(&Unordered(n)).unwrap();
        prop_assert!(written.bytes().all(|b| b > b'#'));
        prop_assert_eq!(key::decode::<Unordered<i64>>(&written).unwrap(), Unordered(n));
        if let Ok(value) = key::decode::<Unordered<u32>>(&text) {
            prop_assert_eq!(key::encode(&value).unwrap(), text);
        }
    }
}

#[test]
fn empty_segments_and_boundaries() {
    let order = Member::of::<Order>();
    let pk = "USER#a@b.com";
    for sk in [
        "ORDER##ORD-1",
        "ORDER#2026-03-01T09:00:00Z",
        "#ORDER#2026-03-01T09:00:00Z#ORD-1",
        "ORDER#2026-03-01T09:00:00Z#ORD-1#",
        "ORDER#2026-02-30T09:00:00Z#ORD-1",
        "ORDER#2026-03-01T24:00:00Z#ORD-1",
    ] {
        assert!(!order.key_matches(pk, Some(sk)), "{sk}");
    }
    // An empty last segment is an empty string id: it matches, and is
    // written back as it was.
    let empty_id = "ORDER#2026-03-01T09:00:00Z#";
    assert!(order.key_matches(pk, Some(empty_id)));
    let at = key::decode::<IsoSeconds>("2026-03-01T09:00:00Z").unwrap();
    assert_eq!(Order::key("a@b.com", at, "").unwrap().sort(), empty_id);
    assert!(order.key_matches(pk, Some("ORDER#0000-01-01T00:00:00Z#x")));
    assert!(order.key_matches(pk, Some("ORDER#9999-12-31T23:59:59Z#x")));
    assert!(!order.key_matches(pk, None));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Verbatim text reads exactly what it writes, and refuses what would
    /// forge a delimiter; two texts never share an encoding.
    #[test]
    fn verbatim_text_round_trips_or_is_refused(a in "\\PC{0,12}", b in "[ -&a#]{0,6}") {
        for text in [&a, &b] {
            let value = Unordered(text.clone());
            match key::encode(&value) {
                Ok(written) => {
                    prop_assert_eq!(&written, text);
                    prop_assert_eq!(key::decode::<Unordered<String>>(&written).unwrap(), value);
                }
                Err(_) => {
                    prop_assert!(text.contains('#'));
                    prop_assert!(key::decode::<Unordered<String>>(text).is_err());
                }
            }
        }
        if let (Ok(ea), Ok(eb)) = (key::encode(&Unordered(a.clone())), key::encode(&Unordered(b.clone()))) {
            prop_assert_eq!(a == b, ea == eb);
        }
    }
}
