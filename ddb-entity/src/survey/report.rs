//! What a survey found: items per entity, and the items no entity (or more
//! than one) claims, grouped by the shape of their keys.

use std::collections::BTreeMap;
use std::fmt;

/// The outcome of a [`Survey`](super::Survey): how many items each entity
/// claims, and every item that is not exactly one entity's, grouped by
/// key shape. Printed with `{}` as a table to read before adopting.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use ddb_entity::{Db, Entity, local::LocalDynamo};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct Legacy { partition_key: "PK", sort_key: "SK", typed_by: Key } }
/// # #[derive(Entity, Serialize, Deserialize)]
/// # #[entity(table = Legacy, pk = "USER#{email}", sk = "PROFILE")]
/// # struct User { email: String }
/// # let dynamo = LocalDynamo::start().await?;
/// # let db = Db::<Legacy>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// # db.create_table_if_missing().await?;
/// # let s = |v: &str| ddb_entity::sdk::types::AttributeValue::S(v.into());
/// use ddb_entity::survey::SurveyReport;
///
/// db.put(&User { email: "a@x.io".into() }).await?;
/// // A profile whose key is in another case: no template makes it.
/// db.client().put_item().table_name(db.table_name())
///     .item("PK", s("user#b@x.io")).item("SK", s("profile")).send().await?;
/// let report: SurveyReport = db.survey::<User>().await?;
/// assert_eq!((report.scanned, report.count("User")), (2, 1));
/// assert!(!report.is_clean());
/// assert_eq!(report.unmatched[0].shape, "PK=user#{text} SK=profile");
/// println!("{report}"); // a table to read before adopting the table
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SurveyReport {
    /// Items read.
    pub scanned: u64,
    /// Items decoded as each member entity (its Rust name), in the
    /// collection's member order, zero counts included.
    pub matched: Vec<(&'static str, u64)>,
    /// Items that match no member: foreign items, keys in another case,
    /// format or delimiter. Never decoded.
    pub unmatched: Vec<ShapeGroup>,
    /// Items whose keys match the templates of several members
    /// ([`ShapeGroup::entities`] names them): a typed read refuses them.
    pub ambiguous: Vec<ShapeGroup>,
    /// Items that match one member's keys but do not decode as it (a
    /// missing or ill-typed field, a key its body does not generate);
    /// [`ShapeGroup::reason`] has the first error.
    pub undecodable: Vec<ShapeGroup>,
    /// The survey stopped at its `max_items` before the end of the table.
    pub truncated: bool,
}

impl SurveyReport {
    /// Whether every item read is exactly one member entity: nothing
    /// unmatched, ambiguous or undecodable.
    ///
    /// See [`Survey`'s example](crate::survey::Survey#example).
    pub fn is_clean(&self) -> bool {
        self.unmatched.is_empty() && self.ambiguous.is_empty() && self.undecodable.is_empty()
    }

    /// How many items `entity` (a Rust name) claims.
    ///
    /// See [`Survey`'s example](crate::survey::Survey#example).
    pub fn count(&self, entity: &str) -> u64 {
        self.matched
            .iter()
            .find(|(name, _)| *name == entity)
            .map_or(0, |(_, count)| *count)
    }
}

/// Items of one key shape: how many, which entities they concern, a few
/// of their keys.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use ddb_entity::{Db, Entity, local::LocalDynamo};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct Legacy { partition_key: "PK", sort_key: "SK", typed_by: Key } }
/// # #[derive(Entity, Serialize, Deserialize)]
/// # #[entity(table = Legacy, pk = "USER#{email}", sk = "PROFILE")]
/// # struct User { email: String }
/// # let dynamo = LocalDynamo::start().await?;
/// # let db = Db::<Legacy>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// # db.create_table_if_missing().await?;
/// # let s = |v: &str| ddb_entity::sdk::types::AttributeValue::S(v.into());
/// use ddb_entity::survey::ShapeGroup;
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = Legacy, pk = "USER#{email}", sk = "PROFILE")]
/// struct Member { email: String, name: String }
///
/// // A profile stored without its `name`: its keys are a Member's, its
/// // body is not.
/// db.client().put_item().table_name(db.table_name())
///     .item("PK", s("USER#c@x.io")).item("SK", s("PROFILE")).send().await?;
/// let report = db.survey::<Member>().samples(1).await?;
/// let group: &ShapeGroup = &report.undecodable[0];
/// assert_eq!((group.count, group.entities.as_slice()), (1, &["Member"][..]));
/// assert_eq!(group.samples[0].0, "USER#c@x.io");
/// assert!(group.reason.is_some(), "the first error, naming the field");
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ShapeGroup {
    /// The shape of the keys, e.g. `PK=USER#{text} SK=ORDER#{text}#{number}`
    /// (see [`key_shape`]).
    pub shape: String,
    /// Items of this shape.
    pub count: u64,
    /// The entities concerned: none for unmatched items, those whose
    /// templates match for ambiguous ones, the one that failed to decode.
    pub entities: Vec<&'static str>,
    /// Up to the survey's `samples` keys (partition, sort) of such items.
    pub samples: Vec<(String, Option<String>)>,
    /// For undecodable items, the first error.
    pub reason: Option<String>,
}

/// The shape of a key value: the first segment kept when it is letters
/// and `_` (the type prefix, in whatever case it is written), later
/// segments kept when they are upper-case letters and `_` (`PROFILE`,
/// `LINE`), every other segment shown as `{number}` (digits) or `{text}`.
/// Segments are split on `#`; a key with another delimiter is one
/// `{text}`, which is what it is to a template of `#`. A survey splits on
/// the table's declared delimiter ([`key_shape_by`]).
///
/// ```
/// use ddb_entity::survey::key_shape;
///
/// assert_eq!(key_shape("USER#ann@example.com"), "USER#{text}");
/// assert_eq!(key_shape("ORDER#2026-03-14T09:31:00Z#ORD-1#LINE#7"), "ORDER#{text}#{text}#LINE#{number}");
/// assert_eq!(key_shape("user#ann"), "user#{text}");
/// assert_eq!(key_shape("USER|ann"), "{text}");
/// ```
pub fn key_shape(value: &str) -> String {
    key_shape_by(value, crate::key::DELIMITER)
}

/// [`key_shape`] of a key whose segments are joined by `delimiter` (a
/// table's declared [`delimiter`](crate::table::TableSchema::delimiter)).
///
/// ```
/// use ddb_entity::survey::key_shape_by;
///
/// assert_eq!(key_shape_by("EVENT|2026-03-14T09:31:00.250Z|e-1", '|'), "EVENT|{text}|{text}");
/// assert_eq!(key_shape_by("TENANT|acme#1", '|'), "TENANT|{text}");
/// ```
pub fn key_shape_by(value: &str, delimiter: char) -> String {
    let mut shape = String::with_capacity(value.len());
    for (position, segment) in value.split(delimiter).enumerate() {
        if position > 0 {
            shape.push(delimiter);
        }
        let word = |upper_only: bool| {
            !segment.is_empty()
                && segment.bytes().all(|b| {
                    b == b'_' || b.is_ascii_uppercase() || (!upper_only && b.is_ascii_lowercase())
                })
        };
        if word(position > 0) {
            shape.push_str(segment);
        } else if !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit()) {
            shape.push_str("{number}");
        } else if segment.is_empty() {
            // An empty segment (a leading `#`, or `A##B`) is shown as such.
        } else {
            shape.push_str("{text}");
        }
    }
    shape
}

/// The shape of an item's primary key.
pub(super) fn item_shape(
    (pk_name, pk): (&str, Option<&str>),
    sort: Option<(&str, Option<&str>)>,
    delimiter: char,
) -> String {
    let value = |value: Option<&str>| {
        value.map_or_else(|| "(missing)".to_owned(), |v| key_shape_by(v, delimiter))
    };
    let mut shape = format!("{pk_name}={}", value(pk));
    if let Some((sk_name, sk)) = sort {
        shape.push(' ');
        shape.push_str(sk_name);
        shape.push('=');
        shape.push_str(&value(sk));
    }
    shape
}

/// Groups under construction, keyed by shape.
#[derive(Default)]
pub(super) struct Groups(pub(super) BTreeMap<String, ShapeGroup>);

impl Groups {
    pub(super) fn add(
        &mut self,
        shape: String,
        entities: &[&'static str],
        key: (String, Option<String>),
        reason: impl FnOnce() -> Option<String>,
        samples: usize,
    ) {
        let group = self.0.entry(shape.clone()).or_insert_with(|| ShapeGroup {
            shape,
            reason: reason(),
            ..ShapeGroup::default()
        });
        group.count += 1;
        for entity in entities {
            if !group.entities.contains(entity) {
                group.entities.push(entity);
            }
        }
        if group.samples.len() < samples {
            group.samples.push(key);
        }
    }

    pub(super) fn merge(&mut self, other: Groups, samples: usize) {
        for (shape, group) in other.0 {
            match self.0.get_mut(&shape) {
                None => {
                    self.0.insert(shape, group);
                }
                Some(mine) => {
                    mine.count += group.count;
                    for entity in group.entities {
                        if !mine.entities.contains(&entity) {
                            mine.entities.push(entity);
                        }
                    }
                    let room = samples.saturating_sub(mine.samples.len());
                    mine.samples.extend(group.samples.into_iter().take(room));
                    mine.reason = mine.reason.take().or(group.reason);
                }
            }
        }
    }

    /// Largest groups first.
    pub(super) fn into_sorted(self) -> Vec<ShapeGroup> {
        let mut groups: Vec<ShapeGroup> = self.0.into_values().collect();
        groups.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.shape.cmp(&b.shape)));
        groups
    }
}

impl fmt::Display for SurveyReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let truncated = if self.truncated {
            " (stopped early)"
        } else {
            ""
        };
        let items = if self.scanned == 1 { "item" } else { "items" };
        writeln!(f, "{} {items} scanned{truncated}", self.scanned)?;
        for (entity, count) in &self.matched {
            writeln!(f, "  {count:>8}  {entity}")?;
        }
        let sections = [
            ("match no entity", &self.unmatched),
            ("match several entities", &self.ambiguous),
            ("match one entity but do not decode", &self.undecodable),
        ];
        for (title, groups) in sections {
            if groups.is_empty() {
                continue;
            }
            let total: u64 = groups.iter().map(|g| g.count).sum();
            let items = if total == 1 { "item" } else { "items" };
            writeln!(f, "{total} {items} {title}:")?;
            for group in groups {
                write!(f, "  {:>8}  {}", group.count, group.shape)?;
                if !group.entities.is_empty() {
                    write!(f, "  [{}]", group.entities.join(", "))?;
                }
                writeln!(f)?;
                if let Some(reason) = &group.reason {
                    writeln!(f, "            first error: {reason}")?;
                }
                for (pk, sk) in &group.samples {
                    match sk {
                        Some(sk) => writeln!(f, "            e.g. {pk} / {sk}")?,
                        None => writeln!(f, "            e.g. {pk}")?,
                    }
                }
            }
        }
        Ok(())
    }
}
