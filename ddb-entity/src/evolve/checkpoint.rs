//! Where a segmented job stands: one position per scan segment, small
//! enough to save after every page and typed enough to refuse a mismatch.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::cursor::Cursor;
use crate::error::{Repr, Result};

/// How far one segment of a job has gone: see
/// [`Checkpoint`'s example](Checkpoint#example).
///
/// ```
/// use ddb_entity::evolve::{Checkpoint, SegmentPosition};
///
/// let done: Checkpoint = "ckpt1;2;D,D".parse()?;
/// assert!(done.is_done());
/// assert!((0..2).all(|s| done.position(s) == Some(&SegmentPosition::Done)));
/// # Ok::<(), ddb_entity::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SegmentPosition {
    /// Not started: read from the beginning.
    Start,
    /// Every item before this cursor is done; read on after it.
    After(Cursor),
    /// Finished.
    Done,
}

/// Where a [`Backfill`](super::Backfill) or a [`Migration`](super::Migration)
/// stands: the scan's segment count and one [`SegmentPosition`] per
/// segment. A position moves only once every item of the page before it
/// has been written, so a job resumed from any checkpoint it reported
/// misses nothing; what it redoes (the pages after the checkpoint that
/// were written before the crash) is found already done and skipped.
///
/// Save it after each event — it is `Serialize`/`Deserialize` (as its
/// text), and a plain string ([`Display`](fmt::Display) / [`FromStr`]):
///
/// # Example
///
/// ```
/// use ddb_entity::evolve::{Checkpoint, SegmentPosition};
///
/// let start = Checkpoint::start(4);
/// assert_eq!(start.segments(), 4);
/// assert!(!start.is_done());
/// assert_eq!(start.position(2), Some(&SegmentPosition::Start));
/// assert_eq!((start.position(4), start.segments_done()), (None, 0));
///
/// let text = start.to_string();
/// assert_eq!(text, "ckpt1;4;S,S,S,S");
/// assert_eq!(text.parse::<Checkpoint>()?, start);
/// assert!("ckpt1;4;S,S".parse::<Checkpoint>().is_err()); // 2 positions for 4 segments
/// # Ok::<(), ddb_entity::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkpoint {
    positions: Vec<SegmentPosition>,
}

/// The text form's version tag.
const TAG: &str = "ckpt1";

/// A job's segments when it does not say.
pub(crate) const DEFAULT_SEGMENTS: u32 = 4;

/// DynamoDB's most segments of one parallel scan.
const MAX_SEGMENTS: u32 = 1_000_000;

impl Checkpoint {
    /// A job of `segments` segments (at least 1), none started.
    ///
    /// See [the example](Checkpoint#example).
    pub fn start(segments: u32) -> Self {
        Checkpoint {
            positions: vec![SegmentPosition::Start; segments.max(1) as usize],
        }
    }

    /// Where a job starts: its `resumed` checkpoint, or `segments` (the
    /// default 4 when unset) none started. `job` names it for the error
    /// ("a backfill of `User`"). One rule for every job: a resumed job
    /// keeps its checkpoint's segmentation, so a `segments` that differs
    /// from it is refused before any request (a scan cannot be re-split
    /// half way); DynamoDB takes 1 to 1,000,000 segments.
    pub(crate) fn for_job(
        resumed: Option<&Checkpoint>,
        segments: Option<u32>,
        job: impl FnOnce() -> String,
    ) -> Result<Checkpoint> {
        let refuse = |reason: String| -> crate::error::Error {
            Repr::InvalidExpression {
                what: job(),
                reason,
            }
            .into()
        };
        match (resumed, segments) {
            (Some(checkpoint), Some(asked)) if checkpoint.segments() != asked => {
                Err(refuse(format!(
                    "its checkpoint splits the table in {} segments and `.segments({asked})` asks for {asked}; a resumed job keeps its checkpoint's segmentation: leave `.segments` out, or give {}",
                    checkpoint.segments(),
                    checkpoint.segments()
                )))
            }
            (Some(checkpoint), _) => Ok(checkpoint.clone()),
            (None, segments) => {
                let segments = segments.unwrap_or(DEFAULT_SEGMENTS);
                if !(1..=MAX_SEGMENTS).contains(&segments) {
                    return Err(refuse(format!(
                        "it asks for {segments} segments; DynamoDB takes 1 to {MAX_SEGMENTS}"
                    )));
                }
                Ok(Checkpoint::start(segments))
            }
        }
    }

    /// The number of segments.
    ///
    /// See [the example](Checkpoint#example).
    pub fn segments(&self) -> u32 {
        u32::try_from(self.positions.len()).unwrap_or(u32::MAX)
    }

    /// Where segment `segment` stands, `None` past the last segment.
    ///
    /// See [the example](Checkpoint#example).
    pub fn position(&self, segment: u32) -> Option<&SegmentPosition> {
        self.positions.get(segment as usize)
    }

    /// Whether every segment is done.
    ///
    /// See [the example](Checkpoint#example).
    pub fn is_done(&self) -> bool {
        self.positions.iter().all(|p| *p == SegmentPosition::Done)
    }

    /// How many segments are done.
    ///
    /// See [the example](Checkpoint#example).
    pub fn segments_done(&self) -> u32 {
        let done = self
            .positions
            .iter()
            .filter(|p| **p == SegmentPosition::Done);
        u32::try_from(done.count()).unwrap_or(u32::MAX)
    }

    pub(crate) fn set(&mut self, segment: u32, position: SegmentPosition) {
        if let Some(slot) = self.positions.get_mut(segment as usize) {
            *slot = position;
        }
    }

    /// The segments still to do, each from where it stands.
    pub(crate) fn pending(&self) -> impl Iterator<Item = (u32, Option<&Cursor>)> {
        self.positions
            .iter()
            .enumerate()
            .filter_map(|(segment, position)| {
                let segment = u32::try_from(segment).ok()?;
                match position {
                    SegmentPosition::Start => Some((segment, None)),
                    SegmentPosition::After(cursor) => Some((segment, Some(cursor))),
                    SegmentPosition::Done => None,
                }
            })
    }
}

impl fmt::Display for SegmentPosition {
    /// `S` (start), `D` (done) or `A` and the cursor: a checkpoint's text
    /// for one segment, also what a job's lease item stores.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SegmentPosition::Start => f.write_str("S"),
            SegmentPosition::Done => f.write_str("D"),
            SegmentPosition::After(cursor) => write!(f, "A{cursor}"),
        }
    }
}

impl SegmentPosition {
    /// The position `text` ([`Display`](fmt::Display)'s form) names, or
    /// `None`.
    pub(crate) fn parse(text: &str) -> Option<Result<Self>> {
        match text.split_at_checked(1) {
            Some(("S", "")) => Some(Ok(SegmentPosition::Start)),
            Some(("D", "")) => Some(Ok(SegmentPosition::Done)),
            Some(("A", cursor)) => Some(cursor.parse().map(SegmentPosition::After)),
            _ => None,
        }
    }
}

impl fmt::Display for Checkpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{TAG};{};", self.positions.len())?;
        for (i, position) in self.positions.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{position}")?;
        }
        Ok(())
    }
}

impl FromStr for Checkpoint {
    type Err = crate::error::Error;

    fn from_str(text: &str) -> Result<Self> {
        let invalid = |reason: String| -> crate::error::Error {
            Repr::InvalidCursor {
                fault: crate::error::CursorFault::Malformed,
                reason: format!("checkpoint `{text}`: {reason}"),
            }
            .into()
        };
        let mut parts = text.splitn(3, ';');
        if parts.next() != Some(TAG) {
            return Err(invalid(format!(
                "it does not start with `{TAG};`: not a checkpoint of this library"
            )));
        }
        let count: usize = parts
            .next()
            .and_then(|n| n.parse().ok())
            .filter(|n| (1..=1_000_000).contains(n))
            .ok_or_else(|| invalid("the segment count is not 1 to 1000000".to_owned()))?;
        let positions = parts
            .next()
            .unwrap_or_default()
            .split(',')
            .map(|p| {
                SegmentPosition::parse(p).unwrap_or_else(|| {
                    Err(invalid(format!(
                        "`{p}` is not a segment position (S, D or A<cursor>)"
                    )))
                })
            })
            .collect::<Result<Vec<_>>>()?;
        if positions.len() != count {
            return Err(invalid(format!(
                "{} positions for {count} segments",
                positions.len()
            )));
        }
        Ok(Checkpoint { positions })
    }
}

impl Serialize for Checkpoint {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Checkpoint {
    fn deserialize<D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> std::result::Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}
