//! Drift: how a live table differs from its declaration, from DescribeTable
//! and DescribeTimeToLive.

use std::fmt;

use aws_sdk_dynamodb::types::{
    BillingMode, KeySchemaElement, KeyType, ProvisionedThroughputDescription, ScalarAttributeType,
    TableDescription, TimeToLiveDescription, TimeToLiveStatus,
};
use tracing::Instrument;

use crate::db::Db;
use crate::error::Result;
use crate::future::into_future;
use crate::table::sdk::scalar_type;
use crate::table::{
    Billing, IndexKind, IndexSchema, MultiKeyIndexSchema, Table, TableSchema, Throughput,
};

/// What kind of difference a [`Difference`] is.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use ddb_entity::{Db, local::LocalDynamo, model::DifferenceKind};
///
/// ddb_entity::table! {
///     /// As deployed: no index.
///     pub struct V1 { partition_key: "PK", sort_key: "SK" }
/// }
/// ddb_entity::table! {
///     /// As declared now.
///     pub struct V2 {
///         partition_key: "PK",
///         sort_key: "SK",
///         indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK" } },
///     }
/// }
///
/// let dynamo = LocalDynamo::start().await?;
/// let name = dynamo.unique_table_name("doc");
/// Db::<V1>::new(dynamo.client(), name.clone()).create_table_if_missing().await?;
/// let drift = Db::<V2>::new(dynamo.client(), name.clone()).drift().await?;
/// assert_eq!(drift.differences[0].kind, DifferenceKind::MissingIndex);
/// assert!(drift.differences[0].kind.breaks_requests());
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DifferenceKind {
    /// There is no table of that name.
    MissingTable,
    /// The table's partition or sort key attribute has another name.
    PrimaryKey,
    /// A key attribute is declared with another type than `S`.
    AttributeType,
    /// A declared index does not exist.
    MissingIndex,
    /// The table has an index the declaration does not name.
    UndeclaredIndex,
    /// An index exists, but global where it is declared local, or the reverse.
    IndexKind,
    /// An index's key attributes have other names.
    IndexKeys,
    /// An index projects other attributes.
    Projection,
    /// The table is billed another way.
    Billing,
    /// The table or a global index has another provisioned capacity.
    Capacity,
    /// Time to live is off, on, or on for another attribute.
    TimeToLive,
}

impl DifferenceKind {
    /// Whether the difference makes the library's requests fail or read
    /// the wrong thing (other keys, a missing index), rather than cost or
    /// behave differently (capacity, projection, an extra index, TTL).
    ///
    /// ```
    /// use ddb_entity::model::DifferenceKind;
    /// assert!(DifferenceKind::MissingIndex.breaks_requests());
    /// assert!(!DifferenceKind::Capacity.breaks_requests());
    /// ```
    pub fn breaks_requests(self) -> bool {
        matches!(
            self,
            DifferenceKind::MissingTable
                | DifferenceKind::PrimaryKey
                | DifferenceKind::AttributeType
                | DifferenceKind::MissingIndex
                | DifferenceKind::IndexKind
                | DifferenceKind::IndexKeys
        )
    }
}

/// One way a live table differs from its declaration.
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use ddb_entity::{Db, local::LocalDynamo, model::DifferenceKind};
///
/// ddb_entity::table! {
///     /// As deployed: no index.
///     pub struct V1 { partition_key: "PK", sort_key: "SK" }
/// }
/// ddb_entity::table! {
///     /// As declared now.
///     pub struct V2 {
///         partition_key: "PK",
///         sort_key: "SK",
///         indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK" } },
///     }
/// }
///
/// let dynamo = LocalDynamo::start().await?;
/// let name = dynamo.unique_table_name("doc");
/// Db::<V1>::new(dynamo.client(), name.clone()).create_table_if_missing().await?;
/// let drift = Db::<V2>::new(dynamo.client(), name.clone()).drift().await?;
/// let missing = &drift.differences[0];
/// assert_eq!(missing.subject, "index `GSI1`");
/// assert_eq!(missing.found, "no such index");
/// assert!(missing.to_string().starts_with("index `GSI1` is missing"));
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Difference {
    /// What kind of difference it is.
    pub kind: DifferenceKind,
    /// What differs: `the table`, `index \`GSI1\``, `attribute \`GSI1PK\``, …
    pub subject: String,
    /// What the declaration says, e.g. `KEYS_ONLY`.
    pub declared: String,
    /// What DescribeTable (or DescribeTimeToLive) says.
    pub found: String,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Difference {
            subject,
            declared,
            found,
            ..
        } = self;
        match self.kind {
            DifferenceKind::MissingTable | DifferenceKind::MissingIndex => {
                write!(f, "{subject} is missing (declared: {declared})")
            }
            DifferenceKind::UndeclaredIndex => {
                write!(f, "{subject} is not declared (found: {found})")
            }
            _ => write!(f, "{subject}: declared {declared}, found {found}"),
        }
    }
}

/// Every difference between a live table and its declaration, in a stable
/// order: table, indexes, billing, time to live. Made by [`Db::drift`].
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use ddb_entity::{Db, local::LocalDynamo, model::DifferenceKind};
///
/// ddb_entity::table! {
///     /// As deployed: no index.
///     pub struct V1 { partition_key: "PK", sort_key: "SK" }
/// }
/// ddb_entity::table! {
///     /// As declared now.
///     pub struct V2 {
///         partition_key: "PK",
///         sort_key: "SK",
///         indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK" } },
///     }
/// }
///
/// let dynamo = LocalDynamo::start().await?;
/// let name = dynamo.unique_table_name("doc");
/// Db::<V1>::new(dynamo.client(), name.clone()).create_table_if_missing().await?;
/// let drift = Db::<V2>::new(dynamo.client(), name.clone()).drift().await?;
/// assert_eq!(drift.table, name);
/// assert!(!drift.is_empty());
/// assert!(drift.to_string().contains("differs from its declaration in 1 way(s)"));
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Drift {
    /// The table's name.
    pub table: String,
    /// The differences; empty when the table is as declared.
    pub differences: Vec<Difference>,
}

impl Drift {
    /// Whether the table is exactly as declared.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use ddb_entity::{Db, local::LocalDynamo, model::DifferenceKind};
    ///
    /// ddb_entity::table! {
    ///     /// As deployed: no index.
    ///     pub struct V1 { partition_key: "PK", sort_key: "SK" }
    /// }
    /// ddb_entity::table! {
    ///     /// As declared now.
    ///     pub struct V2 {
    ///         partition_key: "PK",
    ///         sort_key: "SK",
    ///         indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK" } },
    ///     }
    /// }
    ///
    /// let dynamo = LocalDynamo::start().await?;
    /// let name = dynamo.unique_table_name("doc");
    /// Db::<V1>::new(dynamo.client(), name.clone()).create_table_if_missing().await?;
    /// let drift = Db::<V2>::new(dynamo.client(), name.clone()).drift().await?;
    /// assert!(!drift.is_empty());
    /// assert!(Db::<V1>::new(dynamo.client(), name).drift().await?.is_empty());
    /// # Ok(())
    /// # }
    /// ```
    pub fn is_empty(&self) -> bool {
        self.differences.is_empty()
    }

    /// The differences of one kind.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use ddb_entity::{Db, local::LocalDynamo, model::DifferenceKind};
    ///
    /// ddb_entity::table! {
    ///     /// As deployed: no index.
    ///     pub struct V1 { partition_key: "PK", sort_key: "SK" }
    /// }
    /// ddb_entity::table! {
    ///     /// As declared now.
    ///     pub struct V2 {
    ///         partition_key: "PK",
    ///         sort_key: "SK",
    ///         indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK" } },
    ///     }
    /// }
    ///
    /// let dynamo = LocalDynamo::start().await?;
    /// let name = dynamo.unique_table_name("doc");
    /// Db::<V1>::new(dynamo.client(), name.clone()).create_table_if_missing().await?;
    /// let drift = Db::<V2>::new(dynamo.client(), name.clone()).drift().await?;
    /// assert_eq!(drift.of_kind(DifferenceKind::MissingIndex).count(), 1);
    /// assert_eq!(drift.of_kind(DifferenceKind::Billing).count(), 0);
    /// # Ok(())
    /// # }
    /// ```
    pub fn of_kind(&self, kind: DifferenceKind) -> impl Iterator<Item = &Difference> {
        self.differences.iter().filter(move |d| d.kind == kind)
    }
}

impl fmt::Display for Drift {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.differences.is_empty() {
            return write!(f, "table `{}` is as declared", self.table);
        }
        writeln!(
            f,
            "table `{}` differs from its declaration in {} way(s):",
            self.table,
            self.differences.len()
        )?;
        for difference in &self.differences {
            writeln!(f, "- {difference}")?;
        }
        Ok(())
    }
}

/// Compares a live table with its declaration. Made by [`Db::drift`].
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use ddb_entity::{Db, local::LocalDynamo, model::DifferenceKind};
///
/// ddb_entity::table! {
///     /// As deployed: no index.
///     pub struct V1 { partition_key: "PK", sort_key: "SK" }
/// }
/// ddb_entity::table! {
///     /// As declared now.
///     pub struct V2 {
///         partition_key: "PK",
///         sort_key: "SK",
///         indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK" } },
///     }
/// }
///
/// let dynamo = LocalDynamo::start().await?;
/// let name = dynamo.unique_table_name("doc");
/// Db::<V1>::new(dynamo.client(), name.clone()).create_table_if_missing().await?;
/// let db = Db::<V2>::new(dynamo.client(), name);
/// let check = db.drift(); // a DriftCheck: nothing sent yet
/// let drift = check.send().await?;
/// assert_eq!(drift.differences.len(), 1);
/// # Ok(())
/// # }
/// ```
#[must_use = "nothing happens until you call `.send().await` (or `.await`)"]
#[derive(Debug)]
pub struct DriftCheck<'db, T: Table> {
    db: &'db Db<T>,
}

impl<T: Table> Db<T> {
    /// Describes the live table (DescribeTable, DescribeTimeToLive) and
    /// reports every way it differs from `T`'s declaration: keys, attribute
    /// types, missing or undeclared indexes, projections, billing and
    /// capacity, time to live. Nothing is changed.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use ddb_entity::{Db, local::LocalDynamo, model::DifferenceKind};
    ///
    /// ddb_entity::table! {
    ///     /// As first deployed.
    ///     pub struct V1 { partition_key: "PK", sort_key: "SK" }
    /// }
    /// ddb_entity::table! {
    ///     /// As now declared: one more index.
    ///     pub struct V2 {
    ///         partition_key: "PK",
    ///         sort_key: "SK",
    ///         indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK" } },
    ///     }
    /// }
    ///
    /// let dynamo = LocalDynamo::start().await?;
    /// let name = dynamo.unique_table_name("doc");
    /// Db::<V1>::new(dynamo.client(), name.clone()).create_table_if_missing().await?;
    ///
    /// let drift = Db::<V2>::new(dynamo.client(), name).drift().await?;
    /// assert_eq!(drift.differences.len(), 1);
    /// assert_eq!(drift.differences[0].kind, DifferenceKind::MissingIndex);
    /// assert!(drift.to_string().contains("index `GSI1` is missing"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn drift(&self) -> DriftCheck<'_, T> {
        DriftCheck { db: self }
    }
}

impl<T: Table> DriftCheck<'_, T> {
    /// Sends the two Describe requests.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use ddb_entity::{Db, local::LocalDynamo, model::DifferenceKind};
    ///
    /// ddb_entity::table! {
    ///     /// As deployed: no index.
    ///     pub struct V1 { partition_key: "PK", sort_key: "SK" }
    /// }
    /// ddb_entity::table! {
    ///     /// As declared now.
    ///     pub struct V2 {
    ///         partition_key: "PK",
    ///         sort_key: "SK",
    ///         indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK" } },
    ///     }
    /// }
    ///
    /// let dynamo = LocalDynamo::start().await?;
    /// let name = dynamo.unique_table_name("doc");
    /// Db::<V1>::new(dynamo.client(), name.clone()).create_table_if_missing().await?;
    /// // `.send().await` and `.await` are the same.
    /// let db = Db::<V2>::new(dynamo.client(), name);
    /// assert_eq!(db.drift().send().await?, db.drift().await?);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn send(self) -> Result<Drift> {
        let table = self.db.table_name();
        let span = tracing::info_span!("ddb.drift", table);
        async move {
            let Some(description) = self.db.description().await? else {
                return Ok(Drift {
                    table: table.to_owned(),
                    differences: vec![Difference {
                        kind: DifferenceKind::MissingTable,
                        subject: format!("table `{table}`"),
                        declared: "a table".into(),
                        found: "no table".into(),
                    }],
                });
            };
            let ttl = self.db.time_to_live().await?;
            Ok(Drift {
                table: table.to_owned(),
                differences: compare(&T::SCHEMA, &description, ttl.as_ref()),
            })
        }
        .instrument(span)
        .await
    }
}

into_future!(['db, T: Table] DriftCheck<'db, T> => Drift);

/// Every difference between `found` and `schema`; time to live only when
/// its description is given.
pub(crate) fn compare(
    schema: &TableSchema,
    found: &TableDescription,
    ttl: Option<&TimeToLiveDescription>,
) -> Vec<Difference> {
    let mut out = Vec::new();
    let mut push = |kind, subject: String, declared: String, found: String| {
        out.push(Difference {
            kind,
            subject,
            declared,
            found,
        });
    };
    let keys = keys_text(Some(schema.primary.partition_key), schema.primary.sort_key);
    let found_keys = described_keys(found.key_schema());
    if keys != found_keys {
        push(
            DifferenceKind::PrimaryKey,
            "the primary key".into(),
            keys,
            found_keys,
        );
    }
    for name in schema.key_attributes() {
        let described = found
            .attribute_definitions()
            .iter()
            .find(|d| d.attribute_name() == name);
        if let Some(definition) = described
            && definition.attribute_type() != &ScalarAttributeType::S
        {
            push(
                DifferenceKind::AttributeType,
                format!("attribute `{name}`"),
                "S".into(),
                definition.attribute_type().as_str().to_owned(),
            );
        }
    }
    for attribute in schema.multi_key_attributes() {
        let name = attribute.name;
        let described = found
            .attribute_definitions()
            .iter()
            .find(|d| d.attribute_name() == name);
        if let Some(definition) = described
            && definition.attribute_type() != &scalar_type(attribute.ty)
        {
            push(
                DifferenceKind::AttributeType,
                format!("attribute `{name}`"),
                attribute.ty.as_str().into(),
                definition.attribute_type().as_str().to_owned(),
            );
        }
    }
    let found_global: Vec<FoundIndex<'_>> = found
        .global_secondary_indexes()
        .iter()
        .map(|gsi| FoundIndex {
            name: gsi.index_name().unwrap_or_default(),
            kind: IndexKind::Global,
            keys: gsi.key_schema(),
            projection: gsi.projection(),
            throughput: gsi.provisioned_throughput(),
        })
        .collect();
    let found_local: Vec<FoundIndex<'_>> = found
        .local_secondary_indexes()
        .iter()
        .map(|lsi| FoundIndex {
            name: lsi.index_name().unwrap_or_default(),
            kind: IndexKind::Local,
            keys: lsi.key_schema(),
            projection: lsi.projection(),
            throughput: None,
        })
        .collect();
    let every_found = || found_global.iter().chain(&found_local);
    for index in schema.all_indexes() {
        let subject = format!("index `{}`", index.name);
        let Some(live) = every_found().find(|live| live.name == index.name) else {
            push(
                DifferenceKind::MissingIndex,
                subject,
                index_text(index),
                "no such index".into(),
            );
            continue;
        };
        if live.kind != index.kind {
            push(
                DifferenceKind::IndexKind,
                subject.clone(),
                kind_text(index.kind).into(),
                kind_text(live.kind).into(),
            );
        }
        let declared = keys_text(Some(index.keys.partition_key), index.keys.sort_key);
        let described = described_keys(live.keys);
        if declared != described {
            push(
                DifferenceKind::IndexKeys,
                subject.clone(),
                declared,
                described,
            );
        }
        let declared = projection_text(
            index.projection.as_str(),
            index.projection.non_key_attributes(),
        );
        let described = live
            .projection
            .map(|p| {
                projection_text(
                    p.projection_type().map_or("(none)", |t| t.as_str()),
                    &p.non_key_attributes()
                        .iter()
                        .map(String::as_str)
                        .collect::<Vec<_>>(),
                )
            })
            .unwrap_or_else(|| "(none)".into());
        if declared != described {
            push(
                DifferenceKind::Projection,
                subject.clone(),
                declared,
                described,
            );
        }
        if let (Some(capacity), Some(throughput)) = (schema.index_capacity(index), live.throughput)
        {
            let described = throughput_capacity(throughput);
            if described != Some(capacity) {
                push(
                    DifferenceKind::Capacity,
                    subject,
                    capacity_text(Some(capacity)),
                    capacity_text(described),
                );
            }
        }
    }
    for index in schema.multi_key_indexes {
        let subject = format!("index `{}`", index.name);
        let declared_keys = multi_keys_text(index);
        let Some(live) = every_found().find(|live| live.name == index.name) else {
            push(
                DifferenceKind::MissingIndex,
                subject,
                format!("global index on {declared_keys}, projection ALL"),
                "no such index".into(),
            );
            continue;
        };
        if live.kind != IndexKind::Global {
            push(
                DifferenceKind::IndexKind,
                subject.clone(),
                kind_text(IndexKind::Global).into(),
                kind_text(live.kind).into(),
            );
        }
        let described = described_keys(live.keys);
        if declared_keys != described {
            push(
                DifferenceKind::IndexKeys,
                subject.clone(),
                declared_keys,
                described,
            );
        }
        let described = live
            .projection
            .and_then(|p| p.projection_type())
            .map_or("(none)", |t| t.as_str());
        if described != "ALL" {
            push(
                DifferenceKind::Projection,
                subject.clone(),
                "ALL".into(),
                described.into(),
            );
        }
        if let (Some(capacity), Some(throughput)) = (schema.billing.capacity(), live.throughput) {
            let described = throughput_capacity(throughput);
            if described != Some(capacity) {
                push(
                    DifferenceKind::Capacity,
                    subject,
                    capacity_text(Some(capacity)),
                    capacity_text(described),
                );
            }
        }
    }
    for live in every_found() {
        let declared = schema.index(live.name).is_some()
            || schema.multi_key_indexes.iter().any(|i| i.name == live.name);
        if !declared {
            push(
                DifferenceKind::UndeclaredIndex,
                format!("index `{}`", live.name),
                "no such index".into(),
                format!(
                    "{} index on {}",
                    kind_text(live.kind),
                    described_keys(live.keys)
                ),
            );
        }
    }
    let found_throughput = found.provisioned_throughput().and_then(throughput_capacity);
    let found_billing = match found.billing_mode_summary().and_then(|s| s.billing_mode()) {
        Some(mode) => mode.clone(),
        // DynamoDB describes an on-demand table with 0 units; a table
        // without a billing summary is provisioned.
        None if found_throughput.is_none() => BillingMode::PayPerRequest,
        None => BillingMode::Provisioned,
    };
    if found_billing.as_str() != schema.billing.as_str() {
        push(
            DifferenceKind::Billing,
            "the table's billing".into(),
            schema.billing.as_str().into(),
            found_billing.as_str().into(),
        );
    } else if let Billing::Provisioned(capacity) = schema.billing
        && found_throughput != Some(capacity)
    {
        push(
            DifferenceKind::Capacity,
            "the table".into(),
            capacity_text(Some(capacity)),
            capacity_text(found_throughput),
        );
    }
    if let Some(ttl) = ttl {
        let on = matches!(
            ttl.time_to_live_status(),
            Some(TimeToLiveStatus::Enabled | TimeToLiveStatus::Enabling)
        );
        let found = on.then(|| ttl.attribute_name().unwrap_or_default());
        if found != schema.ttl_attribute {
            let text = |attribute: Option<&str>| match attribute {
                Some(name) => format!("on for `{name}`"),
                None => "off".into(),
            };
            push(
                DifferenceKind::TimeToLive,
                "time to live".into(),
                text(schema.ttl_attribute),
                text(found),
            );
        }
    }
    out
}

/// An index of either kind as DescribeTable states it.
struct FoundIndex<'a> {
    name: &'a str,
    kind: IndexKind,
    keys: &'a [KeySchemaElement],
    projection: Option<&'a aws_sdk_dynamodb::types::Projection>,
    throughput: Option<&'a ProvisionedThroughputDescription>,
}

/// The capacity of a description, `None` for 0/0 (on demand).
fn throughput_capacity(throughput: &ProvisionedThroughputDescription) -> Option<Throughput> {
    let read = throughput.read_capacity_units().unwrap_or(0);
    let write = throughput.write_capacity_units().unwrap_or(0);
    (read > 0 || write > 0).then(|| Throughput {
        read: u64::try_from(read).unwrap_or(0),
        write: u64::try_from(write).unwrap_or(0),
    })
}

/// `PK (HASH), SK (RANGE)` from the description's key schema; every
/// element in order when a multi-attribute key has several of a kind.
pub(crate) fn described_keys(elements: &[KeySchemaElement]) -> String {
    let count = |kind: KeyType| elements.iter().filter(|e| e.key_type == kind).count();
    if count(KeyType::Hash) > 1 || count(KeyType::Range) > 1 {
        return elements
            .iter()
            .map(|e| format!("`{}` ({})", e.attribute_name, e.key_type.as_str()))
            .collect::<Vec<_>>()
            .join(", ");
    }
    let find = |kind: KeyType| {
        elements
            .iter()
            .find(|e| e.key_type == kind)
            .map(|e| e.attribute_name.as_str())
    };
    keys_text(find(KeyType::Hash), find(KeyType::Range))
}

fn keys_text(hash: Option<&str>, range: Option<&str>) -> String {
    match (hash, range) {
        (Some(hash), Some(range)) => format!("`{hash}` (HASH), `{range}` (RANGE)"),
        (Some(hash), None) => format!("`{hash}` (HASH)"),
        (None, Some(range)) => format!("no HASH key, `{range}` (RANGE)"),
        (None, None) => "no key".into(),
    }
}

/// A multi-attribute index's keys as [`described_keys`] states them.
fn multi_keys_text(index: &MultiKeyIndexSchema) -> String {
    if index.partition_key.len() == 1 && index.sort_key.len() <= 1 {
        return keys_text(
            Some(index.partition_key[0].name),
            index.sort_key.first().map(|a| a.name),
        );
    }
    let hash = index.partition_key.iter().map(|a| (a.name, "HASH"));
    let range = index.sort_key.iter().map(|a| (a.name, "RANGE"));
    hash.chain(range)
        .map(|(name, kind)| format!("`{name}` ({kind})"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn kind_text(kind: IndexKind) -> &'static str {
    match kind {
        IndexKind::Global => "global",
        IndexKind::Local => "local",
    }
}

fn index_text(index: &IndexSchema) -> String {
    format!(
        "{} index on {}, projection {}",
        kind_text(index.kind),
        keys_text(Some(index.keys.partition_key), index.keys.sort_key),
        projection_text(
            index.projection.as_str(),
            index.projection.non_key_attributes()
        )
    )
}

/// `INCLUDE [a, b]` with the attributes sorted: order is not meaningful.
fn projection_text(kind: &str, attributes: &[&str]) -> String {
    if attributes.is_empty() {
        return kind.to_owned();
    }
    let mut sorted = attributes.to_vec();
    sorted.sort_unstable();
    format!("{kind} [{}]", sorted.join(", "))
}

fn capacity_text(capacity: Option<Throughput>) -> String {
    match capacity {
        Some(Throughput { read, write }) => format!("{read} read / {write} write units"),
        None => "no provisioned capacity".into(),
    }
}
