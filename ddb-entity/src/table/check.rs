//! What DynamoDB would refuse in a table declaration or a table name,
//! found before any request with a message that names the culprit.

use super::{
    Billing, IndexKind, IndexSchema, MultiKeyIndexSchema, Projection, TableSchema, Throughput,
};
use crate::error::{Repr, Result};

/// DynamoDB's limit on local secondary indexes per table.
const MAX_LOCAL_INDEXES: usize = 5;

/// DynamoDB's limit on the attributes named by `INCLUDE` projections,
/// summed over every index of the table.
const MAX_INCLUDED_ATTRIBUTES: usize = 100;

impl TableSchema {
    /// Checks what DynamoDB would reject, so a bad declaration fails with a
    /// clear message ([`ErrorKind::InvalidSchema`](crate::error::ErrorKind::InvalidSchema))
    /// instead of a `ValidationException`.
    ///
    /// The number of global indexes is not checked here: DynamoDB's limit of
    /// 20 is a quota that can be raised, so the model's lints report it
    /// instead (feature `model`).
    ///
    /// ```
    /// ddb_entity::table! {
    ///     /// An index billed by capacity on a table billed per request.
    ///     pub struct App {
    ///         partition_key: "PK",
    ///         sort_key: "SK",
    ///         indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", capacity: { read: 5, write: 5 } } },
    ///     }
    /// }
    /// use ddb_entity::Table;
    /// let err = App::SCHEMA.validate().unwrap_err();
    /// assert!(err.to_string().contains("bills on demand"), "{err}");
    /// ```
    pub fn validate(&self) -> Result<()> {
        self.check()
            .map_err(|detail| Repr::InvalidSchema { detail }.into())
    }

    fn check(&self) -> std::result::Result<(), String> {
        self.check_indexes()?;
        self.check_billing()?;
        self.check_attributes()
    }

    fn check_indexes(&self) -> std::result::Result<(), String> {
        let mut index_names: Vec<&str> = Vec::new();
        let names = self
            .all_indexes()
            .map(|i| i.name)
            .chain(self.multi_key_indexes.iter().map(|i| i.name));
        for name in names {
            if let Some(problem) = name_problem("index", name) {
                return Err(problem);
            }
            if index_names.contains(&name) {
                return Err(format!("index `{name}` is declared twice"));
            }
            index_names.push(name);
        }
        for index in self.all_indexes() {
            check_projection(index)?;
        }
        for index in self.multi_key_indexes {
            self.check_multi_key(index)?;
        }
        let included: usize = self
            .all_indexes()
            .map(|index| index.projection.non_key_attributes().len())
            .sum();
        if included > MAX_INCLUDED_ATTRIBUTES {
            return Err(format!(
                "the INCLUDE projections name {included} attributes in all; DynamoDB allows {MAX_INCLUDED_ATTRIBUTES} summed over every index"
            ));
        }
        if !self.local_indexes.is_empty() {
            let Some(table_sort_key) = self.primary.sort_key else {
                return Err(format!(
                    "local index `{}` needs a table with a sort key: it sorts the table's partitions another way",
                    self.local_indexes[0].name
                ));
            };
            if self.local_indexes.len() > MAX_LOCAL_INDEXES {
                return Err(format!(
                    "{} local secondary indexes declared; DynamoDB allows {MAX_LOCAL_INDEXES}",
                    self.local_indexes.len()
                ));
            }
            for index in self.local_indexes {
                if index.keys.partition_key != self.primary.partition_key {
                    return Err(format!(
                        "local index `{}` must have the table's partition key `{}`",
                        index.name, self.primary.partition_key
                    ));
                }
                if index.keys.sort_key == Some(table_sort_key) {
                    return Err(format!(
                        "local index `{}` sorts by the table's own sort key `{table_sort_key}`: give it another attribute",
                        index.name
                    ));
                }
            }
        }
        let keys = std::iter::once(self.primary).chain(self.all_indexes().map(|i| i.keys));
        for key in keys {
            if Some(key.partition_key) == key.sort_key {
                return Err(format!(
                    "`{}` is both the partition and the sort key of one index",
                    key.partition_key
                ));
            }
        }
        Ok(())
    }

    /// A multi-attribute index: 1 to 4 partition and 0 to 4 sort
    /// attributes, each named once, none of them an attribute the library
    /// owns (its string keys, the type, the TTL, the write token), and
    /// each of one type wherever another index names it.
    fn check_multi_key(&self, index: &MultiKeyIndexSchema) -> std::result::Result<(), String> {
        let name = index.name;
        if !(1..=4).contains(&index.partition_key.len()) || index.sort_key.len() > 4 {
            return Err(format!(
                "index `{name}` has {} partition and {} sort attributes; DynamoDB takes 1 to 4 and 0 to 4",
                index.partition_key.len(),
                index.sort_key.len()
            ));
        }
        let mut seen: Vec<&str> = Vec::new();
        for attribute in index.attributes() {
            let attr = attribute.name;
            if attr.is_empty() {
                return Err(format!("index `{name}` has an empty attribute name"));
            }
            if seen.contains(&attr) {
                return Err(format!("index `{name}` names `{attr}` twice"));
            }
            seen.push(attr);
            let owned = self.key_attributes().contains(&attr)
                || attr == self.type_attribute
                || attr == self.token_attribute
                || self.ttl_attribute == Some(attr);
            if owned {
                return Err(format!(
                    "index `{name}` is keyed by `{attr}`, an attribute the library writes (a string key, the type, the TTL or the write token); key it by entity fields"
                ));
            }
            let other = self
                .multi_key_indexes
                .iter()
                .flat_map(|i| i.attributes())
                .find(|a| a.name == attr && a.ty != attribute.ty);
            if let Some(other) = other {
                return Err(format!(
                    "`{attr}` is declared `{}` in index `{name}` and `{}` in another; an attribute has one type",
                    attribute.ty.as_str(),
                    other.ty.as_str()
                ));
            }
        }
        Ok(())
    }

    fn check_billing(&self) -> std::result::Result<(), String> {
        match self.billing {
            Billing::OnDemand => {
                if let Some(index) = self.all_indexes().find(|index| index.capacity.is_some()) {
                    return Err(format!(
                        "index `{}` declares a capacity, but the table bills on demand: declare `billing: provisioned {{ read: …, write: … }}` or drop the index's capacity",
                        index.name
                    ));
                }
            }
            Billing::Provisioned(capacity) => {
                check_capacity("the table", capacity)?;
                for index in self.all_indexes() {
                    if let Some(capacity) = index.capacity {
                        if index.kind == IndexKind::Local {
                            return Err(format!(
                                "local index `{}` declares a capacity: a local index uses the table's",
                                index.name
                            ));
                        }
                        check_capacity(&format!("index `{}`", index.name), capacity)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn check_attributes(&self) -> std::result::Result<(), String> {
        for name in self.key_attributes() {
            if name.is_empty() {
                return Err("a key attribute name is empty".into());
            }
            if name == self.type_attribute {
                return Err(format!(
                    "the type attribute `{name}` is also a key attribute; give it its own name"
                ));
            }
        }
        if let Some(ttl) = self.ttl_attribute
            && (ttl.is_empty()
                || self.key_attributes().contains(&ttl)
                || ttl == self.type_attribute)
        {
            return Err(format!(
                "the TTL attribute `{ttl}` must be a non-empty name of its own, not a key or the type attribute"
            ));
        }
        if self.type_attribute.is_empty() {
            return Err("the type attribute name is empty".into());
        }
        let token = self.token_attribute;
        if token.is_empty()
            || self.key_attributes().contains(&token)
            || token == self.type_attribute
            || self.ttl_attribute == Some(token)
        {
            return Err(format!(
                "the write-token attribute `{token}` must be a non-empty name of its own, not a key, the type or the TTL attribute"
            ));
        }
        Ok(())
    }
}

fn check_projection(index: &IndexSchema) -> std::result::Result<(), String> {
    let Projection::Include(attributes) = index.projection else {
        return Ok(());
    };
    if attributes.is_empty() {
        return Err(format!(
            "index `{}` projects INCLUDE with no attribute: name some, or project `keys_only`",
            index.name
        ));
    }
    for (i, attribute) in attributes.iter().enumerate() {
        if attribute.is_empty() {
            return Err(format!(
                "index `{}` includes an empty attribute name",
                index.name
            ));
        }
        if attributes[..i].contains(attribute) {
            return Err(format!(
                "index `{}` includes `{attribute}` twice",
                index.name
            ));
        }
    }
    Ok(())
}

fn check_capacity(what: &str, capacity: Throughput) -> std::result::Result<(), String> {
    if capacity.read == 0 || capacity.write == 0 {
        return Err(format!(
            "{what} provisions {} read and {} write units; DynamoDB needs at least 1 of each",
            capacity.read, capacity.write
        ));
    }
    Ok(())
}

/// Checks a table name against DynamoDB's rules (3 to 255 characters of
/// `a-z A-Z 0-9 _ - .`), so a bad name fails before any request. Some
/// emulators accept names that DynamoDB refuses; this keeps them honest.
///
/// ```
/// assert!(ddb_entity::validate_table_name("app-prod_v2.1").is_ok());
/// let err = ddb_entity::validate_table_name("my table").unwrap_err();
/// assert_eq!(err.kind(), ddb_entity::ErrorKind::InvalidSchema);
/// ```
pub fn validate_table_name(name: &str) -> Result<()> {
    name_problem("table", name).map_or(Ok(()), |detail| Err(Repr::InvalidSchema { detail }.into()))
}

/// What is wrong with a table or index name (the same rules for both).
fn name_problem(what: &str, name: &str) -> Option<String> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.');
    if !(3..=255).contains(&name.len()) {
        return Some(format!(
            "{what} name `{name}` has {} characters; DynamoDB needs 3 to 255",
            name.len()
        ));
    }
    let bad = name.chars().find(|&c| !allowed(c))?;
    Some(format!(
        "{what} name `{name}` contains {bad:?}; DynamoDB allows only a-z, A-Z, 0-9, `_`, `-` and `.`"
    ))
}
