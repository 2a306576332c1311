//! UpdateItem: typed set / remove / add on fields, with the key attributes
//! of every index those fields feed rewritten in the same request.

use std::any::Any;
use std::fmt::Write as _;
use std::time::SystemTime;

use aws_sdk_dynamodb::types::{AttributeValue, ReturnValue, ReturnValuesOnConditionCheckFailure};
use serde::Serialize;
use tracing::Instrument;

use super::attempts::Attempts;
use super::failure::{self, condition_failure, is_ambiguous, read_stored, stored_after_failure};
use super::token::WriteToken;
use crate::db::Db;
use crate::entity::{
    Action, Addable, Change, Changes, Entity, Field, IndexChange, Key, Settable, Versioned,
    check_index_key,
};
use crate::error::{Error, Repr, Result};
use crate::expr::version::{self, Expected};
use crate::expr::{Condition, Placeholders};
use crate::future::into_future;
use crate::item::{Item, size};
use crate::table::Table;

/// Changes one stored entity in place (UpdateItem) and returns it as it is
/// afterwards. Made by [`Db::update`].
///
/// Only fields are named, never attributes, and values have the field's
/// type. When a changed field feeds an index key template, the index's key
/// attributes are recomputed and written in the same request; an `Option`
/// hole set to `None` removes them (the item leaves the sparse index). An
/// update that cannot recompute a key it touches — because another field of
/// the same template is not part of the update — is refused before sending,
/// naming that field. A field of the primary key cannot be changed: that is
/// a different item (delete it and put the new one).
///
/// The item must exist and be of `E`'s type: updating a missing key is
/// [`Error::is_not_found`], never a half-written item, and an item of
/// another type at the key is left untouched
/// ([`ErrorKind::WrongType`](crate::ErrorKind::WrongType)). Values DynamoDB
/// cannot store (a NaN, an infinity, a number beyond its range) are refused
/// before sending, naming the field. An update whose item cannot be decoded
/// afterwards (an ill-typed field written by other code) was applied: it
/// fails with [`ErrorKind::DecodeAfterWrite`](crate::ErrorKind::DecodeAfterWrite),
/// not retryable. Resending an update is safe (see [`Update::send`]).
#[must_use = "nothing happens until you call `.send().await` (or `.await`)"]
pub struct Update<'db, E: Entity> {
    db: &'db Db<E::Table>,
    key: Key<E>,
    changes: Changes,
    condition: Option<Condition<E>>,
    expected_version: Option<u64>,
    error: Option<Error>,
    token: Option<String>,
}

impl<T: Table> Db<T> {
    /// Starts an update of the entity with this key.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "TICKET#{id}", sk = "TICKET")]
    /// #[entity(index = Gsi1, pk = "OPEN", sk = "{opened:8}")] // sparse: opened is an Option
    /// struct Ticket { id: u64, subject: String, opened: Option<u32>, replies: u32 }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// db.put(&Ticket { id: 1, subject: "late".into(), opened: Some(20260301), replies: 0 }).await?;
    /// let fields = Ticket::fields();
    /// let closed = db
    ///     .update(Ticket::key(1)?)
    ///     .set(fields.subject, "late parcel".to_owned())
    ///     .add(fields.replies, 1)
    ///     .remove(fields.opened) // also REMOVEs GSI1PK/GSI1SK: closed tickets leave the index
    ///     .await?;
    /// assert_eq!((closed.subject.as_str(), closed.replies, closed.opened), ("late parcel", 1, None));
    /// # Ok(())
    /// # }
    /// ```
    pub fn update<E: Entity<Table = T>>(&self, key: Key<E>) -> Update<'_, E> {
        Update {
            db: self,
            key,
            changes: Changes::default(),
            condition: None,
            expected_version: None,
            error: None,
            token: None,
        }
    }
}

impl<'db, E: Entity> Update<'db, E> {
    fn push<T: Serialize + Send + Sync + 'static, R>(
        mut self,
        field: Field<E, T, R>,
        action: impl FnOnce(AttributeValue) -> Action,
        value: Option<T>,
    ) -> Self {
        if self.error.is_some() {
            return self;
        }
        let attribute = match &value {
            Some(value) => match crate::codec::to_attribute_value(value) {
                Ok(attribute) => Some(attribute),
                Err(err) => {
                    self.error = Some(
                        Repr::Encode {
                            entity: E::RUST_NAME,
                            source: Box::new(err.at_key(field.attribute())),
                        }
                        .into(),
                    );
                    return self;
                }
            },
            None => None,
        };
        let action = match attribute {
            // `None` is no attribute (see `Entity::to_item`), not NULL.
            Some(AttributeValue::Null(true)) | None => Action::Remove,
            Some(attribute) => action(attribute),
        };
        self.changes.entries.push(Change {
            field: field.name(),
            attribute: field.attribute(),
            action,
            value: value.map(|v| Box::new(v) as Box<dyn Any + Send + Sync>),
        });
        self
    }

    /// `field = value`. A field of an index key template moves the index
    /// key with it; a primary-key field cannot be set (a compile error).
    pub fn set<T: Serialize + Send + Sync + 'static, R: Settable>(
        self,
        field: Field<E, T, R>,
        value: T,
    ) -> Self {
        self.push(field, Action::Set, Some(value))
    }

    /// `field = None`, by removing the attribute (and the key attributes of
    /// every sparse index it feeds).
    pub fn remove<T: Serialize + Send + Sync + 'static, R: Settable>(
        self,
        field: Field<E, Option<T>, R>,
    ) -> Self {
        self.push(field, Action::Set, None)
    }

    /// `field = field + amount`, atomically on the server. Only fields in no
    /// key template can be added to (a compile error otherwise): a key's new
    /// value would be unknown before the update.
    pub fn add<T, R: Addable>(self, field: Field<E, T, R>, amount: T) -> Self
    where
        T: Serialize + Send + Sync + Copy + std::ops::Add<Output = T> + 'static,
    {
        self.push(field, Action::Add, Some(amount))
    }

    /// Update only if `condition` holds for the stored item (else
    /// [`Error::is_condition_failed`]; a missing item stays
    /// [`Error::is_not_found`]).
    pub fn condition(mut self, condition: Condition<E>) -> Self {
        self.condition = Condition::both(self.condition.take(), Some(condition));
        self
    }
}

impl<E: Versioned> Update<'_, E> {
    /// Update only if the stored version is `version`; else
    /// [`Error::is_version_conflict`]. Every update of a versioned entity
    /// increments its version, checked or not. Only a
    /// [`Versioned`] entity (`#[entity(version = "…")]`) has a version to
    /// expect:
    ///
    /// ```compile_fail
    /// # use ddb_entity::{Db, Entity};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// struct Customer { id: u64, name: String }
    ///
    /// fn rename(db: &Db<App>) -> ddb_entity::Result<()> {
    ///     let _ = db.update(Customer::key(1)?).set(Customer::fields().name, "Ada".into()).expect_version(3);
    ///     Ok(())
    /// }
    /// ```
    pub fn expect_version(mut self, version: u64) -> Self {
        self.expected_version = Some(version);
        self
    }
}

impl<'db, E: Entity> Update<'db, E> {
    /// The write token of this update (1 to 36 characters; by default a
    /// fresh random one per call), for an update you may send again **as a
    /// new call** — after a crash, or after [`Error::is_retryable`] with
    /// the outcome unknown: the new call, with the same token, finds its
    /// token stored, applies nothing and returns the entity as stored. Use
    /// one token per logical change (a request id): a token reused for
    /// another change makes that change look done. In a transaction, the
    /// transaction's token is used instead
    /// ([`Transaction::idempotency_token`](crate::op::Transaction::idempotency_token)).
    pub fn idempotency_token(mut self, token: impl Into<String>) -> Self {
        self.token = Some(token.into());
        self
    }

    /// Sends the UpdateItem and returns the entity as stored afterwards.
    ///
    /// **Retrying.** Every update stores a write token and is conditioned
    /// on the stored token not being its own, so a resend of an applied
    /// update — the SDK's retries, or a new call with the same
    /// [`idempotency_token`](Update::idempotency_token) — applies nothing
    /// and returns the entity as stored: an `add` is added once. If every
    /// attempt lost its answer, one consistent read decides. What is not
    /// covered: another writer's write to the item between the applied
    /// attempt and the resend replaces the token, and the resend then
    /// applies again.
    pub async fn send(self) -> Result<E> {
        let table = self.db.table_name();
        let span = tracing::info_span!(
            "ddb.update",
            table,
            entity = E::RUST_NAME,
            fields = self.changes.entries.len()
        );
        async move {
            let (db, key, parts) = self.into_parts();
            let parts = parts?;
            let attempts = Attempts::default();
            let response = db
                .client()
                .update_item()
                .table_name(table)
                .set_key(Some(key.to_attributes()))
                .update_expression(parts.update)
                .condition_expression(parts.condition)
                .set_expression_attribute_names(parts.placeholders.names_or_none())
                .set_expression_attribute_values(parts.placeholders.values_or_none())
                .return_values(ReturnValue::AllNew)
                // Tells "no such item", "another type", "stale version" and
                // "my own earlier attempt" from "your condition failed".
                .return_values_on_condition_check_failure(
                    ReturnValuesOnConditionCheckFailure::AllOld,
                )
                .customize()
                .interceptor(attempts.clone())
                .send()
                .await;
            let err = match response {
                Ok(output) => return decode_applied(&key, output.attributes.unwrap_or_default()),
                Err(err) => err,
            };
            let client = db.client();
            let schema = E::Table::SCHEMA;
            let Some(returned) = condition_failure(&err) else {
                // No answer, or a server error: it may have been applied.
                if attempts.ambiguous() || is_ambiguous(&err) {
                    let stored = read_stored(client, table, key.to_attributes()).await;
                    if let Ok(Some(item)) = stored
                        && parts.token.is_in(&item, schema.token_attribute)
                    {
                        return decode_applied(&key, item);
                    }
                }
                return Err(Error::service("UpdateItem", table, err));
            };
            let stored = stored_after_failure(client, table, key.to_attributes(), returned).await?;
            let Some(stored) = stored else {
                let (partition, sort) = key.into_parts();
                return Err(Repr::NotFound {
                    entity: E::RUST_NAME,
                    partition,
                    sort,
                }
                .into());
            };
            if parts.token.is_in(&stored, schema.token_attribute) {
                // An earlier attempt of this call was applied.
                return decode_applied(&key, stored);
            }
            let at = (key.partition(), key.sort());
            if let Some(foreign) = failure::foreign::<E>(&schema, "update", at, Some(&stored)) {
                return Err(foreign);
            }
            match parts
                .version
                .and_then(|v| v.conflict(E::RUST_NAME, Some(&stored)))
            {
                Some(conflict) => Err(conflict),
                None => Err(Error::service("UpdateItem", table, err)),
            }
        }
        .instrument(span)
        .await
    }

    /// The table, the key, and the parts of the UpdateItem (or why they
    /// cannot be built): shared by [`send`](Update::send) and transactions,
    /// which give their own token.
    pub(crate) fn into_parts(mut self) -> (&'db Db<E::Table>, Key<E>, Result<UpdateParts>) {
        let token = WriteToken::given_or_generated(self.token.take());
        self.into_parts_with(token)
    }

    /// [`into_parts`](Update::into_parts) with the token of a transaction.
    pub(crate) fn into_parts_with(
        self,
        token: Result<WriteToken>,
    ) -> (&'db Db<E::Table>, Key<E>, Result<UpdateParts>) {
        let parts = token.and_then(|token| {
            parts(
                self.db.now(),
                &self.key,
                self.changes,
                self.condition,
                self.expected_version,
                self.error,
                token,
            )
        });
        (self.db, self.key, parts)
    }
}

/// The entity an applied update left: an item that does not decode is
/// reported as applied, so nobody sends the update again as a new call.
fn decode_applied<E: Entity>(key: &Key<E>, item: Item) -> Result<E> {
    crate::entity::convert::from_item_by_key(item).map_err(|source| {
        Repr::DecodeAfterWrite {
            operation: "update",
            entity: E::RUST_NAME,
            partition: key.partition().to_owned(),
            sort: key.sort().to_owned(),
            source,
        }
        .into()
    })
}

/// The parts of one UpdateItem, shared by [`Update`] and transactions.
pub(crate) struct UpdateParts {
    /// The SET / REMOVE / ADD expression, index keys, version and write
    /// token included.
    pub(crate) update: String,
    /// "The item is of this type", "not written by this call yet", the
    /// version check and the caller's condition, joined by AND.
    pub(crate) condition: String,
    pub(crate) placeholders: Placeholders,
    /// The version the update expects stored, when it checks one.
    pub(crate) version: Option<Expected>,
    /// The write token the update stores.
    pub(crate) token: WriteToken,
}

/// Builds the parts of an update of the item at `key`: the changes, the
/// index keys they move, a versioned entity's version increment, the write
/// token, and the condition. `error` is the first mistake the builder
/// recorded.
fn parts<E: Entity>(
    now: SystemTime,
    key: &Key<E>,
    mut changes: Changes,
    extra: Option<Condition<E>>,
    expected_version: Option<u64>,
    error: Option<Error>,
    token: WriteToken,
) -> Result<UpdateParts> {
    if let Some(error) = error {
        return Err(error);
    }
    if changes.entries.is_empty() {
        return Err(Repr::EmptyUpdate {
            entity: E::RUST_NAME,
        }
        .into());
    }
    // Values DynamoDB cannot store, in a `set`, an `add` or a list element,
    // are refused before sending, naming the field.
    for change in &changes.entries {
        if let Action::Set(value) | Action::Add(value) = &change.action {
            size::check_value(E::RUST_NAME, change.attribute, value)?;
        }
    }
    let index_changes = E::index_changes(key, &changes)?;
    for change in &index_changes {
        if let IndexChange::Set(index, index_key) = change {
            check_index_key(E::RUST_NAME, index, index_key)?;
        }
    }
    let schema = E::Table::SCHEMA;
    // The item must exist and be of this type (an item of another type at
    // the key is left untouched), and not yet carry this call's token (a
    // replay of an applied update fails here, and is recognised).
    let mut condition = Condition::<E>::is_of_type().and(Condition::token_is_not(token.as_str()));
    let expected = version::expected::<E>(expected_version);
    if let Some(attribute) = E::VERSION_ATTRIBUTE {
        // Every update of a versioned entity increments its version.
        changes.entries.push(Change {
            field: attribute,
            attribute,
            action: Action::Add(version::number(1)),
            value: None,
        });
    }
    if let Some((attribute, now)) = E::updated_at(now)? {
        // A maintained `updated_at` follows every update the caller does
        // not set it in.
        if !changes
            .entries
            .iter()
            .any(|change| change.attribute == attribute)
        {
            changes.entries.push(Change {
                field: attribute,
                attribute,
                action: Action::Set(now),
                value: None,
            });
        }
    }
    changes.entries.push(Change {
        field: schema.token_attribute,
        attribute: schema.token_attribute,
        action: Action::Set(token.value()),
        value: None,
    });
    if let Some(expected) = expected {
        condition = condition.and(version::expect::<E>(expected.attribute, expected.version));
    }
    let mut placeholders = Placeholders::default();
    let update = update_expression(&changes, &index_changes, &mut placeholders);
    if let Some(extra) = extra {
        condition = condition.and(extra);
    }
    let condition = condition.render(&mut placeholders)?;
    Ok(UpdateParts {
        update,
        condition,
        placeholders,
        version: expected,
        token,
    })
}

/// The `UPDATE` expression: SET, REMOVE and ADD clauses for the changes
/// and the index keys they move.
fn update_expression(
    changes: &Changes,
    index_changes: &[IndexChange],
    p: &mut Placeholders,
) -> String {
    let (mut set, mut remove, mut add) = (Vec::new(), Vec::new(), Vec::new());
    for change in &changes.entries {
        let n = p.name(change.attribute);
        match &change.action {
            Action::Set(v) => set.push(format!("{n} = {}", p.value(v.clone()))),
            Action::Remove => remove.push(n),
            Action::Add(v) => add.push(format!("{n} {}", p.value(v.clone()))),
        }
    }
    // An index key attribute the update sets as a field (a raw key:
    // `pk = field`) moves with that field's own SET or REMOVE.
    let changed = |attribute: &str| changes.entries.iter().any(|c| c.attribute == attribute);
    for change in index_changes {
        match change {
            IndexChange::Set(index, key) => {
                if !changed(index.keys.partition_key) {
                    let pk = p.name(index.keys.partition_key);
                    set.push(format!(
                        "{pk} = {}",
                        p.value(AttributeValue::S(key.partition.clone()))
                    ));
                }
                if let (Some(attribute), Some(sort)) = (index.keys.sort_key, &key.sort)
                    && !changed(attribute)
                {
                    let sk = p.name(attribute);
                    set.push(format!(
                        "{sk} = {}",
                        p.value(AttributeValue::S(sort.clone()))
                    ));
                }
            }
            IndexChange::Remove(index) => {
                for attribute in std::iter::once(index.keys.partition_key)
                    .chain(index.keys.sort_key)
                    .filter(|attribute| !changed(attribute))
                {
                    remove.push(p.name(attribute));
                }
            }
        }
    }
    let mut update = String::new();
    for (keyword, clauses) in [("SET", set), ("REMOVE", remove), ("ADD", add)] {
        if !clauses.is_empty() {
            let separator = if update.is_empty() { "" } else { " " };
            let _ = write!(update, "{separator}{keyword} {}", clauses.join(", "));
        }
    }
    update
}

into_future!(['db, E: Entity] Update<'db, E> => E);
