//! The SDK's public seam through which a typed read takes a response's
//! bytes: an interceptor added to one request (`customize().interceptor`)
//! that, on a successful response, wraps the body before the SDK reads
//! it. Once the body is read, its bytes go to the request's [`Slot`] and
//! the SDK is handed `{}` to parse (an output with no items, which is
//! never looked at). The SDK still signs, resolves the endpoint, retries
//! (each attempt's body replaces the last) and parses errors: an error's
//! body is left to it untouched. The Rust SDK does not check DynamoDB's
//! `x-amz-crc32` header, so the swap is invisible to it.

use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::interceptors::Intercept;
use aws_smithy_runtime_api::client::interceptors::context::BeforeDeserializationInterceptorContextMut;
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
use aws_smithy_types::body::SdkBody;
use aws_smithy_types::config_bag::ConfigBag;
use bytes::{Bytes, BytesMut};
use http_body::{Body as HttpBody, Frame};

use super::found::Origin;
use crate::error::Error;

/// Where the body of a request's successful response goes.
type Slot = Arc<Mutex<Option<Bytes>>>;

/// The body of one request's successful response, taken by the seam.
#[derive(Debug, Default)]
pub(crate) struct Body(Slot);

impl Body {
    /// The interceptor to add to the request (`customize().interceptor`).
    pub(crate) fn capture(&self) -> Capture {
        Capture(Arc::clone(&self.0))
    }

    /// The body's bytes, once the request succeeded.
    pub(crate) fn take(&self, origin: &Origin) -> Result<Bytes, Error> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .ok_or_else(|| origin.malformed("the response body was not read"))
    }
}

/// The interceptor of one request.
#[derive(Debug)]
pub(crate) struct Capture(Slot);

impl Intercept for Capture {
    fn name(&self) -> &'static str {
        "ddb-entity: the response body of a typed read"
    }

    fn modify_before_deserialization(
        &self,
        context: &mut BeforeDeserializationInterceptorContextMut<'_>,
        _: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        if !context.response().status().is_success() {
            return Ok(());
        }
        let body = std::mem::replace(context.response_mut().body_mut(), SdkBody::taken());
        *context.response_mut().body_mut() = SdkBody::from_body_1_x(Tap {
            inner: body,
            read: BytesMut::new(),
            slot: Arc::clone(&self.0),
            done: false,
        });
        Ok(())
    }
}

/// The body as the SDK reads it: the real one, collected into the slot,
/// then the stub.
struct Tap {
    inner: SdkBody,
    read: BytesMut,
    slot: Slot,
    done: bool,
}

impl HttpBody for Tap {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = &mut *self;
        if this.done {
            return Poll::Ready(None);
        }
        loop {
            match Pin::new(&mut this.inner).poll_frame(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Some(Ok(frame))) => {
                    if let Ok(data) = frame.into_data() {
                        this.read.extend_from_slice(&data);
                    }
                }
                Poll::Ready(Some(Err(err))) => return Poll::Ready(Some(Err(err))),
                Poll::Ready(None) => {
                    this.done = true;
                    let read = std::mem::take(&mut this.read).freeze();
                    *this.slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(read);
                    return Poll::Ready(Some(Ok(Frame::data(Bytes::from_static(b"{}")))));
                }
            }
        }
    }
}
