//! Deploy definitions of the model's table, every one rendered from the
//! one `CreateTableInput` that `create_table_if_missing` sends (plus the
//! time-to-live attribute, which CreateTable does not take).

mod cli;
mod cloudformation;
mod terraform;
mod workbench;

use aws_sdk_dynamodb::operation::create_table::CreateTableInput;
use aws_sdk_dynamodb::types::{
    GlobalSecondaryIndex, KeySchemaElement, KeyType, LocalSecondaryIndex, Projection,
    ProvisionedThroughput,
};

use super::json::{Json, object, string, strings};
use crate::error::{Repr, Result};

/// The table's key schema in CreateTable's JSON shape.
fn key_schema(elements: &[KeySchemaElement]) -> Json {
    Json::Array(
        elements
            .iter()
            .map(|e| {
                object([
                    ("AttributeName", string(e.attribute_name())),
                    ("KeyType", string(e.key_type().as_str())),
                ])
            })
            .collect(),
    )
}

fn projection(projection: Option<&Projection>) -> Json {
    let mut out = object([(
        "ProjectionType",
        string(
            projection
                .and_then(|p| p.projection_type())
                .map_or("ALL", |t| t.as_str()),
        ),
    )]);
    let attributes = projection
        .map(|p| p.non_key_attributes())
        .unwrap_or_default();
    if !attributes.is_empty() {
        out.push(
            "NonKeyAttributes",
            strings(attributes.iter().map(String::as_str)),
        );
    }
    out
}

/// A global index as CreateTable's JSON (the CLI's and CloudFormation's
/// alike): name, keys, projection, and its capacity when provisioned.
fn global_index(index: &GlobalSecondaryIndex) -> Json {
    let mut gsi = object([
        ("IndexName", string(index.index_name())),
        ("KeySchema", key_schema(index.key_schema())),
        ("Projection", projection(index.projection())),
    ]);
    if let Some(capacity) = index.provisioned_throughput() {
        gsi.push("ProvisionedThroughput", throughput(capacity));
    }
    gsi
}

/// A local index as CreateTable's JSON: name, keys, projection.
fn local_index(index: &LocalSecondaryIndex) -> Json {
    object([
        ("IndexName", string(index.index_name())),
        ("KeySchema", key_schema(index.key_schema())),
        ("Projection", projection(index.projection())),
    ])
}

fn throughput(throughput: &ProvisionedThroughput) -> Json {
    object([
        (
            "ReadCapacityUnits",
            number(throughput.read_capacity_units()),
        ),
        (
            "WriteCapacityUnits",
            number(throughput.write_capacity_units()),
        ),
    ])
}

fn number(units: i64) -> Json {
    Json::Number(u64::try_from(units).unwrap_or(0))
}

/// The HASH and RANGE attribute names of a key schema.
fn hash_range(elements: &[KeySchemaElement]) -> (Option<&str>, Option<&str>) {
    let find = |kind: KeyType| {
        elements
            .iter()
            .find(|e| e.key_type() == &kind)
            .map(|e| e.attribute_name())
    };
    (find(KeyType::Hash), find(KeyType::Range))
}

/// The attribute definitions, in the input's order.
fn definitions(input: &CreateTableInput) -> Json {
    Json::Array(
        input
            .attribute_definitions()
            .iter()
            .map(|d| {
                object([
                    ("AttributeName", string(d.attribute_name())),
                    ("AttributeType", string(d.attribute_type().as_str())),
                ])
            })
            .collect(),
    )
}

/// Refuses a global index whose key has several attributes of one kind (a
/// multi-attribute index, [`MultiKeyIndexSchema`](crate::table::MultiKeyIndexSchema)),
/// which a `format` definition cannot state: it names one partition and
/// one sort key attribute per index.
fn single_attribute_keys(input: &CreateTableInput, format: &str) -> Result<()> {
    for index in input.global_secondary_indexes() {
        let elements = index.key_schema();
        let several = |kind: KeyType| elements.iter().filter(|e| e.key_type() == &kind).count() > 1;
        if several(KeyType::Hash) || several(KeyType::Range) {
            return Err(Repr::InvalidSchema {
                detail: format!(
                    "index `{}` has a multi-attribute key, which a {format} definition cannot state (one partition and one sort key attribute per index); deploy the table from the CloudFormation or AWS CLI definition",
                    index.index_name()
                ),
            }
            .into());
        }
    }
    Ok(())
}

/// The declared type of attribute `name` (`S` when it is not defined).
fn attribute_type<'a>(input: &'a CreateTableInput, name: &str) -> &'a str {
    input
        .attribute_definitions()
        .iter()
        .find(|d| d.attribute_name() == name)
        .map_or("S", |d| d.attribute_type().as_str())
}
