//! A backfill through throttling: a share of its Scan, UpdateItem and
//! GetItem requests never reach the table and come back as
//! `ProvisionedThroughputExceededException`, injected in the SDK by
//! `support::Throttle`.

use aws_sdk_dynamodb::config::retry::RetryConfig;
use ddb_entity::local::LocalDynamo;
use ddb_entity::op::BatchRetry;
use ddb_entity::{Db, Entity};

use super::backfill::{After, ByCity, User, deployed, raw_items};
use crate::support::Throttle;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backfill_through_throttling_backs_off_and_finishes() {
    const USERS: u32 = 800;
    let dynamo = LocalDynamo::start().await.expect("local DynamoDB starts");
    let (_old, clean) = deployed(&dynamo, USERS).await;
    clean.add_index::<ByCity>().await.unwrap();
    let throttle = Throttle::every(4, &["Scan", "UpdateItem", "GetItem"]);
    // The SDK's own retries off: the backfill's backoff is under test.
    let config = dynamo
        .config_builder()
        .interceptor(throttle.clone())
        .retry_config(RetryConfig::disabled())
        .build();
    let db = Db::<After>::new(
        aws_sdk_dynamodb::Client::from_conf(config),
        clean.table_name(),
    );
    let retry = BatchRetry::new()
        .max_attempts(12)
        .base_delay(std::time::Duration::from_millis(1))
        .max_delay(std::time::Duration::from_millis(20));
    let totals = db
        .backfill::<User>()
        .segments(4)
        .page_size(100)
        .retry(retry)
        .await
        .unwrap();
    let throttled = throttle.throttled();
    assert!(throttled > 100, "{throttled} throttles injected");
    assert_eq!(totals.updated, u64::from(USERS));
    assert!(
        totals.retries >= throttled as u64,
        "{} retries for {throttled} throttles",
        totals.retries
    );
    let items = raw_items(clean.client(), clean.table_name()).await;
    assert!(items.values().all(|item| item.contains_key("GSI1PK")));
    for item in items.values() {
        User::from_item(item.clone()).unwrap();
    }
    eprintln!(
        "figures: backfill of {USERS} users with 1 request in 4 throttled: {throttled} throttles, {} retries, {} updated",
        totals.retries, totals.updated
    );

    // With no retries, the first throttle ends the backfill with an error
    // that says so.
    let err = db
        .backfill::<User>()
        .retry(BatchRetry::no_retries())
        .await
        .unwrap_err();
    assert!(err.is_throttled(), "{err}");
}
