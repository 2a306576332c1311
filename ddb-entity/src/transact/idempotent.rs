//! DynamoDB's own idempotency for a single write: the write sent as a
//! one-action TransactWriteItems with a `ClientRequestToken`.

use crate::entity::Entity;
use crate::transact::Transaction;
use crate::write::{Delete, Put, Update};

/// The one-action transaction of a write, its token (the caller's, else the
/// transaction's generated one) as the `ClientRequestToken`.
fn one_action<'db, T: crate::table::Table>(
    transaction: Transaction<'db, T>,
    token: Option<String>,
) -> Transaction<'db, T> {
    match token {
        Some(token) => transaction.idempotency_token(token),
        None => transaction,
    }
}

impl<'db, E: Entity> Update<'db, E> {
    /// Sends this update as a one-action transaction (TransactWriteItems)
    /// with a `ClientRequestToken`: **DynamoDB itself** then applies it once
    /// for ten minutes, however late an attempt arrives and whatever was
    /// written to the item meanwhile — also after a plain put replaced the
    /// item, or a delete removed it, which erase the item's token history
    /// (see `docs/exactly-once.md`). It costs twice the write units of an
    /// UpdateItem (a transactional write), and returns nothing (a
    /// transaction returns no item); a failure is the transaction's, with
    /// the same predicates (`is_not_found`, `is_condition_failed`,
    /// `is_version_conflict`). The update's
    /// [`idempotency_token`](Update::idempotency_token), if given, is the
    /// request token. Servers that ignore `ClientRequestToken` (moto) give
    /// only the token history's guarantee.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "ACCOUNT#{id}", sk = "BALANCE")]
    /// struct Balance { id: u64, cents: i64 }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// db.put(&Balance { id: 1, cents: 0 }).await?;
    /// let deposit = || {
    ///     db.update(Balance::key(1).unwrap())
    ///         .add(Balance::fields().cents, 500)
    ///         .idempotency_token("deposit-7f3a")
    ///         .server_idempotent()
    /// };
    /// deposit().await?;
    /// deposit().await?; // the same request token: applied once
    /// let stored = db.get(Balance::key(1)?).consistent_read(true).await?.unwrap();
    /// assert_eq!(stored.cents, 500);
    /// # Ok(())
    /// # }
    /// ```
    pub fn server_idempotent(mut self) -> Transaction<'db, E::Table> {
        let (db, token) = self.db_and_token();
        one_action(db.transact().update(self), token)
    }
}

impl<'db, 'e, E: Entity> Put<'db, 'e, E> {
    /// Sends this put (or create) as a one-action transaction with a
    /// `ClientRequestToken`, which DynamoDB applies once for ten minutes:
    /// a late attempt of a plain put then cannot replace what was written
    /// after it. Twice the write units of a PutItem, no item returned; see
    /// [`Update::server_idempotent`].
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// struct Customer { id: u64, name: String }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// let ada = Customer { id: 1, name: "Ada".into() };
    /// db.put(&ada).idempotency_token("signup-1").server_idempotent().await?;
    /// assert_eq!(db.get(Customer::key(1)?).await?, Some(ada));
    /// # Ok(())
    /// # }
    /// ```
    pub fn server_idempotent(mut self) -> Transaction<'db, E::Table> {
        let (db, token) = self.db_and_token();
        one_action(db.transact().put(self), token)
    }
}

impl<'db, E: Entity> Delete<'db, E> {
    /// Sends this delete as a one-action transaction with a
    /// `ClientRequestToken` (generated), which DynamoDB applies once for
    /// ten minutes: a late attempt cannot delete an item created after it.
    /// Twice the write units of a DeleteItem; see
    /// [`Update::server_idempotent`].
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "CART#{id}", sk = "CART")]
    /// struct Cart { id: u64 }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// db.put(&Cart { id: 1 }).await?;
    /// db.delete(Cart::key(1)?).server_idempotent().await?;
    /// assert!(db.get(Cart::key(1)?).await?.is_none());
    /// # Ok(())
    /// # }
    /// ```
    pub fn server_idempotent(self) -> Transaction<'db, E::Table> {
        let db = self.db();
        db.transact().delete(self)
    }
}
