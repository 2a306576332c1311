//! A backfill through throttling: a share of its Scan, UpdateItem and
//! GetItem requests never reach the table and come back as
//! `ProvisionedThroughputExceededException`, injected in the SDK like
//! `faults.rs` does for batches.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use aws_sdk_dynamodb::config::interceptors::{
    BeforeDeserializationInterceptorContextMut, BeforeTransmitInterceptorContextMut,
};
use aws_sdk_dynamodb::config::retry::RetryConfig;
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::error::BoxError;
use aws_smithy_types::body::SdkBody;
use aws_smithy_types::config_bag::{Storable, StoreReplace};
use ddb_entity::local::LocalDynamo;
use ddb_entity::op::BatchRetry;
use ddb_entity::{Db, Entity};
use serde_json::{Value, json};

use super::backfill::{After, ByCity, User, deployed, raw_items};

/// Throttles one request in `every` of the operations it watches.
#[derive(Debug, Clone)]
struct Throttle {
    every: u64,
    seen: Arc<AtomicU64>,
    throttled: Arc<AtomicUsize>,
}

#[derive(Debug, Clone)]
struct Throttled(bool);

impl Storable for Throttled {
    type Storer = StoreReplace<Self>;
}

impl Intercept for Throttle {
    fn name(&self) -> &'static str {
        "Throttle"
    }

    fn modify_before_signing(
        &self,
        context: &mut BeforeTransmitInterceptorContextMut<'_>,
        _: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let request = context.request_mut();
        let target = request.headers().get("x-amz-target").unwrap_or_default();
        let watched = ["Scan", "UpdateItem", "GetItem"]
            .iter()
            .any(|op| target.ends_with(&format!(".{op}")));
        let throttle = watched
            && self
                .seen
                .fetch_add(1, Ordering::Relaxed)
                .is_multiple_of(self.every);
        cfg.interceptor_state().store_put(Throttled(throttle));
        if throttle {
            // Sent to a table that does not exist: the server applies
            // nothing, and the client hears a throttle.
            let bytes = request.body().bytes().ok_or("body in memory")?;
            let mut body: Value = serde_json::from_slice(bytes)?;
            body["TableName"] = json!("no-such-table-throttled");
            let bytes = serde_json::to_vec(&body)?;
            request
                .headers_mut()
                .insert("content-length", bytes.len().to_string());
            *request.body_mut() = SdkBody::from(bytes);
            self.throttled.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    }

    fn modify_before_deserialization(
        &self,
        context: &mut BeforeDeserializationInterceptorContextMut<'_>,
        _: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        if !cfg.load::<Throttled>().is_some_and(|t| t.0) {
            return Ok(());
        }
        let response = context.response_mut();
        *response.status_mut() = 400.try_into()?;
        let headers = response.headers_mut();
        headers.remove("content-length");
        headers.remove("x-amz-crc32");
        headers.insert("content-type", "application/x-amz-json-1.0");
        // moto names the error in this header too, which the SDK reads first.
        headers.remove("x-amzn-errortype");
        let body = json!({
            "__type": "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",
            "message": "injected: the level of configured provisioned throughput for the table was exceeded",
        });
        *response.body_mut() = SdkBody::from(body.to_string());
        Ok(())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backfill_through_throttling_backs_off_and_finishes() {
    const USERS: u32 = 800;
    let dynamo = LocalDynamo::start().await.expect("local DynamoDB starts");
    let (_old, clean) = deployed(&dynamo, USERS).await;
    clean.add_index::<ByCity>().await.unwrap();
    let throttle = Throttle {
        every: 4,
        seen: Arc::default(),
        throttled: Arc::default(),
    };
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
    let throttled = throttle.throttled.load(Ordering::Relaxed);
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
