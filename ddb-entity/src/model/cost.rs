//! What a pattern costs in requests when it is more than one GetItem or
//! one Query — a shard fan-out, a Query per partition, a Scan — and the
//! usual answer to each, as the report states them.

use std::fmt;

use super::analysis::PatternRow;
use super::finding::{Findings, Lint};
use super::pattern::DeclaredPattern;
use super::placement::placements;
use crate::layout::EntityLayout;
use crate::shard::ShardSpec;
use crate::table::TableSchema;

/// The requests one call of a pattern sends, for a result of at most one
/// page (1 MB) per partition read; each further MB is one more.
///
/// ```
/// use ddb_entity::model::Requests;
///
/// assert_eq!(Requests::One.to_string(), "1");
/// assert_eq!(Requests::One.minimum(), Some(1));
/// let fan_out = Requests::Queries { partitions: 1, shards: 8 };
/// assert_eq!((fan_out.to_string().as_str(), fan_out.minimum()), ("8: a Query per shard", Some(8)));
/// let both = Requests::Queries { partitions: 3, shards: 8 };
/// assert_eq!(both.to_string(), "24: a Query per shard of 3 partitions");
/// assert_eq!(Requests::Scan.minimum(), None, "it grows with the table");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Requests {
    /// One GetItem, or one Query of one partition.
    One,
    /// `partitions × shards` Queries: a Query per partition read, and a
    /// sharded partition read as a Query per shard (`shards` is 1 when
    /// the partitions are not sharded).
    Queries {
        /// The partitions read.
        partitions: usize,
        /// The shards of each.
        shards: u16,
    },
    /// A Scan: one request per MB of the table or index, every item read.
    Scan,
}

/// The sharded partition key a Query reads every shard of.
#[derive(Debug, Clone)]
pub(crate) struct Sharded {
    /// The template as written.
    pub(crate) template: String,
    pub(crate) spec: ShardSpec,
}

impl Requests {
    /// The requests for a result of at most one page per partition;
    /// `None` for a Scan, whose requests grow with the table.
    ///
    /// ```
    /// use ddb_entity::model::Requests;
    ///
    /// assert_eq!(Requests::Queries { partitions: 5, shards: 1 }.minimum(), Some(5));
    /// ```
    pub fn minimum(&self) -> Option<usize> {
        match self {
            Requests::One => Some(1),
            Requests::Queries { partitions, shards } => Some(partitions * usize::from(*shards)),
            Requests::Scan => None,
        }
    }

    /// `partitions` partitions, each read over `shards` (or as one).
    pub(crate) fn of(partitions: usize, sharded: Option<&Sharded>) -> Self {
        let shards = sharded.map_or(1, |s| s.spec.count());
        match (partitions, shards) {
            (1, 1) => Requests::One,
            (partitions, shards) => Requests::Queries { partitions, shards },
        }
    }
}

impl fmt::Display for Requests {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Requests::One => f.write_str("1"),
            Requests::Queries {
                partitions,
                shards: 1,
            } => write!(f, "{partitions}: a Query per partition"),
            Requests::Queries {
                partitions: 1,
                shards,
            } => write!(f, "{shards}: a Query per shard"),
            Requests::Queries { partitions, shards } => write!(
                f,
                "{}: a Query per shard of {partitions} partitions",
                partitions * usize::from(shards)
            ),
            Requests::Scan => f.write_str("1 per MB read"),
        }
    }
}

/// `PatternFanOut`: a Query of a sharded partition reads every shard.
pub(crate) fn fan_out(pattern: &DeclaredPattern, sharded: &Sharded, findings: &mut Findings<'_>) {
    let n = sharded.spec.count();
    findings.push(
        Lint::PatternFanOut,
        &pattern.name,
        format!(
            "its partition key `{}` is sharded: every call reads all {n} shards, {n} Queries merged into one order, each a request and at least half a read unit even when it finds nothing; that is the price of spreading the writes over {n} partitions. Accept it (allow this finding, saying why), or, if the pattern reads a few items, find them through an index whose partition key is not sharded (a sparse one, if only some items qualify)",
            sharded.template
        ),
    );
}

/// `PatternPartitions`: a Query per partition.
pub(crate) fn partitions(
    pattern: &DeclaredPattern,
    partitions: usize,
    findings: &mut Findings<'_>,
) {
    if partitions < 2 {
        return;
    }
    findings.push(
        Lint::PatternPartitions,
        &pattern.name,
        format!(
            "reads {partitions} partitions, a Query each: {partitions} requests on every call (a Query names one partition key value; there is no join). Items read together belong together: store them under one partition key, or give them an index whose partition key groups them (an overloaded GSI1PK), and it is one Query"
        ),
    );
}

/// The row of a Scan of the table (`index: None`) or an index, and its
/// findings: `PatternScan` unless every entity in the index is there
/// sparsely (the index then holds only the items that qualify, which is
/// the answer to "every item where X").
pub(crate) fn scan(
    schema: &TableSchema,
    entities: &[&'static EntityLayout],
    pattern: &DeclaredPattern,
    index: Option<&'static str>,
    findings: &mut Findings<'_>,
) -> PatternRow {
    let name = &pattern.name;
    let placed = placements(schema, entities, index);
    let where_ = index.map_or("the table".to_owned(), |i| format!("index {i}"));
    if placed.is_empty() {
        findings.push(
            Lint::PatternReadsNothing,
            name,
            format!("no entity of the model has items in {where_}"),
        );
    }
    if let Some(returns) = &pattern.returns {
        for tag in returns.types {
            if !placed.iter().any(|p| p.entity.type_tag == *tag) {
                findings.push(
                    Lint::PatternMissesType,
                    name,
                    format!(
                        "returns `{}`, whose type `{tag}` has no items in {where_}",
                        returns.name
                    ),
                );
            }
        }
    }
    let whole: Vec<&str> = placed
        .iter()
        .filter(|p| !p.sparse)
        .map(|p| p.entity.entity)
        .collect();
    if !placed.is_empty() && !whole.is_empty() {
        let advice = match index {
            None => "give what it looks for an index, so that a Query of one partition finds it; or, for \"every item where X\", a sparse index, its key written only on the items that qualify, which then holds exactly them".to_owned(),
            Some(index) => format!(
                "make {index} sparse for them, its key written only on the items this pattern wants (an `Option` hole, or `when = …`), so that it holds exactly those; or give it a partition key a Query can name"
            ),
        };
        findings.push(
            Lint::PatternScan,
            name,
            format!(
                "a Scan reads every item of {where_} ({}), one request per MB, and pays the read units of each however few it keeps (a filter does not make it cheaper); it grows with the table: {advice}",
                whole.join(", ")
            ),
        );
    }
    PatternRow {
        name: name.clone(),
        operation: "Scan".into(),
        index: index.unwrap_or("table").to_owned(),
        requests: Requests::Scan,
        key_condition: "(every item)".into(),
        reads: placed.iter().map(|p| p.entity.entity).collect(),
        returns: pattern.returns.as_ref().map(|r| r.name),
        expected_items: pattern.expected_items,
        latency: pattern.latency,
        ok: true,
    }
}
