//! Whole or projected: what a read by key (get, batch get, transact get)
//! hands back. A read with a projection returns [`Partial`] values, which
//! no write takes, so a value missing the attributes it was not read with
//! is never written back over the stored item by mistake.

use std::ops::Deref;

/// Whether a read by key returns whole entities ([`Whole`], the default) or
/// ones read with a projection ([`Projected`]: each value a [`Partial`]).
/// Sealed: the two are all there is.
///
/// # Example
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use ddb_entity::{Db, Entity, local::LocalDynamo};
/// use ddb_entity::op::{Get, Partial, Projected, ReadShape, Whole};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// #[derive(Entity, Serialize, Deserialize, Debug)]
/// #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// struct Customer { id: u64, name: String, #[serde(default)] notes: String }
///
/// // Generic over the shape: whole or projected, one function.
/// async fn found<S: ReadShape>(get: Get<'_, Customer, S>) -> ddb_entity::Result<bool> {
///     Ok(get.send().await?.is_some())
/// }
///
/// # let dynamo = LocalDynamo::start().await?;
/// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// # db.create_table_if_missing().await?;
/// db.put(&Customer { id: 1, name: "Ada".into(), notes: "x".repeat(1000) }).await?;
/// let whole: Get<'_, Customer, Whole> = db.get(Customer::key(1)?);
/// let projected: Get<'_, Customer, Projected> = db.get(Customer::key(1)?).projection(["name"]);
/// assert!(found(whole).await? && found(projected).await?);
///
/// let name: Option<Partial<Customer>> = db.get(Customer::key(1)?).projection(["name"]).await?;
/// let name = name.unwrap();
/// assert_eq!((name.name.as_str(), name.notes.as_str()), ("Ada", ""));
/// # Ok(())
/// # }
/// ```
pub trait ReadShape: sealed::Sealed + Send + Sync + 'static {
    /// What a value `V` read in this shape is handed back as: `V` itself,
    /// or a [`Partial<V>`].
    ///
    /// See [the example](ReadShape#example).
    type Of<V>;

    /// `value`, as read in this shape.
    ///
    /// See [the example](ReadShape#example).
    fn of<V>(value: V) -> Self::Of<V>;
}

/// Whole items: every attribute read, values handed back as they are.
///
/// See [`ReadShape`'s example](ReadShape#example).
#[derive(Debug, Clone, Copy, Default)]
pub struct Whole;

/// Items read with a projection: only the attributes asked for (and what
/// every typed read needs), values handed back as [`Partial`]s.
///
/// See [`ReadShape`'s example](ReadShape#example).
#[derive(Debug, Clone, Copy, Default)]
pub struct Projected;

impl ReadShape for Whole {
    type Of<V> = V;

    fn of<V>(value: V) -> V {
        value
    }
}

impl ReadShape for Projected {
    type Of<V> = Partial<V>;

    fn of<V>(value: V) -> Partial<V> {
        Partial(value)
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Whole {}
    impl Sealed for super::Projected {}
}

/// A value read with a projection (an entity, or a collection of them):
/// the attributes asked for, the keys and the type, and every other field
/// at what its type takes when the attribute is absent (`None`,
/// `#[serde(default)]`). Read it through `Deref` (`partial.name`).
///
/// It is not the stored item, so no write takes it: `put`, `create`, a
/// transaction's or a batch's put all take a whole entity, and a
/// `Partial<Customer>` is not one —
///
/// ```compile_fail
/// # async fn f(db: &ddb_entity::Db<App>) -> Result<(), Box<dyn std::error::Error>> {
/// # use ddb_entity::Entity;
/// # use serde::{Deserialize, Serialize};
/// # #[derive(Entity, Serialize, Deserialize)]
/// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// # struct Customer { id: u64, #[serde(default)] name: String }
/// let partial = db.get(Customer::key(1)?).projection(["id"]).await?.unwrap();
/// db.put(&partial).await?; // a partial customer is not a customer
/// # Ok(()) }
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// ```
///
/// — and writing one back takes the explicit
/// [`into_partial`](Partial::into_partial) (or `&*partial`), which says
/// what it is.
///
/// # Example
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use ddb_entity::{Db, Entity, local::LocalDynamo, op::Partial};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
/// #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// struct Customer { id: u64, #[serde(default)] name: String, #[serde(default)] notes: String }
///
/// # let dynamo = LocalDynamo::start().await?;
/// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// # db.create_table_if_missing().await?;
/// db.put(&Customer { id: 1, name: "Ada".into(), notes: "long".into() }).await?;
/// let partial: Partial<Customer> = db.get(Customer::key(1)?).projection(["name"]).await?.unwrap();
/// assert_eq!(partial.name, "Ada"); // through Deref
/// assert_eq!(partial.notes, "", "not read");
/// let value: Customer = partial.into_partial();
/// assert_eq!(value, Customer { id: 1, name: "Ada".into(), notes: String::new() });
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Partial<V>(V);

impl<V> Partial<V> {
    /// The value, with the fields that were not read at their absent
    /// values: writing it back would store those.
    ///
    /// See [the example](Partial#example).
    pub fn into_partial(self) -> V {
        self.0
    }
}

impl<V> Deref for Partial<V> {
    type Target = V;

    fn deref(&self) -> &V {
        &self.0
    }
}
