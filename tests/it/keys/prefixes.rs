//! `PrefixOf` cuts: the cut's encoding is a byte-prefix of exactly the
//! values under it.

use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, Utc};
use ddb_entity::key::{KeyBuf, KeyError, PrefixOf, StrPrefix, Year, YearMonth};
use proptest::prelude::*;

use super::strings::text;
use super::time::{date, datetime};
use super::{assert_component_bytes, enc};

fn cut<T: ?Sized, P: PrefixOf<T> + ?Sized>(p: &P) -> Result<String, KeyError> {
    let mut out = String::new();
    p.encode_prefix(&mut out)?;
    Ok(out)
}

/// A string and a candidate prefix: often a real prefix (cut at a char
/// boundary), often a near miss.
fn text_and_prefix() -> impl Strategy<Value = (String, String)> {
    prop_oneof![
        (text(), any::<prop::sample::Index>()).prop_map(|(s, i)| {
            let bounds: Vec<usize> = s.char_indices().map(|(i, _)| i).chain([s.len()]).collect();
            let at = bounds[i.index(bounds.len())];
            (s.clone(), s[..at].to_owned())
        }),
        (text(), text()),
        (text(), text()).prop_map(|(s, t)| (s.clone() + &t, s + "$")),
    ]
}

proptest! {
    #[test]
    fn string_prefix((s, p) in text_and_prefix()) {
        let c = cut::<String, _>(&StrPrefix(&p))?;
        assert_component_bytes(&c)?;
        prop_assert_eq!(enc(&s).starts_with(&c), s.starts_with(&p), "{:?} {:?}", s, p);
        prop_assert_eq!(cut::<str, _>(&StrPrefix(&p))?, c);
    }

    #[test]
    fn year_month_day_cuts_of_dates(d in date(), y in 0u16..10_000, m in 1u8..=12, other in date()) {
        let e = enc(&d);
        let same_year = u16::try_from(d.year()).unwrap_or(u16::MAX);
        for year in [y, same_year] {
            let c = cut::<NaiveDate, _>(&Year(year))?;
            prop_assert_eq!(e.starts_with(&c), d.year() == i32::from(year));
        }
        for (year, month) in [(y, m), (same_year, m), (same_year, u8::try_from(d.month()).unwrap_or(0))] {
            let c = cut::<NaiveDate, _>(&YearMonth(year, month))?;
            prop_assert_eq!(e.starts_with(&c), (d.year(), d.month()) == (i32::from(year), u32::from(month)));
        }
        // A whole date is a component, not a cut, of a date; check distinctness.
        prop_assert_eq!(e == enc(&other), d == other);
    }

    #[test]
    fn year_month_day_cuts_of_datetimes(t in datetime(), day in date(), y in 0u16..10_000, m in 1u8..=12) {
        let e = enc(&t);
        let n = enc(&t.naive_utc());
        let (year, month) = (u16::try_from(t.year()).unwrap_or(u16::MAX), u8::try_from(t.month()).unwrap_or(0));
        for ym in [YearMonth(y, m), YearMonth(year, month), YearMonth(year, m)] {
            let under = (t.year(), t.month()) == (i32::from(ym.0), u32::from(ym.1));
            prop_assert_eq!(e.starts_with(&cut::<DateTime<Utc>, _>(&ym)?), under);
            prop_assert_eq!(n.starts_with(&cut::<NaiveDateTime, _>(&ym)?), under);
        }
        for yr in [Year(y), Year(year)] {
            let under = t.year() == i32::from(yr.0);
            prop_assert_eq!(e.starts_with(&cut::<DateTime<Utc>, _>(&yr)?), under);
            prop_assert_eq!(n.starts_with(&cut::<NaiveDateTime, _>(&yr)?), under);
        }
        for d in [day, t.date_naive()] {
            let under = t.date_naive() == d;
            let c = cut::<DateTime<Utc>, _>(&d)?;
            prop_assert_eq!(e.starts_with(&c), under);
            prop_assert_eq!(n.starts_with(&cut::<NaiveDateTime, _>(&d)?), under);
            prop_assert_eq!(c, enc(&d) + "T");
        }
    }

    /// In a key, a cut after literal segments selects exactly the keys whose
    /// component lies under it.
    #[test]
    fn cuts_inside_keys(t in datetime(), id in any::<u64>(), (year, month) in (1990u16..2040, 1u8..=12)) {
        let mut k = KeyBuf::new();
        k.literal("ORDER").part(&t)?.part(&id)?;
        let k = k.finish();
        let mut p = KeyBuf::new();
        p.literal("ORDER").cut::<DateTime<Utc>, _>(&YearMonth(year, month))?;
        let p = p.finish_prefix();
        let under = (t.year(), t.month()) == (i32::from(year), u32::from(month));
        prop_assert_eq!(k.starts_with(&p), under);
    }
}

#[test]
fn invalid_cuts_are_errors() {
    assert_eq!(
        cut::<NaiveDate, _>(&Year(10_000)),
        Err(KeyError::OutOfRange {
            what: "year",
            value: "10000".into()
        })
    );
    for month in [0, 13, 255] {
        assert_eq!(
            cut::<NaiveDate, _>(&YearMonth(2026, month)),
            Err(KeyError::OutOfRange {
                what: "month",
                value: month.to_string()
            })
        );
    }
    assert_eq!(cut::<NaiveDate, _>(&YearMonth(0, 1)), Ok("0000-01".into()));
    assert_eq!(cut::<DateTime<Utc>, _>(&Year(2026)), Ok("2026".into()));
}
