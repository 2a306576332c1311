//! The item codec against serde_dynamo: for random values of types using
//! serde's attributes, and for random items and attribute values decoded
//! into many targets, ours and serde_dynamo's give the same result — both
//! `Ok` with equal values (equal items when encoding), or both `Err`. The
//! owned and the borrowed decoders are both checked. Items in DynamoDB's
//! JSON wire format decode as the SDK's items do (`wire`).
//!
//! No DynamoDB involved: the moto cross-check skips this module.

mod model;
mod random_items;
mod typed;
mod wire;

use std::fmt::Debug;

use proptest::prelude::*;

/// Both `Ok` with the same value (compared by `Debug`, which keeps NaNs
/// comparable and is deterministic for the BTreeMaps the models use), or
/// both `Err`.
fn same<T: Debug, E1: Debug, E2: Debug>(
    what: &str,
    ours: &Result<T, E1>,
    theirs: &Result<T, E2>,
) -> Result<(), TestCaseError> {
    match (ours, theirs) {
        (Ok(a), Ok(b)) => {
            prop_assert_eq!(format!("{a:?}"), format!("{b:?}"), "{}", what);
        }
        (Err(_), Err(_)) => {}
        (a, b) => prop_assert!(
            false,
            "{what}: ours {a:?}, serde_dynamo {b:?} (not the same result shape)"
        ),
    }
    Ok(())
}
