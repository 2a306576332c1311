//! The production SDK client, built from the environment (feature `client`).
//!
//! [`ClientOptions::load`] reads region and credentials through aws-config's
//! default chains (environment, profile files, web identity, ECS, EC2
//! instance metadata), speaks HTTPS with rustls and *ring* (no cmake or C
//! toolchain), and bounds every wait:
//!
//! | setting | default | what it bounds |
//! | --- | --- | --- |
//! | [`connect_timeout`](ClientOptions::connect_timeout) | 3 s | opening a TCP + TLS connection |
//! | [`attempt_timeout`](ClientOptions::attempt_timeout) | 10 s | one attempt: sending the request and reading its whole answer |
//! | [`operation_timeout`](ClientOptions::operation_timeout) | 30 s | a whole operation, every retry and back-off included |
//! | [`max_attempts`](ClientOptions::max_attempts) | 3 | attempts per request (the SDK's standard retry mode: throttling, 5xx, connection errors, with exponential back-off and jitter) |
//! | [`adaptive_retries`](ClientOptions::adaptive_retries) | off | the SDK's adaptive mode: a client-side rate limiter that slows down under throttling |
//! | [`stalled_stream_grace`](ClientOptions::stalled_stream_grace) | 5 s | stalled-stream protection: an answer whose bytes stop flowing for this long fails the attempt |
//!
//! A library operation that pages or retries on its own (a query over
//! pages, a batch) sends several requests, each bounded by these.
//!
//! A deployment that cannot work fails loudly instead of retrying: a
//! missing region is refused by [`load`](ClientOptions::load) itself, and
//! missing or rejected credentials, an endpoint that is not DynamoDB and a
//! table that does not exist come back from a request as
//! [`ErrorKind::Misconfigured`](crate::ErrorKind::Misconfigured), never
//! [`is_retryable`](crate::Error::is_retryable), its message saying what to
//! check ([`Error::misconfiguration`](crate::Error::misconfiguration)).
//!
//! ```no_run
//! # async fn run() -> Result<(), ddb_entity::Error> {
//! use std::time::Duration;
//! ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
//!
//! let client = ddb_entity::client::ClientOptions::default()
//!     .attempt_timeout(Duration::from_secs(2))
//!     .load()
//!     .await?; // a missing region: ErrorKind::Misconfigured, here
//! let db = ddb_entity::Db::<App>::new(client, "app-prod");
//! # Ok(())
//! # }
//! ```

use std::time::Duration;

use aws_config::retry::RetryConfig;
use aws_config::stalled_stream_protection::StalledStreamProtectionConfig;
use aws_config::timeout::TimeoutConfig;
use aws_config::{BehaviorVersion, ConfigLoader};
use aws_sdk_dynamodb::Client;
use aws_smithy_http_client::tls;

use crate::error::{Error, Misconfiguration, Repr};

/// How the production client times out and retries; the defaults are in
/// the [module's table](self).
///
/// ```
/// use std::time::Duration;
/// use ddb_entity::client::ClientOptions;
///
/// let options = ClientOptions::default();
/// assert_eq!(options.get_attempt_timeout(), Duration::from_secs(10));
/// let options = options.max_attempts(5).operation_timeout(Duration::from_secs(60));
/// assert_eq!(options.get_max_attempts(), 5);
/// ```
#[derive(Debug, Clone)]
pub struct ClientOptions {
    connect_timeout: Duration,
    attempt_timeout: Duration,
    operation_timeout: Duration,
    max_attempts: u32,
    adaptive: bool,
    stalled_stream_grace: Duration,
}

impl Default for ClientOptions {
    fn default() -> Self {
        ClientOptions {
            connect_timeout: Duration::from_secs(3),
            attempt_timeout: Duration::from_secs(10),
            operation_timeout: Duration::from_secs(30),
            max_attempts: 3,
            adaptive: false,
            stalled_stream_grace: Duration::from_secs(5),
        }
    }
}

impl ClientOptions {
    /// The longest wait for a connection (TCP and TLS) to open.
    ///
    /// ```
    /// # use std::time::Duration;
    /// let options = ddb_entity::client::ClientOptions::default().connect_timeout(Duration::from_secs(1));
    /// assert_eq!(options.get_connect_timeout(), Duration::from_secs(1));
    /// ```
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// The longest one attempt may take, its whole answer read.
    ///
    /// ```
    /// # use std::time::Duration;
    /// let options = ddb_entity::client::ClientOptions::default().attempt_timeout(Duration::from_secs(2));
    /// assert_eq!(options.get_attempt_timeout(), Duration::from_secs(2));
    /// ```
    pub fn attempt_timeout(mut self, timeout: Duration) -> Self {
        self.attempt_timeout = timeout;
        self
    }

    /// The longest one request may take with all its retries.
    ///
    /// ```
    /// # use std::time::Duration;
    /// let options = ddb_entity::client::ClientOptions::default().operation_timeout(Duration::from_secs(5));
    /// assert_eq!(options.get_operation_timeout(), Duration::from_secs(5));
    /// ```
    pub fn operation_timeout(mut self, timeout: Duration) -> Self {
        self.operation_timeout = timeout;
        self
    }

    /// Attempts per request, the first included (at least 1).
    ///
    /// ```
    /// let options = ddb_entity::client::ClientOptions::default().max_attempts(0);
    /// assert_eq!(options.get_max_attempts(), 1);
    /// ```
    pub fn max_attempts(mut self, attempts: u32) -> Self {
        self.max_attempts = attempts.max(1);
        self
    }

    /// The SDK's adaptive retry mode (a client-side rate limiter under
    /// throttling) instead of the standard one.
    ///
    /// ```
    /// let options = ddb_entity::client::ClientOptions::default().adaptive_retries(true);
    /// # let _ = options;
    /// ```
    pub fn adaptive_retries(mut self, adaptive: bool) -> Self {
        self.adaptive = adaptive;
        self
    }

    /// How long an answer's bytes may stop flowing before the attempt fails
    /// (stalled-stream protection).
    ///
    /// ```
    /// # use std::time::Duration;
    /// let options = ddb_entity::client::ClientOptions::default().stalled_stream_grace(Duration::from_secs(2));
    /// # let _ = options;
    /// ```
    pub fn stalled_stream_grace(mut self, grace: Duration) -> Self {
        self.stalled_stream_grace = grace;
        self
    }

    /// The connect timeout set.
    ///
    /// ```
    /// # use std::time::Duration;
    /// assert_eq!(ddb_entity::client::ClientOptions::default().get_connect_timeout(), Duration::from_secs(3));
    /// ```
    pub fn get_connect_timeout(&self) -> Duration {
        self.connect_timeout
    }

    /// The attempt timeout set.
    ///
    /// ```
    /// # use std::time::Duration;
    /// assert_eq!(ddb_entity::client::ClientOptions::default().get_attempt_timeout(), Duration::from_secs(10));
    /// ```
    pub fn get_attempt_timeout(&self) -> Duration {
        self.attempt_timeout
    }

    /// The operation timeout set.
    ///
    /// ```
    /// # use std::time::Duration;
    /// assert_eq!(ddb_entity::client::ClientOptions::default().get_operation_timeout(), Duration::from_secs(30));
    /// ```
    pub fn get_operation_timeout(&self) -> Duration {
        self.operation_timeout
    }

    /// The attempts per request set.
    ///
    /// ```
    /// assert_eq!(ddb_entity::client::ClientOptions::default().get_max_attempts(), 3);
    /// ```
    pub fn get_max_attempts(&self) -> u32 {
        self.max_attempts
    }

    /// Builds the client from aws-config's default chains (region,
    /// credentials, `AWS_ENDPOINT_URL`…) with these timeouts and retries.
    ///
    /// Refused with [`Misconfiguration::MissingRegion`] when no region is
    /// configured: set `AWS_REGION`, or `region` in the profile.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), ddb_entity::Error> {
    /// let client = ddb_entity::client::ClientOptions::default().load().await?;
    /// # let _ = client;
    /// # Ok(())
    /// # }
    /// ```
    pub async fn load(self) -> Result<Client, Error> {
        self.load_from(aws_config::defaults(BehaviorVersion::latest()))
            .await
    }

    /// As [`load`](Self::load), from a loader of yours (a named profile, a
    /// fixed region, an endpoint, other credentials); these options'
    /// timeouts, retries and HTTPS client replace the loader's.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), ddb_entity::Error> {
    /// use aws_config::BehaviorVersion;
    /// let loader = aws_config::defaults(BehaviorVersion::latest()).profile_name("prod");
    /// let client = ddb_entity::client::ClientOptions::default().load_from(loader).await?;
    /// # let _ = client;
    /// # Ok(())
    /// # }
    /// ```
    pub async fn load_from(self, loader: ConfigLoader) -> Result<Client, Error> {
        let https = aws_smithy_http_client::Builder::new()
            .tls_provider(tls::Provider::Rustls(
                tls::rustls_provider::CryptoMode::Ring,
            ))
            .build_https();
        let retry = if self.adaptive {
            RetryConfig::adaptive()
        } else {
            RetryConfig::standard()
        }
        .with_max_attempts(self.max_attempts);
        let config = loader
            .http_client(https)
            .timeout_config(
                TimeoutConfig::builder()
                    .connect_timeout(self.connect_timeout)
                    .operation_attempt_timeout(self.attempt_timeout)
                    .operation_timeout(self.operation_timeout)
                    .build(),
            )
            .retry_config(retry)
            .stalled_stream_protection(
                StalledStreamProtectionConfig::enabled()
                    .grace_period(self.stalled_stream_grace)
                    .build(),
            )
            .load()
            .await;
        if config.region().is_none() {
            return Err(Repr::Misconfigured {
                operation: "building the client",
                what: Misconfiguration::MissingRegion,
                detail: "no region in the environment or the profile".to_owned(),
            }
            .into());
        }
        Ok(Client::new(&config))
    }
}
