//! Collects every error of one derive, so one compile reports them all.

use std::cell::RefCell;
use std::fmt::Display;
use std::thread;

use proc_macro2::Span;
use quote::ToTokens;

/// Error sink for one derive invocation. Its errors must be taken with
/// [`check`](Ctxt::check) before it is dropped: a derive that forgot to
/// look would silently expand broken input, so dropping an unchecked
/// context panics (as serde_derive's does).
pub(crate) struct Ctxt {
    /// `None` once taken.
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Ctxt {
    pub(crate) fn new() -> Self {
        Ctxt {
            errors: RefCell::new(Some(Vec::new())),
        }
    }

    /// Records an error pointing at `tokens`.
    pub(crate) fn error(&self, tokens: impl ToTokens, message: impl Display) {
        self.syn_error(syn::Error::new_spanned(tokens, message));
    }

    /// Records an error at `span`.
    pub(crate) fn error_at(&self, span: Span, message: impl Display) {
        self.syn_error(syn::Error::new(span, message));
    }

    /// Records a `syn` error as is.
    pub(crate) fn syn_error(&self, error: syn::Error) {
        self.errors
            .borrow_mut()
            .as_mut()
            .expect("errors recorded after `Ctxt::check`")
            .push(error);
    }

    /// Takes the errors: `Ok` when there were none, else all of them
    /// combined (each keeps its own span).
    pub(crate) fn check(self) -> Result<(), syn::Error> {
        let errors = self.errors.borrow_mut().take().unwrap_or_default();
        let mut errors = errors.into_iter();
        match errors.next() {
            None => Ok(()),
            Some(mut first) => {
                first.extend(errors);
                Err(first)
            }
        }
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        if !thread::panicking() && self.errors.borrow().is_some() {
            panic!("a derive dropped its error context without checking it");
        }
    }
}
