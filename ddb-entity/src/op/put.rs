//! PutItem: upsert an entity, or create it only if its key is free.

use std::future::{Future, IntoFuture};
use std::pin::Pin;

use aws_sdk_dynamodb::operation::put_item::PutItemError;
use tracing::Instrument;

use crate::db::Db;
use crate::entity::Entity;
use crate::error::{Error, Result};
use crate::table::Table;

/// Writes one entity (PutItem). Made by [`Db::put`] (replace whatever has
/// the key) or [`Db::create`] (fail if something has it).
#[must_use = "nothing happens until you call `.send().await` (or `.await`)"]
pub struct Put<'db, 'e, E: Entity> {
    db: &'db Db<E::Table>,
    entity: &'e E,
    only_if_new: bool,
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
        }
    }
}

impl<E: Entity> Put<'_, '_, E> {
    /// Sends the PutItem.
    pub async fn send(self) -> Result<()> {
        let table = self.db.table_name();
        let operation = if self.only_if_new { "create" } else { "put" };
        let span = tracing::info_span!("ddb.put", table, entity = E::NAME, operation);
        async move {
            let item = self.entity.to_item()?;
            let mut request = self
                .db
                .client()
                .put_item()
                .table_name(table)
                .set_item(Some(item));
            if self.only_if_new {
                // The partition key exists on every stored item, so its
                // absence means "no item with this key".
                request = request
                    .condition_expression("attribute_not_exists(#pk)")
                    .expression_attribute_names("#pk", E::Table::SCHEMA.primary.partition_key);
            }
            match request.send().await {
                Ok(_) => Ok(()),
                Err(err) if self.only_if_new && is_condition_failure(&err) => {
                    let (partition, sort) = self.entity.primary_key()?.into_parts();
                    Err(Error::AlreadyExists {
                        entity: E::NAME,
                        partition,
                        sort,
                        source: Box::new(Error::service("PutItem", table, err)),
                    })
                }
                Err(err) => Err(Error::service("PutItem", table, err)),
            }
        }
        .instrument(span)
        .await
    }
}

fn is_condition_failure<R>(err: &aws_sdk_dynamodb::error::SdkError<PutItemError, R>) -> bool {
    err.as_service_error()
        .is_some_and(PutItemError::is_conditional_check_failed_exception)
}

impl<'db, 'e, E: Entity + Sync> IntoFuture for Put<'db, 'e, E>
where
    'e: 'db,
{
    type Output = Result<()>;
    type IntoFuture = Pin<Box<dyn Future<Output = Self::Output> + Send + 'db>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}
