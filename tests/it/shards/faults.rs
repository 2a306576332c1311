//! A shard failing mid-read fails the whole read, naming the shard: never
//! the other shards' items alone. The fault is injected at the SDK layer
//! around the real server: the request reaches it, and the answer the
//! client hears for one shard's partition becomes an error.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use aws_sdk_dynamodb::config::interceptors::{
    BeforeDeserializationInterceptorContextMut, BeforeTransmitInterceptorContextRef,
};
use aws_sdk_dynamodb::config::retry::RetryConfig;
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::error::BoxError;
use aws_smithy_types::body::SdkBody;
use aws_smithy_types::config_bag::{Storable, StoreReplace};
use futures_util::StreamExt;
use serde_json::json;

use ddb_entity::op::Page;

use super::*;

/// Fails the Query requests to one partition after `spare` of them have
/// been answered, with the error `code` (HTTP `status`).
#[derive(Debug, Clone)]
struct FailShard(Arc<Plan>);

#[derive(Debug)]
struct Plan {
    partition: String,
    spare: usize,
    code: &'static str,
    status: u16,
    seen: AtomicUsize,
    failed: AtomicUsize,
    /// Partitions of the requests that were answered, in order.
    answered: Mutex<Vec<String>>,
}

#[derive(Debug, Clone)]
struct Doomed(bool, String);

impl Storable for Doomed {
    type Storer = StoreReplace<Doomed>;
}

impl Intercept for FailShard {
    fn name(&self) -> &'static str {
        "FailShard"
    }

    fn read_before_transmit(
        &self,
        context: &BeforeTransmitInterceptorContextRef<'_>,
        _: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let request = context.request();
        let target = request.headers().get("x-amz-target").unwrap_or_default();
        let body: serde_json::Value =
            serde_json::from_slice(request.body().bytes().unwrap_or_default()).unwrap_or_default();
        let partition = partition_of(&body);
        let doomed = target.ends_with(".Query")
            && partition == self.0.partition
            && self.0.seen.fetch_add(1, Ordering::SeqCst) >= self.0.spare;
        cfg.interceptor_state().store_put(Doomed(doomed, partition));
        Ok(())
    }

    fn modify_before_deserialization(
        &self,
        context: &mut BeforeDeserializationInterceptorContextMut<'_>,
        _: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let Some(Doomed(doomed, partition)) = cfg.load::<Doomed>().cloned() else {
            return Ok(());
        };
        if !doomed {
            self.0.answered.lock().unwrap().push(partition);
            return Ok(());
        }
        self.0.failed.fetch_add(1, Ordering::SeqCst);
        let response = context.response_mut();
        *response.status_mut() = self.0.status.try_into()?;
        let headers = response.headers_mut();
        headers.remove("content-length");
        headers.remove("x-amz-crc32");
        headers.insert("content-type", "application/x-amz-json-1.0");
        let body = json!({
            "__type": format!("com.amazonaws.dynamodb.v20120810#{}", self.0.code),
            "message": "injected for one shard",
        });
        *response.body_mut() = SdkBody::from(body.to_string());
        Ok(())
    }
}

/// A table with 16 shards of open orders, read through a client whose
/// requests to shard `shard` fail after `spare` answers (SDK retries off).
async fn failing(
    shard: u16,
    spare: usize,
    code: &'static str,
    status: u16,
) -> (LocalDynamo, Db<App>, FailShard, Vec<StatusOrder>) {
    let dynamo = LocalDynamo::start().await.expect("local DynamoDB starts");
    let name = dynamo.unique_table_name("shard-faults");
    let clean = Db::<App>::new(dynamo.client(), name.clone());
    clean.create_table_if_missing().await.unwrap();
    let orders = skewed_orders([4; 16], Status::Open);
    put_all(&clean, &orders).await;
    let partition = StatusOrder::gsi1_partition(Status::Open)
        .unwrap()
        .shard(shard)
        .unwrap()
        .into_string();
    let fault = FailShard(Arc::new(Plan {
        partition,
        spare,
        code,
        status,
        seen: AtomicUsize::new(0),
        failed: AtomicUsize::new(0),
        answered: Mutex::default(),
    }));
    let config = dynamo
        .config_builder()
        .interceptor(fault.clone())
        .retry_config(RetryConfig::disabled())
        .build();
    let faulty = Db::<App>::new(aws_sdk_dynamodb::Client::from_conf(config), name);
    (dynamo, faulty, fault, index_order(&orders))
}

#[tokio::test]
async fn a_shard_failing_mid_read_fails_the_read_and_names_the_shard() {
    // Shard 5 answers its first request, then fails: the read is past its
    // first round when it fails.
    let (_dynamo, db, fault, _) = failing(5, 1, "InternalServerError", 500).await;
    let err = db
        .query(StatusOrder::gsi1_partition(Status::Open).unwrap())
        .page_size(1)
        .all::<StatusOrder>()
        .await
        .unwrap_err();
    assert_eq!(fault.0.failed.load(Ordering::SeqCst), 1);
    assert_eq!(err.shard(), Some((5, 16)), "{err}");
    assert!(err.is_retryable(), "{err}");
    assert_eq!(err.code(), Some("InternalServerError"));
    let message = err.to_string();
    assert!(message.contains("shard 5 of 16"), "{message}");
    assert!(message.contains("STATUS#Open#05/16"), "{message}");
    assert!(message.contains("returned nothing"), "{message}");
    // Other shards were answered: the failure is mid-read, not up front.
    assert!(fault.0.answered.lock().unwrap().len() > 1);
}

#[tokio::test]
async fn a_page_stream_fails_at_the_page_whose_shard_fails() {
    // Shard 11 answers once; the stream's pages up to the failure are
    // whole pages of the merged order, then the error, then nothing.
    let (_dynamo, db, _fault, sorted) =
        failing(11, 1, "ProvisionedThroughputExceededException", 400).await;
    let mut pages = Box::pin(
        db.query(StatusOrder::gsi1_partition(Status::Open).unwrap())
            .page_size(3)
            .pages::<Vec<StatusOrder>>(),
    );
    let mut read = Vec::new();
    let err = loop {
        match pages.next().await {
            Some(Ok(Page { items, .. })) => read.extend(items),
            Some(Err(err)) => break err,
            None => panic!("the stream ended without the shard's failure"),
        }
    };
    assert_eq!(err.shard(), Some((11, 16)), "{err}");
    assert!(err.is_throttled() && err.is_retryable(), "{err}");
    // What came before the failure is a prefix of the merged order.
    assert_eq!(read, sorted[..read.len()]);
    assert!(read.len() < sorted.len());
}

#[tokio::test]
async fn a_shard_failing_on_its_first_request_fails_a_limited_read_too() {
    let (_dynamo, db, _fault, _) = failing(0, 0, "ValidationException", 400).await;
    let err = db
        .query(StatusOrder::gsi1_partition(Status::Open).unwrap())
        .limit(1)
        .all::<StatusOrder>()
        .await
        .unwrap_err();
    assert_eq!(err.shard(), Some((0, 16)));
    assert!(err.is_validation() && !err.is_retryable(), "{err}");
}
