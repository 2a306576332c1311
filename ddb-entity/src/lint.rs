//! Modelling lints over entity layouts: common DynamoDB modelling failures, found
//! from the templates before any traffic finds them.
//!
//! [`hot_partitions`] flags partition keys (of the table and of every
//! index) that concentrate writes: *"A low-cardinality partition key. A
//! date, a status, a device type, or a literal string: writes concentrate
//! on a handful of partitions and the per-partition ceiling of roughly
//! 3,000 read units and 1,000 write units per second applies no matter
//! what the table is provisioned for."* Run it from a test:
//!
//! # Example
//!
//! ```
//! use ddb_entity::lint::{FEW_VALUES, HOT_PARTITION_FIX, HotReason};
//! use ddb_entity::{Entity, KeyPart};
//! use serde::{Deserialize, Serialize};
//!
//! ddb_entity::table! {
//!     pub struct App {
//!         partition_key: "PK",
//!         sort_key: "SK",
//!         indexes: {
//!             pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
//!             pub Gsi2 = "GSI2" { partition_key: "GSI2PK", sort_key: "GSI2SK" },
//!         },
//!     }
//! }
//!
//! #[derive(KeyPart, Serialize, Deserialize, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
//! enum Status { Open, Shipped }
//!
//! #[derive(Entity, Serialize, Deserialize)]
//! #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}")]
//! // All orders of a status: 2 partitions for every order ever written.
//! #[entity(index = Gsi1, pk = "STATUS#{status}", sk = "ORDER#{order_id}")]
//! // The same, spread over 16 shards per status: fine.
//! #[entity(index = Gsi2, pk = "STATUS#{status}#{shard(order_id) % 16}", sk = "ORDER#{order_id}")]
//! struct Order { customer_id: u64, order_id: u64, status: Status }
//!
//! let lint = ddb_entity::lint::hot_partitions(&[Order::LAYOUT]);
//! assert_eq!(lint.findings().count(), 1);
//! let finding = lint.findings().next().unwrap();
//! assert_eq!((finding.entity, finding.index, finding.template), ("Order", Some("GSI1"), "STATUS#{status}"));
//! assert_eq!(finding.suggestion, "STATUS#{status}#{shard(customer_id, order_id) % 16}");
//! assert!(lint.to_string().contains("write sharding with a calculated suffix"));
//! assert_eq!(finding.reason, HotReason::FewValues { at_most: 2, fields: vec!["status"] });
//! assert_eq!((finding.allowed, finding.fix), (None, HOT_PARTITION_FIX));
//! assert!(!lint.is_empty() && lint.allowed().next().is_none());
//! assert!(FEW_VALUES >= 2);
//!
//! // A literal partition key, allowed to be hot with a reason.
//! #[derive(Entity, Serialize, Deserialize)]
//! #[entity(table = App, pk = "CONFIG", sk = "CONFIG#{name}", allow_hot = "read once at start-up")]
//! struct Setting { name: String }
//!
//! let lint = ddb_entity::lint::hot_partitions(&[Setting::LAYOUT]);
//! assert!(lint.is_empty());
//! let allowed = lint.allowed().next().unwrap();
//! assert_eq!((&allowed.reason, allowed.allowed), (&HotReason::Literal, Some("read once at start-up")));
//! ```
//!
//! A partition key that is hot by design (a sparse index of a few open
//! tickets, written rarely) says so with `allow_hot = "why"` in its
//! `#[entity(…)]`: the lint then lists it under
//! [`allowed`](HotPartitions::allowed), with the reason, and
//! [`is_empty`](HotPartitions::is_empty) holds.

use std::fmt;

use crate::key::Cardinality;
use crate::layout::{EntityLayout, KeyLayout};

/// The usual fix for a hot partition, which every finding carries.
///
/// ```
/// use ddb_entity::lint::HOT_PARTITION_FIX;
/// # use ddb_entity::Entity;
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "CONFIG", sk = "CONFIG#{name}")]
/// struct Setting { name: String }
///
/// let lint = ddb_entity::lint::hot_partitions(&[Setting::LAYOUT]);
/// assert_eq!(lint.findings().next().unwrap().fix, HOT_PARTITION_FIX);
/// assert!(HOT_PARTITION_FIX.contains("write sharding"));
/// ```
pub const HOT_PARTITION_FIX: &str = "a higher-cardinality key, or write sharding with a calculated suffix — and accept the fan-out cost on reads";

/// A partition key whose holes can only write this many distinct values
/// (or fewer) together is flagged: the writes of a table land on that many
/// partitions at most.
///
/// ```
/// use ddb_entity::lint::{FEW_VALUES, HotReason};
/// # use ddb_entity::Entity;
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// // A `u8` writes 256 values, at most FEW_VALUES (1000): flagged; a `u16`'s
/// // 65,536 are not.
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "REGION#{region}", sk = "SENSOR#{id}")]
/// struct Sensor { region: u8, id: u64 }
///
/// let lint = ddb_entity::lint::hot_partitions(&[Sensor::LAYOUT]);
/// let finding = lint.findings().next().unwrap();
/// assert_eq!(finding.reason, HotReason::FewValues { at_most: 256, fields: vec!["region"] });
/// assert!(256 <= FEW_VALUES);
/// ```
pub const FEW_VALUES: u64 = 1000;

/// The shard count suggested for a flagged key.
const SUGGESTED_SHARDS: u16 = 16;

/// The partition keys of `entities` that concentrate writes on a handful
/// of partitions, table and indexes alike: a template without a hole (a
/// literal string), or whose holes are all dates or of few values together
/// (`bool`, unit enums, narrow integers; at most [`FEW_VALUES`]) — unless
/// it is sharded, is a raw key attribute (a string of the user's), or
/// carries `allow_hot = "…"` (then listed as allowed). Pass each entity's
/// [`Entity::LAYOUT`](crate::entity::Entity::LAYOUT).
///
/// ```
/// use ddb_entity::Entity;
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}")]
/// struct Order { customer_id: u64, order_id: u64 }
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "EVENTS", sk = "EVENT#{id}")]
/// struct Event { id: u64 }
///
/// // In a test: every partition key of the model spreads its writes.
/// let lint = ddb_entity::lint::hot_partitions(&[Order::LAYOUT]);
/// assert!(lint.is_empty(), "{lint}");
/// let lint = ddb_entity::lint::hot_partitions(&[Order::LAYOUT, Event::LAYOUT]);
/// assert_eq!(lint.findings().map(|f| f.entity).collect::<Vec<_>>(), ["Event"]);
/// ```
pub fn hot_partitions(entities: &[&EntityLayout]) -> HotPartitions {
    let mut found = Vec::new();
    for entity in entities {
        for key in entity.keys {
            if let Some(reason) = hot(key) {
                found.push(HotPartition {
                    entity: entity.entity,
                    index: key.index_name(),
                    template: key.partition.source,
                    suggestion: suggestion(entity, key),
                    reason,
                    allowed: key.allow_hot,
                    fix: HOT_PARTITION_FIX,
                });
            }
        }
    }
    HotPartitions { found }
}

/// What [`hot_partitions`] found.
///
/// ```
/// # use ddb_entity::Entity;
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "CONFIG", sk = "CONFIG#{name}", allow_hot = "read once at start-up")]
/// struct Setting { name: String }
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "FEED", sk = "POST#{id}")]
/// struct Post { id: u64 }
///
/// let lint = ddb_entity::lint::hot_partitions(&[Setting::LAYOUT, Post::LAYOUT]);
/// assert!(!lint.is_empty());
/// assert_eq!(lint.findings().count(), 1); // Post
/// assert_eq!(lint.allowed().count(), 1); // Setting, with its reason
/// println!("{lint}"); // one line per finding, then the allowed ones
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[must_use = "a lint reports nothing until its findings are checked, e.g. assert!(lint.is_empty(), \"{lint}\")"]
pub struct HotPartitions {
    found: Vec<HotPartition>,
}

impl HotPartitions {
    /// Whether no partition key is hot, but for those allowed to be.
    ///
    /// See [the module's example](crate::lint#example).
    pub fn is_empty(&self) -> bool {
        self.findings().next().is_none()
    }

    /// The hot partition keys not allowed with `allow_hot`.
    ///
    /// See [the module's example](crate::lint#example).
    pub fn findings(&self) -> impl Iterator<Item = &HotPartition> {
        self.found.iter().filter(|found| found.allowed.is_none())
    }

    /// The hot partition keys allowed with `allow_hot = "reason"`.
    ///
    /// See [the module's example](crate::lint#example).
    pub fn allowed(&self) -> impl Iterator<Item = &HotPartition> {
        self.found.iter().filter(|found| found.allowed.is_some())
    }
}

/// One finding per line; the allowed ones after, with their reasons.
impl fmt::Display for HotPartitions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.found.is_empty() {
            return f.write_str("no hot partition keys");
        }
        for finding in self.findings().chain(self.allowed()) {
            writeln!(f, "{finding}")?;
        }
        Ok(())
    }
}

/// A partition key that concentrates writes.
///
/// ```
/// # use ddb_entity::Entity;
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
/// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "TICKET#{id}", sk = "TICKET")]
/// #[entity(index = Gsi1, pk = "OPEN", sk = "{id}")]
/// struct Ticket { id: u64 }
///
/// let lint = ddb_entity::lint::hot_partitions(&[Ticket::LAYOUT]);
/// let hot = lint.findings().next().unwrap();
/// assert_eq!((hot.entity, hot.index, hot.template), ("Ticket", Some("GSI1"), "OPEN"));
/// assert_eq!(hot.suggestion, "OPEN#{shard(id) % 16}");
/// assert_eq!(hot.allowed, None);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct HotPartition {
    /// The entity ([`Entity::RUST_NAME`](crate::entity::Entity::RUST_NAME)).
    pub entity: &'static str,
    /// The index, `None` for the table's primary key.
    pub index: Option<&'static str>,
    /// The partition key's template, as written.
    pub template: &'static str,
    /// Why it is hot.
    pub reason: HotReason,
    /// The template sharded by the primary key's fields of many values
    /// (`STATUS#{status}#{shard(order_id) % 16}`): one way to apply the fix.
    pub suggestion: String,
    /// `allow_hot = "…"`'s reason, when the template is allowed to be hot.
    pub allowed: Option<&'static str>,
    /// The usual fix: [`HOT_PARTITION_FIX`].
    pub fix: &'static str,
}

/// Why a partition key is hot.
///
/// ```
/// use ddb_entity::lint::HotReason;
/// # use ddb_entity::Entity;
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "FEED", sk = "POST#{id}")]
/// struct Post { id: u64 }
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "ACTIVE#{active}", sk = "USER#{id}")]
/// struct User { active: bool, id: u64 }
///
/// let lint = ddb_entity::lint::hot_partitions(&[Post::LAYOUT, User::LAYOUT]);
/// let reasons: Vec<HotReason> = lint.findings().map(|f| f.reason.clone()).collect();
/// assert_eq!(reasons, [
///     HotReason::Literal,
///     HotReason::FewValues { at_most: 2, fields: vec!["active"] },
/// ]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum HotReason {
    /// No hole: every item of the entity in one partition.
    Literal,
    /// Its holes are dates (and fields of few values): the writes of one
    /// day share a handful of partitions, however many days there are.
    Calendar {
        /// The date holes.
        fields: Vec<&'static str>,
    },
    /// Its holes write at most this many values together.
    FewValues {
        /// At most this many partitions.
        at_most: u64,
        /// The holes.
        fields: Vec<&'static str>,
    },
}

impl fmt::Display for HotPartition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let index = match self.index {
            Some(index) => format!("index `{index}`"),
            None => "the table".to_owned(),
        };
        let fields = |fields: &[&str]| {
            fields
                .iter()
                .map(|field| format!("`{field}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let why = match &self.reason {
            HotReason::Literal => "has no hole, so every item is in one partition".to_owned(),
            HotReason::Calendar { fields: holes } => format!(
                "is keyed by a date ({}), so each day's writes share one partition per value",
                fields(holes)
            ),
            HotReason::FewValues {
                at_most,
                fields: holes,
            } => format!(
                "takes at most {at_most} values ({}), so every write lands on that many partitions",
                fields(holes)
            ),
        };
        write!(
            f,
            "{}: the partition key `{}` of {index} {why}; fix: {}, e.g. `{}`",
            self.entity, self.template, self.fix, self.suggestion
        )?;
        if let Some(reason) = self.allowed {
            write!(f, " (allowed: {reason})")?;
        }
        Ok(())
    }
}

/// Why `key`'s partition template is hot, `None` when it is not.
fn hot(key: &KeyLayout) -> Option<HotReason> {
    let template = &key.partition;
    if template.raw || template.shard().is_some() {
        return None;
    }
    let mut at_most: u64 = 1;
    let (mut calendar, mut few) = (Vec::new(), Vec::new());
    for hole in template.holes() {
        match hole.cardinality {
            Cardinality::Unbounded => return None,
            Cardinality::Calendar => calendar.push(hole.field),
            Cardinality::AtMost(values) => {
                at_most = at_most.saturating_mul(values);
                few.push(hole.field);
            }
        }
    }
    if calendar.is_empty() && few.is_empty() {
        return Some(HotReason::Literal);
    }
    if at_most > FEW_VALUES {
        return None;
    }
    Some(if calendar.is_empty() {
        HotReason::FewValues {
            at_most,
            fields: few,
        }
    } else {
        calendar.extend(few);
        HotReason::Calendar { fields: calendar }
    })
}

/// `key`'s template with a shard of the primary key's fields of many
/// values that it does not hold already.
fn suggestion(entity: &EntityLayout, key: &KeyLayout) -> String {
    let in_template: Vec<&str> = key.partition.holes().map(|hole| hole.field).collect();
    let mut by: Vec<&str> = Vec::new();
    for template in entity
        .primary()
        .into_iter()
        .flat_map(|primary| std::iter::once(&primary.partition).chain(primary.sort.iter()))
    {
        for hole in template.holes() {
            if hole.cardinality == Cardinality::Unbounded
                && !hole.computed
                && !in_template.contains(&hole.field)
                && !by.contains(&hole.field)
            {
                by.push(hole.field);
            }
        }
    }
    let by = if by.is_empty() {
        "a_field_of_many_values".to_owned()
    } else {
        by.join(", ")
    };
    let source = key.partition.source;
    let joiner = if source.is_empty() || source.ends_with('#') {
        ""
    } else {
        "#"
    };
    format!("{source}{joiner}{{shard({by}) % {SUGGESTED_SHARDS}}}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::{HoleLayout, Piece, TemplateLayout};

    const fn hole(field: &'static str, cardinality: Cardinality) -> Piece {
        Piece::Hole(HoleLayout::new(
            field,
            "T",
            None,
            None,
            cardinality,
            false,
            false,
        ))
    }

    const ID: Piece = hole("id", Cardinality::Unbounded);
    const STATUS: Piece = hole("status", Cardinality::AtMost(4));
    const FLAG: Piece = hole("flag", Cardinality::AtMost(2));
    const BYTE: Piece = hole("byte", Cardinality::AtMost(256));
    const DAY: Piece = hole("day", Cardinality::Calendar);

    const fn key(source: &'static str, segments: &'static [&'static [Piece]]) -> KeyLayout {
        KeyLayout::new(
            None,
            TemplateLayout::new(source, false, segments),
            None,
            false,
            None,
            None,
        )
    }

    #[test]
    fn what_makes_a_partition_key_hot() {
        assert_eq!(
            hot(&key("OPEN", &[&[Piece::Literal("OPEN")]])),
            Some(HotReason::Literal)
        );
        assert_eq!(hot(&key("X#{id}", &[&[Piece::Literal("X")], &[ID]])), None);
        assert_eq!(
            hot(&key(
                "S#{status}#{flag}",
                &[&[Piece::Literal("S")], &[STATUS], &[FLAG]]
            )),
            Some(HotReason::FewValues {
                at_most: 8,
                fields: vec!["status", "flag"]
            })
        );
        // 4 × 256 = 1024 values: over the bound.
        assert_eq!(hot(&key("{status}#{byte}", &[&[STATUS], &[BYTE]])), None);
        assert_eq!(
            hot(&key("{day}#{status}", &[&[DAY], &[STATUS]])),
            Some(HotReason::Calendar {
                fields: vec!["day", "status"]
            })
        );
        // A date and a field of many values: fine.
        assert_eq!(hot(&key("{day}#{id}", &[&[DAY], &[ID]])), None);
        const SHARDED: &[&[Piece]] = &[
            &[STATUS],
            &[Piece::Shard(crate::shard::ShardSpec::new(8, &["id"]))],
        ];
        assert_eq!(hot(&key("{status}#{shard(id) % 8}", SHARDED)), None);
    }
}
