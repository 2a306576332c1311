//! The one function that sends one page of any read — a Query of one
//! partition, of one shard, of a multi-attribute index, or one Scan
//! segment — and does, once, what every read needs: the request, the
//! error's mapping, the capacity's metering, the counts, time-to-live
//! hiding, setting aside the index keys stored-key verification must not
//! see, and — when the read has a retry budget — sending a throttled or
//! transiently failed request again after a pause. Every read path in the
//! crate (the typed reads, the survey, the jobs' raw scans) goes through
//! [`send`].

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Instant, SystemTime};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, ConsumedCapacity, ReturnConsumedCapacity, Select};

use super::found::{Found, FoundBytes, ItemText, Origin, body_text};
use super::seam::Body;
use super::split::{member, member_error, split, wire_capacity};
use crate::batch::{BatchRetry, Jitter, backoff};
use crate::capacity::{Capacity, Spent};
use crate::entity::verify::keep_keys_found_by;
use crate::error::{Error, Result};
use crate::item::Item;
use crate::table::TableSchema;

/// Where requests go: the client, the table and the handle's meter and
/// clock, borrowed or owned alike by every source.
#[derive(Clone, Copy)]
pub(crate) struct Target<'a> {
    pub(crate) client: &'a Client,
    pub(crate) table: &'a str,
    pub(crate) meter: Option<&'a Capacity>,
    pub(crate) now: SystemTime,
}

impl<'a> Target<'a> {
    /// Where the requests of a read on `db` go.
    pub(crate) fn of<T: crate::table::Table>(db: &'a crate::db::Db<T>) -> Self {
        Target {
            client: db.client(),
            table: db.table_name(),
            meter: db.meter(),
            now: db.now(),
        }
    }
}

/// Which operation a page is.
#[derive(Debug, Clone)]
pub(crate) enum Operation {
    /// A Query with this key condition, ascending unless `reverse`.
    Query {
        key_condition: String,
        reverse: bool,
    },
    /// A Scan (of the segment its [`Request`] names, when split).
    Scan,
}

/// Everything one request says, rendered once (per lane where lanes ask
/// for different keys: a shard's partition), its placeholders included,
/// and sent page after page with only the start key (and a scan's
/// segment) changing.
#[derive(Debug, Clone)]
pub(crate) struct Rendered {
    pub(crate) operation: Operation,
    pub(crate) index: Option<&'static str>,
    pub(crate) filter: Option<String>,
    pub(crate) projection: Option<String>,
    pub(crate) names: Option<HashMap<String, String>>,
    pub(crate) values: Option<HashMap<String, AttributeValue>>,
    pub(crate) consistent: bool,
    /// `Select=COUNT`: the server counts, no item comes back.
    pub(crate) count: bool,
}

/// One request of a lane: what it sends, of which scan segment, from
/// where, for at most how many items.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Request<'a> {
    pub(crate) rendered: &'a Rendered,
    /// Segment `.0` of `.1`, for a scan split into segments.
    pub(crate) segment: Option<(u32, u32)>,
    pub(crate) start: Option<&'a Item>,
    pub(crate) limit: Option<usize>,
}

/// What the items of a page are handed on as.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Items {
    /// Typed reads: expired items hidden (unless `include_expired`), the
    /// index keys the item was not found by set aside for verification
    /// (`found_by`: the index whose keys stay).
    Typed {
        schema: TableSchema,
        include_expired: bool,
        found_by: Option<&'static str>,
        /// Decoded from the response's bytes (the collection reads them:
        /// `Collection::READS_BYTES`), not from the SDK's items.
        bytes: bool,
        /// The attribute several lanes' items are merged by, read from
        /// each item's bytes as the page arrives.
        merged_by: Option<&'static str>,
    },
    /// Exactly as DynamoDB returns them (the survey's, the jobs').
    Raw,
}

/// One answered request.
#[derive(Debug, Default)]
pub(crate) struct Answer {
    pub(crate) items: Vec<Found>,
    /// `LastEvaluatedKey`: `Some` while the lane has more.
    pub(crate) last_key: Option<Item>,
    /// Items DynamoDB read (`Limit` counts these): at least those it
    /// returned and those it counted.
    pub(crate) scanned: usize,
    /// Items DynamoDB selected (`Count`): returned, or counted by
    /// `Select=COUNT`, before any item is hidden here.
    pub(crate) counted: usize,
}

/// What a read's requests cost so far, recorded on its span.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Totals {
    pub(crate) requests: u64,
    /// Requests that were sent again after a throttle or transient failure.
    pub(crate) retries: u32,
    pub(crate) items: usize,
    pub(crate) scanned: usize,
    pub(crate) spent: Spent,
}

impl Totals {
    /// Adds `other`'s costs to these.
    pub(crate) fn add(&mut self, other: &Totals) {
        self.requests += other.requests;
        self.retries += other.retries;
        self.items += other.items;
        self.scanned += other.scanned;
        self.spent.add(other.spent);
    }

    /// Records every total on the current span.
    pub(crate) fn record(&self) {
        let span = tracing::Span::current();
        span.record("requests", self.requests);
        span.record("items", self.items);
        span.record("scanned", self.scanned);
        self.spent.record();
    }
}

/// Sends `request`, one page; with a `retry` budget, a request refused by
/// throttling or failed transiently is sent again after a pause with full
/// jitter (each attempt metered and counted as a request).
pub(crate) async fn send(
    target: Target<'_>,
    request: Request<'_>,
    items: Items,
    retry: Option<&BatchRetry>,
    totals: &mut Totals,
) -> Result<Answer> {
    let started = Instant::now();
    let mut jitter = None;
    loop {
        let err = match send_once(target, request, items, totals).await {
            Ok(answer) => return Ok(answer),
            Err(err) => err,
        };
        let Some(retry) = retry else {
            return Err(err);
        };
        // Segments draw their own pauses: they retry apart, not in waves.
        let stream = request.segment.map_or(0, |(segment, _)| u64::from(segment));
        let jitter = jitter.get_or_insert_with(|| Jitter::new(stream));
        backoff(
            target.client,
            retry,
            jitter,
            &mut totals.retries,
            started,
            err,
        )
        .await?;
    }
}

/// One attempt of [`send`].
async fn send_once(
    target: Target<'_>,
    request: Request<'_>,
    items: Items,
    totals: &mut Totals,
) -> Result<Answer> {
    let Request {
        rendered,
        segment,
        start,
        limit,
    } = request;
    let start = start.cloned();
    let limit = limit.map(|n| i32::try_from(n.max(1)).unwrap_or(i32::MAX));
    let select = rendered.count.then_some(Select::Count);
    let index = rendered.index.map(str::to_owned);
    let consistent = rendered.consistent.then_some(true);
    // A typed read of entities that read bytes decodes them from the
    // response's body; a count (no items), a raw read and a hand-written
    // collection take the SDK's output.
    let body = match items {
        Items::Typed { bytes: true, .. } if !rendered.count => Some(Body::default()),
        _ => None,
    };
    let raw = match &rendered.operation {
        Operation::Query {
            key_condition,
            reverse,
        } => {
            let sent = target
                .client
                .query()
                .table_name(target.table)
                .set_index_name(index)
                .key_condition_expression(key_condition)
                .scan_index_forward(!reverse)
                .set_consistent_read(consistent)
                .set_limit(limit)
                .set_exclusive_start_key(start)
                .set_select(select)
                .set_filter_expression(rendered.filter.clone())
                .set_projection_expression(rendered.projection.clone())
                .set_expression_attribute_names(rendered.names.clone())
                .set_expression_attribute_values(rendered.values.clone())
                .return_consumed_capacity(ReturnConsumedCapacity::Total);
            let sent = match &body {
                Some(body) => sent.customize().interceptor(body.capture()).send().await,
                None => sent.send().await,
            };
            let raw = sent.map(|o| Raw {
                capacity: o.consumed_capacity,
                items: o
                    .items
                    .map(|items| items.into_iter().map(Found::Item).collect()),
                last_key: o.last_evaluated_key,
                count: o.count,
                scanned: o.scanned_count,
            });
            raw.map_err(|err| Error::service("Query", target.table, err))
                .and_then(|raw| match &body {
                    Some(body) => from_body(body, items, Origin::new("Query", target.table)),
                    None => Ok(raw),
                })
        }
        Operation::Scan => {
            let (segment, total) = match segment {
                Some((segment, total)) => (
                    Some(i32::try_from(segment).unwrap_or(i32::MAX)),
                    Some(i32::try_from(total).unwrap_or(i32::MAX)),
                ),
                None => (None, None),
            };
            let sent = target
                .client
                .scan()
                .table_name(target.table)
                .set_index_name(index)
                .set_segment(segment)
                .set_total_segments(total)
                .set_consistent_read(consistent)
                .set_limit(limit)
                .set_exclusive_start_key(start)
                .set_select(select)
                .set_filter_expression(rendered.filter.clone())
                .set_projection_expression(rendered.projection.clone())
                .set_expression_attribute_names(rendered.names.clone())
                .set_expression_attribute_values(rendered.values.clone())
                .return_consumed_capacity(ReturnConsumedCapacity::Total);
            let sent = match &body {
                Some(body) => sent.customize().interceptor(body.capture()).send().await,
                None => sent.send().await,
            };
            let raw = sent.map(|o| Raw {
                capacity: o.consumed_capacity,
                items: o
                    .items
                    .map(|items| items.into_iter().map(Found::Item).collect()),
                last_key: o.last_evaluated_key,
                count: o.count,
                scanned: o.scanned_count,
            });
            raw.map_err(|err| Error::service("Scan", target.table, err))
                .and_then(|raw| match &body {
                    Some(body) => from_body(body, items, Origin::new("Scan", target.table)),
                    None => Ok(raw),
                })
        }
    };
    totals.requests += 1;
    // Each request's capacity is metered as it is answered: a stream's
    // consumer may stop at any page, and a failed request was sent too.
    let mut spent = Spent::default();
    let raw = match raw {
        Ok(raw) => {
            spent.read(raw.capacity.as_ref());
            raw
        }
        Err(err) => {
            spent.failed();
            spent.meter(target.meter);
            totals.spent.add(spent);
            return Err(err);
        }
    };
    spent.meter(target.meter);
    totals.spent.add(spent);
    let mut found = raw.items.unwrap_or_default();
    let counted = usize::try_from(raw.count).unwrap_or_default();
    // `Limit` counts the items read, before any filter; a server that
    // leaves `ScannedCount` out read at least what it returned or counted.
    let scanned = usize::try_from(raw.scanned)
        .unwrap_or_default()
        .max(found.len())
        .max(counted);
    if let Items::Typed {
        schema,
        include_expired,
        found_by,
        ..
    } = items
    {
        if !include_expired {
            found.retain(|found| !found.is_expired(&schema, target.now));
        }
        // Decoding verifies the keys an item was found by: the table's,
        // and on an index that index's (an item read from the bytes
        // carries `found_by` to its decode).
        for found in &mut found {
            if let Found::Item(item) = found {
                keep_keys_found_by(item, &schema, found_by);
            }
        }
    }
    totals.items += found.len();
    totals.scanned += scanned;
    Ok(Answer {
        items: found,
        last_key: raw.last_key.filter(|key| !key.is_empty()),
        scanned,
        counted,
    })
}

/// The page a typed read's response body holds (the SDK parsed a stub):
/// its counts, start key and capacity read from the bytes, and each item
/// kept as its bytes (a slice of the body's, no copy), parsed once when it
/// is handed out. A body that is not such a page fails as the SDK fails a
/// response it cannot parse.
fn from_body(body: &Body, items: Items, origin: Arc<Origin>) -> Result<Raw> {
    let body = body.take(&origin)?;
    read_page(body, items, &origin).map_err(|detail| origin.malformed(&detail))
}

fn read_page(
    body: bytes::Bytes,
    items: Items,
    origin: &Arc<Origin>,
) -> std::result::Result<Raw, String> {
    let Items::Typed {
        found_by,
        merged_by,
        ..
    } = items
    else {
        unreachable!("only a typed read takes the bytes");
    };
    // UTF-8 checked once for the page, not string by string nor item by
    // item.
    let body = body_text(body)?;
    let page = split(&body)?;
    let found = page
        .items
        .into_iter()
        .map(|span| {
            Found::Bytes(FoundBytes::new(
                ItemText::new(&body, span),
                found_by,
                merged_by,
                origin,
            ))
        })
        .collect();
    let (mut count, mut scanned, mut last_key, mut capacity) = (0, 0, None, None);
    for (name, value) in page.members {
        match name {
            "Count" => count = member(name, value)?,
            "ScannedCount" => scanned = member(name, value)?,
            "LastEvaluatedKey" if value != "null" => {
                let key = crate::codec::wire::parse_item(value).map_err(|err| err.to_string())?;
                last_key = Some(
                    crate::codec::wire::to_item(&key)
                        .ok_or("a start key of an attribute type this version does not know")?,
                );
            }
            "ConsumedCapacity" => {
                capacity = wire_capacity(value).map_err(|e| member_error(name, e))?
            }
            _ => member::<serde::de::IgnoredAny>(name, value).map(drop)?,
        }
    }
    Ok(Raw {
        capacity,
        items: Some(found),
        last_key,
        count,
        scanned,
    })
}

/// The parts of a Query's and a Scan's output a page reads.
struct Raw {
    capacity: Option<ConsumedCapacity>,
    items: Option<Vec<Found>>,
    last_key: Option<Item>,
    count: i32,
    scanned: i32,
}
