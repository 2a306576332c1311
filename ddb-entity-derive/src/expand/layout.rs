//! `Entity::LAYOUT`: the entity's templates as data (the runtime's
//! `ddb_entity::layout`), for the hot-partition lint and models of the
//! table. It mirrors the template IR: segments of literal, hole and shard
//! pieces.

use proc_macro2::TokenStream;
use quote::quote;

use super::checks;
use super::keys;
use crate::ast::{self, Entity, KeyTemplate, Part};

/// The `const LAYOUT` item of the `Entity` impl.
pub(super) fn layout(model: &Entity<'_>) -> TokenStream {
    let name = model.ident.to_string();
    let type_tag = model.type_tag().expect("checked: the entity has a type");
    let allow_hot = model.attrs.allow_hot.as_ref().map(syn::LitStr::value);
    let primary = key(
        model,
        quote!(::core::option::Option::None),
        model.pk(),
        model.sk.as_ref(),
        false,
        None,
        allow_hot,
    );
    let indexes = model.indexes.iter().map(|index| {
        let path = super::checks::index_alias(index);
        let sparse = index.when.is_some() || index.holes().iter().any(|hole| hole.optional());
        let when = index.when.as_ref().map(call_text);
        key(
            model,
            quote!(::core::option::Option::Some(<#path as ::ddb_entity::Index>::SCHEMA)),
            index.pk(),
            index.sk.as_ref(),
            sparse,
            when,
            index.allow_hot.as_ref().map(syn::LitStr::value),
        )
    });
    quote! {
        const LAYOUT: &'static ::ddb_entity::layout::EntityLayout =
            &::ddb_entity::layout::EntityLayout::new(#name, #type_tag, &[#primary, #(#indexes),*]);
    }
}

fn key(
    model: &Entity<'_>,
    index: TokenStream,
    pk: &KeyTemplate<'_>,
    sk: Option<&KeyTemplate<'_>>,
    sparse: bool,
    when: Option<String>,
    allow_hot: Option<String>,
) -> TokenStream {
    let partition = template(model, pk);
    let sort = option(sk.map(|sk| template(model, sk)));
    let when = option(when.map(|when| quote!(#when)));
    let allow_hot = option(allow_hot.map(|reason| quote!(#reason)));
    quote! {
        ::ddb_entity::layout::KeyLayout::new(#index, #partition, #sort, #sparse, #when, #allow_hot)
    }
}

fn option(value: Option<TokenStream>) -> TokenStream {
    match value {
        Some(value) => quote!(::core::option::Option::Some(#value)),
        None => quote!(::core::option::Option::None),
    }
}

fn template(model: &Entity<'_>, template: &KeyTemplate<'_>) -> TokenStream {
    let source = &template.source;
    let raw = template.raw;
    let segments = template.segments.iter().map(|segment| {
        let pieces = segment.iter().map(|part| match part {
            Part::Literal(text) => quote!(::ddb_entity::layout::Piece::Literal(#text)),
            Part::Shard(shard) => {
                let spec = keys::shard_spec(shard);
                quote!(::ddb_entity::layout::Piece::Shard(#spec))
            }
            Part::Hole(hole) => {
                let field = &hole.name;
                let type_name = ast::type_string(hole.ty());
                let ty = checks::key_type(model, hole);
                let (width, part) = match hole.width {
                    Some(width) => {
                        // Checked at the template: 1 to 39.
                        let digits = width as u8;
                        (
                            quote!(::core::option::Option::Some(#digits)),
                            quote!(::ddb_entity::__private::Padded<#width, #ty>),
                        )
                    }
                    None => (quote!(::core::option::Option::None), quote!(#ty)),
                };
                let optional = hole.optional();
                let computed = hole.computed().is_some();
                quote! {
                    ::ddb_entity::layout::Piece::Hole(::ddb_entity::layout::HoleLayout::new(
                        #field,
                        #type_name,
                        #width,
                        <#part as ::ddb_entity::__private::KeyPart>::CARDINALITY,
                        #optional,
                        #computed,
                    ))
                }
            }
        });
        quote!(&[#(#pieces),*])
    });
    quote!(::ddb_entity::layout::TemplateLayout::new(#source, #raw, &[#(#segments),*]))
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
