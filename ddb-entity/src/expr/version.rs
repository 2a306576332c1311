//! Optimistic locking: the condition a versioned write carries, and how a
//! failed one is told apart from other condition failures.

use aws_sdk_dynamodb::types::AttributeValue;

use super::Condition;
use crate::entity::Entity;
use crate::error::{Error, Repr, Result};
use crate::item::Item;

/// The version a versioned write expects to find stored: what tells a
/// stale write from another failed condition once the write is refused.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Expected {
    /// The version attribute.
    pub(crate) attribute: &'static str,
    /// The version the write was read at (0: no item yet).
    pub(crate) version: u64,
}

impl Expected {
    /// A version-conflict error when the item a failed condition returned
    /// (`None`: no item) holds another version than expected.
    pub(crate) fn conflict(
        self,
        entity: &'static str,
        (partition, sort): (&str, &str),
        stored: Option<&Item>,
    ) -> Option<Error> {
        self.found_instead(stored).map(|found| {
            Repr::VersionConflict {
                entity,
                expected: self.version,
                found,
                partition: partition.to_owned(),
                sort: sort.to_owned(),
            }
            .into()
        })
    }

    /// `Some(found)` when `stored` (`None`: no item) does not hold the
    /// expected version: the version stored, `None` for no item or no
    /// readable version.
    pub(crate) fn found_instead(self, stored: Option<&Item>) -> Option<Option<u64>> {
        let found = stored.and_then(|item| stored_version(item, self.attribute));
        let matches = match stored {
            None => self.version == 0,
            Some(_) => found == Some(self.version),
        };
        (!matches).then_some(found)
    }
}

fn stored_version(item: &Item, attribute: &str) -> Option<u64> {
    item.get(attribute)?.as_n().ok()?.parse::<u64>().ok()
}

/// The condition that `expected` is the stored version (no item for 0).
pub(crate) fn expect<E: Entity>(attribute: &'static str, expected: u64) -> Condition<E> {
    if expected == 0 {
        Condition::item_not_exists()
    } else {
        Condition::attribute_equals(attribute, number(expected))
    }
}

/// The version after a write of `current`.
pub(crate) fn next<E: Entity>(current: u64) -> Result<u64> {
    current.checked_add(1).ok_or_else(|| {
        Repr::VersionOverflow {
            entity: E::RUST_NAME,
        }
        .into()
    })
}

pub(crate) fn number(version: u64) -> AttributeValue {
    AttributeValue::N(version.to_string())
}

/// What a write of `E` expects of the stored version: `expected`, checked
/// against the entity's version attribute. `expect_version` exists only on
/// [`Versioned`](crate::entity::Versioned) entities, so the attribute is there.
pub(crate) fn expected<E: Entity>(expected: Option<u64>) -> Option<Expected> {
    let attribute = E::LAYOUT.version_attribute()?;
    expected.map(|version| Expected { attribute, version })
}
