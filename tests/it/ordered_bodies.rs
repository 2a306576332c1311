//! Range comparisons on body values compare the values (issue 25, item 3):
//! an instant stored with a fixed width (`IsoNanos`) or as a number
//! (`UnixMillis`) is filtered and conditioned in time order, with
//! fractional seconds of every width, on whichever server runs the suite.
//! chrono's own `DateTime<Utc>` text would not be (`…00.5Z` sorts before
//! `…00Z`): a range on it does not compile (tests/ui/expr).

use chrono::{DateTime, Duration, Utc};
use ddb_entity::key::{IsoNanos, UnixMillis};
use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

use crate::support::{App, app_table};

/// One reading of a device; its instant in the body twice, as fixed-width
/// text and as Unix milliseconds, and once as chrono writes it (equality
/// only).
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "DEVICE#{device}", sk = "EVENT#{seq}")]
struct Event {
    device: u32,
    seq: u32,
    at: IsoNanos,
    at_ms: Option<UnixMillis>,
    chrono_at: DateTime<Utc>,
}

fn t0() -> DateTime<Utc> {
    DateTime::from_timestamp(1_773_480_600, 0).unwrap()
}

/// Offsets from `t0` in nanoseconds, with fractions of every width: none,
/// one digit, six, nine; and instants just before and after.
const OFFSETS: [i64; 9] = [
    -1_000_000_000,
    -1,
    0,
    500_000_000,
    999_999_000,
    123_456_789,
    1,
    1_000_000_000,
    86_400_000_000_000,
];

async fn seed(db: &Db<App>) {
    for (seq, offset) in (0u32..).zip(OFFSETS) {
        let at = t0() + Duration::nanoseconds(offset);
        let whole_millis = offset % 1_000_000 == 0;
        db.put(&Event {
            device: 7,
            seq,
            at: IsoNanos(at),
            at_ms: whole_millis.then_some(UnixMillis(at)),
            chrono_at: at,
        })
        .await
        .unwrap();
    }
}

/// The offsets of the events a filter returns, sorted.
async fn offsets(db: &Db<App>, filter: ddb_entity::Condition<Event>) -> Vec<i64> {
    let events: Vec<Event> = db
        .query(Event::partition(7u32).unwrap())
        .filter(filter)
        .all()
        .await
        .unwrap();
    let mut found: Vec<i64> = events
        .iter()
        .map(|e| (e.at.0 - t0()).num_nanoseconds().unwrap())
        .collect();
    found.sort_unstable();
    found
}

fn expected(keep: impl Fn(i64) -> bool) -> Vec<i64> {
    let mut out: Vec<i64> = OFFSETS.into_iter().filter(|&o| keep(o)).collect();
    out.sort_unstable();
    out
}

#[tokio::test]
async fn a_filter_gt_on_an_instant_returns_exactly_the_later_events() {
    let (_dynamo, db) = app_table().await;
    seed(&db).await;
    let f = Event::fields();
    let t0 = t0();

    assert_eq!(
        offsets(&db, f.at.gt(IsoNanos(t0))).await,
        expected(|o| o > 0),
        "t0 + 0.5 s, + 0.999999 s, + 0.123456789 s and + 1 ns are later than t0"
    );
    assert_eq!(
        offsets(&db, f.at.ge(IsoNanos(t0))).await,
        expected(|o| o >= 0)
    );
    assert_eq!(
        offsets(&db, f.at.lt(IsoNanos(t0))).await,
        expected(|o| o < 0)
    );
    assert_eq!(
        offsets(&db, f.at.le(IsoNanos(t0))).await,
        expected(|o| o <= 0)
    );
    let half = t0 + Duration::milliseconds(500);
    assert_eq!(
        offsets(&db, f.at.between(IsoNanos(t0), IsoNanos(half))).await,
        expected(|o| (0..=500_000_000).contains(&o))
    );

    // The same in Unix milliseconds (a number, compared by value); the
    // events finer than a millisecond carry none.
    assert_eq!(
        offsets(&db, f.at_ms.gt(Some(UnixMillis(t0)))).await,
        expected(|o| o > 0 && o % 1_000_000 == 0)
    );

    // Equality works on every type, chrono's own text included.
    assert_eq!(offsets(&db, f.chrono_at.equals(half)).await, [500_000_000]);
}

#[tokio::test]
async fn a_condition_compares_instants_in_time_order() {
    let (_dynamo, db) = app_table().await;
    seed(&db).await;
    let f = Event::fields();
    // Event 3 is at t0 + 0.5 s: later than t0, though chrono's text of it
    // (`…00.5Z`) sorts before t0's (`…00Z`).
    let mut event = Event {
        device: 7,
        seq: 3,
        at: IsoNanos(t0() + Duration::milliseconds(500)),
        at_ms: Some(UnixMillis(t0() + Duration::milliseconds(500))),
        chrono_at: t0() + Duration::milliseconds(500),
    };
    let err = db
        .put(&event)
        .condition(f.at.lt(IsoNanos(t0())))
        .await
        .unwrap_err();
    assert!(err.is_condition_failed(), "{err:?}");
    event.chrono_at = t0();
    db.put(&event)
        .condition(f.at.gt(IsoNanos(t0())))
        .await
        .unwrap();
    let stored: Event = db
        .get(Event::key(7u32, 3u32).unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.chrono_at, t0());
}

#[test]
fn the_stored_forms_are_fixed_width_text_and_numbers() {
    let at = t0() + Duration::milliseconds(500);
    let item = Event {
        device: 7,
        seq: 1,
        at: IsoNanos(at),
        at_ms: Some(UnixMillis(at)),
        chrono_at: at,
    }
    .to_item()
    .unwrap();
    assert_eq!(item["at"].as_s().unwrap(), "2026-03-14T09:30:00.500000000Z");
    assert_eq!(item["at_ms"].as_n().unwrap(), "1773480600500");
    // chrono's own: as many digits as it needs.
    assert_eq!(
        item["chrono_at"].as_s().unwrap(),
        "2026-03-14T09:30:00.500Z"
    );
}

/// Every body type offered to range comparisons, stored by the library's
/// own encoder, sorts as DynamoDB compares it (`S` by UTF-8 bytes, `N` by
/// value) in the order of its values, for every value.
mod stored_order {
    use std::cmp::Ordering;
    use std::fmt::Debug;

    use chrono::{DateTime, Duration, Utc};
    use ddb_entity::OrderedValue;
    use ddb_entity::codec::to_attribute_value;
    use ddb_entity::key::{IsoMillis, IsoNanos, IsoSeconds, UnixMillis, UnixSeconds};
    use ddb_entity::sdk::types::AttributeValue;
    use proptest::prelude::*;
    use serde::Serialize;

    /// A plain decimal `[-]digits[.digits]`, as the encoder writes numbers,
    /// compared by value: what DynamoDB does with `N`.
    fn decimal_cmp(a: &str, b: &str) -> Ordering {
        fn parts(s: &str) -> (bool, &str, &str) {
            let (negative, s) = s.strip_prefix('-').map_or((false, s), |s| (true, s));
            let (int, frac) = s.split_once('.').unwrap_or((s, ""));
            assert!(
                int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()),
                "not a plain decimal: {s:?}"
            );
            (
                negative,
                int.trim_start_matches('0'),
                frac.trim_end_matches('0'),
            )
        }
        let magnitude = |(_, ai, af): (bool, &str, &str), (_, bi, bf): (bool, &str, &str)| {
            ai.len()
                .cmp(&bi.len())
                .then_with(|| ai.cmp(bi))
                .then_with(|| af.cmp(bf))
        };
        let (pa, pb) = (parts(a), parts(b));
        let zero = |p: &(bool, &str, &str)| p.1.is_empty() && p.2.is_empty();
        let sign = |p: &(bool, &str, &str)| {
            if zero(p) {
                0
            } else if p.0 {
                -1
            } else {
                1
            }
        };
        match sign(&pa).cmp(&sign(&pb)) {
            Ordering::Equal if sign(&pa) < 0 => magnitude(pb, pa),
            Ordering::Equal => magnitude(pa, pb),
            other => other,
        }
    }

    fn stored_cmp(a: &AttributeValue, b: &AttributeValue) -> Option<Ordering> {
        match (a, b) {
            (AttributeValue::S(a), AttributeValue::S(b)) => Some(a.as_bytes().cmp(b.as_bytes())),
            (AttributeValue::N(a), AttributeValue::N(b)) => Some(decimal_cmp(a, b)),
            _ => None,
        }
    }

    fn assert_sorts<T: OrderedValue + Serialize + Debug>(
        a: &T,
        b: &T,
        values: Ordering,
    ) -> Result<(), TestCaseError> {
        let (sa, sb) = (
            to_attribute_value(a).unwrap(),
            to_attribute_value(b).unwrap(),
        );
        prop_assert_eq!(
            stored_cmp(&sa, &sb),
            Some(values),
            "{:?} vs {:?} stored as {:?} vs {:?}",
            a,
            b,
            sa,
            sb
        );
        Ok(())
    }

    macro_rules! ints {
        ($($name:ident: $t:ty),*) => {$(
            proptest! {
                #[test]
                fn $name(a: $t, b: $t) {
                    assert_sorts(&a, &b, a.cmp(&b))?;
                }
            }
        )*};
    }
    ints!(i8s: i8, i16s: i16, i32s: i32, i64s: i64, isizes: isize, u8s: u8, u16s: u16, u32s: u32, u64s: u64, usizes: usize);

    proptest! {
        #[test]
        fn floats(a in proptest::num::f64::NORMAL | proptest::num::f64::SUBNORMAL | proptest::num::f64::ZERO,
                  b in proptest::num::f64::NORMAL | proptest::num::f64::SUBNORMAL | proptest::num::f64::ZERO) {
            assert_sorts(&a, &b, a.partial_cmp(&b).unwrap())?;
            let (a32, b32) = (a as f32, b as f32);
            if a32.is_finite() && b32.is_finite() {
                assert_sorts(&a32, &b32, a32.partial_cmp(&b32).unwrap())?;
            }
        }

        #[test]
        fn strings_and_chars(a: String, b: String, ca: char, cb: char) {
            assert_sorts(&a, &b, a.cmp(&b))?;
            assert_sorts(&ca, &cb, ca.cmp(&cb))?;
        }

        /// Instants with fractions of every width: whole seconds, one
        /// digit, milliseconds, microseconds, nanoseconds, mixed.
        #[test]
        fn instants(secs_a in -62_135_596_800i64..253_402_300_798, secs_b in -62_135_596_800i64..253_402_300_800,
                    nanos_a in prop_oneof![Just(0u32), 0u32..10, (0u32..10).prop_map(|d| d * 100_000_000), (0u32..1_000).prop_map(|m| m * 1_000_000), (0u32..1_000_000).prop_map(|u| u * 1_000), 0u32..1_000_000_000],
                    nanos_b in 0u32..1_000_000_000,
                    near in any::<bool>()) {
            let a = DateTime::<Utc>::from_timestamp(secs_a, nanos_a).unwrap();
            // Half the pairs within a second of each other: where widths differ.
            let b = if near {
                a + Duration::nanoseconds(i64::from(nanos_b) - 500_000_000)
            } else {
                DateTime::<Utc>::from_timestamp(secs_b, nanos_b).unwrap()
            };
            assert_sorts(&IsoNanos(a), &IsoNanos(b), a.cmp(&b))?;
            let whole = |t: DateTime<Utc>, unit: u32| t.timestamp_subsec_nanos().is_multiple_of(unit);
            if whole(a, 1_000_000) && whole(b, 1_000_000) {
                assert_sorts(&IsoMillis(a), &IsoMillis(b), a.cmp(&b))?;
                assert_sorts(&UnixMillis(a), &UnixMillis(b), a.cmp(&b))?;
                assert_sorts(&Some(UnixMillis(a)), &Some(UnixMillis(b)), a.cmp(&b))?;
            }
            if whole(a, 1_000_000_000) && whole(b, 1_000_000_000) {
                assert_sorts(&IsoSeconds(a), &IsoSeconds(b), a.cmp(&b))?;
                assert_sorts(&UnixSeconds(a), &UnixSeconds(b), a.cmp(&b))?;
            }
            // Rounded to whole units, every instant has each form.
            let (ma, mb) = (trunc(a, 1_000_000), trunc(b, 1_000_000));
            assert_sorts(&UnixMillis(ma), &UnixMillis(mb), ma.cmp(&mb))?;
            let (sa, sb) = (trunc(a, 1_000_000_000), trunc(b, 1_000_000_000));
            assert_sorts(&UnixSeconds(sa), &UnixSeconds(sb), sa.cmp(&sb))?;
            assert_sorts(&IsoSeconds(sa), &IsoSeconds(sb), sa.cmp(&sb))?;
        }
    }

    fn trunc(t: DateTime<Utc>, unit: u32) -> DateTime<Utc> {
        let nanos = t.timestamp_subsec_nanos();
        t - Duration::nanoseconds(i64::from(nanos % unit))
    }

    /// The reason the forms exist: chrono's own text does not sort as time.
    #[test]
    fn chronos_own_text_does_not_sort_as_time() {
        let t0 = DateTime::<Utc>::from_timestamp(1_773_480_600, 0).unwrap();
        let half = t0 + Duration::milliseconds(500);
        let (s0, sh) = (
            to_attribute_value(&t0).unwrap(),
            to_attribute_value(&half).unwrap(),
        );
        assert_eq!(
            stored_cmp(&sh, &s0),
            Some(Ordering::Less),
            "{sh:?} < {s0:?}"
        );
        assert_eq!(
            stored_cmp(
                &to_attribute_value(&IsoNanos(half)).unwrap(),
                &to_attribute_value(&IsoNanos(t0)).unwrap()
            ),
            Some(Ordering::Greater)
        );
    }
}
