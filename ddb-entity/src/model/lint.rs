//! The lints: the seeds' modelling failures, found in the model, each with
//! a name, a severity and a rationale, and silenced only by saying why.

use std::fmt;

use super::hot;
use super::placement::{collide, placements};
use super::table_model::Model;
use crate::shape::EntityShape;
use crate::table::{Billing, IndexKind, Projection, Table};

/// DynamoDB's default quota of global secondary indexes per table.
const GLOBAL_INDEX_QUOTA: usize = 20;

/// One lint of the model. Each finding names one; [`Model::allow`]
/// silences one for a subject, with a reason.
///
/// ```
/// # use ddb_entity::Entity;
/// # use ddb_entity::model::{AccessPattern, Model};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
/// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
/// # #[derive(Entity, Serialize, Deserialize)]
/// # #[entity(table = App, pk = "USER#{email}", sk = "PROFILE")]
/// # struct User { email: String, name: String }
/// # #[derive(Entity, Serialize, Deserialize)]
/// # #[entity(table = App, pk = "USER#{email}", sk = "ORDER#{order_id}")]
/// # #[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "ORDER")]
/// # struct Order { email: String, order_id: u64, total_cents: i64 }
/// # fn model() -> Model<App> {
/// #     Model::<App>::new("shop")
/// #         .entity::<User>()
/// #         .entity::<Order>()
/// #         .pattern(AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))))
/// #         .pattern(
/// #             AccessPattern::query("Order by id", |db| Ok(db.query(Order::gsi1_partition(9931)?)))
/// #                 .returns::<Vec<Order>>(),
/// #         )
/// # }
/// use ddb_entity::model::{Lint, Severity};
///
/// let report = Model::<App>::new("shop")
///     .entity::<User>()
///     .pattern(AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))))
///     .report();
/// assert_eq!(report.findings[0].lint, Lint::UnusedIndex);
/// assert_eq!(Lint::UnusedIndex.name(), "unused-index");
/// assert_eq!(Lint::UnusedIndex.severity(), Severity::Warning);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Lint {
    /// Two entity types can write the same primary key: a put of one
    /// overwrites the other.
    KeyCollision,
    /// A pattern's request could not be built (a key value that does not
    /// encode).
    PatternRequest,
    /// A pattern reads no entity type of the model: no template writes a
    /// key in its partition and range.
    PatternReadsNothing,
    /// Two entity types a pattern reads can have the same key there: the
    /// results cannot be told apart by key.
    PatternKeyCollision,
    /// A pattern declares it returns a type its range never holds.
    PatternMissesType,
    /// A pattern's range also holds entity types it does not return: they
    /// are read (and paid for), then skipped.
    PatternReadsOtherTypes,
    /// A pattern reads whole entities from an index that does not project
    /// every attribute they store: decoding them fails.
    PatternProjection,
    /// A global index of a provisioned table has less write capacity than
    /// the table: its back-pressure throttles the table's writes (seed
    /// 000, failure 3).
    IndexUnderProvisioned,
    /// An index projects `ALL` while every pattern reading it asks for a
    /// few attributes: the others cost storage and write capacity for
    /// nothing (seed 000, failure 3's second half).
    IndexProjectsAll,
    /// An index no declared pattern reads: every write to it costs capacity.
    UnusedIndex,
    /// The table has a local index, which caps every item collection at
    /// 10 GB, and an entity puts any number of items in one collection.
    LocalIndexCollectionLimit,
    /// More global indexes than DynamoDB's default quota of 20.
    TooManyGlobalIndexes,
    /// A partition key whose values are few (a literal, a status, a flag)
    /// or follow the clock (a date): writes concentrate on a few
    /// partitions, each capped at about 1,000 write units per second
    /// (seed 000, failure 1).
    HotPartition,
}

/// How serious a finding is.
///
/// ```
/// use ddb_entity::model::{Lint, Severity};
///
/// assert_eq!(Lint::KeyCollision.severity(), Severity::Error);
/// assert_eq!(Lint::HotPartition.severity(), Severity::Warning);
/// assert!(Severity::Error < Severity::Warning, "errors sort first");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The model is wrong: requests fail, overwrite or read the wrong items.
    Error,
    /// The model works but costs or throttles more than it should.
    Warning,
}

impl Lint {
    /// Every lint, in report order.
    ///
    /// ```
    /// use ddb_entity::model::Lint;
    ///
    /// let names: Vec<&str> = Lint::ALL.iter().map(|lint| lint.name()).collect();
    /// assert_eq!(names.first(), Some(&"key-collision"));
    /// assert!(names.contains(&"index-under-provisioned"));
    /// ```
    pub const ALL: [Lint; 13] = [
        Lint::KeyCollision,
        Lint::PatternRequest,
        Lint::PatternReadsNothing,
        Lint::PatternKeyCollision,
        Lint::PatternMissesType,
        Lint::PatternReadsOtherTypes,
        Lint::PatternProjection,
        Lint::IndexUnderProvisioned,
        Lint::IndexProjectsAll,
        Lint::UnusedIndex,
        Lint::LocalIndexCollectionLimit,
        Lint::TooManyGlobalIndexes,
        Lint::HotPartition,
    ];

    /// The lint's name, e.g. `index-under-provisioned`.
    ///
    /// ```
    /// assert_eq!(ddb_entity::model::Lint::HotPartition.name(), "hot-partition");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Lint::KeyCollision => "key-collision",
            Lint::PatternRequest => "pattern-request",
            Lint::PatternReadsNothing => "pattern-reads-nothing",
            Lint::PatternKeyCollision => "pattern-key-collision",
            Lint::PatternMissesType => "pattern-misses-type",
            Lint::PatternReadsOtherTypes => "pattern-reads-other-types",
            Lint::PatternProjection => "pattern-projection",
            Lint::IndexUnderProvisioned => "index-under-provisioned",
            Lint::IndexProjectsAll => "index-projects-all",
            Lint::UnusedIndex => "unused-index",
            Lint::LocalIndexCollectionLimit => "local-index-collection-limit",
            Lint::TooManyGlobalIndexes => "too-many-global-indexes",
            Lint::HotPartition => "hot-partition",
        }
    }

    /// How serious its findings are.
    ///
    /// ```
    /// use ddb_entity::model::{Lint, Severity};
    ///
    /// assert_eq!(Lint::IndexUnderProvisioned.severity(), Severity::Error);
    /// assert_eq!(Lint::IndexProjectsAll.severity(), Severity::Warning);
    /// ```
    pub fn severity(self) -> Severity {
        match self {
            Lint::KeyCollision
            | Lint::PatternRequest
            | Lint::PatternReadsNothing
            | Lint::PatternKeyCollision
            | Lint::PatternMissesType
            | Lint::PatternProjection
            | Lint::IndexUnderProvisioned
            | Lint::TooManyGlobalIndexes => Severity::Error,
            Lint::PatternReadsOtherTypes
            | Lint::IndexProjectsAll
            | Lint::UnusedIndex
            | Lint::LocalIndexCollectionLimit
            | Lint::HotPartition => Severity::Warning,
        }
    }
}

impl fmt::Display for Lint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A lint silenced for one subject, with the reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Allow {
    pub(crate) lint: Lint,
    pub(crate) subject: String,
    pub(crate) reason: String,
}

/// One finding of a lint.
///
/// ```
/// # use ddb_entity::Entity;
/// # use ddb_entity::model::{AccessPattern, Model};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
/// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
/// # #[derive(Entity, Serialize, Deserialize)]
/// # #[entity(table = App, pk = "USER#{email}", sk = "PROFILE")]
/// # struct User { email: String, name: String }
/// # #[derive(Entity, Serialize, Deserialize)]
/// # #[entity(table = App, pk = "USER#{email}", sk = "ORDER#{order_id}")]
/// # #[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "ORDER")]
/// # struct Order { email: String, order_id: u64, total_cents: i64 }
/// # fn model() -> Model<App> {
/// #     Model::<App>::new("shop")
/// #         .entity::<User>()
/// #         .entity::<Order>()
/// #         .pattern(AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))))
/// #         .pattern(
/// #             AccessPattern::query("Order by id", |db| Ok(db.query(Order::gsi1_partition(9931)?)))
/// #                 .returns::<Vec<Order>>(),
/// #         )
/// # }
/// use ddb_entity::model::Lint;
///
/// let report = Model::<App>::new("shop")
///     .entity::<User>()
///     .pattern(AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))))
///     .report();
/// let finding = &report.findings[0];
/// assert_eq!((finding.lint, finding.subject.as_str()), (Lint::UnusedIndex, "GSI1"));
/// assert!(finding.to_string().starts_with("warning[unused-index] GSI1: no declared access pattern reads it"));
/// assert_eq!(finding.allowed, None);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The lint.
    pub lint: Lint,
    /// What it is about: an index name, an entity's Rust name (`Ticket on
    /// GSI2`), a pattern's name, or two entities (`Order and Refund`). The
    /// subject [`Model::allow`] takes.
    pub subject: String,
    /// What is wrong and what to do.
    pub message: String,
    /// The reason it is allowed, when [`Model::allow`] silenced it.
    pub allowed: Option<String>,
}

impl Finding {
    /// Whether it counts: not allowed, of severity error or warning.
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use ddb_entity::model::{AccessPattern, Model};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "PROFILE")]
    /// # struct User { email: String, name: String }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "ORDER#{order_id}")]
    /// # #[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "ORDER")]
    /// # struct Order { email: String, order_id: u64, total_cents: i64 }
    /// # fn model() -> Model<App> {
    /// #     Model::<App>::new("shop")
    /// #         .entity::<User>()
    /// #         .entity::<Order>()
    /// #         .pattern(AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))))
    /// #         .pattern(
    /// #             AccessPattern::query("Order by id", |db| Ok(db.query(Order::gsi1_partition(9931)?)))
    /// #                 .returns::<Vec<Order>>(),
    /// #         )
    /// # }
    /// use ddb_entity::model::Lint;
    ///
    /// let report = Model::<App>::new("shop")
    ///     .entity::<User>()
    ///     .pattern(AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))))
    ///     .allow(Lint::UnusedIndex, "GSI1", "the admin console reads it")
    ///     .report();
    /// assert!(!report.findings[0].is_active());
    /// assert!(report.findings[0].to_string().ends_with("(allowed: the admin console reads it)"));
    /// ```
    pub fn is_active(&self) -> bool {
        self.allowed.is_none()
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let severity = match self.lint.severity() {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(
            f,
            "{severity}[{}] {}: {}",
            self.lint, self.subject, self.message
        )?;
        if let Some(reason) = &self.allowed {
            write!(f, " (allowed: {reason})")?;
        }
        Ok(())
    }
}

/// Collects findings and applies the model's allows.
pub(crate) struct Findings<'a> {
    allowed: &'a [Allow],
    pub(crate) out: Vec<Finding>,
}

impl<'a> Findings<'a> {
    pub(crate) fn new(allowed: &'a [Allow]) -> Self {
        Findings {
            allowed,
            out: Vec::new(),
        }
    }

    pub(crate) fn push(
        &mut self,
        lint: Lint,
        subject: impl Into<String>,
        message: impl Into<String>,
    ) {
        let subject = subject.into();
        let allowed = self
            .allowed
            .iter()
            .find(|allow| allow.lint == lint && allow.subject == subject)
            .map(|allow| allow.reason.clone());
        self.out.push(Finding {
            lint,
            subject,
            message: message.into(),
            allowed,
        });
    }
}

/// The model-wide lints: keys, indexes, capacity, hot partitions.
pub(crate) fn lint_model<T: Table>(model: &Model<T>, used: &[&str], findings: &mut Findings<'_>) {
    let schema = model.schema();
    let entities = model.entities();
    key_collisions(schema, entities, findings);
    // Multi-attribute indexes are global indexes too.
    let global = schema.indexes.len() + schema.multi_key_indexes.len();
    if global > GLOBAL_INDEX_QUOTA {
        findings.push(
            Lint::TooManyGlobalIndexes,
            "table",
            format!(
                "{global} global indexes declared; DynamoDB allows {GLOBAL_INDEX_QUOTA} by default (raise the quota first, or overload fewer generic indexes: GSI1PK/GSI1SK serve many entity types)"
            ),
        );
    }
    if let Billing::Provisioned(table) = schema.billing {
        for index in schema.indexes {
            let Some(capacity) = schema.index_capacity(index) else {
                continue;
            };
            if capacity.write < table.write {
                findings.push(
                    Lint::IndexUnderProvisioned,
                    index.name,
                    format!(
                        "{} write units, the table {}: every table write that touches the index is also an index write, so the index throttles the table's writes; give it at least {} write units",
                        capacity.write, table.write, table.write
                    ),
                );
            }
        }
    }
    if !model.declared_patterns().is_empty() {
        for index in schema.all_indexes() {
            if !used.contains(&index.name) {
                findings.push(
                    Lint::UnusedIndex,
                    index.name,
                    "no declared access pattern reads it, yet every write to an item with its key attributes writes it too: declare the pattern it serves, or drop it".to_string(),
                );
            }
        }
    }
    if let Some(local) = schema.local_indexes.first() {
        for entity in entities {
            if unbounded_collection(entity) {
                let names: Vec<&str> = schema.local_indexes.iter().map(|i| i.name).collect();
                findings.push(
                    Lint::LocalIndexCollectionLimit,
                    local.name,
                    format!(
                        "with local index(es) {} every item collection is capped at 10 GB, and `{}` puts any number of items under one `{}` (its sort key `{}` has holes): prefer a global index, or bound the collection",
                        names.join(", "),
                        entity.rust_name,
                        entity.pk.source,
                        entity.sk.as_ref().map_or("", |sk| sk.source)
                    ),
                );
            }
        }
    }
    hot::lint(entities, findings);
}

/// An entity whose sort key has a hole: one partition holds any number
/// of its items.
fn unbounded_collection(entity: &EntityShape) -> bool {
    entity
        .sk
        .as_ref()
        .is_some_and(|sk| sk.holes().next().is_some())
}

fn key_collisions(
    schema: &crate::table::TableSchema,
    entities: &[EntityShape],
    findings: &mut Findings<'_>,
) {
    let placed = placements(schema, entities, None);
    for (i, a) in placed.iter().enumerate() {
        for b in &placed[i + 1..] {
            if collide(a, b) {
                findings.push(
                    Lint::KeyCollision,
                    format!("{} and {}", a.entity.rust_name, b.entity.rust_name),
                    format!(
                        "`{}` / `{}` and `{}` / `{}` can write the same primary key, so a put of one overwrites the other: give them distinct literal segments (`{}#…` vs `{}#…`) or partitions",
                        a.pk_source,
                        a.sk_source.as_deref().unwrap_or("-"),
                        b.pk_source,
                        b.sk_source.as_deref().unwrap_or("-"),
                        a.entity.type_tag,
                        b.entity.type_tag,
                    ),
                );
            }
        }
    }
}

/// Whether a projection holds every attribute an entity stores besides
/// the keys; the missing ones.
pub(crate) fn missing_attributes(
    projection: Projection,
    entity: &EntityShape,
    keys: &[&str],
) -> Vec<&'static str> {
    match projection {
        Projection::All => Vec::new(),
        Projection::KeysOnly | Projection::Include(_) => entity
            .fields
            .iter()
            .map(|f| f.attribute)
            .filter(|a| !keys.contains(a) && !projection.non_key_attributes().contains(a))
            .collect(),
    }
}

/// The kind of an index, for messages.
pub(crate) fn kind_name(kind: IndexKind) -> &'static str {
    match kind {
        IndexKind::Global => "global",
        IndexKind::Local => "local",
    }
}
