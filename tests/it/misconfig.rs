//! The production client bounds every wait, and a deployment that cannot
//! work fails as `ErrorKind::Misconfigured`, never retryable, its message
//! saying what to check. Servers: the suite's (embedded or `DDB_ENDPOINT`),
//! and raw TCP listeners on 127.0.0.1 that never answer or answer as
//! something that is not DynamoDB.

use std::time::Duration;

use aws_config::{BehaviorVersion, Region};
use aws_credential_types::Credentials;
use aws_credential_types::provider::error::CredentialsError;
use aws_credential_types::provider::{ProvideCredentials, future};
use ddb_entity::client::ClientOptions;
use ddb_entity::local::LocalDynamo;
use ddb_entity::{Db, Entity, ErrorKind, Misconfiguration};
use serde::{Deserialize, Serialize};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use crate::support::App;

#[derive(Entity, Serialize, Deserialize, Debug)]
#[entity(table = App, pk = "USER#{email}", sk = "PROFILE")]
struct Profile {
    email: String,
}

/// A loader with a region and static test credentials, for `endpoint`.
fn loader(endpoint: &str) -> aws_config::ConfigLoader {
    aws_config::defaults(BehaviorVersion::latest())
        .region(Region::new("us-east-1"))
        .credentials_provider(Credentials::new("test", "test", None, None, "test"))
        .endpoint_url(endpoint)
}

/// Short timeouts, so that the dead endpoint costs the test little.
fn quick() -> ClientOptions {
    ClientOptions::default()
        .connect_timeout(Duration::from_millis(500))
        .attempt_timeout(Duration::from_millis(300))
        .operation_timeout(Duration::from_secs(2))
        .max_attempts(2)
}

/// Accepts connections and answers each request with `answer`, or, with
/// `None`, holds it open and never answers.
async fn listener(answer: Option<&'static str>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let endpoint = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((mut socket, _)) = listener.accept().await {
            match answer {
                None => held.push(socket),
                Some(answer) => {
                    tokio::spawn(async move {
                        let mut request = [0u8; 8192];
                        let _ = socket.read(&mut request).await;
                        let _ = socket.write_all(answer.as_bytes()).await;
                        let _ = socket.shutdown().await;
                    });
                }
            }
        }
    });
    endpoint
}

fn profile_key() -> ddb_entity::Key<Profile> {
    Profile::key("ada@example.com").unwrap()
}

#[tokio::test]
async fn a_dead_endpoint_times_out_retryably() {
    let endpoint = listener(None).await;
    let client = quick().load_from(loader(&endpoint)).await.unwrap();
    let db = Db::<App>::new(client, "app");
    // Reaching the assertion at all is the bound: without timeouts this get
    // waits for the connection forever.
    let err = db.get(profile_key()).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Service, "{err}");
    assert!(err.is_retryable(), "{err}");
    assert!(!err.is_misconfigured(), "{err}");
    assert!(err.to_string().contains("timeout"), "{err}");
}

#[tokio::test]
async fn a_missing_region_is_refused_when_the_client_is_built() {
    let loader = loader("http://127.0.0.1:9").region(None::<Region>);
    let err = ClientOptions::default()
        .load_from(loader)
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Misconfigured);
    assert_eq!(
        err.misconfiguration(),
        Some(Misconfiguration::MissingRegion)
    );
    assert!(!err.is_retryable());
    assert!(err.to_string().contains("set AWS_REGION"), "{err}");
}

#[tokio::test]
async fn a_client_without_a_region_fails_its_requests_as_misconfigured() {
    let dynamo = LocalDynamo::start().await.unwrap();
    let config = aws_sdk_dynamodb::Config::builder()
        .behavior_version(aws_sdk_dynamodb::config::BehaviorVersion::latest())
        .credentials_provider(Credentials::new("test", "test", None, None, "test"))
        .build();
    let db = Db::<App>::new(aws_sdk_dynamodb::Client::from_conf(config), "app");
    let _ = dynamo;
    let err = db.get(profile_key()).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Misconfigured, "{err}");
    assert_eq!(
        err.misconfiguration(),
        Some(Misconfiguration::MissingRegion),
        "{err}"
    );
    assert!(!err.is_retryable(), "{err}");
    assert!(err.to_string().contains("set AWS_REGION"), "{err}");
}

/// What aws-config's default chain answers when it finds no credentials.
#[derive(Debug)]
struct NoCredentials;

impl ProvideCredentials for NoCredentials {
    fn provide_credentials<'a>(&'a self) -> future::ProvideCredentials<'a>
    where
        Self: 'a,
    {
        future::ProvideCredentials::ready(Err(CredentialsError::not_loaded(
            "no providers in chain provided credentials",
        )))
    }
}

#[tokio::test]
async fn missing_credentials_are_misconfigured() {
    let dynamo = LocalDynamo::start().await.unwrap();
    let loader = loader(dynamo.endpoint()).credentials_provider(NoCredentials);
    let client = quick().load_from(loader).await.unwrap();
    let err = Db::<App>::new(client, "app")
        .get(profile_key())
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Misconfigured, "{err}");
    assert_eq!(
        err.misconfiguration(),
        Some(Misconfiguration::MissingCredentials)
    );
    assert!(!err.is_retryable());
    assert!(err.to_string().contains("AWS_ACCESS_KEY_ID"), "{err}");
    // Nothing was sent: not an outage's "no answer".
    assert!(!err.to_string().contains("no answer"), "{err}");
}

#[tokio::test]
async fn rejected_credentials_are_misconfigured() {
    let body = "{\"__type\":\"com.amazon.coral.service#UnrecognizedClientException\",\
                \"message\":\"The security token included in the request is invalid.\"}";
    let answer = format!(
        "HTTP/1.1 400 Bad Request\r\ncontent-type: application/x-amz-json-1.0\r\n\
         connection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let endpoint = listener(Some(answer.leak())).await;
    let client = quick().load_from(loader(&endpoint)).await.unwrap();
    let err = Db::<App>::new(client, "app")
        .get(profile_key())
        .await
        .unwrap_err();
    assert_eq!(
        err.misconfiguration(),
        Some(Misconfiguration::RejectedCredentials),
        "{err}"
    );
    assert!(!err.is_retryable());
    assert!(err.to_string().contains("check the access key"), "{err}");
}

#[tokio::test]
async fn an_endpoint_that_is_not_dynamodb_is_misconfigured() {
    let endpoint = listener(Some(
        "HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\n\r\n",
    ))
    .await;
    let client = quick().load_from(loader(&endpoint)).await.unwrap();
    let err = Db::<App>::new(client, "app")
        .get(profile_key())
        .await
        .unwrap_err();
    assert_eq!(
        err.misconfiguration(),
        Some(Misconfiguration::UnknownEndpoint),
        "{err}"
    );
    assert!(!err.is_retryable());
    assert!(err.to_string().contains("check the endpoint URL"), "{err}");
    // An answer came, only not DynamoDB's.
    assert!(!err.to_string().contains("no answer"), "{err}");
}

#[tokio::test]
async fn a_table_that_does_not_exist_is_misconfigured() {
    let dynamo = LocalDynamo::start().await.unwrap();
    let client = quick().load_from(loader(dynamo.endpoint())).await.unwrap();
    let db = Db::<App>::new(client, dynamo.unique_table_name("never_created"));
    let err = db.get(profile_key()).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Misconfigured, "{err}");
    assert_eq!(
        err.misconfiguration(),
        Some(Misconfiguration::TableNotFound)
    );
    assert!(err.is_resource_not_found() && !err.is_retryable());
    assert!(err.to_string().contains("check the table name"), "{err}");
}
