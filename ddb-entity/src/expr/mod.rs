//! Expressions: typed conditions on an entity's fields and the document
//! paths inside them, rendered with placeholders for every name and value.

mod operand;
mod ordered;
mod placeholders;
pub(crate) mod version;

use std::marker::PhantomData;
use std::ops::Not;

use aws_sdk_dynamodb::types::AttributeValue;
use serde::Serialize;

use crate::entity::{AttrPath, Entity, Step};
use crate::error::{Error, Repr, Result};
use crate::item::size;
use crate::layout::EntityLayout;
use crate::table::{Table, TableSchema, Typing};

pub use operand::{AttributeType, SizeOf};
pub use ordered::OrderedValue;
pub(crate) use placeholders::Placeholders;

/// The most values DynamoDB takes in one `IN`.
const MAX_IN_VALUES: usize = 100;

/// A condition on one stored item of entity `E`, for put, update, delete,
/// transactions, and query and scan filters: a write happens only if it
/// holds (else [`Error::is_condition_failed`]); a filter keeps the `E`
/// items for which it holds.
///
/// Built from [`Entity`] fields (`Order::fields().status.equals(…)`) and
/// the [`FieldPath`](crate::entity::FieldPath)s inside them, and combined with [`and`](Condition::and),
/// [`or`](Condition::or) and `!`. Every comparison takes a value of the
/// field's own type:
///
/// | condition | DynamoDB |
/// |---|---|
/// | `equals`, `not_equals`, `lt`, `le`, `gt`, `ge`, `between` | `=`, `<>`, `<`, `<=`, `>`, `>=`, `BETWEEN` |
/// | `is_in([…])` (1 to 100 values) | `IN` |
/// | `exists`, `not_exists` | `attribute_exists`, `attribute_not_exists` |
/// | `begins_with`, `contains` (strings) | `begins_with`, `contains` (a substring) |
/// | `contains` (a [`Set`](crate::item::Set) or a `Vec`) | `contains` (an element) |
/// | `size().gt(3)`, … (strings, sets, lists, maps) | `size(…) > …` |
/// | `has_type(AttributeType::…)` | `attribute_type` |
///
/// `equals(None)` on an `Option` field means "not stored" (the library
/// stores `None` as no attribute), `not_equals(None)` "stored".
///
/// ```
/// # use ddb_entity::{AttributeType, Condition, Entity, Set};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "ORDER#{id}", sk = "ORDER")]
/// struct Order { id: u64, status: String, total_cents: i64, tags: Set<String>, note: Option<String> }
///
/// let f = Order::fields();
/// let open_and_small = f.status.equals("OPEN".to_owned()).and(f.total_cents.lt(10_000));
/// let not_cancelled = !f.status.is_in(["CANCELLED".to_owned(), "REFUNDED".to_owned()]);
/// let gift = f.tags.contains("gift".to_owned()).and(f.tags.size().le(5));
/// let unnoted = f.note.equals(None).or(f.note.has_type(AttributeType::S));
/// let _any = open_and_small.or(not_cancelled).and(gift).and(unnoted);
/// let _new = Condition::<Order>::item_not_exists();
/// ```
///
/// # Examples
///
/// Every condition, as a filter over three orders on the embedded server
/// (each operand method's docs link here):
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use std::collections::{BTreeMap, HashMap};
/// use ddb_entity::{AttributeType, Condition, Db, Entity, Set, local::LocalDynamo};
/// use serde::{Deserialize, Serialize};
///
/// ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "SHOP#{shop}", sk = "ORDER#{id}")]
/// struct Order {
///     shop: u64,
///     id: u64,
///     status: String,
///     total_cents: i64,
///     tags: Set<String>,
///     lines: Vec<String>,
///     notes: HashMap<String, String>,
///     weights: BTreeMap<String, u32>,
///     note: Option<String>,
/// }
///
/// let dynamo = LocalDynamo::start().await?;
/// let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("conditions"));
/// db.create_table_if_missing().await?;
/// let order = |id, status: &str, total_cents, tags: &[&str], lines: &[&str]| Order {
///     shop: 1,
///     id,
///     status: status.to_owned(),
///     total_cents,
///     tags: tags.iter().map(|t| t.to_string()).collect(),
///     lines: lines.iter().map(|l| l.to_string()).collect(),
///     notes: HashMap::new(),
///     weights: BTreeMap::new(),
///     note: None,
/// };
/// db.put(&order(1, "OPEN", 500, &["gift"], &["pen"])).await?;
/// db.put(&Order {
///     notes: HashMap::from([("door".to_owned(), "left".to_owned())]),
///     weights: BTreeMap::from([("pen".to_owned(), 12)]),
///     note: Some("fragile".to_owned()),
///     ..order(2, "SHIPPED", 20_000, &["gift", "rush"], &["pen", "ink"])
/// })
/// .await?;
/// db.put(&order(3, "CANCELLED", 1_500, &["rush"], &[])).await?;
///
/// // How many of the three orders a condition keeps.
/// let matching = |condition: Condition<Order>| {
///     let db = &db;
///     async move { db.query(Order::partition(1)?).filter(condition).count().await }
/// };
/// let f = Order::fields();
/// let s = |text: &str| text.to_owned();
/// assert_eq!(matching(f.status.equals(s("OPEN"))).await?, 1);
/// assert_eq!(matching(f.status.not_equals(s("OPEN"))).await?, 2);
/// assert_eq!(matching(f.total_cents.lt(1_500)).await?, 1);
/// assert_eq!(matching(f.total_cents.le(1_500)).await?, 2);
/// assert_eq!(matching(f.total_cents.gt(1_500)).await?, 1);
/// assert_eq!(matching(f.total_cents.ge(1_500)).await?, 2);
/// assert_eq!(matching(f.total_cents.between(500, 1_500)).await?, 2);
/// assert_eq!(matching(f.status.is_in([s("OPEN"), s("SHIPPED")])).await?, 2);
/// assert_eq!(matching(f.note.exists()).await?, 1);
/// assert_eq!(matching(f.note.not_exists()).await?, 2);
/// assert_eq!(matching(f.note.equals(None)).await?, 2);
/// assert_eq!(matching(f.note.has_type(AttributeType::S)).await?, 1);
/// assert_eq!(matching(f.status.begins_with("SHIP")).await?, 1);
/// assert_eq!(matching(f.status.contains("CEL")).await?, 1);
/// assert_eq!(matching(f.status.size().ge(7)).await?, 2); // SHIPPED, CANCELLED
/// assert_eq!(matching(f.tags.contains(s("gift"))).await?, 2);
/// assert_eq!(matching(f.tags.size().equals(2)).await?, 1);
/// assert_eq!(matching(f.lines.contains(s("ink"))).await?, 1);
/// assert_eq!(matching(f.lines.size().not_equals(0)).await?, 2);
/// assert_eq!(matching(f.lines.size().between(1, 1)).await?, 1);
/// assert_eq!(matching(f.notes.size().gt(0)).await?, 1);
/// assert_eq!(matching(f.weights.size().lt(1)).await?, 2);
/// assert_eq!(matching(f.weights.size().le(1)).await?, 3);
/// // Paths inside a field: a map's key, a list's position.
/// assert_eq!(matching(f.notes.key("door").equals(s("left"))).await?, 1);
/// assert_eq!(matching(f.lines.at(1).equals(s("ink"))).await?, 1);
/// // Combined.
/// let big_or_open = f.status.equals(s("OPEN")).or(f.total_cents.gt(10_000));
/// assert_eq!(matching(big_or_open).await?, 2);
/// assert_eq!(matching(!f.tags.contains(s("gift")).and(f.total_cents.gt(0))).await?, 1);
///
/// // On a write: the whole item, by its key.
/// let gone = db.delete(Order::key(1, 9)?).condition(Condition::item_exists()).await;
/// assert!(gone.unwrap_err().is_condition_failed());
/// let fresh = order(4, "OPEN", 1, &["gift"], &[]);
/// db.put(&fresh).condition(Condition::item_not_exists()).await?;
/// assert_eq!(AttributeType::S.code(), "S");
/// # Ok(())
/// # }
/// ```
#[must_use = "a condition does nothing until it is given to a write or a filter"]
pub struct Condition<E> {
    node: Node,
    entity: PhantomData<fn() -> E>,
}

#[derive(Debug, Clone)]
enum Node {
    ItemExists(bool),
    /// The stored item is of the entity's type; `true`: or there is none.
    TypeIs {
        or_absent: bool,
    },
    /// The stored write token is not this one (or there is none).
    TokenIsNot(String),
    Exists(AttrPath, bool),
    Compare(AttrPath, &'static str, Operand),
    Between(AttrPath, Result<(AttributeValue, AttributeValue), String>),
    BeginsWith(AttrPath, String),
    Contains(AttrPath, Operand),
    In(AttrPath, Result<Vec<AttributeValue>, String>),
    Size(AttrPath, &'static str, u64),
    SizeBetween(AttrPath, u64, u64),
    Type(AttrPath, AttributeType),
    And(Box<Node>, Box<Node>),
    Or(Box<Node>, Box<Node>),
    Not(Box<Node>),
}

/// A value of a condition, or why it could not be encoded (kept until the
/// condition is sent, so conditions chain without `?`).
type Operand = Result<AttributeValue, String>;

impl<E> Clone for Condition<E> {
    fn clone(&self) -> Self {
        Condition::from(self.node.clone())
    }
}

impl<E> std::fmt::Debug for Condition<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Values can be personal data: only the shape.
        f.write_str("Condition { .. }")
    }
}

impl<E> From<Node> for Condition<E> {
    fn from(node: Node) -> Self {
        Condition {
            node,
            entity: PhantomData,
        }
    }
}

impl<E> Condition<E> {
    /// The item exists (some item has the key).
    ///
    /// See [the examples](Condition#examples).
    pub fn item_exists() -> Self {
        Node::ItemExists(true).into()
    }

    /// No item has the key yet.
    ///
    /// See [the examples](Condition#examples).
    pub fn item_not_exists() -> Self {
        Node::ItemExists(false).into()
    }

    /// The stored item is of `E`'s type (its type attribute holds
    /// [`Entity::TYPE_TAG`]): what every typed update carries, so an item of
    /// another type at the key is left untouched.
    pub(crate) fn is_of_type() -> Self {
        Node::TypeIs { or_absent: false }.into()
    }

    /// No item has the key, or the stored one is of `E`'s type: what every
    /// typed put and delete carries.
    pub(crate) fn absent_or_of_type() -> Self {
        Node::TypeIs { or_absent: true }.into()
    }

    /// The stored item is at schema version `version` (an item without the
    /// attribute is at version 1), or — `or_absent` — there is none: what
    /// an update of an entity with schema versions carries, so it never
    /// mixes its fields into an older shape.
    pub(crate) fn schema_version_is(version: u64, or_absent: bool) -> Self {
        let path = AttrPath::top(crate::item::SCHEMA_VERSION_ATTRIBUTE);
        let mut node = Node::Compare(
            path.clone(),
            "=",
            Ok(AttributeValue::N(version.to_string())),
        );
        if version == 1 {
            node = Node::Or(Box::new(Node::Exists(path, false)), Box::new(node));
        }
        if or_absent {
            node = Node::Or(Box::new(Node::ItemExists(false)), Box::new(node));
        }
        node.into()
    }

    /// The stored write token is not `token`: a replay of a write that was
    /// applied fails it, and is then recognised as applied.
    pub(crate) fn token_is_not(token: &str) -> Self {
        Node::TokenIsNot(token.to_owned()).into()
    }

    /// `attribute = value` on a raw attribute the library maintains (the
    /// version).
    pub(crate) fn attribute_equals(attribute: &'static str, value: AttributeValue) -> Self {
        Node::Compare(AttrPath::top(attribute), "=", Ok(value)).into()
    }

    /// `self AND other`, where either may be absent.
    pub(crate) fn both(first: Option<Self>, second: Option<Self>) -> Option<Self> {
        match (first, second) {
            (Some(a), Some(b)) => Some(a.and(b)),
            (a, b) => a.or(b),
        }
    }

    /// Both hold.
    ///
    /// See [the examples](Condition#examples).
    pub fn and(self, other: Condition<E>) -> Self {
        Node::And(Box::new(self.node), Box::new(other.node)).into()
    }

    /// Either holds.
    ///
    /// See [the examples](Condition#examples).
    pub fn or(self, other: Condition<E>) -> Self {
        Node::Or(Box::new(self.node), Box::new(other.node)).into()
    }
}

impl<E> Not for Condition<E> {
    type Output = Condition<E>;

    fn not(self) -> Self::Output {
        Node::Not(Box::new(self.node)).into()
    }
}

impl<E: Entity> Condition<E> {
    /// The expression text, its placeholders added to `placeholders`.
    pub(crate) fn render(&self, placeholders: &mut Placeholders) -> Result<String> {
        self.node.render(&Subject::of::<E>(), placeholders)
    }

    /// The condition as a filter of `E`'s items, without its entity type
    /// (to keep beside filters of other entity types). Rendered by
    /// [`ErasedCondition::render_filter`], which lets items of other types
    /// pass: a condition on an `Order`'s fields says nothing about a
    /// `Customer` sharing its partition.
    pub(crate) fn into_filter(self) -> ErasedCondition {
        ErasedCondition {
            node: self.node,
            subject: Subject::of::<E>(),
            layout: E::LAYOUT,
        }
    }
}

/// A condition of some entity type, rendered as that type's.
#[derive(Debug, Clone)]
pub(crate) struct ErasedCondition {
    node: Node,
    subject: Subject,
    /// The entity's key templates: on a table typed by key, the only
    /// record of which entity an item is.
    layout: &'static EntityLayout,
}

impl ErasedCondition {
    /// The condition as a filter: `NOT (<is an E>) OR (<condition>)`, where
    /// `is_entity` renders "the item is an `E`" (`None`: every item the
    /// read can return is one, and the condition stands alone).
    pub(crate) fn render_filter(
        &self,
        is_entity: Option<String>,
        placeholders: &mut Placeholders,
    ) -> Result<String> {
        let condition = self.node.render(&self.subject, placeholders)?;
        Ok(match is_entity {
            Some(is) => format!("(NOT ({is})) OR ({condition})"),
            None => condition,
        })
    }

    /// "The item is of the condition's entity type", by the type attribute
    /// (`#type = :tag`).
    pub(crate) fn type_is(&self, p: &mut Placeholders) -> String {
        let t = p.name(self.subject.schema.type_attribute);
        let tag = p.value(AttributeValue::S(self.subject.type_tag.to_owned()));
        format!("{t} = {tag}")
    }

    /// The entity type's name.
    pub(crate) fn entity(&self) -> &'static str {
        self.subject.rust_name
    }

    /// The entity's key templates; undescribed for an entity implemented
    /// by hand, which states none.
    pub(crate) fn layout(&self) -> &'static EntityLayout {
        self.layout
    }

    /// The top-level attributes the condition names (not the ones the
    /// library adds: type, token, key).
    pub(crate) fn attributes(&self) -> Vec<&'static str> {
        let mut names = Vec::new();
        self.node.attributes(&mut names);
        names
    }
}

/// `#type IN (:t0, …)`: an item of one of `types` (at most 100 of them per
/// `IN`; more are joined by `OR`).
pub(crate) fn type_in(schema: &TableSchema, types: &[&str], p: &mut Placeholders) -> String {
    let t = p.name(schema.type_attribute);
    let groups: Vec<String> = types
        .chunks(MAX_IN_VALUES)
        .map(|group| {
            let values: Vec<String> = group
                .iter()
                .map(|tag| p.value(AttributeValue::S((*tag).to_owned())))
                .collect();
            format!("{t} IN ({})", values.join(", "))
        })
        .collect();
    match groups.len() {
        1 => groups.into_iter().next().unwrap_or_default(),
        _ => format!("({})", groups.join(") OR (")),
    }
}

/// What rendering needs of the entity a condition is about.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Subject {
    rust_name: &'static str,
    type_tag: &'static str,
    schema: TableSchema,
}

impl Subject {
    fn of<E: Entity>() -> Self {
        Subject {
            rust_name: E::RUST_NAME,
            type_tag: E::TYPE_TAG,
            schema: E::Table::SCHEMA,
        }
    }

    /// A value of a condition, checked for what DynamoDB cannot store.
    fn operand(&self, path: &AttrPath, value: &Operand) -> Result<AttributeValue> {
        let value = value.clone().map_err(|err| self.encode_error(err))?;
        size::check_value(self.rust_name, &path.to_string(), &value)?;
        Ok(value)
    }

    fn encode_error(&self, message: String) -> Error {
        Repr::Encode {
            entity: self.rust_name,
            source: format!("a value in a condition: {message}").into(),
        }
        .into()
    }

    fn invalid(&self, reason: String) -> Error {
        Repr::InvalidExpression {
            what: format!("a condition on `{}`", self.rust_name),
            reason,
        }
        .into()
    }
}

impl Node {
    fn attributes(&self, names: &mut Vec<&'static str>) {
        let mut push = |path: &AttrPath| {
            if !names.contains(&path.attribute) {
                names.push(path.attribute);
            }
        };
        match self {
            Node::ItemExists(_) | Node::TypeIs { .. } | Node::TokenIsNot(_) => {}
            Node::Exists(path, _)
            | Node::Compare(path, ..)
            | Node::Between(path, _)
            | Node::BeginsWith(path, _)
            | Node::Contains(path, _)
            | Node::In(path, _)
            | Node::Size(path, ..)
            | Node::SizeBetween(path, ..)
            | Node::Type(path, _) => push(path),
            Node::And(a, b) | Node::Or(a, b) => {
                a.attributes(names);
                b.attributes(names);
            }
            Node::Not(a) => a.attributes(names),
        }
    }

    fn render(&self, s: &Subject, p: &mut Placeholders) -> Result<String> {
        let schema = s.schema;
        Ok(match self {
            Node::TypeIs { or_absent } => {
                // Every name is allocated only where the expression uses it:
                // DynamoDB refuses unused placeholders.
                let or_absent = *or_absent;
                match schema.typing {
                    Typing::Attribute => {
                        let t = p.name(schema.type_attribute);
                        let tag = p.value(AttributeValue::S(s.type_tag.to_owned()));
                        if or_absent {
                            let pk = p.name(schema.primary.partition_key);
                            format!("attribute_not_exists({pk}) OR {t} = {tag}")
                        } else {
                            format!("{t} = {tag}")
                        }
                    }
                    // The key was built from `E`'s templates, and on a table
                    // typed by key the key is the type: whatever is stored
                    // there is an `E` (or, where templates overlap, refused on
                    // read). Existence is all there is to check; "absent or of
                    // type" holds always, and is sent as the tautology it is.
                    Typing::Key => {
                        let pk = p.name(schema.primary.partition_key);
                        if or_absent {
                            format!("attribute_not_exists({pk}) OR attribute_exists({pk})")
                        } else {
                            format!("attribute_exists({pk})")
                        }
                    }
                    // An item without a type attribute goes by its key.
                    Typing::KeyAndAttribute => {
                        let pk = p.name(schema.primary.partition_key);
                        let t = p.name(schema.type_attribute);
                        let tag = p.value(AttributeValue::S(s.type_tag.to_owned()));
                        if or_absent {
                            format!(
                                "attribute_not_exists({pk}) OR attribute_not_exists({t}) OR {t} = {tag}"
                            )
                        } else {
                            format!(
                                "attribute_exists({pk}) AND (attribute_not_exists({t}) OR {t} = {tag})"
                            )
                        }
                    }
                }
            }
            Node::TokenIsNot(token) => {
                // In no slot of the token history: a late attempt of a
                // write applied before later ones is still recognised.
                let v = p.value(AttributeValue::S(token.clone()));
                (0..TableSchema::TOKEN_HISTORY)
                    .map(|slot| {
                        let wt = p.name(&schema.token_slot(slot));
                        format!("(attribute_not_exists({wt}) OR {wt} <> {v})")
                    })
                    .collect::<Vec<_>>()
                    .join(" AND ")
            }
            Node::ItemExists(exists) => {
                let pk = p.name(schema.primary.partition_key);
                exists_function(*exists, &pk)
            }
            Node::Exists(path, exists) => exists_function(*exists, &render_path(path, p)),
            Node::Compare(path, op, value) => {
                let value = s.operand(path, value)?;
                if value.is_null() {
                    // `None` is stored as no attribute (see `Entity::to_item`).
                    return match *op {
                        "=" => Ok(exists_function(false, &render_path(path, p))),
                        "<>" => Ok(exists_function(true, &render_path(path, p))),
                        _ => Err(s.invalid(format!(
                            "`{path} {op} None` compares with None, which has no order: test `exists`/`not_exists` instead"
                        ))),
                    };
                }
                let n = render_path(path, p);
                format!("{n} {op} {}", p.value(value))
            }
            Node::Between(path, bounds) => {
                let (low, high) = bounds.clone().map_err(|err| s.encode_error(err))?;
                size::check_value(s.rust_name, &path.to_string(), &low)?;
                size::check_value(s.rust_name, &path.to_string(), &high)?;
                let n = render_path(path, p);
                let (low, high) = (p.value(low), p.value(high));
                format!("{n} BETWEEN {low} AND {high}")
            }
            Node::BeginsWith(path, prefix) => {
                let n = render_path(path, p);
                let v = p.value(AttributeValue::S(prefix.clone()));
                format!("begins_with({n}, {v})")
            }
            Node::Contains(path, value) => {
                let value = s.operand(path, value)?;
                let n = render_path(path, p);
                format!("contains({n}, {})", p.value(value))
            }
            Node::In(path, values) => {
                let values = values.clone().map_err(|err| s.encode_error(err))?;
                if values.is_empty() || values.len() > MAX_IN_VALUES {
                    return Err(s.invalid(format!(
                        "`{path} IN (…)` has {} values; DynamoDB takes 1 to {MAX_IN_VALUES}: split the condition with `or`, or test fewer values",
                        values.len()
                    )));
                }
                for value in &values {
                    size::check_value(s.rust_name, &path.to_string(), value)?;
                }
                let n = render_path(path, p);
                let values: Vec<String> = values.into_iter().map(|v| p.value(v)).collect();
                format!("{n} IN ({})", values.join(", "))
            }
            Node::Size(path, op, size) => {
                let n = render_path(path, p);
                format!("size({n}) {op} {}", p.value(number(*size)))
            }
            Node::SizeBetween(path, low, high) => {
                let n = render_path(path, p);
                let (low, high) = (p.value(number(*low)), p.value(number(*high)));
                format!("size({n}) BETWEEN {low} AND {high}")
            }
            Node::Type(path, kind) => {
                let n = render_path(path, p);
                let v = p.value(AttributeValue::S(kind.code().to_owned()));
                format!("attribute_type({n}, {v})")
            }
            Node::And(a, b) => format!("({}) AND ({})", a.render(s, p)?, b.render(s, p)?),
            Node::Or(a, b) => format!("({}) OR ({})", a.render(s, p)?, b.render(s, p)?),
            Node::Not(a) => format!("NOT ({})", a.render(s, p)?),
        })
    }
}

/// The path in an expression: every name a placeholder, indexes as they
/// are (`#n0.#n1[3]`), so a map key may be a reserved word or hold `.`,
/// `[` or `#`.
pub(crate) fn render_path(path: &AttrPath, p: &mut Placeholders) -> String {
    let mut text = p.name(path.attribute);
    for step in &path.steps {
        match step {
            Step::Key(key) => {
                text.push('.');
                text.push_str(&p.name(key));
            }
            Step::Index(index) => {
                text.push('[');
                text.push_str(&index.to_string());
                text.push(']');
            }
        }
    }
    text
}

fn exists_function(exists: bool, path: &str) -> String {
    if exists {
        format!("attribute_exists({path})")
    } else {
        format!("attribute_not_exists({path})")
    }
}

fn number(n: u64) -> AttributeValue {
    AttributeValue::N(n.to_string())
}

fn attribute_value<T: Serialize + ?Sized>(value: &T) -> Result<AttributeValue, String> {
    crate::codec::to_attribute_value(value).map_err(|err| err.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::item::Set;
    use serde::Deserialize;

    crate::table! { struct App { partition_key: "PK", sort_key: "SK" } }

    #[derive(ddb_entity_derive::Entity, Serialize, Deserialize)]
    #[entity(table = App, pk = "ORDER#{id}", sk = "ORDER")]
    struct Order {
        id: u64,
        status: String,
        tags: Set<String>,
        note: Option<String>,
        scores: Vec<f64>,
    }

    fn rendered(condition: Condition<Order>) -> Result<(String, Placeholders)> {
        let mut p = Placeholders::default();
        let text = condition.render(&mut p)?;
        Ok((text, p))
    }

    #[test]
    fn every_name_of_a_path_is_a_placeholder() {
        let mut path = AttrPath::top("addresses");
        path.steps.push(Step::Key("a.b[0]#c".into()));
        path.steps.push(Step::Index(3));
        path.steps.push(Step::Key("addresses".into()));
        let mut p = Placeholders::default();
        assert_eq!(render_path(&path, &mut p), "#n0.#n1[3].#n0");
        assert_eq!(p.names["#n1"], "a.b[0]#c");
        assert_eq!(path.to_string(), "addresses.a.b[0]#c[3].addresses");
    }

    #[test]
    fn in_takes_one_to_one_hundred_values() {
        let f = Order::fields();
        let (text, p) = rendered(f.status.is_in(["A".to_owned(), "B".to_owned()])).unwrap();
        assert_eq!(text, "#n0 IN (:v0, :v1)");
        assert_eq!(p.values.len(), 2);
        for n in [0, 101] {
            let values: Vec<String> = (0..n).map(|i| i.to_string()).collect();
            let err = rendered(f.status.is_in(values)).unwrap_err();
            assert_eq!(
                err.kind(),
                crate::error::ErrorKind::InvalidExpression,
                "{err}"
            );
        }
        assert!(rendered(f.status.is_in((0..100).map(|i| i.to_string()))).is_ok());
    }

    #[test]
    fn none_is_no_attribute_and_has_no_order() {
        let f = Order::fields();
        assert_eq!(
            rendered(f.note.equals(None)).unwrap().0,
            "attribute_not_exists(#n0)"
        );
        assert_eq!(
            rendered(f.note.not_equals(None)).unwrap().0,
            "attribute_exists(#n0)"
        );
        let err = rendered(f.note.lt(None)).unwrap_err();
        assert_eq!(err.kind(), crate::error::ErrorKind::InvalidExpression);
    }

    #[test]
    fn values_dynamodb_cannot_store_are_refused() {
        let f = Order::fields();
        let err = rendered(f.scores.contains(f64::NAN)).unwrap_err();
        assert_eq!(err.kind(), crate::error::ErrorKind::InvalidNumber);
        let err = rendered(f.scores.at(0).is_in([1.0, f64::INFINITY])).unwrap_err();
        assert_eq!(err.kind(), crate::error::ErrorKind::InvalidNumber, "{err}");
    }

    #[test]
    fn a_filter_names_its_attributes_and_lets_other_types_pass() {
        let f = Order::fields();
        let filter = f
            .status
            .equals("A".into())
            .or(!f.scores.at(2).gt(1.0))
            .into_filter();
        assert_eq!(filter.attributes(), ["status", "scores"]);
        let mut p = Placeholders::default();
        let is = filter.type_is(&mut p);
        assert_eq!(
            filter.render_filter(Some(is), &mut p).unwrap(),
            "(NOT (#n0 = :v0)) OR ((#n1 = :v1) OR (NOT (#n2[2] > :v2)))"
        );
        assert_eq!(p.values[":v0"], AttributeValue::S("order".into()));
    }

    #[test]
    fn a_type_restriction_takes_every_type() {
        let mut p = Placeholders::default();
        let types: Vec<String> = (0..101).map(|i| format!("T{i}")).collect();
        let types: Vec<&str> = types.iter().map(String::as_str).collect();
        let text = type_in(&App::SCHEMA, &types, &mut p);
        assert!(text.starts_with("(#n0 IN (:v0, ") && text.ends_with(") OR (#n0 IN (:v100))"));
        assert_eq!(type_in(&App::SCHEMA, &["A"], &mut p), "#n0 IN (:v101)");
    }

    #[test]
    fn sizes_types_and_contains_render_as_functions() {
        let f = Order::fields();
        let condition = f
            .tags
            .contains("gift".to_owned())
            .and(f.tags.size().between(1, 3))
            .and(f.note.has_type(AttributeType::S))
            .and(f.status.contains("PEN"));
        let (text, p) = rendered(condition).unwrap();
        assert_eq!(
            text,
            "(((contains(#n0, :v0)) AND (size(#n0) BETWEEN :v1 AND :v2)) AND (attribute_type(#n1, :v3))) AND (contains(#n2, :v4))"
        );
        assert_eq!(p.values[":v3"], AttributeValue::S("S".into()));
    }
}
