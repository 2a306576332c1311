//! A group of a backfill's updates in one TransactWriteItems: fewer
//! requests, for twice the write units on AWS.

use std::time::Instant;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use aws_sdk_dynamodb::types::{TransactWriteItem, Update};

use super::pace::Gate;
use super::rewrite::{Done, Outcome, Plan, plans, rewrite, rewrite_changed};
use super::scan::backoff;
use crate::batch::{BatchRetry, Jitter};
use crate::entity::Entity;
use crate::error::{CancellationCode, Error, Repr, Result};
use crate::item::Item;

/// DynamoDB's most actions in one TransactWriteItems.
pub(crate) const MAX_GROUP: usize = 100;

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
    gate: Gate<'_>,
    items: Vec<Item>,
) -> Result<Vec<Done>> {
    let (mut plans, mut done) = plans::<E>(items)?;
    let started = Instant::now();
    let mut jitter = Jitter::new(plans.len() as u64);
    let mut retries = 0u32;
    while plans.len() > 1 {
        let actions = plans
            .iter()
            .map(|plan| action(table, plan))
            .collect::<Result<Vec<_>>>()?;
        let Some(permit) = gate.admit(client, plans.len()).await else {
            done.extend(plans.drain(..).map(|_| Done {
                outcome: Outcome::Fenced,
                retries,
            }));
            return Ok(done);
        };
        let response = client
            .transact_write_items()
            .set_transact_items(Some(actions))
            .return_consumed_capacity(permit.consumed_capacity())
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
                    done.push(rewrite_changed::<E>(client, table, retry, gate, &plan.key).await?);
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
        let mut outcome = rewrite::<E>(client, table, retry, gate, plan.stored).await?;
        outcome.retries += retries;
        done.push(outcome);
    }
    Ok(done)
}

/// A plan as one action of a transaction.
fn action(table: &str, plan: &Plan) -> Result<TransactWriteItem> {
    let form = plan.update_item()?;
    let update = Update::builder()
        .table_name(table)
        .set_key(Some(plan.key.clone()))
        .update_expression(form.expression)
        .condition_expression(form.condition)
        .set_expression_attribute_names(form.placeholders.names_or_none())
        .set_expression_attribute_values(form.placeholders.values_or_none())
        .build()
        .map_err(|err| -> Error {
            Repr::RequestBuild {
                what: "backfill transaction action",
                source: Box::new(err),
            }
            .into()
        })?;
    Ok(TransactWriteItem::builder().update(update).build())
}
