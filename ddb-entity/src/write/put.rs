//! PutItem: upsert an entity, or create it only if its key is free.

use std::time::SystemTime;

use aws_sdk_dynamodb::types::{
    ReturnConsumedCapacity, ReturnValue, ReturnValuesOnConditionCheckFailure,
};
use tracing::Instrument;

use aws_sdk_dynamodb::operation::put_item::PutItemInput;
use aws_sdk_dynamodb::operation::put_item::builders::PutItemFluentBuilder;

use super::attempts::Attempts;
use super::failure::{self, condition_failure, is_ambiguous, read_stored, stored_after_failure};
use super::preview;
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
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use ddb_entity::{Db, Entity, local::LocalDynamo};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// #[derive(Entity, Serialize, Deserialize, Debug)]
/// #[entity(table = App, pk = "DOC#{id}", sk = "DOC", version = "version")]
/// struct Doc { id: u64, text: String, #[serde(default)] version: u64 }
///
/// # let dynamo = LocalDynamo::start().await?;
/// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// # db.create_table_if_missing().await?;
/// let draft = Doc { id: 1, text: "draft".into(), version: 0 };
/// db.put(&draft).await?; // at version 0: only where no item is; stored at 1
/// assert!(db.put(&draft).await.unwrap_err().is_version_conflict(), "version 1 is stored");
/// let read = db.get(Doc::key(1)?).await?.unwrap();
/// db.put(&Doc { text: "final".into(), ..read }).await?; // over version 1: stored at 2
/// assert_eq!(db.get(Doc::key(1)?).await?.unwrap().version, 2);
/// # Ok(())
/// # }
/// ```
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
    /// untouched ([`ErrorKind::WrongType`](crate::error::ErrorKind::WrongType)):
    /// the put is conditioned on "no item, or one of this type".
    /// Resending a put is safe (see [`Put::send`]).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq, Clone)]
    /// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// # struct Customer { id: u64, name: String, tier: String }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// let ada = Customer { id: 1, name: "Ada".into(), tier: "basic".into() };
    /// db.put(&ada).await?;
    /// db.put(&Customer { tier: "gold".into(), ..ada }).await?; // replaces it
    /// assert_eq!(db.get(Customer::key(1)?).await?.unwrap().tier, "gold");
    /// # Ok(())
    /// # }
    /// ```
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
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq, Clone)]
    /// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// # struct Customer { id: u64, name: String, tier: String }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// let f = Customer::fields();
    /// let ada = Customer { id: 1, name: "Ada".into(), tier: "gold".into() };
    /// db.put(&ada).await?;
    /// // Never downgrade a gold customer by accident.
    /// let basic = Customer { tier: "basic".into(), ..ada.clone() };
    /// let err = db.put(&basic).condition(f.tier.not_equals("gold".to_owned())).await.unwrap_err();
    /// assert!(err.is_condition_failed());
    /// assert_eq!(db.get(Customer::key(1)?).await?, Some(ada));
    /// # Ok(())
    /// # }
    /// ```
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
    /// instead ([`Transaction::idempotency_token`](crate::transact::Transaction::idempotency_token)).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq, Clone)]
    /// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// # struct Customer { id: u64, name: String, tier: String }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// let ada = Customer { id: 1, name: "Ada".into(), tier: "basic".into() };
    /// // Sent, the answer lost; sent again as a new call, with the request's id.
    /// db.create(&ada).idempotency_token("signup-7f3a").await?;
    /// db.create(&ada).idempotency_token("signup-7f3a").await?; // its own: success
    /// // Another request creating the same customer is told it exists.
    /// let err = db.create(&ada).idempotency_token("signup-9c1e").await.unwrap_err();
    /// assert!(err.is_already_exists());
    /// # Ok(())
    /// # }
    /// ```
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
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq, Clone)]
    /// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// # struct Customer { id: u64, name: String, tier: String }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// let ada = Customer { id: 1, name: "Ada".into(), tier: "basic".into() };
    /// // `.send().await`, or `.await` on the put itself.
    /// db.put(&ada).send().await?;
    /// db.put(&ada).send().await?; // sent twice: the same item
    /// assert_eq!(db.get(Customer::key(1)?).await?, Some(ada));
    /// # Ok(())
    /// # }
    /// ```
    pub async fn send(self) -> Result<()> {
        self.run(Returning::Nothing).await.map(drop)
    }

    /// Returns the entity the put replaced (`ReturnValues = ALL_OLD`):
    /// `None` when there was none.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// struct Customer { id: u64, name: String }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// let ada = Customer { id: 1, name: "Ada".into() };
    /// assert!(db.put(&ada).returning_old().await?.is_none());
    /// let grace = Customer { id: 1, name: "Grace".into() };
    /// let old = db.put(&grace).returning_old().await?;
    /// assert_eq!(old.map(|c| c.name).as_deref(), Some("Ada"));
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// **Retrying.** Such a put stores its write token and is conditioned
    /// on not finding it, so a resend after a lost answer is recognised
    /// and applies nothing more; it then returns `None`: the old entity
    /// left with the lost answer.
    pub fn returning_old(self) -> PutReturningOld<'db, 'e, E> {
        PutReturningOld(self)
    }

    /// Returns the entity as written: with its version incremented and its
    /// maintained timestamps set, which the value passed in does not have.
    /// Decoded from the item sent (no extra read).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "DOC#{id}", sk = "DOC", version = "version")]
    /// struct Doc { id: u64, text: String, #[serde(default)] version: u64 }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// let doc = db.create(&Doc { id: 1, text: "v1".into(), version: 0 }).returning_new().await?;
    /// assert_eq!(doc.version, 1);
    /// let doc = db.put(&Doc { text: "v2".into(), ..doc }).returning_new().await?;
    /// assert_eq!(doc.version, 2);
    /// # Ok(())
    /// # }
    /// ```
    pub fn returning_new(self) -> PutReturningNew<'db, 'e, E> {
        PutReturningNew(self)
    }

    async fn run(self, returning: Returning) -> Result<Option<Item>> {
        let table = self.db.table_name();
        let operation = if self.only_if_new { "create" } else { "put" };
        let span = tracing::info_span!(
            "ddb.put",
            table,
            entity = E::RUST_NAME,
            operation,
            consumed_rcu = tracing::field::Empty,
            consumed_wcu = tracing::field::Empty,
        );
        async move {
            let mut charge = self.db.charge();
            let user_condition = self.condition.is_some();
            let (db, entity, only_if_new) = (self.db, self.entity, self.only_if_new);
            let Prepared {
                request,
                token,
                version,
                tokened,
            } = self.prepare(returning == Returning::Old)?;
            let key = entity.primary_key()?;
            // What was written, for `returning_new`.
            let written = (returning == Returning::New)
                .then(|| request.get_item().clone().unwrap_or_default());
            let attempts = Attempts::default();
            let response = request
                .customize()
                .interceptor(attempts.clone())
                .send()
                .await;
            let err = match response {
                Ok(output) => {
                    charge.write(output.consumed_capacity());
                    return Ok(match returning {
                        Returning::Nothing => None,
                        Returning::Old => output.attributes.filter(|item| !item.is_empty()),
                        Returning::New => written,
                    });
                }
                Err(err) => {
                    charge.failed();
                    err
                }
            };
            // An attempt of this call was applied: what it returned is lost,
            // what it wrote is known.
            let applied = || match returning {
                Returning::New => written.clone(),
                _ => None,
            };
            let client = db.client();
            let schema = E::Table::SCHEMA;
            let Some(returned) = condition_failure(&err) else {
                // No answer, or a server error: the put may have been
                // applied. A tokened put can tell by reading.
                if tokened && (attempts.ambiguous() || is_ambiguous(&err)) {
                    let stored = read_stored(client, table, key.to_attributes(), &mut charge).await;
                    if let Ok(Some(item)) = stored
                        && token.is_in(&item, &schema)
                    {
                        return Ok(applied());
                    }
                }
                return Err(Error::service("PutItem", table, err));
            };
            let item_key = key.to_attributes();
            let stored =
                stored_after_failure(db, item_key, returned, &attempts, &mut charge).await?;
            if tokened
                && let Some(item) = &stored
                && token.is_in(item, &schema)
            {
                // An earlier attempt of this call wrote it.
                return Ok(applied());
            }
            let (partition, sort) = key.into_parts();
            if only_if_new {
                if stored.is_some() || !user_condition {
                    return Err(Repr::AlreadyExists {
                        entity: E::RUST_NAME,
                        partition,
                        sort,
                        source: Error::service("PutItem", table, err),
                    }
                    .into());
                }
                let at = (partition.as_str(), sort.as_str());
                let source = Error::service("PutItem", table, err);
                return Err(failure::condition_failed(
                    operation,
                    E::RUST_NAME,
                    at,
                    source,
                ));
            }
            let at = (partition.as_str(), sort.as_str());
            if let Some(foreign) = failure::foreign::<E>(&schema, operation, at, stored.as_ref()) {
                return Err(foreign);
            }
            match version.and_then(|v| v.conflict(E::RUST_NAME, at, stored.as_ref())) {
                Some(conflict) => Err(conflict),
                None => Err(failure::condition_failed(
                    operation,
                    E::RUST_NAME,
                    at,
                    Error::service("PutItem", table, err),
                )),
            }
        }
        .instrument(span)
        .await
    }

    /// The handle it was made on, and the caller's token (taken out): what
    /// [`server_idempotent`](Put::server_idempotent) sends it with.
    pub(crate) fn db_and_token(&mut self) -> (&'db Db<E::Table>, Option<String>) {
        (self.db, self.token.take())
    }

    /// The PutItem this put sends (`old`: returning the item it replaces),
    /// with what deciding its failure needs: the one place `send` and
    /// [`preview`](Put::preview) build it.
    fn prepare(self, old: bool) -> Result<Prepared> {
        let token = WriteToken::given_or_generated(self.token)?;
        let parts = parts(
            self.db.now(),
            self.entity,
            self.only_if_new,
            self.condition,
            &token,
            false,
            old,
        )?;
        let request = self
            .db
            .client()
            .put_item()
            .table_name(self.db.table_name())
            .set_item(Some(parts.item))
            .set_condition_expression(parts.condition)
            .set_expression_attribute_names(parts.placeholders.names_or_none())
            .set_expression_attribute_values(parts.placeholders.values_or_none())
            // Tells "taken", "stale version", "another type" and "my
            // own earlier attempt" from other failures.
            .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld)
            .set_return_values(old.then_some(ReturnValue::AllOld))
            .return_consumed_capacity(ReturnConsumedCapacity::Total);
        Ok(Prepared {
            request,
            token,
            version: parts.version,
            tokened: parts.tokened,
        })
    }

    /// The PutItem that [`send`](Put::send) would send, without sending
    /// it: the item (type, index keys, version and write token included),
    /// the condition, its attribute names and values — built by the same
    /// function. The write token is this call's: a put previewed and a put
    /// sent are two calls, with two tokens, unless both are given the same
    /// [`idempotency_token`](Put::idempotency_token). Values can be
    /// personal data: mind where a preview is logged.
    ///
    /// ```
    /// # use ddb_entity::{Db, Entity};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # fn client() -> aws_sdk_dynamodb::Client {
    /// #     aws_sdk_dynamodb::Client::from_conf(aws_sdk_dynamodb::Config::builder()
    /// #         .behavior_version(aws_sdk_dynamodb::config::BehaviorVersion::latest()).build())
    /// # }
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "USER#{email}", sk = "PROFILE")]
    /// struct User { email: String }
    ///
    /// let db = Db::<App>::new(client(), "app"); // nothing is sent
    /// let request = db.create(&User { email: "ada@example.com".into() }).preview()?;
    /// assert_eq!(request.table_name(), Some("app"));
    /// let item = request.item().unwrap();
    /// assert_eq!(item["PK"].as_s().unwrap(), "USER#ada@example.com");
    /// // "no item has this key yet", every name a placeholder
    /// let condition = request.condition_expression().unwrap();
    /// assert!(condition.starts_with("attribute_not_exists(#"), "{condition}");
    /// assert!(request.expression_attribute_names().unwrap().values().any(|name| name == "PK"));
    /// # Ok::<(), ddb_entity::Error>(())
    /// ```
    pub fn preview(self) -> Result<PutItemInput> {
        let prepared = self.prepare(false)?;
        preview::built("PutItem", prepared.request.as_input().clone().build())
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
/// `refuse_replay` stores it and conditions the put on not finding it (a put
/// returning the item it replaced). `always_token` stores it in any case
/// (a transaction's puts: any item
/// carrying the transaction's token proves the whole transaction applied).
pub(crate) fn parts<E: Entity>(
    now: SystemTime,
    entity: &E,
    only_if_new: bool,
    condition: Option<Condition<E>>,
    token: &WriteToken,
    always_token: bool,
    refuse_replay: bool,
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
    if let Some(attribute) = E::LAYOUT.version_attribute() {
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
    // A table declared without write tokens keeps its items as they are:
    // no token, and a replay is not told from a first attempt.
    let tokened = E::Table::SCHEMA.write_tokens
        && (always_token || refuse_replay || only_if_new || conditional || expected.is_some());
    if tokened {
        item.insert(E::Table::SCHEMA.token_attribute.to_owned(), token.value());
    }
    if tokened && refuse_replay && !only_if_new {
        // A replay must not apply again: its answer (the item it replaced)
        // would be its own first attempt's item.
        condition = Condition::both(condition, Some(Condition::token_is_not(token.as_str())));
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

/// A put's request, and what deciding its failure needs.
struct Prepared {
    request: PutItemFluentBuilder,
    token: WriteToken,
    version: Option<Expected>,
    tokened: bool,
}

/// What a put sends back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Returning {
    Nothing,
    Old,
    New,
}

/// A [`Put`] that returns the entity it replaced ([`Put::returning_old`]).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use ddb_entity::{Db, Entity, local::LocalDynamo};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq, Clone)]
/// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// # struct Customer { id: u64, name: String, tier: String }
/// # let dynamo = LocalDynamo::start().await?;
/// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// # db.create_table_if_missing().await?;
/// let basic = Customer { id: 1, name: "Ada".into(), tier: "basic".into() };
/// db.put(&basic).await?;
/// let replaced: Option<Customer> = db
///     .put(&Customer { tier: "gold".into(), ..basic.clone() })
///     .returning_old()
///     .await?;
/// assert_eq!(replaced, Some(basic));
/// # Ok(())
/// # }
/// ```
#[must_use = "nothing happens until you call `.send().await` (or `.await`)"]
pub struct PutReturningOld<'db, 'e, E: Entity>(Put<'db, 'e, E>);

impl<E: Entity> PutReturningOld<'_, '_, E> {
    /// Sends the PutItem; `Ok(None)` when no item was replaced.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq, Clone)]
    /// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// # struct Customer { id: u64, name: String, tier: String }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// let ada = Customer { id: 1, name: "Ada".into(), tier: "basic".into() };
    /// assert_eq!(db.put(&ada).returning_old().send().await?, None, "nothing to replace");
    /// assert_eq!(db.put(&ada).returning_old().send().await?, Some(ada.clone()));
    /// # Ok(())
    /// # }
    /// ```
    pub async fn send(self) -> Result<Option<E>> {
        let operation = if self.0.only_if_new { "create" } else { "put" };
        let key = self.0.entity.primary_key()?;
        let old = self.0.run(Returning::Old).await?;
        old.map(|item| failure::decode_applied::<E>(operation, (key.partition(), key.sort()), item))
            .transpose()
    }
}

/// A [`Put`] that returns the entity as written ([`Put::returning_new`]).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use ddb_entity::{Db, Entity, local::LocalDynamo};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// #[derive(Entity, Serialize, Deserialize, Debug)]
/// #[entity(table = App, pk = "DOC#{id}", sk = "DOC", version = "version", updated_at = "updated_at")]
/// struct Doc { id: u64, text: String, #[serde(default)] version: u64, #[serde(default)] updated_at: u64 }
///
/// # let dynamo = LocalDynamo::start().await?;
/// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// # db.create_table_if_missing().await?;
/// let written: Doc = db.create(&Doc { id: 1, text: "v1".into(), version: 0, updated_at: 0 }).returning_new().await?;
/// assert_eq!(written.version, 1);
/// assert!(written.updated_at > 0, "set by the library, as stored");
/// # Ok(())
/// # }
/// ```
#[must_use = "nothing happens until you call `.send().await` (or `.await`)"]
pub struct PutReturningNew<'db, 'e, E: Entity>(Put<'db, 'e, E>);

impl<E: Entity> PutReturningNew<'_, '_, E> {
    /// Sends the PutItem and returns the entity as written.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug)]
    /// # #[entity(table = App, pk = "DOC#{id}", sk = "DOC", version = "version")]
    /// # struct Doc { id: u64, text: String, #[serde(default)] version: u64 }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// let doc = db.create(&Doc { id: 1, text: "v1".into(), version: 0 }).returning_new().send().await?;
    /// let doc = db.put(&Doc { text: "v2".into(), ..doc }).returning_new().send().await?;
    /// assert_eq!((doc.text.as_str(), doc.version), ("v2", 2));
    /// # Ok(())
    /// # }
    /// ```
    pub async fn send(self) -> Result<E> {
        let operation = if self.0.only_if_new { "create" } else { "put" };
        let key = self.0.entity.primary_key()?;
        let written = self.0.run(Returning::New).await?;
        let item = written.unwrap_or_default();
        failure::decode_applied::<E>(operation, (key.partition(), key.sort()), item)
    }
}

into_future!(['db, 'e: 'db, E: Entity] Put<'db, 'e, E> => ());
into_future!(['db, 'e: 'db, E: Entity] PutReturningOld<'db, 'e, E> => Option<E>);
into_future!(['db, 'e: 'db, E: Entity] PutReturningNew<'db, 'e, E> => E);
