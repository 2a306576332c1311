//! The AWS CLI's input: `aws dynamodb create-table --cli-input-json`.

use aws_sdk_dynamodb::operation::create_table::CreateTableInput;

use super::{definitions, global_index, key_schema, local_index, throughput};
use crate::error::Result;
use crate::model::json::{Json, object, string};
use crate::model::{Model, time_to_live_specification};
use crate::table::Table;

impl<T: Table> Model<T> {
    /// The CreateTable request as the AWS CLI takes it
    /// (`aws dynamodb create-table --cli-input-json file://table.json`):
    /// DynamoDB's own JSON for [`create_table_input`](Model::create_table_input),
    /// member for member what the SDK sends.
    ///
    /// ```
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// let json = ddb_entity::model::Model::<App>::new("shop").aws_cli_json()?;
    /// assert!(json.contains(r#""TableName": "shop""#));
    /// assert!(json.contains(r#""BillingMode": "PAY_PER_REQUEST""#));
    /// # Ok::<(), ddb_entity::Error>(())
    /// ```
    pub fn aws_cli_json(&self) -> Result<String> {
        Ok(create_table_json(&self.create_table_input()?).pretty())
    }

    /// The UpdateTimeToLive request as the AWS CLI takes it
    /// (`aws dynamodb update-time-to-live --cli-input-json …`), for a table
    /// with a TTL attribute: CreateTable cannot turn time to live on.
    ///
    /// ```
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", ttl_attribute: "expires_at" } }
    /// let json = ddb_entity::model::Model::<App>::new("shop").aws_cli_ttl_json()?.unwrap();
    /// assert!(json.contains(r#""AttributeName": "expires_at""#));
    /// # Ok::<(), ddb_entity::Error>(())
    /// ```
    pub fn aws_cli_ttl_json(&self) -> Result<Option<String>> {
        Ok(time_to_live_specification(self.schema())?.map(|ttl| {
            object([
                ("TableName", string(self.table_name())),
                (
                    "TimeToLiveSpecification",
                    object([
                        ("Enabled", Json::Bool(ttl.enabled())),
                        ("AttributeName", string(ttl.attribute_name())),
                    ]),
                ),
            ])
            .pretty()
        }))
    }
}

/// CreateTable's JSON, members in the order of the CLI's skeleton.
pub(crate) fn create_table_json(input: &CreateTableInput) -> Json {
    let mut out = object([
        ("AttributeDefinitions", definitions(input)),
        ("TableName", string(input.table_name().unwrap_or_default())),
        ("KeySchema", key_schema(input.key_schema())),
    ]);
    if !input.local_secondary_indexes().is_empty() {
        let local = input
            .local_secondary_indexes()
            .iter()
            .map(local_index)
            .collect();
        out.push("LocalSecondaryIndexes", Json::Array(local));
    }
    if !input.global_secondary_indexes().is_empty() {
        let global = input
            .global_secondary_indexes()
            .iter()
            .map(global_index)
            .collect();
        out.push("GlobalSecondaryIndexes", Json::Array(global));
    }
    if let Some(mode) = input.billing_mode() {
        out.push("BillingMode", string(mode.as_str()));
    }
    if let Some(capacity) = input.provisioned_throughput() {
        out.push("ProvisionedThroughput", throughput(capacity));
    }
    out
}
