//! UpdateItem: typed set / remove / add on fields, with the key attributes
//! of every index those fields feed rewritten in the same request.

use std::any::Any;
use std::fmt::Write as _;
use std::time::SystemTime;

use aws_sdk_dynamodb::types::{
    AttributeValue, ReturnConsumedCapacity, ReturnValue, ReturnValuesOnConditionCheckFailure,
};
use serde::Serialize;
use tracing::Instrument;

use aws_sdk_dynamodb::operation::update_item::UpdateItemInput;
use aws_sdk_dynamodb::operation::update_item::builders::UpdateItemFluentBuilder;

use super::attempts::Attempts;
use super::failure::{self, condition_failure, is_ambiguous, read_stored, stored_after_failure};
use super::preview;
use super::token::WriteToken;
use crate::db::Db;
use crate::entity::{
    Action, Addable, AttrPath, Change, Changes, Entity, Field, FieldPath, IndexChange, Key,
    Settable, Unkeyed, Versioned, check_index_key,
};
use crate::error::{Error, Repr, Result};
use crate::expr::version::{self, Expected};
use crate::expr::{Condition, Placeholders, render_path};
use crate::future::into_future;
use crate::item::{Item, Set, SetElement, size};
use crate::table::{Table, TableSchema};

/// Changes one stored entity in place (UpdateItem) and returns it as it is
/// afterwards. Made by [`Db::update`].
///
/// Only fields are named, never attributes, and values have the field's
/// type. When a changed field feeds an index key template, the index's key
/// attributes are recomputed and written in the same request; an `Option`
/// hole set to `None` removes them (the item leaves the sparse index). An
/// update that cannot recompute a key it touches — because another field of
/// the same template is not part of the update — is refused before sending,
/// naming that field. A field of the primary key cannot be changed: that is
/// a different item (delete it and put the new one).
///
/// The item must exist and be of `E`'s type: updating a missing key is
/// [`Error::is_not_found`], never a half-written item, and an item of
/// another type at the key is left untouched
/// ([`ErrorKind::WrongType`](crate::error::ErrorKind::WrongType)). Values DynamoDB
/// cannot store (a NaN, an infinity, a number beyond its range) are refused
/// before sending, naming the field. An update whose item cannot be decoded
/// afterwards (an ill-typed field written by other code) was applied: it
/// fails with [`ErrorKind::DecodeAfterWrite`](crate::error::ErrorKind::DecodeAfterWrite),
/// not retryable. Resending an update is safe (see [`Update::send`]).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use ddb_entity::{Db, Entity, local::LocalDynamo};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
/// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
/// #[derive(Entity, Serialize, Deserialize, Debug)]
/// #[entity(table = App, pk = "TICKET#{id}", sk = "TICKET")]
/// #[entity(index = Gsi1, pk = "OPEN#{opened}", sk = "{id}")] // sparse
/// struct Ticket { id: u64, title: String, opened: Option<u32>, comments: u32 }
///
/// # let dynamo = LocalDynamo::start().await?;
/// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// # db.create_table_if_missing().await?;
/// db.put(&Ticket { id: 1, title: "Login fails".into(), opened: Some(20260314), comments: 0 }).await?;
/// let f = Ticket::fields();
/// let ticket = db
///     .update(Ticket::key(1)?)
///     .set(f.title, "Login fails on Safari".to_owned())
///     .add(f.comments, 1)
///     .remove(f.opened) // closed: it leaves the sparse index in the same request
///     .await?;
/// assert_eq!((ticket.comments, ticket.opened), (1, None));
/// assert_eq!(db.query(Ticket::gsi1_partition(20260314)?).count().await?, 0);
/// // No ticket 2: an update never creates half an item.
/// assert!(db.update(Ticket::key(2)?).add(f.comments, 1).await.unwrap_err().is_not_found());
/// # Ok(())
/// # }
/// ```
#[must_use = "nothing happens until you call `.send().await` (or `.await`)"]
pub struct Update<'db, E: Entity> {
    db: &'db Db<E::Table>,
    key: Key<E>,
    changes: Changes,
    condition: Option<Condition<E>>,
    expected_version: Option<u64>,
    error: Option<Error>,
    token: Option<String>,
    /// An upsert: the item may not exist yet, and is then created.
    creates: bool,
    /// Whether a versioned entity's version is incremented (see
    /// [`Update::bump_version`]).
    bump_version: bool,
}

impl<T: Table> Db<T> {
    /// Starts an update of the entity with this key.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "TICKET#{id}", sk = "TICKET")]
    /// #[entity(index = Gsi1, pk = "OPEN", sk = "{opened:8}")] // sparse: opened is an Option
    /// struct Ticket { id: u64, subject: String, opened: Option<u32>, replies: u32 }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// db.put(&Ticket { id: 1, subject: "late".into(), opened: Some(20260301), replies: 0 }).await?;
    /// let fields = Ticket::fields();
    /// let closed = db
    ///     .update(Ticket::key(1)?)
    ///     .set(fields.subject, "late parcel".to_owned())
    ///     .add(fields.replies, 1)
    ///     .remove(fields.opened) // also REMOVEs GSI1PK/GSI1SK: closed tickets leave the index
    ///     .await?;
    /// assert_eq!((closed.subject.as_str(), closed.replies, closed.opened), ("late parcel", 1, None));
    /// # Ok(())
    /// # }
    /// ```
    pub fn update<E: Entity<Table = T>>(&self, key: Key<E>) -> Update<'_, E> {
        Update {
            db: self,
            key,
            changes: Changes::default(),
            condition: None,
            expected_version: None,
            error: None,
            token: None,
            creates: false,
            bump_version: true,
        }
    }

    /// Starts an **upsert** of the entity with this key: one UpdateItem
    /// that changes the item if it exists and creates it if not — where a
    /// put would replace the whole item, and an [`update`](Db::update)
    /// needs it to exist. The builder is an [`Update`]: `set`, `add`,
    /// `append`, `add_to_set`, `set_if_not_exists` (a first value kept: who
    /// created it, when), conditions, `expect_version`, and in a
    /// transaction ([`Transaction::update`](crate::transact::Transaction::update)).
    ///
    /// An upsert writes every key the item needs, whether it creates or
    /// changes it: the table key, the primary-key fields in the body, the
    /// type attribute, and every index key — computed from the fields
    /// given and the key. So it is refused before sending
    /// ([`ErrorKind::IncompleteUpsert`](crate::error::ErrorKind::IncompleteUpsert),
    /// [`ErrorKind::MissingKeyField`](crate::error::ErrorKind::MissingKeyField))
    /// when the fields given cannot make an item of `E` — a required field,
    /// or a field of an index key, left out — and when it changes a place
    /// inside a map or list (DynamoDB cannot set one in an item that does
    /// not exist). A maintained `created_at` keeps its first value, a
    /// version starts at 1 and grows by one per write.
    ///
    /// Like every typed write it touches only its own type: an item of
    /// another type at the key is left untouched
    /// ([`ErrorKind::WrongType`](crate::error::ErrorKind::WrongType)). Resending
    /// it is safe: a resent upsert finds its token and applies nothing, so
    /// an `add` is added once.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// /// Page views per page, found by section on GSI1.
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "PAGE#{path}", sk = "VIEWS")]
    /// #[entity(index = Gsi1, pk = "SECTION#{section}", sk = "{path}")]
    /// struct PageViews { path: String, section: String, views: u64, first_seen: u64, last_seen: u64 }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// let f = PageViews::fields();
    /// let view = |at: u64| -> ddb_entity::Result<_> {
    ///     Ok(db
    ///         .upsert(PageViews::key("/docs")?)
    ///         .set(f.section, "docs".to_owned()) // feeds GSI1's key: required
    ///         .add(f.views, 1)
    ///         .set_if_not_exists(f.first_seen, at)
    ///         .set(f.last_seen, at))
    /// };
    /// let first = view(100)?.await?; // creates it
    /// let second = view(200)?.await?; // changes it
    /// assert_eq!((second.views, second.first_seen, second.last_seen), (2, 100, 200));
    /// let found: Vec<PageViews> = db.query(PageViews::gsi1_partition("docs")?).all().await?;
    /// assert_eq!(found.len(), 1);
    ///
    /// // Without the field its index key needs, it could create a half item.
    /// let err = db.upsert(PageViews::key("/blog")?).add(f.views, 1).await.unwrap_err();
    /// assert_eq!(err.kind(), ddb_entity::ErrorKind::MissingKeyField);
    /// # Ok(())
    /// # }
    /// ```
    pub fn upsert<E: Entity<Table = T>>(&self, key: Key<E>) -> Update<'_, E> {
        Update {
            creates: true,
            ..self.update(key)
        }
    }
}

impl<'db, E: Entity> Update<'db, E> {
    /// Records the first mistake, so the builder chains without `?`.
    fn fail(mut self, error: Error) -> Self {
        self.error.get_or_insert(error);
        self
    }

    /// `value` as an attribute value, or the builder failed naming `path`.
    fn encode<T: Serialize + ?Sized>(
        &mut self,
        path: &AttrPath,
        value: &T,
    ) -> Option<AttributeValue> {
        match crate::codec::to_attribute_value(value) {
            Ok(attribute) => Some(attribute),
            Err(err) => {
                self.error.get_or_insert(
                    Repr::Encode {
                        entity: E::RUST_NAME,
                        source: Box::new(err.at_key(&path.to_string())),
                    }
                    .into(),
                );
                None
            }
        }
    }

    fn change(
        mut self,
        field: &'static str,
        path: AttrPath,
        action: Action,
        value: Option<Box<dyn Any + Send + Sync>>,
    ) -> Self {
        if self.error.is_none() {
            self.changes.entries.push(Change {
                field,
                path,
                action,
                value,
            });
        }
        self
    }

    /// `set` of a whole field or of a place inside one: `None` (`NULL`) is
    /// no attribute (see `Entity::to_item`), so it removes.
    fn set_value<T: Serialize + Send + Sync + 'static>(
        mut self,
        field: &'static str,
        path: AttrPath,
        value: Option<T>,
    ) -> Self {
        let attribute = match &value {
            Some(value) => match self.encode(&path, value) {
                Some(attribute) => Some(attribute),
                None => return self,
            },
            None => None,
        };
        let action = match attribute {
            Some(AttributeValue::Null(true)) | None => Action::Remove,
            Some(attribute) => Action::Set(attribute),
        };
        // The typed value of a whole field feeds index keys.
        let typed = match path.is_top() {
            true => value.map(|v| Box::new(v) as Box<dyn Any + Send + Sync>),
            false => None,
        };
        self.change(field, path, action, typed)
    }

    /// `field = value`. A field of an index key template moves the index
    /// key with it; a primary-key field cannot be set (a compile error).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq, Clone)]
    /// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// # struct Customer { id: u64, name: String, visits: u64, nickname: Option<String> }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// # db.put(&Customer { id: 1, name: "Ada".into(), visits: 0, nickname: Some("Countess".into()) }).await?;
    /// let f = Customer::fields();
    /// let ada = db.update(Customer::key(1)?).set(f.name, "Ada L.".to_owned()).await?;
    /// assert_eq!((ada.name.as_str(), ada.visits), ("Ada L.", 0), "the rest untouched");
    /// # Ok(())
    /// # }
    /// ```
    pub fn set<T: Serialize + Send + Sync + 'static, R: Settable>(
        self,
        field: Field<E, T, R>,
        value: T,
    ) -> Self {
        self.set_value(field.name(), AttrPath::top(field.attribute()), Some(value))
    }

    /// `field = None`, by removing the attribute (and the key attributes of
    /// every sparse index it feeds).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq, Clone)]
    /// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// # struct Customer { id: u64, name: String, visits: u64, nickname: Option<String> }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// # db.put(&Customer { id: 1, name: "Ada".into(), visits: 0, nickname: Some("Countess".into()) }).await?;
    /// let f = Customer::fields();
    /// let ada = db.update(Customer::key(1)?).remove(f.nickname).await?;
    /// assert_eq!(ada.nickname, None);
    /// let stored = db.client().get_item().table_name(db.table_name())
    ///     .set_key(Some(Customer::key(1)?.to_attributes())).send().await?;
    /// assert!(!stored.item().unwrap().contains_key("nickname"), "the attribute is gone");
    /// # Ok(())
    /// # }
    /// ```
    pub fn remove<T: Serialize + Send + Sync + 'static, R: Settable>(
        self,
        field: Field<E, Option<T>, R>,
    ) -> Self {
        self.set_value::<Option<T>>(field.name(), AttrPath::top(field.attribute()), None)
    }

    /// `field = field + amount`, atomically on the server (a missing
    /// attribute counts as 0). Only fields in no key template can be added
    /// to (a compile error otherwise): a key's new value would be unknown
    /// before the update.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq, Clone)]
    /// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// # struct Customer { id: u64, name: String, visits: u64, nickname: Option<String> }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// # db.put(&Customer { id: 1, name: "Ada".into(), visits: 0, nickname: Some("Countess".into()) }).await?;
    /// let f = Customer::fields();
    /// // Two visits at once from two servers: both count.
    /// let (a, b) = tokio::join!(
    ///     db.update(Customer::key(1)?).add(f.visits, 1).send(),
    ///     db.update(Customer::key(1)?).add(f.visits, 1).send(),
    /// );
    /// a?;
    /// b?;
    /// assert_eq!(db.get(Customer::key(1)?).await?.unwrap().visits, 2);
    /// # Ok(())
    /// # }
    /// ```
    pub fn add<T, R: Addable>(mut self, field: Field<E, T, R>, amount: T) -> Self
    where
        T: Serialize + Send + Sync + Copy + std::ops::Add<Output = T> + 'static,
    {
        let path = AttrPath::top(field.attribute());
        match self.encode(&path, &amount) {
            Some(amount) => self.change(field.name(), path, Action::Add(amount), None),
            None => self,
        }
    }

    /// `field = value` only if the item has no value there yet
    /// (`if_not_exists`): a first value kept — when something was
    /// created, who created it. Only for fields in no key template (a
    /// compile error otherwise).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use std::collections::HashMap;
    /// # use ddb_entity::{Db, Entity, Set, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "ISSUE#{id}", sk = "ISSUE")]
    /// struct Issue {
    ///     id: u32,
    ///     labels: Set<String>,
    ///     comments: Vec<String>,
    ///     reactions: HashMap<String, u32>,
    ///     first_reply: Option<String>,
    /// }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// # db.put(&Issue { id: 7, labels: Set::from(["bug"]), comments: vec!["first".into()],
    /// #     reactions: HashMap::new(), first_reply: None }).await?;
    /// let f = Issue::fields();
    /// let issue = db.update(Issue::key(7u32)?)
    ///     .set_if_not_exists(f.first_reply, Some("ada".to_owned()))
    ///     .await?;
    /// let again = db.update(Issue::key(7u32)?)
    ///     .set_if_not_exists(f.first_reply, Some("bob".to_owned()))
    ///     .await?;
    /// assert_eq!(again.first_reply.as_deref(), Some("ada")); // the first value stays
    /// # Ok(())
    /// # }
    /// ```
    pub fn set_if_not_exists<T: Serialize + Send + Sync + 'static, R: Unkeyed>(
        mut self,
        field: Field<E, T, R>,
        value: T,
    ) -> Self {
        let path = AttrPath::top(field.attribute());
        match self.encode(&path, &value) {
            Some(AttributeValue::Null(true)) => self.fail(self_invalid::<E>(format!(
                "`set_if_not_exists({path}, None)` keeps nothing: `None` is no attribute"
            ))),
            Some(value) => self.change(field.name(), path, Action::SetIfNotExists(value), None),
            None => self,
        }
    }

    fn append_values<T: Serialize, R: Unkeyed>(
        mut self,
        field: Field<E, Vec<T>, R>,
        values: impl IntoIterator<Item = T>,
        front: bool,
    ) -> Self {
        let values: Vec<T> = values.into_iter().collect();
        if values.is_empty() {
            // Appending nothing changes nothing.
            return self;
        }
        let path = AttrPath::top(field.attribute());
        match self.encode(&path, &values) {
            Some(values) => self.change(field.name(), path, Action::Append { values, front }, None),
            None => self,
        }
    }

    /// Appends `values` to the end of a list field, atomically on the
    /// server (`list_append`); a missing list is created. Appending no
    /// value changes nothing.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use std::collections::HashMap;
    /// # use ddb_entity::{Db, Entity, Set, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "ISSUE#{id}", sk = "ISSUE")]
    /// struct Issue {
    ///     id: u32,
    ///     labels: Set<String>,
    ///     comments: Vec<String>,
    ///     reactions: HashMap<String, u32>,
    ///     first_reply: Option<String>,
    /// }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// # db.put(&Issue { id: 7, labels: Set::from(["bug"]), comments: vec!["first".into()],
    /// #     reactions: HashMap::new(), first_reply: None }).await?;
    /// let f = Issue::fields();
    /// let issue = db.update(Issue::key(7u32)?).append(f.comments, ["second".to_owned()]).await?;
    /// assert_eq!(issue.comments, ["first", "second"]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn append<T: Serialize, R: Unkeyed>(
        self,
        field: Field<E, Vec<T>, R>,
        values: impl IntoIterator<Item = T>,
    ) -> Self {
        self.append_values(field, values, false)
    }

    /// Puts `values` in front of a list field, like [`append`](Self::append).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use std::collections::HashMap;
    /// # use ddb_entity::{Db, Entity, Set, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "ISSUE#{id}", sk = "ISSUE")]
    /// struct Issue {
    ///     id: u32,
    ///     labels: Set<String>,
    ///     comments: Vec<String>,
    ///     reactions: HashMap<String, u32>,
    ///     first_reply: Option<String>,
    /// }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// # db.put(&Issue { id: 7, labels: Set::from(["bug"]), comments: vec!["first".into()],
    /// #     reactions: HashMap::new(), first_reply: None }).await?;
    /// let f = Issue::fields();
    /// let issue = db.update(Issue::key(7u32)?).prepend(f.comments, ["zeroth".to_owned()]).await?;
    /// assert_eq!(issue.comments, ["zeroth", "first"]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn prepend<T: Serialize, R: Unkeyed>(
        self,
        field: Field<E, Vec<T>, R>,
        values: impl IntoIterator<Item = T>,
    ) -> Self {
        self.append_values(field, values, true)
    }

    fn set_elements<T: SetElement, R>(
        mut self,
        field: Field<E, Set<T>, R>,
        values: impl IntoIterator<Item = T>,
        action: fn(AttributeValue) -> Action,
    ) -> Self {
        let values: Set<T> = values.into_iter().collect();
        if values.is_empty() {
            // DynamoDB has no empty set; adding or deleting none is nothing.
            return self;
        }
        let path = AttrPath::top(field.attribute());
        match self.encode(&path, &values) {
            Some(values) => self.change(field.name(), path, action(values), None),
            None => self,
        }
    }

    /// Adds `values` to a [`Set`] field atomically on the server (`ADD`); a
    /// missing set is created. Adding no value changes nothing (DynamoDB
    /// has no empty set to send).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use std::collections::HashMap;
    /// # use ddb_entity::{Db, Entity, Set, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "ISSUE#{id}", sk = "ISSUE")]
    /// struct Issue {
    ///     id: u32,
    ///     labels: Set<String>,
    ///     comments: Vec<String>,
    ///     reactions: HashMap<String, u32>,
    ///     first_reply: Option<String>,
    /// }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// # db.put(&Issue { id: 7, labels: Set::from(["bug"]), comments: vec!["first".into()],
    /// #     reactions: HashMap::new(), first_reply: None }).await?;
    /// let f = Issue::fields();
    /// let issue = db.update(Issue::key(7u32)?).add_to_set(f.labels, ["p1".to_owned()]).await?;
    /// assert_eq!(issue.labels, Set::from(["bug", "p1"]));
    /// # Ok(())
    /// # }
    /// ```
    pub fn add_to_set<T: SetElement, R: Unkeyed>(
        self,
        field: Field<E, Set<T>, R>,
        values: impl IntoIterator<Item = T>,
    ) -> Self {
        self.set_elements(field, values, Action::Add)
    }

    /// Takes `values` out of a [`Set`] field atomically on the server
    /// (`DELETE`); taking the last one out removes the attribute (it reads
    /// back as an empty set). Deleting no value changes nothing.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use std::collections::HashMap;
    /// # use ddb_entity::{Db, Entity, Set, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "ISSUE#{id}", sk = "ISSUE")]
    /// struct Issue {
    ///     id: u32,
    ///     labels: Set<String>,
    ///     comments: Vec<String>,
    ///     reactions: HashMap<String, u32>,
    ///     first_reply: Option<String>,
    /// }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// # db.put(&Issue { id: 7, labels: Set::from(["bug"]), comments: vec!["first".into()],
    /// #     reactions: HashMap::new(), first_reply: None }).await?;
    /// let f = Issue::fields();
    /// let issue = db.update(Issue::key(7u32)?).delete_from_set(f.labels, ["bug".to_owned()]).await?;
    /// assert!(issue.labels.is_empty()); // the attribute is gone
    /// # Ok(())
    /// # }
    /// ```
    pub fn delete_from_set<T: SetElement, R: Unkeyed>(
        self,
        field: Field<E, Set<T>, R>,
        values: impl IntoIterator<Item = T>,
    ) -> Self {
        self.set_elements(field, values, Action::Delete)
    }

    /// Sets the place `path` inside a map or list field: `SET
    /// addresses.#home = :a`, `lines[3] = :l`. DynamoDB refuses a path
    /// whose parent does not exist (a map entry of a missing map, an index
    /// past the end of a list is appended instead); every name of the path
    /// is a placeholder.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use std::collections::HashMap;
    /// # use ddb_entity::{Db, Entity, Set, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "ISSUE#{id}", sk = "ISSUE")]
    /// struct Issue {
    ///     id: u32,
    ///     labels: Set<String>,
    ///     comments: Vec<String>,
    ///     reactions: HashMap<String, u32>,
    ///     first_reply: Option<String>,
    /// }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// # db.put(&Issue { id: 7, labels: Set::from(["bug"]), comments: vec!["first".into()],
    /// #     reactions: HashMap::new(), first_reply: None }).await?;
    /// let f = Issue::fields();
    /// let issue = db.update(Issue::key(7u32)?)
    ///     .set_at(f.comments.at(0), "edited".to_owned())
    ///     .set_at(f.reactions.key("+1"), 1)
    ///     .await?;
    /// assert_eq!((issue.comments[0].as_str(), issue.reactions["+1"]), ("edited", 1));
    /// # Ok(())
    /// # }
    /// ```
    pub fn set_at<T: Serialize + Send + Sync + 'static>(
        self,
        path: FieldPath<E, T>,
        value: T,
    ) -> Self {
        self.set_value(path.field_name(), path.path, Some(value))
    }

    /// Removes the place `path` inside a map or list field (a list's later
    /// elements move up).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use std::collections::HashMap;
    /// # use ddb_entity::{Db, Entity, Set, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "ISSUE#{id}", sk = "ISSUE")]
    /// struct Issue {
    ///     id: u32,
    ///     labels: Set<String>,
    ///     comments: Vec<String>,
    ///     reactions: HashMap<String, u32>,
    ///     first_reply: Option<String>,
    /// }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// # db.put(&Issue { id: 7, labels: Set::from(["bug"]), comments: vec!["first".into()],
    /// #     reactions: HashMap::new(), first_reply: None }).await?;
    /// let f = Issue::fields();
    /// let issue = db.update(Issue::key(7u32)?).remove_at(f.comments.at(0)).await?;
    /// assert!(issue.comments.is_empty());
    /// # Ok(())
    /// # }
    /// ```
    pub fn remove_at<T>(self, path: FieldPath<E, T>) -> Self {
        self.change(path.field_name(), path.path, Action::Remove, None)
    }

    /// Adds `amount` to the number at `path` inside a map or list field,
    /// atomically on the server; a missing number counts as 0 (`SET p =
    /// if_not_exists(p, 0) + amount`: DynamoDB's `ADD` takes only top-level
    /// attributes). The map or list holding it must exist.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use std::collections::HashMap;
    /// # use ddb_entity::{Db, Entity, Set, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "ISSUE#{id}", sk = "ISSUE")]
    /// struct Issue {
    ///     id: u32,
    ///     labels: Set<String>,
    ///     comments: Vec<String>,
    ///     reactions: HashMap<String, u32>,
    ///     first_reply: Option<String>,
    /// }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// # db.put(&Issue { id: 7, labels: Set::from(["bug"]), comments: vec!["first".into()],
    /// #     reactions: HashMap::new(), first_reply: None }).await?;
    /// let f = Issue::fields();
    /// for _ in 0..2 {
    ///     db.update(Issue::key(7u32)?).add_at(f.reactions.key("heart"), 1).await?;
    /// }
    /// let issue = db.get(Issue::key(7u32)?).consistent_read(true).await?.unwrap();
    /// assert_eq!(issue.reactions["heart"], 2);
    /// # Ok(())
    /// # }
    /// ```
    pub fn add_at<T>(mut self, path: FieldPath<E, T>, amount: T) -> Self
    where
        T: Serialize + Send + Sync + Copy + std::ops::Add<Output = T> + 'static,
    {
        match self.encode(&path.path, &amount) {
            Some(amount) => self.change(
                path.field_name(),
                path.path,
                Action::Increment(amount),
                None,
            ),
            None => self,
        }
    }

    /// Update only if `condition` holds for the stored item (else
    /// [`Error::is_condition_failed`]; a missing item stays
    /// [`Error::is_not_found`]).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq, Clone)]
    /// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// # struct Customer { id: u64, name: String, visits: u64, nickname: Option<String> }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// # db.put(&Customer { id: 1, name: "Ada".into(), visits: 0, nickname: Some("Countess".into()) }).await?;
    /// let f = Customer::fields();
    /// // A rename only while nobody renamed her first.
    /// let renamed = db
    ///     .update(Customer::key(1)?)
    ///     .set(f.name, "Ada L.".to_owned())
    ///     .condition(f.name.equals("Ada".to_owned()));
    /// renamed.await?;
    /// let again = db
    ///     .update(Customer::key(1)?)
    ///     .set(f.name, "Ada B.".to_owned())
    ///     .condition(f.name.equals("Ada".to_owned()));
    /// assert!(again.await.unwrap_err().is_condition_failed());
    /// # Ok(())
    /// # }
    /// ```
    pub fn condition(mut self, condition: Condition<E>) -> Self {
        self.condition = Condition::both(self.condition.take(), Some(condition));
        self
    }
}

/// An update expression DynamoDB would refuse.
fn self_invalid<E: Entity>(reason: String) -> Error {
    Repr::InvalidExpression {
        what: format!("an update of `{}`", E::RUST_NAME),
        reason,
    }
    .into()
}

impl<E: Versioned> Update<'_, E> {
    /// Update only if the stored version is `version`; else
    /// [`Error::is_version_conflict`]. Every update of a versioned entity
    /// increments its version, checked or not. Only a
    /// [`Versioned`] entity (`#[entity(version = "…")]`) has a version to
    /// expect:
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
    ///     let _ = db.update(Customer::key(1)?).set(Customer::fields().name, "Ada".into()).expect_version(3);
    ///     Ok(())
    /// }
    /// ```
    pub fn expect_version(mut self, version: u64) -> Self {
        self.expected_version = Some(version);
        self
    }

    /// Whether this update increments the version (`true` by default).
    /// `false` declares it **commutative** — only `add` on numbers
    /// ([`add`](Update::add), [`add_at`](Update::add_at)) and
    /// [`add_to_set`](Update::add_to_set) — so that a counter or a set of
    /// likes does not make concurrent editors fail: an editor's update with
    /// [`expect_version`](Update::expect_version) still matches after any
    /// number of such updates, and keeps them (its `set`s do not touch the
    /// counter). An editor's versioned **put** matches too, and writes back
    /// the counter as it read it: edit such entities with updates. The version is
    /// kept as stored (an item an upsert creates starts at 1). Any other
    /// change in the same update (`set`, `remove`, `append`,
    /// `delete_from_set`, …) changes what an editor read, and is refused
    /// before sending
    /// ([`ErrorKind::InvalidExpression`](crate::error::ErrorKind::InvalidExpression)).
    ///
    /// Which updates bump the version: every update and upsert of a
    /// versioned entity, and every put, except an update sent with
    /// `bump_version(false)`. A maintained `updated_at` still follows it.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "TASK#{id}", sk = "TASK", version = "version")]
    /// struct Task { id: u64, title: String, comments: u32, #[serde(default)] version: u64 }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// let f = Task::fields();
    /// let task = db.create(&Task { id: 1, title: "draft".into(), comments: 0, version: 0 })
    ///     .returning_new().await?;
    /// // Comments arrive while an editor holds version 1.
    /// for _ in 0..3 {
    ///     db.update(Task::key(1)?).add(f.comments, 1).bump_version(false).await?;
    /// }
    /// let edited = db.update(Task::key(1)?)
    ///     .set(f.title, "final".into())
    ///     .expect_version(task.version) // still 1: no conflict
    ///     .await?;
    /// assert_eq!((edited.title.as_str(), edited.comments, edited.version), ("final", 3, 2));
    /// # Ok(())
    /// # }
    /// ```
    pub fn bump_version(mut self, bump: bool) -> Self {
        self.bump_version = bump;
        self
    }
}

impl<'db, E: Entity> Update<'db, E> {
    /// The write token of this update (1 to 36 characters; by default a
    /// fresh random one per call), for an update you may send again **as a
    /// new call** — after a crash, or after [`Error::is_retryable`] with
    /// the outcome unknown: the new call, with the same token, finds its
    /// token stored, applies nothing and returns the entity as stored. Use
    /// one token per logical change (a request id): a token reused for
    /// another change makes that change look done. In a transaction, the
    /// transaction's token is used instead
    /// ([`Transaction::idempotency_token`](crate::transact::Transaction::idempotency_token)).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq, Clone)]
    /// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// # struct Customer { id: u64, name: String, visits: u64, nickname: Option<String> }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// # db.put(&Customer { id: 1, name: "Ada".into(), visits: 0, nickname: Some("Countess".into()) }).await?;
    /// let f = Customer::fields();
    /// // The request "visit 81f2" handled twice (a retried job, a crash after sending):
    /// for _ in 0..2 {
    ///     db.update(Customer::key(1)?).add(f.visits, 1).idempotency_token("visit-81f2").await?;
    /// }
    /// assert_eq!(db.get(Customer::key(1)?).await?.unwrap().visits, 1, "counted once");
    /// # Ok(())
    /// # }
    /// ```
    pub fn idempotency_token(mut self, token: impl Into<String>) -> Self {
        self.token = Some(token.into());
        self
    }

    /// Sends the UpdateItem and returns the entity as stored afterwards.
    ///
    /// **Retrying.** Every update stores a write token and is conditioned
    /// on the stored token not being its own, so a resend of an applied
    /// update — the SDK's retries, or a new call with the same
    /// [`idempotency_token`](Update::idempotency_token) — applies nothing
    /// and returns the entity as stored: an `add` is added once. If every
    /// attempt lost its answer, one consistent read decides. The item keeps
    /// the tokens of its last four updates, so other writers' updates in
    /// between do not hide it; what is not covered is a resend arriving
    /// after four more updates of the item, or after a plain put or a
    /// delete of it (see `docs/exactly-once.md`).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq, Clone)]
    /// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// # struct Customer { id: u64, name: String, visits: u64, nickname: Option<String> }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// # db.put(&Customer { id: 1, name: "Ada".into(), visits: 0, nickname: Some("Countess".into()) }).await?;
    /// let f = Customer::fields();
    /// // `.send().await`, or `.await` on the update itself: the entity as stored.
    /// let ada = db.update(Customer::key(1)?).add(f.visits, 3).send().await?;
    /// assert_eq!(ada.visits, 3);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn send(self) -> Result<E> {
        let operation = self.operation();
        let key = self.key.clone();
        let item = self.run(ReturnValue::AllNew).await?;
        failure::decode_applied::<E>(
            operation,
            (key.partition(), key.sort()),
            item.unwrap_or_default(),
        )
    }

    /// Returns the entity as it was before the update (`ReturnValues =
    /// ALL_OLD`) instead of after: `None` when an upsert created it.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "JOB#{id}", sk = "JOB")]
    /// struct Job { id: u64, state: String }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// db.put(&Job { id: 1, state: "queued".into() }).await?;
    /// let before = db
    ///     .update(Job::key(1)?)
    ///     .set(Job::fields().state, "running".into())
    ///     .returning_old()
    ///     .await?;
    /// assert_eq!(before.map(|j| j.state).as_deref(), Some("queued"));
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// **Retrying.** An update resent after a lost answer is recognised
    /// by its token and applies nothing more; the entity before it left
    /// with the lost answer, so it then returns `None`.
    pub fn returning_old(self) -> UpdateReturningOld<'db, E> {
        UpdateReturningOld(self)
    }

    /// Sends the UpdateItem; the item as `returning` asks (always `Some`
    /// for `ALL_NEW`).
    async fn run(self, returning: ReturnValue) -> Result<Option<Item>> {
        let table = self.db.table_name();
        let operation = self.operation();
        let span = tracing::info_span!(
            "ddb.update",
            table,
            entity = E::RUST_NAME,
            operation,
            fields = self.changes.entries.len(),
            consumed_rcu = tracing::field::Empty,
            consumed_wcu = tracing::field::Empty,
        );
        let new = returning == ReturnValue::AllNew;
        async move {
            let schema = E::Table::SCHEMA;
            let (db, key, parts) = self.into_parts();
            let mut charge = db.charge();
            let parts = parts?;
            // An earlier attempt of this call was applied: the item it
            // left is known, the one before it is not.
            let applied = |stored: Item| Ok(new.then_some(stored));
            let creates = parts.creates;
            let attempts = Attempts::default();
            let response = request(db, &key, &parts, returning)
                .customize()
                .interceptor(attempts.clone())
                .send()
                .await;
            let err = match response {
                Ok(output) => {
                    charge.write(output.consumed_capacity());
                    let item = output.attributes.unwrap_or_default();
                    // No old item: none at all, or (dynoxide) only the key
                    // of the item an upsert created.
                    let no_old = item.keys().all(|name| {
                        schema.primary.partition_key == name
                            || schema.primary.sort_key == Some(name.as_str())
                    });
                    return Ok((new || !no_old).then_some(item));
                }
                Err(err) => {
                    charge.failed();
                    err
                }
            };
            let client = db.client();
            let Some(returned) = condition_failure(&err) else {
                // No answer, or a server error: it may have been applied.
                if schema.write_tokens && (attempts.ambiguous() || is_ambiguous(&err)) {
                    let stored = read_stored(client, table, key.to_attributes(), &mut charge).await;
                    if let Ok(Some(item)) = stored
                        && parts.token.is_in(&item, &schema)
                    {
                        return applied(item);
                    }
                }
                return Err(Error::service("UpdateItem", table, err));
            };
            let item_key = key.to_attributes();
            let stored =
                stored_after_failure(db, item_key, returned, &attempts, &mut charge).await?;
            let at = (key.partition(), key.sort());
            let Some(stored) = stored else {
                if creates {
                    // No item, so no type, token or version to fail on: the
                    // caller's condition (or a version expected stored).
                    if let Some(conflict) = parts
                        .version
                        .and_then(|v| v.conflict(E::RUST_NAME, at, None))
                    {
                        return Err(conflict);
                    }
                    let source = Error::service("UpdateItem", table, err);
                    return Err(failure::condition_failed(
                        operation,
                        E::RUST_NAME,
                        at,
                        source,
                    ));
                }
                let (partition, sort) = key.into_parts();
                return Err(Repr::NotFound {
                    entity: E::RUST_NAME,
                    partition,
                    sort,
                }
                .into());
            };
            if schema.write_tokens && parts.token.is_in(&stored, &schema) {
                // An earlier attempt of this call was applied.
                return applied(stored);
            }
            if let Some(foreign) = failure::foreign::<E>(&schema, operation, at, Some(&stored)) {
                return Err(foreign);
            }
            if let Some(stale) = crate::entity::schema_version::stale_schema::<E>(at, &stored) {
                return Err(stale);
            }
            match parts
                .version
                .and_then(|v| v.conflict(E::RUST_NAME, at, Some(&stored)))
            {
                Some(conflict) => Err(conflict),
                None => Err(failure::condition_failed(
                    operation,
                    E::RUST_NAME,
                    at,
                    Error::service("UpdateItem", table, err),
                )),
            }
        }
        .instrument(span)
        .await
    }

    /// The UpdateItem that [`send`](Update::send) would send, without
    /// sending it: the update expression (the changes, the index keys they
    /// move, the version, the token history), the condition, their
    /// attribute names and values — built by the same function. Refused as
    /// `send` would refuse it. The write token is this call's: an update
    /// previewed and one sent are two calls, with two tokens, unless both
    /// are given the same [`idempotency_token`](Update::idempotency_token).
    /// Values can be personal data: mind where a preview is logged.
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
    /// #[entity(table = App, pk = "PAGE#{path}", sk = "VIEWS")]
    /// struct PageViews { path: String, views: u64 }
    ///
    /// let db = Db::<App>::new(client(), "app"); // nothing is sent
    /// let request = db
    ///     .update(PageViews::key("/docs")?)
    ///     .add(PageViews::fields().views, 1)
    ///     .preview()?;
    /// assert_eq!(request.key().unwrap()["PK"].as_s().unwrap(), "PAGE#/docs");
    /// let update = request.update_expression().unwrap();
    /// assert!(update.contains(" ADD "), "{update}"); // and the token history's SETs
    /// let names = request.expression_attribute_names().unwrap();
    /// assert!(names.values().any(|name| name == "views"));
    /// # Ok::<(), ddb_entity::Error>(())
    /// ```
    pub fn preview(self) -> Result<UpdateItemInput> {
        let (db, key, parts) = self.into_parts();
        let request = request(db, &key, &parts?, ReturnValue::AllNew);
        preview::built("UpdateItem", request.as_input().clone().build())
    }

    /// The table, the key, and the parts of the UpdateItem (or why they
    /// cannot be built): shared by [`send`](Update::send) and transactions,
    /// which give their own token.
    pub(crate) fn into_parts(mut self) -> (&'db Db<E::Table>, Key<E>, Result<UpdateParts>) {
        let token = WriteToken::given_or_generated(self.token.take());
        self.into_parts_with(token)
    }

    /// [`into_parts`](Update::into_parts) with the token of a transaction.
    pub(crate) fn into_parts_with(
        self,
        token: Result<WriteToken>,
    ) -> (&'db Db<E::Table>, Key<E>, Result<UpdateParts>) {
        let parts = token.and_then(|token| {
            parts(
                self.db.now(),
                &self.key,
                Plan {
                    changes: self.changes,
                    creates: self.creates,
                    bump_version: self.bump_version,
                },
                self.condition,
                self.expected_version,
                self.error,
                token,
            )
        });
        (self.db, self.key, parts)
    }

    /// The handle it was made on, and the caller's token (taken out): what
    /// [`server_idempotent`](Update::server_idempotent) sends it with.
    pub(crate) fn db_and_token(&mut self) -> (&'db Db<E::Table>, Option<String>) {
        (self.db, self.token.take())
    }

    /// Whether it is an upsert (it may create the item).
    pub(crate) fn creates(&self) -> bool {
        self.creates
    }

    /// `"update"` or `"upsert"`, for spans and messages.
    fn operation(&self) -> &'static str {
        if self.creates { "upsert" } else { "update" }
    }
}

/// The parts of one UpdateItem, shared by [`Update`] and transactions.
pub(crate) struct UpdateParts {
    /// The SET / REMOVE / ADD expression, index keys, version and write
    /// token included.
    pub(crate) update: String,
    /// "The item is of this type", "not written by this call yet", the
    /// version check and the caller's condition, joined by AND.
    pub(crate) condition: String,
    pub(crate) placeholders: Placeholders,
    /// The version the update expects stored, when it checks one.
    pub(crate) version: Option<Expected>,
    /// The write token the update stores.
    pub(crate) token: WriteToken,
    /// An upsert: it may create the item.
    pub(crate) creates: bool,
}

/// What an update changes, whether it may create the item, and whether it
/// increments a versioned entity's version.
struct Plan {
    changes: Changes,
    creates: bool,
    bump_version: bool,
}

/// Builds the parts of an update of the item at `key`: the changes, the
/// index keys they move, a versioned entity's version increment, the write
/// token, and the condition. `error` is the first mistake the builder
/// recorded.
fn parts<E: Entity>(
    now: SystemTime,
    key: &Key<E>,
    plan: Plan,
    extra: Option<Condition<E>>,
    expected_version: Option<u64>,
    error: Option<Error>,
    token: WriteToken,
) -> Result<UpdateParts> {
    if let Some(error) = error {
        return Err(error);
    }
    let Plan {
        mut changes,
        creates,
        bump_version,
    } = plan;
    if changes.entries.is_empty() {
        return Err(Repr::EmptyUpdate {
            entity: E::RUST_NAME,
        }
        .into());
    }
    if E::LAYOUT.version_attribute().is_some() && !bump_version {
        check_commutative::<E>(&changes)?;
    }
    // Values DynamoDB cannot store, in a `set`, an `add` or a list element,
    // are refused before sending, naming the field.
    for change in &changes.entries {
        if let Some(value) = change.action.value() {
            size::check_value(E::RUST_NAME, &change.path.to_string(), value)?;
            if change.path.is_top() {
                crate::item::check_index_attribute(
                    &E::Table::SCHEMA,
                    E::RUST_NAME,
                    change.path.attribute,
                    value,
                )?;
            }
        }
    }
    if creates && let Some(change) = changes.entries.iter().find(|c| !c.path.is_top()) {
        return Err(upsert_invalid::<E>(format!(
            "it changes `{}`, a place inside a field, and DynamoDB cannot set one in an item that does not exist yet: set the whole field, or update an item known to exist",
            change.path
        )));
    }
    changes.creates = creates;
    let index_changes = E::index_changes(key, &changes)?;
    for change in &index_changes {
        if let IndexChange::Set(index, index_key) = change {
            check_index_key(E::RUST_NAME, index, index_key)?;
        }
    }
    let schema = E::Table::SCHEMA;
    // An update's item must exist and be of this type; an upsert's must be
    // of this type if it exists. An item of another type at the key is left
    // untouched, and an item already carrying this call's token (a replay
    // of an applied write) fails here, and is recognised.
    let guard = match creates {
        true => Condition::<E>::absent_or_of_type(),
        false => Condition::<E>::is_of_type(),
    };
    let mut condition = guard;
    if schema.write_tokens {
        condition = condition.and(Condition::token_is_not(token.as_str()));
    }
    if let Some(version) = E::SCHEMA_VERSION {
        // Only an item of the newest shape takes fields of the newest
        // shape; an upsert creating the item stores the version.
        condition = condition.and(Condition::schema_version_is(version, creates));
        if creates {
            changes.entries.push(Change::maintained(
                crate::item::SCHEMA_VERSION_ATTRIBUTE,
                Action::Set(AttributeValue::N(version.to_string())),
            ));
        }
    }
    let expected = version::expected::<E>(expected_version);
    if let Some(attribute) = E::LAYOUT.version_attribute() {
        // Every update of a versioned entity increments its version (from
        // 0 for an item an upsert creates), but one declared commutative,
        // which keeps it (1 for an item an upsert creates).
        let action = match bump_version {
            true => Action::Add(version::number(1)),
            false => Action::SetIfNotExists(version::number(1)),
        };
        changes.entries.push(Change::maintained(attribute, action));
    }
    let set_by_caller = |changes: &Changes, attribute: &str| {
        changes
            .entries
            .iter()
            .any(|change| change.path.attribute == attribute)
    };
    if let Some((attribute, now)) = E::updated_at(now)? {
        // A maintained `updated_at` follows every update the caller does
        // not set it in.
        if !set_by_caller(&changes, attribute) {
            changes
                .entries
                .push(Change::maintained(attribute, Action::Set(now)));
        }
    }
    if creates {
        // What a new item needs and an existing one already holds: the
        // primary-key fields of its body, its type, its creation time.
        for (attribute, value) in crate::entity::convert::key_copies(key)? {
            changes
                .entries
                .push(Change::maintained(attribute, Action::Set(value)));
        }
        // A table typed by key keeps its own convention: no type attribute.
        if schema.typing.writes_type_attribute() {
            changes.entries.push(Change::maintained(
                schema.type_attribute,
                Action::Set(AttributeValue::S(E::TYPE_TAG.to_owned())),
            ));
        }
        if let Some((attribute, now)) = E::created_at(now)?
            && !set_by_caller(&changes, attribute)
        {
            changes
                .entries
                .push(Change::maintained(attribute, Action::SetIfNotExists(now)));
        }
    }
    check_overlaps::<E>(&changes)?;
    if creates {
        check_creates::<E>(key, &changes, &index_changes)?;
    }
    if let Some(expected) = expected {
        condition = condition.and(version::expect::<E>(expected.attribute, expected.version));
    }
    let mut placeholders = Placeholders::default();
    // Without write tokens (a table kept byte for byte as other code
    // writes it) a resent update is not told from its first attempt.
    let stored_token = schema.write_tokens.then_some(&token);
    let update = update_expression::<E>(&changes, &index_changes, stored_token, &mut placeholders);
    if let Some(extra) = extra {
        condition = condition.and(extra);
    }
    let condition = condition.render(&mut placeholders)?;
    Ok(UpdateParts {
        update,
        condition,
        placeholders,
        version: expected,
        token,
        creates,
    })
}

/// The UpdateItem of `parts` at `key`: the one place [`Update::send`] and
/// [`Update::preview`] build it.
fn request<E: Entity>(
    db: &Db<E::Table>,
    key: &Key<E>,
    parts: &UpdateParts,
    returning: ReturnValue,
) -> UpdateItemFluentBuilder {
    db.client()
        .update_item()
        .table_name(db.table_name())
        .set_key(Some(key.to_attributes()))
        .update_expression(parts.update.clone())
        .condition_expression(parts.condition.clone())
        .set_expression_attribute_names(parts.placeholders.names_or_none())
        .set_expression_attribute_values(parts.placeholders.values_or_none())
        .return_values(returning)
        .return_consumed_capacity(ReturnConsumedCapacity::Total)
        // Tells "no such item", "another type", "stale version" and "my own
        // earlier attempt" from "your condition failed".
        .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld)
}

/// An upsert DynamoDB would refuse, or that could leave a half item.
fn upsert_invalid<E: Entity>(reason: String) -> Error {
    Repr::IncompleteUpsert {
        entity: E::RUST_NAME,
        reason,
    }
    .into()
}

/// Refuses an upsert whose changes cannot make an item of `E`: the item it
/// would create where there is none — its key, the changes' values (an
/// `add` or `append` on nothing leaves the amount), the index keys — must
/// decode as an `E` whose keys, table and index, are the ones written.
fn check_creates<E: Entity>(
    key: &Key<E>,
    changes: &Changes,
    index_changes: &[IndexChange],
) -> Result<()> {
    let mut item = key.to_attributes();
    for change in &changes.entries {
        let attribute = change.path.attribute.to_owned();
        match &change.action {
            Action::Set(v)
            | Action::Add(v)
            | Action::SetIfNotExists(v)
            | Action::Increment(v)
            | Action::Append { values: v, .. } => {
                item.insert(attribute, v.clone());
            }
            Action::Remove | Action::Delete(_) => {
                item.remove(&attribute);
            }
        }
    }
    for change in index_changes {
        match change {
            IndexChange::Set(index, index_key) => {
                let keys = index.keys;
                let partition = AttributeValue::S(index_key.partition.clone());
                item.insert(keys.partition_key.to_owned(), partition);
                if let (Some(name), Some(sort)) = (keys.sort_key, &index_key.sort) {
                    item.insert(name.to_owned(), AttributeValue::S(sort.clone()));
                }
            }
            IndexChange::Remove(index) => {
                item.remove(index.keys.partition_key);
                if let Some(name) = index.keys.sort_key {
                    item.remove(name);
                }
            }
        }
    }
    let written = item.clone();
    let created = crate::entity::convert::from_item::<E>(item).map_err(|err| {
        upsert_invalid::<E>(format!(
            "the item it would create where none is stored is not one: {err}; set every field a new `{}` needs",
            E::RUST_NAME
        ))
    })?;
    // Every index key the new item needs is written (the ones written were
    // checked against the value by decoding).
    for entry in created.index_entries()? {
        if entry.key.is_some() && !written.contains_key(entry.index.keys.partition_key) {
            return Err(upsert_invalid::<E>(format!(
                "the item it would create needs a key in index `{}`, which the fields given do not make: set the fields of that index's key",
                entry.index.name
            )));
        }
    }
    Ok(())
}

/// Refuses an update declared not to bump the version whose changes are not
/// all additions (numbers, set elements): only those leave what an editor
/// read unchanged.
fn check_commutative<E: Entity>(changes: &Changes) -> Result<()> {
    let other = changes
        .entries
        .iter()
        .find(|change| !matches!(change.action, Action::Add(_) | Action::Increment(_)));
    match other {
        Some(change) => Err(self_invalid::<E>(format!(
            "it changes `{}` other than by adding, and only additions (`add`, `add_at`, `add_to_set`) may keep the version (`bump_version(false)`): what an editor read would change under the same version",
            change.path
        ))),
        None => Ok(()),
    }
}

/// Refuses two changes of one place, or of a place and a place inside it:
/// DynamoDB refuses the whole update ("two document paths overlap"), and
/// which one should win is the caller's to say.
fn check_overlaps<E: Entity>(changes: &Changes) -> Result<()> {
    for (i, first) in changes.entries.iter().enumerate() {
        if let Some(second) = changes.entries[i + 1..]
            .iter()
            .find(|second| first.path.overlaps(&second.path))
        {
            return Err(self_invalid::<E>(format!(
                "it changes `{}` and `{}`, which overlap (DynamoDB refuses two changes of one place): keep one",
                first.path, second.path
            )));
        }
    }
    Ok(())
}

/// The `UPDATE` expression: SET, REMOVE, ADD and DELETE clauses for the
/// changes and the index keys they move.
fn update_expression<E: Entity>(
    changes: &Changes,
    index_changes: &[IndexChange],
    token: Option<&WriteToken>,
    p: &mut Placeholders,
) -> String {
    let (mut set, mut remove) = (Vec::new(), Vec::new());
    if let Some(token) = token {
        // The token history moves down one slot and this call's token
        // takes slot 0, the oldest falling out: a late attempt of any of
        // the last few writes still finds its token, and the item never
        // holds more than `TOKEN_HISTORY` of them. The slots are listed
        // from the oldest, so evaluating them in order or all against the
        // item before the update gives the same result; a slot with
        // nothing to take yet (a new item, or one a single-token version
        // of the library wrote) takes this call's token, so no slot ever
        // refers to a missing attribute.
        let schema = E::Table::SCHEMA;
        let v = p.value(token.value());
        for slot in (1..TableSchema::TOKEN_HISTORY).rev() {
            let to = p.name(&schema.token_slot(slot));
            let from = p.name(&schema.token_slot(slot - 1));
            set.push(format!("{to} = if_not_exists({from}, {v})"));
        }
        set.push(format!("{} = {v}", p.name(schema.token_attribute)));
    }
    let (mut add, mut delete) = (Vec::new(), Vec::new());
    for change in &changes.entries {
        let n = render_path(&change.path, p);
        match &change.action {
            Action::Set(v) => set.push(format!("{n} = {}", p.value(v.clone()))),
            Action::Remove => remove.push(n),
            Action::Add(v) => add.push(format!("{n} {}", p.value(v.clone()))),
            Action::Delete(v) => delete.push(format!("{n} {}", p.value(v.clone()))),
            Action::SetIfNotExists(v) => {
                set.push(format!("{n} = if_not_exists({n}, {})", p.value(v.clone())));
            }
            Action::Append { values, front } => {
                let existing = format!(
                    "if_not_exists({n}, {})",
                    p.value(AttributeValue::L(Vec::new()))
                );
                let values = p.value(values.clone());
                let (first, second) = match front {
                    false => (existing, values),
                    true => (values, existing),
                };
                set.push(format!("{n} = list_append({first}, {second})"));
            }
            Action::Increment(v) => {
                let zero = p.value(AttributeValue::N("0".to_owned()));
                set.push(format!(
                    "{n} = if_not_exists({n}, {zero}) + {}",
                    p.value(v.clone())
                ));
            }
        }
    }
    // An index key attribute the update sets as a field (a raw key:
    // `pk = field`) moves with that field's own SET or REMOVE.
    let changed = |attribute: &str| {
        changes
            .entries
            .iter()
            .any(|c| c.path.is_top() && c.path.attribute == attribute)
    };
    for change in index_changes {
        match change {
            IndexChange::Set(index, key) => {
                if !changed(index.keys.partition_key) {
                    let pk = p.name(index.keys.partition_key);
                    set.push(format!(
                        "{pk} = {}",
                        p.value(AttributeValue::S(key.partition.clone()))
                    ));
                }
                if let (Some(attribute), Some(sort)) = (index.keys.sort_key, &key.sort)
                    && !changed(attribute)
                {
                    let sk = p.name(attribute);
                    set.push(format!(
                        "{sk} = {}",
                        p.value(AttributeValue::S(sort.clone()))
                    ));
                }
            }
            IndexChange::Remove(index) => {
                for attribute in std::iter::once(index.keys.partition_key)
                    .chain(index.keys.sort_key)
                    .filter(|attribute| !changed(attribute))
                {
                    remove.push(p.name(attribute));
                }
            }
        }
    }
    let mut update = String::new();
    for (keyword, clauses) in [
        ("SET", set),
        ("REMOVE", remove),
        ("ADD", add),
        ("DELETE", delete),
    ] {
        if !clauses.is_empty() {
            let separator = if update.is_empty() { "" } else { " " };
            let _ = write!(update, "{separator}{keyword} {}", clauses.join(", "));
        }
    }
    update
}

/// An [`Update`] that returns the entity as it was before
/// ([`Update::returning_old`]).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use ddb_entity::{Db, Entity, local::LocalDynamo};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq, Clone)]
/// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// # struct Customer { id: u64, name: String, visits: u64, nickname: Option<String> }
/// # let dynamo = LocalDynamo::start().await?;
/// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// # db.create_table_if_missing().await?;
/// # db.put(&Customer { id: 1, name: "Ada".into(), visits: 0, nickname: Some("Countess".into()) }).await?;
/// let f = Customer::fields();
/// let before: Option<Customer> = db
///     .update(Customer::key(1)?)
///     .set(f.name, "Ada L.".to_owned())
///     .returning_old()
///     .await?;
/// assert_eq!(before.map(|c| c.name).as_deref(), Some("Ada"));
/// # Ok(())
/// # }
/// ```
#[must_use = "nothing happens until you call `.send().await` (or `.await`)"]
pub struct UpdateReturningOld<'db, E: Entity>(Update<'db, E>);

impl<E: Entity> UpdateReturningOld<'_, E> {
    /// Sends the UpdateItem; `Ok(None)` when an upsert created the item.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize, Debug, PartialEq, Clone)]
    /// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// # struct Customer { id: u64, name: String, visits: u64, nickname: Option<String> }
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// # db.put(&Customer { id: 1, name: "Ada".into(), visits: 0, nickname: Some("Countess".into()) }).await?;
    /// let f = Customer::fields();
    /// let before = db.update(Customer::key(1)?).add(f.visits, 1).returning_old().send().await?;
    /// assert_eq!(before.map(|c| c.visits), Some(0));
    /// // An upsert that creates the item had nothing before it.
    /// let created = db.upsert(Customer::key(2)?).set(f.name, "Grace".to_owned())
    ///     .add(f.visits, 1).returning_old().send().await?;
    /// assert_eq!(created, None);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn send(self) -> Result<Option<E>> {
        let operation = self.0.operation();
        let key = self.0.key.clone();
        let old = self.0.run(ReturnValue::AllOld).await?;
        old.map(|item| failure::decode_applied::<E>(operation, (key.partition(), key.sort()), item))
            .transpose()
    }
}

into_future!(['db, E: Entity] Update<'db, E> => E);
into_future!(['db, E: Entity] UpdateReturningOld<'db, E> => Option<E>);
