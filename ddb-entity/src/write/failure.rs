//! The one reading of a failed condition: did the write fail its
//! condition, and which item (if any) did DynamoDB say was stored?

use aws_sdk_dynamodb::error::SdkError;
use aws_sdk_dynamodb::operation::delete_item::DeleteItemError;
use aws_sdk_dynamodb::operation::put_item::PutItemError;
use aws_sdk_dynamodb::operation::update_item::UpdateItemError;

use crate::item::Item;

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
