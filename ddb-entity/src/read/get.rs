//! GetItem: one entity by its whole primary key.

use aws_sdk_dynamodb::types::ReturnConsumedCapacity;
use tracing::Instrument;

use crate::db::Db;
use crate::entity::{Entity, Key, convert};
use crate::error::{Error, Result};
use crate::future::into_future;
use crate::item::ttl;
use crate::table::Table;

/// Reads one entity by key: `Ok(None)` when there is no such item. Made by
/// [`Db::get`].
///
/// **Retrying** is safe: a read changes nothing (the SDK's retries resend
/// it as is). The write token the library stores is never part of the
/// entity read.
#[must_use = "nothing happens until you call `.send().await` (or `.await`)"]
pub struct Get<'db, E: Entity> {
    db: &'db Db<E::Table>,
    key: Key<E>,
    consistent: bool,
    include_expired: bool,
}

impl<T: Table> Db<T> {
    /// Reads the entity with this key (one GetItem).
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
    /// let ada = db.get(Customer::key(42)?).consistent_read(true).await?;
    /// assert_eq!(ada.map(|c| c.name), Some("Ada".to_owned()));
    /// assert_eq!(db.get(Customer::key(7)?).await?, None);
    /// # Ok(())
    /// # }
    /// ```
    pub fn get<E: Entity<Table = T>>(&self, key: Key<E>) -> Get<'_, E> {
        Get {
            db: self,
            key,
            consistent: false,
            include_expired: false,
        }
    }
}

impl<E: Entity> Get<'_, E> {
    /// A strongly consistent read (twice the read capacity).
    pub fn consistent_read(mut self, consistent: bool) -> Self {
        self.consistent = consistent;
        self
    }

    /// Also return an item past its time to live that DynamoDB has not
    /// deleted yet (by default such an item reads as `None`).
    pub fn include_expired(mut self, include: bool) -> Self {
        self.include_expired = include;
        self
    }

    /// Sends the GetItem.
    pub async fn send(self) -> Result<Option<E>> {
        let table = self.db.table_name();
        let span = tracing::info_span!(
            "ddb.get",
            table,
            entity = E::RUST_NAME,
            found = tracing::field::Empty,
            consumed_rcu = tracing::field::Empty,
            consumed_wcu = tracing::field::Empty,
        );
        async move {
            let mut charge = self.db.charge();
            let output = self
                .db
                .client()
                .get_item()
                .table_name(table)
                .set_key(Some(self.key.to_attributes()))
                .consistent_read(self.consistent)
                .return_consumed_capacity(ReturnConsumedCapacity::Total)
                .send()
                .await;
            let output = match output {
                Ok(output) => {
                    charge.read(output.consumed_capacity());
                    output
                }
                Err(err) => {
                    charge.failed();
                    return Err(Error::service("GetItem", table, err));
                }
            };
            let now = self.db.now();
            let item = output.item.filter(|item| {
                self.include_expired || !ttl::is_expired(item, &E::Table::SCHEMA, now)
            });
            tracing::Span::current().record("found", item.is_some());
            item.map(convert::from_item_by_key).transpose()
        }
        .instrument(span)
        .await
    }
}

into_future!(['db, E: Entity] Get<'db, E> => Option<E>);
