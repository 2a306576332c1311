//! What a derive emits when its checks fail: the errors, and a stand-in
//! for everything the derive would have generated, so that code using the
//! type compiles against the stand-in and the errors are the only ones.
//!
//! thiserror's `fallback.rs` emits the trait impl with stub bodies. An
//! entity is used through more than its trait (`Order::key(…)`,
//! `Order::sk().placed(…)`, `Order::fields().total`), so the stand-in also
//! has the key functions, with one parameter per hole the templates name.
//! Their parameters and results are one type, `Broken`, which is the
//! derive's errors themselves: an array whose length is a block holding
//! every `compile_error!`. The compiler reports each error once, where the
//! derive points it, and treats the type as an error type, so nothing
//! built on it (an argument passed, a `?`, a method called on a result, a
//! table compared) is reported again.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use crate::ast::{Collection, Entity, KeyPart, KeyTemplate, Shape};
use crate::name;

/// `type Broken = [(); { compile_error!{…} … 0 }];`
fn broken(errors: &syn::Error) -> (Ident, TokenStream) {
    let ident = format_ident!("__DeriveFailed");
    let errors = errors.to_compile_error();
    let item = quote! {
        #[allow(dead_code, unused_braces)]
        type #ident = [(); { #errors 0 }];
    };
    (ident, item)
}

pub(crate) fn entity(entity: &Entity<'_>, errors: syn::Error) -> TokenStream {
    let (broken, broken_item) = broken(&errors);
    let ident = entity.ident;
    let vis = entity.vis;
    let (impl_generics, ty_generics, where_clause) = entity.generics.split_for_impl();
    let entity_where = if entity.generics.params.is_empty() {
        quote!(#where_clause)
    } else {
        let predicates = where_clause.map(|w| &w.predicates);
        quote! {
            where
                Self: ::ddb_entity::__private::serde::Serialize
                    + ::ddb_entity::__private::serde::de::DeserializeOwned
                    + ::core::marker::Send
                    + ::core::marker::Sync
                    + 'static,
                #predicates
        }
    };
    let table = match &entity.attrs.table {
        Some(table) => quote!(#table),
        None => quote!(#broken),
    };
    let name = ident.to_string();
    let type_tag = entity.type_tag();
    // One `_: Broken` per distinct hole of `templates`.
    let params = |templates: &[Option<&KeyTemplate<'_>>]| {
        let mut names: Vec<&str> = Vec::new();
        for hole in templates.iter().flatten().flat_map(|t| t.holes()) {
            if !names.contains(&hole.name.as_str()) {
                names.push(&hole.name);
            }
        }
        let params = names.iter().map(|_| quote!(_: #broken));
        quote!(#(#params),*)
    };
    let function = |name: Ident, params: TokenStream| {
        quote! {
            /// Unavailable: `#[derive(Entity)]` failed.
            #vis fn #name(#params) -> #broken {
                ::core::unreachable!()
            }
        }
    };
    let mut functions = vec![
        function(
            format_ident!("key"),
            params(&[entity.pk.as_ref(), entity.sk.as_ref()]),
        ),
        function(format_ident!("partition"), params(&[entity.pk.as_ref()])),
        function(format_ident!("sk"), TokenStream::new()),
        function(format_ident!("fields"), TokenStream::new()),
    ];
    for (position, index) in entity.indexes.iter().enumerate() {
        // A repeated index (reported) would define its functions twice.
        if entity.indexes[..position]
            .iter()
            .any(|earlier| earlier.name == index.name)
        {
            continue;
        }
        let snake = name::snake(&index.name);
        let partition = format_ident!("{snake}_partition");
        functions.push(function(partition, params(&[index.pk.as_ref()])));
        if index.sk.is_some() {
            functions.push(function(format_ident!("{snake}_sk"), TokenStream::new()));
        }
    }
    // `version = "…"` unlocks version-checked writes: keep them compiling.
    let versioned = entity.attrs.version.as_ref().map(|_| {
        quote! {
            #[automatically_derived]
            impl #impl_generics ::ddb_entity::Versioned for #ident #ty_generics #entity_where {}
        }
    });
    quote! {
        const _: () = {
            #broken_item

            #[automatically_derived]
            impl #impl_generics ::ddb_entity::Entity for #ident #ty_generics #entity_where {
                type Table = #table;
                const RUST_NAME: &'static ::core::primitive::str = #name;
                const TYPE_TAG: &'static ::core::primitive::str = #type_tag;
                const INDEXES: &'static [::ddb_entity::IndexSchema] = &[];
                // Described, though with no key: a model listing the
                // broken entity adds no error of its own.
                const LAYOUT: &'static ::ddb_entity::layout::EntityLayout =
                    ::ddb_entity::__private::BROKEN_LAYOUT;

                fn primary_key(&self) -> ::ddb_entity::Result<::ddb_entity::Key<Self>> {
                    ::core::unreachable!()
                }

                fn index_entries(
                    &self,
                ) -> ::ddb_entity::Result<::std::vec::Vec<::ddb_entity::IndexEntry>> {
                    ::core::unreachable!()
                }
            }

            #[automatically_derived]
            impl #impl_generics ::ddb_entity::__private::EntityHooks for #ident #ty_generics #entity_where {
                fn index_changes(
                    _: &::ddb_entity::Key<Self>,
                    _: &::ddb_entity::__private::Changes,
                ) -> ::ddb_entity::Result<::std::vec::Vec<::ddb_entity::__private::IndexChange>> {
                    ::core::unreachable!()
                }
            }

            #versioned

            #[automatically_derived]
            impl #impl_generics #ident #ty_generics #where_clause {
                #(#functions)*
            }
        };
    }
}

pub(crate) fn key_part(key_part: &KeyPart<'_>, errors: syn::Error) -> TokenStream {
    let (_, broken_item) = broken(&errors);
    let ident = key_part.ident;
    let (impl_generics, ty_generics, where_clause) = key_part.generics.split_for_impl();
    quote! {
        const _: () = {
            #broken_item

            #[automatically_derived]
            impl #impl_generics ::ddb_entity::key::KeyPart for #ident #ty_generics #where_clause {
                fn encode_key(
                    &self,
                    _: &mut ::std::string::String,
                ) -> ::core::result::Result<(), ::ddb_entity::key::KeyError> {
                    ::core::unreachable!()
                }
            }

            #[automatically_derived]
            impl #impl_generics ::ddb_entity::key::DecodeKeyPart for #ident #ty_generics #where_clause {
                fn decode_key(
                    _: &::core::primitive::str,
                ) -> ::core::result::Result<Self, ::ddb_entity::key::KeyError> {
                    ::core::unreachable!()
                }
            }
        };
    }
}

pub(crate) fn collection(collection: &Collection<'_>, errors: syn::Error) -> TokenStream {
    let (broken, broken_item) = broken(&errors);
    let ident = collection.ident;
    let (impl_generics, ty_generics, where_clause) = collection.generics.split_for_impl();
    let send = if collection.generics.params.is_empty() {
        quote!(#where_clause)
    } else {
        let predicates = where_clause.map(|w| &w.predicates);
        quote!(where Self: ::core::marker::Send, #predicates)
    };
    let name = ident.to_string();
    let associated = quote! {
        type Table = #broken;
        const NAME: &'static ::core::primitive::str = #name;
        const TYPES: &'static [&'static ::core::primitive::str] = &[];
    };
    let impls = match collection.shape {
        Shape::Enum => quote! {
            #[automatically_derived]
            impl #impl_generics ::ddb_entity::CollectionItem for #ident #ty_generics #send {
                #associated

                fn from_typed_item(
                    _: &::core::primitive::str,
                    _: ::ddb_entity::Item,
                ) -> ::ddb_entity::Result<::core::option::Option<Self>> {
                    ::core::unreachable!()
                }
            }
        },
        Shape::Struct | Shape::Other => quote! {
            #[automatically_derived]
            impl #impl_generics ::ddb_entity::Collection for #ident #ty_generics #send {
                #associated

                fn push_item(
                    &mut self,
                    _: &::core::primitive::str,
                    _: ::ddb_entity::Item,
                ) -> ::ddb_entity::Result<::core::primitive::bool> {
                    ::core::unreachable!()
                }
            }

            #[automatically_derived]
            impl #impl_generics ::core::default::Default for #ident #ty_generics #where_clause {
                fn default() -> Self {
                    ::core::unreachable!()
                }
            }
        },
    };
    quote! {
        const _: () = {
            #broken_item
            #impls
        };
    }
}
