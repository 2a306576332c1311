//! `#[derive(KeyPart)]` for unit enums: each variant encodes to a fixed
//! string (see `ast::key_part::Variant::component`), decoded by exact
//! match; whether those strings sort and are prefix-free is computed here,
//! at compile time, from the strings themselves.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ast::KeyPart;

pub(crate) fn key_part(model: &KeyPart<'_>) -> TokenStream {
    let ident = model.ident;
    let (impl_generics, ty_generics, where_clause) = model.generics.split_for_impl();
    let variants: Vec<_> = model.variants.iter().map(|variant| variant.ident).collect();
    let names = model.components();
    let ordered = model.ordered();
    let prefix_free = model.prefix_free();
    let listed = names
        .iter()
        .map(|name| format!("`{name}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let expected = format!("{ident} (one of {listed})");
    let count = model.variants.len() as u64;
    quote! {
        #[automatically_derived]
        impl #impl_generics ::ddb_entity::key::KeyPart for #ident #ty_generics #where_clause {
            // Computed from the stored names: no name begins another's.
            const PREFIX_FREE: bool = #prefix_free;
            // Computed from the stored names: they sort as declared. When
            // they do not, a sort key of this type does not compile.
            const ORDERED: bool = #ordered;
            // A partition key of it alone is a hot partition per variant.
            const CARDINALITY: ::ddb_entity::key::Cardinality =
                ::ddb_entity::key::Cardinality::AtMost(#count);

            fn encode_key(
                &self,
                out: &mut ::std::string::String,
            ) -> ::core::result::Result<(), ::ddb_entity::key::KeyError> {
                out.push_str(match self {
                    #( Self::#variants => #names, )*
                });
                ::core::result::Result::Ok(())
            }
        }

        #[automatically_derived]
        impl #impl_generics ::ddb_entity::key::DecodeKeyPart for #ident #ty_generics #where_clause {
            fn decode_key(
                component: &::core::primitive::str,
            ) -> ::core::result::Result<Self, ::ddb_entity::key::KeyError> {
                match component {
                    #( #names => ::core::result::Result::Ok(Self::#variants), )*
                    _ => ::core::result::Result::Err(::ddb_entity::key::KeyError::malformed(#expected, component)),
                }
            }
        }
    }
}
