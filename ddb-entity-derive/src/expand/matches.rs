//! `EntityHooks::key_matches`: how a table typed by
//! key (a table designed by hand, with no type attribute) tells this
//! entity's items from others'.
//!
//! A key matches when it parses as the templates exactly as an update
//! parses its key back into fields: every literal in place (byte for byte,
//! so `user#…` is not `USER#…`), every hole's value decoding by its key
//! part, nothing left over. So `ORDER#{placed}#{id}` does not match
//! `ORDER#…#…#LINE#7`, and a value that would not be written back byte
//! for byte (an unpadded number where the template pads) does not match.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use super::checks::key_type;
use crate::ast::Entity;

/// The `EntityHooks` items for matching stored keys: the key reader's,
/// through `__p::key_matches`.
pub(super) fn key_matching(model: &Entity<'_>) -> TokenStream {
    // A table with a sort key stores one on every item; without one the
    // sort value is ignored (there is none).
    let (param, sort) = if model.sk.is_some() {
        (quote!(s), quote!(s))
    } else {
        (quote!(_), quote!(__p::Some("")))
    };
    quote! {
        fn key_matches(p: &__p::str, #param: __p::Option<&__p::str>) -> __p::bool {
            __p::key_matches(p, #sort, Self::__read_key)
        }
    }
}

/// A sort-key hole whose type is not spelled `Unordered<…>` must sort
/// (`__p::assert_sorts`, which states the rule and builds the message):
/// one const item per hole, spanned at it. Non-generic entities only: a
/// const item cannot name the entity's type parameters.
pub(super) fn ordered_sort_holes(model: &Entity<'_>) -> TokenStream {
    if !model.generics.params.is_empty() {
        return TokenStream::new();
    }
    let sort_keys = model
        .sk
        .iter()
        .chain(model.indexes.iter().filter_map(|index| index.sk.as_ref()));
    // A hole of a sort key written twice (an index reusing the table's)
    // is one mistake: checked once, at its first occurrence.
    let mut seen: Vec<(&str, &str)> = Vec::new();
    let mut checks = Vec::new();
    for template in sort_keys {
        for hole in template.holes().filter(|hole| !hole.unordered()) {
            let (name, source) = (hole.name.as_str(), template.source.as_str());
            if seen.contains(&(name, source)) {
                continue;
            }
            seen.push((name, source));
            // The checked alias: a type that is no key part at all was
            // reported once already, and this check stays silent on it.
            let ty = key_type(model, hole);
            checks.push(quote_spanned! {hole.span=>
                const _: () = __p::assert_sorts::<#ty>(#name, #source);
            });
        }
    }
    quote!(#(#checks)*)
}
