//! Dates and times from chrono (feature `chrono`).
//!
//! chrono is the time crate the AWS Rust ecosystem already uses
//! (`aws_lambda_events`, most `serde_dynamo` users), so its types can go
//! straight into keys.
//!
//! # Format
//!
//! Fixed-width ISO 8601 / RFC 3339 text, nanosecond precision, so that the
//! round trip is exact and a key is readable and parseable by any tool:
//!
//! | type | component | example |
//! | --- | --- | --- |
//! | `NaiveDate` | `YYYY-MM-DD` | `2026-03-14` |
//! | `NaiveTime` | `HH:MM:SS.nnnnnnnnn` | `09:31:00.000000000` |
//! | `NaiveDateTime` | `YYYY-MM-DDTHH:MM:SS.nnnnnnnnn` | `2026-03-14T09:31:00.000000000` |
//! | `DateTime<Utc>` | `YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ` | `2026-03-14T09:31:00.000000000Z` |
//!
//! The fraction always has 9 digits. Years must lie in `0000..=9999`; others
//! are [`KeyError::OutOfRange`]. A `NaiveDateTime` has no zone and gets no
//! `Z`: writing one would claim UTC for a value that does not say so. Store
//! instants as `DateTime<Utc>`.
//!
//! A leap second (chrono represents it as second 59 with a nanosecond field
//! of 1 000 000 000 or more) is written as second `60` with the excess as
//! fraction, `23:59:60.500000000`, which sorts after `23:59:59.999999999`
//! and before the next minute, as chrono orders it; it decodes back to the
//! same value.
//!
//! # Why it sorts
//!
//! Every field has a fixed width and the fields run from most to least
//! significant, separated by the same byte at the same place in every
//! value, so byte order is chronological order. The separators and digits
//! (`-`, `.`, `:`, `0`–`9`, `T`, `Z`) are all above `#`.
//!
//! # Cuts, coarse to fine
//!
//! [`Year`] (`2026`), [`YearMonth`] (`2026-03`) and a `NaiveDate` (as
//! `2026-03-14T`, for the datetime types) are [`PrefixOf`] cuts, for
//! `begins_with` or a [`prefix_upper_bound`](crate::key::prefix_upper_bound)
//! range over a year, a month or a day.
//!
//! ```
//! use chrono::{NaiveDate, TimeZone, Utc};
//! use ddb_entity::key::{self, KeyBuf, YearMonth};
//!
//! let day = NaiveDate::from_ymd_opt(2026, 3, 14).unwrap();
//! assert_eq!(key::encode(&day)?, "2026-03-14");
//!
//! let at = Utc.with_ymd_and_hms(2026, 3, 14, 9, 31, 0).unwrap();
//! assert_eq!(key::encode(&at)?, "2026-03-14T09:31:00.000000000Z");
//! assert_eq!(key::decode::<chrono::DateTime<Utc>>("2026-03-14T09:31:00.000000000Z")?, at);
//!
//! let mut march = KeyBuf::new();
//! march.literal("ORDER").cut::<NaiveDate, _>(&YearMonth(2026, 3))?;
//! assert_eq!(march.finish_prefix(), "ORDER#2026-03");
//! # Ok::<(), key::KeyError>(())
//! ```

use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, NaiveTime, Timelike, Utc};

use super::{Cardinality, DecodeKeyPart, KeyError, KeyPart, PrefixOf};

const NANOS_PER_SEC: u32 = 1_000_000_000;
const MAX_YEAR: u32 = 9999;

const DATE_LEN: usize = "YYYY-MM-DD".len();
const TIME_LEN: usize = "HH:MM:SS.nnnnnnnnn".len();

const DATE_EXPECTED: &str = "NaiveDate (YYYY-MM-DD, years 0000 to 9999)";
const TIME_EXPECTED: &str = "NaiveTime (HH:MM:SS.nnnnnnnnn)";
const NAIVE_DATETIME_EXPECTED: &str = "NaiveDateTime (YYYY-MM-DDTHH:MM:SS.nnnnnnnnn)";
const DATETIME_EXPECTED: &str = "DateTime<Utc> (YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ)";

/// Appends `value` as exactly `width` digits; callers pass values that fit.
fn push_digits(out: &mut String, value: u32, width: u32) {
    for i in (0..width).rev() {
        let digit = value / 10u32.pow(i) % 10;
        // `digit < 10`, so the cast is exact.
        out.push(char::from(b'0' + digit as u8));
    }
}

/// Parses exactly `text.len()` ASCII digits.
fn parse_digits(text: &str) -> Option<u32> {
    text.bytes().try_fold(0u32, |n, b| {
        b.is_ascii_digit()
            .then(|| n.checked_mul(10)?.checked_add(u32::from(b - b'0')))
            .flatten()
    })
}

fn check_year(year: i32) -> Result<u32, KeyError> {
    u32::try_from(year)
        .ok()
        .filter(|&y| y <= MAX_YEAR)
        .ok_or_else(|| KeyError::OutOfRange {
            what: "year",
            value: year.to_string(),
        })
}

fn push_year_month(out: &mut String, year: u32, month: u32) {
    push_digits(out, year, 4);
    out.push('-');
    push_digits(out, month, 2);
}

fn push_date(out: &mut String, date: NaiveDate) -> Result<(), KeyError> {
    push_year_month(out, check_year(date.year())?, date.month());
    out.push('-');
    push_digits(out, date.day(), 2);
    Ok(())
}

fn push_time(out: &mut String, time: NaiveTime) -> Result<(), KeyError> {
    let (mut second, mut nanos) = (time.second(), time.nanosecond());
    if nanos >= NANOS_PER_SEC {
        // chrono only represents leap seconds after second 59; anything else
        // would collide with the next second's encoding.
        if second != 59 {
            return Err(KeyError::OutOfRange {
                what: "leap second",
                value: format!(
                    "{:02}:{:02}:{second:02}+{nanos}ns",
                    time.hour(),
                    time.minute()
                ),
            });
        }
        second = 60;
        nanos -= NANOS_PER_SEC;
    }
    push_digits(out, time.hour(), 2);
    out.push(':');
    push_digits(out, time.minute(), 2);
    out.push(':');
    push_digits(out, second, 2);
    out.push('.');
    push_digits(out, nanos, 9);
    Ok(())
}

fn parse_date(text: &str) -> Option<NaiveDate> {
    let b = text.as_bytes();
    if b.len() != DATE_LEN || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let year = parse_digits(text.get(0..4)?)?;
    let month = parse_digits(text.get(5..7)?)?;
    let day = parse_digits(text.get(8..10)?)?;
    NaiveDate::from_ymd_opt(i32::try_from(year).ok()?, month, day)
}

fn parse_time(text: &str) -> Option<NaiveTime> {
    let b = text.as_bytes();
    if b.len() != TIME_LEN || b[2] != b':' || b[5] != b':' || b[8] != b'.' {
        return None;
    }
    let hour = parse_digits(text.get(0..2)?)?;
    let minute = parse_digits(text.get(3..5)?)?;
    let second = parse_digits(text.get(6..8)?)?;
    let nanos = parse_digits(text.get(9..18)?)?;
    if second == 60 {
        NaiveTime::from_hms_nano_opt(hour, minute, 59, nanos + NANOS_PER_SEC)
    } else {
        NaiveTime::from_hms_nano_opt(hour, minute, second, nanos)
    }
}

/// `YYYY-MM-DDTHH:MM:SS` and, for `fraction` > 0, `.` and that many
/// digits of the second: the ISO-8601 forms of [`super::iso`]. Leap
/// seconds are refused (no hand-written key has one worth adopting).
pub(super) fn push_datetime_digits(
    out: &mut String,
    at: NaiveDateTime,
    fraction: u32,
) -> Result<(), KeyError> {
    let time = at.time();
    if time.nanosecond() >= NANOS_PER_SEC {
        return Err(KeyError::OutOfRange {
            what: "leap second",
            value: at.to_string(),
        });
    }
    push_date(out, at.date())?;
    out.push('T');
    push_digits(out, time.hour(), 2);
    out.push(':');
    push_digits(out, time.minute(), 2);
    out.push(':');
    push_digits(out, time.second(), 2);
    if fraction > 0 {
        out.push('.');
        push_digits(out, time.nanosecond() / 10u32.pow(9 - fraction), fraction);
    }
    Ok(())
}

/// Parses exactly what [`push_datetime_digits`] writes for `fraction`.
pub(super) fn parse_naive_datetime_digits(text: &str, fraction: u32) -> Option<NaiveDateTime> {
    let (date, time) = text.split_once('T')?;
    let b = time.as_bytes();
    let len = if fraction > 0 {
        9 + fraction as usize
    } else {
        8
    };
    if b.len() != len || b[2] != b':' || b[5] != b':' || (fraction > 0 && b[8] != b'.') {
        return None;
    }
    let hour = parse_digits(time.get(0..2)?)?;
    let minute = parse_digits(time.get(3..5)?)?;
    let second = parse_digits(time.get(6..8)?)?;
    let nanos = match fraction {
        0 => 0,
        _ => parse_digits(time.get(9..)?)? * 10u32.pow(9 - fraction),
    };
    let time = NaiveTime::from_hms_nano_opt(hour, minute, second, nanos)?;
    Some(parse_date(date)?.and_time(time))
}

fn parse_naive_datetime(text: &str) -> Option<NaiveDateTime> {
    let (date, time) = text.split_once('T')?;
    Some(parse_date(date)?.and_time(parse_time(time)?))
}

impl KeyPart for NaiveDate {
    const FIXED_LEN: Option<usize> = Some(DATE_LEN);
    // A partition key of a date alone takes every write of the day.
    const CARDINALITY: Cardinality = Cardinality::Calendar;

    fn encode_key(&self, out: &mut String) -> Result<(), KeyError> {
        push_date(out, *self)
    }
}

impl DecodeKeyPart for NaiveDate {
    fn decode_key(component: &str) -> Result<Self, KeyError> {
        parse_date(component).ok_or_else(|| KeyError::malformed(DATE_EXPECTED, component))
    }
}

impl KeyPart for NaiveTime {
    const FIXED_LEN: Option<usize> = Some(TIME_LEN);

    fn encode_key(&self, out: &mut String) -> Result<(), KeyError> {
        push_time(out, *self)
    }
}

impl DecodeKeyPart for NaiveTime {
    fn decode_key(component: &str) -> Result<Self, KeyError> {
        parse_time(component).ok_or_else(|| KeyError::malformed(TIME_EXPECTED, component))
    }
}

impl KeyPart for NaiveDateTime {
    const FIXED_LEN: Option<usize> = Some(DATE_LEN + 1 + TIME_LEN);

    fn encode_key(&self, out: &mut String) -> Result<(), KeyError> {
        push_date(out, self.date())?;
        out.push('T');
        push_time(out, self.time())
    }
}

impl DecodeKeyPart for NaiveDateTime {
    fn decode_key(component: &str) -> Result<Self, KeyError> {
        parse_naive_datetime(component)
            .ok_or_else(|| KeyError::malformed(NAIVE_DATETIME_EXPECTED, component))
    }
}

impl KeyPart for DateTime<Utc> {
    const FIXED_LEN: Option<usize> = Some(DATE_LEN + 1 + TIME_LEN + 1);

    fn encode_key(&self, out: &mut String) -> Result<(), KeyError> {
        self.naive_utc().encode_key(out)?;
        out.push('Z');
        Ok(())
    }
}

impl DecodeKeyPart for DateTime<Utc> {
    fn decode_key(component: &str) -> Result<Self, KeyError> {
        component
            .strip_suffix('Z')
            .and_then(parse_naive_datetime)
            .map(|naive| naive.and_utc())
            .ok_or_else(|| KeyError::malformed(DATETIME_EXPECTED, component))
    }
}

/// A year: the coarsest cut of a date or datetime component, `YYYY`.
///
/// `Year(y)` is a prefix of exactly the dates and datetimes in year `y`.
/// Years above 9999 are [`KeyError::OutOfRange`].
///
/// ```
/// use chrono::NaiveDate;
/// use ddb_entity::key::{self, KeyBuf, KeyError, Year};
///
/// let mut prefix = KeyBuf::new();
/// prefix.literal("ORDER").cut::<NaiveDate, _>(&Year(2026))?;
/// assert_eq!(prefix.finish_prefix(), "ORDER#2026");
///
/// let mut prefix = KeyBuf::new();
/// assert!(matches!(
///     prefix.cut::<NaiveDate, _>(&Year(10_000)),
///     Err(KeyError::OutOfRange { what: "year", .. })
/// ));
/// # Ok::<(), KeyError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Year(pub u16);

/// A month of a year: a cut of a date or datetime component, `YYYY-MM`.
///
/// `YearMonth(y, m)` is a prefix of exactly the dates and datetimes in that
/// month. Years above 9999 and months outside `1..=12` are
/// [`KeyError::OutOfRange`].
///
/// ```
/// use chrono::{DateTime, NaiveDate, Utc};
/// use ddb_entity::key::{self, KeyBuf, KeyError, YearMonth, prefix_upper_bound};
///
/// let mut prefix = KeyBuf::new();
/// prefix.literal("ORDER").cut::<DateTime<Utc>, _>(&YearMonth(2026, 3))?;
/// let lo = prefix.finish_prefix();
/// assert_eq!(lo, "ORDER#2026-03");
/// let hi = prefix_upper_bound(&lo);
/// let end_of_march = "ORDER#2026-03-31T23:59:59.999999999Z#00000000000000000007";
/// assert!(lo.as_str() <= end_of_march && end_of_march <= hi.as_str());
///
/// let mut prefix = KeyBuf::new();
/// assert!(prefix.cut::<NaiveDate, _>(&YearMonth(2026, 13)).is_err());
/// # Ok::<(), KeyError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct YearMonth(pub u16, pub u8);

impl Year {
    fn push(self, out: &mut String) -> Result<(), KeyError> {
        push_digits(out, check_year(i32::from(self.0))?, 4);
        Ok(())
    }
}

impl YearMonth {
    fn push(self, out: &mut String) -> Result<(), KeyError> {
        let year = check_year(i32::from(self.0))?;
        if !(1..=12).contains(&self.1) {
            return Err(KeyError::OutOfRange {
                what: "month",
                value: self.1.to_string(),
            });
        }
        push_year_month(out, year, u32::from(self.1));
        Ok(())
    }
}

macro_rules! cuts {
    ($cut:ty => $($target:ty),*) => {$(
        impl PrefixOf<$target> for $cut {
            fn encode_prefix(&self, out: &mut String) -> Result<(), KeyError> {
                self.push(out)
            }
        }
    )*};
}

cuts!(Year => NaiveDate, NaiveDateTime, DateTime<Utc>);
cuts!(YearMonth => NaiveDate, NaiveDateTime, DateTime<Utc>);

/// A day as a cut of a datetime: `YYYY-MM-DDT`.
///
/// ```
/// use chrono::{NaiveDate, NaiveDateTime};
/// use ddb_entity::key::PrefixOf;
///
/// let mut cut = String::new();
/// let day = NaiveDate::from_ymd_opt(2026, 3, 14).unwrap();
/// PrefixOf::<NaiveDateTime>::encode_prefix(&day, &mut cut)?;
/// assert_eq!(cut, "2026-03-14T");
/// # Ok::<(), ddb_entity::key::KeyError>(())
/// ```
impl PrefixOf<NaiveDateTime> for NaiveDate {
    fn encode_prefix(&self, out: &mut String) -> Result<(), KeyError> {
        push_date(out, *self)?;
        out.push('T');
        Ok(())
    }
}

/// A day as a cut of a UTC datetime: `YYYY-MM-DDT`.
///
/// ```
/// use chrono::{DateTime, NaiveDate, Utc};
/// use ddb_entity::key::PrefixOf;
///
/// let mut cut = String::new();
/// let day = NaiveDate::from_ymd_opt(2026, 3, 14).unwrap();
/// PrefixOf::<DateTime<Utc>>::encode_prefix(&day, &mut cut)?;
/// assert_eq!(cut, "2026-03-14T");
/// # Ok::<(), ddb_entity::key::KeyError>(())
/// ```
impl PrefixOf<DateTime<Utc>> for NaiveDate {
    fn encode_prefix(&self, out: &mut String) -> Result<(), KeyError> {
        push_date(out, *self)?;
        out.push('T');
        Ok(())
    }
}

/// A value with a UTC calendar date: what [`date_of`] reads.
///
/// # Example
///
/// ```
/// use chrono::{NaiveDate, TimeZone, Utc};
/// use ddb_entity::key::DateOf;
///
/// let at = Utc.with_ymd_and_hms(2026, 3, 14, 23, 59, 59).unwrap();
/// let day = NaiveDate::from_ymd_opt(2026, 3, 14).unwrap();
/// assert_eq!(at.date_of(), day);
/// assert_eq!(Some(at).date_of(), Some(day));
/// ```
pub trait DateOf {
    /// The date: a `NaiveDate`, or an `Option` of one for an `Option`.
    ///
    /// See [the example](DateOf#example).
    type Date;

    /// The calendar date of the value.
    ///
    /// See [the example](DateOf#example).
    fn date_of(&self) -> Self::Date;
}

impl DateOf for DateTime<Utc> {
    type Date = NaiveDate;

    fn date_of(&self) -> NaiveDate {
        self.date_naive()
    }
}

impl DateOf for NaiveDateTime {
    type Date = NaiveDate;

    fn date_of(&self) -> NaiveDate {
        self.date()
    }
}

impl DateOf for NaiveDate {
    type Date = NaiveDate;

    fn date_of(&self) -> NaiveDate {
        *self
    }
}

impl<T: DateOf> DateOf for Option<T> {
    type Date = Option<T::Date>;

    fn date_of(&self) -> Option<T::Date> {
        self.as_ref().map(DateOf::date_of)
    }
}

/// The UTC calendar date of an instant: a typed conversion for a computed
/// index key, so that an index is keyed by the *day* of a timestamp field
/// and kept in step with it by every write.
///
/// ```
/// use chrono::{NaiveDate, TimeZone, Utc};
/// use ddb_entity::key::date_of;
///
/// let at = Utc.with_ymd_and_hms(2026, 3, 14, 23, 59, 59).unwrap();
/// assert_eq!(date_of(&at), NaiveDate::from_ymd_opt(2026, 3, 14).unwrap());
/// assert_eq!(date_of(&None::<chrono::DateTime<Utc>>), None);
/// ```
///
/// In an entity, with `#[entity(computed = …)]`:
///
/// ```
/// # use ddb_entity::Entity;
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
/// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
/// use chrono::{DateTime, NaiveDate, Utc};
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "DEAL#{id}", sk = "DEAL")]
/// #[entity(computed = day: NaiveDate = ddb_entity::key::date_of(created_at))]
/// #[entity(index = Gsi1, pk = "DEALS#{day}", sk = "{created_at}")]
/// struct Deal { id: String, created_at: DateTime<Utc> }
///
/// let day = NaiveDate::from_ymd_opt(2026, 3, 14).unwrap();
/// assert_eq!(Deal::gsi1_partition(day)?.as_str(), "DEALS#2026-03-14");
/// # Ok::<(), ddb_entity::Error>(())
/// ```
pub fn date_of<T: DateOf>(value: &T) -> T::Date {
    value.date_of()
}
