//! DeleteItem: remove an entity by key, optionally returning it.

use std::future::{Future, IntoFuture};
use std::pin::Pin;

use aws_sdk_dynamodb::types::ReturnValue;
use tracing::Instrument;

use crate::db::Db;
use crate::entity::{Entity, Key};
use crate::error::{Error, Result};
use crate::table::Table;

/// Deletes one entity by key (DeleteItem); deleting a missing item is not
/// an error. Made by [`Db::delete`].
#[must_use = "nothing happens until you call `.send().await` (or `.await`)"]
pub struct Delete<'db, E: Entity> {
    db: &'db Db<E::Table>,
    key: Key<E>,
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
        Delete { db: self, key }
    }
}

/// A [`Delete`] that returns the deleted entity, if there was one.
#[must_use = "nothing happens until you call `.send().await` (or `.await`)"]
pub struct DeleteReturningOld<'db, E: Entity>(Delete<'db, E>);

impl<'db, E: Entity> Delete<'db, E> {
    /// Also return the item as it was before the delete (`ALL_OLD`).
    pub fn returning_old(self) -> DeleteReturningOld<'db, E> {
        DeleteReturningOld(self)
    }

    /// Sends the DeleteItem.
    pub async fn send(self) -> Result<()> {
        self.run(ReturnValue::None).await.map(drop)
    }

    async fn run(self, returning: ReturnValue) -> Result<Option<crate::Item>> {
        let table = self.db.table_name();
        let span = tracing::info_span!("ddb.delete", table, entity = E::NAME);
        async move {
            let output = self
                .db
                .client()
                .delete_item()
                .table_name(table)
                .set_key(Some(self.key.to_attributes()))
                .return_values(returning)
                .send()
                .await
                .map_err(|err| Error::service("DeleteItem", table, err))?;
            Ok(output.attributes.filter(|item| !item.is_empty()))
        }
        .instrument(span)
        .await
    }
}

impl<E: Entity> DeleteReturningOld<'_, E> {
    /// Sends the DeleteItem; `Ok(None)` when there was no such item.
    pub async fn send(self) -> Result<Option<E>> {
        let old = self.0.run(ReturnValue::AllOld).await?;
        old.map(E::from_item).transpose()
    }
}

impl<'db, E: Entity + Sync + 'db> IntoFuture for Delete<'db, E> {
    type Output = Result<()>;
    type IntoFuture = Pin<Box<dyn Future<Output = Self::Output> + Send + 'db>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}

impl<'db, E: Entity + Send + Sync + 'db> IntoFuture for DeleteReturningOld<'db, E> {
    type Output = Result<Option<E>>;
    type IntoFuture = Pin<Box<dyn Future<Output = Self::Output> + Send + 'db>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}
