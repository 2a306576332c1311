//! DeleteItem: remove an entity by key, optionally returning it.

use aws_sdk_dynamodb::types::{
    ReturnConsumedCapacity, ReturnValue, ReturnValuesOnConditionCheckFailure,
};
use tracing::Instrument;

use aws_sdk_dynamodb::operation::delete_item::DeleteItemInput;
use aws_sdk_dynamodb::operation::delete_item::builders::DeleteItemFluentBuilder;

use super::attempts::Attempts;
use super::failure::{self, condition_failure, is_ambiguous, read_stored, stored_after_failure};
use super::preview;
use crate::db::Db;
use crate::entity::{Entity, Key, Versioned};
use crate::error::{Error, Result};
use crate::expr::version::{self, Expected};
use crate::expr::{Condition, Placeholders};
use crate::future::into_future;
use crate::item::Item;
use crate::table::Table;

/// Deletes one entity by key (DeleteItem); deleting a missing item is not
/// an error. Made by [`Db::delete`].
///
/// The delete is conditioned on the stored item being of `E`'s type (or
/// absent): an item of another type at the key is left untouched
/// ([`ErrorKind::WrongType`](crate::error::ErrorKind::WrongType)).
///
/// **Retrying** is safe. An unconditional delete is idempotent. A
/// conditional or versioned delete resent after an attempt whose answer was
/// lost finds no item and succeeds: the item is gone, as asked (it cannot
/// prove that this call, not another, deleted it). After a lost answer,
/// [`returning_old`](Delete::returning_old) returns `None`: the old item
/// left with that answer.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use ddb_entity::{Db, Entity, local::LocalDynamo};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
/// #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// struct Customer { id: u64, name: String, open_orders: u32 }
///
/// # let dynamo = LocalDynamo::start().await?;
/// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// # db.create_table_if_missing().await?;
/// db.put(&Customer { id: 42, name: "Ada".into(), open_orders: 1 }).await?;
/// let f = Customer::fields();
/// // Only a customer without open orders may go.
/// let refused = db.delete(Customer::key(42)?).condition(f.open_orders.equals(0)).await;
/// assert!(refused.unwrap_err().is_condition_failed());
/// db.update(Customer::key(42)?).set(f.open_orders, 0).await?;
/// db.delete(Customer::key(42)?).condition(f.open_orders.equals(0)).await?;
/// assert_eq!(db.get(Customer::key(42)?).await?, None);
/// // Deleting what is not there is not an error.
/// db.delete(Customer::key(42)?).await?;
/// # Ok(())
/// # }
/// ```
#[must_use = "nothing happens until you call `.send().await` (or `.await`)"]
pub struct Delete<'db, E: Entity> {
    db: &'db Db<E::Table>,
    key: Key<E>,
    condition: Option<Condition<E>>,
    expected_version: Option<u64>,
}

impl<T: Table> Db<T> {
    /// Deletes the entity with this key.
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
    /// db.put(&Customer { id: 42, name: "Ada".into() }).await?;
    /// let old = db.delete(Customer::key(42)?).returning_old().await?;
    /// assert_eq!(old.map(|c| c.name), Some("Ada".to_owned()));
    /// assert_eq!(db.delete(Customer::key(42)?).returning_old().await?, None);
    /// # Ok(())
    /// # }
    /// ```
    pub fn delete<E: Entity<Table = T>>(&self, key: Key<E>) -> Delete<'_, E> {
        Delete {
            db: self,
            key,
            condition: None,
            expected_version: None,
        }
    }
}

/// A [`Delete`] that returns the deleted entity, if there was one
/// ([`Delete::returning_old`]).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use ddb_entity::{Db, Entity, local::LocalDynamo};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
/// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// # struct Customer { id: u64, name: String, open_orders: u32 }
/// # let dynamo = LocalDynamo::start().await?;
/// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// # db.create_table_if_missing().await?;
/// db.put(&Customer { id: 42, name: "Ada".into(), open_orders: 0 }).await?;
/// let deleted: Option<Customer> = db.delete(Customer::key(42)?).returning_old().await?;
/// assert_eq!(deleted.map(|c| c.name).as_deref(), Some("Ada"));
/// # Ok(())
/// # }
/// ```
#[must_use = "nothing happens until you call `.send().await` (or `.await`)"]
pub struct DeleteReturningOld<'db, E: Entity>(Delete<'db, E>);

impl<'db, E: Entity> Delete<'db, E> {
    /// Delete only if `condition` holds for the stored item (else
    /// [`Error::is_condition_failed`]).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// # struct Customer { id: u64, name: String, open_orders: u32 }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// db.put(&Customer { id: 7, name: "Grace".into(), open_orders: 2 }).await?;
    /// let f = Customer::fields();
    /// let err = db.delete(Customer::key(7)?).condition(f.open_orders.equals(0)).await.unwrap_err();
    /// assert!(err.is_condition_failed());
    /// assert!(db.get(Customer::key(7)?).await?.is_some(), "still there");
    /// # Ok(())
    /// # }
    /// ```
    pub fn condition(mut self, condition: Condition<E>) -> Self {
        self.condition = Condition::both(self.condition.take(), Some(condition));
        self
    }

    /// Also return the entity as it was before the delete (`ALL_OLD`);
    /// `None` when there was none (or, after a lost answer, when the old
    /// item left with it).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "CART#{id}", sk = "CART")]
    /// struct Cart { id: u64, items: u32 }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// db.put(&Cart { id: 1, items: 3 }).await?;
    /// let old = db.delete(Cart::key(1)?).returning_old().await?;
    /// assert_eq!(old.map(|c| c.items), Some(3));
    /// assert!(db.delete(Cart::key(1)?).returning_old().await?.is_none());
    /// # Ok(())
    /// # }
    /// ```
    pub fn returning_old(self) -> DeleteReturningOld<'db, E> {
        DeleteReturningOld(self)
    }

    /// Sends the DeleteItem.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// # struct Customer { id: u64, name: String, open_orders: u32 }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// db.put(&Customer { id: 7, name: "Grace".into(), open_orders: 0 }).await?;
    /// // `.send().await`, or `.await` on the delete itself.
    /// db.delete(Customer::key(7)?).send().await?;
    /// assert_eq!(db.get(Customer::key(7)?).await?, None);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn send(self) -> Result<()> {
        self.run(ReturnValue::None).await.map(drop)
    }

    async fn run(self, returning: ReturnValue) -> Result<Option<Item>> {
        let table = self.db.table_name();
        let span = tracing::info_span!(
            "ddb.delete",
            table,
            entity = E::RUST_NAME,
            consumed_rcu = tracing::field::Empty,
            consumed_wcu = tracing::field::Empty,
        );
        async move {
            let (db, key, parts) = self.into_parts();
            let mut charge = db.charge();
            let parts = parts?;
            let attempts = Attempts::default();
            let response = request(db, &key, &parts, returning)
                .customize()
                .interceptor(attempts.clone())
                .send()
                .await;
            let err = match response {
                Ok(output) => {
                    charge.write(output.consumed_capacity());
                    return Ok(output.attributes.filter(|item| !item.is_empty()));
                }
                Err(err) => {
                    charge.failed();
                    err
                }
            };
            let client = db.client();
            let Some(returned) = condition_failure(&err) else {
                // No answer, or a server error: it may have been applied.
                // The item gone is what the delete asked for.
                if (attempts.ambiguous() || is_ambiguous(&err))
                    && let Ok(None) =
                        read_stored(client, table, key.to_attributes(), &mut charge).await
                {
                    return Ok(None);
                }
                return Err(Error::service("DeleteItem", table, err));
            };
            let item_key = key.to_attributes();
            let stored =
                stored_after_failure(db, item_key, returned, &attempts, &mut charge).await?;
            let at = (key.partition(), key.sort());
            if let Some(foreign) =
                failure::foreign::<E>(&E::Table::SCHEMA, "delete", at, stored.as_ref())
            {
                return Err(foreign);
            }
            if stored.is_none() && attempts.ambiguous() {
                // The condition failed on no item, after an attempt that may
                // have been applied: the item is gone, as the delete asked;
                // most likely this call's earlier attempt deleted it.
                return Ok(None);
            }
            let conflict = parts
                .version
                .and_then(|expected| expected.conflict(E::RUST_NAME, at, stored.as_ref()));
            Err(conflict.unwrap_or_else(|| {
                let source = Error::service("DeleteItem", table, err);
                failure::condition_failed("delete", E::RUST_NAME, at, source)
            }))
        }
        .instrument(span)
        .await
    }

    /// The DeleteItem that [`send`](Delete::send) would send, without
    /// sending it: the key, the condition (the type guard, yours, the
    /// version), their attribute names and values — built by the same
    /// function.
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
    /// #[entity(table = App, pk = "DOC#{id}", sk = "DOC", version = "version")]
    /// struct Doc { id: u64, #[serde(default)] version: u64 }
    ///
    /// let db = Db::<App>::new(client(), "app"); // nothing is sent
    /// let request = db.delete(Doc::key(7)?).expect_version(3).preview()?;
    /// assert_eq!(request.key().unwrap()["SK"].as_s().unwrap(), "DOC");
    /// let values = request.expression_attribute_values().unwrap();
    /// assert!(values.values().any(|v| v.as_n().is_ok_and(|n| n == "3")));
    /// # Ok::<(), ddb_entity::Error>(())
    /// ```
    pub fn preview(self) -> Result<DeleteItemInput> {
        let (db, key, parts) = self.into_parts();
        let request = request(db, &key, &parts?, ReturnValue::None);
        preview::built("DeleteItem", request.as_input().clone().build())
    }

    /// The handle it was made on.
    pub(crate) fn db(&self) -> &'db Db<E::Table> {
        self.db
    }

    /// The table, the key, and the parts of the DeleteItem (or why they
    /// cannot be built): shared by [`send`](Delete::send) and transactions.
    pub(crate) fn into_parts(self) -> (&'db Db<E::Table>, Key<E>, Result<DeleteParts>) {
        let parts = parts::<E>(self.condition, self.expected_version);
        (self.db, self.key, parts)
    }
}

/// The DeleteItem of `parts` at `key`: the one place [`Delete::send`] and
/// [`Delete::preview`] build it.
fn request<E: Entity>(
    db: &Db<E::Table>,
    key: &Key<E>,
    parts: &DeleteParts,
    returning: ReturnValue,
) -> DeleteItemFluentBuilder {
    db.client()
        .delete_item()
        .table_name(db.table_name())
        .set_key(Some(key.to_attributes()))
        .set_condition_expression(parts.condition.clone())
        .set_expression_attribute_names(parts.placeholders.names_or_none())
        .set_expression_attribute_values(parts.placeholders.values_or_none())
        .return_values(returning)
        .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld)
        .return_consumed_capacity(ReturnConsumedCapacity::Total)
}

/// The parts of one DeleteItem, shared by [`Delete`] and transactions.
pub(crate) struct DeleteParts {
    /// "No item, or one of this type", the caller's condition and the
    /// version check, joined by AND.
    pub(crate) condition: Option<String>,
    pub(crate) placeholders: Placeholders,
    /// The version the delete expects stored, when it checks one.
    pub(crate) version: Option<Expected>,
}

/// Builds the condition of a delete: the type guard (an item of another
/// type at the key is left untouched; a missing item is still no error),
/// the caller's condition and the version check.
pub(crate) fn parts<E: Entity>(
    condition: Option<Condition<E>>,
    expected_version: Option<u64>,
) -> Result<DeleteParts> {
    let expected = version::expected::<E>(expected_version);
    let condition = Condition::both(
        Condition::both(Some(Condition::absent_or_of_type()), condition),
        expected.map(|expected| version::expect::<E>(expected.attribute, expected.version)),
    );
    let mut placeholders = Placeholders::default();
    let condition = condition.map(|c| c.render(&mut placeholders)).transpose()?;
    Ok(DeleteParts {
        condition,
        placeholders,
        version: expected,
    })
}

impl<E: Versioned> Delete<'_, E> {
    /// Delete only if the stored version is `version`; else
    /// [`Error::is_version_conflict`].
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
    /// db.create(&Doc { id: 1, text: "v1".into(), version: 0 }).await?;
    /// let read = db.get(Doc::key(1)?).await?.unwrap(); // version 1
    /// db.update(Doc::key(1)?).set(Doc::fields().text, "v2".to_owned()).await?; // someone edits: 2
    /// let stale = db.delete(Doc::key(1)?).expect_version(read.version).await.unwrap_err();
    /// assert!(stale.is_version_conflict());
    /// db.delete(Doc::key(1)?).expect_version(2).await?;
    /// # Ok(())
    /// # }
    /// ```
    pub fn expect_version(mut self, version: u64) -> Self {
        self.expected_version = Some(version);
        self
    }
}

impl<E: Entity> DeleteReturningOld<'_, E> {
    /// Sends the DeleteItem; `Ok(None)` when there was no such item.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
    /// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// # struct Customer { id: u64, name: String, open_orders: u32 }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// db.put(&Customer { id: 7, name: "Grace".into(), open_orders: 0 }).await?;
    /// let old = db.delete(Customer::key(7)?).returning_old().send().await?;
    /// assert_eq!(old.map(|c| c.name).as_deref(), Some("Grace"));
    /// assert_eq!(db.delete(Customer::key(7)?).returning_old().send().await?, None);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn send(self) -> Result<Option<E>> {
        let key = self.0.key.clone();
        let old = self.0.run(ReturnValue::AllOld).await?;
        old.map(|item| failure::decode_applied::<E>("delete", (key.partition(), key.sort()), item))
            .transpose()
    }
}

into_future!(['db, E: Entity] Delete<'db, E> => ());
into_future!(['db, E: Entity] DeleteReturningOld<'db, E> => Option<E>);
