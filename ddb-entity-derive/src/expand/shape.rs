//! `Described`: the entity's templates, indexes and fields as data, for
//! the model (`ddb_entity::model`), and the one check the model's local
//! indexes need: an entity fills a local index with a field, never with
//! `index = …` templates.
//!
//! Each template is written out piece by piece as the IR holds it; a
//! hole's fixed length and spread come from its key type's `KeyPart`
//! constants, named through the checked aliases of `checks`.

use proc_macro2::TokenStream;
use quote::quote;

use super::checks;
use crate::ast::{Entity, Hole, KeyTemplate, Part};
use crate::attr::entity::Call;
use crate::name;

/// The `Described` impl and the global-index checks, for the entity's
/// `const _: () = { … }`; `entity_where` is the `Entity` impl's where
/// clause.
pub(crate) fn described(model: &Entity<'_>, entity_where: &TokenStream) -> TokenStream {
    let ident = model.ident;
    let (impl_generics, ty_generics, _) = model.generics.split_for_impl();
    let rust_name = ident.to_string();
    let type_tag = model.type_tag().expect("checked: the entity has a type");
    let pk = template(model, model.pk());
    let sk = option(model.sk.as_ref().map(|sk| template(model, sk)));
    let indexes = model.indexes.iter().map(|index| {
        let path = super::checks::index_alias(index);
        let pk = template(model, index.pk());
        let sk = option(index.sk.as_ref().map(|sk| template(model, sk)));
        let when = option(index.when.as_ref().map(|call| {
            let text = call_text(call);
            quote!(#text)
        }));
        quote! {
            ::ddb_entity::shape::IndexShape {
                index: <#path as ::ddb_entity::Index>::SCHEMA,
                pk: #pk,
                sk: #sk,
                when: #when,
            }
        }
    });
    let fields = model.stored().map(|field| {
        let name = name::unraw(field.ident);
        let attribute = &field.attribute;
        let ty = crate::ast::type_string(field.ty);
        let optional = field.option_inner.is_some();
        quote! {
            ::ddb_entity::shape::FieldShape {
                name: #name,
                attribute: #attribute,
                ty: #ty,
                optional: #optional,
            }
        }
    });
    let flattened = model
        .fields
        .iter()
        .flatten()
        .any(|field| field.serde.flatten && !field.serde.skipped);
    // Reported at the index's name: `index = ByStatus` is what to change.
    let global_checks = model.indexes.iter().map(|index| {
        let path = super::checks::index_alias(index);
        quote_spanned_at(
            syn::spanned::Spanned::span(&index.path),
            quote! {
                const _: () = ::ddb_entity::__private::assert_global_index::<#path>();
            },
        )
    });
    quote! {
        #(#global_checks)*

        #[automatically_derived]
        impl #impl_generics ::ddb_entity::shape::Described for #ident #ty_generics #entity_where {
            fn shape() -> ::ddb_entity::shape::EntityShape {
                ::ddb_entity::shape::EntityShape {
                    rust_name: #rust_name,
                    type_tag: #type_tag,
                    pk: #pk,
                    sk: #sk,
                    indexes: ::std::vec![#(#indexes),*],
                    fields: ::std::vec![#(#fields),*],
                    flattened: #flattened,
                }
            }
        }
    }
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
        Some(value) => quote!(::core::option::Option::Some(#value)),
        None => quote!(::core::option::Option::None),
    }
}

/// `function(a, b)`, as written.
fn call_text(call: &Call) -> String {
    let function = quote::ToTokens::to_token_stream(&call.function)
        .to_string()
        .replace(' ', "");
    let args: Vec<String> = call.args.iter().map(name::unraw).collect();
    format!("{function}({})", args.join(", "))
}

fn template(model: &Entity<'_>, template: &KeyTemplate<'_>) -> TokenStream {
    let source = &template.source;
    let raw = template.raw;
    let segments = template.segments.iter().map(|segment| {
        let pieces = segment.iter().map(|part| match part {
            Part::Literal(text) => quote!(::ddb_entity::shape::Piece::Literal(#text)),
            Part::Hole(hole) => {
                let hole = hole_shape(model, hole);
                quote!(::ddb_entity::shape::Piece::Hole(#hole))
            }
            Part::Shard(shard) => {
                let count = shard.count;
                quote!(::ddb_entity::shape::Piece::Shard { count: #count })
            }
        });
        quote!(::std::vec![#(#pieces),*])
    });
    quote! {
        ::ddb_entity::shape::TemplateShape {
            source: #source,
            raw: #raw,
            segments: ::std::vec![#(#segments),*],
        }
    }
}

fn hole_shape(model: &Entity<'_>, hole: &Hole<'_>) -> TokenStream {
    let field = &hole.name;
    let ty = crate::ast::type_string(hole.ty());
    let width = option(hole.width.map(|width| quote!(#width)));
    let optional = hole.optional();
    let computed = hole.computed().is_some();
    let (fixed_len, cardinality) = if hole.raw {
        // A raw key attribute is any string, stored as it is.
        (
            quote!(::core::option::Option::None),
            quote!(::ddb_entity::key::Cardinality::Unbounded),
        )
    } else {
        let key_type = checks::key_type(model, hole);
        let fixed_len = match hole.width {
            Some(width) => quote!(::core::option::Option::Some(#width)),
            None => quote!(<#key_type as ::ddb_entity::key::KeyPart>::FIXED_LEN),
        };
        (
            fixed_len,
            quote!(<#key_type as ::ddb_entity::key::KeyPart>::CARDINALITY),
        )
    };
    quote! {
        ::ddb_entity::shape::HoleShape {
            field: #field,
            ty: #ty,
            width: #width,
            fixed_len: #fixed_len,
            cardinality: #cardinality,
            optional: #optional,
            computed: #computed,
        }
    }
}
