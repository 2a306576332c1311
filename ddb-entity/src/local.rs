//! A real DynamoDB for examples and tests, with nothing to install.
//!
//! [`LocalDynamo::start`] serves [dynoxide](https://crates.io/crates/dynoxide-rs)
//! — a DynamoDB emulator over SQLite, checked against real AWS by a public
//! conformance suite — *in this process*, on a loopback port, and hands back
//! an `aws_sdk_dynamodb::Client` that talks to it over HTTP. Every call gets
//! its own empty in-memory database, so tests are isolated and need no
//! clean-up; dropping the [`LocalDynamo`] stops its server.
//!
//! When the environment variable `DDB_ENDPOINT` is set (e.g.
//! `http://127.0.0.1:5000` for moto, or DynamoDB Local), the same call
//! connects there instead, so a whole suite can be run against another
//! implementation unchanged. Such a server is shared: use
//! [`LocalDynamo::unique_table_name`] to keep tests apart.
//!
//! Use it for your own services' tests too:
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use ddb_entity::local::LocalDynamo;
//!
//! let dynamo = LocalDynamo::start().await?;
//! let tables = dynamo.client().list_tables().send().await?;
//! assert!(tables.table_names().is_empty() || std::env::var("DDB_ENDPOINT").is_ok());
//! # Ok(())
//! # }
//! ```
//!
//! Requires the `local` feature and a Tokio runtime.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::{BehaviorVersion, Credentials, Region};
use tokio::sync::oneshot;

/// The environment variable naming an external endpoint to use instead of
/// the embedded server.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use ddb_entity::local::{ENDPOINT_ENV, LocalDynamo};
///
/// // `DDB_ENDPOINT=http://127.0.0.1:5000 cargo test` runs the same tests
/// // against the server there (moto, DynamoDB Local); unset, against
/// // the embedded one.
/// let dynamo = LocalDynamo::start().await?;
/// match std::env::var(ENDPOINT_ENV) {
///     Ok(endpoint) if !endpoint.trim().is_empty() => assert_eq!(dynamo.endpoint(), endpoint.trim()),
///     _ => assert!(dynamo.is_embedded()),
/// }
/// # Ok(())
/// # }
/// ```
pub const ENDPOINT_ENV: &str = "DDB_ENDPOINT";

/// A running local DynamoDB and a client for it. Dropping it stops the
/// embedded server (an external one, from `DDB_ENDPOINT`, is left alone).
///
/// # Example
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use ddb_entity::local::{ENDPOINT_ENV, LocalDynamo, LocalError};
///
/// // The embedded server, whatever DDB_ENDPOINT says.
/// let embedded = LocalDynamo::start_embedded().await?;
/// assert!(embedded.is_embedded() && embedded.endpoint().starts_with("http://127.0.0.1:"));
///
/// // A second handle on the same server, as `DDB_ENDPOINT` would give.
/// let shared = LocalDynamo::connect(embedded.endpoint())?;
/// assert!(!shared.is_embedded());
/// let name = shared.unique_table_name("orders");
/// assert!(name.starts_with("orders-") && name != shared.unique_table_name("orders"));
///
/// // A client of your own over the preset configuration.
/// let config = embedded.config_builder().retry_config(
///     ddb_entity::sdk::config::retry::RetryConfig::standard().with_max_attempts(1),
/// );
/// let client = ddb_entity::sdk::Client::from_conf(config.build());
/// assert!(client.list_tables().send().await?.table_names().is_empty());
/// let _same_server = embedded.client();
///
/// // What only the embedded server can do, refused elsewhere.
/// assert!(matches!(shared.sweep_expired_items().await, Err(LocalError::NotEmbedded)));
/// assert!(matches!(LocalDynamo::connect("localhost:8000"), Err(LocalError::BadEndpoint(_))));
/// assert_eq!(ENDPOINT_ENV, "DDB_ENDPOINT");
/// # Ok(())
/// # }
/// ```
pub struct LocalDynamo {
    client: Client,
    endpoint: String,
    /// Present for the embedded server: dropping it signals shutdown.
    shutdown: Option<oneshot::Sender<()>>,
    /// The embedded server's database (shared with the server), for what
    /// only the embedder can ask: a time-to-live sweep.
    database: Option<dynoxide::Database>,
}

/// Why a local DynamoDB could not be started, or could not do what only
/// the embedded server does.
///
/// ```
/// use ddb_entity::local::{LocalDynamo, LocalError};
///
/// let err = LocalDynamo::connect("localhost:8000").err().unwrap();
/// assert!(matches!(err, LocalError::BadEndpoint(_)));
/// assert!(err.to_string().contains("set it to e.g. http://127.0.0.1:8000"), "{err}");
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LocalError {
    /// The embedded database could not be opened.
    #[error("could not open the embedded DynamoDB database: {0}")]
    Database(String),
    /// No loopback port could be bound.
    #[error("could not listen on a loopback port for the embedded DynamoDB: {0}")]
    Listen(#[from] std::io::Error),
    /// `DDB_ENDPOINT` is set but is not an `http://` or `https://` URL.
    #[error(
        "{ENDPOINT_ENV}={0:?} is not a URL; set it to e.g. http://127.0.0.1:8000 or unset it to use the embedded server"
    )]
    BadEndpoint(String),
    /// Asked of a server from `DDB_ENDPOINT`, which only answers requests.
    #[error("only the embedded DynamoDB can be asked this; {ENDPOINT_ENV} names another server")]
    NotEmbedded,
    /// The embedded server's time-to-live sweep failed.
    #[error("the embedded DynamoDB's time-to-live sweep failed: {0}")]
    Sweep(String),
}

impl LocalDynamo {
    /// Connects to `DDB_ENDPOINT` when it is set, otherwise starts the
    /// embedded server with a fresh in-memory database.
    ///
    /// See [the example](LocalDynamo#example).
    pub async fn start() -> Result<Self, LocalError> {
        match std::env::var(ENDPOINT_ENV) {
            Ok(endpoint) if !endpoint.trim().is_empty() => Self::connect(endpoint.trim()),
            _ => Self::start_embedded().await,
        }
    }

    /// Starts the embedded server with a fresh in-memory database, whatever
    /// the environment says.
    ///
    /// See [the example](LocalDynamo#example).
    pub async fn start_embedded() -> Result<Self, LocalError> {
        let db = dynoxide::Database::memory().map_err(|e| LocalError::Database(e.to_string()))?;
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0)).await?;
        let endpoint = format!("http://{}", listener.local_addr()?);
        let (shutdown, stopped) = oneshot::channel::<()>();
        let served = db.clone();
        tokio::spawn(async move {
            // A dropped sender resolves `stopped` too: that is the shutdown.
            let signal = async move {
                let _ = stopped.await;
            };
            if let Err(err) = dynoxide::server::serve_with_shutdown(listener, served, signal).await
            {
                tracing::error!(%err, "embedded DynamoDB server stopped with an error");
            }
        });
        tracing::debug!(%endpoint, "embedded DynamoDB started");
        Ok(LocalDynamo {
            client: client_for(&endpoint),
            endpoint,
            shutdown: Some(shutdown),
            database: Some(db),
        })
    }

    /// Connects to a DynamoDB-compatible server at `endpoint` (no server is
    /// started; static test credentials and `us-east-1` are used).
    ///
    /// See [the example](LocalDynamo#example).
    pub fn connect(endpoint: impl Into<String>) -> Result<Self, LocalError> {
        let endpoint = endpoint.into();
        if !(endpoint.starts_with("http://") || endpoint.starts_with("https://")) {
            return Err(LocalError::BadEndpoint(endpoint));
        }
        Ok(LocalDynamo {
            client: client_for(&endpoint),
            endpoint,
            shutdown: None,
            database: None,
        })
    }

    /// A client for this server (cheap: SDK clients share their internals).
    ///
    /// See [the example](LocalDynamo#example).
    pub fn client(&self) -> Client {
        self.client.clone()
    }

    /// A config builder preset for this server (endpoint, plain-HTTP client,
    /// test credentials, region), to add interceptors, retry settings and
    /// the like before building your own client.
    ///
    /// See [the example](LocalDynamo#example).
    pub fn config_builder(&self) -> aws_sdk_dynamodb::config::Builder {
        config_builder_for(&self.endpoint)
    }

    /// A config builder for an `aws_sdk_dynamodbstreams::Client` of this
    /// server (the same endpoint, client, credentials and region as
    /// [`config_builder`](LocalDynamo::config_builder)): the Streams API is
    /// served on the same endpoint. With the `streams` feature.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let dynamo = ddb_entity::local::LocalDynamo::start().await?;
    /// let streams = aws_sdk_dynamodbstreams::Client::from_conf(dynamo.streams_config_builder().build());
    /// let listed = streams.list_streams().table_name("no-such-table").send().await?;
    /// assert!(listed.streams().is_empty());
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "streams")]
    #[cfg_attr(docsrs, doc(cfg(feature = "streams")))]
    pub fn streams_config_builder(&self) -> aws_sdk_dynamodbstreams::config::Builder {
        use aws_sdk_dynamodbstreams::config as streams;
        let http = aws_smithy_http_client::Builder::new().build_http();
        aws_sdk_dynamodbstreams::Config::builder()
            .behavior_version(streams::BehaviorVersion::latest())
            .endpoint_url(&self.endpoint)
            .region(streams::Region::new("us-east-1"))
            .credentials_provider(streams::Credentials::new(
                "local",
                "local",
                None,
                None,
                "ddb-entity-local",
            ))
            .http_client(http)
    }

    /// Runs the embedded server's time-to-live sweep now: deletes every
    /// item whose time-to-live attribute has passed, in every table with
    /// time to live enabled, as DynamoDB does in the background (within a
    /// few days of expiry) — so a test can see what an expiry does to its
    /// reads. Unlike DynamoDB's, the embedded server's stream records of
    /// these deletes carry no service identity (`userIdentity`), so a
    /// stream consumer sees them as `stream::Origin::Request` deletes,
    /// not `Origin::TimeToLive` ones; test a consumer's expiry handling with a hand-written record
    /// that carries it. Returns how many
    /// items were deleted. A server from `DDB_ENDPOINT` cannot be asked:
    /// [`LocalError::NotEmbedded`].
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let dynamo = ddb_entity::local::LocalDynamo::start_embedded().await?;
    /// assert_eq!(dynamo.sweep_expired_items().await?, 0);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn sweep_expired_items(&self) -> Result<usize, LocalError> {
        let database = self.database.clone().ok_or(LocalError::NotEmbedded)?;
        // The sweep blocks on the database; keep it off the async workers.
        tokio::task::spawn_blocking(move || database.sweep_ttl())
            .await
            .map_err(|err| LocalError::Sweep(err.to_string()))?
            .map_err(|err| LocalError::Sweep(err.to_string()))
    }

    /// The server's URL, e.g. `http://127.0.0.1:40213`.
    ///
    /// See [the example](LocalDynamo#example).
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// Whether this is the embedded server (not one from `DDB_ENDPOINT`).
    ///
    /// See [the example](LocalDynamo#example).
    pub fn is_embedded(&self) -> bool {
        self.shutdown.is_some()
    }

    /// A table name no other caller in this process (or, with overwhelming
    /// likelihood, any other process) gets: `"{prefix}-{unique}"`. Use it
    /// when tests share one server.
    ///
    /// See [the example](LocalDynamo#example).
    pub fn unique_table_name(&self, prefix: &str) -> String {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or_default();
        format!("{prefix}-{:x}-{nanos:x}-{n}", std::process::id())
    }
}

impl Drop for LocalDynamo {
    fn drop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
    }
}

impl fmt::Debug for LocalDynamo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LocalDynamo")
            .field("endpoint", &self.endpoint)
            .field("embedded", &self.is_embedded())
            .finish_non_exhaustive()
    }
}

fn client_for(endpoint: &str) -> Client {
    Client::from_conf(config_builder_for(endpoint).build())
}

fn config_builder_for(endpoint: &str) -> aws_sdk_dynamodb::config::Builder {
    // Plain HTTP on purpose: the SDK's default HTTPS client loads a CA bundle
    // at start-up and panics on a machine without one, even for http://.
    let http = aws_smithy_http_client::Builder::new().build_http();
    aws_sdk_dynamodb::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .endpoint_url(endpoint)
        .region(Region::new("us-east-1"))
        .credentials_provider(Credentials::new(
            "local",
            "local",
            None,
            None,
            "ddb-entity-local",
        ))
        .http_client(http)
}
