//! One action of a transaction: built from the same parts as the
//! single-item operation it mirrors, when it is added.

use std::fmt;
use std::marker::PhantomData;
use std::time::SystemTime;

use aws_sdk_dynamodb::types::{
    AttributeValue, ConditionCheck, Delete as SdkDelete, Put as SdkPut,
    ReturnValuesOnConditionCheckFailure, TransactWriteItem, Update as SdkUpdate,
};

use crate::entity::{Entity, Key};
use crate::error::{ActionKind, Repr, Result};
use crate::expr::version::Expected;
use crate::expr::{Condition, Placeholders};
use crate::item::{Item, item_size};
use crate::table::Table;
use crate::write::put::PutInner;
use crate::write::token::WriteToken;
use crate::write::{Delete, Put, Update, delete, put};

/// A put for [`Transaction::put`](super::Transaction::put): made from an
/// entity (`&E`, a plain upsert) or from the builder of a single put
/// (`db.put(&e).condition(…)`, `db.create(&e)`), which then behaves in the
/// transaction exactly as it would alone. Built (and checked) when added to
/// the transaction; a failure is reported when the transaction is sent.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use ddb_entity::{Db, Entity, local::LocalDynamo};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
/// #[entity(table = App, pk = "SKU#{sku}", sk = "PRICE")]
/// struct Price { sku: String, cents: i64 }
///
/// # let dynamo = LocalDynamo::start().await?;
/// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// # db.create_table_if_missing().await?;
/// db.put(&Price { sku: "A1".into(), cents: 100 }).await?;
/// let f = Price::fields();
/// let a1 = Price { sku: "A1".into(), cents: 120 };
/// let b2 = Price { sku: "B2".into(), cents: 80 };
/// db.transact()
///     .put(db.put(&a1).condition(f.cents.equals(100))) // a put built as alone
///     .put(db.create(&b2))                               // a create
///     .await?;
/// assert_eq!(db.get(Price::key("B2")?).await?, Some(b2));
///
/// // The condition no longer holds: nothing is written.
/// let a1_again = Price { sku: "A1".into(), cents: 150 };
/// let err = db.transact().put(db.put(&a1_again).condition(f.cents.equals(100))).await.unwrap_err();
/// assert!(err.is_condition_failed());
/// assert_eq!(db.get(Price::key("A1")?).await?, Some(a1));
/// # Ok(())
/// # }
/// ```
pub struct TransactPut<'e, T: Table> {
    build: Build<'e>,
    kind: ActionKind,
    entity: &'static str,
    table: PhantomData<fn() -> T>,
}

/// How a [`TransactPut`] becomes an action, given the transaction's clock
/// and write token.
type Build<'e> = Box<dyn FnOnce(SystemTime, &WriteToken) -> Planned + Send + 'e>;

/// A delete for [`Transaction::delete`](super::Transaction::delete): made
/// from a [`Key`] (an unconditional delete) or from the builder of a single
/// delete (`db.delete(key).condition(…).expect_version(…)`), which then
/// behaves in the transaction exactly as it would alone.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use ddb_entity::{Db, Entity, local::LocalDynamo};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// #[derive(Entity, Serialize, Deserialize, Debug)]
/// #[entity(table = App, pk = "DOC#{id}", sk = "DOC", version = "version")]
/// struct Doc { id: u64, #[serde(default)] version: u64 }
///
/// # let dynamo = LocalDynamo::start().await?;
/// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// # db.create_table_if_missing().await?;
/// db.create(&Doc { id: 1, version: 0 }).await?; // stored at version 1
/// db.create(&Doc { id: 2, version: 0 }).await?;
/// // A key alone, and a delete built as alone, with its version check.
/// let stale = db.transact().delete(Doc::key(1)?).delete(db.delete(Doc::key(2)?).expect_version(7));
/// assert!(stale.await.unwrap_err().is_version_conflict());
/// db.transact().delete(Doc::key(1)?).delete(db.delete(Doc::key(2)?).expect_version(1)).await?;
/// assert!(db.get(Doc::key(2)?).await?.is_none());
/// # Ok(())
/// # }
/// ```
pub struct TransactDelete<T: Table> {
    planned: Planned,
    table: PhantomData<fn() -> T>,
}

impl<T: Table> TransactPut<'_, T> {
    /// The action, its maintained timestamps written as of `now` (the
    /// transaction's clock), its item carrying the transaction's `token`.
    pub(super) fn into_planned(self, now: SystemTime, token: &WriteToken) -> Planned {
        (self.build)(now, token)
    }
}

impl<T: Table> TransactDelete<T> {
    pub(super) fn into_planned(self) -> Planned {
        self.planned
    }
}

impl<'e, E: Entity> From<&'e E> for TransactPut<'e, E::Table> {
    fn from(entity: &'e E) -> Self {
        TransactPut {
            build: Box::new(move |now, token| Planned::put(entity, now, false, None, None, token)),
            kind: ActionKind::Put,
            entity: E::RUST_NAME,
            table: PhantomData,
        }
    }
}

impl<'e, E: Entity> From<Put<'_, 'e, E>> for TransactPut<'e, E::Table> {
    fn from(put: Put<'_, 'e, E>) -> Self {
        let PutInner {
            db,
            entity,
            only_if_new,
            condition,
        } = put.into_inner();
        let made_for = db.table_name().to_owned();
        TransactPut {
            build: Box::new(move |now, token| {
                Planned::put(entity, now, only_if_new, condition, Some(&made_for), token)
            }),
            kind: if only_if_new {
                ActionKind::Create
            } else {
                ActionKind::Put
            },
            entity: E::RUST_NAME,
            table: PhantomData,
        }
    }
}

impl<E: Entity> From<Key<E>> for TransactDelete<E::Table> {
    fn from(key: Key<E>) -> Self {
        let parts = delete::parts::<E>(None, None);
        TransactDelete {
            planned: Planned::delete(key, parts, None),
            table: PhantomData,
        }
    }
}

impl<E: Entity> From<Delete<'_, E>> for TransactDelete<E::Table> {
    fn from(delete: Delete<'_, E>) -> Self {
        let (db, key, parts) = delete.into_parts();
        TransactDelete {
            planned: Planned::delete(key, parts, Some(db.table_name())),
            table: PhantomData,
        }
    }
}

impl<T: Table> fmt::Debug for TransactPut<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Built when added to a transaction: only what it will be.
        f.debug_struct("TransactPut")
            .field("kind", &self.kind)
            .field("entity", &self.entity)
            .finish_non_exhaustive()
    }
}

impl<T: Table> fmt::Debug for TransactDelete<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.planned.debug("TransactDelete", f)
    }
}

/// An action as added to a transaction: what it is, which item, and its
/// request parts (or why they could not be built).
pub(crate) struct Planned {
    pub(crate) kind: ActionKind,
    pub(crate) entity: &'static str,
    /// Whether a stored item is an entity of this type (the one check
    /// typed reads make, as the table is typed).
    pub(crate) check: fn(&Item) -> Result<()>,
    /// The partition and sort key values; `None` only when the parts failed.
    pub(crate) key: Option<(String, String)>,
    /// The table of the `Db` the single-item builder was made from, if any.
    pub(crate) made_for: Option<String>,
    pub(crate) parts: Result<Parts>,
}

/// The request parts of one action: one of the four writes, and the
/// condition shared by them all.
pub(crate) struct Parts {
    pub(crate) write: Write,
    pub(crate) condition: Option<String>,
    pub(crate) placeholders: Placeholders,
    /// The version a versioned write expects stored.
    pub(crate) version: Option<Expected>,
    /// The item written carries the transaction's write token.
    pub(crate) tokened: bool,
}

pub(crate) enum Write {
    Put(Item),
    Update { key: Item, expression: String },
    Delete { key: Item },
    Check { key: Item },
}

impl Planned {
    pub(crate) fn put<E: Entity>(
        entity: &E,
        now: SystemTime,
        only_if_new: bool,
        condition: Option<Condition<E>>,
        made_for: Option<&str>,
        token: &WriteToken,
    ) -> Planned {
        let parts =
            put::parts(now, entity, only_if_new, condition, token, true, false).map(|parts| {
                Parts {
                    write: Write::Put(parts.item),
                    condition: parts.condition,
                    placeholders: parts.placeholders,
                    version: parts.version,
                    tokened: parts.tokened,
                }
            });
        Planned {
            kind: if only_if_new {
                ActionKind::Create
            } else {
                ActionKind::Put
            },
            entity: E::RUST_NAME,
            check: crate::entity::convert::check_type::<E>,
            // The parts fail too when the key does.
            key: entity.primary_key().ok().map(Key::into_parts),
            made_for: made_for.map(str::to_owned),
            parts,
        }
    }

    pub(crate) fn update<E: Entity>(update: Update<'_, E>, token: &WriteToken) -> Planned {
        let kind = match update.creates() {
            true => ActionKind::Upsert,
            false => ActionKind::Update,
        };
        let (db, key, parts) = update.into_parts_with(Ok(token.clone()));
        let parts = parts.map(|parts| Parts {
            write: Write::Update {
                key: key.to_attributes(),
                expression: parts.update,
            },
            condition: Some(parts.condition),
            placeholders: parts.placeholders,
            version: parts.version,
            tokened: E::Table::SCHEMA.write_tokens,
        });
        Planned::keyed::<E>(kind, key, Some(db.table_name()), parts)
    }

    fn delete<E: Entity>(
        key: Key<E>,
        parts: Result<delete::DeleteParts>,
        made_for: Option<&str>,
    ) -> Planned {
        let parts = parts.map(|parts| Parts {
            write: Write::Delete {
                key: key.to_attributes(),
            },
            condition: parts.condition,
            placeholders: parts.placeholders,
            version: parts.version,
            tokened: false,
        });
        Planned::keyed::<E>(ActionKind::Delete, key, made_for, parts)
    }

    pub(crate) fn condition_check<E: Entity>(key: Key<E>, condition: Condition<E>) -> Planned {
        let mut placeholders = Placeholders::default();
        // A typed check holds only for no item or an item of its type.
        let condition = Condition::absent_or_of_type().and(condition);
        let parts = condition.render(&mut placeholders).map(|condition| Parts {
            write: Write::Check {
                key: key.to_attributes(),
            },
            condition: Some(condition),
            placeholders,
            version: None,
            tokened: false,
        });
        Planned::keyed::<E>(ActionKind::ConditionCheck, key, None, parts)
    }

    fn keyed<E: Entity>(
        kind: ActionKind,
        key: Key<E>,
        made_for: Option<&str>,
        parts: Result<Parts>,
    ) -> Planned {
        Planned {
            kind,
            entity: E::RUST_NAME,
            check: crate::entity::convert::check_type::<E>,
            key: Some(key.into_parts()),
            made_for: made_for.map(str::to_owned),
            parts,
        }
    }

    /// The same action with `to` as its write token instead of `from`,
    /// where it stores or compares one.
    pub(crate) fn retoken(&mut self, from: &WriteToken, to: &WriteToken, attribute: &str) {
        let Ok(parts) = &mut self.parts else { return };
        if let Write::Put(item) = &mut parts.write
            && from.is_at(item, attribute)
        {
            item.insert(attribute.to_owned(), to.value());
        }
        // An update's token is one of its values (`SET`, and the condition
        // on it); a fresh 126-bit token is no other value.
        for value in parts.placeholders.values.values_mut() {
            if matches!(value, AttributeValue::S(s) if s == from.as_str()) {
                *value = to.value();
            }
        }
    }

    fn debug(&self, name: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Keys only: item values can be personal data.
        f.debug_struct(name)
            .field("kind", &self.kind)
            .field("entity", &self.entity)
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

impl Parts {
    /// What the action writes, as DynamoDB counts it against a
    /// transaction's 4 MB (at least): a put's whole item, an update's key
    /// and values, a delete's or a check's key.
    pub(crate) fn bytes(&self) -> usize {
        match &self.write {
            Write::Put(item) => item_size(item),
            Write::Update { key, .. } => {
                let values = self.placeholders.values.values().cloned();
                let values: Item = (0..).map(|i: usize| i.to_string()).zip(values).collect();
                item_size(key) + item_size(&values)
            }
            Write::Delete { key } | Write::Check { key } => item_size(key),
        }
    }

    /// The SDK's action on `table`. Every action asks for the stored item
    /// when its condition fails: that item tells a taken key, a missing
    /// item, a stale version, an item of another type and the
    /// transaction's own replay apart.
    pub(crate) fn into_sdk(self, table: &str) -> Result<TransactWriteItem> {
        let names = self.placeholders.names_or_none();
        let values = self.placeholders.values_or_none();
        // Only a condition can fail, so only then is there an item to return.
        let on_failure = self
            .condition
            .is_some()
            .then_some(ReturnValuesOnConditionCheckFailure::AllOld);
        let built = match self.write {
            Write::Put(item) => SdkPut::builder()
                .table_name(table)
                .set_item(Some(item))
                .set_condition_expression(self.condition)
                .set_expression_attribute_names(names)
                .set_expression_attribute_values(values)
                .set_return_values_on_condition_check_failure(on_failure)
                .build()
                .map(|put| TransactWriteItem::builder().put(put)),
            Write::Update { key, expression } => SdkUpdate::builder()
                .table_name(table)
                .set_key(Some(key))
                .update_expression(expression)
                .set_condition_expression(self.condition)
                .set_expression_attribute_names(names)
                .set_expression_attribute_values(values)
                .set_return_values_on_condition_check_failure(on_failure)
                .build()
                .map(|update| TransactWriteItem::builder().update(update)),
            Write::Delete { key } => SdkDelete::builder()
                .table_name(table)
                .set_key(Some(key))
                .set_condition_expression(self.condition)
                .set_expression_attribute_names(names)
                .set_expression_attribute_values(values)
                .set_return_values_on_condition_check_failure(on_failure)
                .build()
                .map(|delete| TransactWriteItem::builder().delete(delete)),
            Write::Check { key } => ConditionCheck::builder()
                .table_name(table)
                .set_key(Some(key))
                .set_condition_expression(self.condition)
                .set_expression_attribute_names(names)
                .set_expression_attribute_values(values)
                .set_return_values_on_condition_check_failure(on_failure)
                .build()
                .map(|check| TransactWriteItem::builder().condition_check(check)),
        };
        built.map(|builder| builder.build()).map_err(|err| {
            Repr::RequestBuild {
                what: "transaction action",
                source: Box::new(err),
            }
            .into()
        })
    }
}
