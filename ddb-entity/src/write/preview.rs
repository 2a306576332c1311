//! A write's request as the SDK's input, for previews: built by the same
//! function its send uses, then taken out of the SDK's builder.

use aws_sdk_dynamodb::error::BuildError;

use crate::error::{Repr, Result};

/// The input a builder holds, or why the SDK refused to build it.
pub(crate) fn built<I>(what: &'static str, input: std::result::Result<I, BuildError>) -> Result<I> {
    input.map_err(|err| {
        Repr::RequestBuild {
            what,
            source: Box::new(err),
        }
        .into()
    })
}
