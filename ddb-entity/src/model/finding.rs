//! What the model's lints find: each lint's name and severity, one
//! finding per subject, and the allows that silence one with a reason.
//! Below the checks (`lint.rs`, `hot.rs`, `analysis.rs`) and the model
//! that carries the allows, so each of them imports from here alone.

use std::fmt;

/// One lint of the model. Each finding names one; [`Model::allow`](crate::model::Model::allow)
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
    /// Two entity types store the same type attribute value
    /// ([`Entity::TYPE_TAG`](crate::Entity::TYPE_TAG)): reads, collections
    /// and conditioned writes could not tell their items apart.
    DuplicateType,
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
    /// A pattern scans the table, or an index that holds more than the
    /// items it wants: every item is read and paid for, one request per MB.
    PatternScan,
    /// A pattern reads several partitions, a Query each.
    PatternPartitions,
    /// A pattern reads a sharded partition: a Query per shard on every
    /// call, the price of spreading its writes.
    PatternFanOut,
    /// A global index of a provisioned table has less write capacity than
    /// the table: its back-pressure throttles the table's writes.
    IndexUnderProvisioned,
    /// An index projects `ALL` while every pattern reading it asks for a
    /// few attributes: the others cost storage and write capacity for
    /// nothing.
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
    /// partitions, each capped at about 1,000 write units per second.
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
    pub const ALL: [Lint; 17] = [
        Lint::KeyCollision,
        Lint::DuplicateType,
        Lint::PatternRequest,
        Lint::PatternReadsNothing,
        Lint::PatternKeyCollision,
        Lint::PatternMissesType,
        Lint::PatternReadsOtherTypes,
        Lint::PatternProjection,
        Lint::PatternScan,
        Lint::PatternPartitions,
        Lint::PatternFanOut,
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
            Lint::DuplicateType => "duplicate-type",
            Lint::PatternRequest => "pattern-request",
            Lint::PatternReadsNothing => "pattern-reads-nothing",
            Lint::PatternKeyCollision => "pattern-key-collision",
            Lint::PatternMissesType => "pattern-misses-type",
            Lint::PatternReadsOtherTypes => "pattern-reads-other-types",
            Lint::PatternProjection => "pattern-projection",
            Lint::PatternScan => "pattern-scan",
            Lint::PatternPartitions => "pattern-partitions",
            Lint::PatternFanOut => "pattern-fan-out",
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
            | Lint::DuplicateType
            | Lint::PatternRequest
            | Lint::PatternReadsNothing
            | Lint::PatternKeyCollision
            | Lint::PatternMissesType
            | Lint::PatternProjection
            | Lint::IndexUnderProvisioned
            | Lint::TooManyGlobalIndexes => Severity::Error,
            Lint::PatternReadsOtherTypes
            | Lint::PatternScan
            | Lint::PatternPartitions
            | Lint::PatternFanOut
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
    /// subject [`Model::allow`](crate::model::Model::allow) takes.
    pub subject: String,
    /// What is wrong and what to do.
    pub message: String,
    /// The reason it is allowed, when [`Model::allow`](crate::model::Model::allow) silenced it.
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
        let (subject, message) = (subject.into(), message.into());
        // A pattern of a Query per partition checks each: one finding
        // for what they share.
        if self
            .out
            .iter()
            .any(|f| f.lint == lint && f.subject == subject && f.message == message)
        {
            return;
        }
        let allowed = self
            .allowed
            .iter()
            .find(|allow| allow.lint == lint && allow.subject == subject)
            .map(|allow| allow.reason.clone());
        self.out.push(Finding {
            lint,
            subject,
            message,
            allowed,
        });
    }

    /// A finding its subject allows in its own declaration (an entity's
    /// `allow_hot = "…"`), reported as allowed with that reason unless the
    /// model allows it too, whose reason then wins.
    pub(crate) fn push_allowed(
        &mut self,
        lint: Lint,
        subject: impl Into<String>,
        message: impl Into<String>,
        reason: &str,
    ) {
        self.push(lint, subject, message);
        if let Some(finding) = self.out.last_mut() {
            finding.allowed.get_or_insert_with(|| reason.to_owned());
        }
    }
}
