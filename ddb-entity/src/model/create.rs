//! Idempotent table creation for examples, tests and development stages,
//! from the one definition every deploy artefact is made of.
//!
//! It lives in the model module, not among the operations, because it sends
//! the model's definition ([`create_table_input`](super::create_table_input))
//! and checks an existing table with the model's drift comparison; the
//! operations below never need the model, so imports still point down.

use std::time::Duration;

use aws_sdk_dynamodb::types::{IndexStatus, TableDescription, TableStatus, TimeToLiveStatus};
use tracing::Instrument;

use super::definition::{create_table_input, time_to_live_specification};
use super::drift::compare;
use crate::db::Db;
use crate::error::{Error, Repr, Result};
use crate::future::into_future;
use crate::table::{Table, TableSchema, validate_table_name};

/// What [`CreateTable`] found.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use ddb_entity::{Db, local::LocalDynamo, op::Provisioned};
///
/// ddb_entity::table! {
///     /// The app's table.
///     pub struct App { partition_key: "PK", sort_key: "SK" }
/// }
///
/// let dynamo = LocalDynamo::start().await?;
/// let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// let first: Provisioned = db.create_table_if_missing().await?;
/// assert_eq!(first, Provisioned::Created);
/// assert_eq!(db.create_table_if_missing().await?, Provisioned::AlreadyExisted);
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provisioned {
    /// The table did not exist and was created.
    Created,
    /// The table already existed with the declared keys and indexes.
    AlreadyExisted,
}

/// Creates the table if it is missing, exactly as declared (keys, global
/// and local indexes with their projections, billing and capacity: the
/// request is [`create_table_input`](crate::model::create_table_input)),
/// turns on its time to live, then waits until it and its indexes are
/// `ACTIVE`.
///
/// An existing table is checked against the declaration with the same
/// comparison as [`Db::drift`]: different keys, a key attribute of another
/// type, or a declared index the table lacks, is an
/// [`ErrorKind::SchemaMismatch`](crate::error::ErrorKind::SchemaMismatch) error —
/// never a silent success that fails on the first query. Differences that
/// change cost rather than correctness (capacity, projection, an extra
/// index) are logged as `tracing` warnings. Made by
/// [`Db::create_table_if_missing`].
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use ddb_entity::{Db, ErrorKind, local::LocalDynamo};
///
/// ddb_entity::table! {
///     /// As deployed.
///     pub struct V1 { partition_key: "PK", sort_key: "SK" }
/// }
/// ddb_entity::table! {
///     /// Another sort key attribute: not the same table.
///     pub struct V2 { partition_key: "PK", sort_key: "SORT" }
/// }
///
/// let dynamo = LocalDynamo::start().await?;
/// let name = dynamo.unique_table_name("doc");
/// Db::<V1>::new(dynamo.client(), name.clone()).create_table_if_missing().await?;
/// let err = Db::<V2>::new(dynamo.client(), name).create_table_if_missing().await.unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::SchemaMismatch);
/// # Ok(())
/// # }
/// ```
#[must_use = "nothing happens until you call `.send().await`"]
#[derive(Debug)]
pub struct CreateTable<'db, T: Table> {
    db: &'db Db<T>,
    wait: Duration,
}

impl<T: Table> Db<T> {
    /// Creates the table if it does not exist yet, for examples, tests and
    /// development stages (production tables belong in your infrastructure
    /// code). Idempotent: a second call finds the table and returns
    /// [`Provisioned::AlreadyExisted`].
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use ddb_entity::{Db, local::LocalDynamo, op::Provisioned};
    ///
    /// ddb_entity::table! {
    ///     /// The app's table.
    ///     pub struct App { partition_key: "PK", sort_key: "SK" }
    /// }
    ///
    /// let dynamo = LocalDynamo::start().await?;
    /// let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// assert_eq!(db.create_table_if_missing().send().await?, Provisioned::Created);
    /// assert_eq!(db.create_table_if_missing().send().await?, Provisioned::AlreadyExisted);
    /// # Ok(())
    /// # }
    /// ```
    pub fn create_table_if_missing(&self) -> CreateTable<'_, T> {
        CreateTable {
            db: self,
            wait: Duration::from_secs(120),
        }
    }
}

impl<T: Table> CreateTable<'_, T> {
    /// How long to wait for the table and its indexes to become `ACTIVE`
    /// (default: two minutes).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use ddb_entity::{Db, local::LocalDynamo, op::Provisioned};
    ///
    /// ddb_entity::table! {
    ///     /// The app's table.
    ///     pub struct App { partition_key: "PK", sort_key: "SK" }
    /// }
    ///
    /// let dynamo = LocalDynamo::start().await?;
    /// let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// use std::time::Duration;
    ///
    /// let created = db.create_table_if_missing().wait(Duration::from_secs(30)).send().await?;
    /// assert_eq!(created, Provisioned::Created);
    /// # Ok(())
    /// # }
    /// ```
    pub fn wait(mut self, wait: Duration) -> Self {
        self.wait = wait;
        self
    }

    /// Sends the requests.
    ///
    /// **Retrying** is safe: a table that exists (because an earlier
    /// attempt created it) is checked against the declaration, not created
    /// again.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use ddb_entity::{Db, local::LocalDynamo, op::Provisioned};
    ///
    /// ddb_entity::table! {
    ///     /// The app's table.
    ///     pub struct App { partition_key: "PK", sort_key: "SK" }
    /// }
    ///
    /// let dynamo = LocalDynamo::start().await?;
    /// let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// assert_eq!(db.create_table_if_missing().send().await?, Provisioned::Created);
    /// // A retry finds it and checks it.
    /// assert_eq!(db.create_table_if_missing().send().await?, Provisioned::AlreadyExisted);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn send(self) -> Result<Provisioned> {
        let table = self.db.table_name();
        let span = tracing::info_span!("ddb.create_table_if_missing", table);
        async move {
            T::SCHEMA.validate()?;
            validate_table_name(table)?;
            let outcome = match self.db.description().await? {
                Some(existing) => {
                    check_matches(table, &T::SCHEMA, &existing)?;
                    Provisioned::AlreadyExisted
                }
                None => create(self.db).await?,
            };
            self.db
                .wait_until_active(self.wait, Duration::from_secs(1), table_status)
                .await?;
            if let Some(attribute) = T::SCHEMA.ttl_attribute {
                enable_ttl(self.db, attribute).await?;
            }
            tracing::debug!(?outcome, "table ready");
            Ok(outcome)
        }
        .instrument(span)
        .await
    }
}

into_future!(['db, T: Table] CreateTable<'db, T> => Provisioned);

async fn create<T: Table>(db: &Db<T>) -> Result<Provisioned> {
    let input = create_table_input(&T::SCHEMA, db.table_name())?;
    // The fluent builder takes the input's fields one by one: every field
    // `create_table_input` sets is copied here.
    let response = db
        .client()
        .create_table()
        .set_table_name(input.table_name)
        .set_attribute_definitions(input.attribute_definitions)
        .set_key_schema(input.key_schema)
        .set_global_secondary_indexes(input.global_secondary_indexes)
        .set_local_secondary_indexes(input.local_secondary_indexes)
        .set_billing_mode(input.billing_mode)
        .set_provisioned_throughput(input.provisioned_throughput)
        .send()
        .await;
    match response {
        Ok(_) => Ok(Provisioned::Created),
        // Someone else created it between our describe and create.
        Err(err)
            if err
                .as_service_error()
                .is_some_and(|e| e.is_resource_in_use_exception()) =>
        {
            Ok(Provisioned::AlreadyExisted)
        }
        Err(err) => Err(Error::service("CreateTable", db.table_name(), err)),
    }
}

/// An error for the first difference that breaks requests; a warning for
/// each other one.
fn check_matches(table: &str, schema: &TableSchema, existing: &TableDescription) -> Result<()> {
    let differences = compare(schema, existing, None);
    for difference in differences.iter().filter(|d| !d.kind.breaks_requests()) {
        tracing::warn!(table, %difference, "the existing table differs from its declaration");
    }
    match differences.into_iter().find(|d| d.kind.breaks_requests()) {
        Some(difference) => Err(Repr::SchemaMismatch {
            table: table.to_owned(),
            detail: difference.to_string(),
        }
        .into()),
        None => Ok(()),
    }
}

/// Turns on time to live for `attribute`, unless it already is; a table
/// whose TTL is on for another attribute does not match its declaration.
async fn enable_ttl<T: Table>(db: &Db<T>, attribute: &str) -> Result<()> {
    let table = db.table_name();
    let described = db.time_to_live().await?;
    let current = described.as_ref();
    let on = current
        .and_then(|d| d.time_to_live_status())
        .is_some_and(|status| {
            matches!(
                status,
                TimeToLiveStatus::Enabled | TimeToLiveStatus::Enabling
            )
        });
    let current_attribute = current.and_then(|d| d.attribute_name());
    match (on, current_attribute) {
        (true, Some(name)) if name == attribute => return Ok(()),
        (true, Some(name)) => {
            return Err(Repr::SchemaMismatch {
                table: table.to_owned(),
                detail: format!("time to live is on for `{name}`, declared `{attribute}`"),
            }
            .into());
        }
        _ => {}
    }
    let Some(specification) = time_to_live_specification(&T::SCHEMA)? else {
        return Ok(());
    };
    db.client()
        .update_time_to_live()
        .table_name(table)
        .time_to_live_specification(specification)
        .send()
        .await
        .map_err(|err| Error::service("UpdateTimeToLive", table, err))?;
    Ok(())
}

/// `ACTIVE` only when the table and every index are; otherwise the first
/// status that is not.
fn table_status(description: &TableDescription) -> String {
    match description.table_status() {
        Some(TableStatus::Active) => {}
        Some(status) => return status.as_str().to_owned(),
        None => return "no status".to_owned(),
    }
    for gsi in description.global_secondary_indexes() {
        // An emulator may omit the index status; only a stated one counts.
        if let Some(status) = gsi.index_status()
            && status != &IndexStatus::Active
        {
            let name = gsi.index_name().unwrap_or("(unnamed)");
            return format!("index `{name}`: {}", status.as_str());
        }
    }
    "ACTIVE".to_owned()
}
