//! What the SDK did with one call: whether an attempt ended without a definite answer — after which
//! the server may have applied it, so the next attempt may be a replay.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use aws_sdk_dynamodb::config::interceptors::FinalizerInterceptorContextRef;
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::error::BoxError;

/// An interceptor added to one operation (`.customize().interceptor(…)`):
/// it watches every attempt the SDK's retry loop makes for that call, and
/// remembers whether one of them may have been applied unheard.
#[derive(Debug, Clone, Default)]
pub(crate) struct Attempts(Arc<State>);

#[derive(Debug, Default)]
struct State {
    /// An attempt ended with no answer (a cut connection, a timeout, a body
    /// that could not be read) or a server error: it may have been applied.
    ambiguous: AtomicBool,
}

impl Attempts {
    /// Whether an attempt of this call may have been applied without the
    /// call hearing of it. Only then can a failed condition be the call's
    /// own earlier attempt, and only then is "no item" after a conditional
    /// delete possibly the call's own doing.
    pub(crate) fn ambiguous(&self) -> bool {
        self.0.ambiguous.load(Ordering::Acquire)
    }
}

impl Intercept for Attempts {
    fn name(&self) -> &'static str {
        "ddb_entity::Attempts"
    }

    fn read_after_attempt(
        &self,
        context: &FinalizerInterceptorContextRef<'_>,
        _: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let ambiguous = match context.output_or_error() {
            Some(Err(err)) => {
                err.is_timeout_error()
                    || err.is_response_error()
                    || err.is_connector_error()
                    || context
                        .response()
                        .is_some_and(|response| response.status().is_server_error())
            }
            _ => false,
        };
        if ambiguous {
            self.0.ambiguous.store(true, Ordering::Release);
        }
        Ok(())
    }
}
