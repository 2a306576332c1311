//! A canceled transaction, reason by reason, mapped back to the actions.

use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::error::SdkError;
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use aws_sdk_dynamodb::types::CancellationReason as SdkReason;

use crate::entity::Entity;
use crate::error::{
    ActionKind, CancellationCode, CancellationReason, Error, Repr, Result, StaleVersion,
};
use crate::expr::version::Expected;
use crate::item::Item;

impl CancellationReason {
    /// The [`old_item`](CancellationReason::old_item) decoded as `E`:
    /// `None` without an old item, an [`ErrorKind::WrongType`](crate::error::ErrorKind::WrongType)
    /// error when it is not an `E`.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = App, pk = "SKU#{sku}", sk = "STOCK")]
    /// struct Stock { sku: String, available: i64 }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// db.put(&Stock { sku: "A1".into(), available: 0 }).await?;
    /// let f = Stock::fields();
    /// let err = db
    ///     .transact()
    ///     .update(db.update(Stock::key("A1")?).add(f.available, -1).condition(f.available.gt(0)))
    ///     .await
    ///     .unwrap_err();
    /// // What was stored when the condition failed: the reason's old item, typed.
    /// let stock: Stock = err.cancellation_reasons()[0].old::<Stock>().unwrap()?;
    /// assert_eq!(stock.available, 0);
    /// # Ok(())
    /// # }
    /// ```
    pub fn old<E: Entity>(&self) -> Option<Result<E>> {
        self.old_item
            .clone()
            .map(crate::entity::convert::from_item_by_key)
    }
}

/// What the error mapping needs to know of each action sent.
pub(crate) struct Sent {
    pub(crate) kind: ActionKind,
    pub(crate) entity: &'static str,
    /// Whether an old item is an entity of this type, as the table is
    /// typed (by attribute, by key, or both): one that is not is a failed
    /// type guard.
    pub(crate) check: fn(&Item) -> crate::error::Result<()>,
    pub(crate) partition: String,
    pub(crate) sort: String,
    pub(crate) version: Option<Expected>,
    /// The action's item carries the transaction's write token.
    pub(crate) tokened: bool,
}

/// The error for a failed TransactWriteItems: a typed cancellation when
/// DynamoDB canceled it, a service error otherwise.
/// `stored` holds, per action, the item stored at its key when its
/// condition failed (returned by DynamoDB, or read).
pub(crate) fn error(
    table: &str,
    sent: Vec<Sent>,
    stored: Vec<Option<Item>>,
    err: SdkError<TransactWriteItemsError, HttpResponse>,
) -> Error {
    let Some(TransactWriteItemsError::TransactionCanceledException(canceled)) =
        err.as_service_error()
    else {
        return Error::service("TransactWriteItems", table, err);
    };
    let reasons = sdk_reasons(
        canceled.cancellation_reasons.as_deref(),
        canceled.message.as_deref(),
    );
    canceled_error(
        "TransactWriteItems",
        table,
        sent,
        reasons,
        stored,
        err.into(),
    )
}

/// A canceled transaction's reasons as DynamoDB listed them, or as its
/// message repeats their codes.
pub(crate) fn sdk_reasons(listed: Option<&[SdkReason]>, message: Option<&str>) -> Vec<SdkReason> {
    match listed {
        Some(reasons) if !reasons.is_empty() => reasons.to_vec(),
        // DynamoDB always lists the reasons; the message repeats their codes.
        _ => codes_in_message(message.unwrap_or_default()),
    }
}

/// The error of a canceled transaction (`operation`, write or read): one
/// reason per action, mapped back to it.
pub(crate) fn canceled_error(
    operation: &'static str,
    table: &str,
    sent: Vec<Sent>,
    reasons: Vec<SdkReason>,
    stored: Vec<Option<Item>>,
    source: aws_sdk_dynamodb::Error,
) -> Error {
    let stored = stored.into_iter().chain(std::iter::repeat(None));
    let reasons = sent
        .into_iter()
        .zip(reasons)
        .zip(stored)
        .enumerate()
        .map(|(index, ((sent, reason), stored))| map(index, sent, reason, stored))
        .collect();
    Repr::TransactionCanceled {
        operation,
        table: table.to_owned(),
        reasons,
        source: Box::new(source),
    }
    .into()
}

fn map(index: usize, sent: Sent, reason: SdkReason, stored: Option<Item>) -> CancellationReason {
    let code = CancellationCode::parse(reason.code.as_deref());
    let old_item = reason.item.filter(|item| !item.is_empty()).or(stored);
    let failed = code == CancellationCode::ConditionalCheckFailed;
    // A missing item is "not found" for an update, before any version.
    let missing_for_update = sent.kind == ActionKind::Update && old_item.is_none();
    // The type guard of every action but a create (whose guard is "no
    // item"): an item of another type, or of none, was left untouched.
    let wrong_type = failed
        && sent.kind != ActionKind::Create
        && old_item
            .as_ref()
            .is_some_and(|item| (sent.check)(item).is_err());
    // As alone: another type's item is that, before any version.
    let stale_version = match sent.version {
        Some(expected) if failed && !missing_for_update && !wrong_type => expected
            .found_instead(old_item.as_ref())
            .map(|found| StaleVersion {
                expected: expected.version,
                found,
            }),
        _ => None,
    };
    CancellationReason {
        index,
        action: sent.kind,
        entity: sent.entity,
        partition: sent.partition,
        sort: sent.sort,
        code,
        message: reason.message.filter(|message| !message.is_empty()),
        old_item,
        stale_version,
        wrong_type,
    }
}

/// The codes of a cancellation message, `"Transaction cancelled, please
/// refer cancellation reasons for specific reasons [ConditionalCheckFailed,
/// None]"`, for a server that sends no `CancellationReasons`.
fn codes_in_message(message: &str) -> Vec<SdkReason> {
    let Some(start) = message.rfind('[') else {
        return Vec::new();
    };
    let rest = &message[start + 1..];
    let Some(end) = rest.find(']') else {
        return Vec::new();
    };
    let list = &rest[..end];
    list.split(',')
        .map(|code| SdkReason::builder().code(code.trim()).build())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_come_back_from_the_message_when_the_list_is_missing() {
        let codes: Vec<_> = codes_in_message(
            "Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed, TransactionConflict]",
        )
        .iter()
        .map(|reason| CancellationCode::parse(reason.code()))
        .collect();
        assert_eq!(
            codes,
            [
                CancellationCode::None,
                CancellationCode::ConditionalCheckFailed,
                CancellationCode::TransactionConflict
            ]
        );
        assert!(codes_in_message("Transaction cancelled").is_empty());
    }
}
