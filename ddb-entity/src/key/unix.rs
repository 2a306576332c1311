//! Instants as Unix time: `ORDER#1750000000#ORD-12345`, as many
//! hand-designed tables write them, and a number in the item body.
//!
//! In a key, a fixed number of zero-padded digits (10 for seconds, 13 for
//! milliseconds), so keys sort as the instants until the year 2286; an
//! instant before 1970, after that, or finer than the type's unit is a
//! [`KeyError::OutOfRange`], never a mis-sorted or truncated key. In the
//! body, the number itself (`N`), which DynamoDB compares by value: a
//! filter or condition `gt`, `lt` or `between` on it compares instants
//! ([`OrderedValue`](crate::OrderedValue)).

use std::fmt;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{DecodeKeyPart, KeyError, KeyPart};

macro_rules! unix {
    ($(#[$doc:meta])* $name:ident, $per_second:expr, $digits:expr, $unit:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub DateTime<Utc>);

        impl $name {
            /// The count of units since 1970-01-01T00:00:00Z, or
            /// [`KeyError::OutOfRange`] for an instant finer than the
            /// unit, which could not be written back.
            ///
            /// See [`UnixSeconds`'s example](UnixSeconds#example).
            pub fn count(&self) -> Result<i64, KeyError> {
                let nanos = i128::from(self.0.timestamp())
                    * 1_000_000_000
                    + i128::from(self.0.timestamp_subsec_nanos());
                let unit = 1_000_000_000 / $per_second;
                if nanos % unit != 0 {
                    return Err(KeyError::OutOfRange {
                        what: concat!("instant finer than ", $unit, " for ", stringify!($name)),
                        value: self.0.to_rfc3339(),
                    });
                }
                i64::try_from(nanos / unit).map_err(|_| KeyError::OutOfRange {
                    what: concat!("instant for ", stringify!($name)),
                    value: self.0.to_rfc3339(),
                })
            }

            /// The instant `count` units after 1970-01-01T00:00:00Z
            /// (before it, for a negative count); `None` past chrono's range.
            ///
            /// See [`UnixSeconds`'s example](UnixSeconds#example).
            pub fn from_count(count: i64) -> Option<Self> {
                let secs = count.div_euclid($per_second);
                let nanos = count.rem_euclid($per_second) * (1_000_000_000 / $per_second);
                DateTime::from_timestamp(secs, u32::try_from(nanos).ok()?).map($name)
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
            const FIXED_LEN: Option<usize> = Some($digits);

            fn encode_key(&self, out: &mut String) -> Result<(), KeyError> {
                let count = self.count()?;
                if !(0..10i64.pow($digits)).contains(&count) {
                    return Err(KeyError::OutOfRange {
                        what: concat!("instant for ", stringify!($name), " (1970 to 2286 in a key)"),
                        value: self.0.to_rfc3339(),
                    });
                }
                out.push_str(&format!("{count:0width$}", width = $digits));
                Ok(())
            }
        }

        impl DecodeKeyPart for $name {
            fn decode_key(component: &str) -> Result<Self, KeyError> {
                let expected = concat!("Unix time in ", $unit, " (", stringify!($digits), " digits)");
                if component.len() != $digits || !component.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(KeyError::malformed(expected, component));
                }
                component
                    .parse::<i64>()
                    .ok()
                    .and_then($name::from_count)
                    .ok_or_else(|| KeyError::malformed(expected, component))
            }
        }

        /// The body stores the number.
        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_i64(self.count().map_err(serde::ser::Error::custom)?)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let count = i64::deserialize(deserializer)?;
                $name::from_count(count).ok_or_else(|| {
                    serde::de::Error::custom(concat!("Unix time out of range for ", stringify!($name)))
                })
            }
        }
    };
}

unix!(
    /// A UTC instant as whole Unix seconds: 10 digits in a key
    /// (`ORDER#1750000000#ORD-12345`), a number in the body (feature
    /// `chrono`).
    ///
    /// # Example
    ///
    /// ```
    /// use ddb_entity::key::{self, UnixSeconds};
    ///
    /// let at = UnixSeconds::from_count(1_750_000_000).unwrap();
    /// assert_eq!(key::encode(&at)?, "1750000000");
    /// assert_eq!(key::decode::<UnixSeconds>("1750000000")?, at);
    /// // The body holds the number.
    /// let body = serde_json::to_string(&at).unwrap();
    /// assert_eq!(body, "1750000000");
    /// // Finer than a second could not be written back: an error.
    /// let finer = UnixSeconds(at.0 + chrono::Duration::milliseconds(5));
    /// assert!(key::encode(&finer).is_err());
    /// // Before 1970 a key would not sort: an error too.
    /// assert!(key::encode(&UnixSeconds::from_count(-1).unwrap()).is_err());
    /// # Ok::<(), ddb_entity::key::KeyError>(())
    /// ```
    UnixSeconds,
    1,
    10,
    "seconds"
);

unix!(
    /// A UTC instant as whole Unix milliseconds (JavaScript's
    /// `Date.now()`): 13 digits in a key, a number in the body (feature
    /// `chrono`).
    ///
    /// ```
    /// use ddb_entity::key::{self, UnixMillis};
    ///
    /// let at = UnixMillis::from_count(1_750_000_000_250).unwrap();
    /// assert_eq!(key::encode(&at)?, "1750000000250");
    /// assert_eq!(key::decode::<UnixMillis>("1750000000250")?, at);
    /// assert_eq!(at.count()?, 1_750_000_000_250);
    /// assert!(key::decode::<UnixMillis>("175000000025").is_err());
    /// # Ok::<(), ddb_entity::key::KeyError>(())
    /// ```
    UnixMillis,
    1_000,
    13,
    "milliseconds"
);
