//! Terraform's `aws_dynamodb_table`, as HCL and as Terraform's JSON syntax.

use aws_sdk_dynamodb::operation::create_table::CreateTableInput;
use aws_sdk_dynamodb::types::{Projection, ProvisionedThroughput};

use super::{hash_range, number, single_attribute_keys};
use crate::error::Result;
use crate::model::Model;
use crate::model::json::{Json, object, string, strings};
use crate::table::Table;

/// One Terraform block: attributes, then nested blocks.
struct Block {
    kind: &'static str,
    attributes: Vec<(&'static str, Json)>,
    blocks: Vec<Block>,
}

impl Block {
    fn new(kind: &'static str) -> Self {
        Block {
            kind,
            attributes: Vec::new(),
            blocks: Vec::new(),
        }
    }

    fn set(&mut self, name: &'static str, value: Json) {
        self.attributes.push((name, value));
    }

    /// The body as Terraform's JSON: nested blocks of one kind as an array.
    fn json(&self) -> Json {
        let mut out = object(
            self.attributes
                .iter()
                .map(|(name, value)| (*name, value.clone())),
        );
        let mut kinds: Vec<&str> = Vec::new();
        for block in &self.blocks {
            if !kinds.contains(&block.kind) {
                kinds.push(block.kind);
            }
        }
        for kind in kinds {
            let blocks = self
                .blocks
                .iter()
                .filter(|b| b.kind == kind)
                .map(Block::json);
            out.push(kind, Json::Array(blocks.collect()));
        }
        out
    }

    /// The body as HCL, `=` aligned as `terraform fmt` aligns it.
    fn hcl(&self, out: &mut String, depth: usize) {
        let pad = "  ".repeat(depth);
        let width = self
            .attributes
            .iter()
            .map(|(n, _)| n.len())
            .max()
            .unwrap_or(0);
        for (name, value) in &self.attributes {
            out.push_str(&format!("{pad}{name:width$} = {}\n", hcl_value(value)));
        }
        for block in &self.blocks {
            out.push('\n');
            out.push_str(&format!("{pad}{} {{\n", block.kind));
            block.hcl(out, depth + 1);
            out.push_str(&format!("{pad}}}\n"));
        }
    }
}

fn hcl_value(value: &Json) -> String {
    match value {
        Json::Bool(b) => b.to_string(),
        Json::Number(n) => n.to_string(),
        Json::String(s) => hcl_string(s),
        Json::Array(items) => {
            let items: Vec<String> = items.iter().map(hcl_value).collect();
            format!("[{}]", items.join(", "))
        }
        // Not produced: every map here is a block.
        Json::Object(_) => "{}".into(),
    }
}

/// A quoted HCL string: `\` and `"` escaped, and the template sequences
/// `${` and `%{` doubled so they stay literal text.
fn hcl_string(text: &str) -> String {
    let escaped = text
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
        .replace("${", "$${")
        .replace("%{", "%%{");
    format!("\"{escaped}\"")
}

/// `shop_orders` for `shop-orders.v2`: a valid Terraform resource name.
fn resource_name(table_name: &str) -> String {
    let mut out: String = table_name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if !out.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        out.insert(0, '_');
    }
    out
}

fn capacity(block: &mut Block, throughput: Option<&ProvisionedThroughput>) {
    if let Some(throughput) = throughput {
        block.set("read_capacity", number(throughput.read_capacity_units()));
        block.set("write_capacity", number(throughput.write_capacity_units()));
    }
}

fn projection(block: &mut Block, projection: Option<&Projection>) {
    let kind = projection
        .and_then(|p| p.projection_type())
        .map_or("ALL", |t| t.as_str());
    block.set("projection_type", string(kind));
    let attributes = projection
        .map(|p| p.non_key_attributes())
        .unwrap_or_default();
    if !attributes.is_empty() {
        block.set(
            "non_key_attributes",
            strings(attributes.iter().map(String::as_str)),
        );
    }
}

fn table_block(input: &CreateTableInput, ttl: Option<&str>) -> Block {
    let mut table = Block::new("aws_dynamodb_table");
    table.set("name", string(input.table_name().unwrap_or_default()));
    table.set(
        "billing_mode",
        string(
            input
                .billing_mode()
                .map_or("PAY_PER_REQUEST", |m| m.as_str()),
        ),
    );
    let (hash, range) = hash_range(input.key_schema());
    table.set("hash_key", string(hash.unwrap_or_default()));
    if let Some(range) = range {
        table.set("range_key", string(range));
    }
    capacity(&mut table, input.provisioned_throughput());
    for definition in input.attribute_definitions() {
        let mut attribute = Block::new("attribute");
        attribute.set("name", string(definition.attribute_name()));
        attribute.set("type", string(definition.attribute_type().as_str()));
        table.blocks.push(attribute);
    }
    for index in input.global_secondary_indexes() {
        let mut gsi = Block::new("global_secondary_index");
        gsi.set("name", string(index.index_name()));
        let (hash, range) = hash_range(index.key_schema());
        gsi.set("hash_key", string(hash.unwrap_or_default()));
        if let Some(range) = range {
            gsi.set("range_key", string(range));
        }
        projection(&mut gsi, index.projection());
        capacity(&mut gsi, index.provisioned_throughput());
        table.blocks.push(gsi);
    }
    for index in input.local_secondary_indexes() {
        let mut lsi = Block::new("local_secondary_index");
        lsi.set("name", string(index.index_name()));
        let (_, range) = hash_range(index.key_schema());
        lsi.set("range_key", string(range.unwrap_or_default()));
        projection(&mut lsi, index.projection());
        table.blocks.push(lsi);
    }
    if let Some(attribute) = ttl {
        let mut block = Block::new("ttl");
        block.set("attribute_name", string(attribute));
        block.set("enabled", Json::Bool(true));
        table.blocks.push(block);
    }
    table
}

impl<T: Table> Model<T> {
    /// Terraform's `resource "aws_dynamodb_table"` for the table, in HCL:
    /// the keys, attributes, global and local indexes with projections and
    /// capacity of [`create_table_input`](Model::create_table_input), and
    /// its `ttl`. A multi-attribute index key (several partition or sort
    /// attributes) is refused ([`ErrorKind::InvalidSchema`](crate::error::ErrorKind::InvalidSchema)):
    /// the resource names one `hash_key` and one `range_key` per index.
    ///
    /// ```
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// let hcl = ddb_entity::model::Model::<App>::new("shop").terraform_hcl()?;
    /// assert!(hcl.starts_with(r#"resource "aws_dynamodb_table" "shop" {"#));
    /// assert!(hcl.contains(r#"  hash_key     = "PK""#));
    /// # Ok::<(), ddb_entity::Error>(())
    /// ```
    pub fn terraform_hcl(&self) -> Result<String> {
        let input = self.create_table_input()?;
        single_attribute_keys(&input, "Terraform")?;
        let table = table_block(&input, self.schema().ttl_attribute);
        let mut out = format!(
            "resource \"aws_dynamodb_table\" {} {{\n",
            hcl_string(&resource_name(self.table_name()))
        );
        table.hcl(&mut out, 1);
        out.push_str("}\n");
        Ok(out)
    }

    /// The same resource in Terraform's JSON syntax (`*.tf.json`).
    ///
    /// ```
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// let json = ddb_entity::model::Model::<App>::new("shop").terraform_json()?;
    /// assert!(json.contains(r#""aws_dynamodb_table": {"#));
    /// # Ok::<(), ddb_entity::Error>(())
    /// ```
    pub fn terraform_json(&self) -> Result<String> {
        let input = self.create_table_input()?;
        single_attribute_keys(&input, "Terraform")?;
        let table = table_block(&input, self.schema().ttl_attribute);
        let resource = object([(
            "resource",
            object([(
                "aws_dynamodb_table",
                object([(resource_name(self.table_name()), table.json())]),
            )]),
        )]);
        Ok(resource.pretty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hcl_strings_keep_template_sequences_literal() {
        assert_eq!(hcl_string(r#"a"b\c${x}%{y}"#), r#""a\"b\\c$${x}%%{y}""#);
        assert_eq!(resource_name("shop.orders-v2"), "shop_orders-v2");
        assert_eq!(resource_name("2fa"), "_2fa");
    }
}
