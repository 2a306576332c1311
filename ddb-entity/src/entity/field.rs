//! Typed handles on an entity's fields, for updates and conditions.

use std::fmt;
use std::marker::PhantomData;

/// A field of entity `E` holding a `T`, as `E::fields().name` hands it out:
/// what an [`Update`](crate::write::Update) sets, removes or adds to and what
/// a [`Condition`](crate::expr::Condition) compares, so both can only name fields
/// that exist, with values of their type.
///
/// `R` is the field's key role, known to the derive: a field of the
/// primary key ([`PrimaryKeyPart`]) cannot be changed by an update (that
/// would be another item), and a field of an index key ([`IndexKeyPart`])
/// can be set but not added to (its new key would be unknown). Both are
/// compile errors:
///
/// ```compile_fail
/// # use ddb_entity::{Db, Entity};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// struct Customer { id: u64, name: String }
///
/// fn rename(db: &Db<App>) -> ddb_entity::Result<()> {
///     let _ = db.update(Customer::key(1)?).set(Customer::fields().id, 2); // `id` is the key
///     Ok(())
/// }
/// ```
///
/// # Example
///
/// Each field's role, and what the role allows:
///
/// ```
/// use ddb_entity::Entity;
/// use ddb_entity::field::{Addable, Field, IndexKeyPart, KeyOnly, Settable, Stored, Unkeyed};
/// use serde::{Deserialize, Serialize};
///
/// ddb_entity::table! {
///     pub struct App {
///         partition_key: "PK",
///         sort_key: "SK",
///         indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } },
///     }
/// }
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// #[entity(index = Gsi1, pk = "EMAIL#{email}", sk = "PROFILE")]
/// struct Customer { id: u64, email: String, #[serde(rename = "n")] name: String, visits: u64 }
///
/// let f = Customer::fields();
/// let _: Field<Customer, u64, KeyOnly> = f.id; // stored in the key only
/// let _: Field<Customer, String, IndexKeyPart> = f.email;
/// let name: Field<Customer, String, Stored> = f.name;
/// assert_eq!((name.name(), name.attribute()), ("name", "n"));
///
/// fn settable<T, R: Settable>(_: Field<Customer, T, R>) {}
/// fn addable<T, R: Addable>(_: Field<Customer, T, R>) {}
/// fn computed_on_the_server<T, R: Unkeyed>(_: Field<Customer, T, R>) {}
/// settable(f.email); // the index key follows
/// settable(f.name);
/// addable(f.visits);
/// computed_on_the_server(f.visits);
/// ```
pub struct Field<E, T, R = Stored> {
    name: &'static str,
    attribute: &'static str,
    types: PhantomData<Marker<E, T, R>>,
}

/// The types a [`Field`] is about, held without owning any of them.
type Marker<E, T, R> = fn() -> (E, T, R);

/// The key role of a field in no key template: an update may do anything
/// to it.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use ddb_entity::{Db, Entity, local::LocalDynamo};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
/// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
/// #[derive(Entity, Serialize, Deserialize, Debug)]
/// #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// #[entity(index = Gsi1, pk = "EMAIL#{email}", sk = "PROFILE")]
/// struct Customer { id: u64, email: String, visits: u64, tags: Vec<String> }
///
/// # let dynamo = LocalDynamo::start().await?;
/// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// # db.create_table_if_missing().await?;
/// db.put(&Customer { id: 1, email: "ada@example.com".into(), visits: 0, tags: vec![] }).await?;
/// let f = Customer::fields();
/// let ada = db.update(Customer::key(1)?).add(f.visits, 1).append(f.tags, vec!["vip".to_owned()]).await?;
/// assert_eq!((ada.visits, ada.tags.as_slice()), (1, &["vip".to_owned()][..]));
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Stored;

/// The key role of a field in an index key template only: an update may
/// set it (the index key follows), not add to it.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use ddb_entity::{Db, Entity, local::LocalDynamo};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
/// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
/// #[derive(Entity, Serialize, Deserialize, Debug)]
/// #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// #[entity(index = Gsi1, pk = "EMAIL#{email}", sk = "PROFILE")]
/// struct Customer { id: u64, email: String, visits: u64, tags: Vec<String> }
///
/// # let dynamo = LocalDynamo::start().await?;
/// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// # db.create_table_if_missing().await?;
/// db.put(&Customer { id: 1, email: "ada@example.com".into(), visits: 0, tags: vec![] }).await?;
/// let f = Customer::fields();
/// // `email` fills GSI1's key: setting it moves the item in the index.
/// db.update(Customer::key(1)?).set(f.email, "ada@lovelace.org".to_owned()).await?;
/// let found: Vec<Customer> = db.query(Customer::gsi1_partition("ada@lovelace.org")?).all().await?;
/// assert_eq!(found.len(), 1);
/// assert!(db.query(Customer::gsi1_partition("ada@example.com")?).all::<Customer>().await?.is_empty());
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, Copy)]
pub struct IndexKeyPart;

/// The key role of a field of the primary key that is also stored as an
/// attribute (`#[entity(key_fields = "key_and_body")]`, or a field only a
/// shard is computed from): no update may change it.
///
/// ```
/// use ddb_entity::Entity;
/// use ddb_entity::field::{Field, PrimaryKeyPart};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE", key_fields = "key_and_body")]
/// struct Customer { id: u64, name: String }
///
/// // Kept in the body too: a filter or a condition may compare it...
/// let id: Field<Customer, u64, PrimaryKeyPart> = Customer::fields().id;
/// let _only_customer_1 = id.equals(1);
/// // ...but `db.update(key).set(id, 2)` does not compile: another key is another item.
/// ```
#[derive(Debug, Clone, Copy)]
pub struct PrimaryKeyPart;

/// The key role of a field of the primary key stored in the key only (the
/// default for a hole of the table's partition or sort key): reads take it
/// from the parsed key, no update may change it, and no filter or condition
/// can name it, since the item has no such attribute.
///
/// ```compile_fail
/// # use ddb_entity::{Db, Entity};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// struct Customer { id: u64, name: String }
///
/// let _ = Customer::fields().id.equals(1); // `id` is stored in the key only
/// ```
///
/// Kept as an attribute too, the field can be named:
///
/// ```
/// # use ddb_entity::Entity;
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE", key_fields = "key_and_body")]
/// struct Customer { id: u64, name: String }
///
/// let _ = Customer::fields().id.equals(1);
/// assert!(Customer { id: 1, name: "Ada".into() }.to_item()?.contains_key("id"));
/// # Ok::<(), ddb_entity::Error>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct KeyOnly;

/// Key roles whose field is stored as an attribute of the item, so a
/// filter or a condition can compare it.
#[diagnostic::on_unimplemented(
    message = "this field is stored in the key only, not as an attribute, so a filter or condition cannot name it",
    label = "a field stored in the key only",
    note = "compare it in the key condition instead (the entity's `sk()` prefix or a `SortRange`, or the partition), or keep a copy in the body with #[entity(key_fields = \"key_and_body\")]"
)]
///
/// ```
/// use ddb_entity::Entity;
/// use ddb_entity::field::{InBody, Stored};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// struct Customer { id: u64, visits: u64 }
///
/// fn in_body<R: InBody>(_: &ddb_entity::field::Field<Customer, u64, R>) {}
/// in_body(&Customer::fields().visits); // a body attribute: filters may name it
/// let _ = Customer::fields().visits.gt(3);
/// # let _: &ddb_entity::field::Field<Customer, u64, Stored> = &Customer::fields().visits;
/// ```
///
/// `id` fills the key and is stored in the key only: a filter cannot
/// name it.
///
/// ```compile_fail
/// # use ddb_entity::Entity;
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// # #[derive(Entity, Serialize, Deserialize)]
/// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// # struct Customer { id: u64, visits: u64 }
/// let _ = Customer::fields().id.equals(1);
/// ```
pub trait InBody: sealed::Sealed {}

impl InBody for Stored {}
impl InBody for IndexKeyPart {}
impl InBody for PrimaryKeyPart {}

/// Key roles whose field an update may set or remove: a field in no key
/// template, or in an index's only.
///
/// ```
/// use ddb_entity::{Db, Entity, Key};
/// use ddb_entity::field::{Field, Settable};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// # #[derive(Entity, Serialize, Deserialize)]
/// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// # struct Customer { id: u64, name: String, nickname: Option<String> }
///
/// /// Clears any optional field an update may change.
/// async fn clear<T, R: Settable>(
///     db: &Db<App>,
///     key: Key<Customer>,
///     field: Field<Customer, Option<T>, R>,
/// ) -> ddb_entity::Result<Customer>
/// where
///     T: serde::Serialize + Send + Sync + 'static,
/// {
///     db.update(key).remove(field).await
/// }
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # let dynamo = ddb_entity::local::LocalDynamo::start().await?;
/// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// # db.create_table_if_missing().await?;
/// db.put(&Customer { id: 1, name: "Ada".into(), nickname: Some("Countess".into()) }).await?;
/// let ada = clear(&db, Customer::key(1)?, Customer::fields().nickname).await?;
/// assert_eq!(ada.nickname, None);
/// # Ok(())
/// # }
/// ```
#[diagnostic::on_unimplemented(
    message = "this field is part of the entity's primary key, so an update cannot change it",
    label = "a primary-key field",
    note = "changing a primary-key field makes another item: delete this one and put the new one (in one transaction if both must happen)"
)]
pub trait Settable: sealed::Sealed {}

impl Settable for Stored {}
impl Settable for IndexKeyPart {}

/// Key roles whose field an update may add to: a field in no key
/// template.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use ddb_entity::{Db, Entity, local::LocalDynamo};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
/// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
/// #[derive(Entity, Serialize, Deserialize, Debug)]
/// #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// #[entity(index = Gsi1, pk = "EMAIL#{email}", sk = "PROFILE")]
/// struct Customer { id: u64, email: String, visits: u64, tags: Vec<String> }
///
/// # let dynamo = LocalDynamo::start().await?;
/// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// # db.create_table_if_missing().await?;
/// db.put(&Customer { id: 1, email: "ada@example.com".into(), visits: 0, tags: vec![] }).await?;
/// let f = Customer::fields();
/// fn bump<R: ddb_entity::field::Addable>(
///     db: &Db<App>,
///     field: ddb_entity::Field<Customer, u64, R>,
/// ) -> ddb_entity::Result<ddb_entity::op::Update<'_, Customer>> {
///     Ok(db.update(Customer::key(1)?).add(field, 1))
/// }
/// assert_eq!(bump(&db, f.visits)?.await?.visits, 1);
/// // `bump(&db, f.id)` does not compile: `id` is a key field.
/// # Ok(())
/// # }
/// ```
#[diagnostic::on_unimplemented(
    message = "this field is part of a key template, so an update cannot add to it",
    label = "a key field",
    note = "the key's new value would be unknown before the update: set the new value instead (an index key field), or leave it (a primary-key field)"
)]
pub trait Addable: sealed::Sealed {}

impl Addable for Stored {}

/// Key roles whose field's new value may be computed on the server: kept
/// if present (`if_not_exists`), appended to, added to as a set.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use ddb_entity::{Db, Entity, local::LocalDynamo};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
/// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
/// #[derive(Entity, Serialize, Deserialize, Debug)]
/// #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// #[entity(index = Gsi1, pk = "EMAIL#{email}", sk = "PROFILE")]
/// struct Customer { id: u64, email: String, visits: u64, tags: Vec<String> }
///
/// # let dynamo = LocalDynamo::start().await?;
/// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// # db.create_table_if_missing().await?;
/// db.put(&Customer { id: 1, email: "ada@example.com".into(), visits: 0, tags: vec![] }).await?;
/// let f = Customer::fields();
/// // Computed on the server: the list grows there, whatever this process read.
/// let ada = db.update(Customer::key(1)?).append(f.tags, vec!["new".to_owned()]).await?;
/// assert_eq!(ada.tags, ["new"]);
/// # Ok(())
/// # }
/// ```
///
/// A field of a key template is not `Unkeyed`: the key built from it would
/// be unknown before the update.
///
/// ```compile_fail
/// # use ddb_entity::{Db, Entity};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
/// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
/// # #[derive(Entity, Serialize, Deserialize)]
/// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// # #[entity(index = Gsi1, pk = "EMAIL#{email}", sk = "PROFILE")]
/// # struct Customer { id: u64, email: String }
/// fn keep_first(db: &Db<App>) -> ddb_entity::Result<()> {
///     let _ = db.update(Customer::key(1)?).set_if_not_exists(Customer::fields().email, String::new());
///     Ok(())
/// }
/// ```
#[diagnostic::on_unimplemented(
    message = "this field is part of a key template, so an update must know its new value",
    label = "a key field",
    note = "a key built from it would be unknown before the update: set the new value instead (an index key field), or leave it (a primary-key field)"
)]
pub trait Unkeyed: sealed::Sealed {}

impl Unkeyed for Stored {}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Stored {}
    impl Sealed for super::IndexKeyPart {}
    impl Sealed for super::PrimaryKeyPart {}
    impl Sealed for super::KeyOnly {}
}

impl<E, T, R> Field<E, T, R> {
    /// Generated code's constructor.
    #[doc(hidden)]
    pub const fn new(name: &'static str, attribute: &'static str) -> Self {
        Field {
            name,
            attribute,
            types: PhantomData,
        }
    }

    /// The Rust field name.
    ///
    /// See [the example](Field#example).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The attribute it is stored under (its serde name).
    ///
    /// See [the example](Field#example).
    pub fn attribute(&self) -> &'static str {
        self.attribute
    }
}

impl<E, T, R> Clone for Field<E, T, R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E, T, R> Copy for Field<E, T, R> {}

impl<E, T, R> fmt::Debug for Field<E, T, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Field")
            .field("name", &self.name)
            .field("attribute", &self.attribute)
            .finish()
    }
}
