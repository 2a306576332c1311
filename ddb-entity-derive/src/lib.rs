//! Derive macros for [`ddb-entity`](https://docs.rs/ddb-entity): use them
//! through that crate (`ddb_entity::Entity`, `ddb_entity::KeyPart`,
//! `ddb_entity::Collection`), which documents what they generate.
//!
//! The macros are built in phases, one file each: `attr` reads the
//! attributes, `template` parses key templates, `ast` reads the struct or enum,
//! `check` applies the rules that span them and produces a validated model,
//! `expand` writes code from that model and never validates.

mod ast;
mod attr;
mod check;
mod ctxt;
mod expand;
mod serde_attr;
#[cfg(test)]
mod snapshots;
mod template;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// `#[derive(Entity)]`: see `ddb_entity::Entity`.
#[proc_macro_derive(Entity, attributes(entity))]
pub fn derive_entity(input: TokenStream) -> TokenStream {
    entity(&parse_macro_input!(input as DeriveInput)).into()
}

/// `#[derive(KeyPart)]` for unit enums: see `ddb_entity::key::KeyPart`.
#[proc_macro_derive(KeyPart, attributes(key))]
pub fn derive_key_part(input: TokenStream) -> TokenStream {
    key_part(&parse_macro_input!(input as DeriveInput)).into()
}

/// `#[derive(Collection)]` for a struct of `Option<E>`/`Vec<E>` fields or an
/// enum of `Variant(E)`: see `ddb_entity::Collection`.
#[proc_macro_derive(Collection)]
pub fn derive_collection(input: TokenStream) -> TokenStream {
    collection(&parse_macro_input!(input as DeriveInput)).into()
}

fn entity(input: &DeriveInput) -> proc_macro2::TokenStream {
    check::entity(input)
        .map(|model| expand::entity(&model))
        .unwrap_or_else(ctxt::to_compile_errors)
}

fn key_part(input: &DeriveInput) -> proc_macro2::TokenStream {
    check::key_part(input)
        .map(|model| expand::key_part(&model))
        .unwrap_or_else(ctxt::to_compile_errors)
}

fn collection(input: &DeriveInput) -> proc_macro2::TokenStream {
    check::collection(input)
        .map(|model| expand::collection(&model))
        .unwrap_or_else(ctxt::to_compile_errors)
}
