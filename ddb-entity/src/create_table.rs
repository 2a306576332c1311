//! Idempotent table creation for examples, tests and development stages.

use std::time::{Duration, Instant};

use aws_sdk_dynamodb::operation::describe_table::DescribeTableError;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, IndexStatus, KeySchemaElement, KeyType,
    Projection, ProjectionType, ScalarAttributeType, TableDescription, TableStatus,
    TimeToLiveSpecification, TimeToLiveStatus,
};
use tracing::Instrument;

use crate::db::{Db, pause};
use crate::error::{Error, Repr, Result};
use crate::future::into_future;
use crate::table::{
    KeyAttributeType, KeySchema, MultiKeyIndexSchema, Table, TableSchema, validate_table_name,
};

/// What [`CreateTable`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provisioned {
    /// The table did not exist and was created.
    Created,
    /// The table already existed with the declared keys and indexes.
    AlreadyExisted,
}

/// Creates the table if it is missing (on-demand capacity, every declared
/// index projecting `ALL`), then waits until it and its indexes are `ACTIVE`.
///
/// An existing table is checked against the declaration: different keys, or
/// a declared index the table lacks, is an [`ErrorKind::SchemaMismatch`](crate::ErrorKind::SchemaMismatch) error — never a
/// silent success that fails on the first query. Made by
/// [`Db::create_table_if_missing`].
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
    pub fn wait(mut self, wait: Duration) -> Self {
        self.wait = wait;
        self
    }

    /// Sends the requests.
    ///
    /// **Retrying** is safe: a table that exists (because an earlier
    /// attempt created it) is checked against the declaration, not created
    /// again.
    pub async fn send(self) -> Result<Provisioned> {
        let table = self.db.table_name();
        let span = tracing::info_span!("ddb.create_table_if_missing", table);
        async move {
            T::SCHEMA.validate()?;
            validate_table_name(table)?;
            let outcome = match describe(self.db).await? {
                Some(existing) => {
                    check_matches(table, &T::SCHEMA, &existing)?;
                    Provisioned::AlreadyExisted
                }
                None => create(self.db).await?,
            };
            wait_until_active(self.db, self.wait).await?;
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

async fn describe<T: Table>(db: &Db<T>) -> Result<Option<TableDescription>> {
    let response = db
        .client()
        .describe_table()
        .table_name(db.table_name())
        .send()
        .await;
    match response {
        Ok(output) => Ok(output.table),
        Err(err)
            if matches!(
                err.as_service_error(),
                Some(DescribeTableError::ResourceNotFoundException(_))
            ) =>
        {
            Ok(None)
        }
        Err(err) => Err(Error::service("DescribeTable", db.table_name(), err)),
    }
}

async fn create<T: Table>(db: &Db<T>) -> Result<Provisioned> {
    let schema = &T::SCHEMA;
    let invalid = |err: aws_sdk_dynamodb::error::BuildError| -> Error {
        Repr::RequestBuild {
            what: "CreateTable",
            source: Box::new(err),
        }
        .into()
    };
    let definitions = schema
        .key_attributes()
        .into_iter()
        .map(|name| {
            AttributeDefinition::builder()
                .attribute_name(name)
                .attribute_type(ScalarAttributeType::S)
                .build()
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(invalid)?;
    // A multi-attribute index's attributes are entity fields of their own
    // types, defined once each however many indexes name them.
    let mut definitions = definitions;
    let mut defined: Vec<&str> = schema.key_attributes();
    for attribute in schema.multi_key_indexes.iter().flat_map(|i| i.attributes()) {
        if defined.contains(&attribute.name) {
            continue;
        }
        defined.push(attribute.name);
        let ty = match attribute.ty {
            KeyAttributeType::S => ScalarAttributeType::S,
            KeyAttributeType::N => ScalarAttributeType::N,
            KeyAttributeType::B => ScalarAttributeType::B,
        };
        definitions.push(
            AttributeDefinition::builder()
                .attribute_name(attribute.name)
                .attribute_type(ty)
                .build()
                .map_err(invalid)?,
        );
    }
    let multi = schema.multi_key_indexes.iter().map(|index| {
        GlobalSecondaryIndex::builder()
            .index_name(index.name)
            .set_key_schema(Some(multi_key_schema(index).map_err(invalid)?))
            .projection(
                Projection::builder()
                    .projection_type(ProjectionType::All)
                    .build(),
            )
            .build()
            .map_err(invalid)
    });
    let indexes = schema
        .indexes
        .iter()
        .map(|index| {
            GlobalSecondaryIndex::builder()
                .index_name(index.name)
                .set_key_schema(Some(key_schema_elements(index.keys).map_err(invalid)?))
                .projection(
                    Projection::builder()
                        .projection_type(ProjectionType::All)
                        .build(),
                )
                .build()
                .map_err(invalid)
        })
        .chain(multi)
        .collect::<Result<Vec<_>>>()?;
    let response = db
        .client()
        .create_table()
        .table_name(db.table_name())
        .billing_mode(BillingMode::PayPerRequest)
        .set_attribute_definitions(Some(definitions))
        .set_key_schema(Some(key_schema_elements(schema.primary).map_err(invalid)?))
        .set_global_secondary_indexes((!indexes.is_empty()).then_some(indexes))
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

fn key_schema_elements(
    keys: KeySchema,
) -> Result<Vec<KeySchemaElement>, aws_sdk_dynamodb::error::BuildError> {
    let hash = KeySchemaElement::builder()
        .attribute_name(keys.partition_key)
        .key_type(KeyType::Hash)
        .build()?;
    let range = keys
        .sort_key
        .map(|name| {
            KeySchemaElement::builder()
                .attribute_name(name)
                .key_type(KeyType::Range)
                .build()
        })
        .transpose()?;
    Ok(std::iter::once(hash).chain(range).collect())
}

/// The declared keys as DynamoDB describes them: (HASH, RANGE) names.
/// `HASH` for each partition attribute, then `RANGE` for each sort
/// attribute, in their declared order: the order of a key schema is the
/// order of the key.
fn multi_key_schema(
    index: &MultiKeyIndexSchema,
) -> Result<Vec<KeySchemaElement>, aws_sdk_dynamodb::error::BuildError> {
    let hash = index.partition_key.iter().map(|a| (a, KeyType::Hash));
    let range = index.sort_key.iter().map(|a| (a, KeyType::Range));
    hash.chain(range)
        .map(|(attribute, kind)| {
            KeySchemaElement::builder()
                .attribute_name(attribute.name)
                .key_type(kind)
                .build()
        })
        .collect()
}

fn described_keys(elements: &[KeySchemaElement]) -> (Option<&str>, Option<&str>) {
    let find = |kind: KeyType| {
        elements
            .iter()
            .find(|e| e.key_type == kind)
            .map(|e| e.attribute_name.as_str())
    };
    (find(KeyType::Hash), find(KeyType::Range))
}

fn check_matches(table: &str, schema: &TableSchema, existing: &TableDescription) -> Result<()> {
    let mismatch = |detail: String| -> Error {
        Repr::SchemaMismatch {
            table: table.to_owned(),
            detail,
        }
        .into()
    };
    let declared = (Some(schema.primary.partition_key), schema.primary.sort_key);
    let found = described_keys(existing.key_schema());
    if declared != found {
        return Err(mismatch(format!(
            "the primary key is {found:?} (partition, sort), declared {declared:?}"
        )));
    }
    for index in schema.indexes {
        let Some(gsi) = existing
            .global_secondary_indexes()
            .iter()
            .find(|gsi| gsi.index_name() == Some(index.name))
        else {
            return Err(mismatch(format!("index `{}` is missing", index.name)));
        };
        let declared = (Some(index.keys.partition_key), index.keys.sort_key);
        let found = described_keys(gsi.key_schema());
        if declared != found {
            return Err(mismatch(format!(
                "index `{}` has keys {found:?} (partition, sort), declared {declared:?}",
                index.name
            )));
        }
    }
    for index in schema.multi_key_indexes {
        let Some(gsi) = existing
            .global_secondary_indexes()
            .iter()
            .find(|gsi| gsi.index_name() == Some(index.name))
        else {
            return Err(mismatch(format!("index `{}` is missing", index.name)));
        };
        let found: Vec<(&str, &KeyType)> = gsi
            .key_schema()
            .iter()
            .map(|e| (e.attribute_name(), e.key_type()))
            .collect();
        let declared: Vec<(&str, &KeyType)> = index
            .partition_key
            .iter()
            .map(|a| (a.name, &KeyType::Hash))
            .chain(index.sort_key.iter().map(|a| (a.name, &KeyType::Range)))
            .collect();
        if found != declared {
            return Err(mismatch(format!(
                "index `{}` has the keys {found:?}, declared {declared:?}",
                index.name
            )));
        }
    }
    Ok(())
}

/// Turns on time to live for `attribute`, unless it already is; a table
/// whose TTL is on for another attribute does not match its declaration.
async fn enable_ttl<T: Table>(db: &Db<T>, attribute: &str) -> Result<()> {
    let table = db.table_name();
    let described = db
        .client()
        .describe_time_to_live()
        .table_name(table)
        .send()
        .await
        .map_err(|err| Error::service("DescribeTimeToLive", table, err))?;
    let current = described.time_to_live_description();
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
    let specification = TimeToLiveSpecification::builder()
        .enabled(true)
        .attribute_name(attribute)
        .build()
        .map_err(|err| Repr::RequestBuild {
            what: "UpdateTimeToLive",
            source: Box::new(err),
        })?;
    db.client()
        .update_time_to_live()
        .table_name(table)
        .time_to_live_specification(specification)
        .send()
        .await
        .map_err(|err| Error::service("UpdateTimeToLive", table, err))?;
    Ok(())
}

async fn wait_until_active<T: Table>(db: &Db<T>, wait: Duration) -> Result<()> {
    let started = Instant::now();
    let mut delay = Duration::from_millis(20);
    loop {
        let description = describe(db).await?;
        let status = description
            .as_ref()
            .map(table_status)
            .unwrap_or_else(|| "missing".to_owned());
        if status == "ACTIVE" {
            return Ok(());
        }
        if started.elapsed() >= wait {
            return Err(Error::not_active(
                db.table_name(),
                status,
                started.elapsed(),
            ));
        }
        pause(db.client(), delay).await;
        delay = (delay * 2).min(Duration::from_secs(1));
    }
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
