//! One item of a backfill: what this build of its entity would store for
//! it, the difference from what is stored, and the update that writes the
//! difference only if the item is unchanged since it was read.

use std::time::Instant;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::AttributeValue;

use super::SCHEMA_VERSION_ATTRIBUTE;
use super::pace::Gate;
use super::scan::backoff;
use crate::batch::{BatchRetry, Jitter};
use crate::entity::Entity;
use crate::entity::convert::{decode_stored, to_item_stamped};
use crate::error::{Error, Repr, Result};
use crate::expr::Placeholders;
use crate::item::{Item, item_size, type_tag};
use crate::table::{Table, TableSchema};

/// DynamoDB's limit on one expression's length.
const MAX_EXPRESSION: usize = 4096;

/// What became of one item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Rewritten.
    Updated,
    /// Already what this build writes (or no longer the entity's type).
    Skipped,
    /// Deleted between the read and the write: nothing to do.
    Gone,
    /// Not written: the lease of its segment may have passed to another
    /// worker (a job shared by many), which writes it instead.
    Fenced,
}

/// How one item went, and what it took.
pub(crate) struct Done {
    pub(crate) outcome: Outcome,
    /// Writes sent again: after a concurrent change (re-read first) or a
    /// throttle.
    pub(crate) retries: u32,
}

/// The update that brings a stored item to what the entity writes: what
/// it sets, what it removes and the clauses of "unchanged since read";
/// rendered for UpdateItem (here and in a transaction's actions) by
/// [`Plan::update_item`] and, by `statements.rs`, as a PartiQL UPDATE,
/// only when sent in that form.
pub(crate) struct Plan {
    /// The item as read.
    pub(crate) stored: Item,
    /// Write units of the item's write, estimated from its size.
    pub(crate) units: f64,
    pub(crate) key: Item,
    /// Attributes whose stored value differs from the target's.
    pub(crate) sets: Vec<(String, AttributeValue)>,
    /// Attributes a put of the target would not store.
    pub(crate) removes: Vec<String>,
    /// "Unchanged since read", one clause each, all to hold.
    pub(crate) unchanged: Vec<Clause>,
    /// The entity's name and table, for the errors of rendering.
    entity: &'static str,
    schema: TableSchema,
}

/// A plan's UpdateItem form: its update expression, its condition and
/// their placeholders.
pub(crate) struct UpdateItemForm {
    pub(crate) expression: String,
    pub(crate) condition: String,
    pub(crate) placeholders: Placeholders,
}

impl Plan {
    /// The plan as UpdateItem's expressions; an error when one is longer
    /// than DynamoDB takes.
    pub(crate) fn update_item(&self) -> Result<UpdateItemForm> {
        let (expression, condition, placeholders) =
            render(&self.sets, &self.removes, &self.unchanged);
        if condition.len() > MAX_EXPRESSION || expression.len() > MAX_EXPRESSION {
            return Err(Repr::InvalidExpression {
                what: format!(
                    "the backfill of {} at {}",
                    self.entity,
                    at(&self.stored, &self.schema)
                ),
                reason: format!(
                    "its 'unchanged since read' condition compares every attribute and is {} bytes, over DynamoDB's {MAX_EXPRESSION}; declare an optimistic-locking version on the entity (#[entity(version = \"…\")]) so the condition is the version alone",
                    condition.len()
                ),
            }
            .into());
        }
        Ok(UpdateItemForm {
            expression,
            condition,
            placeholders,
        })
    }
}

/// One clause of "unchanged since read".
pub(crate) enum Clause {
    /// The item exists (its partition key attribute is there).
    Exists(String),
    /// The attribute still holds the value read.
    Equals(String, AttributeValue),
    /// The attribute is still absent.
    Absent(String),
}

/// Rewrites `item` (an `E` as read) into what this build of `E` stores:
/// re-reading and re-planning after a concurrent change, retrying
/// throttles within `retry`, each request admitted by the job's `gate`.
pub(crate) async fn rewrite<E: Entity>(
    client: &Client,
    table: &str,
    retry: &BatchRetry,
    gate: Gate<'_>,
    mut item: Item,
) -> Result<Done> {
    let started = Instant::now();
    let mut jitter = Jitter::new(item.len() as u64);
    let mut retries = 0u32;
    // Concurrent changes each cost a re-read; a writer that changes the
    // item faster than this can rewrite it gets this many chances.
    let mut changed = 0u32;
    loop {
        let Some(plan) = plan::<E>(item)? else {
            return Ok(Done {
                outcome: Outcome::Skipped,
                retries,
            });
        };
        let form = plan.update_item()?;
        let Some(permit) = gate.admit(client, 1).await else {
            return Ok(Done {
                outcome: Outcome::Fenced,
                retries,
            });
        };
        let response = client
            .update_item()
            .table_name(table)
            .set_key(Some(plan.key.clone()))
            .update_expression(&form.expression)
            .condition_expression(&form.condition)
            .set_expression_attribute_names(form.placeholders.names_or_none())
            .set_expression_attribute_values(form.placeholders.values_or_none())
            .return_consumed_capacity(permit.consumed_capacity())
            .send()
            .await;
        let err = match response {
            Ok(output) => {
                let units = output.consumed_capacity().and_then(|c| c.capacity_units());
                permit.succeeded(units, plan.units);
                return Ok(Done {
                    outcome: Outcome::Updated,
                    retries,
                });
            }
            Err(err) => Error::service("UpdateItem", table, err),
        };
        if err.is_throttled() {
            permit.throttled();
        }
        drop(permit);
        if err.is_condition_failed() {
            // Changed (or deleted) since it was read: never overwritten;
            // read again and plan from what is there now.
            changed += 1;
            retries += 1;
            if changed > 100 {
                return Err(err);
            }
            tracing::debug!(entity = E::RUST_NAME, "changed since read; re-reading");
            match reread(client, table, &plan.key, retry, &mut jitter, &mut retries).await? {
                Some(now) => item = now,
                None => {
                    return Ok(Done {
                        outcome: Outcome::Gone,
                        retries,
                    });
                }
            }
            continue;
        }
        backoff(client, retry, &mut jitter, &mut retries, started, err).await?;
        // Sent again as it was read.
        item = plan.stored;
    }
}

/// Rewrites the item at `key` alone after a grouped write found it
/// changed since it was read: a consistent re-read, then [`rewrite`]'s
/// path (or `Gone`). Its retries count the refused write.
pub(crate) async fn rewrite_changed<E: Entity>(
    client: &Client,
    table: &str,
    retry: &BatchRetry,
    gate: Gate<'_>,
    key: &Item,
) -> Result<Done> {
    let (mut jitter, mut reads) = (Jitter::new(key.len() as u64), 0u32);
    let now = reread(client, table, key, retry, &mut jitter, &mut reads).await?;
    let mut done = match now {
        Some(item) => rewrite::<E>(client, table, retry, gate, item).await?,
        None => Done {
            outcome: Outcome::Gone,
            retries: 0,
        },
    };
    done.retries += reads + 1;
    Ok(done)
}

/// The plans of `items` (distinct `E`s as read), and a `Skipped` for each
/// item already what this build writes.
pub(crate) fn plans<E: Entity>(items: Vec<Item>) -> Result<(Vec<Plan>, Vec<Done>)> {
    let mut plans = Vec::with_capacity(items.len());
    let mut skipped = Vec::new();
    for item in items {
        match plan::<E>(item)? {
            Some(plan) => plans.push(plan),
            None => skipped.push(Done {
                outcome: Outcome::Skipped,
                retries: 0,
            }),
        }
    }
    Ok((plans, skipped))
}

/// A consistent read of the item at `key`, retrying throttles: the
/// backfill's re-read after a lost race and the migration's verification.
pub(crate) async fn reread(
    client: &Client,
    table: &str,
    key: &Item,
    retry: &BatchRetry,
    jitter: &mut Jitter,
    retries: &mut u32,
) -> Result<Option<Item>> {
    let started = Instant::now();
    loop {
        let response = client
            .get_item()
            .table_name(table)
            .set_key(Some(key.clone()))
            .consistent_read(true)
            .send()
            .await;
        match response {
            Ok(output) => return Ok(output.item),
            Err(err) => {
                let err = Error::service("GetItem", table, err);
                backoff(client, retry, jitter, retries, started, err).await?;
            }
        }
    }
}

/// The update bringing `stored` to what `E` writes for the value it
/// decodes to, or `None` when it already is (or is no `E`).
pub(crate) fn plan<E: Entity>(stored: Item) -> Result<Option<Plan>> {
    let schema = E::Table::SCHEMA;
    if type_tag(&stored, &schema) != Some(E::TYPE_TAG) {
        // Its type changed since the scan read it: not ours to rewrite.
        return Ok(None);
    }
    // Stored index keys are not checked: they are what may be stale.
    let (value, _) = decode_stored::<E>(stored.clone(), false)?;
    let target = to_item_stamped(&value, None)?;
    let primary = schema.primary;
    let key: Item = [Some(primary.partition_key), primary.sort_key]
        .into_iter()
        .flatten()
        .filter_map(|name| Some((name.to_owned(), stored.get(name)?.clone())))
        .collect();
    // The primary key is where the item lives: an update cannot move it.
    for (name, value) in &key {
        if target.get(name) != Some(value) {
            return Err(Repr::KeyMismatch {
                entity: E::RUST_NAME,
                at: at(&stored, &schema),
                attribute: if name == primary.partition_key {
                    primary.partition_key
                } else {
                    primary.sort_key.unwrap_or(primary.partition_key)
                },
                stored: value.as_s().ok().cloned(),
                expected: crate::error::Expected::Value(
                    target
                        .get(name)
                        .and_then(|v| v.as_s().ok())
                        .cloned()
                        .unwrap_or_default(),
                ),
            }
            .into());
        }
    }
    let sets: Vec<(String, AttributeValue)> = target
        .iter()
        .filter(|(name, value)| !key.contains_key(*name) && stored.get(*name) != Some(*value))
        .map(|(name, value)| (name.clone(), value.clone()))
        .collect();
    // What a put of the value would not store: gone from the item. The
    // write token is the library's and stays.
    let removes: Vec<String> = stored
        .keys()
        .filter(|name| {
            !target.contains_key(*name)
                && !schema.is_token_attribute(name)
                && !key.contains_key(*name)
        })
        .cloned()
        .collect();
    if sets.is_empty() && removes.is_empty() {
        return Ok(None);
    }
    let unchanged = unchanged::<E>(&stored, &schema);
    let units = (item_size(&target).max(1) as f64 / 1024.0).ceil();
    Ok(Some(Plan {
        stored,
        units,
        key,
        sets,
        removes,
        unchanged,
        entity: E::RUST_NAME,
        schema,
    }))
}

/// The UpdateItem form of a plan: its update expression, its condition
/// and their placeholders.
fn render(
    sets: &[(String, AttributeValue)],
    removes: &[String],
    unchanged: &[Clause],
) -> (String, String, Placeholders) {
    let mut p = Placeholders::default();
    let mut expression = String::new();
    if !sets.is_empty() {
        let sets: Vec<String> = sets
            .iter()
            .map(|(name, value)| format!("{} = {}", p.name(name), p.value(value.clone())))
            .collect();
        expression = format!("SET {}", sets.join(", "));
    }
    if !removes.is_empty() {
        if !expression.is_empty() {
            expression.push(' ');
        }
        let removes: Vec<String> = removes.iter().map(|name| p.name(name)).collect();
        expression.push_str(&format!("REMOVE {}", removes.join(", ")));
    }
    let clauses: Vec<String> = unchanged
        .iter()
        .map(|clause| match clause {
            Clause::Exists(name) => format!("attribute_exists({})", p.name(name)),
            Clause::Equals(name, value) => {
                format!("{} = {}", p.name(name), p.value(value.clone()))
            }
            Clause::Absent(name) => format!("attribute_not_exists({})", p.name(name)),
        })
        .collect();
    (expression, clauses.join(" AND "), p)
}

/// "Unchanged since read": the version alone when the entity has one and
/// the item carries it (every write through the library moves it);
/// otherwise every attribute read still holds its value, and every
/// attribute the entity or the table could add is still absent.
fn unchanged<E: Entity>(stored: &Item, schema: &TableSchema) -> Vec<Clause> {
    let mut clauses = vec![Clause::Exists(schema.primary.partition_key.to_owned())];
    if let Some(version) = E::LAYOUT.version_attribute()
        && let Some(value) = stored.get(version)
    {
        clauses.push(Clause::Equals(version.to_owned(), value.clone()));
        if let Some(tag) = stored.get(schema.type_attribute) {
            clauses.push(Clause::Equals(
                schema.type_attribute.to_owned(),
                tag.clone(),
            ));
        }
        return clauses;
    }
    let primary = [Some(schema.primary.partition_key), schema.primary.sort_key];
    for (name, value) in stored {
        if !primary.contains(&Some(name.as_str())) {
            clauses.push(Clause::Equals(name.clone(), value.clone()));
        }
    }
    let index_keys = schema
        .indexes
        .iter()
        .flat_map(|index| std::iter::once(index.keys.partition_key).chain(index.keys.sort_key));
    let could_appear = E::LAYOUT
        .fields
        .iter()
        .map(|field| field.attribute)
        .chain(index_keys)
        .chain([schema.token_attribute, SCHEMA_VERSION_ATTRIBUTE]);
    let mut absent: Vec<&str> = Vec::new();
    for name in could_appear {
        if !stored.contains_key(name) && !absent.contains(&name) {
            absent.push(name);
            clauses.push(Clause::Absent(name.to_owned()));
        }
    }
    clauses
}

fn at(item: &Item, schema: &TableSchema) -> crate::error::ItemAt {
    let text = |name: &str| item.get(name).and_then(|v| v.as_s().ok()).cloned();
    crate::error::ItemAt {
        partition: (
            schema.primary.partition_key,
            text(schema.primary.partition_key),
        ),
        sort: schema.primary.sort_key.map(|name| (name, text(name))),
    }
}
