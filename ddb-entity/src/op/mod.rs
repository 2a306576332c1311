//! The operations, one file per family.

mod batch;
mod create_table;
mod cursor;
mod delete;
mod get;
mod put;
mod query;
mod size;
mod transact;
mod ttl;
mod update;
mod version;

pub use batch::{
    BatchGet, BatchGetPartial, BatchRetry, BatchWrite, UnprocessedKey, UnprocessedWrite, WriteKind,
};
pub use create_table::{CreateTable, Provisioned};
pub use cursor::Cursor;
pub use delete::{Delete, DeleteReturningOld};
pub use get::Get;
pub use put::Put;
pub use query::{Page, Query};
pub use size::{MAX_ITEM_SIZE, item_size};
pub use transact::{
    ActionKind, CancellationCode, CancellationReason, StaleVersion, TransactDelete, TransactPut,
    Transaction,
};
pub use update::Update;
#[doc(hidden)]
pub use update::{Changes, IndexChange, Lookup};

use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::AsyncSleep;

/// Sleeps with the client's own async sleep, so the library works on
/// whatever runtime the user configured the SDK with. A client without one
/// (possible only with a hand-built config on no runtime) gets a yield
/// instead of a pause: slower polling beats a panic.
pub(crate) async fn pause(client: &Client, duration: Duration) {
    match client.config().sleep_impl() {
        Some(sleep) => sleep.sleep(duration).await,
        None => std::future::ready(()).await,
    }
}
