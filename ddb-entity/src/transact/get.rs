//! TransactGetItems: up to 100 typed keys of any entities of the table,
//! read as of one instant, per key and into a collection.

use std::collections::HashMap;
use std::marker::PhantomData;

use aws_sdk_dynamodb::operation::transact_get_items::TransactGetItemsError;
use aws_sdk_dynamodb::types::{Get as SdkGet, ReturnConsumedCapacity, TransactGetItem};
use tracing::Instrument;

use super::MAX_ACTIONS;
use super::cancel::{Sent, canceled_error, sdk_reasons};
use crate::collection::{Collection, UnknownItems, demultiplex};
use crate::db::Db;
use crate::entity::verify::keep_keys_found_by;
use crate::entity::{Entity, Key, convert};
use crate::error::{ActionKind, Error, Repr, Result};
use crate::expr::Placeholders;
use crate::future::into_future;
use crate::item::{Item, ttl};
use crate::read::{Projected, ReadShape, Whole, projection};
use crate::table::Table;

/// Reads up to 100 entities of any types of one table by key, all as of
/// the same instant (TransactGetItems: serializable, never a mix of
/// before and after a concurrent transaction). Made by
/// [`Db::transact_get`]; `.await` it for the per-key
/// [`TransactGetResult`], or [`collect`](TransactGet::collect) it into a
/// [`Collection`].
///
/// - More than 100 distinct keys are refused before sending
///   ([`ErrorKind::TransactionTooLarge`](crate::error::ErrorKind::TransactionTooLarge));
///   a key asked for twice as the same type is read once, and one key
///   asked for as two entity types is refused
///   ([`Error::is_duplicate_key`]). No key: nothing is sent.
/// - A cancellation (another transaction writing one of the items,
///   throttling) is mapped back to each key as a write transaction's is:
///   [`Error::cancellation_reasons`] (action [`ActionKind::Get`]),
///   [`Error::is_transaction_conflict`], [`Error::is_retryable`].
/// - An item of another entity type than its key's is
///   [`ErrorKind::WrongType`](crate::error::ErrorKind::WrongType), never
///   mis-decoded; items past their time to live are hidden unless
///   [`include_expired`](TransactGet::include_expired). Reading twice the
///   read capacity of a plain get is the price of the snapshot.
/// - With a [`projection`](TransactGet::projection), only the attributes
///   named are read (and the keys, the type and the time to live), and
///   every value comes back as a [`Partial`](crate::read::Partial): no
///   write takes it back by mistake.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use ddb_entity::{Db, Entity, local::LocalDynamo};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
/// # #[entity(table = App, pk = "ACCOUNT#{name}", sk = "ACCOUNT")]
/// # struct Account { name: String, balance: i64 }
/// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
/// # #[entity(table = App, pk = "ACCOUNT#{account}", sk = "LIMIT")]
/// # struct Limit { account: String, daily: i64 }
/// # let dynamo = LocalDynamo::start().await?;
/// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// # db.create_table_if_missing().await?;
/// # db.put(&Account { name: "alice".into(), balance: 70 }).await?;
/// # db.put(&Account { name: "bob".into(), balance: 30 }).await?;
/// # db.put(&Limit { account: "alice".into(), daily: 500 }).await?;
/// // A transfer's two sides, never seen half done.
/// let both = db
///     .transact_get()
///     .get(Account::key("alice")?)
///     .get(Account::key("bob")?)
///     .collect::<Vec<Account>>()
///     .await?;
/// assert_eq!(both.iter().map(|a| a.balance).sum::<i64>(), 100);
/// # Ok(())
/// # }
/// ```
#[must_use = "nothing happens until you `.await` it (or `.collect()` it)"]
pub struct TransactGet<'db, T: Table, S: ReadShape = Whole> {
    db: &'db Db<T>,
    keys: Vec<Asked>,
    include_expired: bool,
    projection: Option<Vec<&'static str>>,
    shape: PhantomData<fn() -> S>,
}

/// A key asked for.
#[derive(Debug, Clone)]
struct Asked {
    entity: &'static str,
    entity_type: &'static str,
    /// The one check every typed read makes: the item is an `E` (by type
    /// attribute, by key, or both, as the table is typed).
    check: fn(&Item) -> Result<()>,
    partition: String,
    sort: String,
    attributes: Item,
}

/// What a read transaction found, key by key: look an entity up by its
/// [`Key`] ([`get`](TransactGetResult::get)), or put them all into a
/// collection ([`collect`](TransactGetResult::collect)); read with a
/// projection (`S` = [`Projected`]), each value is a
/// [`Partial`](crate::read::Partial).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use ddb_entity::{Db, Entity, local::LocalDynamo};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
/// # #[entity(table = App, pk = "ACCOUNT#{name}", sk = "ACCOUNT")]
/// # struct Account { name: String, balance: i64 }
/// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
/// # #[entity(table = App, pk = "ACCOUNT#{account}", sk = "LIMIT")]
/// # struct Limit { account: String, daily: i64 }
/// # let dynamo = LocalDynamo::start().await?;
/// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// # db.create_table_if_missing().await?;
/// # db.put(&Account { name: "alice".into(), balance: 70 }).await?;
/// # db.put(&Account { name: "bob".into(), balance: 30 }).await?;
/// # db.put(&Limit { account: "alice".into(), daily: 500 }).await?;
/// let read = db
///     .transact_get()
///     .get(Account::key("alice")?)
///     .get(Account::key("carol")?)
///     .get(Limit::key("alice")?)
///     .await?;
/// assert_eq!((read.len(), read.found()), (3, 2));
/// assert_eq!(read.get(&Account::key("alice")?)?.map(|a| a.balance), Some(70));
/// assert_eq!(read.get(&Account::key("carol")?)?, None);
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct TransactGetResult<S: ReadShape = Whole> {
    /// The keys asked for, in order, and the item found at each.
    entries: Vec<(Asked, Option<Item>)>,
    shape: PhantomData<fn() -> S>,
}

impl<T: Table> Db<T> {
    /// Starts a read transaction: entities of any types of the table, by
    /// key, read as of one instant (see [`TransactGet`]).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Collection, Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "ACCOUNT#{name}", sk = "ACCOUNT")]
    /// struct Account { name: String, balance: i64 }
    ///
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "ACCOUNT#{account}", sk = "LIMIT")]
    /// struct Limit { account: String, daily: i64 }
    ///
    /// #[derive(Collection, Debug)]
    /// struct Accounts { accounts: Vec<Account>, limits: Vec<Limit> }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// db.put(&Account { name: "alice".into(), balance: 70 }).await?;
    /// db.put(&Account { name: "bob".into(), balance: 30 }).await?;
    /// db.put(&Limit { account: "alice".into(), daily: 500 }).await?;
    ///
    /// // Both balances as of one instant: their sum is never half a transfer.
    /// let read = db
    ///     .transact_get()
    ///     .get(Account::key("alice")?)
    ///     .get(Account::key("bob")?)
    ///     .get(Account::key("carol")?) // no such account
    ///     .get(Limit::key("alice")?)
    ///     .await?;
    /// let alice = read.get(&Account::key("alice")?)?.unwrap();
    /// assert!(read.get(&Account::key("carol")?)?.is_none());
    /// assert_eq!(alice.balance, 70);
    /// let all: Accounts = read.collect()?;
    /// assert_eq!(all.accounts.iter().map(|a| a.balance).sum::<i64>(), 100);
    /// assert_eq!(all.limits[0].daily, 500);
    /// # Ok(())
    /// # }
    /// ```
    pub fn transact_get(&self) -> TransactGet<'_, T> {
        TransactGet {
            db: self,
            keys: Vec::new(),
            include_expired: false,
            projection: None,
            shape: PhantomData,
        }
    }
}

impl<'db, T: Table> TransactGet<'db, T, Whole> {
    /// Read only these attributes of each item (a `ProjectionExpression`
    /// on every key's `Get`), plus the keys, the type and the time-to-live
    /// attributes typed reads need: every value comes back as a
    /// [`Partial`](crate::read::Partial), its other fields at their absent
    /// values. Saves bandwidth, not read capacity.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo, op::Partial};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// #[entity(table = App, pk = "ACCOUNT#{name}", sk = "ACCOUNT")]
    /// struct Account { name: String, balance: i64, #[serde(default)] history: Vec<i64> }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// db.put(&Account { name: "alice".into(), balance: 70, history: vec![100, -30] }).await?;
    /// // The balances alone, as of one instant: partial accounts.
    /// let balances = db
    ///     .transact_get()
    ///     .get(Account::key("alice")?)
    ///     .projection(["balance"])
    ///     .await?;
    /// let alice: Partial<Account> = balances.get(&Account::key("alice")?)?.unwrap();
    /// assert_eq!(alice.balance, 70);
    /// let accounts: Partial<Vec<Account>> = db
    ///     .transact_get()
    ///     .get(Account::key("alice")?)
    ///     .projection(["balance"])
    ///     .collect()
    ///     .await?;
    /// assert_eq!(accounts[0].balance, 70);
    /// # Ok(())
    /// # }
    /// ```
    pub fn projection(
        self,
        attributes: impl IntoIterator<Item = &'static str>,
    ) -> TransactGet<'db, T, Projected> {
        TransactGet {
            db: self.db,
            keys: self.keys,
            include_expired: self.include_expired,
            projection: Some(attributes.into_iter().collect()),
            shape: PhantomData,
        }
    }
}

impl<'db, T: Table, S: ReadShape> TransactGet<'db, T, S> {
    /// Reads the entity with `key`.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// # #[entity(table = App, pk = "ACCOUNT#{name}", sk = "ACCOUNT")]
    /// # struct Account { name: String, balance: i64 }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// # #[entity(table = App, pk = "ACCOUNT#{account}", sk = "LIMIT")]
    /// # struct Limit { account: String, daily: i64 }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// # db.put(&Account { name: "alice".into(), balance: 70 }).await?;
    /// # db.put(&Account { name: "bob".into(), balance: 30 }).await?;
    /// # db.put(&Limit { account: "alice".into(), daily: 500 }).await?;
    /// let read = db.transact_get().get(Account::key("alice")?).get(Limit::key("alice")?).await?;
    /// assert_eq!(read.get(&Limit::key("alice")?)?.map(|l| l.daily), Some(500));
    /// # Ok(())
    /// # }
    /// ```
    pub fn get<E: Entity<Table = T>>(mut self, key: Key<E>) -> Self {
        let attributes = key.to_attributes();
        let (partition, sort) = key.into_parts();
        self.keys.push(Asked {
            entity: E::RUST_NAME,
            entity_type: E::TYPE_TAG,
            check: convert::check_type::<E>,
            partition,
            sort,
            attributes,
        });
        self
    }

    /// Also return items past their time to live that DynamoDB has not
    /// deleted yet (hidden by default, as by [`Db::get`]).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK", ttl_attribute: "expires_at" } }
    ///
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "USER#{user}", sk = "SESSION")]
    /// struct Session { user: String, expires_at: u64 }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// db.put(&Session { user: "ada".into(), expires_at: 1 }).await?; // long expired
    /// let read = db.transact_get().get(Session::key("ada")?).await?;
    /// assert!(read.get(&Session::key("ada")?)?.is_none(), "hidden");
    /// let read = db.transact_get().get(Session::key("ada")?).include_expired(true).await?;
    /// assert!(read.get(&Session::key("ada")?)?.is_some(), "not deleted yet");
    /// # Ok(())
    /// # }
    /// ```
    pub fn include_expired(mut self, include: bool) -> Self {
        self.include_expired = include;
        self
    }

    /// The number of keys so far.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// # #[entity(table = App, pk = "ACCOUNT#{name}", sk = "ACCOUNT")]
    /// # struct Account { name: String, balance: i64 }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// # #[entity(table = App, pk = "ACCOUNT#{account}", sk = "LIMIT")]
    /// # struct Limit { account: String, daily: i64 }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// # db.put(&Account { name: "alice".into(), balance: 70 }).await?;
    /// # db.put(&Account { name: "bob".into(), balance: 30 }).await?;
    /// # db.put(&Limit { account: "alice".into(), daily: 500 }).await?;
    /// let read = db.transact_get().get(Account::key("alice")?).get(Account::key("bob")?);
    /// assert_eq!(read.len(), 2); // up to 100
    /// # Ok(())
    /// # }
    /// ```
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether no key was asked for (sending does nothing).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// # #[entity(table = App, pk = "ACCOUNT#{name}", sk = "ACCOUNT")]
    /// # struct Account { name: String, balance: i64 }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// # #[entity(table = App, pk = "ACCOUNT#{account}", sk = "LIMIT")]
    /// # struct Limit { account: String, daily: i64 }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// # db.put(&Account { name: "alice".into(), balance: 70 }).await?;
    /// # db.put(&Account { name: "bob".into(), balance: 30 }).await?;
    /// # db.put(&Limit { account: "alice".into(), daily: 500 }).await?;
    /// let wanted: Vec<String> = Vec::new();
    /// let mut read = db.transact_get();
    /// for name in &wanted {
    ///     read = read.get(Account::key(name)?);
    /// }
    /// assert!(read.is_empty());
    /// assert!(read.await?.is_empty(), "no request sent");
    /// # Ok(())
    /// # }
    /// ```
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Reads every key into a collection (a `#[derive(Collection)]` struct,
    /// a `Vec` of an entity or of a `#[derive(Collection)]` enum), in the
    /// order the keys were asked; a key with no item is absent.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// # #[entity(table = App, pk = "ACCOUNT#{name}", sk = "ACCOUNT")]
    /// # struct Account { name: String, balance: i64 }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// # #[entity(table = App, pk = "ACCOUNT#{account}", sk = "LIMIT")]
    /// # struct Limit { account: String, daily: i64 }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// # db.put(&Account { name: "alice".into(), balance: 70 }).await?;
    /// # db.put(&Account { name: "bob".into(), balance: 30 }).await?;
    /// # db.put(&Limit { account: "alice".into(), daily: 500 }).await?;
    /// #[derive(ddb_entity::Collection, Debug)]
    /// struct AccountView { account: Option<Account>, limit: Option<Limit> }
    ///
    /// let alice: AccountView = db
    ///     .transact_get()
    ///     .get(Account::key("alice")?)
    ///     .get(Limit::key("alice")?)
    ///     .collect()
    ///     .await?;
    /// assert_eq!((alice.account.unwrap().balance, alice.limit.unwrap().daily), (70, 500));
    /// # Ok(())
    /// # }
    /// ```
    pub async fn collect<C: Collection<Table = T>>(self) -> Result<S::Of<C>> {
        self.send().await?.collect()
    }

    /// Sends the TransactGetItems.
    ///
    /// **Retrying** is safe: a read changes nothing.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// # #[entity(table = App, pk = "ACCOUNT#{name}", sk = "ACCOUNT")]
    /// # struct Account { name: String, balance: i64 }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// # #[entity(table = App, pk = "ACCOUNT#{account}", sk = "LIMIT")]
    /// # struct Limit { account: String, daily: i64 }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// # db.put(&Account { name: "alice".into(), balance: 70 }).await?;
    /// # db.put(&Account { name: "bob".into(), balance: 30 }).await?;
    /// # db.put(&Limit { account: "alice".into(), daily: 500 }).await?;
    /// // `.send().await`, or `.await` on the read itself.
    /// let read = db.transact_get().get(Account::key("bob")?).send().await?;
    /// assert_eq!(read.get(&Account::key("bob")?)?.map(|a| a.balance), Some(30));
    /// # Ok(())
    /// # }
    /// ```
    pub async fn send(self) -> Result<TransactGetResult<S>> {
        let table = self.db.table_name();
        let span = tracing::info_span!(
            "ddb.transact_get",
            table,
            keys = self.keys.len(),
            found = tracing::field::Empty,
            consumed_rcu = tracing::field::Empty,
            consumed_wcu = tracing::field::Empty,
        );
        async move {
            let keys = distinct(self.keys)?;
            if keys.is_empty() {
                return Ok(TransactGetResult {
                    entries: Vec::new(),
                    shape: PhantomData,
                });
            }
            if keys.len() > MAX_ACTIONS {
                return Err(Repr::TransactionTooLarge {
                    what: format!(
                        "reads at most {MAX_ACTIONS} items, this one {} (distinct keys); nothing was sent",
                        keys.len()
                    ),
                }
                .into());
            }
            let mut p = Placeholders::default();
            let projected = self.projection.as_ref().map(|attributes| {
                projection(&T::SCHEMA, T::SCHEMA.primary, &[], attributes, &mut p)
            });
            let names = p.names_or_none();
            let items = keys
                .iter()
                .map(|key| {
                    SdkGet::builder()
                        .table_name(table)
                        .set_key(Some(key.attributes.clone()))
                        .set_projection_expression(projected.clone())
                        .set_expression_attribute_names(names.clone())
                        .build()
                        .map(|get| TransactGetItem::builder().get(get).build())
                        .map_err(|err| {
                            Error::from(Repr::RequestBuild {
                                what: "TransactGetItems",
                                source: Box::new(err),
                            })
                        })
                })
                .collect::<Result<Vec<_>>>()?;
            let mut charge = self.db.charge();
            let response = self
                .db
                .client()
                .transact_get_items()
                .set_transact_items(Some(items))
                .return_consumed_capacity(ReturnConsumedCapacity::Total)
                .send()
                .await;
            let output = match response {
                Ok(output) => {
                    charge.read(output.consumed_capacity());
                    output
                }
                Err(err) => {
                    charge.failed();
                    return Err(canceled(table, &keys, err));
                }
            };
            let now = self.db.now();
            let mut entries = Vec::with_capacity(keys.len());
            let responses = output.responses.unwrap_or_default();
            for (key, response) in keys.into_iter().zip(responses) {
                let item = response
                    .item
                    .filter(|item| !item.is_empty())
                    .filter(|item| {
                        self.include_expired || !ttl::is_expired(item, &T::SCHEMA, now)
                    });
                if let Some(item) = &item {
                    (key.check)(item)?;
                }
                entries.push((key, item));
            }
            let found = entries.iter().filter(|(_, item)| item.is_some()).count();
            tracing::Span::current().record("found", found);
            Ok(TransactGetResult {
                entries,
                shape: PhantomData,
            })
        }
        .instrument(span)
        .await
    }
}

/// Each key once, in the order first asked; a key asked as two entity
/// types is refused.
fn distinct(keys: Vec<Asked>) -> Result<Vec<Asked>> {
    let mut seen: HashMap<(String, String), &'static str> = HashMap::with_capacity(keys.len());
    let mut distinct = Vec::with_capacity(keys.len());
    for key in keys {
        match seen.get(&(key.partition.clone(), key.sort.clone())) {
            Some(first) if *first == key.entity_type => continue,
            Some(_) => {
                let first = distinct
                    .iter()
                    .find(|k: &&Asked| k.partition == key.partition && k.sort == key.sort)
                    .map_or(key.entity, |k| k.entity);
                return Err(Repr::DuplicateKey {
                    operation: "TransactGetItems",
                    first,
                    second: key.entity,
                    partition: key.partition,
                    sort: key.sort,
                }
                .into());
            }
            None => {
                seen.insert((key.partition.clone(), key.sort.clone()), key.entity_type);
                distinct.push(key);
            }
        }
    }
    Ok(distinct)
}

/// The error of a failed TransactGetItems: a cancellation mapped back to
/// each key, as a write transaction's.
fn canceled(
    table: &str,
    keys: &[Asked],
    err: aws_sdk_dynamodb::error::SdkError<
        TransactGetItemsError,
        aws_sdk_dynamodb::config::http::HttpResponse,
    >,
) -> Error {
    let Some(TransactGetItemsError::TransactionCanceledException(canceled)) =
        err.as_service_error()
    else {
        return Error::service("TransactGetItems", table, err);
    };
    let reasons = sdk_reasons(
        canceled.cancellation_reasons.as_deref(),
        canceled.message.as_deref(),
    );
    let sent = keys
        .iter()
        .map(|key| Sent {
            kind: ActionKind::Get,
            entity: key.entity,
            check: key.check,
            partition: key.partition.clone(),
            sort: key.sort.clone(),
            version: None,
            tokened: false,
        })
        .collect();
    canceled_error(
        "TransactGetItems",
        table,
        sent,
        reasons,
        Vec::new(),
        err.into(),
    )
}

impl<S: ReadShape> TransactGetResult<S> {
    /// The entity read at `key`: `Ok(None)` when there is no item; an
    /// error when the key was not part of the transaction
    /// ([`ErrorKind::NotInCollection`](crate::error::ErrorKind::NotInCollection))
    /// or its item does not decode.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// # #[entity(table = App, pk = "ACCOUNT#{name}", sk = "ACCOUNT")]
    /// # struct Account { name: String, balance: i64 }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// # #[entity(table = App, pk = "ACCOUNT#{account}", sk = "LIMIT")]
    /// # struct Limit { account: String, daily: i64 }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// # db.put(&Account { name: "alice".into(), balance: 70 }).await?;
    /// # db.put(&Account { name: "bob".into(), balance: 30 }).await?;
    /// # db.put(&Limit { account: "alice".into(), daily: 500 }).await?;
    /// let read = db.transact_get().get(Account::key("alice")?).await?;
    /// assert_eq!(read.get(&Account::key("alice")?)?.map(|a| a.balance), Some(70));
    /// // Not asked for: an error, not a "no item".
    /// let err = read.get(&Account::key("bob")?).unwrap_err();
    /// assert_eq!(err.kind(), ddb_entity::ErrorKind::NotInCollection);
    /// # Ok(())
    /// # }
    /// ```
    pub fn get<E: Entity>(&self, key: &Key<E>) -> Result<Option<S::Of<E>>> {
        let entry = self.entries.iter().find(|(asked, _)| {
            asked.partition == key.partition()
                && asked.sort == key.sort()
                && asked.entity_type == E::TYPE_TAG
        });
        let Some((_, item)) = entry else {
            return Err(Repr::NotRead {
                entity: E::RUST_NAME,
                partition: key.partition().to_owned(),
                sort: key.sort().to_owned(),
            }
            .into());
        };
        let value = item
            .clone()
            .map(|mut item| {
                keep_keys_found_by(&mut item, &E::Table::SCHEMA, None);
                convert::from_item::<E>(item)
            })
            .transpose()?;
        Ok(value.map(S::of))
    }

    /// How many keys were read (each distinct key once).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// # #[entity(table = App, pk = "ACCOUNT#{name}", sk = "ACCOUNT")]
    /// # struct Account { name: String, balance: i64 }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// # #[entity(table = App, pk = "ACCOUNT#{account}", sk = "LIMIT")]
    /// # struct Limit { account: String, daily: i64 }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// # db.put(&Account { name: "alice".into(), balance: 70 }).await?;
    /// # db.put(&Account { name: "bob".into(), balance: 30 }).await?;
    /// # db.put(&Limit { account: "alice".into(), daily: 500 }).await?;
    /// let read = db
    ///     .transact_get()
    ///     .get(Account::key("alice")?)
    ///     .get(Account::key("alice")?) // the same key twice: read once
    ///     .await?;
    /// assert_eq!(read.len(), 1);
    /// # Ok(())
    /// # }
    /// ```
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no key was read.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// # #[entity(table = App, pk = "ACCOUNT#{name}", sk = "ACCOUNT")]
    /// # struct Account { name: String, balance: i64 }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// # #[entity(table = App, pk = "ACCOUNT#{account}", sk = "LIMIT")]
    /// # struct Limit { account: String, daily: i64 }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// # db.put(&Account { name: "alice".into(), balance: 70 }).await?;
    /// # db.put(&Account { name: "bob".into(), balance: 30 }).await?;
    /// # db.put(&Limit { account: "alice".into(), daily: 500 }).await?;
    /// assert!(db.transact_get().await?.is_empty());
    /// assert!(!db.transact_get().get(Account::key("carol")?).await?.is_empty(), "read, not found");
    /// # Ok(())
    /// # }
    /// ```
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// How many of the keys had an item.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// # #[entity(table = App, pk = "ACCOUNT#{name}", sk = "ACCOUNT")]
    /// # struct Account { name: String, balance: i64 }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// # #[entity(table = App, pk = "ACCOUNT#{account}", sk = "LIMIT")]
    /// # struct Limit { account: String, daily: i64 }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// # db.put(&Account { name: "alice".into(), balance: 70 }).await?;
    /// # db.put(&Account { name: "bob".into(), balance: 30 }).await?;
    /// # db.put(&Limit { account: "alice".into(), daily: 500 }).await?;
    /// let read = db.transact_get().get(Account::key("bob")?).get(Account::key("carol")?).await?;
    /// assert_eq!(read.found(), 1);
    /// # Ok(())
    /// # }
    /// ```
    pub fn found(&self) -> usize {
        self.entries
            .iter()
            .filter(|(_, item)| item.is_some())
            .count()
    }

    /// Every item found, in the order the keys were asked, into a
    /// collection that holds every entity type asked for (an item of a
    /// type it does not hold is [`ErrorKind::UnknownType`](crate::error::ErrorKind::UnknownType)).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// # #[entity(table = App, pk = "ACCOUNT#{name}", sk = "ACCOUNT")]
    /// # struct Account { name: String, balance: i64 }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// # #[entity(table = App, pk = "ACCOUNT#{account}", sk = "LIMIT")]
    /// # struct Limit { account: String, daily: i64 }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// # db.put(&Account { name: "alice".into(), balance: 70 }).await?;
    /// # db.put(&Account { name: "bob".into(), balance: 30 }).await?;
    /// # db.put(&Limit { account: "alice".into(), daily: 500 }).await?;
    /// let read = db.transact_get().get(Account::key("alice")?).get(Limit::key("alice")?).await?;
    /// let limits: Result<Vec<Limit>, _> = read.collect();
    /// assert_eq!(limits.unwrap_err().kind(), ddb_entity::ErrorKind::UnknownType, "an Account too");
    ///
    /// let read = db.transact_get().get(Account::key("alice")?).get(Account::key("bob")?).await?;
    /// let accounts: Vec<Account> = read.collect()?;
    /// assert_eq!(accounts.len(), 2);
    /// # Ok(())
    /// # }
    /// ```
    pub fn collect<C: Collection>(self) -> Result<S::Of<C>> {
        let mut collection = C::default();
        for (_, item) in self.entries {
            if let Some(mut item) = item {
                keep_keys_found_by(&mut item, &<C::Table as Table>::SCHEMA, None);
                demultiplex(&mut collection, item, UnknownItems::Error)?;
            }
        }
        Ok(S::of(collection))
    }
}

into_future!(['db, T: Table, S: ReadShape] TransactGet<'db, T, S> => TransactGetResult<S>);
