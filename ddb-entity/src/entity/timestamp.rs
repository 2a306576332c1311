//! Created/updated timestamps the library maintains
//! (`#[entity(created_at = "…", updated_at = "…")]`).

use std::time::{SystemTime, UNIX_EPOCH};

use serde::Serialize;

/// A field type that can hold a maintained timestamp.
///
/// `u64`/`i64` hold milliseconds since the Unix epoch (0 = not set yet);
/// `Option<T>` is not set while `None`; with the `chrono` feature,
/// `DateTime<Utc>` (the epoch = not set yet).
///
/// ```
/// use ddb_entity::Timestamp;
/// use std::time::{Duration, UNIX_EPOCH};
///
/// let t = UNIX_EPOCH + Duration::from_millis(1_773_480_660_000);
/// assert_eq!(u64::from_system_time(t), 1_773_480_660_000);
/// assert!(0u64.is_unset());
/// assert!(None::<u64>.is_unset());
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot hold a maintained timestamp",
    label = "use `u64` (epoch milliseconds), `Option<u64>`, or with the chrono feature `DateTime<Utc>`",
    note = "the field is named in #[entity(created_at = \"…\")] or #[entity(updated_at = \"…\")]"
)]
pub trait Timestamp: Serialize + Sized {
    /// The value for the instant `now`.
    ///
    /// ```
    /// use ddb_entity::Timestamp;
    /// use std::time::{Duration, UNIX_EPOCH};
    ///
    /// let now = UNIX_EPOCH + Duration::from_millis(1_773_480_660_000);
    /// assert_eq!(i64::from_system_time(now), 1_773_480_660_000);
    /// assert_eq!(Option::<u64>::from_system_time(now), Some(1_773_480_660_000));
    /// ```
    fn from_system_time(now: SystemTime) -> Self;

    /// Whether the value is the "never set" one (a new entity's): the
    /// library sets `created_at` only while it is.
    ///
    /// ```
    /// use ddb_entity::Timestamp;
    ///
    /// assert!(0i64.is_unset() && None::<i64>.is_unset() && Some(0u64).is_unset());
    /// assert!(!1_773_480_660_000u64.is_unset());
    /// ```
    fn is_unset(&self) -> bool;
}

fn millis(now: SystemTime) -> u128 {
    now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis())
}

impl Timestamp for u64 {
    fn from_system_time(now: SystemTime) -> Self {
        u64::try_from(millis(now)).unwrap_or(u64::MAX)
    }

    fn is_unset(&self) -> bool {
        *self == 0
    }
}

impl Timestamp for i64 {
    fn from_system_time(now: SystemTime) -> Self {
        i64::try_from(millis(now)).unwrap_or(i64::MAX)
    }

    fn is_unset(&self) -> bool {
        *self == 0
    }
}

impl<T: Timestamp> Timestamp for Option<T> {
    fn from_system_time(now: SystemTime) -> Self {
        Some(T::from_system_time(now))
    }

    fn is_unset(&self) -> bool {
        self.as_ref().is_none_or(T::is_unset)
    }
}

#[cfg(feature = "chrono")]
impl Timestamp for chrono::DateTime<chrono::Utc> {
    fn from_system_time(now: SystemTime) -> Self {
        now.into()
    }

    fn is_unset(&self) -> bool {
        self.timestamp() == 0 && self.timestamp_subsec_nanos() == 0
    }
}
