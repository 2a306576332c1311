//! Collects every error of one derive, so one compile reports them all.

use std::cell::RefCell;

use proc_macro2::TokenStream;
use quote::ToTokens;

/// Error sink for one derive invocation.
#[derive(Default)]
pub(crate) struct Ctxt {
    errors: RefCell<Vec<syn::Error>>,
}

impl Ctxt {
    /// Records an error pointing at `tokens`.
    pub(crate) fn error(&self, tokens: impl ToTokens, message: impl std::fmt::Display) {
        self.errors
            .borrow_mut()
            .push(syn::Error::new_spanned(tokens, message));
    }

    /// Records an error at `span`.
    pub(crate) fn error_at(&self, span: proc_macro2::Span, message: impl std::fmt::Display) {
        self.errors
            .borrow_mut()
            .push(syn::Error::new(span, message));
    }

    /// Records a `syn` parse error as is.
    pub(crate) fn syn_error(&self, error: syn::Error) {
        self.errors.borrow_mut().push(error);
    }

    /// `Ok(value)` when nothing was recorded, else every error combined.
    pub(crate) fn finish<T>(self, value: T) -> Result<T, syn::Error> {
        let mut errors = self.errors.into_inner().into_iter();
        match errors.next() {
            None => Ok(value),
            Some(mut first) => {
                first.extend(errors);
                Err(first)
            }
        }
    }
}

/// Every error as a `compile_error!`, each at its own span.
pub(crate) fn to_compile_errors(error: syn::Error) -> TokenStream {
    error.to_compile_error()
}
