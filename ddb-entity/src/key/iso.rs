//! ISO-8601 timestamps as hand-written keys hold them: `2026-03-14T09:31:00Z`
//! or `2026-03-14T09:31:00.123Z`.
//!
//! This library's own `DateTime<Utc>` key part writes nanoseconds
//! (`…00.000000000Z`); code written by hand (JavaScript's `toISOString`,
//! Python's `isoformat`, Java's `Instant.toString` at whole seconds)
//! writes seconds or milliseconds. [`IsoSeconds`] and [`IsoMillis`] read
//! and write exactly those, so keys of an adopted table round-trip byte
//! for byte. Both are fixed width with years 0000 to 9999, so they sort as
//! the instants they hold (ranges and cuts by year, month and day work).
//!
//! Reading is strict: `Z` only (no `+00:00`), upper-case `T`, exactly the
//! type's digits. A key in another form does not match a template with
//! this hole: it would not be written back the same.

use std::fmt;

use chrono::{DateTime, NaiveDate, Timelike, Utc};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::time::{Year, YearMonth, parse_naive_datetime_digits, push_datetime_digits};
use super::{DecodeKeyPart, KeyError, KeyPart, PrefixOf};

macro_rules! iso {
    ($(#[$doc:meta])* $name:ident, $fraction:expr, $len:expr, $expected:expr, $example:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub DateTime<Utc>);

        impl $name {
            /// The text this key part writes, e.g.
            #[doc = concat!("`", $example, "`.")]
            /// An instant finer than the type's precision is
            /// [`KeyError::OutOfRange`]: it could not be written back.
            ///
            /// See [`IsoSeconds`'s example](IsoSeconds#example).
            pub fn to_text(&self) -> Result<String, KeyError> {
                let mut out = String::with_capacity($len);
                self.encode_key(&mut out)?;
                Ok(out)
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}({:?})", stringify!($name), self.0)
            }
        }

        impl From<DateTime<Utc>> for $name {
            fn from(at: DateTime<Utc>) -> Self {
                $name(at)
            }
        }

        impl KeyPart for $name {
            const FIXED_LEN: Option<usize> = Some($len);

            fn encode_key(&self, out: &mut String) -> Result<(), KeyError> {
                let nanos = self.0.nanosecond();
                let unit = 10u32.pow(9 - $fraction);
                if nanos % unit != 0 || nanos >= 1_000_000_000 {
                    return Err(KeyError::OutOfRange {
                        what: concat!("instant for ", stringify!($name)),
                        value: self.0.to_rfc3339(),
                    });
                }
                push_datetime_digits(out, self.0.naive_utc(), $fraction)?;
                out.push('Z');
                Ok(())
            }
        }

        impl DecodeKeyPart for $name {
            fn decode_key(component: &str) -> Result<Self, KeyError> {
                component
                    .strip_suffix('Z')
                    .and_then(|text| parse_naive_datetime_digits(text, $fraction))
                    .map(|naive| $name(naive.and_utc()))
                    .ok_or_else(|| KeyError::malformed($expected, component))
            }
        }

        /// The body stores the same text as the key.
        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let text = self.to_text().map_err(serde::ser::Error::custom)?;
                serializer.serialize_str(&text)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
                $name::decode_key(&text).map_err(serde::de::Error::custom)
            }
        }

        impl PrefixOf<$name> for Year {
            fn encode_prefix(&self, out: &mut String) -> Result<(), KeyError> {
                PrefixOf::<NaiveDate>::encode_prefix(self, out)
            }
        }

        impl PrefixOf<$name> for YearMonth {
            fn encode_prefix(&self, out: &mut String) -> Result<(), KeyError> {
                PrefixOf::<NaiveDate>::encode_prefix(self, out)
            }
        }

        /// A day: `YYYY-MM-DDT`.
        impl PrefixOf<$name> for NaiveDate {
            fn encode_prefix(&self, out: &mut String) -> Result<(), KeyError> {
                PrefixOf::<DateTime<Utc>>::encode_prefix(self, out)
            }
        }
    };
}

iso!(
    /// A UTC instant written to the second, `YYYY-MM-DDTHH:MM:SSZ`, as keys
    /// written by other code often hold it (feature `chrono`).
    ///
    /// # Example
    ///
    /// ```
    /// use chrono::{TimeZone, Utc};
    /// use ddb_entity::key::{self, IsoMillis, IsoSeconds};
    ///
    /// let at = IsoSeconds(Utc.with_ymd_and_hms(2026, 3, 14, 9, 31, 0).unwrap());
    /// assert_eq!(key::encode(&at)?, "2026-03-14T09:31:00Z");
    /// assert_eq!(at.to_text()?, "2026-03-14T09:31:00Z");
    /// assert_eq!(IsoMillis(at.0).to_text()?, "2026-03-14T09:31:00.000Z");
    /// let finer = IsoSeconds(at.0 + chrono::Duration::milliseconds(5));
    /// assert!(finer.to_text().is_err()); // it could not be written back
    /// assert_eq!(key::decode::<IsoSeconds>("2026-03-14T09:31:00Z")?, at);
    /// // Other spellings of the instant are not this key part's: they
    /// // would be written back differently.
    /// assert!(key::decode::<IsoSeconds>("2026-03-14T09:31:00+00:00").is_err());
    /// assert!(key::decode::<IsoSeconds>("2026-03-14T09:31:00.000Z").is_err());
    /// # Ok::<(), ddb_entity::key::KeyError>(())
    /// ```
    IsoSeconds,
    0,
    20,
    "ISO-8601 UTC instant to the second (YYYY-MM-DDTHH:MM:SSZ)",
    "2026-03-14T09:31:00Z"
);

iso!(
    /// A UTC instant written to the millisecond, `YYYY-MM-DDTHH:MM:SS.sssZ`,
    /// as JavaScript's `toISOString` writes it (feature `chrono`).
    ///
    /// ```
    /// use chrono::{TimeZone, Utc};
    /// use ddb_entity::key::{self, IsoMillis};
    ///
    /// let at = Utc.with_ymd_and_hms(2026, 3, 14, 9, 31, 0).unwrap()
    ///     + chrono::Duration::milliseconds(250);
    /// assert_eq!(key::encode(&IsoMillis(at))?, "2026-03-14T09:31:00.250Z");
    /// assert_eq!(key::decode::<IsoMillis>("2026-03-14T09:31:00.250Z")?, IsoMillis(at));
    /// // Finer than a millisecond cannot be written back: an error, not a
    /// // silently truncated key.
    /// let finer = IsoMillis(at + chrono::Duration::microseconds(1));
    /// assert!(key::encode(&finer).is_err());
    /// # Ok::<(), ddb_entity::key::KeyError>(())
    /// ```
    IsoMillis,
    3,
    24,
    "ISO-8601 UTC instant to the millisecond (YYYY-MM-DDTHH:MM:SS.sssZ)",
    "2026-03-14T09:31:00.250Z"
);

iso!(
    /// A UTC instant written to the nanosecond, `YYYY-MM-DDTHH:MM:SS.fffffffffZ`
    /// (RFC 3339 with nine fraction digits, always), in keys and in the item
    /// body alike (feature `chrono`).
    ///
    /// chrono's own serde writes a `DateTime<Utc>` with as many fraction
    /// digits as it needs (`…00Z`, `…00.5Z`, `…00.123456789Z`), which does
    /// not sort as time: `'.'` sorts below `'Z'`, so `…00.5Z` sorts *before*
    /// `…00Z`. A body field of this type has one width for every instant of
    /// years 0000 to 9999, so a filter or condition `gt`, `lt` or `between`
    /// on it compares instants ([`OrderedValue`](crate::OrderedValue)).
    ///
    /// ```
    /// use chrono::{TimeZone, Utc};
    /// use ddb_entity::key::{self, IsoNanos};
    ///
    /// let t0 = Utc.with_ymd_and_hms(2026, 3, 14, 9, 30, 0).unwrap();
    /// let half = t0 + chrono::Duration::milliseconds(500);
    /// assert_eq!(IsoNanos(t0).to_text()?, "2026-03-14T09:30:00.000000000Z");
    /// assert_eq!(IsoNanos(half).to_text()?, "2026-03-14T09:30:00.500000000Z");
    /// assert!(IsoNanos(t0).to_text()? < IsoNanos(half).to_text()?);
    /// // chrono's own text does not sort as time:
    /// assert!(half.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true) < t0.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true));
    /// assert_eq!(key::decode::<IsoNanos>("2026-03-14T09:30:00.500000000Z")?, IsoNanos(half));
    /// assert!(key::decode::<IsoNanos>("2026-03-14T09:30:00.5Z").is_err());
    /// # Ok::<(), ddb_entity::key::KeyError>(())
    /// ```
    IsoNanos,
    9,
    30,
    "ISO-8601 UTC instant to the nanosecond (YYYY-MM-DDTHH:MM:SS.fffffffffZ)",
    "2026-03-14T09:31:00.250000000Z"
);
