//! Derive macros for [`ddb-entity`](https://docs.rs/ddb-entity): use them
//! through that crate (`ddb_entity::Entity`, `ddb_entity::KeyPart`,
//! `ddb_entity::Collection`), which documents what they generate.
//!
//! Each derive runs the same phases, one module each, as serde_derive's
//! do: `ast` reads the input into a model (attributes by `attr`, key
//! templates by `template`), `check` applies the rules across it, both
//! recording every error in a `ctxt::Ctxt`; then `expand` writes the code,
//! which it never validates, or, when there were errors, `fallback` writes
//! them with a stand-in that keeps them the only ones.

mod ast;
mod attr;
mod check;
mod ctxt;
mod expand;
mod fallback;
mod name;
#[cfg(test)]
mod snapshots;
mod table;
mod template;

use proc_macro::TokenStream;
use proc_macro2::TokenStream as Tokens;
use syn::{DeriveInput, parse_macro_input};

use ctxt::Ctxt;

// The reference's examples need the runtime crate: they run in
// `ddb-entity`'s doctests, which include the same file.
#[cfg_attr(not(doctest), doc = include_str!("../docs/entity.md"))]
#[proc_macro_derive(Entity, attributes(entity))]
pub fn derive_entity(input: TokenStream) -> TokenStream {
    entity(&parse_macro_input!(input as DeriveInput)).into()
}

#[cfg_attr(not(doctest), doc = include_str!("../docs/key_part.md"))]
#[proc_macro_derive(KeyPart, attributes(key))]
pub fn derive_key_part(input: TokenStream) -> TokenStream {
    key_part(&parse_macro_input!(input as DeriveInput)).into()
}

/// `#[derive(Collection)]`: see `ddb_entity::Collection`.
#[proc_macro_derive(Collection)]
pub fn derive_collection(input: TokenStream) -> TokenStream {
    collection(&parse_macro_input!(input as DeriveInput)).into()
}

/// `ddb_entity::table!`'s implementation, which that macro forwards to
/// after the runtime crate's path (`[$crate] pub struct App { … }`): see
/// `ddb_entity::table!`.
#[doc(hidden)]
#[proc_macro]
pub fn __table(input: TokenStream) -> TokenStream {
    table::table(input.into()).into()
}

fn entity(input: &DeriveInput) -> Tokens {
    let cx = Ctxt::new();
    let entity = ast::Entity::from_ast(&cx, input);
    check::entity(&cx, &entity);
    match cx.check() {
        Ok(()) => expand::entity(&entity),
        Err(errors) => fallback::entity(&entity, errors),
    }
}

fn key_part(input: &DeriveInput) -> Tokens {
    let cx = Ctxt::new();
    let key_part = ast::KeyPart::from_ast(&cx, input);
    check::key_part(&cx, &key_part);
    match cx.check() {
        Ok(()) => expand::key_part(&key_part),
        Err(errors) => fallback::key_part(&key_part, errors),
    }
}

fn collection(input: &DeriveInput) -> Tokens {
    let cx = Ctxt::new();
    let collection = ast::Collection::from_ast(&cx, input);
    check::collection(&cx, &collection);
    match cx.check() {
        Ok(()) => expand::collection(&collection),
        Err(errors) => fallback::collection(&collection, errors),
    }
}
