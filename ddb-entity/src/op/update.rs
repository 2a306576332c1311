//! UpdateItem: typed set / remove / add on fields, with the key attributes
//! of every index those fields feed rewritten in the same request.

use std::any::Any;
use std::fmt::Write as _;
use std::future::{Future, IntoFuture};
use std::pin::Pin;

use aws_sdk_dynamodb::operation::update_item::UpdateItemError;
use aws_sdk_dynamodb::types::{AttributeValue, ReturnValue};
use serde::Serialize;
use tracing::Instrument;

use crate::db::Db;
use crate::entity::{Entity, Field, IndexKey, Key, KeyRole};
use crate::error::{Error, Result};
use crate::table::{IndexSchema, Table};

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
/// The item must exist: updating a missing key is [`Error::NotFound`], never
/// a half-written item.
#[must_use = "nothing happens until you call `.send().await` (or `.await`)"]
pub struct Update<'db, E: Entity> {
    db: &'db Db<E::Table>,
    key: Key<E>,
    changes: Changes,
    error: Option<Error>,
}

/// The changes of one update, as generated code reads them to recompute
/// index keys.
#[doc(hidden)]
#[derive(Default)]
pub struct Changes {
    entries: Vec<Change>,
}

struct Change {
    field: &'static str,
    attribute: &'static str,
    action: Action,
    /// The typed value of a `set`, for key recomputation.
    value: Option<Box<dyn Any + Send + Sync>>,
}

enum Action {
    Set(AttributeValue),
    Remove,
    Add(AttributeValue),
}

/// What an update does to one field, seen from generated code.
#[doc(hidden)]
pub enum Lookup<'a, T> {
    /// The update does not change the field.
    Untouched,
    /// The field is set to this value.
    Set(&'a T),
    /// The field is removed (an `Option` becoming `None`).
    Removed,
    /// The field is added to: its new value is unknown here.
    Added,
}

impl Changes {
    /// Whether the update changes any of `fields`.
    pub fn touches(&self, fields: &[&str]) -> bool {
        self.entries.iter().any(|c| fields.contains(&c.field))
    }

    /// What the update does to `field`, whose type is `T`.
    pub fn lookup<T: 'static>(&self, field: &str) -> Lookup<'_, T> {
        match self.entries.iter().rev().find(|c| c.field == field) {
            None => Lookup::Untouched,
            Some(change) => match &change.action {
                Action::Remove => Lookup::Removed,
                Action::Add(_) => Lookup::Added,
                Action::Set(_) => change
                    .value
                    .as_ref()
                    .and_then(|value| value.downcast_ref::<T>())
                    .map_or(Lookup::Untouched, Lookup::Set),
            },
        }
    }
}

/// How one index's key attributes change with an update.
#[doc(hidden)]
#[derive(Debug)]
pub enum IndexChange {
    /// Write these key values.
    Set(IndexSchema, IndexKey),
    /// Remove the key attributes: the item leaves the (sparse) index.
    Remove(IndexSchema),
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
            error: None,
        }
    }
}

impl<E: Entity> Update<'_, E> {
    fn push<T: Serialize + Send + Sync + 'static>(
        mut self,
        field: Field<E, T>,
        action: impl FnOnce(AttributeValue) -> Action,
        value: Option<T>,
    ) -> Self {
        if self.error.is_some() {
            return self;
        }
        if field.role() == KeyRole::Primary {
            self.error = Some(Error::InvalidRequest(format!(
                "`{}` is part of the primary key of `{}`: changing it makes another item; delete this one and put the new one",
                field.name(),
                E::NAME
            )));
            return self;
        }
        let attribute = match &value {
            Some(value) => match serde_dynamo::to_attribute_value(value) {
                Ok(attribute) => Some(attribute),
                Err(source) => {
                    self.error = Some(Error::Encode {
                        entity: E::NAME,
                        source,
                    });
                    return self;
                }
            },
            None => None,
        };
        let action = match attribute {
            Some(attribute) => action(attribute),
            None => Action::Remove,
        };
        self.changes.entries.push(Change {
            field: field.name(),
            attribute: field.attribute(),
            action,
            value: value.map(|v| Box::new(v) as Box<dyn Any + Send + Sync>),
        });
        self
    }

    /// `field = value`.
    pub fn set<T: Serialize + Send + Sync + 'static>(self, field: Field<E, T>, value: T) -> Self {
        self.push(field, Action::Set, Some(value))
    }

    /// `field = None`, by removing the attribute (and the key attributes of
    /// every sparse index it feeds).
    pub fn remove<T: Serialize + Send + Sync + 'static>(self, field: Field<E, Option<T>>) -> Self {
        self.push(field, Action::Set, None)
    }

    /// `field = field + amount`, atomically on the server. A field that
    /// feeds a key cannot be added to: its new value would be unknown here.
    pub fn add<T>(mut self, field: Field<E, T>, amount: T) -> Self
    where
        T: Serialize + Send + Sync + Copy + std::ops::Add<Output = T> + 'static,
    {
        if field.role() == KeyRole::Index && self.error.is_none() {
            self.error = Some(Error::InvalidRequest(format!(
                "`{}` feeds an index key of `{}`: add would leave that key stale; set the new value instead",
                field.name(),
                E::NAME
            )));
        }
        self.push(field, Action::Add, Some(amount))
    }

    /// Sends the UpdateItem and returns the entity as stored afterwards.
    pub async fn send(self) -> Result<E> {
        let table = self.db.table_name();
        let span = tracing::info_span!(
            "ddb.update",
            table,
            entity = E::NAME,
            fields = self.changes.entries.len()
        );
        async move {
            if let Some(error) = self.error {
                return Err(error);
            }
            if self.changes.entries.is_empty() {
                return Err(Error::InvalidRequest(format!(
                    "an update of `{}` with no changes: set, remove or add a field",
                    E::NAME
                )));
            }
            let index_changes = E::index_changes(&self.key, &self.changes)?;
            let expression = Expression::build(
                &self.changes,
                &index_changes,
                E::Table::SCHEMA.primary.partition_key,
            );
            let response = self
                .db
                .client()
                .update_item()
                .table_name(table)
                .set_key(Some(self.key.to_attributes()))
                .update_expression(expression.update)
                .condition_expression(expression.condition)
                .set_expression_attribute_names(Some(expression.names))
                .set_expression_attribute_values(
                    (!expression.values.is_empty()).then_some(expression.values),
                )
                .return_values(ReturnValue::AllNew)
                .send()
                .await;
            match response {
                Ok(output) => E::from_item(output.attributes.unwrap_or_default()),
                Err(err)
                    if err
                        .as_service_error()
                        .is_some_and(UpdateItemError::is_conditional_check_failed_exception) =>
                {
                    let (partition, sort) = self.key.into_parts();
                    Err(Error::NotFound {
                        entity: E::NAME,
                        partition,
                        sort,
                    })
                }
                Err(err) => Err(Error::service("UpdateItem", table, err)),
            }
        }
        .instrument(span)
        .await
    }
}

/// An update expression with every name and value a placeholder, so
/// reserved words (`status`, `name`, …) just work.
struct Expression {
    update: String,
    condition: String,
    names: std::collections::HashMap<String, String>,
    values: std::collections::HashMap<String, AttributeValue>,
}

impl Expression {
    fn build(changes: &Changes, index_changes: &[IndexChange], partition_key: &str) -> Self {
        let mut names = std::collections::HashMap::new();
        let mut values = std::collections::HashMap::new();
        let (mut set, mut remove, mut add) = (Vec::new(), Vec::new(), Vec::new());
        let mut name = |attribute: &str| {
            let placeholder = format!("#n{}", names.len());
            names.insert(placeholder.clone(), attribute.to_owned());
            placeholder
        };
        let mut value = |v: AttributeValue| {
            let placeholder = format!(":v{}", values.len());
            values.insert(placeholder.clone(), v);
            placeholder
        };
        for change in &changes.entries {
            let n = name(change.attribute);
            match &change.action {
                Action::Set(v) => set.push(format!("{n} = {}", value(v.clone()))),
                Action::Remove => remove.push(n),
                Action::Add(v) => add.push(format!("{n} {}", value(v.clone()))),
            }
        }
        for change in index_changes {
            match change {
                IndexChange::Set(index, key) => {
                    let pk = name(index.keys.partition_key);
                    set.push(format!(
                        "{pk} = {}",
                        value(AttributeValue::S(key.partition.clone()))
                    ));
                    if let (Some(attribute), Some(sort)) = (index.keys.sort_key, &key.sort) {
                        let sk = name(attribute);
                        set.push(format!("{sk} = {}", value(AttributeValue::S(sort.clone()))));
                    }
                }
                IndexChange::Remove(index) => {
                    remove.push(name(index.keys.partition_key));
                    if let Some(attribute) = index.keys.sort_key {
                        remove.push(name(attribute));
                    }
                }
            }
        }
        let condition = format!("attribute_exists({})", name(partition_key));
        let mut update = String::new();
        for (keyword, clauses) in [("SET", set), ("REMOVE", remove), ("ADD", add)] {
            if !clauses.is_empty() {
                let _ = write!(
                    update,
                    "{}{keyword} {}",
                    if update.is_empty() { "" } else { " " },
                    clauses.join(", ")
                );
            }
        }
        Expression {
            update,
            condition,
            names,
            values,
        }
    }
}

impl<'db, E: Entity + Send + Sync + 'db> IntoFuture for Update<'db, E> {
    type Output = Result<E>;
    type IntoFuture = Pin<Box<dyn Future<Output = Self::Output> + Send + 'db>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}
