//! Optimistic locking: the condition a versioned write carries, and how a
//! failed one is told apart from other condition failures.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::entity::{Entity, Item};
use crate::error::{Error, Result};
use crate::expr::Condition;

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
        Error::InvalidRequest(format!(
            "the version of `{}` cannot grow past u64::MAX",
            E::NAME
        ))
    })
}

pub(crate) fn number(version: u64) -> AttributeValue {
    AttributeValue::N(version.to_string())
}

/// A [`Error::VersionConflict`] when the item a failed condition returned
/// (`None`: no item) holds another version than `expected`.
pub(crate) fn conflict<E: Entity>(
    attribute: &str,
    expected: u64,
    stored: Option<&Item>,
) -> Option<Error> {
    let found = stored.and_then(|item| item.get(attribute)?.as_n().ok()?.parse::<u64>().ok());
    let matches = match stored {
        None => expected == 0,
        Some(_) => found == Some(expected),
    };
    (!matches).then_some(Error::VersionConflict {
        entity: E::NAME,
        expected,
        found,
    })
}
