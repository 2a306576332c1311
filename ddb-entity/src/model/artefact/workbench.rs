//! A NoSQL Workbench data model (format version 3.0): the table, its
//! global indexes, and one facet per entity.

use super::{attribute_type as defined_type, hash_range, projection, single_attribute_keys};
use crate::error::Result;
use crate::layout::{EntityLayout, FieldLayout};
use crate::model::Model;
use crate::model::described::PrimaryKey;
use crate::model::json::{Json, object, string, strings};
use crate::table::{Billing, Table};

impl<T: Table> Model<T> {
    /// The table as a NoSQL Workbench data model (its JSON format, version
    /// 3.0, as Workbench exports it): the key attributes, every attribute
    /// the entities store (`NonKeyAttributes`), the global indexes with
    /// their projections, the billing mode, and one **facet per entity**,
    /// named after the entity, whose key aliases are its templates.
    /// `created` is Workbench's date text for `DateCreated` and
    /// `DateLastModified`, e.g. `Mar 14, 2026, 09:30 AM`.
    ///
    /// Attribute types are read from the fields' Rust types: numbers `N`,
    /// `bool` `BOOL`, `Vec<u8>` `B`, other `Vec`s and sets `L`, maps `M`,
    /// and `S` for strings, dates, ids and anything else (unit enums
    /// serialise as strings). Workbench's data model has no local indexes;
    /// they are in the CloudFormation template, which Workbench imports
    /// too.
    ///
    /// A multi-attribute index key (several partition or sort attributes)
    /// is refused ([`ErrorKind::InvalidSchema`](crate::error::ErrorKind::InvalidSchema)):
    /// Workbench's data model names one partition and one sort key.
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "USER#{email}", sk = "PROFILE")]
    /// struct User { email: String, logins: u32 }
    ///
    /// let json = ddb_entity::model::Model::<App>::new("shop")
    ///     .entity::<User>()
    ///     .workbench_json("Mar 14, 2026, 09:30 AM")?;
    /// assert!(json.contains(r#""FacetName": "User""#));
    /// assert!(json.contains(r#""PartitionKeyAlias": "USER#{email}""#));
    /// # Ok::<(), ddb_entity::Error>(())
    /// ```
    pub fn workbench_json(&self, created: &str) -> Result<String> {
        let input = self.create_table_input()?;
        single_attribute_keys(&input, "NoSQL Workbench")?;
        let schema = self.schema();
        let key = |name: &str| {
            object([
                ("AttributeName", string(name)),
                ("AttributeType", string(defined_type(&input, name))),
            ])
        };
        let key_attributes = |hash: Option<&str>, range: Option<&str>| {
            let mut out = object([("PartitionKey", key(hash.unwrap_or_default()))]);
            if let Some(range) = range {
                out.push("SortKey", key(range));
            }
            out
        };
        let (hash, range) = hash_range(input.key_schema());
        let primary = [hash, range];

        // Every attribute that is not the table's key: index keys, the
        // type and TTL attributes, every stored field.
        let mut attributes: Vec<(&str, &str)> = Vec::new();
        let mut define = |name: &'static str, kind: &'static str| {
            if !primary.contains(&Some(name)) && !attributes.iter().any(|(n, _)| *n == name) {
                attributes.push((name, kind));
            }
        };
        for name in schema.key_attributes() {
            define(name, "S");
        }
        for attribute in schema.multi_key_attributes() {
            define(attribute.name, attribute.ty.as_str());
        }
        define(schema.type_attribute, "S");
        if let Some(ttl) = schema.ttl_attribute {
            define(ttl, "N");
        }
        for entity in self.entities() {
            for field in entity.fields {
                define(field.attribute, attribute_type(field));
            }
        }

        let facets = self
            .entities()
            .iter()
            .map(|entity| facet(entity, schema.type_attribute, &primary))
            .collect();
        let global = input
            .global_secondary_indexes()
            .iter()
            .map(|index| {
                let (hash, range) = hash_range(index.key_schema());
                object([
                    ("IndexName", string(index.index_name())),
                    ("KeyAttributes", key_attributes(hash, range)),
                    ("Projection", projection(index.projection())),
                ])
            })
            .collect();
        let mut table = object([
            ("TableName", string(self.table_name())),
            ("KeyAttributes", key_attributes(hash, range)),
            (
                "NonKeyAttributes",
                Json::Array(
                    attributes
                        .iter()
                        .map(|(name, kind)| {
                            object([
                                ("AttributeName", string(*name)),
                                ("AttributeType", string(*kind)),
                            ])
                        })
                        .collect(),
                ),
            ),
            ("TableFacets", Json::Array(facets)),
            ("GlobalSecondaryIndexes", Json::Array(global)),
            ("TableData", Json::Array(Vec::new())),
            ("DataAccess", object([("MySql", object::<&str>([]))])),
            ("BillingMode", string(schema.billing.as_str())),
        ]);
        if let Billing::Provisioned(capacity) = schema.billing {
            table.push(
                "ProvisionedCapacitySettings",
                object([(
                    "ProvisionedThroughput",
                    object([
                        ("ReadCapacityUnits", Json::Number(capacity.read)),
                        ("WriteCapacityUnits", Json::Number(capacity.write)),
                    ]),
                )]),
            );
        }
        let model = object([
            ("ModelName", string(self.table_name())),
            (
                "ModelMetadata",
                object([
                    ("Author", string("ddb-entity")),
                    ("DateCreated", string(created)),
                    ("DateLastModified", string(created)),
                    (
                        "Description",
                        string(format!(
                            "The single table `{}`: one facet per entity type, generated from its ddb-entity model",
                            self.table_name()
                        )),
                    ),
                    ("AWSService", string("Amazon DynamoDB")),
                    ("Version", string("3.0")),
                ]),
            ),
            ("DataModel", Json::Array(vec![table])),
        ]);
        Ok(model.pretty())
    }
}

/// One facet: the entity, its templates as the key aliases, and the
/// attributes it stores besides the table's keys.
fn facet(entity: &EntityLayout, type_attribute: &'static str, primary: &[Option<&str>; 2]) -> Json {
    let mut alias = object([("PartitionKeyAlias", string(entity.pk().source))]);
    if let Some(sk) = entity.sk() {
        alias.push("SortKeyAlias", string(sk.source));
    }
    let mut names: Vec<&str> = Vec::new();
    let mut add = |name: &'static str| {
        if !primary.contains(&Some(name)) && !names.contains(&name) {
            names.push(name);
        }
    };
    for (index, _) in entity.index_keys() {
        add(index.keys.partition_key);
        if let Some(sort) = index.keys.sort_key {
            add(sort);
        }
    }
    add(type_attribute);
    for field in entity.fields {
        add(field.attribute);
    }
    object([
        ("FacetName", string(entity.entity)),
        ("KeyAttributeAlias", alias),
        ("TableData", Json::Array(Vec::new())),
        ("NonKeyAttributes", strings(names)),
        ("DataAccess", object([("MySql", object::<&str>([]))])),
    ])
}

/// The DynamoDB type a field's Rust type serialises to.
fn attribute_type(field: &FieldLayout) -> &'static str {
    let ty = field.type_name.replace(' ', "");
    let ty = ty
        .strip_prefix("Option<")
        .and_then(|t| t.strip_suffix('>'))
        .unwrap_or(&ty);
    let last = |path: &str| path.rsplit("::").next().unwrap_or(path).to_owned();
    let head = last(ty.split('<').next().unwrap_or(ty));
    match head.as_str() {
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" | "i8" | "i16" | "i32" | "i64" | "i128"
        | "isize" | "f32" | "f64" => "N",
        "bool" => "BOOL",
        "Vec" if ty.ends_with("<u8>") => "B",
        "Vec" | "VecDeque" | "HashSet" | "BTreeSet" => "L",
        "HashMap" | "BTreeMap" => "M",
        _ => "S",
    }
}
