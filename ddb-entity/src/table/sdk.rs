//! A table declaration in the SDK's own types: key schemas, attribute
//! types, projections and capacity, shared by the CreateTable definition
//! (`model::create_table_input`) and UpdateTable's new index
//! (`evolve::add_index`), so an index added to a live table is the one
//! CreateTable would have made.

use aws_sdk_dynamodb::error::BuildError;
use aws_sdk_dynamodb::types::{
    KeySchemaElement, KeyType, Projection as SdkProjection, ProjectionType, ProvisionedThroughput,
    ScalarAttributeType,
};

use super::{
    IndexSchema, KeyAttributeType, KeySchema, MultiKeyIndexSchema, Projection, Throughput,
};

/// The HASH (and RANGE) elements of `keys`.
pub(crate) fn key_schema_elements(keys: KeySchema) -> Result<Vec<KeySchemaElement>, BuildError> {
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

/// `HASH` for each partition attribute of a multi-attribute index, then
/// `RANGE` for each sort attribute, in their declared order: the order of
/// a key schema is the order of the key.
pub(crate) fn multi_key_schema(
    index: &MultiKeyIndexSchema,
) -> Result<Vec<KeySchemaElement>, BuildError> {
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

/// The attribute type of a key attribute declared of type `ty`.
pub(crate) fn scalar_type(ty: KeyAttributeType) -> ScalarAttributeType {
    match ty {
        KeyAttributeType::S => ScalarAttributeType::S,
        KeyAttributeType::N => ScalarAttributeType::N,
        KeyAttributeType::B => ScalarAttributeType::B,
    }
}

/// The projection `index` declares.
pub(crate) fn projection(index: &IndexSchema) -> SdkProjection {
    let kind = match index.projection {
        Projection::All => ProjectionType::All,
        Projection::KeysOnly => ProjectionType::KeysOnly,
        Projection::Include(_) => ProjectionType::Include,
    };
    let attributes = index.projection.non_key_attributes();
    SdkProjection::builder()
        .projection_type(kind)
        .set_non_key_attributes(
            (!attributes.is_empty()).then(|| attributes.iter().map(|a| (*a).to_owned()).collect()),
        )
        .build()
}

/// Declared capacity as the SDK's `ProvisionedThroughput`.
pub(crate) fn throughput(capacity: Throughput) -> Result<ProvisionedThroughput, BuildError> {
    // DynamoDB's capacity units are i64; a declared u64 beyond that is
    // refused by the service, so saturate rather than wrap.
    let units = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
    ProvisionedThroughput::builder()
        .read_capacity_units(units(capacity.read))
        .write_capacity_units(units(capacity.write))
        .build()
}
