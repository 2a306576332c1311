//! Expressions: typed conditions on an entity's fields, rendered with
//! placeholders for every name and value.

mod placeholders;
pub(crate) mod version;

use std::marker::PhantomData;
use std::ops::Not;

use aws_sdk_dynamodb::types::AttributeValue;
use serde::Serialize;

use crate::entity::{Entity, Field};
use crate::error::{Error, Repr, Result};
use crate::item::size;
use crate::table::{Table, Typing};

pub(crate) use placeholders::Placeholders;

/// A condition on one stored item of entity `E`, for put, update, delete
/// and transactions: the write happens only if it holds, else the request
/// fails with [`Error::is_condition_failed`].
///
/// Built from [`Entity`] fields (`Order::fields().status.equals(…)`) and
/// combined with [`and`](Condition::and), [`or`](Condition::or) and `!`.
///
/// ```
/// # use ddb_entity::{Condition, Entity};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "ORDER#{id}", sk = "ORDER")]
/// struct Order { id: u64, status: String, total_cents: i64 }
///
/// let f = Order::fields();
/// let open_and_small = f.status.equals("OPEN".to_owned()).and(f.total_cents.lt(10_000));
/// let not_cancelled = !f.status.equals("CANCELLED".to_owned());
/// let _either = open_and_small.or(not_cancelled);
/// let _new = Condition::<Order>::item_not_exists();
/// ```
#[must_use = "a condition does nothing until it is given to a write"]
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
    Exists(&'static str, bool),
    Compare(&'static str, &'static str, Result<AttributeValue, String>),
    Between(
        &'static str,
        Result<(AttributeValue, AttributeValue), String>,
    ),
    BeginsWith(&'static str, String),
    And(Box<Node>, Box<Node>),
    Or(Box<Node>, Box<Node>),
    Not(Box<Node>),
}

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
    pub fn item_exists() -> Self {
        Node::ItemExists(true).into()
    }

    /// No item has the key yet.
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

    /// The stored write token is not `token`: a replay of a write that was
    /// applied fails it, and is then recognised as applied.
    pub(crate) fn token_is_not(token: &str) -> Self {
        Node::TokenIsNot(token.to_owned()).into()
    }

    /// `attribute = value` on a raw attribute the library maintains (the
    /// version).
    pub(crate) fn attribute_equals(attribute: &'static str, value: AttributeValue) -> Self {
        Node::Compare(attribute, "=", Ok(value)).into()
    }

    /// `self AND other`, where either may be absent.
    pub(crate) fn both(first: Option<Self>, second: Option<Self>) -> Option<Self> {
        match (first, second) {
            (Some(a), Some(b)) => Some(a.and(b)),
            (a, b) => a.or(b),
        }
    }

    /// Both hold.
    pub fn and(self, other: Condition<E>) -> Self {
        Node::And(Box::new(self.node), Box::new(other.node)).into()
    }

    /// Either holds.
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
        render::<E>(&self.node, placeholders)
    }
}

fn render<E: Entity>(node: &Node, p: &mut Placeholders) -> Result<String> {
    // A number DynamoDB cannot store (NaN, infinity, out of range, over 38
    // digits) is refused here, naming the attribute, before any request.
    let encode = |attribute: &str, result: &Result<AttributeValue, String>| {
        let value = result.clone().map_err(encode_error::<E>)?;
        size::check_value(E::RUST_NAME, attribute, &value)?;
        Ok::<_, Error>(value)
    };
    let schema = E::Table::SCHEMA;
    Ok(match node {
        Node::TypeIs { or_absent } => {
            // Every name is allocated only where the expression uses it:
            // DynamoDB refuses unused placeholders.
            let or_absent = *or_absent;
            match schema.typing {
                Typing::Attribute => {
                    let t = p.name(schema.type_attribute);
                    let tag = p.value(AttributeValue::S(E::TYPE_TAG.to_owned()));
                    if or_absent {
                        let pk = p.name(schema.primary.partition_key);
                        format!("attribute_not_exists({pk}) OR {t} = {tag}")
                    } else {
                        format!("{t} = {tag}")
                    }
                }
                // The key was built from `E`'s templates, and on a table
                // typed by key the key is the type: whatever is stored there
                // is an `E` (or, where templates overlap, refused on read).
                // Existence is all there is to check; "absent or of type"
                // holds always, and is sent as the tautology it is.
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
                    let tag = p.value(AttributeValue::S(E::TYPE_TAG.to_owned()));
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
            let wt = p.name(schema.token_attribute);
            let v = p.value(AttributeValue::S(token.clone()));
            format!("attribute_not_exists({wt}) OR {wt} <> {v}")
        }
        Node::ItemExists(exists) => {
            let pk = p.name(E::Table::SCHEMA.primary.partition_key);
            if *exists {
                format!("attribute_exists({pk})")
            } else {
                format!("attribute_not_exists({pk})")
            }
        }
        Node::Exists(attribute, exists) => {
            let n = p.name(attribute);
            if *exists {
                format!("attribute_exists({n})")
            } else {
                format!("attribute_not_exists({n})")
            }
        }
        Node::Compare(attribute, op, value) => {
            let value = encode(attribute, value)?;
            let n = p.name(attribute);
            let v = p.value(value);
            format!("{n} {op} {v}")
        }
        Node::Between(attribute, bounds) => {
            let (low, high) = bounds.clone().map_err(encode_error::<E>)?;
            size::check_value(E::RUST_NAME, attribute, &low)?;
            size::check_value(E::RUST_NAME, attribute, &high)?;
            let n = p.name(attribute);
            let (low, high) = (p.value(low), p.value(high));
            format!("{n} BETWEEN {low} AND {high}")
        }
        Node::BeginsWith(attribute, prefix) => {
            let n = p.name(attribute);
            let v = p.value(AttributeValue::S(prefix.clone()));
            format!("begins_with({n}, {v})")
        }
        Node::And(a, b) => format!("({}) AND ({})", render::<E>(a, p)?, render::<E>(b, p)?),
        Node::Or(a, b) => format!("({}) OR ({})", render::<E>(a, p)?, render::<E>(b, p)?),
        Node::Not(a) => format!("NOT ({})", render::<E>(a, p)?),
    })
}

/// A value of a condition that could not be written as an attribute.
fn encode_error<E: Entity>(message: String) -> Error {
    Repr::Encode {
        entity: E::RUST_NAME,
        source: format!("a value in a condition: {message}").into(),
    }
    .into()
}

fn attribute_value<T: Serialize>(value: &T) -> Result<AttributeValue, String> {
    crate::codec::to_attribute_value(value).map_err(|err| err.to_string())
}

/// Conditions on a field's stored value.
impl<E, T: Serialize, R> Field<E, T, R> {
    fn compare(self, op: &'static str, value: T) -> Condition<E> {
        Node::Compare(self.attribute(), op, attribute_value(&value)).into()
    }

    /// `field = value`.
    pub fn equals(self, value: T) -> Condition<E> {
        self.compare("=", value)
    }

    /// `field <> value`.
    pub fn not_equals(self, value: T) -> Condition<E> {
        self.compare("<>", value)
    }

    /// `field < value`.
    pub fn lt(self, value: T) -> Condition<E> {
        self.compare("<", value)
    }

    /// `field <= value`.
    pub fn le(self, value: T) -> Condition<E> {
        self.compare("<=", value)
    }

    /// `field > value`.
    pub fn gt(self, value: T) -> Condition<E> {
        self.compare(">", value)
    }

    /// `field >= value`.
    pub fn ge(self, value: T) -> Condition<E> {
        self.compare(">=", value)
    }

    /// `low <= field <= high`.
    pub fn between(self, low: T, high: T) -> Condition<E> {
        let bounds = attribute_value(&low).and_then(|low| Ok((low, attribute_value(&high)?)));
        Node::Between(self.attribute(), bounds).into()
    }

    /// The attribute is stored (for an `Option` field: it is `Some`).
    pub fn exists(self) -> Condition<E> {
        Node::Exists(self.attribute(), true).into()
    }

    /// The attribute is not stored.
    pub fn not_exists(self) -> Condition<E> {
        Node::Exists(self.attribute(), false).into()
    }
}

impl<E, R> Field<E, String, R> {
    /// The stored string starts with `prefix`.
    pub fn begins_with(self, prefix: &str) -> Condition<E> {
        Node::BeginsWith(self.attribute(), prefix.to_owned()).into()
    }
}
