//! `#[derive(Collection)]`: `Collection` (and `Default`) for a struct of
//! `Option<E>`/`Vec<E>` fields, `CollectionItem` for an enum of `Variant(E)`,
//! and the compile-time checks only the type system can make.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::Ident;
use syn::spanned::Spanned;

use crate::ast::{self, Collection, Holds, Member, Shape};

pub(crate) fn collection(model: &Collection<'_>) -> TokenStream {
    let members = checked_members(model);
    let checks = compile_time_checks(model);
    let body = match model.shape {
        Shape::Struct => struct_collection(model),
        Shape::Enum => enum_collection(model),
        Shape::Other => unreachable!("checked: a collection is a struct or an enum"),
    };
    quote! {
        const _: () = {
            #members
            #checks
            #body
        };
    }
}

/// Each member's entity type through a check that it is an entity,
/// reported at the member, once; when it is not, the alias is an error
/// type and nothing that uses it reports again (see `checks.rs`).
fn checked_members(model: &Collection<'_>) -> TokenStream {
    let aliases = model.members.iter().enumerate().map(|(position, member)| {
        let ty = member.entity;
        let alias = format_ident!("__Member{}", position);
        let check = quote_spanned!(ty.span()=> __entity::<#ty>(););
        quote! {
            type #alias = <[(); { #check 0 }] as __Checked<#ty>>::Ty;
        }
    });
    quote! {
        const fn __entity<E: ::ddb_entity::Entity>() {}
        pub trait __Checked<T: ?::core::marker::Sized> {
            type Ty: ?::core::marker::Sized;
        }
        impl<T: ?::core::marker::Sized> __Checked<T> for [(); 0] {
            type Ty = T;
        }
        #(#aliases)*
    }
}

/// `<E as ::ddb_entity::Entity>` of the member's checked type.
fn entity(model: &Collection<'_>, member: &Member<'_>) -> TokenStream {
    let alias = alias(model, member);
    quote!(<#alias as ::ddb_entity::Entity>)
}

/// The member's checked type (`__MemberN`).
fn alias(model: &Collection<'_>, member: &Member<'_>) -> TokenStream {
    let position = model
        .members
        .iter()
        .position(|m| std::ptr::eq(m, member))
        .expect("a member of this collection");
    let alias = format_ident!("__Member{}", position);
    quote!(#alias)
}

/// `type Table`, `NAME` and `TYPES`, shared by both traits.
fn associated_items(model: &Collection<'_>) -> TokenStream {
    let first = entity(model, &model.members[0]);
    let table = quote!(type Table = #first::Table;);
    let name = model.ident.to_string();
    let types = model.members.iter().map(|member| {
        let entity = entity(model, member);
        quote!(#entity::TYPE_TAG)
    });
    let members = (0..model.members.len()).map(|position| {
        let alias = format_ident!("__Member{}", position);
        quote!(::ddb_entity::Member::of::<#alias>())
    });
    quote! {
        #table
        const NAME: &'static ::core::primitive::str = #name;
        const TYPES: &'static [&'static ::core::primitive::str] = &[#(#types),*];
        const MEMBERS: &'static [::ddb_entity::Member] = &[#(#members),*];
    }
}

fn struct_collection(model: &Collection<'_>) -> TokenStream {
    let ident = model.ident;
    let (impl_generics, ty_generics, where_clause) = model.generics.split_for_impl();
    let associated = associated_items(model);
    // One route per member, decoding with `decode` (an SDK item's, or an
    // item tree's), for `push_item` and `push_tree` alike.
    let routes = |decode: &dyn Fn(&TokenStream) -> TokenStream| {
        model
            .members
            .iter()
            .map(|member| {
                let field = member.ident;
                let entity = entity(model, member);
                let decoded = decode(&alias(model, member));
                let store = match member.holds {
                    Holds::Many => quote! {
                        ::std::vec::Vec::push(&mut self.#field, #decoded);
                    },
                    Holds::One | Holds::Variant => quote! {
                        if ::core::option::Option::is_some(&self.#field) {
                            return ::core::result::Result::Err(::ddb_entity::__private::more_than_one(
                                <Self as ::ddb_entity::Collection>::NAME,
                                #entity::RUST_NAME,
                            ));
                        }
                        self.#field = ::core::option::Option::Some(#decoded);
                    },
                };
                quote! {
                    if __entity_type == #entity::TYPE_TAG {
                        #store
                        return ::core::result::Result::Ok(true);
                    }
                }
            })
            .collect::<Vec<_>>()
    };
    let item_routes =
        routes(&|entity| quote!(<#entity as ::ddb_entity::Entity>::from_item(__item)?));
    let tree_routes =
        routes(&|entity| quote!(::ddb_entity::__private::from_tree::<#entity>(__tree)?));
    let empty = model.members.iter().map(|member| {
        let field = member.ident;
        match member.holds {
            Holds::Many => quote!(#field: ::std::vec::Vec::new()),
            Holds::One | Holds::Variant => quote!(#field: ::core::option::Option::None),
        }
    });
    quote! {
        #[automatically_derived]
        impl #impl_generics ::ddb_entity::Collection for #ident #ty_generics #where_clause {
            #associated

            fn push_item(
                &mut self,
                __entity_type: &::core::primitive::str,
                __item: ::ddb_entity::Item,
            ) -> ::ddb_entity::Result<::core::primitive::bool> {
                #(#item_routes)*
                ::core::result::Result::Ok(false)
            }

            const READS_BYTES: ::core::primitive::bool = true;

            fn push_tree(
                &mut self,
                __entity_type: &::core::primitive::str,
                __tree: ::ddb_entity::__private::ItemTree<'_>,
            ) -> ::ddb_entity::Result<::core::primitive::bool> {
                #(#tree_routes)*
                ::core::result::Result::Ok(false)
            }
        }

        /// Empty: no item pushed yet.
        #[automatically_derived]
        impl #impl_generics ::core::default::Default for #ident #ty_generics #where_clause {
            fn default() -> Self {
                Self { #(#empty),* }
            }
        }
    }
}

fn enum_collection(model: &Collection<'_>) -> TokenStream {
    let ident = model.ident;
    let (impl_generics, ty_generics, where_clause) = model.generics.split_for_impl();
    let associated = associated_items(model);
    let routes = |decode: &dyn Fn(&TokenStream) -> TokenStream| {
        model
            .members
            .iter()
            .map(|member| {
                let variant = member.ident;
                let entity = entity(model, member);
                let decoded = decode(&alias(model, member));
                quote! {
                    if __entity_type == #entity::TYPE_TAG {
                        return ::core::result::Result::Ok(::core::option::Option::Some(
                            Self::#variant(#decoded),
                        ));
                    }
                }
            })
            .collect::<Vec<_>>()
    };
    let item_routes =
        routes(&|entity| quote!(<#entity as ::ddb_entity::Entity>::from_item(__item)?));
    let tree_routes =
        routes(&|entity| quote!(::ddb_entity::__private::from_tree::<#entity>(__tree)?));
    quote! {
        #[automatically_derived]
        impl #impl_generics ::ddb_entity::CollectionItem for #ident #ty_generics #where_clause {
            #associated

            fn from_typed_item(
                __entity_type: &::core::primitive::str,
                __item: ::ddb_entity::Item,
            ) -> ::ddb_entity::Result<::core::option::Option<Self>> {
                #(#item_routes)*
                ::core::result::Result::Ok(::core::option::Option::None)
            }

            const READS_BYTES: ::core::primitive::bool = true;

            fn from_typed_tree(
                __entity_type: &::core::primitive::str,
                __tree: ::ddb_entity::__private::ItemTree<'_>,
            ) -> ::ddb_entity::Result<::core::option::Option<Self>> {
                #(#tree_routes)*
                ::core::result::Result::Ok(::core::option::Option::None)
            }
        }
    }
}

/// One const item per check (const evaluation stops at its first panic),
/// each spanned at the member it is about: every member is an entity of the
/// first member's table, and no two members share an entity type (items
/// are routed by it).
fn compile_time_checks(model: &Collection<'_>) -> TokenStream {
    let first = entity(model, &model.members[0]);
    let tables = model.members.iter().enumerate().skip(1).map(|(position, member)| {
        // The type argument spanned at the member's type, all of its
        // tokens: rustc reports the unmet bound there.
        let span = member.entity.span();
        let alias = Ident::new(&format!("__Member{position}"), span);
        let entity = quote_spanned!(span=> <#alias as ::ddb_entity::Entity>);
        quote_spanned! {span=>
            const _: () = ::ddb_entity::__private::same_table::<#entity::Table, #first::Table>();
        }
    });
    let mut distinct = Vec::new();
    for (position, later) in model.members.iter().enumerate() {
        for earlier in &model.members[..position] {
            let (a, b) = (entity(model, earlier), entity(model, later));
            // `assert!` reads its message as a format string: braces doubled.
            let message = format!(
                "`{}` and `{}` have the same entity type (`Entity::TYPE_TAG`, the value of the type attribute), so their items could not be told apart: give one of them another `type = \"…\"` in its #[entity(…)] (without one, an entity's type is its struct name in snake case)",
                ast::type_string(earlier.entity),
                ast::type_string(later.entity),
            )
            .replace('{', "{{")
            .replace('}', "}}");
            let span = later.entity.span();
            distinct.push(quote_spanned! {span=>
                const _: () = ::core::assert!(
                    !::ddb_entity::__private::has_duplicate_type(&[#a::TYPE_TAG, #b::TYPE_TAG]),
                    #message
                );
            });
            // On a table typed by key, the keys are the only type there is.
            let message = format!(
                "`{}` and `{}` have the same key templates but for the names of their holes (a raw key attribute, `pk = field`, is a hole: any string), and their table is typed by key (`typed_by: Key`): no stored key could tell their items apart; make the literal text of one template differ, or declare `typed_by: KeyAndAttribute` in `table!` and store a type attribute",
                ast::type_string(earlier.entity),
                ast::type_string(later.entity),
            )
            .replace('{', "{{")
            .replace('}', "}}");
            distinct.push(quote_spanned! {span=>
                const _: () = ::core::assert!(
                    !(::ddb_entity::__private::typed_by_key::<#first::Table>()
                        && ::ddb_entity::__private::same_key_shape(#a::LAYOUT, #b::LAYOUT)),
                    #message
                );
            });
        }
    }
    quote! {
        #(#tables)*
        #(#distinct)*
    }
}
