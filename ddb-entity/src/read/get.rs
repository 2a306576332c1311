//! GetItem: one entity by its whole primary key.

use std::marker::PhantomData;

use aws_sdk_dynamodb::types::ReturnConsumedCapacity;
use tracing::Instrument;

use crate::db::Db;
use crate::entity::stored::Stored;
use crate::entity::{Entity, Key, convert};
use crate::error::{Error, Result};
use crate::expr::Placeholders;
use crate::future::into_future;
use crate::table::Table;

use super::engine::found::Origin;
use super::engine::seam::Body;
use super::engine::single::read_item;
use super::plan::{ReadOperation, ReadPlan, SortCondition};
use super::query::projection;
use super::shape::{Projected, ReadShape, Whole};

/// Reads one entity by key: `Ok(None)` when there is no such item. Made by
/// [`Db::get`].
///
/// **Retrying** is safe: a read changes nothing (the SDK's retries resend
/// it as is). The write token the library stores is never part of the
/// entity read.
///
/// # Example
///
/// Every setting; [`projection`](Get::projection) reads only the
/// attributes named (and the keys and the type), into a
/// [`Partial`](crate::read::Partial):
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use ddb_entity::{Db, Entity, local::LocalDynamo};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK", ttl_attribute: "expires" } }
/// #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
/// #[entity(table = App, pk = "SESSION#{id}", sk = "SESSION")]
/// struct Session { id: u64, user: String, #[serde(default)] data: String, expires: u64 }
///
/// # let dynamo = LocalDynamo::start().await?;
/// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// # db.create_table_if_missing().await?;
/// db.put(&Session { id: 1, user: "ada".into(), data: "x".repeat(4000), expires: 1_000 }).await?;
/// // Past its time to live and not deleted yet: hidden unless asked for.
/// assert!(db.get(Session::key(1)?).await?.is_none());
/// let session = db.get(Session::key(1)?).consistent_read(true).include_expired(true).send().await?;
/// assert_eq!(session.unwrap().data.len(), 4000);
///
/// // Only the user (the keys and the time to live come along).
/// let user = db.get(Session::key(1)?).projection(["user"]).include_expired(true).await?.unwrap();
/// assert_eq!((user.user.as_str(), user.data.as_str(), user.expires), ("ada", "", 1_000));
/// # Ok(())
/// # }
/// ```
#[must_use = "nothing happens until you call `.send().await` (or `.await`)"]
pub struct Get<'db, E: Entity, S: ReadShape = Whole> {
    db: &'db Db<E::Table>,
    key: Key<E>,
    consistent: bool,
    include_expired: bool,
    projection: Option<Vec<&'static str>>,
    shape: PhantomData<fn() -> S>,
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
            projection: None,
            shape: PhantomData,
        }
    }
}

impl<'db, E: Entity> Get<'db, E, Whole> {
    /// Read only these attributes (a `ProjectionExpression`), plus the
    /// key attributes, the type attribute and the time-to-live attribute,
    /// which typed reads need (stored-key verification, routing, hiding
    /// expired items): the entity comes back as a
    /// [`Partial`](crate::read::Partial), its other fields at their absent
    /// values (`Option`s, `#[serde(default)]`). A projection saves
    /// bandwidth, not read capacity: DynamoDB bills the whole item.
    ///
    /// See [the example](Get#example).
    pub fn projection(
        self,
        attributes: impl IntoIterator<Item = &'static str>,
    ) -> Get<'db, E, Projected> {
        Get {
            db: self.db,
            key: self.key,
            consistent: self.consistent,
            include_expired: self.include_expired,
            projection: Some(attributes.into_iter().collect()),
            shape: PhantomData,
        }
    }
}

impl<E: Entity, S: ReadShape> Get<'_, E, S> {
    /// A strongly consistent read (twice the read capacity).
    ///
    /// See [the example](Get#example).
    pub fn consistent_read(mut self, consistent: bool) -> Self {
        self.consistent = consistent;
        self
    }

    /// Also return an item past its time to live that DynamoDB has not
    /// deleted yet (by default such an item reads as `None`).
    ///
    /// See [the example](Get#example).
    pub fn include_expired(mut self, include: bool) -> Self {
        self.include_expired = include;
        self
    }

    /// What this GetItem would send, without sending it: the key as a
    /// partition and an equal sort key.
    ///
    /// ```
    /// # use ddb_entity::{Db, Entity, op::{ReadOperation, SortCondition}};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// struct Customer { id: u64 }
    ///
    /// # let config = ddb_entity::sdk::Config::builder()
    /// #     .behavior_version(ddb_entity::sdk::config::BehaviorVersion::latest()).build();
    /// # let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    /// let plan = db.get(Customer::key(42)?).plan();
    /// assert_eq!(plan.operation, ReadOperation::GetItem);
    /// assert_eq!(plan.sort, SortCondition::Equal("PROFILE".into()));
    /// # Ok::<(), ddb_entity::Error>(())
    /// ```
    pub fn plan(&self) -> ReadPlan {
        let keys = <E::Table as Table>::SCHEMA.primary;
        ReadPlan {
            operation: ReadOperation::GetItem,
            index: None,
            keys,
            partition: self.key.partition().to_owned(),
            sort: match keys.sort_key {
                Some(_) => SortCondition::Equal(self.key.sort().to_owned()),
                None => SortCondition::All,
            },
            filter: None,
            projection: self.projection.clone(),
            reverse: false,
            limit: Some(1),
            consistent: self.consistent,
        }
    }

    /// Sends the GetItem.
    ///
    /// See [the example](Get#example).
    pub async fn send(self) -> Result<Option<S::Of<E>>> {
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
            let schema = E::Table::SCHEMA;
            let mut p = Placeholders::default();
            let projected = self
                .projection
                .as_ref()
                .map(|attributes| projection(&schema, schema.primary, &[], attributes, &mut p));
            let mut charge = self.db.charge();
            // The item is decoded from the response's bytes (the seam),
            // not from the SDK's `AttributeValue`s.
            let body = Body::default();
            let output = self
                .db
                .client()
                .get_item()
                .table_name(table)
                .set_key(Some(self.key.to_attributes()))
                .consistent_read(self.consistent)
                .set_projection_expression(projected)
                .set_expression_attribute_names(p.names_or_none())
                .return_consumed_capacity(ReturnConsumedCapacity::Total)
                .customize()
                .interceptor(body.capture())
                .send()
                .await;
            let origin = Origin::new("GetItem", table);
            // A failed request, or a body that is not DynamoDB's JSON, was
            // sent and is charged as a request.
            let bytes = match output.map_err(|err| Error::service("GetItem", table, err)) {
                Ok(_) => body.take(&origin),
                Err(err) => Err(err),
            };
            let answer = bytes.and_then(|bytes| {
                let answer = read_item(&bytes, &origin)?;
                charge.read(answer.capacity.as_ref());
                let found = found::<E>(answer.item, self.include_expired, self.db.now());
                Ok(found)
            });
            let found = match answer {
                Ok(found) => found?,
                Err(err) => {
                    charge.failed();
                    return Err(err);
                }
            };
            tracing::Span::current().record("found", found.is_some());
            Ok(found.map(S::of))
        }
        .instrument(span)
        .await
    }
}

/// The one decoding of an item read by its key (a get, a batch get, a
/// transaction's get), held as the SDK parsed it or as parsed from the
/// response's bytes: an item past its time to live hidden (unless
/// `include_expired`), the rest decoded as an `E` read by its key (type
/// checked, stored keys verified).
pub(crate) fn found<'de, E: Entity>(
    item: Option<impl Stored<'de>>,
    include_expired: bool,
    now: std::time::SystemTime,
) -> Result<Option<E>> {
    item.filter(|item| include_expired || !item.is_expired(&E::Table::SCHEMA, now))
        .map(convert::from_item_by_key)
        .transpose()
}

into_future!(['db, E: Entity, S: ReadShape] Get<'db, E, S> => Option<S::Of<E>>);
