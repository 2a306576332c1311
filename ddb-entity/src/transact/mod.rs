//! TransactWriteItems: several typed writes and checks, on entities of
//! any types of the table, that all happen or none does.
//!
//! Every action is built by the code of the single-item operation it
//! mirrors ([`put`](super::put), [`update`](super::update),
//! [`delete`](super::delete)): the same item, the same index keys, the same
//! version check and increment, the same conditions.

mod action;
mod cancel;
mod get;
mod idempotent;

pub use action::{TransactDelete, TransactPut};
pub use get::{TransactGet, TransactGetResult};

use std::collections::HashMap;

use aws_sdk_dynamodb::operation::transact_write_items::builders::TransactWriteItemsFluentBuilder;
use aws_sdk_dynamodb::operation::transact_write_items::{
    TransactWriteItemsError, TransactWriteItemsInput,
};
use aws_sdk_dynamodb::types::{AttributeValue, ReturnConsumedCapacity, TransactWriteItem};
use tracing::Instrument;

use self::action::Planned;
use self::cancel::Sent;
use crate::capacity::Spent;
use crate::db::Db;
use crate::entity::{Entity, Key};
#[cfg(doc)]
use crate::error::{CancellationReason, Error};
use crate::error::{Repr, Result};
use crate::expr::Condition;
use crate::future::into_future;
use crate::item::Item;
use crate::table::Table;
use crate::write::Attempts;
use crate::write::Update;
use crate::write::failure::{is_ambiguous, read_stored};
use crate::write::token::WriteToken;

/// The most actions DynamoDB takes in one transaction.
pub(crate) const MAX_ACTIONS: usize = 100;

/// DynamoDB's limit on the aggregate size of the items of one transaction:
/// 4 MB.
const MAX_TRANSACTION_BYTES: usize = 4 * 1024 * 1024;

/// Several writes and condition checks on entities of one table that all
/// happen or none does (TransactWriteItems). Made by [`Db::transact`].
///
/// Each action is built as it would be alone, by the same builders, and
/// behaves the same — including the type guard (an action never touches an
/// item of another entity type at its key: the transaction is canceled) and
/// the limits checked before sending: a put or create of a versioned entity checks and bumps
/// its version, an update recomputes the index keys it moves and fails on
/// a missing item, conditions are the typed [`Condition`]s of the entity:
///
/// | action | from |
/// |---|---|
/// | [`put`](Transaction::put) | `&entity`, or `db.put(&entity).condition(…)`, `db.create(&entity)` |
/// | [`create`](Transaction::create) | `&entity` (fails if the key is taken) |
/// | [`update`](Transaction::update) | `db.update(key).set(…)…`, with its `.condition(…)`, `.expect_version(…)` |
/// | [`delete`](Transaction::delete) | a [`Key`], or `db.delete(key).condition(…).expect_version(…)` |
/// | [`condition_check`](Transaction::condition_check) | a [`Key`] and a [`Condition`] |
///
/// Refused before anything is sent: more than 100 actions, or items and
/// values over DynamoDB's 4 MB aggregate
/// ([`ErrorKind::TransactionTooLarge`](crate::error::ErrorKind::TransactionTooLarge)),
/// two actions on the same item
/// ([`ErrorKind::DuplicateAction`](crate::error::ErrorKind::DuplicateAction),
/// naming both), and an action that cannot be built — a key that cannot be
/// encoded, an entity that does not serialise, an update that cannot
/// recompute an index key
/// ([`ErrorKind::InvalidAction`](crate::error::ErrorKind::InvalidAction), naming
/// the action's index and entity type).
/// A transaction with no action sends nothing and succeeds.
///
/// When DynamoDB cancels the transaction, nothing was written and the error
/// is [`Error::is_transaction_canceled`]: [`Error::cancellation_reasons`] holds
/// one [`CancellationReason`] per action, in order, with its index, entity
/// type, key, reason code and message (and the stored item where DynamoDB
/// returned it). [`Error::is_condition_failed`],
/// [`Error::is_version_conflict`] and [`Error::is_transaction_conflict`]
/// look at every reason; [`Error::is_retryable`] is true for a transaction
/// conflict or throttling, when the same transaction can simply be sent
/// again.
///
/// A failed version check inside a transaction is recognised like outside
/// one: the library asks DynamoDB for the stored item of every versioned
/// write, and the reason of a write that found another version stored has
/// a [`stale_version`](CancellationReason::stale_version) (expected, found)
/// and [`is_version_conflict`](CancellationReason::is_version_conflict);
/// [`Error::is_version_conflict`] is then true for the whole error.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use ddb_entity::{Condition, Db, Entity, local::LocalDynamo};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// #[derive(Entity, Serialize, Deserialize, Clone, Debug)]
/// #[entity(table = App, pk = "ACCOUNT#{name}", sk = "ACCOUNT", version = "version")]
/// struct Account { name: String, balance: i64, #[serde(default)] version: u64 }
///
/// #[derive(Entity, Serialize, Deserialize, Debug)]
/// #[entity(table = App, pk = "ACCOUNT#{account}", sk = "TRANSFER#{id}")]
/// struct Transfer { account: String, id: u64, amount: i64 }
///
/// # let dynamo = LocalDynamo::start().await?;
/// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// # db.create_table_if_missing().await?;
/// db.transact()
///     .create(&Account { name: "alice".into(), balance: 100, version: 0 })
///     .create(&Account { name: "bob".into(), balance: 0, version: 0 })
///     .await?;
///
/// // Read, decide, write all or nothing; read again if someone wrote first.
/// let f = Account::fields();
/// for attempt in 1.. {
///     let alice = db.get(Account::key("alice")?).consistent_read(true).await?.unwrap();
///     let bob = db.get(Account::key("bob")?).consistent_read(true).await?.unwrap();
///     let sent = db
///         .transact()
///         // Each put checks the version it was read at, and bumps it.
///         .put(db.put(&Account { balance: alice.balance - 30, ..alice.clone() })
///             .condition(f.balance.ge(30)))
///         .put(&Account { balance: bob.balance + 30, ..bob })
///         .create(&Transfer { account: "alice".into(), id: 1, amount: 30 })
///         .condition_check(Account::key("carol")?, Condition::item_not_exists())
///         .await;
///     match sent {
///         Ok(()) => break,
///         // Another writer came first, or a transaction held an item.
///         Err(err) if (err.is_version_conflict() || err.is_retryable()) && attempt < 5 => continue,
///         Err(err) => return Err(err.into()),
///     }
/// }
/// let alice = db.get(Account::key("alice")?).consistent_read(true).await?.unwrap();
/// assert_eq!((alice.balance, alice.version), (70, 2));
/// # Ok(())
/// # }
/// ```
#[must_use = "nothing happens until you call `.send().await` (or `.await`)"]
pub struct Transaction<'db, T: Table> {
    db: &'db Db<T>,
    actions: Vec<Planned>,
    token: Option<String>,
    /// The token every put and update of this transaction stores.
    write_token: WriteToken,
}

impl<T: Table> Db<T> {
    /// Starts a transaction: writes and checks on entities of this table
    /// that all happen or none does (see [`Transaction`]).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use ddb_entity::op::{ActionKind, CancellationCode};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "SKU#{sku}", sk = "STOCK")]
    /// struct Stock { sku: String, available: i64 }
    ///
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "ORDER#{id}", sk = "ORDER")]
    /// struct Order { id: u64, sku: String }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// db.put(&Stock { sku: "A1".into(), available: 1 }).await?;
    /// let stock = Stock::fields();
    /// // An order is written only together with a unit taken off the stock.
    /// let order = |id: u64| -> ddb_entity::Result<_> {
    ///     Ok(db
    ///         .transact()
    ///         .create(&Order { id, sku: "A1".into() })
    ///         .update(
    ///             db.update(Stock::key("A1")?)
    ///                 .add(stock.available, -1)
    ///                 .condition(stock.available.gt(0)),
    ///         ))
    /// };
    /// order(1)?.await?;
    ///
    /// // Out of stock: the second order is not written either.
    /// let err = order(2)?.await.unwrap_err();
    /// assert!(err.is_transaction_canceled() && err.is_condition_failed());
    /// let failed: Vec<_> = err.cancellation_reasons().iter().filter(|r| r.is_failure()).collect();
    /// assert_eq!(failed.len(), 1);
    /// assert_eq!((failed[0].index(), failed[0].entity(), failed[0].action()), (1, "Stock", ActionKind::Update));
    /// assert_eq!(failed[0].code(), &CancellationCode::ConditionalCheckFailed);
    /// assert!(db.get(Order::key(2u64)?).consistent_read(true).await?.is_none());
    /// # Ok(())
    /// # }
    /// ```
    pub fn transact(&self) -> Transaction<'_, T> {
        Transaction {
            db: self,
            actions: Vec::new(),
            token: None,
            write_token: WriteToken::generate(),
        }
    }
}

impl<'db, T: Table> Transaction<'db, T> {
    fn push(mut self, mut planned: Planned) -> Self {
        let table = self.db.table_name();
        if let Some(other) = planned.made_for.as_deref()
            && other != table
        {
            planned.parts = Err(Repr::WrongTable {
                what: "a transaction action",
                built_for: other.to_owned(),
                table: table.to_owned(),
                fix: "build it from the transaction's `Db`",
            }
            .into());
        }
        self.actions.push(planned);
        self
    }

    /// Writes an entity, replacing any item with its key: `&entity`, or a
    /// put built as alone — `db.put(&entity).condition(…)` (written only if
    /// the condition holds), `db.create(&entity)` — which behaves here
    /// exactly as it would alone (a versioned entity is checked and bumped).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Condition, Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
    /// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// # struct Customer { id: u64, name: String, orders: i64 }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
    /// # #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{id}")]
    /// # struct Order { customer_id: u64, id: u64, total_cents: i64 }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// let ada = Customer { id: 1, name: "Ada".into(), orders: 0 };
    /// db.put(&ada).await?;
    /// let f = Customer::fields();
    /// // Renamed with her first order, but only if nobody renamed her first.
    /// db.transact()
    ///     .put(db.put(&Customer { name: "Ada L.".into(), orders: 1, ..ada.clone() })
    ///         .condition(f.name.equals("Ada".to_owned())))
    ///     .put(&Order { customer_id: 1, id: 7, total_cents: 1299 })
    ///     .await?;
    /// assert_eq!(db.get(Customer::key(1)?).await?.unwrap().name, "Ada L.");
    /// assert!(db.get(Order::key(1, 7)?).await?.is_some());
    /// # Ok(())
    /// # }
    /// ```
    pub fn put<'e>(self, put: impl Into<TransactPut<'e, T>>) -> Self {
        let now = self.db.now();
        let planned = put.into().into_planned(now, &self.write_token);
        self.push(planned)
    }

    /// Writes an entity only if no item has its key yet, like
    /// [`Db::create`]; a taken key cancels the transaction
    /// ([`CancellationReason::is_already_exists`]).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Condition, Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
    /// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// # struct Customer { id: u64, name: String, orders: i64 }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
    /// # #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{id}")]
    /// # struct Order { customer_id: u64, id: u64, total_cents: i64 }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// let order = Order { customer_id: 1, id: 7, total_cents: 1299 };
    /// let place = || db.transact().create(&order).create(&Customer { id: 1, name: "Ada".into(), orders: 1 });
    /// place().await?;
    /// // Both keys are taken now: neither create happens again.
    /// let err = place().await.unwrap_err();
    /// assert!(err.is_transaction_canceled() && err.is_already_exists());
    /// assert!(err.cancellation_reasons()[0].is_already_exists());
    /// # Ok(())
    /// # }
    /// ```
    pub fn create<E: Entity<Table = T>>(self, entity: &E) -> Self {
        let now = self.db.now();
        let planned = Planned::put(entity, now, true, None, None, &self.write_token);
        self.push(planned)
    }

    /// Changes a stored entity, as `update` would alone: made by
    /// [`Db::update`] with its `set`/`remove`/`add`, `condition` and
    /// `expect_version`. Index keys the changes move are rewritten in the
    /// same action; a missing item cancels the transaction
    /// ([`CancellationReason::is_not_found`]).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Condition, Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
    /// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// # struct Customer { id: u64, name: String, orders: i64 }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
    /// # #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{id}")]
    /// # struct Order { customer_id: u64, id: u64, total_cents: i64 }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// db.put(&Customer { id: 1, name: "Ada".into(), orders: 0 }).await?;
    /// let f = Customer::fields();
    /// // The order and the customer's count of orders, together.
    /// db.transact()
    ///     .create(&Order { customer_id: 1, id: 7, total_cents: 1299 })
    ///     .update(db.update(Customer::key(1)?).add(f.orders, 1))
    ///     .await?;
    /// assert_eq!(db.get(Customer::key(1)?).await?.unwrap().orders, 1);
    ///
    /// // No customer 2: the update cancels the whole transaction.
    /// let err = db
    ///     .transact()
    ///     .create(&Order { customer_id: 2, id: 8, total_cents: 500 })
    ///     .update(db.update(Customer::key(2)?).add(f.orders, 1))
    ///     .await
    ///     .unwrap_err();
    /// assert!(err.cancellation_reasons()[1].is_not_found());
    /// assert!(db.get(Order::key(2, 8)?).await?.is_none());
    /// # Ok(())
    /// # }
    /// ```
    pub fn update<E: Entity<Table = T>>(self, update: Update<'_, E>) -> Self {
        let planned = Planned::update(update, &self.write_token);
        self.push(planned)
    }

    /// Deletes an entity: a [`Key`], or a delete built as alone —
    /// `db.delete(key).condition(…).expect_version(…)`.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Condition, Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
    /// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// # struct Customer { id: u64, name: String, orders: i64 }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
    /// # #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{id}")]
    /// # struct Order { customer_id: u64, id: u64, total_cents: i64 }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// db.put(&Customer { id: 1, name: "Ada".into(), orders: 1 }).await?;
    /// db.put(&Order { customer_id: 1, id: 7, total_cents: 1299 }).await?;
    /// let f = Customer::fields();
    /// // Cancel an order: it goes, and the count goes down, together.
    /// db.transact()
    ///     .delete(Order::key(1, 7)?)
    ///     .update(db.update(Customer::key(1)?).add(f.orders, -1))
    ///     .await?;
    /// assert!(db.get(Order::key(1, 7)?).await?.is_none());
    /// assert_eq!(db.get(Customer::key(1)?).await?.unwrap().orders, 0);
    /// # Ok(())
    /// # }
    /// ```
    pub fn delete(self, delete: impl Into<TransactDelete<T>>) -> Self {
        self.push(delete.into().into_planned())
    }

    /// Writes nothing, but the transaction happens only if `condition`
    /// holds for the item at `key` (which then cannot be written by
    /// another action of the same transaction: put the condition on that
    /// write instead).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Condition, Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
    /// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// # struct Customer { id: u64, name: String, orders: i64 }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
    /// # #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{id}")]
    /// # struct Order { customer_id: u64, id: u64, total_cents: i64 }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// // An order only for a customer who exists.
    /// let order = Order { customer_id: 2, id: 7, total_cents: 1299 };
    /// let err = db
    ///     .transact()
    ///     .condition_check(Customer::key(2)?, Condition::item_exists())
    ///     .create(&order)
    ///     .await
    ///     .unwrap_err();
    /// assert!(err.is_transaction_canceled() && err.is_condition_failed());
    /// assert!(db.get(Order::key(2, 7)?).await?.is_none());
    ///
    /// db.put(&Customer { id: 2, name: "Grace".into(), orders: 0 }).await?;
    /// db.transact()
    ///     .condition_check(Customer::key(2)?, Condition::item_exists())
    ///     .create(&order)
    ///     .await?;
    /// assert_eq!(db.get(Order::key(2, 7)?).await?, Some(order));
    /// # Ok(())
    /// # }
    /// ```
    pub fn condition_check<E: Entity<Table = T>>(
        self,
        key: Key<E>,
        condition: Condition<E>,
    ) -> Self {
        self.push(Planned::condition_check(key, condition))
    }

    /// The idempotency token (`ClientRequestToken`, 1 to 36 characters).
    /// Without one, every [`send`](Transaction::send) makes its own and
    /// every attempt of that send carries it, so the SDK's retries are
    /// idempotent: DynamoDB answers a resend of an applied transaction
    /// (within ten minutes) with success and writes nothing. Give your own
    /// to make *your* resends idempotent too — the same transaction built
    /// again and sent as a new call after a timeout or a crash; yours
    /// wins over the generated one. Use one token per logical transaction:
    /// DynamoDB refuses the same token on a different transaction
    /// (`IdempotentParameterMismatchException`) for ten minutes, and this
    /// library keeps recognising it for longer: the token is also the
    /// write token the transaction's items store, so a transaction sent
    /// with a token still held by one of its items is taken as already
    /// applied.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Condition, Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
    /// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// # struct Customer { id: u64, name: String, orders: i64 }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
    /// # #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{id}")]
    /// # struct Order { customer_id: u64, id: u64, total_cents: i64 }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// let f = Customer::fields();
    /// db.put(&Customer { id: 1, name: "Ada".into(), orders: 0 }).await?;
    /// // The same logical transaction (say, a request id), built and sent
    /// // twice: after a timeout, the caller cannot know the first applied.
    /// for _ in 0..2 {
    ///     db.transact()
    ///         .create(&Order { customer_id: 1, id: 7, total_cents: 1299 })
    ///         .update(db.update(Customer::key(1)?).add(f.orders, 1))
    ///         .idempotency_token("order-7")
    ///         .await?;
    /// }
    /// assert_eq!(db.get(Customer::key(1)?).await?.unwrap().orders, 1, "applied once");
    /// # Ok(())
    /// # }
    /// ```
    pub fn idempotency_token(mut self, token: impl Into<String>) -> Self {
        self.token = Some(token.into());
        self
    }

    /// The number of actions so far.
    ///
    /// ```
    /// # use ddb_entity::{Db, Entity};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # let config = ddb_entity::sdk::Config::builder()
    /// #     .behavior_version(ddb_entity::sdk::config::BehaviorVersion::latest()).build();
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// struct Customer { id: u64 }
    ///
    /// let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    /// let mut transaction = db.transact();
    /// for id in 1..=3 {
    ///     transaction = transaction.create(&Customer { id });
    /// }
    /// assert_eq!(transaction.len(), 3); // DynamoDB takes up to 100
    /// ```
    pub fn len(&self) -> usize {
        self.actions.len()
    }

    /// No action yet: sending does nothing.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Condition, Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
    /// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// # struct Customer { id: u64, name: String, orders: i64 }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
    /// # #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{id}")]
    /// # struct Order { customer_id: u64, id: u64, total_cents: i64 }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// let changed: Vec<Customer> = Vec::new(); // nothing to write this time
    /// let mut transaction = db.transact();
    /// for customer in &changed {
    ///     transaction = transaction.put(customer);
    /// }
    /// assert!(transaction.is_empty());
    /// transaction.await?; // sends no request
    /// # Ok(())
    /// # }
    /// ```
    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }

    /// The TransactWriteItems that [`send`](Transaction::send) would send,
    /// without sending it: every action's item or key, expressions,
    /// attribute names and values, and the `ClientRequestToken` — built by
    /// the same function, and refused as `send` would refuse it (too many
    /// actions, two on one item, an action that cannot be built). The
    /// token is this call's: a transaction previewed and one sent are two
    /// calls, unless both are given the same
    /// [`idempotency_token`](Transaction::idempotency_token).
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
    /// #[entity(table = App, pk = "ACCOUNT#{id}", sk = "BALANCE")]
    /// struct Balance { id: u64, cents: i64 }
    ///
    /// let db = Db::<App>::new(client(), "app"); // nothing is sent
    /// let f = Balance::fields();
    /// let request = db
    ///     .transact()
    ///     .update(db.update(Balance::key(1)?).add(f.cents, -500))
    ///     .update(db.update(Balance::key(2)?).add(f.cents, 500))
    ///     .idempotency_token("transfer-42")
    ///     .preview()?;
    /// assert_eq!(request.client_request_token(), Some("transfer-42"));
    /// let actions = request.transact_items();
    /// assert_eq!(actions.len(), 2);
    /// assert!(actions[0].update().unwrap().update_expression().contains(" ADD "));
    /// # Ok::<(), ddb_entity::Error>(())
    /// ```
    pub fn preview(self) -> Result<TransactWriteItemsInput> {
        let (request, _, _) = request(self.db, self.actions, self.token, self.write_token)?;
        crate::write::preview::built("TransactWriteItems", request.as_input().clone().build())
    }

    /// Sends the TransactWriteItems: every action happens, or none does.
    ///
    /// **Retrying.** Safe, for the SDK's retries and for a new call with
    /// the same [`idempotency_token`](Transaction::idempotency_token):
    /// DynamoDB applies one transaction per token. Independently of the
    /// server honouring the token (moto does not), every put and update of
    /// the transaction stores one write token of this send, and updates
    /// are conditioned on not finding it: a resend of an applied
    /// transaction is canceled on those items, and the transaction
    /// recognises its own token there (or, when every attempt lost its
    /// answer, by a consistent read of one of its items) and succeeds —
    /// one item holding it proves the whole transaction applied.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Condition, Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
    /// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// # struct Customer { id: u64, name: String, orders: i64 }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
    /// # #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{id}")]
    /// # struct Order { customer_id: u64, id: u64, total_cents: i64 }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// let order = Order { customer_id: 1, id: 7, total_cents: 1299 };
    /// let customer = Customer { id: 1, name: "Ada".into(), orders: 1 };
    /// // `.send().await`, or `.await` on the transaction itself.
    /// db.transact().create(&customer).create(&order).send().await?;
    /// assert_eq!(db.get(Order::key(1, 7)?).await?, Some(order));
    /// # Ok(())
    /// # }
    /// ```
    pub async fn send(self) -> Result<()> {
        let table = self.db.table_name();
        let span = tracing::info_span!(
            "ddb.transact",
            table,
            actions = self.actions.len(),
            entities = %entity_names(&self.actions),
            consumed_rcu = tracing::field::Empty,
            consumed_wcu = tracing::field::Empty,
        );
        async move {
            if self.actions.is_empty() {
                return Ok(());
            }
            let mut charge = self.db.charge();
            let (request, sent, write_token) =
                request(self.db, self.actions, self.token, self.write_token)?;
            let attempts = Attempts::default();
            let response = request
                .customize()
                .interceptor(attempts.clone())
                .send()
                .await;
            let err = match response {
                Ok(output) => {
                    charge.write(output.consumed_capacity());
                    return Ok(());
                }
                Err(err) => {
                    charge.failed();
                    err
                }
            };
            // The stored item of every action whose condition failed: as
            // DynamoDB returned it, else (for an action that asked for it)
            // by a consistent read — a server that ignores the request
            // must not turn "taken" into "free" or "exists" into "missing".
            let mut stored: Vec<Option<Item>> = vec![None; sent.len()];
            if let Some(TransactWriteItemsError::TransactionCanceledException(canceled)) =
                err.as_service_error()
            {
                for ((action, reason), slot) in sent
                    .iter()
                    .zip(canceled.cancellation_reasons())
                    .zip(&mut stored)
                {
                    let failed = reason.code() == Some("ConditionalCheckFailed");
                    *slot = match reason.item.as_ref().filter(|item| !item.is_empty()) {
                        Some(item) => Some(item.clone()),
                        None if failed => {
                            let key = key_of::<T>(action);
                            read_stored(self.db.client(), table, key, &mut charge).await?
                        }
                        None => None,
                    };
                }
                if stored
                    .iter()
                    .flatten()
                    .any(|item| write_token.is_in(item, &T::SCHEMA))
                {
                    // A resend of this transaction, applied before.
                    return Ok(());
                }
            }
            // No answer, a server error, or "a transaction with this token
            // is in progress" (an earlier attempt of this send): it may
            // have applied, or be applying.
            let unanswered = err.as_service_error().is_none_or(|service| {
                matches!(
                    service,
                    TransactWriteItemsError::TransactionInProgressException(_)
                )
            }) || is_ambiguous(&err);
            if (attempts.ambiguous() || unanswered)
                && applied(self.db, &sent, &write_token, &mut charge).await
            {
                return Ok(());
            }
            Err(cancel::error(table, sent, stored, err))
        }
        .instrument(span)
        .await
    }
}

/// The TransactWriteItems of `actions` — with what mapping its failure
/// needs, and its token (the caller's `token`, which then replaces the
/// generated `write_token` in every action) — the one place
/// [`Transaction::send`] and [`Transaction::preview`] build it.
fn request<T: Table>(
    db: &Db<T>,
    mut actions: Vec<Planned>,
    token: Option<String>,
    write_token: WriteToken,
) -> Result<(TransactWriteItemsFluentBuilder, Vec<Sent>, WriteToken)> {
    // A caller's token is the transaction's write token too: the same
    // transaction sent again as a new call is then the same request, which
    // DynamoDB recognises, and stores the same token.
    let write_token = match token {
        Some(token) => {
            let given = WriteToken::given(token)?;
            for action in &mut actions {
                action.retoken(&write_token, &given, T::SCHEMA.token_attribute);
            }
            given
        }
        None => write_token,
    };
    let (items, sent) = prepare(actions, db.table_name())?;
    let request = db
        .client()
        .transact_write_items()
        .set_transact_items(Some(items))
        .client_request_token(write_token.as_str())
        .return_consumed_capacity(ReturnConsumedCapacity::Total);
    Ok((request, sent, write_token))
}

/// Whether one of the items the transaction writes holds its token, by
/// consistent reads: the transaction applied (it is atomic, and the token
/// is this send's own). Asked only after an attempt lost its answer. A
/// read that fails counts as "not shown".
async fn applied<T: Table>(
    db: &Db<T>,
    sent: &[Sent],
    token: &WriteToken,
    spent: &mut Spent,
) -> bool {
    for action in sent.iter().filter(|action| action.tokened) {
        let key = key_of::<T>(action);
        if let Ok(Some(item)) = read_stored(db.client(), db.table_name(), key, spent).await
            && token.is_in(&item, &T::SCHEMA)
        {
            return true;
        }
    }
    false
}

/// The primary key of the item an action addresses.
fn key_of<T: Table>(action: &Sent) -> Item {
    let keys = T::SCHEMA.primary;
    let mut key = Item::new();
    key.insert(
        keys.partition_key.to_owned(),
        AttributeValue::S(action.partition.clone()),
    );
    if let Some(sort_key) = keys.sort_key {
        key.insert(sort_key.to_owned(), AttributeValue::S(action.sort.clone()));
    }
    key
}

/// Checks the actions and builds the request's items, with what the error
/// mapping needs of each.
fn prepare(actions: Vec<Planned>, table: &str) -> Result<(Vec<TransactWriteItem>, Vec<Sent>)> {
    if actions.len() > MAX_ACTIONS {
        return Err(Repr::TransactionTooLarge {
            what: format!(
                "takes at most {MAX_ACTIONS} actions, this one has {}",
                actions.len()
            ),
        }
        .into());
    }
    let mut items = Vec::with_capacity(actions.len());
    let mut sent = Vec::with_capacity(actions.len());
    let mut seen: HashMap<(String, String), (usize, &'static str)> = HashMap::new();
    let mut bytes = 0;
    for (index, planned) in actions.into_iter().enumerate() {
        let (parts, key) = match (planned.parts, planned.key) {
            (Ok(parts), Some(key)) => (parts, key),
            (Err(source), _) => {
                return Err(Repr::InvalidAction {
                    index,
                    action: planned.kind,
                    entity: planned.entity,
                    source,
                }
                .into());
            }
            (Ok(_), None) => unreachable!("an action whose key failed has failed parts"),
        };
        if let Some(&(first, first_entity)) = seen.get(&key) {
            let (partition, sort) = key;
            return Err(Repr::DuplicateAction {
                first,
                second: index,
                first_entity,
                second_entity: planned.entity,
                partition,
                sort,
            }
            .into());
        }
        seen.insert(key.clone(), (index, planned.entity));
        let version = parts.version;
        let tokened = parts.tokened;
        bytes += parts.bytes();
        items.push(parts.into_sdk(table)?);
        let (partition, sort) = key;
        sent.push(Sent {
            kind: planned.kind,
            entity: planned.entity,
            check: planned.check,
            partition,
            sort,
            version,
            tokened,
        });
    }
    if bytes > MAX_TRANSACTION_BYTES {
        return Err(Repr::TransactionTooLarge {
            what: format!(
                "writes {bytes} bytes of items and values, over DynamoDB's limit of {MAX_TRANSACTION_BYTES} bytes (4 MB) for one transaction; nothing was sent"
            ),
        }
        .into());
    }
    Ok((items, sent))
}

/// The distinct entity types of the actions (`Order,Stock`), for the span:
/// names only, never values.
fn entity_names(actions: &[Planned]) -> String {
    let mut names: Vec<&str> = Vec::new();
    for action in actions {
        if !names.contains(&action.entity) {
            names.push(action.entity);
        }
    }
    names.join(",")
}

into_future!(['db, T: Table] Transaction<'db, T> => ());

impl<T: Table> std::fmt::Debug for Transaction<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Transaction")
            .field("table", &self.db.table_name())
            .field("actions", &self.actions.len())
            .field("idempotency_token", &self.token.is_some())
            .finish_non_exhaustive()
    }
}
