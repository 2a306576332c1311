//! Filters of queries and scans: typed conditions DynamoDB applies to the
//! items it has read, before returning them.

use std::fmt::Write as _;
use std::time::{SystemTime, UNIX_EPOCH};

use aws_sdk_dynamodb::types::AttributeValue;

use super::key_type::{self, Candidate};
use crate::collection::{Collection, CollectionItem, Member, UnknownItems};
use crate::entity::{Entity, owned_attribute};
use crate::error::{Repr, Result};
use crate::expr::{Condition, ErasedCondition, Placeholders, type_in};
use crate::table::{KeySchema, TableSchema, Typing};

/// What a read returns, as its filters need it: the collection's name,
/// its entity types, and its members' key templates (on a table typed by
/// key, the only way to say on the server which entity an item is).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Reading {
    pub(crate) collection: &'static str,
    pub(crate) types: &'static [&'static str],
    pub(crate) members: &'static [Member],
    /// The collection decodes its items from the response's bytes
    /// (`Collection::READS_BYTES`).
    pub(crate) bytes: bool,
}

impl Reading {
    pub(crate) fn of<C: Collection>() -> Self {
        Reading {
            collection: C::NAME,
            types: C::TYPES,
            members: C::MEMBERS,
            bytes: C::READS_BYTES,
        }
    }

    pub(crate) fn of_item<T: CollectionItem>() -> Self {
        Reading {
            collection: T::NAME,
            types: T::TYPES,
            members: T::MEMBERS,
            bytes: T::READS_BYTES,
        }
    }

    /// Every item as it is stored, of any type (the survey's raw scan).
    #[cfg(feature = "survey")]
    pub(crate) fn raw() -> Self {
        Reading {
            collection: "(raw)",
            types: &[],
            members: &[],
            bytes: false,
        }
    }
}

/// The filters of one query or scan: each entity's conditions, joined by
/// `AND`, each letting items of other entity types pass.
#[derive(Debug, Clone, Default)]
pub(crate) struct Filters {
    conditions: Vec<ErasedCondition>,
}

impl Filters {
    pub(crate) fn push<E: Entity>(&mut self, condition: Condition<E>) {
        self.conditions.push(condition.into_filter());
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.conditions.is_empty()
    }

    /// Whether the server may leave out items it read: with a filter, or
    /// asked for the collection's types by the type attribute (which a
    /// table typed by key has not: there nothing is left out on the
    /// server). Then `first` and `one` cannot read item by item.
    pub(crate) fn drop_items(&self, schema: &TableSchema, policy: UnknownItems) -> bool {
        !self.is_empty() || (policy == UnknownItems::Filter && schema.typing != Typing::Key)
    }

    /// Every attribute the filters name.
    pub(crate) fn attributes(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.conditions
            .iter()
            .flat_map(|condition| condition.attributes())
    }

    /// Refuses a filter on a key attribute before anything is sent: on the
    /// queried index's keys (`keys`; DynamoDB refuses those — the key
    /// condition selects by key) and on every attribute the library owns
    /// (the table's and every index's key attributes, the type and the
    /// write token), which no entity field can name.
    pub(crate) fn check(&self, schema: &TableSchema, keys: Option<KeySchema>) -> Result<()> {
        for condition in &self.conditions {
            for attribute in condition.attributes() {
                let queried = keys.is_some_and(|keys| {
                    keys.partition_key == attribute || keys.sort_key == Some(attribute)
                });
                if queried || owned_attribute(schema, attribute) {
                    return Err(Repr::InvalidExpression {
                        what: format!("a filter on `{}`", condition.entity()),
                        reason: format!(
                            "it names `{attribute}`, a key attribute (or one the library maintains); a filter cannot select by key: use the query's key condition (`sk_begins_with`, `sk_between`, …)"
                        ),
                    }
                    .into());
                }
            }
        }
        Ok(())
    }

    /// The `FilterExpression` (`None` when there is nothing to filter):
    /// every condition, each letting items of other entity types pass, and
    /// with [`UnknownItems::Filter`] the restriction to the collection's
    /// types. `read` is what the read returns (`None` when only counting:
    /// then the filtered entities are all there is to tell apart);
    /// `queried` the key attributes of a Query's key condition, which a
    /// filter cannot name.
    ///
    /// On a table typed by key "of another type" is said from the keys
    /// (see `key_type`), or the filter is refused
    /// ([`ErrorKind::AmbiguousFilter`](crate::error::ErrorKind::AmbiguousFilter))
    /// before any request.
    pub(crate) fn render(
        &self,
        schema: &TableSchema,
        policy: UnknownItems,
        read: Option<Reading>,
        queried: &[&str],
        p: &mut Placeholders,
    ) -> Result<Option<String>> {
        let mut clauses = Vec::with_capacity(self.conditions.len() + 1);
        if let (UnknownItems::Filter, Some(read)) = (policy, read) {
            let types = read.types;
            match schema.typing {
                Typing::Attribute => clauses.push(type_in(schema, types, p)),
                // No type attribute to filter on: the items come back and
                // are routed by key, those of no member's templates left
                // out (see `collection::demultiplex`).
                Typing::Key => {}
                // An item without a type attribute goes by its key.
                Typing::KeyAndAttribute => {
                    let t = p.name(schema.type_attribute);
                    let known = type_in(schema, types, p);
                    clauses.push(format!("attribute_not_exists({t}) OR {known}"));
                }
            }
        }
        let candidates = self.candidates(read);
        let collection = read.map_or("(count)", |read| read.collection);
        let mut guards: Vec<String> = Vec::new();
        for condition in &self.conditions {
            let is_entity = match schema.typing {
                Typing::Attribute => Some(condition.type_is(p)),
                Typing::Key => {
                    key_type::is_entity(condition, &candidates, collection, schema, queried, p)?
                }
                Typing::KeyAndAttribute => {
                    // Typed items by their attribute, the others by key.
                    let typed = condition.type_is(p);
                    let t = p.name(schema.type_attribute);
                    let by_key = key_type::is_entity(
                        condition,
                        &candidates,
                        collection,
                        schema,
                        queried,
                        p,
                    )?;
                    Some(match by_key {
                        Some(keys) => {
                            format!("({typed}) OR (attribute_not_exists({t}) AND ({keys}))")
                        }
                        None => format!("({typed}) OR attribute_not_exists({t})"),
                    })
                }
            };
            if read.is_none()
                && let Some(is) = &is_entity
                && !guards.contains(is)
            {
                guards.push(is.clone());
            }
            clauses.push(condition.render_filter(is_entity, p)?);
        }
        // A count has no collection to leave the other entities' items
        // out of: it counts only the items of the filters' entities (each
        // satisfying its own entity's filters), so that a filter on
        // `Product` never counts the `Shop` beside the products.
        match guards.len() {
            0 => {}
            1 => clauses.extend(guards.pop()),
            _ => clauses.push(format!("({})", guards.join(") OR ("))),
        }
        Ok(match clauses.len() {
            0 => None,
            1 => clauses.pop(),
            _ => Some(format!("({})", clauses.join(") AND ("))),
        })
    }

    /// Every entity the read can return: the members, and every entity a
    /// filter is given for (a filter on a non-member must still let the
    /// members' items pass).
    fn candidates(&self, read: Option<Reading>) -> Vec<Candidate> {
        let mut candidates: Vec<Candidate> = read
            .map(|read| read.members.iter().map(Candidate::from).collect())
            .unwrap_or_default();
        for condition in &self.conditions {
            if !candidates.iter().any(|c| c.entity == condition.entity()) {
                candidates.push(Candidate {
                    entity: condition.entity(),
                    layout: condition.layout(),
                });
            }
        }
        candidates
    }

    /// The filter as text with every placeholder replaced by its name or
    /// value, in a form that is the same for the same filter: what a
    /// cursor can be bound to. Values can be personal data: not for logs.
    pub(crate) fn text(
        &self,
        schema: &TableSchema,
        policy: UnknownItems,
        read: Option<Reading>,
        queried: &[&str],
    ) -> Result<Option<String>> {
        let mut p = Placeholders::default();
        let Some(expression) = self.render(schema, policy, read, queried, &mut p)? else {
            return Ok(None);
        };
        let mut text = String::with_capacity(expression.len() * 2);
        let mut rest = expression.as_str();
        while let Some(at) = rest.find(['#', ':']) {
            text.push_str(&rest[..at]);
            let end = rest[at + 1..]
                .find(|c: char| !c.is_ascii_alphanumeric())
                .map_or(rest.len(), |n| at + 1 + n);
            let placeholder = &rest[at..end];
            match (p.names.get(placeholder), p.values.get(placeholder)) {
                (Some(name), _) => {
                    let _ = write!(text, "{name:?}");
                }
                (_, Some(value)) => canonical(value, &mut text),
                _ => text.push_str(placeholder),
            }
            rest = &rest[end..];
        }
        text.push_str(rest);
        Ok(Some(text))
    }
}

/// The condition that an item is not past its time to live at `now`, as
/// reads decide it ([`ttl::is_expired`](crate::item::ttl::is_expired)): no
/// TTL attribute, one that is not a number, or a later second. `None` for
/// a table without a TTL attribute.
pub(crate) fn unexpired(
    schema: &TableSchema,
    now: SystemTime,
    p: &mut Placeholders,
) -> Option<String> {
    let attribute = schema.ttl_attribute?;
    let now = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let n = p.name(attribute);
    let number = p.value(AttributeValue::S("N".to_owned()));
    let now = p.value(AttributeValue::N(now.to_string()));
    Some(format!(
        "attribute_not_exists({n}) OR NOT attribute_type({n}, {number}) OR {n} > {now}"
    ))
}

/// A value in one text form (map entries sorted by name).
fn canonical(value: &AttributeValue, out: &mut String) {
    match value {
        AttributeValue::M(map) => {
            let mut entries: Vec<_> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            out.push_str("M{");
            for (name, value) in entries {
                let _ = write!(out, "{name:?}:");
                canonical(value, out);
                out.push(',');
            }
            out.push('}');
        }
        AttributeValue::L(list) => {
            out.push_str("L[");
            for value in list {
                canonical(value, out);
                out.push(',');
            }
            out.push(']');
        }
        other => {
            let _ = write!(out, "{other:?}");
        }
    }
}

/// The attribute names of `keys`: what a Query is keyed by, which its
/// filter cannot name.
pub(crate) fn key_names(keys: KeySchema) -> Vec<&'static str> {
    std::iter::once(keys.partition_key)
        .chain(keys.sort_key)
        .collect()
}
