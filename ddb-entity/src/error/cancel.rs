//! A canceled transaction's reasons, one per action, as its error carries
//! them. Mapping DynamoDB's answer onto them is the transaction's job.

use std::fmt;

#[cfg(doc)]
use super::Error;
use super::Item;

/// What one action of a transaction does to its item.
///
/// # Example
///
/// ```
/// use ddb_entity::op::ActionKind;
///
/// assert_eq!(ActionKind::ConditionCheck.as_str(), "condition check");
/// assert_eq!(ActionKind::Upsert.to_string(), "upsert");
/// ```
///
/// A canceled transaction names each action's kind: see
/// [`CancellationReason`'s example](CancellationReason#example).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ActionKind {
    /// Writes the item, replacing any with its key ([`Db::put`](crate::db::Db::put)).
    Put,
    /// Writes the item only if its key is free ([`Db::create`](crate::db::Db::create)).
    Create,
    /// Changes fields of a stored item ([`Db::update`](crate::db::Db::update)).
    Update,
    /// Changes fields of an item, creating it if there is none
    /// ([`Db::upsert`](crate::db::Db::upsert)).
    Upsert,
    /// Deletes the item ([`Db::delete`](crate::db::Db::delete)).
    Delete,
    /// Writes nothing: the transaction happens only if a condition on the
    /// item holds.
    ConditionCheck,
    /// Reads the item ([`Db::transact_get`](crate::db::Db::transact_get)).
    Get,
}

impl ActionKind {
    /// `"put"`, `"create"`, `"update"`, `"upsert"`, `"delete"`,
    /// `"condition check"` or `"get"`.
    ///
    /// See [the example](ActionKind#example).
    pub fn as_str(self) -> &'static str {
        match self {
            ActionKind::Put => "put",
            ActionKind::Create => "create",
            ActionKind::Update => "update",
            ActionKind::Upsert => "upsert",
            ActionKind::Delete => "delete",
            ActionKind::ConditionCheck => "condition check",
            ActionKind::Get => "get",
        }
    }
}

impl fmt::Display for ActionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why DynamoDB canceled one action of a transaction (the `Code` of its
/// `CancellationReason`).
///
/// # Example
///
/// ```
/// use ddb_entity::op::CancellationCode;
///
/// let conflict = CancellationCode::TransactionConflict;
/// assert_eq!(conflict.as_str(), "TransactionConflict");
/// assert!(conflict.is_retryable());
/// assert!(!CancellationCode::ConditionalCheckFailed.is_retryable());
/// assert_eq!(CancellationCode::None.to_string(), "None");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CancellationCode {
    /// The action did not fail: another one canceled the transaction.
    None,
    /// The action's condition did not hold: "no item yet" for a create, "the
    /// item exists" for an update, a version check, the caller's condition.
    ConditionalCheckFailed,
    /// Another transaction or write was in progress on the item. Nothing
    /// is wrong with the request: send the transaction again.
    TransactionConflict,
    /// The item collection (partition) outgrew a local secondary index's
    /// 10 GB limit.
    ItemCollectionSizeLimitExceeded,
    /// The table's provisioned throughput was exceeded: retry after a
    /// back-off.
    ProvisionedThroughputExceeded,
    /// The request was throttled: retry after a back-off.
    ThrottlingError,
    /// DynamoDB found the action invalid (an expression, an item too large, …).
    ValidationError,
    /// A code this version of the library does not know.
    Other(String),
}

impl CancellationCode {
    pub(crate) fn parse(code: Option<&str>) -> Self {
        match code {
            None | Some("None" | "") => CancellationCode::None,
            Some("ConditionalCheckFailed") => CancellationCode::ConditionalCheckFailed,
            Some("TransactionConflict") => CancellationCode::TransactionConflict,
            Some("ItemCollectionSizeLimitExceeded") => {
                CancellationCode::ItemCollectionSizeLimitExceeded
            }
            Some("ProvisionedThroughputExceeded") => {
                CancellationCode::ProvisionedThroughputExceeded
            }
            Some("ThrottlingError") => CancellationCode::ThrottlingError,
            Some("ValidationError") => CancellationCode::ValidationError,
            Some(other) => CancellationCode::Other(other.to_owned()),
        }
    }

    /// The code as DynamoDB spells it (`"None"` for an action that did not
    /// fail).
    ///
    /// See [the example](CancellationCode#example).
    pub fn as_str(&self) -> &str {
        match self {
            CancellationCode::None => "None",
            CancellationCode::ConditionalCheckFailed => "ConditionalCheckFailed",
            CancellationCode::TransactionConflict => "TransactionConflict",
            CancellationCode::ItemCollectionSizeLimitExceeded => "ItemCollectionSizeLimitExceeded",
            CancellationCode::ProvisionedThroughputExceeded => "ProvisionedThroughputExceeded",
            CancellationCode::ThrottlingError => "ThrottlingError",
            CancellationCode::ValidationError => "ValidationError",
            CancellationCode::Other(code) => code,
        }
    }

    /// Sending the same transaction again may succeed: a conflict with
    /// another writer, or throttling.
    ///
    /// See [the example](CancellationCode#example).
    pub fn is_retryable(&self) -> bool {
        matches!(
            self,
            CancellationCode::TransactionConflict
                | CancellationCode::ProvisionedThroughputExceeded
                | CancellationCode::ThrottlingError
        )
    }
}

impl fmt::Display for CancellationCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A versioned write of a canceled transaction found another version
/// stored than the one it expected: someone else wrote first.
///
/// [`CancellationReason::stale_version`] returns it; see
/// [`CancellationReason`'s example](CancellationReason#example).
///
/// ```
/// use ddb_entity::op::StaleVersion;
///
/// let stale = StaleVersion { expected: 3, found: Some(4) };
/// assert_ne!(stale.found, Some(stale.expected));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StaleVersion {
    /// The version the write expected.
    pub expected: u64,
    /// The version stored, `None` when no item is stored.
    pub found: Option<u64>,
}

/// One action of a canceled transaction and why DynamoDB canceled it (see
/// [`Error::cancellation_reasons`]): the action's position, entity type and
/// key, and DynamoDB's reason code and message for it.
///
/// A canceled transaction has one reason per action, in the order the
/// actions were added; the actions that did not fail read
/// [`CancellationCode::None`].
///
/// # Example
///
/// A transaction that creates an order over a taken key, updates an item
/// that does not exist and renames a user over a stale version:
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use ddb_entity::op::{ActionKind, CancellationCode, StaleVersion};
/// use ddb_entity::{Db, Entity, local::LocalDynamo};
/// use serde::{Deserialize, Serialize};
///
/// ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
///
/// #[derive(Entity, Serialize, Deserialize, Debug, Clone)]
/// #[entity(table = App, pk = "USER#{id}", sk = "PROFILE", version = "version")]
/// struct User { id: u64, name: String, #[serde(default)] version: u64 }
///
/// #[derive(Entity, Serialize, Deserialize, Debug, Clone)]
/// #[entity(table = App, pk = "USER#{user_id}", sk = "ORDER#{order_id}")]
/// struct Order { user_id: u64, order_id: u64 }
///
/// let dynamo = LocalDynamo::start().await?;
/// let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("reasons"));
/// db.create_table_if_missing().await?;
/// let order = Order { user_id: 1, order_id: 7 };
/// db.create(&User { id: 1, name: "Ada".into(), version: 0 }).await?;
/// db.create(&order).await?;
///
/// let f = User::fields();
/// let err = db
///     .transact()
///     .create(&order)
///     .update(db.update(User::key(2)?).set(f.name, "Bo".to_owned()))
///     .update(db.update(User::key(1)?).set(f.name, "Ada L.".to_owned()).expect_version(5))
///     .await
///     .unwrap_err();
/// let [taken, missing, stale] = err.cancellation_reasons() else { panic!("{err}") };
///
/// assert_eq!((taken.index(), taken.action(), taken.entity()), (0, ActionKind::Create, "Order"));
/// assert!(taken.partition().starts_with("USER#") && taken.sort().starts_with("ORDER#"));
/// assert_eq!(taken.code(), &CancellationCode::ConditionalCheckFailed);
/// assert!(taken.is_failure() && taken.is_condition_failed() && taken.is_already_exists());
/// assert!(taken.old_item().is_some()); // the item that holds the key
///
/// assert_eq!((missing.index(), missing.action()), (1, ActionKind::Update));
/// assert!(missing.is_not_found() && missing.old_item().is_none());
///
/// assert!(stale.is_version_conflict());
/// assert_eq!(stale.stale_version(), Some(StaleVersion { expected: 5, found: Some(1) }));
/// assert!(!stale.is_transaction_conflict() && !stale.is_wrong_type());
/// let _ = stale.message(); // DynamoDB's text, when it gives one
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct CancellationReason {
    pub(crate) index: usize,
    pub(crate) action: ActionKind,
    pub(crate) entity: &'static str,
    pub(crate) partition: String,
    pub(crate) sort: String,
    pub(crate) code: CancellationCode,
    pub(crate) message: Option<String>,
    pub(crate) old_item: Option<Item>,
    pub(crate) stale_version: Option<StaleVersion>,
    /// The action's item was of another entity type (or of none).
    pub(crate) wrong_type: bool,
}

impl CancellationReason {
    /// The action's position in the transaction, from 0 in the order the
    /// actions were added.
    ///
    /// See [the example](CancellationReason#example).
    pub fn index(&self) -> usize {
        self.index
    }

    /// What the action did: put, create, update, delete or condition check.
    ///
    /// See [the example](CancellationReason#example).
    pub fn action(&self) -> ActionKind {
        self.action
    }

    /// The entity type the action addressed ([`Entity::RUST_NAME`](crate::entity::Entity::RUST_NAME)).
    ///
    /// See [the example](CancellationReason#example).
    pub fn entity(&self) -> &'static str {
        self.entity
    }

    /// The partition key value of the action's item.
    ///
    /// See [the example](CancellationReason#example).
    pub fn partition(&self) -> &str {
        &self.partition
    }

    /// The sort key value of the action's item.
    ///
    /// See [the example](CancellationReason#example).
    pub fn sort(&self) -> &str {
        &self.sort
    }

    /// DynamoDB's reason code for this action.
    ///
    /// See [the example](CancellationReason#example).
    pub fn code(&self) -> &CancellationCode {
        &self.code
    }

    /// DynamoDB's message for this action, if it gave one.
    ///
    /// See [the example](CancellationReason#example).
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// The item stored under the key when the action's condition failed
    /// (`ReturnValuesOnConditionCheckFailure = ALL_OLD`, asked for every
    /// action: it tells their failures apart), `None` when no item is
    /// stored.
    ///
    /// See [the example](CancellationReason#example).
    pub fn old_item(&self) -> Option<&Item> {
        self.old_item.as_ref()
    }

    /// For a versioned write whose condition failed because another
    /// version is stored: the version expected and the one found.
    ///
    /// See [the example](CancellationReason#example).
    pub fn stale_version(&self) -> Option<StaleVersion> {
        self.stale_version
    }

    /// This action's condition failed (`ConditionalCheckFailed`).
    ///
    /// See [the example](CancellationReason#example).
    pub fn is_condition_failed(&self) -> bool {
        self.code == CancellationCode::ConditionalCheckFailed
    }

    /// Another transaction or write was in progress on the item
    /// (`TransactionConflict`): send the transaction again.
    ///
    /// See [the example](CancellationReason#example).
    pub fn is_transaction_conflict(&self) -> bool {
        self.code == CancellationCode::TransactionConflict
    }

    /// A versioned write found another version stored (see
    /// [`stale_version`](CancellationReason::stale_version)): read again,
    /// rebuild the transaction and send it again.
    ///
    /// See [the example](CancellationReason#example).
    pub fn is_version_conflict(&self) -> bool {
        self.stale_version.is_some()
    }

    /// The action found an item of another entity type (or one written
    /// without a type attribute) at its key, and left it untouched: its
    /// type guard failed. (A create's key is simply taken:
    /// [`is_already_exists`](Self::is_already_exists).)
    ///
    /// See [the example](CancellationReason#example).
    pub fn is_wrong_type(&self) -> bool {
        self.wrong_type
    }

    /// A create found its key taken.
    ///
    /// See [the example](CancellationReason#example).
    pub fn is_already_exists(&self) -> bool {
        self.action == ActionKind::Create && self.is_condition_failed() && self.old_item.is_some()
    }

    /// An update found no item at its key.
    ///
    /// See [the example](CancellationReason#example).
    pub fn is_not_found(&self) -> bool {
        self.action == ActionKind::Update && self.is_condition_failed() && self.old_item.is_none()
    }

    /// This action failed (its code is not [`CancellationCode::None`]).
    ///
    /// See [the example](CancellationReason#example).
    pub fn is_failure(&self) -> bool {
        self.code != CancellationCode::None
    }
}

impl fmt::Debug for CancellationReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The old item's values can be personal data: only its size.
        f.debug_struct("CancellationReason")
            .field("index", &self.index)
            .field("action", &self.action)
            .field("entity", &self.entity)
            .field("partition", &self.partition)
            .field("sort", &self.sort)
            .field("code", &self.code)
            .field("message", &self.message)
            .field(
                "old_item",
                &self
                    .old_item
                    .as_ref()
                    .map(|item| format!("<{} attributes>", item.len())),
            )
            .field("stale_version", &self.stale_version)
            .field("wrong_type", &self.wrong_type)
            .finish()
    }
}

impl fmt::Display for CancellationReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "action {} ({} of {} at {} / {}): {}",
            self.index,
            self.action,
            super::a(self.entity),
            self.partition,
            self.sort,
            self.code
        )?;
        if let Some(stale) = self.stale_version {
            match stale.found {
                Some(found) => write!(
                    f,
                    " (version conflict: expected {}, found {found})",
                    stale.expected
                )?,
                None => write!(
                    f,
                    " (version conflict: expected {}, no item stored)",
                    stale.expected
                )?,
            }
        } else if self.wrong_type {
            f.write_str(" (an item of another type is stored there, left untouched)")?;
        } else if self.is_already_exists() {
            f.write_str(" (the key is taken)")?;
        } else if self.is_not_found() {
            f.write_str(" (no item to update)")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_unknown_ones_are_kept() {
        for code in [
            "None",
            "ConditionalCheckFailed",
            "TransactionConflict",
            "ItemCollectionSizeLimitExceeded",
            "ProvisionedThroughputExceeded",
            "ThrottlingError",
            "ValidationError",
            "SomethingNew",
        ] {
            assert_eq!(CancellationCode::parse(Some(code)).as_str(), code);
        }
        assert_eq!(CancellationCode::parse(None), CancellationCode::None);
        assert!(CancellationCode::TransactionConflict.is_retryable());
        assert!(!CancellationCode::ConditionalCheckFailed.is_retryable());
    }
}
