//! The operations, one file per family.

mod create_table;

pub use create_table::{CreateTable, Provisioned};

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
