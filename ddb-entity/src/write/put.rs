//! PutItem: upsert an entity, or create it only if its key is free.

use std::time::SystemTime;

use aws_sdk_dynamodb::types::ReturnValuesOnConditionCheckFailure;
use tracing::Instrument;

use super::failure::condition_failure;
use crate::db::Db;
use crate::entity::Entity;
use crate::entity::convert;
use crate::error::{Error, Repr, Result};
use crate::expr::version::{self, Expected};
use crate::expr::{Condition, Placeholders};
use crate::future::into_future;
use crate::item::{Item, size};
use crate::table::Table;

/// Writes one entity (PutItem). Made by [`Db::put`] (replace whatever has
/// the key) or [`Db::create`] (fail if something has it).
///
/// An entity with a version (`#[entity(version = "…")]`) is written only
/// over the version it holds (or, at version 0, only where no item is), and
/// stored with the next version; a stale one is
/// [`Error::is_version_conflict`].
/// The value you passed keeps its old version: read the entity again (or
/// increment the field) before writing it once more.
#[must_use = "nothing happens until you call `.send().await` (or `.await`)"]
pub struct Put<'db, 'e, E: Entity> {
    db: &'db Db<E::Table>,
    entity: &'e E,
    only_if_new: bool,
    condition: Option<Condition<E>>,
}

impl<T: Table> Db<T> {
    /// Writes `entity`, replacing any item with the same key (an upsert).
    /// The item is the entity's serde body plus its key attributes, its type
    /// attribute and the key attributes of every index it belongs to.
    pub fn put<'e, E: Entity<Table = T>>(&self, entity: &'e E) -> Put<'_, 'e, E> {
        Put {
            db: self,
            entity,
            only_if_new: false,
            condition: None,
        }
    }

    /// Writes `entity` only if no item has its key yet; otherwise fails with
    /// an error for which [`Error::is_already_exists`] (and
    /// [`Error::is_condition_failed`]) is true, and nothing is written.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "USER#{email}", sk = "PROFILE")]
    /// struct User { email: String }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// let ada = User { email: "ada@example.com".into() };
    /// db.create(&ada).await?;
    /// let again = db.create(&ada).await.unwrap_err();
    /// assert!(again.is_already_exists());
    /// # Ok(())
    /// # }
    /// ```
    pub fn create<'e, E: Entity<Table = T>>(&self, entity: &'e E) -> Put<'_, 'e, E> {
        Put {
            db: self,
            entity,
            only_if_new: true,
            condition: None,
        }
    }
}

impl<'db, 'e, E: Entity> Put<'db, 'e, E> {
    /// Write only if `condition` holds for the item stored under the key
    /// (else [`Error::is_condition_failed`]).
    pub fn condition(mut self, condition: Condition<E>) -> Self {
        self.condition = Condition::both(self.condition.take(), Some(condition));
        self
    }

    /// Sends the PutItem.
    pub async fn send(self) -> Result<()> {
        let table = self.db.table_name();
        let operation = if self.only_if_new { "create" } else { "put" };
        let span = tracing::info_span!("ddb.put", table, entity = E::RUST_NAME, operation);
        async move {
            let user_condition = self.condition.is_some();
            let parts = parts(self.db.now(), self.entity, self.only_if_new, self.condition)?;
            let request = self
                .db
                .client()
                .put_item()
                .table_name(table)
                .set_item(Some(parts.item))
                .set_condition_expression(parts.condition)
                .set_expression_attribute_names(parts.placeholders.names_or_none())
                .set_expression_attribute_values(parts.placeholders.values_or_none())
                // Tells "taken" and "stale version" from other failures.
                .return_values_on_condition_check_failure(
                    ReturnValuesOnConditionCheckFailure::AllOld,
                );
            let err = match request.send().await {
                Ok(_) => return Ok(()),
                Err(err) => err,
            };
            match condition_failure(&err) {
                // Without a condition of the caller's, "no item yet" is the
                // only one that can fail, whether or not the old item came back.
                Some(old) if self.only_if_new && (old.is_some() || !user_condition) => {
                    let (partition, sort) = self.entity.primary_key()?.into_parts();
                    Err(Repr::AlreadyExists {
                        entity: E::RUST_NAME,
                        partition,
                        sort,
                        source: Error::service("PutItem", table, err),
                    }
                    .into())
                }
                Some(stored) if !self.only_if_new => {
                    match parts.version.and_then(|v| v.conflict(E::RUST_NAME, stored)) {
                        Some(conflict) => Err(conflict),
                        None => Err(Error::service("PutItem", table, err)),
                    }
                }
                _ => Err(Error::service("PutItem", table, err)),
            }
        }
        .instrument(span)
        .await
    }

    /// The table, entity, whether it is a create, and the condition: what a
    /// transaction takes from a put built for it.
    pub(crate) fn into_inner(self) -> (&'db Db<E::Table>, &'e E, bool, Option<Condition<E>>) {
        (self.db, self.entity, self.only_if_new, self.condition)
    }
}

/// The parts of one PutItem, shared by [`Put`] and transactions.
pub(crate) struct PutParts {
    /// The item, its version (if any) already incremented.
    pub(crate) item: Item,
    /// "No item yet" for a create, the caller's condition and the version
    /// check, joined by AND.
    pub(crate) condition: Option<String>,
    pub(crate) placeholders: Placeholders,
    /// The version a versioned put (not a create) expects stored.
    pub(crate) version: Option<Expected>,
}

/// Builds the parts of a put of `entity` (a create when `only_if_new`).
///
/// An entity with a version is stored with the next version; a put expects
/// the version it holds (no item at 0), a create only that no item is.
pub(crate) fn parts<E: Entity>(
    now: SystemTime,
    entity: &E,
    only_if_new: bool,
    condition: Option<Condition<E>>,
) -> Result<PutParts> {
    let mut item = convert::to_item(entity, now)?;
    let mut condition =
        Condition::both(only_if_new.then(Condition::<E>::item_not_exists), condition);
    let mut expected = None;
    if let Some(attribute) = E::VERSION_ATTRIBUTE {
        let current = entity.version();
        item.insert(
            attribute.to_owned(),
            version::number(version::next::<E>(current)?),
        );
        // A create is checked by "no item yet" alone.
        if !only_if_new {
            condition = Condition::both(condition, Some(version::expect::<E>(attribute, current)));
            expected = Some(Expected {
                attribute,
                version: current,
            });
        }
    }
    size::check_item(E::RUST_NAME, &item)?;
    let mut placeholders = Placeholders::default();
    let condition = condition.map(|c| c.render(&mut placeholders)).transpose()?;
    Ok(PutParts {
        item,
        condition,
        placeholders,
        version: expected,
    })
}

into_future!(['db, 'e: 'db, E: Entity] Put<'db, 'e, E> => ());
