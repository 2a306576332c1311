//! PutItem: upsert an entity, or create it only if its key is free.

use std::time::SystemTime;

use aws_sdk_dynamodb::types::ReturnValuesOnConditionCheckFailure;
use tracing::Instrument;

use super::attempts::Attempts;
use super::failure::{self, condition_failure, is_ambiguous, read_stored, stored_after_failure};
use super::token::WriteToken;
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
    token: Option<String>,
}

impl<T: Table> Db<T> {
    /// Writes `entity`, replacing any item of its type with the same key
    /// (an upsert). The item is the entity's serde body plus its key
    /// attributes, its type attribute and the key attributes of every index
    /// it belongs to. An item of another entity type at the key is left
    /// untouched ([`ErrorKind::WrongType`](crate::ErrorKind::WrongType)):
    /// the put is conditioned on "no item, or one of this type".
    /// Resending a put is safe (see [`Put::send`]).
    pub fn put<'e, E: Entity<Table = T>>(&self, entity: &'e E) -> Put<'_, 'e, E> {
        Put {
            db: self,
            entity,
            only_if_new: false,
            condition: None,
            token: None,
        }
    }

    /// Writes `entity` only if no item has its key yet; otherwise fails with
    /// an error for which [`Error::is_already_exists`] (and
    /// [`Error::is_condition_failed`]) is true, and nothing is written.
    /// A create resent after a lost answer recognises its own item (by its
    /// write token) and succeeds, instead of reporting "already exists"
    /// (see [`Put::send`]).
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
            token: None,
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

    /// The write token of this put (1 to 36 characters; by default a fresh
    /// random one per call), for a put you may send again **as a new
    /// call** — after a crash, or after [`Error::is_retryable`] with the
    /// write's outcome unknown: the new call, with the same token,
    /// recognises the first one's item as its own and succeeds instead of
    /// reporting "already exists" or a version conflict. Use one token per
    /// logical write (a request id): a token reused for another write makes
    /// that write look done. Only a create, a versioned put and a
    /// conditional put store a token; a plain put needs none (it is
    /// idempotent). In a transaction, the transaction's token is used
    /// instead ([`Transaction::idempotency_token`](crate::op::Transaction::idempotency_token)).
    pub fn idempotency_token(mut self, token: impl Into<String>) -> Self {
        self.token = Some(token.into());
        self
    }

    /// Sends the PutItem.
    ///
    /// **Retrying.** The SDK's retries resend the same request, and so
    /// does a call with the same [`idempotency_token`](Put::idempotency_token):
    /// the item is written once. A create, a versioned or a conditional put
    /// that finds its own token stored (its earlier attempt was applied, the
    /// answer lost) succeeds; if every attempt lost its answer, one
    /// consistent read decides. A plain put is idempotent: sending it again
    /// writes the same item (after another writer's put in between, it
    /// replaces theirs — as an upsert sent later would).
    pub async fn send(self) -> Result<()> {
        let table = self.db.table_name();
        let operation = if self.only_if_new { "create" } else { "put" };
        let span = tracing::info_span!("ddb.put", table, entity = E::RUST_NAME, operation);
        async move {
            let user_condition = self.condition.is_some();
            let token = WriteToken::given_or_generated(self.token)?;
            let parts = parts(
                self.db.now(),
                self.entity,
                self.only_if_new,
                self.condition,
                &token,
                false,
            )?;
            let key = self.entity.primary_key()?;
            let attempts = Attempts::default();
            let err = match self
                .db
                .client()
                .put_item()
                .table_name(table)
                .set_item(Some(parts.item))
                .set_condition_expression(parts.condition)
                .set_expression_attribute_names(parts.placeholders.names_or_none())
                .set_expression_attribute_values(parts.placeholders.values_or_none())
                // Tells "taken", "stale version", "another type" and "my
                // own earlier attempt" from other failures.
                .return_values_on_condition_check_failure(
                    ReturnValuesOnConditionCheckFailure::AllOld,
                )
                .customize()
                .interceptor(attempts.clone())
                .send()
                .await
            {
                Ok(_) => return Ok(()),
                Err(err) => err,
            };
            let client = self.db.client();
            let schema = E::Table::SCHEMA;
            let tokened = parts.tokened;
            let Some(returned) = condition_failure(&err) else {
                // No answer, or a server error: the put may have been
                // applied. A tokened put can tell by reading.
                if tokened && (attempts.ambiguous() || is_ambiguous(&err)) {
                    let stored = read_stored(client, table, key.to_attributes()).await;
                    if let Ok(Some(item)) = stored
                        && token.is_in(&item, schema.token_attribute)
                    {
                        return Ok(());
                    }
                }
                return Err(Error::service("PutItem", table, err));
            };
            let stored = stored_after_failure(client, table, key.to_attributes(), returned).await?;
            if tokened
                && let Some(item) = &stored
                && token.is_in(item, schema.token_attribute)
            {
                // An earlier attempt of this call wrote it.
                return Ok(());
            }
            let (partition, sort) = key.into_parts();
            if self.only_if_new {
                if stored.is_some() || !user_condition {
                    return Err(Repr::AlreadyExists {
                        entity: E::RUST_NAME,
                        partition,
                        sort,
                        source: Error::service("PutItem", table, err),
                    }
                    .into());
                }
                return Err(Error::service("PutItem", table, err));
            }
            let at = (partition.as_str(), sort.as_str());
            if let Some(foreign) = failure::foreign::<E>(&schema, operation, at, stored.as_ref()) {
                return Err(foreign);
            }
            match parts
                .version
                .and_then(|v| v.conflict(E::RUST_NAME, stored.as_ref()))
            {
                Some(conflict) => Err(conflict),
                None => Err(Error::service("PutItem", table, err)),
            }
        }
        .instrument(span)
        .await
    }

    /// The table, entity, whether it is a create, the condition and the
    /// caller's token: what a transaction takes from a put built for it.
    pub(crate) fn into_inner(self) -> PutInner<'db, 'e, E> {
        PutInner {
            db: self.db,
            entity: self.entity,
            only_if_new: self.only_if_new,
            condition: self.condition,
        }
    }
}

/// A [`Put`] taken apart for a transaction.
pub(crate) struct PutInner<'db, 'e, E: Entity> {
    pub(crate) db: &'db Db<E::Table>,
    pub(crate) entity: &'e E,
    pub(crate) only_if_new: bool,
    pub(crate) condition: Option<Condition<E>>,
}

/// The parts of one PutItem, shared by [`Put`] and transactions.
pub(crate) struct PutParts {
    /// The item, its version (if any) already incremented, its write token
    /// (if it needs one) added.
    pub(crate) item: Item,
    /// "No item yet" for a create; otherwise "no item, or one of this
    /// type", the version check and the caller's condition; joined by AND.
    pub(crate) condition: Option<String>,
    pub(crate) placeholders: Placeholders,
    /// The version a versioned put (not a create) expects stored.
    pub(crate) version: Option<Expected>,
    /// Whether the item carries the write token: a create, a versioned put
    /// or a conditional put, whose replay would fail its condition.
    pub(crate) tokened: bool,
}

/// Builds the parts of a put of `entity` (a create when `only_if_new`).
///
/// An entity with a version is stored with the next version; a put expects
/// the version it holds (no item at 0), a create only that no item is. A
/// put other than a create is conditioned on the stored item being absent
/// or of `E`'s type, so it never replaces an item of another type. A put
/// whose replay could fail its own condition (a create, a versioned or
/// conditional put) stores `token`, so a replay recognises its own item;
/// `always_token` stores it in any case (a transaction's puts: any item
/// carrying the transaction's token proves the whole transaction applied).
pub(crate) fn parts<E: Entity>(
    now: SystemTime,
    entity: &E,
    only_if_new: bool,
    condition: Option<Condition<E>>,
    token: &WriteToken,
    always_token: bool,
) -> Result<PutParts> {
    let mut item = convert::to_item(entity, now)?;
    let conditional = condition.is_some();
    let guard = if only_if_new {
        Condition::<E>::item_not_exists()
    } else {
        Condition::<E>::absent_or_of_type()
    };
    let mut condition = Condition::both(Some(guard), condition);
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
    let tokened = always_token || only_if_new || conditional || expected.is_some();
    if tokened {
        item.insert(E::Table::SCHEMA.token_attribute.to_owned(), token.value());
    }
    size::check_item(E::RUST_NAME, &item)?;
    let mut placeholders = Placeholders::default();
    let condition = condition.map(|c| c.render(&mut placeholders)).transpose()?;
    Ok(PutParts {
        item,
        condition,
        placeholders,
        version: expected,
        tokened,
    })
}

into_future!(['db, 'e: 'db, E: Entity] Put<'db, 'e, E> => ());
