//! The one reading of a failed write: did it fail its condition, which item
//! is stored at its key (as DynamoDB returned it, or else as a consistent
//! read finds it), and could an earlier attempt of the call have been
//! applied without the call hearing of it?

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::error::SdkError;
use aws_sdk_dynamodb::operation::delete_item::DeleteItemError;
use aws_sdk_dynamodb::operation::put_item::PutItemError;
use aws_sdk_dynamodb::operation::update_item::UpdateItemError;

use aws_sdk_dynamodb::types::ReturnConsumedCapacity;

use super::attempts::Attempts;
use crate::capacity::Spent;
use crate::db::Db;
use crate::entity::Entity;
use crate::entity::convert::check_type;
use crate::error::{Error, Repr, Result};
use crate::item::{Item, type_tag};
use crate::table::{Table, TableSchema, Typing};

/// A single-item write's error that can be a failed condition.
pub(crate) trait ConditionFailure {
    /// `Some(stored)` for a `ConditionalCheckFailedException`: the item
    /// returned with it (`ReturnValuesOnConditionCheckFailure = ALL_OLD`),
    /// `None` when none came back. `None` for any other error.
    fn stored(&self) -> Option<Option<&Item>>;
}

macro_rules! condition_failure {
    ($($error:ty),*) => {$(
        impl ConditionFailure for $error {
            fn stored(&self) -> Option<Option<&Item>> {
                match self {
                    Self::ConditionalCheckFailedException(failed) => {
                        Some(failed.item.as_ref().filter(|item| !item.is_empty()))
                    }
                    _ => None,
                }
            }
        }
    )*};
}

condition_failure!(PutItemError, UpdateItemError, DeleteItemError);

/// For a write that failed its condition, the item stored at its key as
/// DynamoDB returned it (`None`: none came back); `None` for any other
/// failure.
pub(crate) fn condition_failure<E: ConditionFailure, R>(
    err: &SdkError<E, R>,
) -> Option<Option<&Item>> {
    err.as_service_error().and_then(ConditionFailure::stored)
}

/// Whether a failed request may have been applied: no answer was read (a
/// cut connection, a timeout, a body that could not be read) or the server
/// failed (5xx) — as opposed to an answer that says it was not (a throttle,
/// a refused request, a failed condition).
pub(crate) fn is_ambiguous<E>(err: &SdkError<E, HttpResponse>) -> bool {
    match err {
        SdkError::TimeoutError(_) | SdkError::ResponseError(_) => true,
        SdkError::DispatchFailure(failure) => !failure.is_user(),
        SdkError::ServiceError(service) => service.raw().status().is_server_error(),
        _ => false,
    }
}

/// The item stored at `key`, by a strongly consistent GetItem: what decides
/// a failed write when DynamoDB did not return the old item (some
/// implementations ignore `ReturnValuesOnConditionCheckFailure`) or when no
/// answer came back at all. Never a guess from an absent item.
pub(crate) async fn read_stored(
    client: &Client,
    table: &str,
    key: Item,
    spent: &mut Spent,
) -> Result<Option<Item>> {
    let output = client
        .get_item()
        .table_name(table)
        .set_key(Some(key))
        .consistent_read(true)
        .return_consumed_capacity(ReturnConsumedCapacity::Total)
        .send()
        .await;
    match output {
        Ok(output) => {
            spent.read(output.consumed_capacity());
            Ok(output.item.filter(|item| !item.is_empty()))
        }
        Err(err) => {
            spent.failed();
            Err(Error::service("GetItem", table, err))
        }
    }
}

/// The item a failed condition was evaluated against: the one returned with
/// the failure; else none — on a server seen returning stored items with
/// failed conditions, for a call none of whose attempts may have been
/// applied unheard (one request: a not-found update costs its UpdateItem
/// alone); else a consistent read of the key. After an ambiguous attempt
/// the read is what recognises the call's own earlier write, and no server
/// is trusted with that (moto, under concurrent requests, at times fails a
/// condition on a stored item without returning it).
pub(crate) async fn stored_after_failure<T: Table>(
    db: &Db<T>,
    key: Item,
    returned: Option<&Item>,
    attempts: &Attempts,
    spent: &mut Spent,
) -> Result<Option<Item>> {
    match returned {
        Some(item) => {
            db.saw_old_item();
            Ok(Some(item.clone()))
        }
        None if db.returns_old_items() && !attempts.ambiguous() => Ok(None),
        None => read_stored(db.client(), db.table_name(), key, spent).await,
    }
}

/// The error for a write of `E` that found an item of another type at
/// its key (or one without a type attribute, on a table typed by
/// attribute) and, its condition failing, left it untouched. `None` when
/// `stored` is absent or an `E` (the one check typed reads make).
pub(crate) fn foreign<E: Entity>(
    schema: &TableSchema,
    operation: &'static str,
    (partition, sort): (&str, &str),
    stored: Option<&Item>,
) -> Option<Error> {
    let stored = stored?;
    if check_type::<E>(stored).is_ok() {
        return None;
    }
    let found = type_tag(stored, schema).filter(|_| schema.typing != Typing::Key);
    Some(
        Repr::ForeignItem {
            operation,
            entity: E::RUST_NAME,
            expected: E::TYPE_TAG,
            found: found.map(str::to_owned),
            partition: partition.to_owned(),
            sort: sort.to_owned(),
        }
        .into(),
    )
}

/// The error for a write of `entity` at `(partition, sort)` whose own
/// condition (the caller's) failed: `source` is the service's answer.
pub(crate) fn condition_failed(
    operation: &'static str,
    entity: &'static str,
    (partition, sort): (&str, &str),
    source: Error,
) -> Error {
    Repr::ConditionFailed {
        operation,
        entity,
        partition: partition.to_owned(),
        sort: sort.to_owned(),
        source,
    }
    .into()
}

/// The entity an applied write returned (the item it left, replaced or
/// deleted): one that does not decode is reported as applied
/// ([`DecodeAfterWrite`](crate::error::ErrorKind::DecodeAfterWrite)), so
/// nobody sends the write again as a new call — and nobody is told to
/// rewrite an item that may be gone.
pub(crate) fn decode_applied<E: Entity>(
    operation: &'static str,
    (partition, sort): (&str, &str),
    item: Item,
) -> Result<E> {
    crate::entity::convert::from_item_by_key(item).map_err(|source| {
        Repr::DecodeAfterWrite {
            operation,
            entity: E::RUST_NAME,
            partition: partition.to_owned(),
            sort: sort.to_owned(),
            source,
        }
        .into()
    })
}
