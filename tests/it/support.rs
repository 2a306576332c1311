//! What every integration test starts from.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use aws_sdk_dynamodb::config::http::HttpRequest;
use aws_sdk_dynamodb::config::interceptors::{
    BeforeDeserializationInterceptorContextMut, BeforeTransmitInterceptorContextMut,
};
use aws_sdk_dynamodb::config::retry::{RetryConfig, RetryPartition, TokenBucket};
use aws_sdk_dynamodb::config::timeout::TimeoutConfig;
use aws_sdk_dynamodb::config::{
    ConfigBag, HttpClient, Intercept, RuntimeComponents, SharedHttpClient,
};
use aws_sdk_dynamodb::error::BoxError;
use aws_smithy_runtime_api::client::http::{
    HttpConnector, HttpConnectorFuture, HttpConnectorSettings, SharedHttpConnector,
};
use aws_smithy_runtime_api::client::result::ConnectorError;
use aws_smithy_types::body::SdkBody;
use aws_smithy_types::config_bag::{Storable, StoreReplace};
use ddb_entity::Db;
use ddb_entity::local::LocalDynamo;

ddb_entity::table! {
    /// The single table of the seed lessons' e-commerce model.
    pub struct App {
        partition_key: "PK",
        sort_key: "SK",
        indexes: {
            /// Overloaded: an order by id, a product by SKU, …
            pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
            /// Sparse: only items that carry `GSI2PK`.
            pub Gsi2 = "GSI2" { partition_key: "GSI2PK", sort_key: "GSI2SK" },
        },
    }
}

/// A running server and a freshly created, uniquely named table on it. Keep
/// the `LocalDynamo` alive for the test: dropping it stops the embedded server.
pub async fn app_table() -> (LocalDynamo, Db<App>) {
    let dynamo = LocalDynamo::start().await.expect("local DynamoDB starts");
    let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("it"));
    db.create_table_if_missing()
        .send()
        .await
        .expect("table is created");
    (dynamo, db)
}

/// Every HTTP request a client sends, by DynamoDB operation, with its JSON
/// body: an SDK interceptor around the real server, so tests can count
/// round trips and read what each asked for.
#[derive(Debug, Default, Clone)]
pub struct RequestLog(std::sync::Arc<std::sync::Mutex<Vec<(String, serde_json::Value)>>>);

impl RequestLog {
    /// The operations sent so far, e.g. `["Query", "Query"]`.
    pub fn operations(&self) -> Vec<String> {
        let sent = self.0.lock().unwrap();
        sent.iter()
            .map(|(operation, _)| operation.clone())
            .collect()
    }

    /// The bodies of the `operation` requests sent so far, in order.
    pub fn bodies(&self, operation: &str) -> Vec<serde_json::Value> {
        let sent = self.0.lock().unwrap();
        sent.iter()
            .filter(|(op, _)| op == operation)
            .map(|(_, body)| body.clone())
            .collect()
    }

    /// How many requests of `operation` were sent.
    pub fn count(&self, operation: &str) -> usize {
        self.operations()
            .iter()
            .filter(|op| *op == operation)
            .count()
    }

    /// Forgets what was sent so far.
    pub fn clear(&self) {
        self.0.lock().unwrap().clear();
    }
}

impl aws_sdk_dynamodb::config::Intercept for RequestLog {
    fn name(&self) -> &'static str {
        "RequestLog"
    }

    fn read_before_transmit(
        &self,
        context: &aws_sdk_dynamodb::config::interceptors::BeforeTransmitInterceptorContextRef<'_>,
        _: &aws_sdk_dynamodb::config::RuntimeComponents,
        _: &mut aws_sdk_dynamodb::config::ConfigBag,
    ) -> Result<(), aws_sdk_dynamodb::error::BoxError> {
        let request = context.request();
        let target = request.headers().get("x-amz-target").unwrap_or_default();
        let operation = target.rsplit('.').next().unwrap_or_default().to_owned();
        let body =
            serde_json::from_slice(request.body().bytes().unwrap_or_default()).unwrap_or_default();
        self.0.lock().unwrap().push((operation, body));
        Ok(())
    }
}

/// A client of `dynamo` whose every request is logged.
pub fn logged_client(dynamo: &LocalDynamo) -> (aws_sdk_dynamodb::Client, RequestLog) {
    let log = RequestLog::default();
    let config = dynamo.config_builder().interceptor(log.clone()).build();
    (aws_sdk_dynamodb::Client::from_conf(config), log)
}

/// Like [`app_table`], with every request the returned `Db` sends logged.
pub async fn logged_app_table() -> (LocalDynamo, Db<App>, RequestLog) {
    let dynamo = LocalDynamo::start().await.expect("local DynamoDB starts");
    let (client, log) = logged_client(&dynamo);
    let db = Db::<App>::new(client, dynamo.unique_table_name("it"));
    db.create_table_if_missing()
        .send()
        .await
        .expect("table is created");
    log.clear();
    (dynamo, db, log)
}

/// The item stored at `key` exactly as DynamoDB holds it (a consistent
/// GetItem through the raw SDK), to check attributes the library writes.
pub async fn stored_item<E: ddb_entity::Entity>(
    db: &Db<App>,
    key: &ddb_entity::Key<E>,
) -> ddb_entity::Item {
    db.client()
        .get_item()
        .table_name(db.table_name())
        .set_key(Some(key.to_attributes()))
        .consistent_read(true)
        .send()
        .await
        .expect("GetItem succeeds")
        .item
        .expect("the item exists")
}

/// Stores `item` as it is (a PutItem through the raw SDK): an item another
/// program wrote.
pub async fn put_raw<T: ddb_entity::Table>(db: &Db<T>, item: ddb_entity::Item) {
    db.client()
        .put_item()
        .table_name(db.table_name())
        .set_item(Some(item))
        .send()
        .await
        .expect("PutItem succeeds");
}

/// The write operations, by their `X-Amz-Target` names.
pub const WRITES: [&str; 4] = ["PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems"];

/// A request's DynamoDB operation: one of [`WRITES`], a read the library
/// makes, or `"other"`.
pub fn operation(request: &HttpRequest) -> &'static str {
    let target = request.headers().get("x-amz-target").unwrap_or_default();
    let name = target.rsplit('.').next().unwrap_or_default();
    WRITES
        .into_iter()
        .chain([
            "GetItem",
            "BatchGetItem",
            "Query",
            "CreateTable",
            "DescribeTable",
        ])
        .find(|op| *op == name)
        .unwrap_or("other")
}

/// What a test's HTTP layer does with each request on its way to the real
/// server (dynoxide, or moto with `DDB_ENDPOINT`) and back: hold it, lose
/// it, cut or rewrite its answer. `inner` sends it for real.
pub trait Around: Send + Sync + 'static {
    fn call(&self, inner: &SharedHttpConnector, request: HttpRequest) -> HttpConnectorFuture;
}

/// The client's HTTP layer: the real one, with `L` around it.
pub struct AroundClient<L> {
    inner: SharedHttpClient,
    layer: Arc<L>,
}

impl<L> std::fmt::Debug for AroundClient<L> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AroundClient")
    }
}

impl<L: Around> HttpClient for AroundClient<L> {
    fn http_connector(
        &self,
        settings: &HttpConnectorSettings,
        components: &RuntimeComponents,
    ) -> SharedHttpConnector {
        SharedHttpConnector::new(AroundConnector {
            inner: self.inner.http_connector(settings, components),
            layer: Arc::clone(&self.layer),
        })
    }
}

struct AroundConnector<L> {
    inner: SharedHttpConnector,
    layer: Arc<L>,
}

impl<L> std::fmt::Debug for AroundConnector<L> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AroundConnector")
    }
}

impl<L: Around> HttpConnector for AroundConnector<L> {
    fn call(&self, request: HttpRequest) -> HttpConnectorFuture {
        self.layer.call(&self.inner, request)
    }
}

/// A whole response body.
pub async fn read_body(mut body: SdkBody) -> Result<Vec<u8>, ConnectorError> {
    use http_body::Body;
    let mut bytes = Vec::new();
    while let Some(frame) =
        std::future::poll_fn(|cx| std::pin::Pin::new(&mut body).poll_frame(cx)).await
    {
        let frame = frame.map_err(ConnectorError::io)?;
        if let Ok(data) = frame.into_data() {
            bytes.extend_from_slice(&data);
        }
    }
    Ok(bytes)
}

/// A delivered request's answer: its HTTP status and DynamoDB error type
/// (`""` on success); `(0, the error)` when no answer came.
pub async fn answer_of(
    sent: Result<aws_sdk_dynamodb::config::http::HttpResponse, ConnectorError>,
) -> (u16, String) {
    match sent {
        Ok(mut response) => {
            let status = response.status().as_u16();
            let body = read_body(response.take_body()).await.unwrap_or_default();
            let kind = serde_json::from_slice::<serde_json::Value>(&body)
                .ok()
                .and_then(|json| json["__type"].as_str().map(str::to_owned))
                .unwrap_or_default();
            (status, kind)
        }
        Err(err) => (0, format!("{err:?}")),
    }
}

/// A table reached through `layer` around the real server — with the SDK's
/// standard retries (3 attempts, 10–50 ms backoff, its own unlimited retry
/// quota, so every retry the mode allows happens) when `retries`, and the
/// attempt timeout `attempt_timeout(embedded)` — and through a clean
/// client: the other writer, and the truth. `layer` is made knowing
/// whether the server is the embedded one.
pub async fn table_around<L: Around>(
    prefix: &str,
    retries: bool,
    attempt_timeout: fn(bool) -> Duration,
    layer: impl FnOnce(bool) -> L,
) -> (LocalDynamo, Db<App>, Db<App>, Arc<L>) {
    let dynamo = LocalDynamo::start().await.expect("local DynamoDB starts");
    let name = dynamo.unique_table_name(prefix);
    let clean = Db::<App>::new(dynamo.client(), name.clone());
    clean
        .create_table_if_missing()
        .await
        .expect("table is created");
    let layer = Arc::new(layer(dynamo.is_embedded()));
    let client = client_around(
        &dynamo,
        Arc::clone(&layer),
        retries,
        &format!("{name}-retries"),
        Some(attempt_timeout(dynamo.is_embedded())),
    );
    let db = Db::<App>::new(client, name);
    (dynamo, db, clean, layer)
}

/// A client of `dynamo` whose requests go through `layer` — with the SDK's
/// standard retries (3 attempts, 10–50 ms backoff, an unlimited retry
/// quota of its own `partition`) when `retries`, and `attempt_timeout`.
pub fn client_around<L: Around>(
    dynamo: &LocalDynamo,
    layer: Arc<L>,
    retries: bool,
    partition: &str,
    attempt_timeout: Option<Duration>,
) -> aws_sdk_dynamodb::Client {
    let around = AroundClient {
        inner: dynamo
            .client()
            .config()
            .http_client()
            .expect("the local client has an HTTP client"),
        layer,
    };
    let retry = if retries {
        RetryConfig::standard()
            .with_max_attempts(3)
            .with_initial_backoff(Duration::from_millis(10))
            .with_max_backoff(Duration::from_millis(50))
    } else {
        RetryConfig::disabled()
    };
    let config = dynamo
        .config_builder()
        .http_client(around)
        .retry_config(retry)
        .retry_partition(
            RetryPartition::custom(partition.to_owned())
                .token_bucket(TokenBucket::unlimited())
                .build(),
        )
        .timeout_config({
            let mut timeouts = TimeoutConfig::builder();
            timeouts.set_operation_attempt_timeout(attempt_timeout);
            timeouts.build()
        })
        .build();
    aws_sdk_dynamodb::Client::from_conf(config)
}

/// Throttles one request in `every` of the operations `watched` (by their
/// `X-Amz-Target` names): the request is sent to a table that does not
/// exist, so the server applies nothing, and its answer becomes a
/// `ProvisionedThroughputExceededException` (moto's error header
/// included). Clones share their counts.
#[derive(Debug, Clone)]
pub struct Throttle {
    watched: &'static [&'static str],
    every: u64,
    seen: Arc<AtomicU64>,
    throttled: Arc<AtomicUsize>,
}

impl Throttle {
    pub fn every(every: u64, watched: &'static [&'static str]) -> Self {
        Throttle {
            watched,
            every,
            seen: Arc::default(),
            throttled: Arc::default(),
        }
    }

    /// How many requests were throttled so far.
    pub fn throttled(&self) -> usize {
        self.throttled.load(Ordering::Relaxed)
    }
}

/// Whether the request in flight is throttled, from before signing to
/// before deserialisation.
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
        let watched = self
            .watched
            .iter()
            .any(|op| target.ends_with(&format!(".{op}")));
        let throttle = watched
            && self
                .seen
                .fetch_add(1, Ordering::Relaxed)
                .is_multiple_of(self.every);
        cfg.interceptor_state().store_put(Throttled(throttle));
        if throttle {
            let bytes = request.body().bytes().ok_or("body in memory")?;
            let mut body: serde_json::Value = serde_json::from_slice(bytes)?;
            body["TableName"] = serde_json::json!("no-such-table-throttled");
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
        let body = serde_json::json!({
            "__type": "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",
            "message": "injected: the level of configured provisioned throughput for the table was exceeded",
        });
        *response.body_mut() = SdkBody::from(body.to_string());
        Ok(())
    }
}
