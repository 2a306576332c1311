//! Tenant isolation: an IAM policy that confines a principal to the
//! partitions of one tenant, from the partition-key templates.
//!
//! DynamoDB's condition key `dynamodb:LeadingKeys` is the partition key
//! value of the request (the index's, for a Query of an index), and must
//! be used with `ForAllValues`. With `StringLike` and the tenant's key
//! prefix (`TENANT#acme#*`), a principal can read and write only items
//! whose partition key starts with its tenant: every template that *leads*
//! with the tenant confines it. A template whose partition key does not
//! start with the tenant (`ORDER#{order_id}`, or `REGION#{region}#{tenant}`)
//! cannot: its partitions are left out of the policy, and the document
//! says so.
//!
//! What `LeadingKeys` cannot do: on a write, it sees the table's partition
//! key only. An item written under the tenant's partition may carry index
//! keys of any value; reads of another tenant's index partitions stay
//! denied, but a principal holding these credentials outside the library
//! could write an item into them. The library computes index keys from
//! the entity's fields, so its own writes never do.

use super::described::PrimaryKey;
use super::json::{Json, object, string, strings};
use super::keyspace::KeyPattern;
use super::table_model::Model;
use crate::error::{Repr, Result};
use crate::key::KeyPart;
use crate::layout::{Piece, TemplateLayout};
use crate::table::{IndexKind, Table};

/// What the read-write statements allow: item reads and writes by key,
/// never `Scan` (`ForAllValues` holds for a request without leading keys).
const READ_WRITE: [&str; 8] = [
    "dynamodb:GetItem",
    "dynamodb:BatchGetItem",
    "dynamodb:Query",
    "dynamodb:ConditionCheckItem",
    "dynamodb:PutItem",
    "dynamodb:UpdateItem",
    "dynamodb:DeleteItem",
    "dynamodb:BatchWriteItem",
];

/// The builder of a per-tenant IAM policy. Made by [`Model::tenant_policy`].
///
/// ```
/// use ddb_entity::Entity;
/// use ddb_entity::model::Model;
/// use serde::{Deserialize, Serialize};
///
/// ddb_entity::table! {
///     /// A table shared by tenants.
///     pub struct App {
///         partition_key: "PK",
///         sort_key: "SK",
///         indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } },
///     }
/// }
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "TENANT#{tenant}#USER#{email}", sk = "PROFILE")]
/// #[entity(index = Gsi1, pk = "EMAIL#{email}", sk = "TENANT#{tenant}")]
/// struct User { tenant: String, email: String }
///
/// let policy = Model::<App>::new("shop")
///     .entity::<User>()
///     .tenant_policy("tenant")
///     .table_arn("arn:aws:dynamodb:eu-west-1:123456789012:table/shop")
///     .tenant("acme")
///     .render()?;
/// assert!(policy.json.contains(r#""TENANT#acme#*""#));
/// assert!(policy.json.contains(r#""ForAllValues:StringLike""#));
/// // GSI1's partition does not lead with the tenant: left out, and said so.
/// assert!(policy.uncovered[0].contains("GSI1"));
/// # Ok::<(), ddb_entity::Error>(())
/// ```
#[must_use = "render the policy"]
pub struct TenantPolicy<'m, T: Table> {
    model: &'m Model<T>,
    field: String,
    table_arn: Option<String>,
    value: Option<Result<Value, String>>,
    read_only: bool,
}

/// The tenant as the policy names it.
enum Value {
    /// The encoded key part: escaped for IAM.
    Encoded(String),
    /// A policy variable, written as it is.
    Variable(String),
}

/// A rendered per-tenant policy.
///
/// ```
/// # use ddb_entity::Entity;
/// # use ddb_entity::model::Model;
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "TENANT#{tenant}#USER#{email}", sk = "PROFILE")]
/// struct User { tenant: u32, email: String }
///
/// let model = Model::<App>::new("shop").entity::<User>();
/// let policy = model.tenant_policy("tenant").tenant(&42u32).render()?;
/// assert_eq!(policy.leading_keys, [("the table".to_owned(), vec!["TENANT#0000000042#*".to_owned()])]);
/// assert!(policy.uncovered.is_empty());
/// assert!(policy.json.contains(r#""Version": "2012-10-17""#));
/// # Ok::<(), ddb_entity::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TenantPolicyDocument {
    /// The IAM policy (version `2012-10-17`: policy variables need it).
    pub json: String,
    /// Per table or index, the `dynamodb:LeadingKeys` patterns allowed.
    pub leading_keys: Vec<(String, Vec<String>)>,
    /// The partition templates the policy cannot confine, and why: their
    /// partitions are not allowed at all.
    pub uncovered: Vec<String>,
}

impl<T: Table> Model<T> {
    /// A policy confining a principal to the partitions whose key starts
    /// with the tenant, where `tenant_field` is the field (as templates
    /// name it) holding the tenant.
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use ddb_entity::model::Model;
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "TENANT#{tenant}#USER#{email}", sk = "PROFILE")]
    /// struct User { tenant: u32, email: String }
    ///
    /// let model = Model::<App>::new("shop").entity::<User>();
    /// let policy = model.tenant_policy("tenant").tenant(&42u32).render()?;
    /// assert!(policy.json.contains("dynamodb:LeadingKeys"));
    /// assert!(policy.json.contains(r#""TENANT#0000000042#*""#), "{}", policy.json);
    /// // A field that leads no template confines nothing.
    /// assert!(model.tenant_policy("email").tenant("ada@example.com").render().is_err());
    /// # Ok::<(), ddb_entity::Error>(())
    /// ```
    pub fn tenant_policy(&self, tenant_field: impl Into<String>) -> TenantPolicy<'_, T> {
        TenantPolicy {
            model: self,
            field: tenant_field.into(),
            table_arn: None,
            value: None,
            read_only: false,
        }
    }
}

impl<T: Table> TenantPolicy<'_, T> {
    /// The table's ARN (default `arn:aws:dynamodb:*:*:table/{name}`);
    /// index resources are `{arn}/index/{name}`.
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use ddb_entity::model::Model;
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "TENANT#{tenant}#USER#{email}", sk = "PROFILE")]
    /// struct User { tenant: u32, email: String }
    ///
    /// let model = Model::<App>::new("shop").entity::<User>();
    /// let policy = model
    ///     .tenant_policy("tenant")
    ///     .table_arn("arn:aws:dynamodb:eu-west-1:123456789012:table/shop")
    ///     .tenant(&42u32)
    ///     .render()?;
    /// assert!(policy.json.contains(r#""arn:aws:dynamodb:eu-west-1:123456789012:table/shop""#));
    /// # Ok::<(), ddb_entity::Error>(())
    /// ```
    pub fn table_arn(mut self, arn: impl Into<String>) -> Self {
        self.table_arn = Some(arn.into());
        self
    }

    /// The tenant, encoded as its hole encodes it (`42u32` is
    /// `0000000042`).
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use ddb_entity::model::Model;
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "TENANT#{tenant}#USER#{email}", sk = "PROFILE")]
    /// struct User { tenant: u32, email: String }
    ///
    /// let model = Model::<App>::new("shop").entity::<User>();
    /// let policy = model.tenant_policy("tenant").tenant(&7u32).render()?;
    /// assert_eq!(policy.leading_keys[0].1, ["TENANT#0000000007#*"]);
    /// # Ok::<(), ddb_entity::Error>(())
    /// ```
    pub fn tenant<V: KeyPart + ?Sized>(mut self, tenant: &V) -> Self {
        self.value = Some(
            crate::key::encode(tenant)
                .map(Value::Encoded)
                .map_err(|err| err.to_string()),
        );
        self
    }

    /// The tenant as an IAM policy variable, e.g.
    /// `${aws:PrincipalTag/tenant}`, for one policy shared by every
    /// tenant's role. The variable's value must be the tenant's *encoded*
    /// key part: for a `String` tenant, the id itself as long as it has no
    /// character at or below `$` (space, `!`, `"`, `#`, `$`); for an
    /// integer, its zero-padded digits.
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use ddb_entity::model::Model;
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "TENANT#{tenant}#USER#{email}", sk = "PROFILE")]
    /// struct User { tenant: u32, email: String }
    ///
    /// let model = Model::<App>::new("shop").entity::<User>();
    /// let policy = model.tenant_policy("tenant").variable("${aws:PrincipalTag/tenant}").render()?;
    /// assert_eq!(policy.leading_keys[0].1, ["TENANT#${aws:PrincipalTag/tenant}#*"]);
    /// # Ok::<(), ddb_entity::Error>(())
    /// ```
    pub fn variable(mut self, variable: impl Into<String>) -> Self {
        self.value = Some(Ok(Value::Variable(variable.into())));
        self
    }

    /// Only reads (GetItem, BatchGetItem, Query) instead of reads and writes.
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use ddb_entity::model::Model;
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "TENANT#{tenant}#USER#{email}", sk = "PROFILE")]
    /// struct User { tenant: u32, email: String }
    ///
    /// let model = Model::<App>::new("shop").entity::<User>();
    /// let policy = model.tenant_policy("tenant").tenant(&7u32).read_only(true).render()?;
    /// assert!(policy.json.contains("dynamodb:Query"));
    /// assert!(!policy.json.contains("dynamodb:PutItem"));
    /// # Ok::<(), ddb_entity::Error>(())
    /// ```
    pub fn read_only(mut self, read_only: bool) -> Self {
        self.read_only = read_only;
        self
    }

    /// The policy: one statement for the table and one per index, each
    /// allowing the partitions of the templates that lead with the tenant.
    /// Without a tenant ([`tenant`](Self::tenant) or
    /// [`variable`](Self::variable)), or when no template leads with it,
    /// an [`ErrorKind::InvalidSchema`](crate::error::ErrorKind::InvalidSchema)
    /// error.
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use ddb_entity::model::Model;
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "TENANT#{tenant}#USER#{email}", sk = "PROFILE")]
    /// struct User { tenant: u32, email: String }
    ///
    /// let model = Model::<App>::new("shop").entity::<User>();
    /// // Which tenant? None given: an error, not a policy for everyone.
    /// let err = model.tenant_policy("tenant").render().unwrap_err();
    /// assert_eq!(err.kind(), ddb_entity::ErrorKind::InvalidSchema);
    /// assert!(model.tenant_policy("tenant").tenant(&7u32).render().is_ok());
    /// ```
    pub fn render(&self) -> Result<TenantPolicyDocument> {
        let invalid =
            |detail: String| -> crate::error::Error { Repr::InvalidSchema { detail }.into() };
        let value = match &self.value {
            None => return Err(invalid("a tenant policy needs the tenant: `.tenant(&id)` or `.variable(\"${aws:PrincipalTag/tenant}\")`".into())),
            Some(Err(err)) => return Err(invalid(format!("the tenant does not encode: {err}"))),
            Some(Ok(value)) => value,
        };
        let schema = self.model.schema();
        let arn = self
            .table_arn
            .clone()
            .unwrap_or_else(|| format!("arn:aws:dynamodb:*:*:table/{}", self.model.table_name()));
        let mut statements = Vec::new();
        let mut leading_keys = Vec::new();
        let mut uncovered = Vec::new();
        let places = std::iter::once(None).chain(schema.all_indexes().map(|i| Some(i.name)));
        for place in places {
            let kind = place.and_then(|name| schema.index(name)).map(|i| i.kind);
            let label = place.map_or("the table".to_owned(), |name| format!("index {name}"));
            let mut allowed: Vec<String> = Vec::new();
            let mut confined: Vec<KeyPattern> = Vec::new();
            let mut others: Vec<(&str, &TemplateLayout)> = Vec::new();
            for entity in self.model.entities() {
                let template = match (place, kind) {
                    (None, _) | (Some(_), Some(IndexKind::Local)) => Some(entity.pk()),
                    (Some(name), _) => entity.index(name).map(|i| &i.partition),
                };
                // A local index holds the entities storing its sort key.
                if let (Some(name), Some(IndexKind::Local)) = (place, kind) {
                    let sort = schema.index(name).and_then(|i| i.keys.sort_key);
                    if sort.and_then(|s| entity.field(s)).is_none() {
                        continue;
                    }
                }
                let Some(template) = template else { continue };
                match leading(template, &self.field, value) {
                    Ok((pattern, keys)) => {
                        if !allowed.contains(&pattern) {
                            allowed.push(pattern);
                        }
                        confined.push(keys);
                    }
                    Err(why) => {
                        uncovered.push(format!(
                            "`{}` on {label}: partition `{}` {why}; its partitions are not allowed",
                            entity.entity, template.source
                        ));
                        others.push((entity.entity, template));
                    }
                }
            }
            // A confined prefix that another (unconfined) template's keys
            // can also start with would let the tenant reach those.
            for (name, template) in &others {
                let keys = KeyPattern::of(template);
                if confined.iter().any(|c| c.meets(&keys)) {
                    uncovered.push(format!(
                        "`{name}` on {label}: some keys of `{}` start like a tenant's prefix, so a tenant may reach them; give the template another leading literal",
                        template.source
                    ));
                }
            }
            if allowed.is_empty() {
                continue;
            }
            let resource = match place {
                None => arn.clone(),
                Some(name) => format!("{arn}/index/{name}"),
            };
            let actions: &[&str] = match (place, self.read_only) {
                // An index serves queries only.
                (Some(_), _) => &READ_WRITE[2..3],
                (None, true) => &READ_WRITE[..3],
                (None, false) => &READ_WRITE,
            };
            let sid = format!(
                "Tenant{}",
                place
                    .unwrap_or("Table")
                    .chars()
                    .filter(char::is_ascii_alphanumeric)
                    .collect::<String>()
            );
            statements.push(object([
                ("Sid", string(sid)),
                ("Effect", string("Allow")),
                ("Action", strings(actions.iter().copied())),
                ("Resource", strings([resource])),
                (
                    "Condition",
                    object([(
                        "ForAllValues:StringLike",
                        object([("dynamodb:LeadingKeys", strings(allowed.iter().cloned()))]),
                    )]),
                ),
            ]));
            leading_keys.push((label, allowed));
        }
        if statements.is_empty() {
            return Err(invalid(format!(
                "no partition template leads with `{{{}}}`: a tenant cannot be confined by `dynamodb:LeadingKeys` ({})",
                self.field,
                uncovered.join("; ")
            )));
        }
        let policy = object([
            ("Version", string("2012-10-17")),
            ("Statement", Json::Array(statements)),
        ]);
        Ok(TenantPolicyDocument {
            json: policy.pretty(),
            leading_keys,
            uncovered,
        })
    }
}

/// The `StringLike` pattern of the tenant's partitions of `template`, and
/// the key pattern it allows, or why the template cannot be confined.
fn leading(
    template: &TemplateLayout,
    field: &str,
    value: &Value,
) -> std::result::Result<(String, KeyPattern), String> {
    let tenant = match value {
        Value::Encoded(encoded) => escape(encoded),
        Value::Variable(variable) => variable.clone(),
    };
    if template.raw {
        return match template.holes().next() {
            Some(hole) if hole.field == field => Ok((tenant, KeyPattern::of(template))),
            _ => Err("does not name the tenant".into()),
        };
    }
    if !template.has_hole(field) {
        return Err(format!("does not name the tenant `{{{field}}}`"));
    }
    let mut pattern = String::new();
    let mut kept: Vec<Vec<Piece>> = Vec::new();
    for (s, segment) in template.segments.iter().enumerate() {
        if s > 0 {
            pattern.push('#');
        }
        let mut kept_segment = Vec::new();
        for (p, piece) in segment.iter().enumerate() {
            kept_segment.push(*piece);
            match piece {
                Piece::Literal(text) => pattern.push_str(&escape(text)),
                Piece::Hole(hole) if hole.field == field => {
                    pattern.push_str(&tenant);
                    // The literal text after the tenant in its segment
                    // ends its value; then anything, if more follows.
                    for rest in &segment[p + 1..] {
                        match rest {
                            Piece::Literal(text) => {
                                pattern.push_str(&escape(text));
                                kept_segment.push(*rest);
                            }
                            Piece::Hole(_) | Piece::Shard(_) => break,
                        }
                    }
                    let segment_done = segment[p + 1..]
                        .iter()
                        .all(|rest| matches!(rest, Piece::Literal(_)));
                    let last_segment = s + 1 == template.segments.len();
                    kept.push(kept_segment);
                    let kept: Vec<&[Piece]> = kept.iter().map(Vec::as_slice).collect();
                    let mut keys = KeyPattern::of_segments(&kept, false);
                    if segment_done && last_segment {
                        return Ok((pattern, keys));
                    }
                    if segment_done {
                        pattern.push('#');
                        keys = keys.then_delimiter();
                    }
                    pattern.push('*');
                    return Ok((pattern, keys.then_anything()));
                }
                Piece::Hole(hole) => {
                    return Err(format!(
                        "does not lead with the tenant: `{{{}}}` comes before `{{{field}}}`",
                        hole.field
                    ));
                }
                Piece::Shard(_) => {
                    return Err(format!(
                        "does not lead with the tenant: the shard comes before `{{{field}}}`"
                    ));
                }
            }
        }
        kept.push(kept_segment);
    }
    Err(format!("does not name the tenant `{{{field}}}`"))
}

/// Literal text in an IAM `StringLike` pattern: `$`, `*` and `?` as the
/// policy variables `${$}`, `${*}` and `${?}`.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '$' => out.push_str("${$}"),
            '*' => out.push_str("${*}"),
            '?' => out.push_str("${?}"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn wildcards_and_dollars_in_keys_are_literal() {
        // `a b` encodes as a$`b: its `$` must not start a policy variable.
        assert_eq!(escape("TENANT#a$`b*?"), "TENANT#a${$}`b${*}${?}");
    }
}
