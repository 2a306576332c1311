//! `Entity::LAYOUT`: the entity's templates and stored fields as data
//! (the runtime's `ddb_entity::layout`), the one description the
//! hot-partition lint, the model of the table and key-layout snapshots
//! all read. It mirrors the template IR: segments of literal, hole and
//! shard pieces, each hole with its key type's fixed length and spread
//! (`KeyPart::FIXED_LEN`, `KeyPart::CARDINALITY`). Also the one check a
//! model's local indexes need: an entity fills a local index with a
//! field, never with `index = …` templates.

use proc_macro2::TokenStream;
use quote::quote;

use super::checks;
use super::keys;
use crate::ast::{self, Entity, KeyTemplate, Part};

/// The `const LAYOUT` item of the `Entity` impl.
pub(super) fn layout(model: &Entity<'_>) -> TokenStream {
    let name = model.ident.to_string();
    let type_tag = model.type_tag();
    let allow_hot = model.attrs.allow_hot.as_ref().map(syn::LitStr::value);
    let primary = {
        let partition = template(model, model.pk());
        let sort = option(model.sk.as_ref().map(|sk| template(model, sk)));
        let allow_hot = option(allow_hot.map(|reason| quote!(#reason)));
        quote!(__p::layout::primary(#partition, #sort, #allow_hot))
    };
    let indexes = model.indexes.iter().map(|index| {
        let path = super::checks::index_alias(index);
        let sparse = index.when.is_some() || index.holes().iter().any(|hole| hole.optional());
        let when = option(index.when.as_ref().map(call_text).map(|when| quote!(#when)));
        let partition = template(model, index.pk());
        let sort = option(index.sk.as_ref().map(|sk| template(model, sk)));
        let allow_hot = option(
            index
                .allow_hot
                .as_ref()
                .map(syn::LitStr::value)
                .map(|reason| quote!(#reason)),
        );
        quote! {
            __p::layout::index(
                <#path as __ddb::Index>::SCHEMA, #partition, #sort, #sparse, #when, #allow_hot,
            )
        }
    });
    // What the library reads off a field besides its attribute: the
    // primary key's fields (stored in the key only, or copied in the body)
    // and the optimistic-locking version.
    let key_fields = super::update::key_field_names(model);
    let version = model.version().map(|field| crate::name::unraw(field.ident));
    let fields = model.stored().map(|field| {
        let name = crate::name::unraw(field.ident);
        let attribute = &field.attribute;
        let type_name = ast::type_string(field.ty);
        let optional = field.option_inner.is_some();
        let constructor = if field.role == ast::Role::KeyOnly {
            quote!(key_only)
        } else if key_fields.contains(&name) {
            quote!(key_field)
        } else if version.as_ref() == Some(&name) {
            quote!(version)
        } else {
            quote!(field)
        };
        quote!(__p::layout::#constructor(#name, #attribute, #type_name, #optional))
    });
    let flattened = model
        .fields
        .iter()
        .flatten()
        .any(|field| field.serde.flatten && !field.serde.skipped);
    quote! {
        const LAYOUT: &'static __ddb::layout::EntityLayout =
            &__ddb::layout::EntityLayout::new(
                #name,
                #type_tag,
                &[#primary, #(#indexes),*],
                &[#(#fields),*],
                #flattened,
            );
    }
}

/// `index = …` names a global index: a const check per index, spanned at
/// its attribute, for the entity's `const _: () = { … }`.
pub(super) fn global_index_checks(model: &Entity<'_>) -> TokenStream {
    // Reported at the index's name: `index = ByStatus` is what to change.
    let checks = model.indexes.iter().map(|index| {
        let path = super::checks::index_alias(index);
        quote_spanned_at(
            syn::spanned::Spanned::span(&index.path),
            quote! {
                const _: () = __p::assert_global_index::<#path>();
            },
        )
    });
    quote!(#(#checks)*)
}

/// The tokens of `tokens` with `span`, so an error in them points there.
fn quote_spanned_at(span: proc_macro2::Span, tokens: TokenStream) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut token| {
            token.set_span(span);
            token
        })
        .collect()
}

fn option(value: Option<TokenStream>) -> TokenStream {
    match value {
        Some(value) => quote!(__p::Some(#value)),
        None => quote!(__p::None),
    }
}

fn template(model: &Entity<'_>, template: &KeyTemplate<'_>) -> TokenStream {
    let source = &template.source;
    let raw = template.raw;
    let segments = template.segments.iter().map(|segment| {
        let pieces = segment.iter().map(|part| match part {
            Part::Literal(text) => quote!(__p::layout::lit(#text)),
            Part::Shard(shard) => {
                let spec = keys::shard_spec(shard);
                quote!(__p::layout::shard(#spec))
            }
            Part::Hole(hole) => {
                let field = &hole.name;
                let type_name = ast::type_string(hole.ty());
                let optional = hole.optional();
                if hole.raw {
                    // A raw key attribute is any string, stored as it is.
                    return quote!(__p::layout::raw_hole(#field, #type_name, #optional));
                }
                let ty = checks::key_type(model, hole);
                let (width, part) = match hole.width {
                    Some(width) => {
                        // Checked at the template: 1 to 39.
                        let digits = width as u8;
                        (quote!(__p::Some(#digits)), quote!(__p::Padded<#width, #ty>))
                    }
                    None if hole.partition => (quote!(__p::None), quote!(__p::PartitionPart<#ty>)),
                    None => (quote!(__p::None), quote!(#ty)),
                };
                let computed = hole.computed().is_some();
                quote!(__p::layout::hole::<#part>(#field, #type_name, #width, #optional, #computed))
            }
        });
        quote!(&[#(#pieces),*])
    });
    quote!(__p::layout::template(#source, #raw, &[#(#segments),*]))
}

/// `Ticket::is_open(status)`, as written.
fn call_text(call: &crate::attr::entity::Call) -> String {
    let function = call
        .function
        .segments
        .iter()
        .map(|segment| segment.ident.to_string())
        .collect::<Vec<_>>()
        .join("::");
    let args = call
        .args
        .iter()
        .map(crate::name::unraw)
        .collect::<Vec<_>>()
        .join(", ");
    format!("{function}({args})")
}
