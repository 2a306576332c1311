//! The cursor of a query read over shards: where the merge stands in every
//! shard, as one cursor.
//!
//! Each shard is at one of three places: not started, after a key (the
//! `ExclusiveStartKey` of its next request), or done. Resuming from every
//! shard's place and merging again continues the merged order exactly: in
//! a k-way merge every item handed out sorts before every item still to
//! come, so the rest of the merge is the merge of the rests.
//!
//! Resuming also needs the merged position: a shard's own position may be
//! well below the last item handed out (its items were not reached yet),
//! and items written there meanwhile sort before what the client already
//! has. The cursor ends with that position (the sort key and shard of the
//! last item handed out), and a resumed read hands out nothing before it.
//!
//! The content is, per shard in shard order, a tag (`0` start, `1` after,
//! `2` done) and after a `1` the values of the scope's key attributes
//! except the partition's (each shard's partition value is known: the
//! scope's prefix and the shard's component). Each value is front-coded
//! against the same attribute's value in the last shard that has one: the
//! length of their common prefix, then the rest, length-prefixed. The
//! keys of one listing's shards share long prefixes (`ORDER#0000…`), so
//! a 16-shard cursor is about half as long as the values written out.
//! Then `0` (nothing handed out yet), or `1`, the shard and the sort key of
//! the merged position.
//! Unsealed (`m1.`), it is preceded by the index, the partition prefix and
//! the shard count, which the query checks; sealed (`s1.`), those are the
//! binding ([`Scope::binding`] with the count), so only this query opens it.

use std::time::SystemTime;

use aws_sdk_dynamodb::types::AttributeValue;

use super::{Cursor, CursorSeal, Form, Scope, invalid, wire};
use crate::error::{CursorFault, Result};
use crate::item::Item;

/// The merged order's position: the sort key of the last item handed out
/// and its shard.
pub(crate) type Merged = (String, usize);

/// Where a query read over shards stands in one shard.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ShardPosition {
    /// Nothing read yet: the shard starts from its beginning.
    Start,
    /// Every item up to this key read: the next request starts after it.
    After(Item),
    /// Every item of the shard read.
    Done,
}

const START: u8 = 0;
const AFTER: u8 = 1;
const DONE: u8 = 2;

/// An unsealed cursor of a query read over shards, as parsed.
#[derive(Clone, PartialEq, Eq)]
pub(super) struct Positions {
    pub(super) index: String,
    pub(super) prefix: String,
    pub(super) count: u16,
    /// The content, checked against the query on use.
    pub(super) content: Vec<u8>,
}

impl Positions {
    /// Length-prefixed fields: index, prefix, count, then the content.
    pub(super) fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.content.len() + 32);
        wire::put_field(&mut out, self.index.as_bytes());
        wire::put_field(&mut out, self.prefix.as_bytes());
        wire::put_varint(&mut out, u64::from(self.count));
        out.extend_from_slice(&self.content);
        out
    }

    pub(super) fn decode(bytes: &[u8]) -> Result<Self> {
        let bad = || invalid(CursorFault::Malformed, "it is truncated");
        let mut reader = wire::Reader(bytes);
        let index = reader.string().ok_or_else(bad)?;
        let prefix = reader.string().ok_or_else(bad)?;
        let count = reader
            .varint()
            .and_then(|count| u16::try_from(count).ok())
            .ok_or_else(bad)?;
        Ok(Positions {
            index,
            prefix,
            count,
            content: reader.0.to_vec(),
        })
    }

    /// How many shards, for `Debug`.
    pub(super) fn count(&self) -> u16 {
        self.count
    }

    /// The index, for `Debug`.
    pub(super) fn index(&self) -> &str {
        &self.index
    }
}

impl Cursor {
    /// The cursor of the query read over shards in `scope` (sharded) whose
    /// merge stands at `positions`, one per shard: sealed when the handle
    /// has a `seal`.
    pub(crate) fn at_shards(
        scope: &Scope<'_>,
        positions: &[ShardPosition],
        merged: Option<(&str, usize)>,
        seal: Option<&CursorSeal>,
        now: SystemTime,
    ) -> Result<Self> {
        let mut content = content(scope, positions)?;
        match merged {
            None => content.push(0),
            Some((sort_key, shard)) => {
                content.push(1);
                wire::put_varint(&mut content, shard as u64);
                wire::put_field(&mut content, sort_key.as_bytes());
            }
        }
        match seal {
            None => Ok(Cursor(Form::Shards(Positions {
                index: scope.index.unwrap_or_default().to_owned(),
                prefix: scope.partition.to_owned(),
                count: scope.shards.expect("a sharded scope"),
                content,
            }))),
            Some(seal) => seal.seal_content(scope, &content, now),
        }
    }

    /// Where every shard of the query read over shards in `scope` resumes
    /// from this cursor, and the merged position (sort key and shard of the
    /// last item handed out), or why it is not this query's.
    pub(crate) fn resume_shards(
        &self,
        scope: &Scope<'_>,
        seal: Option<&CursorSeal>,
        now: SystemTime,
    ) -> Result<(Vec<ShardPosition>, Option<Merged>)> {
        let mismatch = |reason: String| invalid(CursorFault::Mismatch, reason);
        let count = scope.shards.expect("a sharded scope");
        let content = match (&self.0, seal) {
            (Form::Shards(positions), None) => {
                if positions.index != scope.index.unwrap_or_default() {
                    return Err(mismatch("it belongs to another index".into()));
                }
                if positions.prefix != scope.partition {
                    return Err(mismatch("it belongs to another partition".into()));
                }
                if positions.count != count {
                    return Err(mismatch(format!(
                        "it was made over {} shards and this partition has {count}: a cursor does not outlive a change of shard count; start the listing again",
                        positions.count
                    )));
                }
                positions.content.clone()
            }
            (Form::Plain(_), None) => {
                return Err(mismatch(
                    "it is the cursor of a query on one partition, and this partition is read over shards".into(),
                ));
            }
            (Form::Sealed(sealed), Some(seal)) => seal.open_content(sealed, scope, now)?,
            (_, None) => return Err(super::sealing_mismatch(true)),
            (_, Some(_)) => return Err(super::sealing_mismatch(false)),
        };
        let malformed = |reason: &str| invalid(CursorFault::Malformed, reason);
        let attributes = scope.key_attributes();
        let mut reader = wire::Reader(&content);
        let mut positions = Vec::with_capacity(usize::from(count));
        let mut previous: Vec<String> = vec![String::new(); attributes.len()];
        for shard in 0..count {
            let (&tag, rest) = reader
                .0
                .split_first()
                .ok_or_else(|| malformed("it is truncated"))?;
            reader.0 = rest;
            positions.push(match tag {
                START => ShardPosition::Start,
                DONE => ShardPosition::Done,
                AFTER => {
                    let mut key = Item::new();
                    for (name, previous) in attributes.iter().zip(&mut previous) {
                        let value = if *name == scope.partition_attribute() {
                            scope.shard_partition(shard)
                        } else {
                            let incomplete = || malformed("its key is incomplete");
                            let shared = reader
                                .varint()
                                .and_then(|n| usize::try_from(n).ok())
                                .filter(|n| *n <= previous.len())
                                .filter(|n| previous.is_char_boundary(*n))
                                .ok_or_else(incomplete)?;
                            let rest = reader.string().ok_or_else(incomplete)?;
                            let value = format!("{}{rest}", &previous[..shared]);
                            value.clone_into(previous);
                            value
                        };
                        key.insert((*name).to_owned(), AttributeValue::S(value));
                    }
                    ShardPosition::After(key)
                }
                _ => return Err(malformed("it holds an unknown shard position")),
            });
        }
        let merged = match reader.0.split_first() {
            // What the earlier format (`m1.`, sealed alike) ended with.
            None => {
                return Err(invalid(
                    CursorFault::Outdated,
                    "it is a sharded cursor of an earlier format (per-shard positions only); start the listing again",
                ));
            }
            Some((0, rest)) => {
                reader.0 = rest;
                None
            }
            Some((1, rest)) => {
                reader.0 = rest;
                let shard = reader
                    .varint()
                    .and_then(|n| usize::try_from(n).ok())
                    .filter(|n| *n < usize::from(count))
                    .ok_or_else(|| malformed("its merged position is incomplete"))?;
                let key = reader
                    .string()
                    .ok_or_else(|| malformed("its merged position is incomplete"))?;
                Some((key, shard))
            }
            Some(_) => return Err(malformed("it holds an unknown merged position")),
        };
        if !reader.is_empty() {
            return Err(malformed("it holds more than its shards"));
        }
        // The last page of a listing has no cursor: one with every shard
        // done was never handed out.
        if positions.iter().all(|p| *p == ShardPosition::Done) {
            return Err(malformed(
                "it has every shard done, which no page hands out",
            ));
        }
        Ok((positions, merged))
    }
}

/// The per-shard content of a cursor at `positions`: each `After` key must
/// be exactly the scope's key attributes, strings, in its own shard.
fn content(scope: &Scope<'_>, positions: &[ShardPosition]) -> Result<Vec<u8>> {
    let count = scope.shards.expect("a sharded scope");
    if positions.len() != usize::from(count) {
        return Err(invalid(
            CursorFault::Mismatch,
            format!("{} shard positions for {count} shards", positions.len()),
        ));
    }
    let attributes = scope.key_attributes();
    let mut out = Vec::with_capacity(positions.len() * 48);
    let mut previous: Vec<&str> = vec![""; attributes.len()];
    for (shard, position) in (0..count).zip(positions) {
        match position {
            ShardPosition::Start => out.push(START),
            ShardPosition::Done => out.push(DONE),
            ShardPosition::After(key) => {
                out.push(AFTER);
                let mismatch = |reason: String| invalid(CursorFault::Mismatch, reason);
                if key.len() != attributes.len() {
                    return Err(mismatch(format!(
                        "shard {shard} stopped at a key of {} attributes, where this query's index is keyed by exactly {attributes:?}",
                        key.len()
                    )));
                }
                for (name, previous) in attributes.iter().zip(&mut previous) {
                    let Some(AttributeValue::S(value)) = key.get(*name) else {
                        return Err(mismatch(format!(
                            "shard {shard} stopped at a key without the string `{name}`"
                        )));
                    };
                    if *name == scope.partition_attribute() {
                        if *value != scope.shard_partition(shard) {
                            return Err(mismatch(format!(
                                "shard {shard} stopped at a key of another partition"
                            )));
                        }
                    } else {
                        let shared = shared_prefix(previous, value);
                        wire::put_varint(&mut out, shared as u64);
                        wire::put_field(&mut out, &value.as_bytes()[shared..]);
                        *previous = value;
                    }
                }
            }
        }
    }
    Ok(out)
}

/// The length of the longest common prefix of `a` and `b` that ends on a
/// character boundary of both.
fn shared_prefix(a: &str, b: &str) -> usize {
    a.char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map_or(a.len().min(b.len()), |((at, _), _)| at)
}
