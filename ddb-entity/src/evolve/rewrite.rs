//! One item of a backfill: what this build of its entity would store for
//! it, the difference from what is stored, and the update that writes the
//! difference only if the item is unchanged since it was read.

use std::time::Instant;

use aws_sdk_dynamodb::Client;

use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use aws_sdk_dynamodb::types::{ReturnConsumedCapacity, TransactWriteItem, Update};

use super::SCHEMA_VERSION_ATTRIBUTE;
use super::pace::Pace;
use super::scan::backoff;
use crate::batch::{BatchRetry, Jitter};
use crate::entity::Entity;
use crate::entity::convert::{decode_stored, to_item_stamped};
use crate::error::{CancellationCode, Error, Repr, Result};
use crate::expr::Placeholders;
use crate::item::{Item, item_size, type_tag};
use crate::table::{Table, TableSchema};

/// DynamoDB's most actions in one TransactWriteItems.
pub(crate) const MAX_GROUP: usize = 100;

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
}

/// How one item went, and what it took.
pub(crate) struct Done {
    pub(crate) outcome: Outcome,
    /// Writes sent again: after a concurrent change (re-read first) or a
    /// throttle.
    pub(crate) retries: u32,
}

/// The update that brings a stored item to what the entity writes.
struct Plan {
    /// The item as read.
    stored: Item,
    /// Write units of the item's write, estimated from its size.
    units: f64,
    key: Item,
    expression: String,
    condition: String,
    placeholders: Placeholders,
}

/// Rewrites `item` (an `E` as read) into what this build of `E` stores:
/// re-reading and re-planning after a concurrent change, retrying
/// throttles within `retry`, each request admitted by the job's `pace`.
pub(crate) async fn rewrite<E: Entity>(
    client: &Client,
    table: &str,
    retry: &BatchRetry,
    pace: &Pace,
    mut item: Item,
) -> Result<Done> {
    let started = Instant::now();
    let mut jitter = Jitter::new(item.len() as u64);
    let mut retries = 0u32;
    // Concurrent changes each cost a re-read; a writer that changes the
    // item faster than this can rewrite it gets this many chances.
    let mut changed = 0u32;
    loop {
        let Some(plan) = plan::<E>(&item)? else {
            return Ok(Done {
                outcome: Outcome::Skipped,
                retries,
            });
        };
        let permit = pace.admit(client, 1).await;
        let response = client
            .update_item()
            .table_name(table)
            .set_key(Some(plan.key.clone()))
            .update_expression(&plan.expression)
            .condition_expression(&plan.condition)
            .set_expression_attribute_names(plan.placeholders.names_or_none())
            .set_expression_attribute_values(plan.placeholders.values_or_none())
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
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
    }
}

/// Rewrites `items` (distinct `E`s as read) like [`rewrite`], up to
/// [`MAX_GROUP`] updates in one TransactWriteItems: each keeps its own
/// "unchanged since read" condition, so the group is written only if every
/// item in it is unchanged. When DynamoDB cancels it, an item whose
/// condition failed is re-read and rewritten alone (exactly
/// [`rewrite`]'s path), and the others are sent again as a group: none was
/// written, since a transaction is all or nothing.
pub(crate) async fn rewrite_group<E: Entity>(
    client: &Client,
    table: &str,
    retry: &BatchRetry,
    pace: &Pace,
    items: Vec<Item>,
) -> Result<Vec<Done>> {
    let mut done = Vec::with_capacity(items.len());
    let mut plans = Vec::with_capacity(items.len());
    for item in items {
        match plan::<E>(&item)? {
            Some(plan) => plans.push(plan),
            None => done.push(Done {
                outcome: Outcome::Skipped,
                retries: 0,
            }),
        }
    }
    let started = Instant::now();
    let mut jitter = Jitter::new(plans.len() as u64);
    let mut retries = 0u32;
    while plans.len() > 1 {
        let actions = plans
            .iter()
            .map(|plan| {
                let update = Update::builder()
                    .table_name(table)
                    .set_key(Some(plan.key.clone()))
                    .update_expression(&plan.expression)
                    .condition_expression(&plan.condition)
                    .set_expression_attribute_names(plan.placeholders.names_or_none())
                    .set_expression_attribute_values(plan.placeholders.values_or_none())
                    .build()
                    .map_err(|err| -> Error {
                        Repr::RequestBuild {
                            what: "backfill transaction action",
                            source: Box::new(err),
                        }
                        .into()
                    })?;
                Ok(TransactWriteItem::builder().update(update).build())
            })
            .collect::<Result<Vec<_>>>()?;
        let permit = pace.admit(client, plans.len()).await;
        let response = client
            .transact_write_items()
            .set_transact_items(Some(actions))
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .send()
            .await;
        let err = match response {
            Ok(output) => {
                let units = output
                    .consumed_capacity()
                    .iter()
                    .filter_map(|c| c.capacity_units())
                    .reduce(|a, b| a + b);
                // A transactional write costs two units per kilobyte.
                let estimate = plans.iter().map(|plan| 2.0 * plan.units).sum();
                permit.succeeded(units, estimate);
                done.extend(plans.drain(..).map(|_| Done {
                    outcome: Outcome::Updated,
                    retries,
                }));
                return Ok(done);
            }
            Err(err) => err,
        };
        let reasons: Option<Vec<CancellationCode>> = match err.as_service_error() {
            Some(TransactWriteItemsError::TransactionCanceledException(canceled)) => Some(
                canceled
                    .cancellation_reasons()
                    .iter()
                    .map(|reason| CancellationCode::parse(reason.code()))
                    .collect(),
            ),
            _ => None,
        };
        let err = Error::service("TransactWriteItems", table, err);
        match reasons {
            Some(reasons) if reasons.len() == plans.len() => {
                let throttled = reasons.iter().any(|code| {
                    matches!(
                        code,
                        CancellationCode::ProvisionedThroughputExceeded
                            | CancellationCode::ThrottlingError
                    )
                });
                if throttled {
                    permit.throttled();
                }
                drop(permit);
                let mut kept = Vec::with_capacity(plans.len());
                let mut changed = Vec::new();
                for (plan, code) in plans.drain(..).zip(reasons) {
                    match code {
                        CancellationCode::ConditionalCheckFailed => changed.push(plan),
                        CancellationCode::None => kept.push(plan),
                        code if code.is_retryable() => kept.push(plan),
                        _ => return Err(err),
                    }
                }
                plans = kept;
                // Changed since read: each re-read and rewritten alone.
                for plan in changed {
                    retries += 1;
                    let mut one = 0u32;
                    let now =
                        reread(client, table, &plan.key, retry, &mut jitter, &mut one).await?;
                    let mut outcome = match now {
                        Some(item) => rewrite::<E>(client, table, retry, pace, item).await?,
                        None => Done {
                            outcome: Outcome::Gone,
                            retries: 0,
                        },
                    };
                    outcome.retries += one + 1;
                    done.push(outcome);
                }
                if throttled || plans.is_empty() {
                    if !plans.is_empty() {
                        backoff(client, retry, &mut jitter, &mut retries, started, err).await?;
                    }
                } else {
                    retries += 1;
                }
            }
            _ => {
                if err.is_throttled() {
                    permit.throttled();
                }
                drop(permit);
                backoff(client, retry, &mut jitter, &mut retries, started, err).await?;
            }
        }
    }
    // One left (or a group of one): the single update's path.
    for plan in plans {
        let mut outcome = rewrite::<E>(client, table, retry, pace, plan.stored).await?;
        outcome.retries += retries;
        done.push(outcome);
    }
    Ok(done)
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
fn plan<E: Entity>(stored: &Item) -> Result<Option<Plan>> {
    let schema = E::Table::SCHEMA;
    if type_tag(stored, &schema) != Some(E::TYPE_TAG) {
        // Its type changed since the scan read it: not ours to rewrite.
        return Ok(None);
    }
    // Stored index keys are not checked: they are what may be stale.
    let (value, _) = decode_stored::<E>(stored.clone())?;
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
                at: at(stored, &schema),
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
    let mut p = Placeholders::default();
    let mut sets = Vec::new();
    for (name, value) in &target {
        if key.contains_key(name) || stored.get(name) == Some(value) {
            continue;
        }
        let (n, v) = (p.name(name), p.value(value.clone()));
        sets.push(format!("{n} = {v}"));
    }
    // What a put of the value would not store: gone from the item. The
    // write token is the library's and stays.
    let removes: Vec<String> = stored
        .keys()
        .filter(|name| {
            !target.contains_key(*name)
                && !schema.is_token_attribute(name)
                && !key.contains_key(*name)
        })
        .map(|name| p.name(name))
        .collect();
    if sets.is_empty() && removes.is_empty() {
        return Ok(None);
    }
    let mut expression = String::new();
    if !sets.is_empty() {
        expression = format!("SET {}", sets.join(", "));
    }
    if !removes.is_empty() {
        if !expression.is_empty() {
            expression.push(' ');
        }
        expression.push_str(&format!("REMOVE {}", removes.join(", ")));
    }
    let condition = unchanged::<E>(stored, &schema, &mut p);
    if condition.len() > MAX_EXPRESSION || expression.len() > MAX_EXPRESSION {
        return Err(Repr::InvalidExpression {
            what: format!("the backfill of {} at {}", E::RUST_NAME, at(stored, &schema)),
            reason: format!(
                "its 'unchanged since read' condition compares every attribute and is {} bytes, over DynamoDB's {MAX_EXPRESSION}; declare an optimistic-locking version on the entity (#[entity(version = \"…\")]) so the condition is the version alone",
                condition.len()
            ),
        }
        .into());
    }
    let units = (item_size(&target).max(1) as f64 / 1024.0).ceil();
    Ok(Some(Plan {
        stored: stored.clone(),
        units,
        key,
        expression,
        condition,
        placeholders: p,
    }))
}

/// "Unchanged since read": the version alone when the entity has one and
/// the item carries it (every write through the library moves it);
/// otherwise every attribute read still holds its value, and every
/// attribute the entity or the table could add is still absent.
fn unchanged<E: Entity>(stored: &Item, schema: &TableSchema, p: &mut Placeholders) -> String {
    let pk = p.name(schema.primary.partition_key);
    let mut clauses = vec![format!("attribute_exists({pk})")];
    if let Some(version) = E::VERSION_ATTRIBUTE
        && let Some(value) = stored.get(version)
    {
        let tag = stored.get(schema.type_attribute).cloned();
        for (name, value) in [(version, Some(value.clone())), (schema.type_attribute, tag)] {
            if let Some(value) = value {
                let (n, v) = (p.name(name), p.value(value));
                clauses.push(format!("{n} = {v}"));
            }
        }
        return clauses.join(" AND ");
    }
    let primary = [Some(schema.primary.partition_key), schema.primary.sort_key];
    for (name, value) in stored {
        if primary.contains(&Some(name.as_str())) {
            continue;
        }
        let (n, v) = (p.name(name), p.value(value.clone()));
        clauses.push(format!("{n} = {v}"));
    }
    let index_keys = schema
        .indexes
        .iter()
        .flat_map(|index| std::iter::once(index.keys.partition_key).chain(index.keys.sort_key));
    let could_appear = E::STORED_ATTRIBUTES
        .iter()
        .copied()
        .chain(index_keys)
        .chain([schema.token_attribute, SCHEMA_VERSION_ATTRIBUTE]);
    let mut absent: Vec<&str> = Vec::new();
    for name in could_appear {
        if !stored.contains_key(name) && !absent.contains(&name) {
            absent.push(name);
            clauses.push(format!("attribute_not_exists({})", p.name(name)));
        }
    }
    clauses.join(" AND ")
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
