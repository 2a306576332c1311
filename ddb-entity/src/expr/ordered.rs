//! Which field types a range comparison may take: those whose stored form
//! sorts as their values do.

/// A field type whose stored form sorts, as DynamoDB compares it, in the
/// order of its values: numbers (`N`, compared by value) and strings whose
/// bytes sort as the values do. Only such a field offers `lt`, `le`, `gt`,
/// `ge` and `between` in filters and conditions; `equals`, `not_equals`
/// and `is_in` work on every type.
///
/// Why: DynamoDB compares a stored string byte by byte. chrono writes a
/// `DateTime<Utc>` with as many fraction digits as it needs
/// (`…T09:30:00Z`, `…T09:30:00.5Z`), and `'.'` sorts below `'Z'`, so a
/// filter `gt(t0)` on such a field would drop `t0 + 0.5 s`. An instant
/// stored as [`key::IsoNanos`] (fixed width, nine fraction digits),
/// [`key::IsoMillis`], [`key::IsoSeconds`], [`key::UnixSeconds`] or
/// [`key::UnixMillis`] (numbers) compares as time (feature `chrono`).
///
#[cfg_attr(
    feature = "chrono",
    doc = "[`key::IsoNanos`]: crate::key::IsoNanos\n[`key::IsoMillis`]: crate::key::IsoMillis\n[`key::IsoSeconds`]: crate::key::IsoSeconds\n[`key::UnixSeconds`]: crate::key::UnixSeconds\n[`key::UnixMillis`]: crate::key::UnixMillis"
)]
#[cfg_attr(
    not(feature = "chrono"),
    doc = "[`key::IsoNanos`]: https://docs.rs/ddb-entity/latest/ddb_entity/key/struct.IsoNanos.html\n[`key::IsoMillis`]: https://docs.rs/ddb-entity/latest/ddb_entity/key/struct.IsoMillis.html\n[`key::IsoSeconds`]: https://docs.rs/ddb-entity/latest/ddb_entity/key/struct.IsoSeconds.html\n[`key::UnixSeconds`]: https://docs.rs/ddb-entity/latest/ddb_entity/key/struct.UnixSeconds.html\n[`key::UnixMillis`]: https://docs.rs/ddb-entity/latest/ddb_entity/key/struct.UnixMillis.html"
)]
///
/// Implemented for the integers up to 64 bits, `f32` and `f64` (stored as
/// numbers; NaN is refused before sending), `String` and `char` (UTF-8
/// byte order is code point order), the fixed-width instants above, and
/// `Option<T>` of any of them. Not for `bool` (DynamoDB has no order on
/// `BOOL`), chrono's own types (their text has no fixed width for every
/// value), sets, lists, maps or enums (serde writes an enum's name, which
/// need not sort as declared).
///
/// Implement it for a type of your own only if its serde form sorts as
/// its values do for **every** value: a number, or a string of fixed
/// width (or prefix-free) whose bytes sort as the values.
///
/// # Example
///
/// ```
/// use ddb_entity::{Entity, OrderedValue, key::IsoNanos};
/// use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "DEVICE#{device}", sk = "EVENT#{id}")]
/// struct Event { device: u32, id: u64, at: IsoNanos, reading: f64, label: String }
///
/// fn orderable<T: OrderedValue>() {}
/// orderable::<IsoNanos>();
/// orderable::<Option<f64>>();
/// orderable::<String>();
///
/// let f = Event::fields();
/// let t0 = chrono::DateTime::from_timestamp(1_750_000_000, 0).unwrap();
/// let _later = f.at.gt(IsoNanos(t0));
/// let _warm = f.reading.between(20.0, 25.0);
/// ```
///
/// A `DateTime<Utc>` field takes equality, not a range:
///
/// ```compile_fail
/// use ddb_entity::Entity;
/// use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "DEVICE#{device}", sk = "EVENT#{id}")]
/// struct Event { device: u32, id: u64, at: chrono::DateTime<chrono::Utc> }
///
/// let t0 = chrono::DateTime::from_timestamp(1_750_000_000, 0).unwrap();
/// let _ = Event::fields().at.equals(t0); // fine
/// let _ = Event::fields().at.gt(t0); // does not compile
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not stored in a form that sorts as its values do, so `lt`/`le`/`gt`/`ge`/`between` on it would select the wrong items",
    label = "no order-preserving stored form",
    note = "DynamoDB compares a number by value and a string byte by byte, nothing else by range; chrono writes `DateTime<Utc>` with a varying number of fraction digits (`…00Z` sorts after `…00.5Z`)",
    note = "store the field as `ddb_entity::key::IsoNanos` (fixed-width RFC 3339), `IsoMillis`, `IsoSeconds`, `UnixSeconds` or `UnixMillis` (numbers), or a number or `String`; or compare with `equals`/`is_in`, which work on every type"
)]
pub trait OrderedValue {}

macro_rules! ordered {
    ($($t:ty),* $(,)?) => { $(impl OrderedValue for $t {})* };
}

ordered!(
    i8, i16, i32, i64, isize, u8, u16, u32, u64, usize, f32, f64, String, char
);

impl<T: OrderedValue> OrderedValue for Option<T> {}

#[cfg(feature = "chrono")]
ordered!(
    crate::key::IsoSeconds,
    crate::key::IsoMillis,
    crate::key::IsoNanos,
    crate::key::UnixSeconds,
    crate::key::UnixMillis,
);
