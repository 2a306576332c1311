//! What a cursor belongs to: the query it came from, as far as a cursor
//! can be held to it.

use crate::table::KeySchema;

/// The query a cursor is made by and resumed in: a cursor is checked
/// against its index, key attributes and partition.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scope<'a> {
    /// The index queried, `None` for the table.
    pub(crate) index: Option<&'a str>,
    /// The index's keys and the table's.
    pub(crate) keys: [KeySchema; 2],
    /// The queried partition's value.
    pub(crate) partition: &'a str,
}

impl Scope<'_> {
    /// The attribute that holds the partition on the queried index.
    pub(crate) fn partition_attribute(&self) -> &'static str {
        self.keys[0].partition_key
    }

    /// What DynamoDB's `LastEvaluatedKey` holds on this index: the index's
    /// keys, and on a global secondary index the table's too; sorted, each
    /// once.
    pub(crate) fn key_attributes(&self) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = self
            .keys
            .iter()
            .flat_map(|keys| [Some(keys.partition_key), keys.sort_key])
            .flatten()
            .collect();
        names.sort_unstable();
        names.dedup();
        names
    }
}
