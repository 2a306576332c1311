//! The checks only the type system can make, stated once each where the
//! mistake is written, and the names generated bodies use for key types.
//!
//! A hole's type is named in generated bodies through a *checked* alias,
//!
//! ```text
//! type __Key_seq = __p::Checked<u16, { __p::assert_key_part::<u16>() }>;
//! ```
//!
//! (each check a const fn returning the array's length, 0),
//!
//! which is the type itself when the check passes. When it fails, the
//! compiler reports it inside that one array length, at the template, and
//! the alias becomes an error type, so the bodies that use it (every key
//! builder, the index entries, the update hooks) report nothing more.
//! Signatures keep the plain type: they are what users read. A builder's
//! argument, `impl KeyArg<T>`, holds for `T` itself whether or not `T` is a
//! key part; the body encodes it as the checked alias (`key_arg`), so a
//! call of the builder reports nothing either.
//!
//! The table and each index are checked the same way (`__Table`: a table;
//! `__Index_gsi1`: an index of that table), and generated code names them
//! only so: a misspelt name or a type of the wrong kind is reported once,
//! where `table = …` or `index = …` names it. There the signatures do carry
//! the alias (`Partition<Primary<__Table>>`): the partition and sort keys
//! of an index of another table are what would make each query report the
//! mistake again. rustdoc shows a private alias as the type it names, so
//! under `cfg(doc)` each alias is the table or index itself.
//! A hole's alias is in one signature too, the bound of its cut function
//! (`placed_prefix<C: PrefixOf<__Key_placed>>`), so that a hole type
//! without a key encoding, which has no cuts, reports nothing more when
//! cut; that function is a method of a stage type inside the `const _`
//! block, which rustdoc does not show.
//!
//! A type that mentions the entity's type parameters cannot be named in a
//! const; there the generated impls require it to be a key part, and one
//! generic function, bounded as the user declared the struct, states the
//! requirement, so a missing bound is reported once and named.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote, quote_spanned};

use crate::ast::{Entity, Hole, Index, KeyTemplate, ShardInput};
use crate::name;

/// The checked alias of a hole's type: `__Key_seq`, `__Key_seq_4`.
fn alias(hole: &Hole<'_>) -> Ident {
    let field = name::unraw(hole.field());
    match hole.width {
        Some(width) => format_ident!("__Key_{}_{}", field, width),
        None => format_ident!("__Key_{}", field),
    }
}

/// The checked alias of a shard input's type, its full-width key type:
/// `__Key_order_id`.
pub(super) fn shard_alias(input: &ShardInput<'_>) -> Ident {
    format_ident!("__Key_{}", name::unraw(input.field()))
}

/// How generated bodies name a shard input's key type.
pub(super) fn shard_key_type(model: &Entity<'_>, input: &ShardInput<'_>) -> TokenStream {
    let ty = input.ty();
    if model.is_generic(ty) {
        quote!(#ty)
    } else {
        let alias = shard_alias(input);
        quote!(#alias)
    }
}

/// How generated bodies name `hole`'s key type.
pub(super) fn key_type(model: &Entity<'_>, hole: &Hole<'_>) -> TokenStream {
    let ty = hole.ty();
    if model.is_generic(ty) {
        quote!(#ty)
    } else {
        let alias = alias(hole);
        quote!(#alias)
    }
}

/// `value` (a `&T` of the hole's type) as the hole's checked type: by
/// reference, or by value for a fixed-width integer (which is `Copy`).
pub(super) fn checked(model: &Entity<'_>, hole: &Hole<'_>, value: TokenStream) -> TokenStream {
    let value = if model.is_generic(hole.ty()) {
        value
    } else {
        let ty = key_type(model, hole);
        quote!(__p::checked::<#ty>(#value))
    };
    match hole.width {
        Some(_) => quote!(*#value),
        None => value,
    }
}

/// The items of the checks, for the entity's `const _: () = { … }`.
pub(super) fn items(model: &Entity<'_>) -> TokenStream {
    let mut seen: Vec<Ident> = Vec::new();
    let mut aliases = Vec::new();
    let mut generic_holes = Vec::new();
    for hole in model.templates().flat_map(|t| t.holes()) {
        let ty = hole.ty();
        if model.is_generic(ty) {
            if !generic_holes
                .iter()
                .any(|h: &&Hole<'_>| h.name == hole.name)
            {
                generic_holes.push(hole);
            }
            continue;
        }
        let alias = alias(hole);
        if seen.contains(&alias) {
            continue;
        }
        seen.push(alias.clone());
        // A field that is a raw key attribute anywhere must be a string.
        let raw = model
            .templates()
            .filter_map(KeyTemplate::raw_hole)
            .any(|raw| raw.name == hole.name)
            .then(|| {
                quote_spanned! {hole.span=>
                    __p::assert_raw_key::<#ty>();
                }
            });
        let check = match hole.width {
            None if raw.is_none() => quote_spanned! {hole.span=>
                { __p::assert_key_part::<#ty>() }
            },
            None => quote_spanned! {hole.span=>
                { __p::assert_key_part::<#ty>(); #raw 0 }
            },
            Some(width) => {
                let field = name::unraw(hole.field());
                // `panic!` reads its message as a format string: braces doubled.
                let ty_name = crate::ast::type_string(ty);
                let message = format!(
                    "`{{{{{field}:{width}}}}}` pads to {width} digits, but a `{ty_name}` has fewer even at its largest: write a smaller width, or `{{{{{field}}}}}` for the type's full width"
                );
                quote_spanned! {hole.span=>
                    {
                        if #width > <#ty as __p::PaddedInt>::MAX_DIGITS {
                            ::core::panic!(#message);
                        }
                        0
                    }
                }
            }
        };
        aliases.push(quote! {
            type #alias = __p::Checked<#ty, #check>;
        });
    }
    // A shard hashes its fields' full-width encodings: each must be a key
    // part, checked at the shard (once, when no hole checked it already).
    for input in model.shard_inputs() {
        let ty = input.ty();
        let alias = shard_alias(input);
        if model.is_generic(ty) || seen.contains(&alias) {
            continue;
        }
        seen.push(alias.clone());
        let check = quote_spanned! {input.span=>
            __p::assert_key_part::<#ty>()
        };
        aliases.push(quote! {
            type #alias = __p::Checked<#ty, { #check }>;
        });
    }
    let generic_check = generic_bounds(model, &generic_holes);
    let table_check = table_check(model);
    let index_checks = index_checks(model);
    let table_checks = table_checks(model);
    quote! {
        #(#aliases)*
        #generic_check
        #table_check
        #index_checks
        #table_checks
    }
}

/// The entity has a sort key exactly when its table does, and each raw key
/// field (`pk = field`) is stored under the key attribute's name.
fn table_checks(model: &Entity<'_>) -> TokenStream {
    let named = model.table();
    let table_name = quote!(#named).to_string().replace(' ', "");
    let table = table_alias();
    let (holds, message, span) = match &model.sk {
        Some(sk) => (
            quote!(__p::table_has_sort_key::<#table>()),
            format!(
                "table `{table_name}` has no sort key in its `table!` declaration (one item per partition key): remove this `sk`, or declare a sort_key in `table!`"
            ),
            sk.lit.span(),
        ),
        None => (
            quote!(!__p::table_has_sort_key::<#table>()),
            format!(
                "table `{table_name}` has a sort key, so its entities have a sort key template: add one, e.g. sk = \"PROFILE\" or sk = \"ORDER#{{order_id}}\""
            ),
            model.ident.span(),
        ),
    };
    let message = message.replace('{', "{{").replace('}', "}}");
    let sort_key = quote_spanned! {span=>
        const _: () = ::core::assert!(#holds, #message);
    };
    let primary = quote!(<#table as __ddb::Table>::SCHEMA.primary.partition_key);
    let raw_keys = model
        .pk
        .iter()
        .map(|pk| (pk, primary.clone(), format!("table `{table_name}`")))
        .chain(model.indexes.iter().filter_map(|index| {
            let path = index_alias(index);
            let pk = index.pk.as_ref()?;
            let name = &index.name;
            Some((
                pk,
                quote!(<#path as __ddb::Index>::SCHEMA.keys.partition_key),
                format!("index `{name}`"),
            ))
        }))
        .filter(|(pk, _, _)| pk.raw)
        .filter_map(|(pk, attribute_of, what)| {
            let hole = pk.holes().next()?;
            let field = model.stored_named(&hole.name)?;
            let attribute = &field.attribute;
            let name = &hole.name;
            let message = format!(
                "`{name}` is the partition key of {what} itself, so it must be stored under the key attribute's name, but serde stores it as `{attribute}`, which is not the name `table!` declares for that key: rename the field, or add #[serde(rename = \"…\")] with the attribute's name"
            )
            .replace('{', "{{")
            .replace('}', "}}");
            Some(quote_spanned! {hole.span=>
                const _: () = ::core::assert!(
                    __p::same_name(#attribute_of, #attribute),
                    #message
                );
            })
        });
    quote! {
        #sort_key
        #(#raw_keys)*
    }
}

/// What the generated impls require of hole types that mention a type
/// parameter: to be key parts (integers of a width, for a width).
pub(super) fn inferred_bounds(model: &Entity<'_>) -> Vec<TokenStream> {
    let mut bounds: Vec<TokenStream> = Vec::new();
    for hole in model.templates().flat_map(|t| t.holes()) {
        let ty = hole.ty();
        if !model.is_generic(ty) {
            continue;
        }
        let bound = match hole.width {
            Some(_) => quote!(#ty: __p::PaddedInt),
            None => quote! {
                #ty: __p::KeyPart + __p::DecodeKeyPart
            },
        };
        if !bounds.iter().any(|b| b.to_string() == bound.to_string()) {
            bounds.push(bound);
        }
    }
    for input in model.shard_inputs() {
        let ty = input.ty();
        if !model.is_generic(ty) {
            continue;
        }
        let bound = quote!(#ty: __p::KeyPart);
        if !bounds.iter().any(|b| b.to_string() == bound.to_string()) {
            bounds.push(bound);
        }
    }
    bounds
}

/// The entity's where clause plus `extra` predicates and the inferred
/// bounds.
pub(super) fn where_clause(model: &Entity<'_>, extra: &[TokenStream]) -> TokenStream {
    let user = model.generics.where_clause.as_ref().map(|w| &w.predicates);
    let mut predicates: Vec<TokenStream> = extra.to_vec();
    predicates.extend(user.into_iter().flat_map(|p| p.iter().map(|p| quote!(#p))));
    predicates.extend(inferred_bounds(model));
    if predicates.is_empty() {
        TokenStream::new()
    } else {
        quote!(where #(#predicates),*)
    }
}

/// One generic function bounded as the user declared the entity, requiring
/// what the generated impls infer: a bound the declaration lacks is
/// reported here, once per hole, with the compiler's suggestion of it.
fn generic_bounds(model: &Entity<'_>, holes: &[&Hole<'_>]) -> TokenStream {
    if holes.is_empty() {
        return TokenStream::new();
    }
    let (impl_generics, _, where_clause) = model.generics.split_for_impl();
    let checks = holes.iter().map(|hole| {
        let ty = hole.ty();
        match hole.width {
            Some(_) => quote_spanned! {hole.span=>
                let _ = <#ty as __p::PaddedInt>::MAX_DIGITS;
            },
            None => quote_spanned! {hole.span=>
                __p::assert_key_part::<#ty>();
            },
        }
    });
    quote! {
        #[allow(dead_code)]
        fn __declared_key_parts #impl_generics () #where_clause {
            #(#checks)*
        }
    }
}

/// Each index belongs to the entity's table, and has a sort key exactly
/// when the entity gives it one: reported at the index's attribute. An
/// index of another table is the declaration's mistake, not its queries':
/// the entity's items live in its own table, so no index of another holds
/// them, and every use of the index through the entity follows from it.
fn index_checks(model: &Entity<'_>) -> TokenStream {
    let table = table_alias();
    let checks = model.indexes.iter().map(|index| {
        let path = &index.path;
        let alias = index_alias(index);
        let name = &index.name;
        let (not, message, span) = match &index.sk {
            Some(sk) => (
                None,
                format!("index `{name}` has no sort key in its `table!` declaration: remove this `sk`, or declare a sort_key for `{name}` in `table!`"),
                sk.lit.span(),
            ),
            None => (
                Some(quote!(!)),
                format!("index `{name}` has a sort key in its `table!` declaration: add `sk = \"…\"` to this #[entity(index = {name}, …)]"),
                syn::spanned::Spanned::span(path),
            ),
        };
        let message = message.replace('{', "{{").replace('}', "}}");
        // One const item per check: const evaluation stops at its first panic.
        let sort_key = quote_spanned! {span=>
            const _: () = ::core::assert!(
                #not __p::index_has_sort_key::<#alias>(),
                #message
            );
        };
        // An index of the entity's own table: checked in its alias, the
        // only name generated code gives the index, so a misspelt or wrong
        // index is reported once, here, and nothing that uses it (queries
        // through the partition and sort keys typed by it) reports more.
        // Spanned at the path: the compiler points at this generic argument.
        let path_span = syn::spanned::Spanned::span(path);
        let named = format_ident!("__IndexNamed_{}", name::snake(name), span = path_span);
        let of_table = quote_spanned! {path_span=>
            __p::index_of_table::<#named, #table>()
        };
        quote! {
            #[cfg(not(doc))]
            type #named = #path;
            #[cfg(not(doc))]
            type #alias = __p::Checked<#named, { #of_table }>;
            // rustdoc shows a private alias as the type it names: the index.
            #[cfg(doc)]
            type #alias = #path;
            #sort_key
        }
    });
    quote!(#(#checks)*)
}

/// The entity's table, checked (see [`table_alias`]): written once, and
/// an error type when it is no table, so only this reports it.
fn table_check(model: &Entity<'_>) -> TokenStream {
    let path = model.table();
    let alias = table_alias();
    let is_table = quote_spanned! {syn::spanned::Spanned::span(path)=>
        __p::assert_table::<__TableNamed>()
    };
    quote! {
        #[cfg(not(doc))]
        type __TableNamed = #path;
        #[cfg(not(doc))]
        type #alias = __p::Checked<__TableNamed, { #is_table }>;
        // rustdoc shows a private alias as the type it names: the table.
        #[cfg(doc)]
        type #alias = #path;
    }
}

/// How generated code names the entity's table: `__Table`, the table
/// itself once `table = …` is checked to name one.
pub(super) fn table_alias() -> TokenStream {
    quote!(__Table)
}

/// The checked alias of an index, `__Index_gsi1`: the index type itself
/// when it is an index of the entity's table, an error type otherwise.
pub(super) fn index_alias(index: &Index<'_>) -> Ident {
    format_ident!("__Index_{}", name::snake(&index.name))
}
