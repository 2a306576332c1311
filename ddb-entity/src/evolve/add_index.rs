//! UpdateTable: add a declared index to a live table, then wait for it.

use std::time::Duration;

use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, CreateGlobalSecondaryIndexAction, GlobalSecondaryIndexUpdate,
    IndexStatus, KeyType, ProvisionedThroughput, ScalarAttributeType, TableDescription,
};
use tracing::Instrument;

use crate::db::Db;
use crate::error::{Error, Repr, Result};
use crate::future::into_future;
use crate::table::sdk::{key_schema_elements, projection, throughput};
use crate::table::{Index, IndexSchema, Table};

/// How long [`AddIndex`] waits for the index by default. DynamoDB builds an
/// index on a large table for minutes to hours; raise it, or call again:
/// a second call finds the index and only waits.
const DEFAULT_WAIT: Duration = Duration::from_secs(600);

/// What [`AddIndex`] did: see [its example](AddIndex#example) and
/// [`Db::add_index`]'s.
///
/// ```
/// use ddb_entity::evolve::IndexAdded;
/// assert_ne!(IndexAdded::Created, IndexAdded::AlreadyExisted);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum IndexAdded {
    /// The index was created, and is ACTIVE.
    Created,
    /// The table already had it (same keys), and it is ACTIVE.
    AlreadyExisted,
}

/// Adds index `I`, declared in the table's [`table!`](crate::table!), to
/// the live table: an UpdateTable creating the global secondary index as
/// the table declares it, the same definition CreateTable sends — its
/// projection (`ALL` unless declared otherwise) and, on a provisioned
/// table, its declared capacity, or the table's own read and write
/// capacity where it declares none (an index with less write capacity
/// than its table throttles the table's writes) — then DescribeTable until
/// the table and every index are ACTIVE. Made by [`Db::add_index`]; send
/// with `.await`.
///
/// DynamoDB fills the new index with the items that **already** carry its
/// key attributes. Items written before the entity filled the index carry
/// none: [`Db::backfill`] writes them.
///
/// # Example
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use std::time::Duration;
/// use ddb_entity::{Db, evolve::IndexAdded, local::LocalDynamo};
///
/// ddb_entity::table! { pub struct V1 { partition_key: "PK", sort_key: "SK" } }
/// ddb_entity::table! {
///     pub struct V2 {
///         partition_key: "PK",
///         sort_key: "SK",
///         indexes: { pub ByEmail = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } },
///     }
/// }
/// let dynamo = LocalDynamo::start().await?;
/// let name = dynamo.unique_table_name("index");
/// Db::<V1>::new(dynamo.client(), name.clone()).create_table_if_missing().await?;
///
/// let db = Db::<V2>::new(dynamo.client(), name);
/// let added = db.add_index::<ByEmail>().wait(Duration::from_secs(60)).send().await?;
/// assert_eq!(added, IndexAdded::Created);
/// # Ok(())
/// # }
/// ```
#[must_use = "nothing happens until the request is sent"]
pub struct AddIndex<'db, T: Table> {
    db: &'db Db<T>,
    index: IndexSchema,
    wait: Duration,
}

impl<T: Table> Db<T> {
    /// Adds the declared index `I` to the live table and waits until it is
    /// ACTIVE (see [`AddIndex`]). Idempotent: a table that has it already
    /// (with the same keys) is only waited for.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use ddb_entity::{Db, evolve::IndexAdded, local::LocalDynamo};
    ///
    /// // Version 1 of the table, already in production.
    /// ddb_entity::table! { pub struct V1 { partition_key: "PK", sort_key: "SK" } }
    /// // Version 2 declares an index for a new access pattern.
    /// ddb_entity::table! {
    ///     pub struct V2 {
    ///         partition_key: "PK",
    ///         sort_key: "SK",
    ///         indexes: { pub ByEmail = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } },
    ///     }
    /// }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let name = dynamo.unique_table_name("doc");
    /// Db::<V1>::new(dynamo.client(), name.clone()).create_table_if_missing().await?;
    ///
    /// let db = Db::<V2>::new(dynamo.client(), name);
    /// assert_eq!(db.add_index::<ByEmail>().await?, IndexAdded::Created);
    /// assert_eq!(db.add_index::<ByEmail>().await?, IndexAdded::AlreadyExisted);
    /// # Ok(())
    /// # }
    /// ```
    pub fn add_index<I: Index<Table = T>>(&self) -> AddIndex<'_, T> {
        AddIndex {
            db: self,
            index: I::SCHEMA,
            wait: DEFAULT_WAIT,
        }
    }
}

impl<'db, T: Table> AddIndex<'db, T> {
    /// How long to wait for the index to become ACTIVE (default 10 minutes);
    /// past it, [`ErrorKind::NotActive`](crate::error::ErrorKind::NotActive) — the
    /// index keeps building: call again to go on waiting.
    ///
    /// See [the example](AddIndex#example).
    pub fn wait(mut self, wait: Duration) -> Self {
        self.wait = wait;
        self
    }

    /// Sends the UpdateTable (unless the index exists) and waits.
    ///
    /// See [the example](AddIndex#example).
    pub async fn send(self) -> Result<IndexAdded> {
        let table = self.db.table_name();
        let span = tracing::info_span!(
            "ddb.add_index",
            table,
            index = self.index.name,
            outcome = tracing::field::Empty,
        );
        async move {
            let description = self.db.description().await?.ok_or_else(|| {
                Error::from(Repr::SchemaMismatch {
                    table: table.to_owned(),
                    detail: "the table does not exist; create it first (`create_table_if_missing`, which creates every declared index)".to_owned(),
                })
            })?;
            let outcome = if has_index(table, &description, &self.index)? {
                IndexAdded::AlreadyExisted
            } else {
                create(self.db, &self.index, &description).await?;
                IndexAdded::Created
            };
            tracing::Span::current().record("outcome", tracing::field::debug(outcome));
            // Until the table is ACTIVE and the index is ACTIVE and no
            // longer backfilling (DynamoDB's own fill of items that carry
            // its keys).
            let index = self.index.name;
            self.db
                .wait_until_active(self.wait, Duration::from_secs(2), |d| index_status(d, index))
                .await?;
            Ok(outcome)
        }
        .instrument(span)
        .await
    }
}

into_future!(['db, T: Table] AddIndex<'db, T> => IndexAdded);

/// Whether the table has the index; an index of that name with other keys
/// is a mismatch, never silently accepted.
fn has_index(table: &str, description: &TableDescription, index: &IndexSchema) -> Result<bool> {
    let Some(existing) = description
        .global_secondary_indexes()
        .iter()
        .find(|gsi| gsi.index_name() == Some(index.name))
    else {
        return Ok(false);
    };
    let key = |kind: KeyType| {
        existing
            .key_schema()
            .iter()
            .find(|e| e.key_type == kind)
            .map(|e| e.attribute_name.as_str())
    };
    let found = (key(KeyType::Hash), key(KeyType::Range));
    let declared = (Some(index.keys.partition_key), index.keys.sort_key);
    if found != declared {
        return Err(Repr::SchemaMismatch {
            table: table.to_owned(),
            detail: format!(
                "index `{}` exists with keys {found:?} (partition, sort), declared {declared:?}; an index's keys cannot change: add a new index under another name, backfill it, then delete the old one",
                index.name
            ),
        }
        .into());
    }
    Ok(true)
}

async fn create<T: Table>(
    db: &Db<T>,
    index: &IndexSchema,
    description: &TableDescription,
) -> Result<()> {
    let invalid = |err: aws_sdk_dynamodb::error::BuildError| -> Error {
        Repr::RequestBuild {
            what: "UpdateTable",
            source: Box::new(err),
        }
        .into()
    };
    let names = std::iter::once(index.keys.partition_key).chain(index.keys.sort_key);
    let definitions = names
        .map(|name| {
            AttributeDefinition::builder()
                .attribute_name(name)
                .attribute_type(ScalarAttributeType::S)
                .build()
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(invalid)?;
    let provisioned = description
        .billing_mode_summary()
        .and_then(|summary| summary.billing_mode())
        .is_none_or(|mode| *mode == BillingMode::Provisioned)
        && description
            .provisioned_throughput()
            .is_some_and(|t| t.read_capacity_units().unwrap_or(0) > 0);
    // On a provisioned table, the index's declared capacity, else the
    // table's own (never less write capacity than the table's writes).
    let capacity = match (provisioned, index.capacity) {
        (false, _) => None,
        (true, Some(declared)) => Some(throughput(declared).map_err(invalid)?),
        (true, None) => {
            let table = description.provisioned_throughput();
            Some(
                ProvisionedThroughput::builder()
                    .read_capacity_units(table.and_then(|t| t.read_capacity_units()).unwrap_or(1))
                    .write_capacity_units(table.and_then(|t| t.write_capacity_units()).unwrap_or(1))
                    .build()
                    .map_err(invalid)?,
            )
        }
    };
    // Keys and projection as CreateTable would have made the index.
    let action = CreateGlobalSecondaryIndexAction::builder()
        .index_name(index.name)
        .set_key_schema(Some(key_schema_elements(index.keys).map_err(invalid)?))
        .projection(projection(index))
        .set_provisioned_throughput(capacity)
        .build()
        .map_err(invalid)?;
    db.client()
        .update_table()
        .table_name(db.table_name())
        .set_attribute_definitions(Some(definitions))
        .global_secondary_index_updates(
            GlobalSecondaryIndexUpdate::builder().create(action).build(),
        )
        .send()
        .await
        .map_err(|err| Error::service("UpdateTable", db.table_name(), err))?;
    Ok(())
}

fn index_status(description: &TableDescription, index: &str) -> String {
    if let Some(status) = description.table_status()
        && status.as_str() != "ACTIVE"
    {
        return format!("table {}", status.as_str());
    }
    let Some(gsi) = description
        .global_secondary_indexes()
        .iter()
        .find(|gsi| gsi.index_name() == Some(index))
    else {
        return format!("index `{index}` not described yet");
    };
    match gsi.index_status() {
        // An emulator may omit the status: a described index is usable.
        None | Some(IndexStatus::Active) if gsi.backfilling() != Some(true) => "ACTIVE".to_owned(),
        Some(status) => format!("index `{index}`: {}", status.as_str()),
        None => format!("index `{index}`: backfilling"),
    }
}
