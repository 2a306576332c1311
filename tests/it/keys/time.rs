//! chrono dates and times: fixed width, exact round trip, leap seconds.

use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, NaiveTime, TimeDelta, Timelike, Utc};
use ddb_entity::key::{self, KeyError};
use proptest::prelude::*;

use super::{assert_contract, enc};

fn day_number(year: i32) -> i32 {
    NaiveDate::from_ymd_opt(year, 1, 1)
        .expect("a valid year")
        .num_days_from_ce()
}

/// Dates in the encodable years 0000..=9999.
pub(super) fn date() -> impl Strategy<Value = NaiveDate> {
    prop_oneof![
        day_number(0)..day_number(10_000),
        day_number(1990)..day_number(2040),
    ]
    .prop_map(|n| NaiveDate::from_num_days_from_ce_opt(n).expect("in chrono's range"))
}

/// Times of day, leap seconds included (chrono allows them after :59).
pub(super) fn time() -> impl Strategy<Value = NaiveTime> {
    let nanos = prop_oneof![
        0u32..2_000_000_000,
        Just(0),
        Just(999_999_999),
        Just(1_000_000_000)
    ];
    (0u32..86_400, nanos).prop_map(|(secs, nanos)| {
        let nanos = if secs % 60 == 59 {
            nanos
        } else {
            nanos % 1_000_000_000
        };
        NaiveTime::from_num_seconds_from_midnight_opt(secs, nanos).expect("a valid time")
    })
}

pub(super) fn datetime() -> impl Strategy<Value = DateTime<Utc>> {
    (date(), time()).prop_map(|(d, t)| d.and_time(t).and_utc())
}

/// Pairs that are often equal or a few (nano)seconds apart.
fn datetime_pair() -> impl Strategy<Value = (DateTime<Utc>, DateTime<Utc>)> {
    prop_oneof![
        (datetime(), datetime()),
        datetime().prop_map(|a| (a, a)),
        (datetime(), -2_000_000_000i64..2_000_000_000).prop_filter_map(
            "near the ends of year 9999",
            |(a, d)| {
                let b = a.checked_add_signed(TimeDelta::nanoseconds(d))?;
                (0..=9999).contains(&b.year()).then_some((a, b))
            }
        ),
    ]
}

proptest! {
    #[test]
    fn date_contract(a in date(), b in date()) {
        assert_contract(&a, &b)?;
        prop_assert_eq!(enc(&a).len(), 10);
    }

    #[test]
    fn time_contract(a in time(), b in time()) {
        assert_contract(&a, &b)?;
        prop_assert_eq!(enc(&a).len(), 18);
    }

    #[test]
    fn datetime_contract((a, b) in datetime_pair()) {
        assert_contract(&a, &b)?;
        assert_contract(&a.naive_utc(), &b.naive_utc())?;
        prop_assert_eq!(enc(&a).len(), 30);
        prop_assert_eq!(enc(&a), enc(&a.naive_utc()) + "Z");
    }

    #[test]
    fn years_outside_0000_to_9999_are_errors(
        n in NaiveDate::MIN.num_days_from_ce()..=NaiveDate::MAX.num_days_from_ce()
    ) {
        if let Some(d) = NaiveDate::from_num_days_from_ce_opt(n) {
            let encoded = key::encode(&d);
            let dt = key::encode(&d.and_time(NaiveTime::MIN).and_utc());
            if (0..=9999).contains(&d.year()) {
                prop_assert_eq!(key::decode::<NaiveDate>(&encoded?)?, d);
                prop_assert!(dt.is_ok());
            } else {
                let err = KeyError::OutOfRange { what: "year", value: d.year().to_string() };
                prop_assert_eq!(encoded, Err(err.clone()));
                prop_assert_eq!(dt, Err(err));
            }
        }
    }

    #[test]
    fn decoding_accepts_only_canonical_text(
        text in "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{9}Z?"
    ) {
        if let Ok(x) = key::decode::<DateTime<Utc>>(&text) {
            prop_assert_eq!(enc(&x), text.clone());
        }
        if let Ok(x) = key::decode::<NaiveDateTime>(&text) {
            prop_assert_eq!(enc(&x), text.clone());
        }
        if let Ok(x) = key::decode::<NaiveDate>(&text[..10]) {
            prop_assert_eq!(enc(&x), &text[..10]);
        }
    }
}

#[test]
fn formats() {
    let d = NaiveDate::from_ymd_opt(2026, 3, 14).unwrap();
    assert_eq!(enc(&d), "2026-03-14");
    assert_eq!(
        enc(&NaiveDate::from_ymd_opt(0, 1, 1).unwrap()),
        "0000-01-01"
    );
    assert_eq!(
        enc(&NaiveDate::from_ymd_opt(9999, 12, 31).unwrap()),
        "9999-12-31"
    );
    let t = NaiveTime::from_hms_nano_opt(9, 31, 0, 5).unwrap();
    assert_eq!(enc(&t), "09:31:00.000000005");
    assert_eq!(enc(&d.and_time(t)), "2026-03-14T09:31:00.000000005");
    assert_eq!(
        enc(&d.and_time(t).and_utc()),
        "2026-03-14T09:31:00.000000005Z"
    );
}

#[test]
fn a_leap_second_is_second_60_and_sorts_inside_its_minute() {
    let d = NaiveDate::from_ymd_opt(2016, 12, 31).unwrap();
    let before = d
        .and_hms_nano_opt(23, 59, 59, 999_999_999)
        .unwrap()
        .and_utc();
    let leap = d
        .and_hms_nano_opt(23, 59, 59, 1_500_000_000)
        .unwrap()
        .and_utc();
    let after = NaiveDate::from_ymd_opt(2017, 1, 1)
        .unwrap()
        .and_hms_opt(0, 0, 0)
        .unwrap()
        .and_utc();
    assert_eq!(enc(&leap), "2016-12-31T23:59:60.500000000Z");
    assert!(enc(&before) < enc(&leap) && enc(&leap) < enc(&after));
    assert_eq!(key::decode::<DateTime<Utc>>(&enc(&leap)), Ok(leap));
    assert_eq!(leap.nanosecond(), 1_500_000_000);
    // chrono allows a leap second after any minute's :59, never a :61.
    assert!(key::decode::<NaiveTime>("12:00:60.000000000").is_ok());
    assert!(key::decode::<NaiveTime>("12:00:61.000000000").is_err());
}

#[test]
fn decoding_rejects_near_misses() {
    for bad in [
        "2026-3-14",
        "2026-03-14T",
        "2026/03/14",
        "+2026-03-14",
        "2026-02-30",
        "2026-13-01",
        "2026-00-10",
        "20260314",
        "２０２６-03-14",
    ] {
        assert!(key::decode::<NaiveDate>(bad).is_err(), "{bad:?}");
    }
    for bad in [
        "2026-03-14T09:31:00.000000000",
        "2026-03-14T09:31:00.000Z",
        "2026-03-14T09:31:00Z",
        "2026-03-14 09:31:00.000000000Z",
        "2026-03-14T09:31:00.000000000+00:00",
        "2026-03-14T09:31:00.000000000z",
        "2026-03-14T24:00:00.000000000Z",
        "2026-03-14T09:60:00.000000000Z",
        "2026-03-14T09:31:00.000000000ZZ",
    ] {
        assert!(key::decode::<DateTime<Utc>>(bad).is_err(), "{bad:?}");
    }
}

/// Instants in fixed-width forms (issue 25): RFC 3339 with nine fraction
/// digits, Unix seconds and milliseconds. Order, round trip, injectivity,
/// and refusal of what cannot be written back.
mod fixed_instants {
    use chrono::{DateTime, Utc};
    use ddb_entity::key::{self, IsoNanos, KeyError, UnixMillis, UnixSeconds};
    use proptest::prelude::*;

    use super::super::assert_contract;

    fn instant() -> impl Strategy<Value = DateTime<Utc>> {
        (
            -62_167_219_200i64..253_402_300_800,
            prop_oneof![
                Just(0u32),
                (0u32..10).prop_map(|d| d * 100_000_000),
                (0u32..1_000).prop_map(|m| m * 1_000_000),
                0u32..1_000_000_000
            ],
        )
            .prop_map(|(s, n)| DateTime::from_timestamp(s, n).unwrap())
    }

    fn unix_seconds() -> impl Strategy<Value = i64> {
        prop_oneof![0i64..10_000_000_000, 1_700_000_000i64..1_800_000_000]
    }

    proptest! {
        #[test]
        fn iso_nanos_keeps_the_contract(a in instant(), b in instant()) {
            assert_contract(&IsoNanos(a), &IsoNanos(b))?;
            prop_assert_eq!(key::encode(&IsoNanos(a)).unwrap().len(), 30);
        }

        #[test]
        fn unix_seconds_keep_the_contract(a in unix_seconds(), b in unix_seconds()) {
            let (a, b) = (UnixSeconds::from_count(a).unwrap(), UnixSeconds::from_count(b).unwrap());
            assert_contract(&a, &b)?;
        }

        #[test]
        fn unix_millis_keep_the_contract(a in unix_seconds(), b in unix_seconds(), ma in 0i64..1000, mb in 0i64..1000) {
            let a = UnixMillis::from_count(a * 1000 + ma).unwrap();
            let b = UnixMillis::from_count(b * 1000 + mb).unwrap();
            assert_contract(&a, &b)?;
        }
    }

    #[test]
    fn seed_003s_timestamp_and_what_cannot_be_written_back() {
        let at = UnixSeconds::from_count(1_750_000_000).unwrap();
        assert_eq!(key::encode(&at).unwrap(), "1750000000");
        assert_eq!(
            key::encode(&UnixSeconds::from_count(0).unwrap()).unwrap(),
            "0000000000"
        );
        let out = |r: Result<String, KeyError>| matches!(r, Err(KeyError::OutOfRange { .. }));
        // Before 1970, past 2286, finer than the unit: refused.
        assert!(out(key::encode(&UnixSeconds::from_count(-1).unwrap())));
        assert!(out(key::encode(
            &UnixSeconds::from_count(10_000_000_000).unwrap()
        )));
        assert!(out(key::encode(&UnixSeconds(
            at.0 + chrono::Duration::nanoseconds(1)
        ))));
        assert!(out(key::encode(&UnixMillis(
            at.0 + chrono::Duration::microseconds(1)
        ))));
        // Strict reading: the width, digits only.
        for bad in ["175000000", "17500000000", "+750000000", "175000000a", ""] {
            assert!(key::decode::<UnixSeconds>(bad).is_err(), "{bad:?}");
        }
        assert!(key::decode::<IsoNanos>("2026-03-14T09:30:00.5Z").is_err());
        assert!(key::decode::<IsoNanos>("2026-03-14T09:30:00.500000000Z").is_ok());
    }
}
