//! A CloudFormation (and SAM) template with one `AWS::DynamoDB::Table`.

use super::{definitions, global_index, key_schema, local_index, throughput};
use crate::error::Result;
use crate::model::Model;
use crate::model::json::{Json, object, string};
use crate::table::Table;

impl<T: Table> Model<T> {
    /// A CloudFormation template (JSON; SAM takes the same resource) whose
    /// one resource, `{Name}Table`, is the `AWS::DynamoDB::Table` of
    /// [`create_table_input`](Model::create_table_input) with its
    /// `TimeToLiveSpecification`.
    ///
    /// ```
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// let json = ddb_entity::model::Model::<App>::new("shop").cloudformation_json()?;
    /// assert!(json.contains(r#""ShopTable": {"#));
    /// assert!(json.contains(r#""Type": "AWS::DynamoDB::Table""#));
    /// # Ok::<(), ddb_entity::Error>(())
    /// ```
    pub fn cloudformation_json(&self) -> Result<String> {
        let input = self.create_table_input()?;
        let mut properties = object([
            ("TableName", string(self.table_name())),
            ("AttributeDefinitions", definitions(&input)),
            ("KeySchema", key_schema(input.key_schema())),
        ]);
        if let Some(mode) = input.billing_mode() {
            properties.push("BillingMode", string(mode.as_str()));
        }
        if let Some(capacity) = input.provisioned_throughput() {
            properties.push("ProvisionedThroughput", throughput(capacity));
        }
        if !input.global_secondary_indexes().is_empty() {
            let global = input
                .global_secondary_indexes()
                .iter()
                .map(global_index)
                .collect();
            properties.push("GlobalSecondaryIndexes", Json::Array(global));
        }
        if !input.local_secondary_indexes().is_empty() {
            let local = input
                .local_secondary_indexes()
                .iter()
                .map(local_index)
                .collect();
            properties.push("LocalSecondaryIndexes", Json::Array(local));
        }
        if let Some(attribute) = self.schema().ttl_attribute {
            properties.push(
                "TimeToLiveSpecification",
                object([
                    ("AttributeName", string(attribute)),
                    ("Enabled", Json::Bool(true)),
                ]),
            );
        }
        let resource = object([
            ("Type", string("AWS::DynamoDB::Table")),
            ("Properties", properties),
        ]);
        let template = object([
            ("AWSTemplateFormatVersion", string("2010-09-09")),
            (
                "Description",
                string(format!(
                    "The DynamoDB table `{}`, generated from its ddb-entity model",
                    self.table_name()
                )),
            ),
            (
                "Resources",
                object([(logical_id(self.table_name()), resource)]),
            ),
        ]);
        Ok(template.pretty())
    }
}

/// `ShopOrdersTable` for `shop-orders`: alphanumeric, as CloudFormation
/// requires, each word capitalised.
pub(crate) fn logical_id(table_name: &str) -> String {
    let mut out = String::new();
    for word in table_name.split(|c: char| !c.is_ascii_alphanumeric()) {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            out.extend(first.to_uppercase());
            out.push_str(chars.as_str());
        }
    }
    if !out.starts_with(|c: char| c.is_ascii_alphabetic()) {
        out.insert(0, 'T');
    }
    out.push_str("Table");
    out
}
