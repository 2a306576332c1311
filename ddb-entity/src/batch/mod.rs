//! Batches: BatchWriteItem and BatchGetItem of typed entities, mixed
//! types in one call, chunked to the service's limits, run with bounded
//! concurrency, and retried with backoff and full jitter until every write
//! or key is processed or the [`BatchRetry`] budget is spent — then the
//! leftovers come back typed, never dropped.

mod engine;
mod get;
mod retry;
mod write;

pub use get::{BatchGet, BatchGetPartial};
pub use retry::BatchRetry;
pub(crate) use retry::{Jitter, backoff};
// The jobs' statements pause between resends of what the server left.
#[cfg(feature = "evolve")]
pub(crate) use retry::pause_within;
pub use write::BatchWrite;

use std::fmt;

use crate::item::Item;
use crate::table::KeySchema;

/// Requests a batch has in flight at once unless told otherwise: enough to
/// hide a round trip, few enough not to throttle a small table.
const DEFAULT_CONCURRENCY: usize = 4;

/// The partition and sort key values of an item or key map; `None` when one
/// is missing, not a string, or empty (DynamoDB rejects an empty key). The
/// sort key is `""` on a table without one.
fn key_of(attributes: &Item, keys: KeySchema) -> Option<(&str, &str)> {
    let partition = attributes.get(keys.partition_key)?.as_s().ok()?.as_str();
    let sort = match keys.sort_key {
        Some(name) => attributes.get(name)?.as_s().ok()?.as_str(),
        None => "",
    };
    let empty = partition.is_empty() || (keys.sort_key.is_some() && sort.is_empty());
    (!empty).then_some((partition, sort))
}

/// The distinct entity type names of a batch, for its `tracing` span
/// (`Customer,Order`): names only, never values.
struct EntityNames(Vec<&'static str>);

impl EntityNames {
    fn of(names: impl Iterator<Item = &'static str>) -> Self {
        let mut distinct: Vec<&'static str> = Vec::new();
        for name in names {
            if !distinct.contains(&name) {
                distinct.push(name);
            }
        }
        EntityNames(distinct)
    }
}

impl fmt::Display for EntityNames {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.join(","))
    }
}

/// A poisoned lock only means another request's task panicked; what it
/// guards (a running total) is still consistent.
fn lock<T>(mutex: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
