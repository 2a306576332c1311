//! Whole keys: tuple order ⇔ byte order of the `#`-joined key, round trip
//! through `KeyReader`, and no key injection.

use std::cmp::Ordering;
use std::fmt::Debug;

use chrono::{DateTime, NaiveDate, Utc};
use ddb_entity::key::{self, KeyBuf, KeyError, KeyReader};
use proptest::prelude::*;
use uuid::Uuid;

use super::strings::{text, text_pair};
use super::time::{date, datetime};

/// The tuple contract for one pair: the keys compare as `cmp` says the
/// tuples do, equal keys only from equal tuples, and both keys read back.
fn assert_keys<T: Debug + PartialEq>(
    a: &T,
    b: &T,
    cmp: Option<Ordering>,
    build: impl Fn(&T) -> Result<String, KeyError>,
    read: impl Fn(&str) -> Result<T, KeyError>,
) -> Result<(), TestCaseError> {
    let (ka, kb) = (build(a)?, build(b)?);
    prop_assert_eq!(
        Some(ka.cmp(&kb)),
        cmp,
        "{:?} {:?} -> {:?} {:?}",
        a,
        b,
        ka,
        kb
    );
    if ka == kb {
        prop_assert_eq!(a, b);
    }
    prop_assert_eq!(&read(&ka)?, a);
    prop_assert_eq!(&read(&kb)?, b);
    Ok(())
}

fn small_u32() -> impl Strategy<Value = u32> {
    prop_oneof![0u32..3, any::<u32>()]
}

fn small_i64() -> impl Strategy<Value = i64> {
    prop_oneof![-2i64..3, any::<i64>()]
}

type Order = (String, u32, i64);

fn order_key(t: &Order) -> Result<String, KeyError> {
    let mut k = KeyBuf::new();
    k.literal("ORDER")
        .part(&t.0)?
        .part(&t.1)?
        .literal("AT")
        .part(&t.2)?;
    Ok(k.finish())
}

fn read_order(key: &str) -> Result<Order, KeyError> {
    let mut r = KeyReader::new(key);
    r.literal("ORDER")?;
    let s = r.part()?;
    let n = r.part()?;
    r.literal("AT")?;
    let i = r.part()?;
    r.finish()?;
    Ok((s, n, i))
}

fn name_key(t: &(String, String)) -> Result<String, KeyError> {
    let mut k = KeyBuf::new();
    k.literal("NAME").part(&t.0)?.part(&t.1)?;
    Ok(k.finish())
}

fn read_name(key: &str) -> Result<(String, String), KeyError> {
    let mut r = KeyReader::new(key);
    r.literal("NAME")?;
    let parts = (r.part()?, r.part()?);
    r.finish()?;
    Ok(parts)
}

proptest! {
    #[test]
    fn string_u32_i64((s, t) in text_pair(), n in (small_u32(), small_u32()), i in (small_i64(), small_i64())) {
        let (a, b) = ((s, n.0, i.0), (t, n.1, i.1));
        assert_keys(&a, &b, Some(a.cmp(&b)), order_key, read_order)?;
    }

    #[test]
    fn last_name_first_name((l1, l2) in text_pair(), (f1, f2) in text_pair()) {
        let (a, b) = ((l1, f1), (l2, f2));
        assert_keys(&a, &b, Some(a.cmp(&b)), name_key, read_name)?;
    }

    #[test]
    fn date_string(
        d in (date(), 0i64..3).prop_map(|(d, k)| (d, d + chrono::Days::new(k as u64))),
        (s, t) in text_pair(),
    ) {
        let (a, b) = ((d.0, s), (d.1, t));
        let build = |x: &(NaiveDate, String)| {
            let mut k = KeyBuf::new();
            k.part(&x.0)?.part(&x.1)?;
            k.finish_partition()
        };
        let read = |key: &str| {
            let mut r = KeyReader::new(key);
            let parts = (r.part()?, r.part()?);
            r.finish()?;
            Ok(parts)
        };
        assert_keys(&a, &b, Some(a.cmp(&b)), build, read)?;
    }

    #[test]
    fn f64_string(
        x in prop_oneof![Just(0.0), Just(-0.0), -2.0f64..2.0, any::<f64>()].prop_filter("no NaN", |x| !x.is_nan()),
        y in prop_oneof![Just(0.0), Just(-0.0), -2.0f64..2.0, any::<f64>()].prop_filter("no NaN", |x| !x.is_nan()),
        (s, t) in text_pair(),
    ) {
        let (a, b) = ((x, s), (y, t));
        let cmp = a.0.partial_cmp(&b.0).map(|o| o.then_with(|| a.1.cmp(&b.1)));
        let build = |x: &(f64, String)| {
            let mut k = KeyBuf::new();
            k.literal("PRICE").part(&x.0)?.part(&x.1)?;
            Ok(k.finish())
        };
        let read = |key: &str| {
            let mut r = KeyReader::new(key);
            r.literal("PRICE")?;
            let parts = (r.part()?, r.part()?);
            r.finish()?;
            Ok(parts)
        };
        assert_keys(&a, &b, cmp, build, read)?;
    }

    #[test]
    fn datetime_uuid_bool_char(
        at in prop_oneof![(datetime(), datetime()), datetime().prop_map(|a| (a, a))],
        id in prop_oneof![(0u128..2, 0u128..2), any::<(u128, u128)>()],
        flag in any::<(bool, bool)>(),
        c in prop_oneof![(Just('#'), Just(' ')), any::<(char, char)>()],
    ) {
        type T = (DateTime<Utc>, bool, Uuid, char);
        let a: T = (at.0, flag.0, Uuid::from_u128(id.0), c.0);
        let b: T = (at.1, flag.1, Uuid::from_u128(id.1), c.1);
        let build = |x: &T| {
            let mut k = KeyBuf::new();
            k.literal("EV").part(&x.0)?.part(&x.1)?.part(&x.2)?.part(&x.3)?;
            Ok(k.finish())
        };
        let read = |key: &str| {
            let mut r = KeyReader::new(key);
            r.literal("EV")?;
            let parts = (r.part()?, r.part()?, r.part()?, r.part()?);
            r.finish()?;
            Ok(parts)
        };
        assert_keys(&a, &b, Some(a.cmp(&b)), build, read)?;
    }

    /// A value that spells a delimiter and another hole's encoding still
    /// lands in its own hole: a one-hole key never equals a two-hole key,
    /// and never parses as one.
    #[test]
    fn no_key_injection(t in text(), n in any::<u32>(), extra in text()) {
        let forged = format!("{t}#{}", key::encode(&n)?);
        let mut one = KeyBuf::new();
        one.literal("USER").part(&forged)?;
        let one = one.finish();
        let mut two = KeyBuf::new();
        two.literal("USER").part(&t)?.part(&n)?;
        let two = two.finish();
        prop_assert_ne!(&one, &two);

        let mut r = KeyReader::new(&one);
        r.literal("USER")?;
        prop_assert_eq!(r.part::<String>()?, forged);
        let missing = r.part::<u32>();
        prop_assert!(
            matches!(missing, Err(KeyError::MissingSegment { index: 2, .. })),
            "{:?}",
            missing
        );

        // Keys of one template stay in their own segments whatever the text.
        let mut k = KeyBuf::new();
        k.literal("A").part(&extra)?.literal("B");
        prop_assert_eq!(k.as_str().matches('#').count(), 2);
    }
}

#[test]
fn reader_errors_name_the_segment() {
    let mut r = KeyReader::new("ORDER#2026-03-14#oops");
    r.literal("ORDER").unwrap();
    r.part::<NaiveDate>().unwrap();
    let err = r.part::<u64>().unwrap_err();
    let KeyError::Segment {
        index,
        found,
        expected,
        source,
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!((*index, found.as_str(), *expected), (2, "oops", "u64"));
    assert!(matches!(**source, KeyError::Malformed { .. }));
    let message = err.to_string();
    assert!(message.contains("segment 2"), "{message}");
    assert!(message.contains("\"oops\""), "{message}");
    assert!(message.contains("u64 (20 zero-padded digits)"), "{message}");
    assert!(std::error::Error::source(&err).is_some());

    assert_eq!(
        KeyReader::new("CUST#1").literal("ORDER"),
        Err(KeyError::UnexpectedLiteral {
            index: 0,
            expected: "ORDER".into(),
            found: "CUST".into()
        })
    );
    let mut r = KeyReader::new("ORDER");
    r.literal("ORDER").unwrap();
    assert_eq!(
        r.literal("ITEM"),
        Err(KeyError::MissingSegment {
            index: 1,
            expected: "the literal \"ITEM\"".into()
        })
    );
    let mut r = KeyReader::new("ORDER##");
    r.literal("ORDER").unwrap();
    assert_eq!(r.part::<String>().unwrap(), "");
    assert_eq!(
        r.finish(),
        Err(KeyError::TrailingSegments {
            index: 2,
            rest: String::new()
        })
    );
    // A huge foreign segment is quoted, not copied whole.
    let long = format!("ORDER#{}", "x".repeat(10_000));
    let mut r = KeyReader::new(&long);
    r.literal("ORDER").unwrap();
    assert!(r.part::<u8>().unwrap_err().to_string().len() < 400);
}

#[test]
fn prefixes_end_at_component_boundaries() {
    let mut p = KeyBuf::new();
    p.literal("NAME").part("Smith").unwrap();
    let p = p.finish_prefix();
    assert_eq!(p, "NAME#Smith#");
    assert!(
        name_key(&("Smith".into(), "Ann".into()))
            .unwrap()
            .starts_with(&p)
    );
    assert!(
        !name_key(&("Smithson".into(), "Ann".into()))
            .unwrap()
            .starts_with(&p)
    );
    assert!(
        !name_key(&("Smith Jr".into(), "Ann".into()))
            .unwrap()
            .starts_with(&p)
    );
    assert_eq!(KeyBuf::new().finish_prefix(), "");
}

#[test]
fn empty_partition_keys_are_errors() {
    let mut k = KeyBuf::new();
    k.part("").unwrap();
    assert_eq!(k.finish_partition(), Err(KeyError::EmptyKey));
    assert_eq!(KeyBuf::new().finish_partition(), Err(KeyError::EmptyKey));
    // The empty component is a fine sort-key part, and a literal makes the key non-empty.
    let mut k = KeyBuf::new();
    k.literal("CUST").part("").unwrap();
    assert_eq!(k.finish_partition(), Ok("CUST#".into()));
}
