//! The key rules that depend on the table's declared delimiter, which the
//! derive cannot see. The rules and their messages are the library's
//! (`__private::delimiter_mismatch`, `__private::followed_hole`); the
//! derive states one const item per template and per followed hole, each
//! spanned where the mistake is written, that panics with the message the
//! library builds for the table, so one mistake is one compile error
//! there, saying how to write it.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use crate::ast::{Entity, Followed};

/// The const items of an entity's delimiter checks.
pub(super) fn checks(model: &Entity<'_>) -> TokenStream {
    let named = model.table();
    let table_name = quote!(#named).to_string().replace(' ', "");
    // Through the checked alias: a `table = …` that names no table is
    // reported once, by its own check, not again by each template's.
    let table = super::checks::table_alias();
    // A template written twice (an index reusing the primary key's) is
    // one mistake: checked once, at its first occurrence.
    let mut seen: Vec<String> = Vec::new();
    let templates = model.templates().filter(|t| !t.raw).filter_map(|template| {
        let text = template.lit.value();
        if !text.contains('#') || seen.contains(&text) {
            return None;
        }
        seen.push(text.clone());
        Some(quote_spanned! {template.lit.span()=>
            const _: () = if let __p::Some(m) =
                __p::delimiter_mismatch::<#table>(#table_name, #text)
            {
                ::core::panic!("{}", m.text())
            };
        })
    });
    let holes = hole_checks(model, &table_name);
    quote!(#(#templates)* #holes)
}

/// A hole sharing its segment keeps the key contract only for some types:
/// followed by literal text, one whose encodings are prefix-free (order);
/// followed by another hole, one of a fixed length (order, and the key
/// cut back apart). On a table of another delimiter, which is then
/// literal text of the template, a hole followed by more of the key needs
/// a fixed length. One const item per hole and rule, at the hole: the
/// bodies do not depend on it, so nothing else is reported.
fn hole_checks(model: &Entity<'_>, table_name: &str) -> TokenStream {
    let table = super::checks::table_alias();
    let mut seen: Vec<(String, bool)> = Vec::new();
    let mut checks = Vec::new();
    for template in model.templates().filter(|t| !t.raw) {
        for hole in template.holes() {
            let followed = template.followed(&hole.name);
            if followed == Followed::Nothing || model.is_generic(hole.ty()) {
                continue;
            }
            let by_hole = followed == Followed::ByHole;
            if seen.contains(&(hole.name.clone(), by_hole)) {
                continue;
            }
            seen.push((hole.name.clone(), by_hole));
            let ty = hole.ty();
            let part = match hole.width {
                Some(width) => quote!(__p::Padded<#width, #ty>),
                None => quote!(#ty),
            };
            let holds = if by_hole {
                quote!(<#part as __p::KeyPart>::FIXED_LEN.is_some())
            } else {
                quote!(<#part as __p::KeyPart>::PREFIX_FREE)
            };
            let name = &hole.name;
            let type_name = crate::ast::type_string(ty);
            checks.push(quote_spanned! {hole.span=>
                const _: () = if let __p::Some(m) =
                    __p::followed_hole::<#table>(
                        #holds, #by_hole, #table_name, #name, #type_name,
                    )
                {
                    ::core::panic!("{}", m.text())
                };
            });
        }
    }
    quote!(#(#checks)*)
}
