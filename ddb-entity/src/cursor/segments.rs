//! The cursor of a scan read over several segments as one listing
//! (`Scan::page`, `Scan::after`): where every segment stands, as one
//! cursor.
//!
//! A scan hands out its segments one after the other, so most of them
//! stand at their start (not reached) or are done; only those that are not
//! at their start are written. The content (`p1.`): the index, the
//! segment count, then per segment written, in segment order, its number,
//! a tag (`1` after a key, `2` done) and after a `1` the key: its
//! attributes, sorted by name, each name and value. Never sealed: a scan is
//! an operations job, whose cursors are its own, not handed to clients.

use aws_sdk_dynamodb::types::AttributeValue;

use super::{Cursor, Form, invalid, wire};
use crate::cursor::ShardPosition;
use crate::error::{CursorFault, Result};
use crate::item::Item;

const AFTER: u8 = 1;
const DONE: u8 = 2;

impl Cursor {
    /// The cursor of a scan of `index` in `total` segments whose segments
    /// stand at `positions` (segment, position): those at their start are
    /// left out.
    pub(crate) fn at_segments(
        index: Option<&str>,
        total: u32,
        positions: &[(u32, ShardPosition)],
    ) -> Result<Self> {
        let mut out = Vec::new();
        wire::put_field(&mut out, index.unwrap_or_default().as_bytes());
        wire::put_varint(&mut out, u64::from(total));
        let written: Vec<&(u32, ShardPosition)> = positions
            .iter()
            .filter(|(_, position)| *position != ShardPosition::Start)
            .collect();
        wire::put_varint(&mut out, written.len() as u64);
        for (segment, position) in written {
            wire::put_varint(&mut out, u64::from(*segment));
            match position {
                ShardPosition::Start => unreachable!("left out above"),
                ShardPosition::Done => out.push(DONE),
                ShardPosition::After(key) => {
                    out.push(AFTER);
                    let mut pairs = Vec::with_capacity(key.len());
                    for (name, value) in key {
                        let AttributeValue::S(value) = value else {
                            return Err(invalid(
                                CursorFault::Mismatch,
                                format!(
                                    "key attribute `{name}` is not a string; ddb-entity tables have string keys"
                                ),
                            ));
                        };
                        pairs.push((name.as_str(), value.as_str()));
                    }
                    pairs.sort_unstable();
                    wire::put_varint(&mut out, pairs.len() as u64);
                    for (name, value) in pairs {
                        wire::put_field(&mut out, name.as_bytes());
                        wire::put_field(&mut out, value.as_bytes());
                    }
                }
            }
        }
        Ok(Cursor(Form::Segments(out)))
    }

    /// Where the segments of a scan of `index` in `total` segments, keyed
    /// by exactly `key_schema`, resume from this cursor: the segments it
    /// names, each after a key or done (the others start from their
    /// beginning); or why it is not this scan's.
    pub(crate) fn resume_segments(
        &self,
        index: Option<&str>,
        total: u32,
        key_schema: &[&str],
    ) -> Result<Vec<(u32, ShardPosition)>> {
        let mismatch = |reason: String| invalid(CursorFault::Mismatch, reason);
        let malformed = |reason: &str| invalid(CursorFault::Malformed, reason);
        let Form::Segments(bytes) = &self.0 else {
            return Err(mismatch(
                "it is not the cursor of a scan's page (`Scan::page`)".into(),
            ));
        };
        let truncated = || malformed("it is truncated");
        let mut reader = wire::Reader(bytes);
        let made_on = reader.string().ok_or_else(truncated)?;
        let made_over = reader.varint().ok_or_else(truncated)?;
        if made_on != index.unwrap_or_default() {
            return Err(mismatch(
                "it is the cursor of a scan of another index".into(),
            ));
        }
        if made_over != u64::from(total) {
            return Err(mismatch(format!(
                "it was made by a scan in {made_over} segments, and this one has {total}"
            )));
        }
        let mut expected: Vec<&str> = key_schema.to_vec();
        expected.sort_unstable();
        expected.dedup();
        let count = reader.varint().ok_or_else(truncated)?;
        let mut positions = Vec::new();
        for _ in 0..count {
            let segment = reader
                .varint()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(truncated)?;
            if segment >= total || positions.last().is_some_and(|(last, _)| *last >= segment) {
                return Err(malformed("its segments are out of order or out of range"));
            }
            let (&tag, rest) = reader.0.split_first().ok_or_else(truncated)?;
            reader.0 = rest;
            let position = match tag {
                DONE => ShardPosition::Done,
                AFTER => {
                    let attributes = reader.varint().ok_or_else(truncated)?;
                    let mut key = Item::new();
                    let mut names = Vec::new();
                    for _ in 0..attributes {
                        let name = reader.string().ok_or_else(truncated)?;
                        let value = reader.string().ok_or_else(truncated)?;
                        names.push(name.clone());
                        key.insert(name, AttributeValue::S(value));
                    }
                    if names != expected {
                        return Err(mismatch(format!(
                            "segment {segment} stopped at a key of the attributes {names:?}, where this scan's items are keyed by exactly {expected:?}"
                        )));
                    }
                    ShardPosition::After(key)
                }
                _ => return Err(malformed("it holds an unknown segment position")),
            };
            positions.push((segment, position));
        }
        if !reader.is_empty() {
            return Err(malformed("it holds more than its segments"));
        }
        Ok(positions)
    }
}
