//! Failures that no retry can fix: the deployment is misconfigured.
//!
//! Told apart from outages by what the SDK reports (an endpoint it cannot
//! resolve for want of a region, a credentials provider that found none)
//! and by what DynamoDB answers (credentials refused, a table that does not
//! exist, an HTTP 404 from something that is not DynamoDB).

use std::fmt;

use aws_credential_types::provider::error::CredentialsError;
use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};

/// What a misconfigured deployment lacks, from
/// [`Error::misconfiguration`](crate::Error::misconfiguration); its
/// `Display` says what to check.
///
/// ```
/// use ddb_entity::Misconfiguration;
///
/// let text = Misconfiguration::MissingRegion.to_string();
/// assert!(text.contains("AWS_REGION"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Misconfiguration {
    /// No region is configured, so no endpoint can be chosen.
    MissingRegion,
    /// No credentials were found (or none could be loaded).
    MissingCredentials,
    /// DynamoDB refused the credentials or their permissions: unknown,
    /// expired or badly signed keys, or an IAM policy that denies the call.
    RejectedCredentials,
    /// The endpoint answered, but not as DynamoDB does (HTTP 404, no
    /// DynamoDB error code): a wrong `endpoint_url` or proxy.
    UnknownEndpoint,
    /// The table (or an index) does not exist in this account and region.
    TableNotFound,
}

impl fmt::Display for Misconfiguration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Misconfiguration::MissingRegion => {
                "no AWS region is configured: set AWS_REGION (or `region` in the AWS profile in use)"
            }
            Misconfiguration::MissingCredentials => {
                "no AWS credentials were found: set AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, AWS_PROFILE, or run with an IAM role"
            }
            Misconfiguration::RejectedCredentials => {
                "DynamoDB refused the credentials or their permissions: check the access key, that the session token has not expired, and the IAM policy of the principal in use"
            }
            Misconfiguration::UnknownEndpoint => {
                "the endpoint is not DynamoDB (HTTP 404 without a DynamoDB error): check the endpoint URL (AWS_ENDPOINT_URL, endpoint_url) and any proxy"
            }
            Misconfiguration::TableNotFound => {
                "the table does not exist here: check the table name, the region and the account (or create it)"
            }
        })
    }
}

/// DynamoDB's codes for credentials it refuses.
const REJECTED: [&str; 7] = [
    "UnrecognizedClientException",
    "InvalidSignatureException",
    "IncompleteSignature",
    "MissingAuthenticationToken",
    "ExpiredTokenException",
    "InvalidClientTokenId",
    "AccessDeniedException",
];

/// Which misconfiguration DynamoDB's (or the endpoint's) answer shows.
pub(crate) fn from_answer<E: ProvideErrorMetadata>(
    err: &SdkError<E, HttpResponse>,
) -> Option<Misconfiguration> {
    match err {
        SdkError::ServiceError(service) => {
            let code = service.err().code();
            if code == Some("ResourceNotFoundException") {
                Some(Misconfiguration::TableNotFound)
            } else if code.is_some_and(|code| REJECTED.contains(&code)) {
                Some(Misconfiguration::RejectedCredentials)
            } else if service.raw().status().as_u16() == 404 {
                Some(Misconfiguration::UnknownEndpoint)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// A request that could not be built or sent: the credentials provider's
/// own error, or the endpoint resolver's and the auth scheme selector's
/// (private types, known by what they say).
pub(crate) fn from_causes(err: &(dyn std::error::Error + 'static)) -> Option<Misconfiguration> {
    let mut cause = Some(err);
    while let Some(err) = cause {
        if let Some(credentials) = err.downcast_ref::<CredentialsError>() {
            return match credentials {
                CredentialsError::CredentialsNotLoaded(_)
                | CredentialsError::InvalidConfiguration(_) => {
                    Some(Misconfiguration::MissingCredentials)
                }
                _ => None,
            };
        }
        let text = err.to_string();
        if text.contains("Missing Region") || text.contains("region must be set") {
            return Some(Misconfiguration::MissingRegion);
        }
        if text.contains("no identity resolver") {
            return Some(Misconfiguration::MissingCredentials);
        }
        cause = err.source();
    }
    None
}
