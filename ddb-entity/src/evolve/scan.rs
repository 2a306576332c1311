//! One segment of a job's scan, page by page, raw: the items exactly as
//! stored (a job compares them with what it would write). Each page is one
//! request of the read engine's (`read/engine/page.rs`'s `send`: metered,
//! counted, throttling and transient failures retried with the batch
//! engine's backoff within the job's budget); this file only says what the
//! job's scan asks for and turns positions into checkpoints.

use std::collections::HashMap;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::AttributeValue;

use super::checkpoint::SegmentPosition;
use crate::batch::BatchRetry;
pub(crate) use crate::batch::{backoff, pause_within};
use crate::capacity::Capacity;
use crate::cursor::Cursor;
use crate::error::Repr;
use crate::error::Result;
use crate::item::Item;
use crate::read::engine::found::Found;
use crate::read::engine::{Items, Operation, Rendered, Request, Target, Totals, page};
use crate::table::KeySchema;

/// What every page request of one job's scan shares.
pub(crate) struct ScanSpec {
    pub(crate) client: Client,
    pub(crate) table: String,
    /// The table's key attributes: what a cursor of its scan holds.
    pub(crate) key_names: Vec<String>,
    /// A table of any key types (a legacy table): its key values are
    /// tagged with their type inside cursors, which hold only strings.
    pub(crate) any_key_types: bool,
    pub(crate) segments: u32,
    pub(crate) page_size: Option<usize>,
    /// `#t = :t` on the type attribute, or none (a legacy table: every item).
    pub(crate) filter: Option<ScanFilter>,
    pub(crate) retry: BatchRetry,
    /// The handle's meter: a job's reads are metered like any read.
    pub(crate) meter: Option<Capacity>,
}

/// A scan's filter expression and its placeholders.
pub(crate) struct ScanFilter {
    pub(crate) expression: String,
    pub(crate) names: HashMap<String, String>,
    pub(crate) values: HashMap<String, AttributeValue>,
}

/// The segments a job has still to do, each from its start key.
pub(crate) type Pending = Vec<(u32, Option<Item>)>;

/// One page of one segment.
pub(crate) struct RawPage {
    pub(crate) items: Vec<Item>,
    /// Items DynamoDB read for it (before the filter).
    pub(crate) scanned: usize,
    /// Where the segment stands once the page is done.
    pub(crate) next: SegmentPosition,
    /// Requests that were retries (throttling, transient failures).
    pub(crate) retries: u32,
}

impl ScanSpec {
    /// The start key of `segment` resumed after `cursor`.
    pub(crate) fn start_key(&self, segment: u32, cursor: Option<&Cursor>) -> Result<Option<Item>> {
        let names: Vec<&str> = self.key_names.iter().map(String::as_str).collect();
        let Some(cursor) = cursor else {
            return Ok(None);
        };
        let key = cursor.scan_start_key(None, segment, self.segments, &names)?;
        if self.any_key_types {
            return untag_key(key).map(Some);
        }
        Ok(Some(key))
    }

    /// The page of `segment` from `start`, retried within the budget when
    /// the request is throttled or fails transiently.
    pub(crate) async fn page(&self, segment: u32, start: Option<Item>) -> Result<RawPage> {
        let target = Target {
            client: &self.client,
            table: &self.table,
            meter: self.meter.as_ref(),
            now: std::time::SystemTime::now(),
        };
        let rendered = Rendered {
            operation: Operation::Scan,
            index: None,
            filter: self.filter.as_ref().map(|f| f.expression.clone()),
            projection: None,
            names: self.filter.as_ref().map(|f| f.names.clone()),
            values: self.filter.as_ref().map(|f| f.values.clone()),
            // The job compares what it read with what it writes.
            consistent: true,
            count: false,
        };
        let request = Request {
            rendered: &rendered,
            segment: (self.segments > 1).then_some((segment, self.segments)),
            start: start.as_ref(),
            limit: self.page_size,
        };
        let mut totals = Totals::default();
        let answer =
            page::send(target, request, Items::Raw, Some(&self.retry), &mut totals).await?;
        let last = match answer.last_key {
            Some(key) if self.any_key_types => Some(tag_key(&self.table, key)?),
            other => other,
        };
        let next = match last {
            Some(key) => {
                SegmentPosition::After(Cursor::for_scan(None, segment, self.segments, &key)?)
            }
            None => SegmentPosition::Done,
        };
        Ok(RawPage {
            items: answer.items.into_iter().map(Found::into_item).collect(),
            scanned: answer.scanned,
            next,
            retries: totals.retries,
        })
    }
}

impl ScanSpec {
    /// The key attribute names of `keys`.
    pub(crate) fn names_of(keys: KeySchema) -> Vec<String> {
        [Some(keys.partition_key), keys.sort_key]
            .into_iter()
            .flatten()
            .map(str::to_owned)
            .collect()
    }
}

/// A legacy table's key as strings a cursor can hold: `S…` or `N…`.
fn tag_key(table: &str, key: Item) -> Result<Item> {
    key.into_iter()
        .map(|(name, value)| {
            let tagged = match value {
                AttributeValue::S(s) => format!("S{s}"),
                AttributeValue::N(n) => format!("N{n}"),
                _ => {
                    return Err(Repr::InvalidCursor {
                        fault: crate::error::CursorFault::Malformed,
                        reason: format!(
                            "table `{table}` has a binary key attribute `{name}`; a migration checkpoint holds string and number keys only"
                        ),
                    }
                    .into());
                }
            };
            Ok((name, AttributeValue::S(tagged)))
        })
        .collect()
}

/// The key [`tag_key`] tagged.
fn untag_key(key: Item) -> Result<Item> {
    key.into_iter()
        .map(|(name, value)| {
            let text = value.as_s().map(String::as_str).unwrap_or_default();
            let value = match text.split_at_checked(1) {
                Some(("S", s)) => AttributeValue::S(s.to_owned()),
                Some(("N", n)) => AttributeValue::N(n.to_owned()),
                _ => {
                    return Err(Repr::InvalidCursor {
                        fault: crate::error::CursorFault::Malformed,
                        reason: format!(
                            "key attribute `{name}` of the checkpoint is not a tagged key value"
                        ),
                    }
                    .into());
                }
            };
            Ok((name, value))
        })
        .collect()
}
