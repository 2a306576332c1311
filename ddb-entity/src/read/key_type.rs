//! "This item is an `E`", said on the server from its keys: what a filter
//! on one entity of a read that returns several needs on a table typed by
//! key, where no type attribute says it.
//!
//! A filter given for `E` must leave the other entities' items alone
//! (`NOT (<is an E>) OR (<condition>)`). On a table typed by attribute
//! `<is an E>` is `#type = "E"`. On a table typed by key the only record of
//! an item's entity is its keys, which the client parses in full; the
//! server can only compare them, so `<is an E>` is built from the leading
//! literal of `E`'s key templates: `PK = "USER#…"`-style `begins_with`, or
//! equality for a template with no hole (`SK = "PROFILE"`).
//!
//! That is exact only when no other member of the read can make a key that
//! passes it: `ORDER#{placed}#{id}` and `ORDER#{placed}#{id}#LINE#{n}` share
//! their leading literal, and a `begins_with(SK, "ORDER#")` for the order
//! would hold for its lines too, so a filter on the orders' status would
//! drop every line. Such a filter is refused before any request
//! ([`ErrorKind::AmbiguousFilter`](crate::error::ErrorKind::AmbiguousFilter)),
//! never sent to drop items silently. So is a filter of a Query that needs
//! the key attributes the Query is keyed by: DynamoDB refuses a filter on
//! them (the key condition selects by key), so nothing on the server can
//! tell the members apart.
//!
//! Refusing rather than filtering in the client: a filter's whole point is
//! what the server does not return (and, with `limit`, where a page ends);
//! evaluating it in the client would be a second implementation of
//! DynamoDB's comparison rules, drifting from the first.

use crate::collection::Member;
use crate::error::{Repr, Result};
use crate::expr::{ErasedCondition, Placeholders};
use crate::table::TableSchema;

use aws_sdk_dynamodb::types::AttributeValue;

/// What a key template says about every key it makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape<'a> {
    /// A template without a hole: this key exactly.
    Exactly(&'a str),
    /// A key that begins with this literal (empty: any key).
    StartsWith(&'a str),
}

impl<'a> Shape<'a> {
    /// `None` for an entity implemented by hand, which states no template.
    fn of(template: &'a str) -> Option<Self> {
        if template.is_empty() {
            return None;
        }
        Some(match template.find('{') {
            Some(at) => Shape::StartsWith(&template[..at]),
            None => Shape::Exactly(template),
        })
    }

    /// Whether no key `other` makes can pass this shape's test. Holes are
    /// taken to make anything, so a literal that extends another's is an
    /// overlap: never a false "apart".
    fn excludes(self, other: Shape<'_>) -> bool {
        match (self, other) {
            (Shape::Exactly(a), Shape::Exactly(b)) => a != b,
            (Shape::Exactly(a), Shape::StartsWith(b)) => !a.starts_with(b),
            (Shape::StartsWith(a), Shape::Exactly(b)) => !b.starts_with(a),
            (Shape::StartsWith(a), Shape::StartsWith(b)) => !(a.starts_with(b) || b.starts_with(a)),
        }
    }

    /// Tests nothing (`begins_with(…, "")`).
    fn is_trivial(self) -> bool {
        self == Shape::StartsWith("")
    }
}

/// One entity a read can return: its name and primary key templates.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Candidate {
    pub(crate) entity: &'static str,
    pub(crate) templates: (&'static str, Option<&'static str>),
}

impl From<&Member> for Candidate {
    fn from(member: &Member) -> Self {
        Candidate {
            entity: member.entity,
            templates: member.templates,
        }
    }
}

/// "The item is an `E`" (`E` being `condition`'s entity) among the
/// `candidates` a read can return (the collection's members and every
/// filtered entity), from the keys a filter may name (not those in
/// `queried`, a Query's own key attributes). `None` when `E` is the only
/// candidate: every item is then an `E` or left out in the client, and the
/// condition can apply to all. An error when the keys cannot tell `E` from
/// another candidate.
pub(crate) fn is_entity(
    condition: &ErasedCondition,
    candidates: &[Candidate],
    collection: &'static str,
    schema: &TableSchema,
    queried: &[&str],
    p: &mut Placeholders,
) -> Result<Option<String>> {
    let entity = condition.entity();
    let others: Vec<&Candidate> = candidates.iter().filter(|c| c.entity != entity).collect();
    if others.is_empty() {
        return Ok(None);
    }
    let refuse = |reason: String| -> crate::error::Error {
        Repr::AmbiguousFilter {
            entity,
            collection,
            reason,
        }
        .into()
    };
    let (pk_template, sk_template) = condition.templates();
    // The table's key attributes the filter may name, each with `E`'s
    // shape there.
    let mut tests: Vec<(&'static str, Shape<'static>)> = Vec::new();
    let pk = schema.primary.partition_key;
    let Some(pk_shape) = Shape::of(pk_template) else {
        return Err(refuse(format!(
            "`{entity}` is implemented by hand and states no key templates to tell its items by"
        )));
    };
    if !queried.contains(&pk) {
        tests.push((pk, pk_shape));
    }
    if let (Some(sk), Some(template)) = (schema.primary.sort_key, sk_template)
        && !queried.contains(&sk)
        && let Some(shape) = Shape::of(template)
    {
        tests.push((sk, shape));
    }
    if tests.is_empty() {
        let keys = queried.join("`, `");
        return Err(refuse(format!(
            "a Query's filter cannot name the key attributes it is keyed by (`{keys}`), and on a table typed by key they are the only record of an item's entity"
        )));
    }
    for other in others {
        let (other_pk, other_sk) = other.templates;
        let apart = tests.iter().any(|(attribute, shape)| {
            let template = if *attribute == pk {
                Some(other_pk)
            } else {
                other_sk
            };
            template
                .and_then(Shape::of)
                .is_some_and(|theirs| shape.excludes(theirs))
        });
        if !apart {
            let named: Vec<String> = tests
                .iter()
                .map(|(attribute, _)| {
                    let (mine, theirs) = if *attribute == pk {
                        (Some(pk_template), Some(other_pk))
                    } else {
                        (sk_template, other_sk)
                    };
                    format!(
                        "{attribute} {:?} vs {:?}",
                        mine.unwrap_or(""),
                        theirs.unwrap_or("")
                    )
                })
                .collect();
            return Err(refuse(format!(
                "`{}`'s keys can begin as `{entity}`'s do ({}), so no key test on the server tells their items apart",
                other.entity,
                named.join(", ")
            )));
        }
    }
    let clauses: Vec<String> = tests
        .into_iter()
        .filter(|(_, shape)| !shape.is_trivial())
        .map(|(attribute, shape)| {
            let name = p.name(attribute);
            match shape {
                Shape::Exactly(key) => {
                    format!("{name} = {}", p.value(AttributeValue::S(key.to_owned())))
                }
                Shape::StartsWith(prefix) => format!(
                    "begins_with({name}, {})",
                    p.value(AttributeValue::S(prefix.to_owned()))
                ),
            }
        })
        .collect();
    Ok(Some(clauses.join(" AND ")))
}

#[cfg(test)]
mod tests {
    use super::Shape;

    #[test]
    fn shapes_are_apart_only_when_no_key_can_pass_both() {
        let shape = |t| Shape::of(t).unwrap();
        let order = shape("ORDER#{placed}#{id}");
        let line = shape("ORDER#{placed}#{id}#LINE#{n}");
        let profile = shape("PROFILE");
        let item = shape("ITEM#{sku}");
        let any = shape("{label}");
        assert!(!order.excludes(line) && !line.excludes(order));
        assert!(profile.excludes(order) && order.excludes(profile));
        assert!(item.excludes(order));
        assert!(!any.excludes(profile) && !profile.excludes(any));
        // A literal inside another's hole could be made by it.
        assert!(!shape("ORD{n}").excludes(order) && !order.excludes(shape("ORD{n}")));
        // A literal key shorter than the other's prefix is not under it.
        assert!(order.excludes(shape("ORDER")));
        assert!(!shape("ORDER#").excludes(order));
        assert!(Shape::of("").is_none());
    }
}
