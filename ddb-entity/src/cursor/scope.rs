//! What a cursor belongs to: the query it came from, as far as a cursor
//! can be held to it.

use crate::entity::SortRange;
use crate::table::KeySchema;

/// The query a cursor is made by and resumed in. An unsealed cursor is
/// checked against the key part of it (index, key attributes, partition);
/// a sealed one is bound to all of it (see `binding`).
#[derive(Debug, Clone, Copy)]
// Without sealing, only the key part is read.
#[cfg_attr(not(feature = "sealed-cursors"), allow(dead_code))]
pub(crate) struct Scope<'a> {
    /// The table's name at run time (it differs per stage).
    pub(crate) table: &'a str,
    /// The index queried, `None` for the table.
    pub(crate) index: Option<&'a str>,
    /// The index's keys and the table's.
    pub(crate) keys: [KeySchema; 2],
    /// The queried partition's value.
    pub(crate) partition: &'a str,
    /// The sort-key range; `None` without a condition.
    pub(crate) range: Option<&'a SortRange<()>>,
    /// Descending order.
    pub(crate) reverse: bool,
    /// The query's filter, in a canonical encoding: its expression with
    /// every name and value substituted (names quoted, values in one
    /// typed text form; see `Filters::text`), so the same filter encodes
    /// alike. `None` without one. A sealed cursor of one filtered listing
    /// is refused by a differently filtered one (or an unfiltered one): a
    /// page boundary of one filter is meaningless in another.
    pub(crate) filter: Option<&'a [u8]>,
    /// For a query read over shards, the shard count: `partition` is then
    /// what every shard's partition value starts with (`STATUS#Open#`),
    /// and shard `n`'s is it followed by its component (`03/16`).
    pub(crate) shards: Option<u16>,
}

impl<'a> Scope<'a> {
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

    /// The associated data a cursor of this query is sealed with under the
    /// key `key_id`: every part of the query that decides which items come
    /// after a position, and in which order, each length-prefixed or
    /// tagged so no two scopes share an encoding.
    ///
    /// Deliberately left out, so a client can change them between pages:
    /// the page size and the limit, consistency, the projection (a summary
    /// and a full listing of the same items page alike), whether expired
    /// items are shown, and what the items are decoded into (except under
    /// `UnknownItems::Filter`, where the collection's types are part of
    /// the filter, and so bound with it).
    #[cfg(feature = "sealed-cursors")]
    pub(crate) fn binding(&self, version: &str, key_id: u8) -> Vec<u8> {
        use super::wire::{put_field, put_varint};

        fn put_option(out: &mut Vec<u8>, field: Option<&[u8]>) {
            match field {
                None => out.push(0),
                Some(field) => {
                    out.push(1);
                    put_field(out, field);
                }
            }
        }

        let mut out = Vec::with_capacity(128);
        put_field(&mut out, b"ddb-entity query cursor");
        put_field(&mut out, version.as_bytes());
        out.push(key_id);
        put_field(&mut out, self.table.as_bytes());
        put_option(&mut out, self.index.map(str::as_bytes));
        let attributes = self.key_attributes();
        put_varint(&mut out, attributes.len() as u64);
        for name in attributes {
            put_field(&mut out, name.as_bytes());
        }
        put_field(&mut out, self.partition_attribute().as_bytes());
        put_field(&mut out, self.partition.as_bytes());
        // No condition and a condition that bounds nothing select the same
        // items: one encoding.
        match self.range {
            Some(range) if range.is_empty() => out.push(0),
            range => {
                out.push(1);
                put_option(&mut out, range.and_then(SortRange::low).map(str::as_bytes));
                put_option(&mut out, range.and_then(SortRange::high).map(str::as_bytes));
            }
        }
        out.push(u8::from(self.reverse));
        put_option(&mut out, self.filter);
        // Only a sharded scope binds its count: a cursor of a query on one
        // partition never opens for a query read over shards, nor one of
        // one count for another; unsharded bindings are unchanged.
        if let Some(count) = self.shards {
            put_field(&mut out, b"shards");
            put_varint(&mut out, u64::from(count));
        }
        out
    }

    /// The partition value of shard `shard` of a sharded scope.
    pub(crate) fn shard_partition(&self, shard: u16) -> String {
        let count = self.shards.expect("a sharded scope");
        format!(
            "{}{}",
            self.partition,
            crate::shard::ShardComponent::new(shard, count)
        )
    }
}
