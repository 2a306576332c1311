//! Where a reader of a stream has got to, shard by shard.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::record::Record;

/// The last record handled in each shard of a stream: what a
/// [`Poller`] resumes after
/// ([`Poller::resume`]), so a restarted reader
/// neither skips nor repeats a record it has checkpointed.
///
/// Advance it with each record once that record is handled, and store it
/// (it is `Serialize`/`Deserialize`) as often as a repeat after a crash
/// is acceptable: records after the stored checkpoint are delivered again.
///
/// # Example
///
/// ```
/// use ddb_entity::stream::Checkpoint;
///
/// let mut checkpoint = Checkpoint::default();
/// checkpoint.set("shardId-1", "000000000000000000101");
/// checkpoint.set("shardId-1", "000000000000000000102");
/// assert_eq!(checkpoint.sequence_number("shardId-1"), Some("000000000000000000102"));
/// assert_eq!(checkpoint.sequence_number("shardId-2"), None);
/// assert_eq!(checkpoint.shards().count(), 1);
/// assert!(!checkpoint.is_empty() && Checkpoint::default().is_empty());
/// ```
#[cfg_attr(
    feature = "streams",
    doc = "[`Poller`]: super::Poller\n[`Poller::resume`]: super::Poller::resume"
)]
#[cfg_attr(
    not(feature = "streams"),
    doc = "[`Poller`]: https://docs.rs/ddb-entity/latest/ddb_entity/stream/struct.Poller.html\n[`Poller::resume`]: https://docs.rs/ddb-entity/latest/ddb_entity/stream/struct.Poller.html#method.resume"
)]
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Shard id → the sequence number of the last record handled in it.
    shards: BTreeMap<String, String>,
}

impl Checkpoint {
    /// Records that `record` has been handled (whether or not it parsed:
    /// an unreadable record handled by reporting it is handled). A record
    /// without a shard id or sequence number (a hand-made one) changes
    /// nothing.
    ///
    /// ```
    /// # use ddb_entity::stream::{Checkpoint, Record};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(ddb_entity::Entity, serde::Serialize, serde::Deserialize)]
    /// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// # struct Customer { id: u64 }
    /// fn handled(checkpoint: &mut Checkpoint, record: &Record<Customer>) {
    ///     checkpoint.advance(record);
    /// }
    /// ```
    pub fn advance<T>(&mut self, record: &Record<T>) {
        if let (Some(shard), Some(sequence_number)) = (&record.shard_id, &record.sequence_number) {
            self.set(shard.clone(), sequence_number.clone());
        }
    }

    /// Sets the last record handled in `shard`.
    ///
    /// See [the example](Checkpoint#example).
    pub fn set(&mut self, shard: impl Into<String>, sequence_number: impl Into<String>) {
        self.shards.insert(shard.into(), sequence_number.into());
    }

    /// The sequence number of the last record handled in `shard`.
    ///
    /// See [the example](Checkpoint#example).
    pub fn sequence_number(&self, shard: &str) -> Option<&str> {
        self.shards.get(shard).map(String::as_str)
    }

    /// Every shard with its last sequence number, by shard id.
    ///
    /// See [the example](Checkpoint#example).
    pub fn shards(&self) -> impl Iterator<Item = (&str, &str)> {
        self.shards
            .iter()
            .map(|(shard, seq)| (shard.as_str(), seq.as_str()))
    }

    /// Whether no shard has been checkpointed.
    ///
    /// See [the example](Checkpoint#example).
    pub fn is_empty(&self) -> bool {
        self.shards.is_empty()
    }
}
