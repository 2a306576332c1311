//! How many distinct values a key part can take: what the hot-partition
//! lint reads from a partition key's holes.

/// How many distinct values a [`KeyPart`](super::KeyPart) type can write
/// into a key, as far as it decides how writes spread over partitions.
///
/// A partition key built only from holes of few values (a `bool`, a status
/// enum, a narrow integer) or from a date puts the writes of a whole table
/// into a handful of partitions, each held to DynamoDB's per-partition
/// ceiling whatever the table is provisioned for. The hot-partition lint
/// (`ddb_entity::lint::hot_partitions`) reads this from
/// every partition template.
///
/// ```
/// use ddb_entity::key::{Cardinality, KeyPart, Padded};
///
/// assert_eq!(<bool as KeyPart>::CARDINALITY, Cardinality::AtMost(2));
/// assert_eq!(<u8 as KeyPart>::CARDINALITY, Cardinality::AtMost(256));
/// assert_eq!(<Padded<3, u32> as KeyPart>::CARDINALITY, Cardinality::AtMost(1000));
/// assert_eq!(<String as KeyPart>::CARDINALITY, Cardinality::Unbounded);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Cardinality {
    /// At most this many distinct values: `bool` 2, a unit enum its
    /// variants, `u8` 256, an integer of width 3 1000.
    AtMost(u64),
    /// One value per calendar period, however many over time: a date.
    /// Whatever the table holds, the writes of one day share one value.
    Calendar,
    /// Values enough not to concentrate writes: strings, ids, timestamps,
    /// integers of 32 bits and more. The default for a `KeyPart`.
    Unbounded,
}

impl Cardinality {
    /// The number of values of an integer type from `min` to `max`,
    /// `Unbounded` past `u64`.
    pub(crate) const fn integers(min: i128, max: u128) -> Self {
        // `max - min + 1`, computed without overflow for every integer type.
        let below_zero = if min < 0 { min.unsigned_abs() } else { 0 };
        match max.checked_add(below_zero) {
            Some(span) if span < u64::MAX as u128 => Cardinality::AtMost(span as u64 + 1),
            _ => Cardinality::Unbounded,
        }
    }

    /// The smaller of two: a value that is both a `u8` and of width 2 has
    /// at most 100 values.
    ///
    /// ```
    /// use ddb_entity::key::Cardinality;
    /// let narrow = Cardinality::AtMost(256).min(Cardinality::AtMost(100));
    /// assert_eq!(narrow, Cardinality::AtMost(100));
    /// assert_eq!(Cardinality::Unbounded.min(Cardinality::AtMost(2)), Cardinality::AtMost(2));
    /// ```
    pub const fn min(self, other: Cardinality) -> Cardinality {
        match (self, other) {
            (Cardinality::AtMost(a), Cardinality::AtMost(b)) => {
                Cardinality::AtMost(if a < b { a } else { b })
            }
            (Cardinality::AtMost(n), _) | (_, Cardinality::AtMost(n)) => Cardinality::AtMost(n),
            (Cardinality::Calendar, _) | (_, Cardinality::Calendar) => Cardinality::Calendar,
            (Cardinality::Unbounded, Cardinality::Unbounded) => Cardinality::Unbounded,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Cardinality;

    #[test]
    fn integer_types_count_their_values() {
        assert_eq!(
            Cardinality::integers(i8::MIN.into(), i8::MAX as u128),
            Cardinality::AtMost(256)
        );
        assert_eq!(
            Cardinality::integers(0, u16::MAX.into()),
            Cardinality::AtMost(65536)
        );
        assert_eq!(
            Cardinality::integers(i64::MIN.into(), i64::MAX as u128),
            Cardinality::Unbounded
        );
        assert_eq!(
            Cardinality::integers(0, u64::MAX.into()),
            Cardinality::Unbounded
        );
        assert_eq!(
            Cardinality::AtMost(5).min(Cardinality::Calendar),
            Cardinality::AtMost(5)
        );
        assert_eq!(
            Cardinality::Unbounded.min(Cardinality::Calendar),
            Cardinality::Calendar
        );
    }
}
