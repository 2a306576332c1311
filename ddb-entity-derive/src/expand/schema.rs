//! Schema versions: the version an entity stores, the attributes its
//! fields are stored under, and the upcast chain from its earlier shapes.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::ast::Entity;

/// The `EntityHooks` items of `schema_version = N`: `SCHEMA_VERSION` and a `decode_body` that reads
/// version N directly and each earlier version listed in `upcast` through
/// `From` conversions up the chain.
pub(super) fn hooks(model: &Entity<'_>) -> TokenStream {
    let Some(lit) = &model.attrs.schema_version else {
        return TokenStream::new();
    };
    // Checked: a u32 from 1, with fewer earlier shapes than versions.
    let current: u64 = lit.base10_parse().unwrap_or(1);
    let name = model.ident.to_string();
    let shapes: Vec<&syn::Type> = model
        .attrs
        .upcast
        .iter()
        .flat_map(|upcast| upcast.types.iter())
        // `_`: an old version no longer read.
        .filter(|shape| !matches!(shape, syn::Type::Infer(_)))
        .collect();
    let oldest = current - shapes.len() as u64;
    let arms = shapes.iter().enumerate().map(|(position, shape)| {
        let version = oldest + position as u64;
        // Each step is `From<previous> for next`, reported at the type
        // that lacks it.
        let steps = shapes[position + 1..].iter().map(|next| {
            quote_spanned! {next.span()=>
                let value: #next = ::core::convert::From::from(value);
            }
        });
        // The conversion into the entity is from the newest earlier shape.
        let newest = shapes.last().unwrap_or(shape);
        let last = quote_spanned! {newest.span()=>
            __p::Ok(::core::convert::From::from(value))
        };
        quote! {
            #version => {
                let value: #shape = body.decode()?;
                #(#steps)*
                #last
            }
        }
    });
    quote! {
        const SCHEMA_VERSION: __p::Option<__p::u64> =
            __p::Some(#current);

        fn decode_body(
            version: __p::u64,
            body: __p::StoredBody,
        ) -> ::core::result::Result<Self, __ddb::codec::DecodeError> {
            match version {
                #current => body.decode(),
                #(#arms)*
                other => __p::Err(
                    __p::unknown_schema_version(#name, other, #oldest, #current),
                ),
            }
        }
    }
}
