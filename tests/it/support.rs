//! What every integration test starts from.

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
