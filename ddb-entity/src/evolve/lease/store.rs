//! The lease items of one job and the conditional writes that move them:
//! the header that fixes the job's segmentation, and per segment its
//! owner, lease counter, heartbeat counter, position and counts. Every
//! write of an owner is conditioned on its owner and lease counter, so a
//! worker that lost its lease can no longer move anything.

use std::collections::{BTreeMap, HashMap};
use std::time::{Instant, SystemTime};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_dynamodb::types::{AttributeValue, ReturnValue, ReturnValuesOnConditionCheckFailure};

use super::super::checkpoint::SegmentPosition;
use super::super::scan::backoff;
use crate::batch::{BatchRetry, Jitter};
use crate::error::{Error, Repr, Result};
use crate::item::Item;

/// The lease table's partition key: the job's name.
pub(crate) const JOB: &str = "job";
/// The lease table's sort key: the segment as seven digits, or `HEADER`
/// for the job's header (after every segment).
pub(crate) const SEGMENT: &str = "segment";
const HEADER: &str = "HEADER";

const KIND: &str = "kind";
const SEGMENTS: &str = "segments";
const CREATED_BY: &str = "created_by";
const OWNER: &str = "owner";
const LEASE: &str = "lease";
const BEAT: &str = "beat";
const POSITION: &str = "position";
const COUNTS: &str = "counts";
const HEARTBEAT_AT: &str = "heartbeat_at";
const TAKEN_OVER: &str = "taken_over";
const FINISHED_BY: &str = "finished_by";
const FINISHED_LEASE: &str = "finished_lease";

/// One job's lease items, in one table.
#[derive(Clone)]
pub(crate) struct Store {
    pub(crate) client: Client,
    pub(crate) table: String,
    pub(crate) job: String,
    pub(crate) retry: BatchRetry,
}

/// A segment's lease as read.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Record {
    pub(crate) segment: u32,
    pub(crate) owner: Option<String>,
    pub(crate) lease: u64,
    pub(crate) beat: u64,
    pub(crate) position: SegmentPosition,
    pub(crate) counts: BTreeMap<String, u64>,
    /// Milliseconds since the epoch by the owner's clock: for people, never
    /// for deciding anything.
    pub(crate) heartbeat_at: Option<u64>,
    pub(crate) taken_over: u64,
    pub(crate) finished_by: Option<String>,
}

/// A segment this worker now holds.
#[derive(Debug, Clone)]
pub(crate) struct Held {
    pub(crate) lease: u64,
    pub(crate) position: SegmentPosition,
    pub(crate) counts: BTreeMap<String, u64>,
}

/// What an owner's write found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kept {
    /// Written: the lease is still this worker's.
    Yes,
    /// Refused: another worker holds the segment now.
    Lost,
}

/// How a segment is claimed.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Claim {
    /// Nobody ever held it.
    Free,
    /// Its owner's lease, with the heartbeat counter this worker saw
    /// unchanged for a whole lease duration.
    Expired { lease: u64, beat: u64 },
}

impl Store {
    fn key(&self, sort: String) -> Item {
        Item::from([
            (JOB.to_owned(), AttributeValue::S(self.job.clone())),
            (SEGMENT.to_owned(), AttributeValue::S(sort)),
        ])
    }

    fn segment_key(&self, segment: u32) -> Item {
        self.key(format!("{segment:07}"))
    }

    /// The job's segmentation: the header's, written by the first worker
    /// (`segments`, or `default`), checked by every other: a worker of
    /// another kind of job, or asking for other segments, is refused.
    pub(crate) async fn header(
        &self,
        kind: &str,
        segments: Option<u32>,
        default: u32,
        me: &str,
    ) -> Result<u32> {
        let mut item = self.key(HEADER.to_owned());
        item.insert(KIND.to_owned(), s(kind));
        let wanted = segments.unwrap_or(default);
        item.insert(SEGMENTS.to_owned(), n(u64::from(wanted)));
        item.insert(CREATED_BY.to_owned(), s(me));
        let put = self.send_with_retry("PutItem", || {
            self.client
                .put_item()
                .table_name(&self.table)
                .set_item(Some(item.clone()))
                .condition_expression("attribute_not_exists(#job)")
                .expression_attribute_names("#job", JOB)
                .send()
        });
        match put.await {
            Ok(_) => return Ok(wanted),
            Err(err) if err.is_condition_failed() => {}
            Err(err) => return Err(err),
        }
        let stored = self
            .get(self.key(HEADER.to_owned()))
            .await?
            .unwrap_or_default();
        let stored_kind = text(&stored, KIND).unwrap_or_default();
        let stored_segments = number(&stored, SEGMENTS).unwrap_or(0);
        let refuse = |reason: String| -> Error {
            Repr::InvalidExpression {
                what: format!("a worker of job `{}`", self.job),
                reason,
            }
            .into()
        };
        if stored_kind != kind {
            return Err(refuse(format!(
                "the job's leases in table `{}` belong to a {stored_kind}, not to this {kind}; give this job another name",
                self.table
            )));
        }
        let stored_segments = u32::try_from(stored_segments).unwrap_or(0);
        match segments {
            Some(asked) if asked != stored_segments => Err(refuse(format!(
                "the job splits the table in {stored_segments} segments and `.segments({asked})` asks for {asked}; every worker of a job keeps its segmentation: leave `.segments` out, or give {stored_segments}"
            ))),
            _ if stored_segments == 0 => Err(refuse(
                "its header item has no segment count: not a job of this library".to_owned(),
            )),
            _ => Ok(stored_segments),
        }
    }

    /// The job's segment count, from its header; `None` before any worker
    /// started it.
    pub(crate) async fn segments(&self) -> Result<Option<u32>> {
        let header = self.get(self.key(HEADER.to_owned())).await?;
        Ok(header
            .and_then(|item| number(&item, SEGMENTS))
            .and_then(|n| u32::try_from(n).ok()))
    }

    /// Every segment's lease (a consistent Query of the job's partition).
    pub(crate) async fn read(&self) -> Result<Vec<Record>> {
        let mut records = Vec::new();
        let mut start: Option<Item> = None;
        loop {
            let page = self
                .send_with_retry("Query", || {
                    self.client
                        .query()
                        .table_name(&self.table)
                        .key_condition_expression("#job = :job")
                        .expression_attribute_names("#job", JOB)
                        .expression_attribute_values(":job", s(&self.job))
                        .consistent_read(true)
                        .set_exclusive_start_key(start.clone())
                        .send()
                })
                .await?;
            for item in page.items() {
                if let Some(record) = record(item)? {
                    records.push(record);
                }
            }
            start = page.last_evaluated_key;
            if start.is_none() {
                return Ok(records);
            }
        }
    }

    /// Claims `segment` for `me`: a free one, or one whose lease expired
    /// (its counters still the ones seen). `None` when another worker got
    /// it first.
    pub(crate) async fn claim(
        &self,
        segment: u32,
        claim: Claim,
        me: &str,
        now: SystemTime,
    ) -> Result<Option<Held>> {
        let mut names = HashMap::from([
            ("#owner".to_owned(), OWNER.to_owned()),
            ("#lease".to_owned(), LEASE.to_owned()),
            ("#beat".to_owned(), BEAT.to_owned()),
            ("#position".to_owned(), POSITION.to_owned()),
            ("#at".to_owned(), HEARTBEAT_AT.to_owned()),
        ]);
        let mut values = HashMap::from([
            (":me".to_owned(), s(me)),
            (":zero".to_owned(), n(0)),
            (":one".to_owned(), n(1)),
            (":at".to_owned(), n(millis(now))),
        ]);
        let (update, condition) = match claim {
            Claim::Free => {
                values.insert(":start".to_owned(), s(&SegmentPosition::Start.to_string()));
                (
                    "SET #owner = :me, #lease = if_not_exists(#lease, :zero) + :one, #beat = :zero, #position = if_not_exists(#position, :start), #at = :at",
                    "attribute_not_exists(#owner)",
                )
            }
            Claim::Expired { lease, beat } => {
                names.insert("#taken".to_owned(), TAKEN_OVER.to_owned());
                values.insert(":lease".to_owned(), n(lease));
                values.insert(":beat".to_owned(), n(beat));
                values.insert(":next".to_owned(), n(lease + 1));
                values.insert(":done".to_owned(), s(&SegmentPosition::Done.to_string()));
                (
                    "SET #owner = :me, #lease = :next, #beat = :zero, #taken = if_not_exists(#taken, :zero) + :one, #at = :at",
                    "#lease = :lease AND #beat = :beat AND #position <> :done",
                )
            }
        };
        let key = self.segment_key(segment);
        let sent = self
            .send_with_retry("UpdateItem", || {
                self.client
                    .update_item()
                    .table_name(&self.table)
                    .set_key(Some(key.clone()))
                    .update_expression(update)
                    .condition_expression(condition)
                    .set_expression_attribute_names(Some(names.clone()))
                    .set_expression_attribute_values(Some(values.clone()))
                    .return_values(ReturnValue::AllNew)
                    .send()
            })
            .await;
        let stored = match sent {
            Ok(output) => output.attributes.unwrap_or_default(),
            // Refused: someone else's now, unless an attempt of this very
            // claim was applied and its answer lost (the worker's name is
            // its own, so an owner of that name is this worker).
            Err(err) if err.is_condition_failed() => match self.get(key).await? {
                Some(item) if text(&item, OWNER).as_deref() == Some(me) => item,
                _ => return Ok(None),
            },
            Err(err) => return Err(err),
        };
        let Some(record) = record(&stored)? else {
            return Ok(None);
        };
        Ok(Some(Held {
            lease: record.lease,
            position: record.position,
            counts: record.counts,
        }))
    }

    /// A heartbeat of `me`'s lease on `segment`.
    pub(crate) async fn heartbeat(
        &self,
        segment: u32,
        lease: u64,
        me: &str,
        now: SystemTime,
    ) -> Result<Kept> {
        self.owner_write(
            segment,
            lease,
            me,
            "SET #beat = #beat + :one, #at = :at",
            now,
            Vec::new(),
        )
        .await
    }

    /// Moves `me`'s segment to `position` with its `counts` (a heartbeat
    /// too); at `Done`, records who finished it under which lease.
    pub(crate) async fn checkpoint(
        &self,
        segment: u32,
        lease: u64,
        me: &str,
        position: &SegmentPosition,
        counts: &BTreeMap<String, u64>,
        now: SystemTime,
    ) -> Result<Kept> {
        let counts = AttributeValue::M(
            counts
                .iter()
                .map(|(name, value)| (name.clone(), n(*value)))
                .collect(),
        );
        let mut extra = vec![
            ("#position", POSITION, ":position", s(&position.to_string())),
            ("#counts", COUNTS, ":counts", counts),
        ];
        let mut update =
            "SET #beat = #beat + :one, #at = :at, #position = :position, #counts = :counts"
                .to_owned();
        if *position == SegmentPosition::Done {
            extra.push(("#finished", FINISHED_BY, ":me2", s(me)));
            extra.push(("#finished_lease", FINISHED_LEASE, ":lease2", n(lease)));
            update.push_str(", #finished = :me2, #finished_lease = :lease2");
        }
        self.owner_write(segment, lease, me, &update, now, extra)
            .await
    }

    /// An update of `me`'s own lease, conditioned on `me` still holding it
    /// under `lease`.
    async fn owner_write(
        &self,
        segment: u32,
        lease: u64,
        me: &str,
        update: &str,
        now: SystemTime,
        extra: Vec<(&str, &str, &str, AttributeValue)>,
    ) -> Result<Kept> {
        let mut names = HashMap::from([
            ("#owner".to_owned(), OWNER.to_owned()),
            ("#lease".to_owned(), LEASE.to_owned()),
            ("#beat".to_owned(), BEAT.to_owned()),
            ("#at".to_owned(), HEARTBEAT_AT.to_owned()),
        ]);
        let mut values = HashMap::from([
            (":me".to_owned(), s(me)),
            (":mine".to_owned(), n(lease)),
            (":one".to_owned(), n(1)),
            (":at".to_owned(), n(millis(now))),
        ]);
        for (name, attribute, value, v) in extra {
            names.insert(name.to_owned(), attribute.to_owned());
            values.insert(value.to_owned(), v);
        }
        let key = self.segment_key(segment);
        let sent = self
            .send_with_retry("UpdateItem", || {
                self.client
                    .update_item()
                    .table_name(&self.table)
                    .set_key(Some(key.clone()))
                    .update_expression(update)
                    .condition_expression("#owner = :me AND #lease = :mine")
                    .set_expression_attribute_names(Some(names.clone()))
                    .set_expression_attribute_values(Some(values.clone()))
                    .return_values_on_condition_check_failure(
                        ReturnValuesOnConditionCheckFailure::None,
                    )
                    .send()
            })
            .await;
        match sent {
            Ok(_) => Ok(Kept::Yes),
            Err(err) if err.is_condition_failed() => Ok(Kept::Lost),
            Err(err) => Err(err),
        }
    }

    /// The item at `key`, read consistently.
    async fn get(&self, key: Item) -> Result<Option<Item>> {
        let output = self
            .send_with_retry("GetItem", || {
                self.client
                    .get_item()
                    .table_name(&self.table)
                    .set_key(Some(key.clone()))
                    .consistent_read(true)
                    .send()
            })
            .await?;
        Ok(output.item)
    }

    /// Deletes every item of the job (header and leases).
    pub(crate) async fn delete_all(&self) -> Result<u64> {
        let mut deleted = 0;
        let mut keys = vec![self.key(HEADER.to_owned())];
        keys.extend(
            self.read()
                .await?
                .iter()
                .map(|r| self.segment_key(r.segment)),
        );
        for key in keys {
            self.send_with_retry("DeleteItem", || {
                self.client
                    .delete_item()
                    .table_name(&self.table)
                    .set_key(Some(key.clone()))
                    .send()
            })
            .await?;
            deleted += 1;
        }
        Ok(deleted)
    }

    /// Sends a request again while it is throttled or fails transiently,
    /// within the job's retry budget.
    async fn send_with_retry<O, E, F, Fut>(&self, operation: &'static str, send: F) -> Result<O>
    where
        F: Fn() -> Fut,
        Fut: std::future::Future<Output = std::result::Result<O, SdkError<E, HttpResponse>>>,
        E: ProvideErrorMetadata,
        SdkError<E, HttpResponse>: Into<aws_sdk_dynamodb::Error>,
    {
        let started = Instant::now();
        let mut jitter = Jitter::new(self.job.len() as u64);
        let mut retries = 0;
        loop {
            match send().await {
                Ok(output) => return Ok(output),
                Err(err) => {
                    let err = Error::service(operation, &self.table, err);
                    backoff(
                        &self.client,
                        &self.retry,
                        &mut jitter,
                        &mut retries,
                        started,
                        err,
                    )
                    .await?;
                }
            }
        }
    }
}

/// A lease item as a record; `None` for the header.
fn record(item: &Item) -> Result<Option<Record>> {
    let Some(segment) = text(item, SEGMENT).and_then(|s| s.parse::<u32>().ok()) else {
        return Ok(None);
    };
    let malformed = |what: &str| -> Error {
        Repr::InvalidCursor {
            fault: crate::error::CursorFault::Malformed,
            reason: format!("the lease of segment {segment}: {what}"),
        }
        .into()
    };
    let position = match text(item, POSITION) {
        Some(text) => SegmentPosition::parse(&text)
            .unwrap_or_else(|| Err(malformed(&format!("`{text}` is not a segment position"))))?,
        None => SegmentPosition::Start,
    };
    let counts = match item.get(COUNTS) {
        Some(AttributeValue::M(map)) => map
            .iter()
            .filter_map(|(name, value)| Some((name.clone(), value.as_n().ok()?.parse().ok()?)))
            .collect(),
        _ => BTreeMap::new(),
    };
    Ok(Some(Record {
        segment,
        owner: text(item, OWNER),
        lease: number(item, LEASE).unwrap_or(0),
        beat: number(item, BEAT).unwrap_or(0),
        position,
        counts,
        heartbeat_at: number(item, HEARTBEAT_AT),
        taken_over: number(item, TAKEN_OVER).unwrap_or(0),
        finished_by: text(item, FINISHED_BY),
    }))
}

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.to_owned())
}

fn n(number: u64) -> AttributeValue {
    AttributeValue::N(number.to_string())
}

fn text(item: &Item, name: &str) -> Option<String> {
    item.get(name).and_then(|v| v.as_s().ok()).cloned()
}

fn number(item: &Item, name: &str) -> Option<u64> {
    item.get(name)
        .and_then(|v| v.as_n().ok())
        .and_then(|n| n.parse().ok())
}

fn millis(time: SystemTime) -> u64 {
    time.duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}
