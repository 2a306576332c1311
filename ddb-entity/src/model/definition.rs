//! The table's definition as the SDK's own `CreateTableInput`: the one
//! value every deploy artefact and `create_table_if_missing` are made from.

use aws_sdk_dynamodb::error::BuildError;
use aws_sdk_dynamodb::operation::create_table::CreateTableInput;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, LocalSecondaryIndex,
    Projection as SdkProjection, ProjectionType, ScalarAttributeType, TimeToLiveSpecification,
};

use crate::error::{Error, Repr, Result};
use crate::table::sdk::{
    key_schema_elements, multi_key_schema, projection, scalar_type, throughput,
};
use crate::table::{Billing, TableSchema};

/// The CreateTable request for a table of shape `schema` named `table_name`:
/// every key attribute (a string; a multi-attribute index's attributes
/// with their declared types), the keys, the billing mode and capacity,
/// and each global and local index with its projection (and, on a
/// provisioned table, its capacity). The multi-attribute indexes follow
/// the other global indexes, projecting `ALL`, with the table's capacity
/// on a provisioned table.
///
/// [`Db::create_table_if_missing`](crate::db::Db::create_table_if_missing)
/// sends exactly this; with the feature `model`, the AWS CLI input,
/// CloudFormation and Terraform definitions are rendered from it. Time to
/// live is not part of CreateTable: see [`time_to_live_specification`].
///
/// ```
/// ddb_entity::table! {
///     /// The app's table.
///     pub struct App {
///         partition_key: "PK",
///         sort_key: "SK",
///         indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", projection: keys_only } },
///     }
/// }
/// use ddb_entity::Table;
/// let input = ddb_entity::model::create_table_input(&App::SCHEMA, "app")?;
/// assert_eq!(input.table_name(), Some("app"));
/// assert_eq!(input.billing_mode().map(|m| m.as_str()), Some("PAY_PER_REQUEST"));
/// let gsi = &input.global_secondary_indexes()[0];
/// assert_eq!(gsi.projection().and_then(|p| p.projection_type()).map(|t| t.as_str()), Some("KEYS_ONLY"));
/// # Ok::<(), ddb_entity::Error>(())
/// ```
pub fn create_table_input(schema: &TableSchema, table_name: &str) -> Result<CreateTableInput> {
    build(schema, table_name).map_err(invalid("CreateTable"))
}

/// The UpdateTimeToLive specification of the table's TTL attribute, if it
/// declares one (DynamoDB turns time to live on after the table exists).
///
/// ```
/// ddb_entity::table! {
///     /// Sessions that expire.
///     pub struct Sessions { partition_key: "token", ttl_attribute: "expires_at" }
/// }
/// use ddb_entity::Table;
/// let ttl = ddb_entity::model::time_to_live_specification(&Sessions::SCHEMA)?.unwrap();
/// assert_eq!(ttl.attribute_name(), "expires_at");
/// assert!(ttl.enabled());
/// # Ok::<(), ddb_entity::Error>(())
/// ```
pub fn time_to_live_specification(schema: &TableSchema) -> Result<Option<TimeToLiveSpecification>> {
    schema
        .ttl_attribute
        .map(|attribute| {
            TimeToLiveSpecification::builder()
                .enabled(true)
                .attribute_name(attribute)
                .build()
                .map_err(invalid("UpdateTimeToLive"))
        })
        .transpose()
}

fn invalid(what: &'static str) -> impl Fn(BuildError) -> Error {
    move |err| {
        Repr::RequestBuild {
            what,
            source: Box::new(err),
        }
        .into()
    }
}

fn build(schema: &TableSchema, table_name: &str) -> Result<CreateTableInput, BuildError> {
    let definitions = schema
        .key_attributes()
        .into_iter()
        .map(|name| {
            AttributeDefinition::builder()
                .attribute_name(name)
                .attribute_type(ScalarAttributeType::S)
                .build()
        })
        .chain(schema.multi_key_attributes().into_iter().map(|attribute| {
            // A multi-attribute index's attributes are entity fields of
            // their own types, defined once each.
            AttributeDefinition::builder()
                .attribute_name(attribute.name)
                .attribute_type(scalar_type(attribute.ty))
                .build()
        }))
        .collect::<Result<Vec<_>, _>>()?;
    let multi = schema.multi_key_indexes.iter().map(|index| {
        GlobalSecondaryIndex::builder()
            .index_name(index.name)
            .set_key_schema(Some(multi_key_schema(index)?))
            .projection(
                SdkProjection::builder()
                    .projection_type(ProjectionType::All)
                    .build(),
            )
            .set_provisioned_throughput(schema.billing.capacity().map(throughput).transpose()?)
            .build()
    });
    let global = schema
        .indexes
        .iter()
        .map(|index| {
            GlobalSecondaryIndex::builder()
                .index_name(index.name)
                .set_key_schema(Some(key_schema_elements(index.keys)?))
                .projection(projection(index))
                .set_provisioned_throughput(
                    schema.index_capacity(index).map(throughput).transpose()?,
                )
                .build()
        })
        .chain(multi)
        .collect::<Result<Vec<_>, _>>()?;
    let local = schema
        .local_indexes
        .iter()
        .map(|index| {
            LocalSecondaryIndex::builder()
                .index_name(index.name)
                .set_key_schema(Some(key_schema_elements(index.keys)?))
                .projection(projection(index))
                .build()
        })
        .collect::<Result<Vec<_>, _>>()?;
    let billing = match schema.billing {
        Billing::OnDemand => BillingMode::PayPerRequest,
        Billing::Provisioned(_) => BillingMode::Provisioned,
    };
    CreateTableInput::builder()
        .table_name(table_name)
        .set_attribute_definitions(Some(definitions))
        .set_key_schema(Some(key_schema_elements(schema.primary)?))
        .set_global_secondary_indexes((!global.is_empty()).then_some(global))
        .set_local_secondary_indexes((!local.is_empty()).then_some(local))
        .billing_mode(billing)
        .set_provisioned_throughput(schema.billing.capacity().map(throughput).transpose()?)
        .build()
}
