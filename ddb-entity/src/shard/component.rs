//! The shard's segment of a partition key: `03/16`.

use std::fmt;

use super::{MAX_SHARDS, MIN_SHARDS};
use crate::key::{DecodeKeyPart, KeyError, KeyPart};

/// Shard `shard` of `count`, as the last segment of a sharded partition key
/// writes it: the shard number zero-padded to the digits of `count − 1`,
/// `/`, and the count (`03/16`, `7/8`, `042/100`).
///
/// Every shard of one count has the same length, so the keys of one
/// partition's shards sort in shard order; and the count is written, so a
/// key of one count is never a key of another (see *Re-sharding* in the
/// derive's reference). Decoding is strict: only what [`KeyPart`] writes,
/// with a count of 2 to 1000 and a shard below it.
///
/// # Example
///
/// ```
/// use ddb_entity::key;
/// use ddb_entity::shard::ShardComponent;
///
/// assert_eq!(key::encode(&ShardComponent::new(3, 16))?, "03/16");
/// assert_eq!(key::decode::<ShardComponent>("03/16")?, ShardComponent::new(3, 16));
/// let component = ShardComponent::new(3, 16);
/// assert_eq!((component.shard(), component.count()), (3, 16));
/// for bad in ["3/16", "003/16", "16/16", "03/016", "0/1", "03-16"] {
///     assert!(key::decode::<ShardComponent>(bad).is_err(), "{bad}");
/// }
/// # Ok::<(), key::KeyError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ShardComponent {
    shard: u16,
    count: u16,
}

impl ShardComponent {
    /// Shard `shard` of `count`. Panics unless `count` is 2 to 1000 and
    /// `shard` is below it.
    ///
    /// See [the example](ShardComponent#example).
    pub fn new(shard: u16, count: u16) -> Self {
        assert!(
            (MIN_SHARDS..=MAX_SHARDS).contains(&count) && shard < count,
            "shard {shard} of {count}: a count is 2 to 1000, a shard below it"
        );
        ShardComponent { shard, count }
    }

    /// The shard's number, from 0.
    ///
    /// See [the example](ShardComponent#example).
    pub fn shard(&self) -> u16 {
        self.shard
    }

    /// The number of shards.
    ///
    /// See [the example](ShardComponent#example).
    pub fn count(&self) -> u16 {
        self.count
    }

    /// The length of every component of `count` shards.
    pub(crate) fn len_for(count: u16) -> usize {
        2 * digits(count - 1) + usize::from(digits(count) > digits(count - 1)) + 1
    }
}

/// Decimal digits of `n` (1 for zero).
fn digits(n: u16) -> usize {
    n.checked_ilog10().map_or(1, |log| log as usize + 1)
}

impl fmt::Display for ShardComponent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = digits(self.count - 1);
        write!(f, "{:0width$}/{}", self.shard, self.count)
    }
}

// Written by the library at a shard, never a field's type: kept out of
// the compiler's list of key-part types in messages about a field.
#[diagnostic::do_not_recommend]
impl KeyPart for ShardComponent {
    // Digits and `/`, every byte above `#`.
    fn encode_key(&self, out: &mut String) -> Result<(), KeyError> {
        use fmt::Write;
        write!(out, "{self}").expect("writing to a String cannot fail");
        Ok(())
    }
}

impl DecodeKeyPart for ShardComponent {
    fn decode_key(component: &str) -> Result<Self, KeyError> {
        let malformed = || {
            KeyError::malformed(
                "a shard (its number zero-padded to the digits of the count, `/`, the count, e.g. 03/16)",
                component,
            )
        };
        let (shard, count) = component.split_once('/').ok_or_else(malformed)?;
        let number = |text: &str| -> Option<u16> {
            (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()))
                .then(|| text.parse().ok())
                .flatten()
        };
        let count = number(count)
            .filter(|count| (MIN_SHARDS..=MAX_SHARDS).contains(count))
            .ok_or_else(malformed)?;
        let parsed = ShardComponent {
            shard: number(shard)
                .filter(|shard| *shard < count)
                .ok_or_else(malformed)?,
            count,
        };
        // Only the canonical text: no leading zero on the count, the shard
        // at exactly its width.
        if parsed.to_string() != component {
            return Err(malformed());
        }
        Ok(parsed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_component_of_a_count_has_one_length_and_reads_back() {
        for count in [2, 9, 10, 11, 16, 99, 100, 101, 999, 1000] {
            for shard in 0..count {
                let component = ShardComponent::new(shard, count);
                let text = crate::key::encode(&component).unwrap();
                assert_eq!(text.len(), ShardComponent::len_for(count), "{text}");
                assert_eq!(
                    crate::key::decode::<ShardComponent>(&text).unwrap(),
                    component
                );
            }
        }
        assert_eq!(ShardComponent::new(9, 10).to_string(), "9/10");
        assert_eq!(ShardComponent::new(99, 1000).to_string(), "099/1000");
    }
}
