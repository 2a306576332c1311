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

use aws_sdk_dynamodb::types::AttributeValue;

use crate::collection::Member;
use crate::error::{Repr, Result};
use crate::expr::{ErasedCondition, Placeholders};
use crate::layout::{EntityLayout, Piece, TemplateLayout};
use crate::table::TableSchema;

/// What a key template says about every key it makes.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Shape {
    /// A template without a hole: this key exactly.
    Exactly(String),
    /// A key that begins with this literal (empty: any key).
    StartsWith(String),
}

impl Shape {
    /// From the template's pieces, not its text: a raw key attribute
    /// (`pk = token`) is written as the field's name but makes any string.
    fn of(template: &TemplateLayout) -> Self {
        if template.raw {
            return Shape::StartsWith(String::new());
        }
        let prefix = template.literal_prefix();
        let literal = template
            .segments
            .iter()
            .flat_map(|segment| segment.iter())
            .all(|piece| matches!(piece, Piece::Literal(_)));
        match literal {
            true => Shape::Exactly(prefix),
            false => Shape::StartsWith(prefix),
        }
    }

    /// Whether no key `other` makes can pass this shape's test. Holes are
    /// taken to make anything, so a literal that extends another's is an
    /// overlap: never a false "apart".
    fn excludes(&self, other: &Shape) -> bool {
        match (self, other) {
            (Shape::Exactly(a), Shape::Exactly(b)) => a != b,
            (Shape::Exactly(a), Shape::StartsWith(b)) => !a.starts_with(b.as_str()),
            (Shape::StartsWith(a), Shape::Exactly(b)) => !b.starts_with(a.as_str()),
            (Shape::StartsWith(a), Shape::StartsWith(b)) => {
                !(a.starts_with(b.as_str()) || b.starts_with(a.as_str()))
            }
        }
    }

    /// Tests nothing (`begins_with(…, "")`).
    fn is_trivial(&self) -> bool {
        matches!(self, Shape::StartsWith(prefix) if prefix.is_empty())
    }
}

/// One entity a read can return: its name and key layout.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Candidate {
    pub(crate) entity: &'static str,
    pub(crate) layout: &'static EntityLayout,
}

impl From<&Member> for Candidate {
    fn from(member: &Member) -> Self {
        Candidate {
            entity: member.entity,
            layout: member.layout(),
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
    let Some(primary) = condition.layout().primary() else {
        return Err(refuse(format!(
            "`{entity}` is implemented by hand and states no key templates to tell its items by"
        )));
    };
    // The table's key attributes the filter may name, each with `E`'s
    // template and shape there.
    let pk = schema.primary.partition_key;
    let mut tests: Vec<(&'static str, &TemplateLayout, Shape)> = Vec::new();
    if !queried.contains(&pk) {
        tests.push((pk, &primary.partition, Shape::of(&primary.partition)));
    }
    if let (Some(sk), Some(template)) = (schema.primary.sort_key, &primary.sort)
        && !queried.contains(&sk)
    {
        tests.push((sk, template, Shape::of(template)));
    }
    if tests.is_empty() {
        let keys = queried.join("`, `");
        return Err(refuse(format!(
            "a Query's filter cannot name the key attributes it is keyed by (`{keys}`), and on a table typed by key they are the only record of an item's entity"
        )));
    }
    for other in others {
        // Theirs at the same attribute; an entity implemented by hand
        // states none, and could make any key.
        let theirs = |attribute: &str| {
            let primary = other.layout.primary()?;
            match attribute == pk {
                true => Some(&primary.partition),
                false => primary.sort.as_ref(),
            }
        };
        let apart = tests.iter().any(|(attribute, _, shape)| {
            theirs(attribute).is_some_and(|template| shape.excludes(&Shape::of(template)))
        });
        if !apart {
            let named: Vec<String> = tests
                .iter()
                .map(|(attribute, mine, _)| {
                    let theirs = theirs(attribute).map_or("", |t| t.source);
                    format!("{attribute} {:?} vs {theirs:?}", mine.source)
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
        .filter(|(_, _, shape)| !shape.is_trivial())
        .map(|(attribute, _, shape)| {
            let name = p.name(attribute);
            match shape {
                Shape::Exactly(key) => format!("{name} = {}", p.value(AttributeValue::S(key))),
                Shape::StartsWith(prefix) => {
                    format!(
                        "begins_with({name}, {})",
                        p.value(AttributeValue::S(prefix))
                    )
                }
            }
        })
        .collect();
    Ok(Some(clauses.join(" AND ")))
}

#[cfg(test)]
mod tests {
    use super::Shape;
    use crate::key::Cardinality;
    use crate::layout::{HoleLayout, Piece, TemplateLayout};

    const fn hole(field: &'static str) -> Piece {
        Piece::Hole(HoleLayout::new(
            field,
            "T",
            None,
            None,
            Cardinality::Unbounded,
            false,
            false,
        ))
    }

    const ORDER: &[Piece] = &[Piece::Literal("ORDER")];
    const ORDER_KEY: &[&[Piece]] = &[ORDER, &[hole("placed")], &[hole("id")]];
    const LINE_KEY: &[&[Piece]] = &[
        ORDER,
        &[hole("placed")],
        &[hole("id")],
        &[Piece::Literal("LINE")],
        &[hole("n")],
    ];
    const PROFILE_KEY: &[&[Piece]] = &[&[Piece::Literal("PROFILE")]];
    const ITEM_KEY: &[&[Piece]] = &[&[Piece::Literal("ITEM")], &[hole("sku")]];
    const ANY_KEY: &[&[Piece]] = &[&[hole("label")]];
    const ORD_KEY: &[&[Piece]] = &[&[Piece::Literal("ORD"), hole("n")]];
    const ORDER_ONLY: &[&[Piece]] = &[ORDER];
    const ORDER_ANY: &[&[Piece]] = &[ORDER, &[hole("x")]];
    const RAW_KEY: &[&[Piece]] = &[&[hole("token")]];

    fn shape(segments: &'static [&'static [Piece]]) -> Shape {
        Shape::of(&TemplateLayout::new("", false, segments))
    }

    #[test]
    fn shapes_are_apart_only_when_no_key_can_pass_both() {
        let (order, line) = (shape(ORDER_KEY), shape(LINE_KEY));
        let (profile, item, any) = (shape(PROFILE_KEY), shape(ITEM_KEY), shape(ANY_KEY));
        assert!(!order.excludes(&line) && !line.excludes(&order));
        assert!(profile.excludes(&order) && order.excludes(&profile));
        assert!(item.excludes(&order));
        assert!(!any.excludes(&profile) && !profile.excludes(&any));
        // A literal inside another's hole could be made by it.
        let ord = shape(ORD_KEY);
        assert!(!ord.excludes(&order) && !order.excludes(&ord));
        // A literal key shorter than the other's prefix is not under it.
        assert!(order.excludes(&shape(ORDER_ONLY)));
        assert!(!shape(ORDER_ANY).excludes(&order));
        // A raw key attribute is written as its field's name and makes any
        // string: never apart.
        let raw = Shape::of(&TemplateLayout::new("token", true, RAW_KEY));
        assert!(raw.is_trivial());
        assert!(!raw.excludes(&profile) && !profile.excludes(&raw));
    }
}
