//! A job's conditioned writes sent up to 25 at a time as PartiQL
//! statements in one BatchExecuteStatement: each statement is a write of
//! its own (not a transaction), charged as the UpdateItem or PutItem it
//! stands for, and refused on its own when its condition fails. Fewer
//! requests at the same write units; it needs the `dynamodb:PartiQLUpdate`
//! (backfill) or `dynamodb:PartiQLInsert` (migration) permission.
//!
//! Anything a statement cannot say, or a statement the server refuses for
//! any reason but its condition, goes through the single write's path
//! (UpdateItem, PutItem), which is the authority on errors.

use std::time::Instant;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{
    AttributeValue, BatchStatementErrorCodeEnum as Code, BatchStatementRequest,
};

use super::pace::Gate;
use super::rewrite::{Clause, Done, Outcome, Plan, plans, rewrite, rewrite_changed};
use super::scan::{backoff, pause_within};
use crate::batch::{BatchRetry, Jitter};
use crate::entity::Entity;
use crate::error::{Error, Result};
use crate::item::Item;

/// DynamoDB's most statements in one BatchExecuteStatement.
pub(crate) const MAX_STATEMENTS: usize = 25;

/// DynamoDB's longest statement, in characters.
const MAX_STATEMENT: usize = 8192;

/// One statement to send, what it is for, and its estimated write units.
pub(crate) struct Statement<T> {
    pub(crate) what: T,
    pub(crate) request: BatchStatementRequest,
    pub(crate) units: f64,
}

/// How the server settled one statement, throttles retried.
pub(crate) enum Answer {
    Applied,
    /// Refused with this code: a failed condition, a duplicate insert, or
    /// anything the single write's path must settle (a refusal it also
    /// meets is then its typed error).
    Refused(Code),
    /// Not sent: the segment's lease may have passed to another worker.
    Fenced,
}

/// Sends `statements` (at most [`MAX_STATEMENTS`], distinct items) in one
/// BatchExecuteStatement, and again those the server throttled or failed
/// transiently (each statement is conditioned on what its item was, so a
/// resend after an unknown outcome is refused rather than applied twice),
/// with the job's backoff. Returns each statement's answer and the
/// requests that were resends; statements still throttled when the budget
/// is spent come back refused, for the single write's path to settle.
pub(crate) async fn execute<T>(
    client: &Client,
    table: &str,
    retry: &BatchRetry,
    gate: Gate<'_>,
    mut pending: Vec<Statement<T>>,
) -> Result<(Vec<(T, Answer)>, u32)> {
    let started = Instant::now();
    let mut jitter = Jitter::new(pending.len() as u64);
    let mut retries = 0u32;
    let mut answers = Vec::with_capacity(pending.len());
    while !pending.is_empty() {
        let Some(permit) = gate.admit(client, pending.len()).await else {
            answers.extend(pending.drain(..).map(|s| (s.what, Answer::Fenced)));
            break;
        };
        let requests = pending.iter().map(|s| s.request.clone()).collect();
        let response = client
            .batch_execute_statement()
            .set_statements(Some(requests))
            .return_consumed_capacity(permit.consumed_capacity())
            .send()
            .await;
        let output = match response {
            Ok(output) => output,
            Err(err) => {
                let err = Error::service("BatchExecuteStatement", table, err);
                if err.is_throttled() {
                    permit.throttled();
                }
                drop(permit);
                backoff(client, retry, &mut jitter, &mut retries, started, err).await?;
                continue;
            }
        };
        let responses = output.responses();
        if responses.len() != pending.len() {
            // Not an answer per statement: settle each on its own.
            answers.extend(
                pending
                    .drain(..)
                    .map(|s| (s.what, Answer::Refused(Code::InternalServerError))),
            );
            break;
        }
        let mut again = Vec::new();
        let mut throttled = false;
        let mut applied_units = 0.0;
        let codes: Vec<Option<Code>> = responses
            .iter()
            .map(|r| r.error().and_then(|e| e.code()).cloned())
            .collect();
        for (statement, code) in pending.drain(..).zip(codes) {
            match code {
                None => {
                    applied_units += statement.units;
                    answers.push((statement.what, Answer::Applied));
                }
                Some(
                    code @ (Code::ProvisionedThroughputExceeded
                    | Code::ThrottlingError
                    | Code::RequestLimitExceeded),
                ) => {
                    throttled = true;
                    again.push((statement, code));
                }
                Some(code @ (Code::TransactionConflict | Code::InternalServerError)) => {
                    again.push((statement, code));
                }
                Some(code) => answers.push((statement.what, Answer::Refused(code))),
            }
        }
        let spent = output
            .consumed_capacity()
            .iter()
            .filter_map(|c| c.capacity_units())
            .reduce(|a, b| a + b);
        permit.succeeded(spent, applied_units);
        if throttled {
            permit.throttled();
        }
        drop(permit);
        if again.is_empty() {
            break;
        }
        if pause_within(client, retry, &mut jitter, &mut retries, started).await {
            pending = again.into_iter().map(|(statement, _)| statement).collect();
        } else {
            answers.extend(
                again
                    .into_iter()
                    .map(|(statement, code)| (statement.what, Answer::Refused(code))),
            );
        }
    }
    Ok((answers, retries))
}

/// Rewrites `items` (distinct `E`s as read) like [`rewrite`], their
/// updates sent as PartiQL UPDATE statements, up to [`MAX_STATEMENTS`] in
/// one request, each with its own "unchanged since read" in its WHERE
/// clause. An item whose statement's condition failed is re-read and
/// rewritten alone; one the statements cannot say, or the server refused
/// for another reason, goes through [`rewrite`].
pub(crate) async fn rewrite_statements<E: Entity>(
    client: &Client,
    table: &str,
    retry: &BatchRetry,
    gate: Gate<'_>,
    items: Vec<Item>,
) -> Result<Vec<Done>> {
    let (plans, mut done) = plans::<E>(items)?;
    let mut alone = Vec::new();
    let mut statements = Vec::with_capacity(plans.len());
    for plan in plans {
        match update(table, &plan) {
            Some(request) => statements.push(Statement {
                units: plan.units,
                what: plan,
                request,
            }),
            None => alone.push(plan),
        }
    }
    if statements.len() == 1 {
        alone.extend(statements.drain(..).map(|s| s.what));
    }
    let (answers, retries) = if statements.is_empty() {
        (Vec::new(), 0)
    } else {
        execute(client, table, retry, gate, statements).await?
    };
    for (plan, answer) in answers {
        match answer {
            Answer::Applied => done.push(Done {
                outcome: Outcome::Updated,
                retries,
            }),
            Answer::Refused(Code::ConditionalCheckFailed) => {
                done.push(rewrite_changed::<E>(client, table, retry, gate, &plan.key).await?);
            }
            Answer::Fenced => done.push(Done {
                outcome: Outcome::Fenced,
                retries,
            }),
            Answer::Refused(code) => {
                tracing::debug!(
                    code = code.as_str(),
                    "statement refused; UpdateItem instead"
                );
                alone.push(plan);
            }
        }
    }
    for plan in alone {
        done.push(rewrite::<E>(client, table, retry, gate, plan.stored).await?);
    }
    Ok(done)
}

/// `plan` as a PartiQL UPDATE: `SET "a" = ? … REMOVE "b" … WHERE` the key
/// and every clause of "unchanged since read"; `None` when an attribute
/// name cannot be written as a quoted identifier or the statement is too
/// long.
fn update(table: &str, plan: &Plan) -> Option<BatchStatementRequest> {
    let mut text = format!("UPDATE {}", quoted(table)?);
    let mut parameters: Vec<AttributeValue> = Vec::new();
    for (name, value) in &plan.sets {
        text.push_str(&format!(" SET {} = ?", quoted(name)?));
        parameters.push(value.clone());
    }
    for name in &plan.removes {
        text.push_str(&format!(" REMOVE {}", quoted(name)?));
    }
    let mut clauses = Vec::new();
    for (name, value) in &plan.key {
        clauses.push(format!("{} = ?", quoted(name)?));
        parameters.push(value.clone());
    }
    for clause in &plan.unchanged {
        match clause {
            // An UPDATE of an item that does not exist fails its condition.
            Clause::Exists(_) => {}
            Clause::Equals(name, value) => {
                clauses.push(format!("{} = ?", quoted(name)?));
                parameters.push(value.clone());
            }
            Clause::Absent(name) => clauses.push(format!("{} IS MISSING", quoted(name)?)),
        }
    }
    text.push_str(" WHERE ");
    text.push_str(&clauses.join(" AND "));
    request(text, parameters)
}

/// `item` as a PartiQL INSERT, which DynamoDB refuses (`DuplicateItem`)
/// when an item has its key: the migration's create-only write. `None`
/// when an attribute name cannot be written as a string literal or the
/// statement is too long.
pub(crate) fn insert(table: &str, item: &Item) -> Option<BatchStatementRequest> {
    let mut names: Vec<&String> = item.keys().collect();
    names.sort();
    let mut fields = Vec::with_capacity(names.len());
    let mut parameters = Vec::with_capacity(names.len());
    for name in names {
        if name.contains(['\'', '"']) || name.chars().any(char::is_control) {
            return None;
        }
        fields.push(format!("'{name}': ?"));
        parameters.push(item[name].clone());
    }
    let text = format!(
        "INSERT INTO {} VALUE {{{}}}",
        quoted(table)?,
        fields.join(", ")
    );
    request(text, parameters)
}

/// A double-quoted identifier: one attribute whatever it holds, except a
/// double quote or a control character, which are not written here.
fn quoted(name: &str) -> Option<String> {
    if name.is_empty() || name.contains('"') || name.chars().any(char::is_control) {
        return None;
    }
    Some(format!("\"{name}\""))
}

fn request(text: String, parameters: Vec<AttributeValue>) -> Option<BatchStatementRequest> {
    if text.chars().count() > MAX_STATEMENT {
        return None;
    }
    BatchStatementRequest::builder()
        .statement(text)
        .set_parameters((!parameters.is_empty()).then_some(parameters))
        .build()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> AttributeValue {
        AttributeValue::S(text.to_owned())
    }

    #[test]
    fn an_insert_names_every_attribute_once_in_a_stable_order() {
        let item = Item::from([
            ("SK".to_owned(), s("PROFILE")),
            ("PK".to_owned(), s("USER#1")),
            ("name".to_owned(), s("Ada")),
        ]);
        let request = insert("app", &item).unwrap();
        assert_eq!(
            request.statement(),
            "INSERT INTO \"app\" VALUE {'PK': ?, 'SK': ?, 'name': ?}"
        );
        assert_eq!(request.parameters(), &[s("USER#1"), s("PROFILE"), s("Ada")]);
    }

    #[test]
    fn names_a_statement_cannot_quote_are_left_to_the_single_write() {
        let item = Item::from([("it's".to_owned(), s("x"))]);
        assert!(insert("app", &item).is_none());
        assert!(quoted("say \"hi\"").is_none());
        assert!(quoted("").is_none());
        assert_eq!(quoted("a.b").as_deref(), Some("\"a.b\""));
        let long = Item::from([("a".repeat(MAX_STATEMENT), s("x"))]);
        assert!(insert("app", &long).is_none());
    }
}
