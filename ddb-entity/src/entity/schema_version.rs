//! Schema versions at write time: an update refused on an item of an older
//! shape says so. Here, below the operations, because an update (in
//! `write/`) checks it; the jobs that bring items up to date live above,
//! in `evolve/`.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::entity::Entity;
use crate::error::{Error, Repr};
use crate::item::{Item, SCHEMA_VERSION_ATTRIBUTE};

/// The error for an update of `E` refused because `stored` is at an older
/// (or unreadable) schema version than `E` writes; `None` when it is not.
pub(crate) fn stale_schema<E: Entity>(
    (partition, sort): (&str, &str),
    stored: &Item,
) -> Option<Error> {
    let current = E::SCHEMA_VERSION?;
    let found = match stored.get(SCHEMA_VERSION_ATTRIBUTE) {
        None => 1,
        Some(AttributeValue::N(n)) => n.parse().unwrap_or(0),
        Some(_) => 0,
    };
    (found != current).then(|| {
        Repr::StaleSchema {
            entity: E::RUST_NAME,
            found,
            current,
            partition: partition.to_owned(),
            sort: sort.to_owned(),
        }
        .into()
    })
}
