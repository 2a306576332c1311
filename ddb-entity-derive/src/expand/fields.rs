//! `Entity::fields()`: a typed handle per stored field, for updates.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::ast::{Entity, Role};
use crate::name;

/// The `fields()` constructor (for the inherent impl) and the
/// `{Entity}Fields` struct (at module level).
pub(super) fn fields(model: &Entity<'_>) -> (TokenStream, TokenStream) {
    let ident = model.ident;
    let vis = model.vis;
    let fields_ty = format_ident!("{}Fields", ident);
    let generics = model.generics;
    let (_, ty_generics, where_clause) = generics.split_for_impl();
    let params = &generics.params;
    let role = |field: &crate::ast::Field<'_>| match field.role {
        Role::None => quote!(__ddb::field::Stored),
        Role::Primary => quote!(__ddb::field::PrimaryKeyPart),
        Role::KeyOnly => quote!(__ddb::field::KeyOnly),
        Role::Index => quote!(__ddb::field::IndexKeyPart),
    };
    let declarations = model.stored().map(|field| {
        let name = field.ident;
        let ty = &field.ty;
        let role = role(field);
        let doc = match field.role {
            Role::KeyOnly => format!(
                "`{ident}::{}`, stored in the key only (read back from it).",
                name::unraw(name)
            ),
            _ => format!(
                "`{ident}::{}`, stored as `{}`.",
                name::unraw(name),
                field.attribute
            ),
        };
        quote! {
            #[doc = #doc]
            pub #name: __ddb::Field<#ident #ty_generics, #ty, #role>
        }
    });
    let values = model.stored().map(|field| {
        let name = field.ident;
        let rust = name::unraw(name);
        let attribute = &field.attribute;
        quote! {
            #name: __ddb::Field::new(#rust, #attribute)
        }
    });
    let struct_doc =
        format!("The stored fields of `{ident}`, for typed updates: `{ident}::fields()`.");
    let fn_doc = format!("The stored fields of `{ident}`, to name in an update.");
    // Debug as derived, written by the library from `LAYOUT`'s fields (the
    // same list, in the same order) where the entity has no parameters.
    let (derive_debug, debug) = if params.is_empty() {
        let name = fields_ty.to_string();
        let debug = quote! {
            #[automatically_derived]
            impl ::core::fmt::Debug for #fields_ty {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    __p::debug_fields(f, #name, <#ident as __ddb::Entity>::LAYOUT)
                }
            }
        };
        (TokenStream::new(), debug)
    } else {
        (quote!(#[derive(Debug)]), TokenStream::new())
    };
    // Copied as its fields are, whatever the entity's parameters: not
    // derived, which would bound them and check each field's type.
    let item = quote! {
        #[doc = #struct_doc]
        #derive_debug
        #vis struct #fields_ty<#params> #where_clause {
            #(#declarations,)*
        }
        #debug
        #[automatically_derived]
        impl<#params> ::core::clone::Clone for #fields_ty #ty_generics #where_clause {
            fn clone(&self) -> Self {
                *self
            }
        }
        #[automatically_derived]
        impl<#params> ::core::marker::Copy for #fields_ty #ty_generics #where_clause {}
    };
    let constructor = quote! {
        #[doc = #fn_doc]
        #vis const fn fields() -> #fields_ty #ty_generics {
            #fields_ty { #(#values,)* }
        }
    };
    (constructor, item)
}
