//! `#[derive(Entity)]`: the `Entity` impl, key functions and compile-time
//! checks against the table declaration.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};

use super::keys::{self, SortKeyBuilder};
use crate::check::{EntityModel, HoleModel, IndexModel};

pub(crate) fn entity(model: &EntityModel<'_>) -> TokenStream {
    let ident = model.ident;
    let vis = model.vis;
    let table = &model.table;
    let (impl_generics, ty_generics, where_clause) = model.generics.split_for_impl();
    let primary = quote!(::ddb_entity::Primary<#table>);
    let result = quote!(::ddb_entity::Result);

    // Whole primary key and primary partition.
    let key_params = keys::params([&model.pk, &model.sk]);
    let key_param_list = keys::param_list(&key_params);
    let pk_params = keys::params([&model.pk]);
    let pk_param_list = keys::param_list(&pk_params);
    let pk_buf = format_ident!("__pk");
    let sk_buf = format_ident!("__sk");
    let name = ident.to_string();
    let fill_pk = keys::fill(&pk_buf, &model.pk);
    let fill_sk = keys::fill(&sk_buf, &model.sk);
    let (pk_source, sk_source) = (&model.pk.source, &model.sk.source);
    let key_doc = format!(
        "The primary key of the `{ident}` with these key fields: `{pk_source}` / `{sk_source}`."
    );
    let partition_doc = format!(
        "The partition `{pk_source}`: where a Query for `{ident}` items (and every other entity \
         type sharing this partition template) starts."
    );

    let (sk_constructor, sk_items) = SortKeyBuilder {
        model,
        constructor: format_ident!("sk"),
        stage: format_ident!("{}Sk", ident),
        index: primary.clone(),
        template: &model.sk,
        what: "in the table".to_owned(),
    }
    .expand();

    let index_fns = model
        .indexes
        .iter()
        .map(|index| index_functions(model, index));
    let (index_constructors, index_items): (Vec<_>, Vec<_>) = index_fns.unzip();

    let self_args = key_params.iter().map(|hole| self_arg(hole));
    let index_schemas = model.indexes.iter().map(|index| {
        let path = &index.path;
        quote!(<#path as ::ddb_entity::Index>::SCHEMA)
    });
    let entries = model.indexes.iter().map(index_entry);
    let entry_count = model.indexes.len();
    let type_name = &model.type_name;
    let checks = compile_time_checks(model);
    let timestamps = timestamps(model);
    let version = model.version.as_ref().map(|(field, ty, attribute)| {
        quote! {
            const VERSION_ATTRIBUTE: ::core::option::Option<&'static str> =
                ::core::option::Option::Some(#attribute);

            fn version(&self) -> u64 {
                <#ty as ::ddb_entity::__private::VersionNumber>::to_u64(self.#field)
            }
        }
    });
    let (fields_fn, fields_item) = super::fields::fields(model);
    let index_changes = super::update::index_changes(model);
    let serde_bounds = if model.generics.params.is_empty() {
        quote!()
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
    // A generic entity's key functions build `Key<Self>`, which needs
    // `Self: Entity`: only for parameters that make it one.
    let inherent_where = if model.generics.params.is_empty() {
        quote!(#where_clause)
    } else {
        let predicates = where_clause.map(|w| &w.predicates);
        quote!(where Self: ::ddb_entity::Entity, #predicates)
    };
    let entity_where = if model.generics.params.is_empty() {
        quote!(#where_clause)
    } else {
        serde_bounds
    };
    let versioned = model.version.as_ref().map(|_| {
        quote! {
            impl #impl_generics ::ddb_entity::Versioned for #ident #ty_generics #entity_where {}
        }
    });

    quote! {
        #checks

        impl #impl_generics #ident #ty_generics #inherent_where {
            #[doc = #key_doc]
            #vis fn key(#key_param_list) -> #result<::ddb_entity::Key<Self>> {
                let mut #pk_buf = ::ddb_entity::__private::KeyWriter::new(#name);
                #fill_pk
                let mut #sk_buf = ::ddb_entity::__private::KeyWriter::new(#name);
                #fill_sk
                ::ddb_entity::Key::new(#pk_buf.finish_partition()?, #sk_buf.finish_sort()?)
            }

            #[doc = #partition_doc]
            #vis fn partition(#pk_param_list) -> #result<::ddb_entity::Partition<#primary>> {
                let mut #pk_buf = ::ddb_entity::__private::KeyWriter::new(#name);
                #fill_pk
                ::ddb_entity::Partition::new(#pk_buf.finish_partition()?)
            }

            #sk_constructor
            #(#index_constructors)*
            #fields_fn
        }

        #fields_item
        #sk_items
        #(#index_items)*

        #[automatically_derived]
        impl #impl_generics ::ddb_entity::Entity for #ident #ty_generics #entity_where {
            type Table = #table;
            const RUST_NAME: &'static str = #name;
            const TYPE_TAG: &'static str = #type_name;
            const INDEXES: &'static [::ddb_entity::IndexSchema] = &[#(#index_schemas),*];

            fn primary_key(&self) -> #result<::ddb_entity::Key<Self>> {
                Self::key(#(#self_args),*)
            }

            fn index_entries(&self) -> #result<::std::vec::Vec<::ddb_entity::IndexEntry>> {
                #[allow(unused_mut)]
                let mut entries = ::std::vec::Vec::with_capacity(#entry_count);
                #(#entries)*
                ::core::result::Result::Ok(entries)
            }
        }

        #[automatically_derived]
        impl #impl_generics ::ddb_entity::__private::EntityHooks for #ident #ty_generics #entity_where {
            #version

            #timestamps

            // Primary-key fields are parsed back from the key for every
            // index that reuses them; not every index needs every one.
            #[allow(unused_variables)]
            fn index_changes(
                key: &::ddb_entity::Key<Self>,
                changes: &::ddb_entity::__private::Changes,
            ) -> #result<::std::vec::Vec<::ddb_entity::__private::IndexChange>> {
                #index_changes
            }
        }

        #versioned
    }
}

/// `field` from `&self`: by reference, or by value for fixed-width
/// integers (which are `Copy`).
fn self_arg(hole: &HoleModel) -> TokenStream {
    let field = &hole.field;
    match hole.width {
        Some(_) => quote!(self.#field),
        None => quote!(&self.#field),
    }
}

/// `gsi1_partition(…)` and `gsi1_sk()` in the inherent impl, plus the
/// stage type at module level.
fn index_functions(model: &EntityModel<'_>, index: &IndexModel) -> (TokenStream, TokenStream) {
    let vis = model.vis;
    let ident = model.ident;
    let path = &index.path;
    let snake = keys::snake(&index.name);
    let partition_fn = format_ident!("{}_partition", snake);
    let params = keys::params([&index.pk]);
    let param_list = keys::param_list(&params);
    let buf = format_ident!("__pk");
    let fill = keys::fill(&buf, &index.pk);
    let source = &index.pk.source;
    let index_name = &index.name;
    let entity_name = ident.to_string();
    let doc = format!(
        "The partition `{source}` of index `{index_name}`: where a Query for `{ident}` items on that index starts."
    );
    let partition = quote! {
        #[doc = #doc]
        #vis fn #partition_fn(#param_list) -> ::ddb_entity::Result<::ddb_entity::Partition<#path>> {
            let mut #buf = ::ddb_entity::__private::KeyWriter::new(#entity_name);
            #fill
            ::ddb_entity::Partition::new(#buf.finish_index_partition::<#path>()?)
        }
    };
    let Some(sk) = &index.sk else {
        return (partition, TokenStream::new());
    };
    let (sk_constructor, sk_items) = SortKeyBuilder {
        model,
        constructor: format_ident!("{}_sk", snake),
        stage: format_ident!("{}{}Sk", ident, index.name),
        index: quote!(#path),
        template: sk,
        what: format!("in index `{index_name}`"),
    }
    .expand();
    (quote!(#partition #sk_constructor), sk_items)
}

/// Pushes this value's `IndexEntry` for `index`: its key, or `None` when an
/// `Option` hole is `None` (the item stays out of the sparse index).
fn index_entry(index: &IndexModel) -> TokenStream {
    let path = &index.path;
    let arg = |hole: &HoleModel| {
        let field = &hole.field;
        match (hole.optional, hole.width) {
            (true, Some(_)) => quote!(*#field),
            (true, None) => quote!(#field),
            (false, _) => self_arg(hole),
        }
    };
    let key = keys::index_key(index, arg);
    let build = quote!(::core::option::Option::Some(#key));
    let sparse: Vec<&HoleModel> = index
        .holes()
        .into_iter()
        .filter(|hole| hole.optional)
        .collect();
    let key = if sparse.is_empty() {
        build
    } else {
        let fields: Vec<_> = sparse.iter().map(|hole| &hole.field).collect();
        quote! {
            match (#(&self.#fields,)*) {
                (#(::core::option::Option::Some(#fields),)*) => #build,
                _ => ::core::option::Option::None,
            }
        }
    };
    quote! {
        entries.push(::ddb_entity::IndexEntry {
            index: <#path as ::ddb_entity::Index>::SCHEMA,
            key: #key,
        });
    }
}

/// Checks against the table declaration that only the type system can make:
/// the index belongs to the entity's table, its sort key matches the
/// template, and declared widths fit the integer type.
fn compile_time_checks(model: &EntityModel<'_>) -> TokenStream {
    let table = &model.table;
    let index_checks = model.indexes.iter().map(|index| {
        let path = &index.path;
        let name = &index.name;
        let has_sk = index.sk.is_some();
        let not = (!has_sk).then(|| quote!(!));
        let message = if has_sk {
            format!("index `{name}` has no sort key in its `table!` declaration: remove `sk = …` from #[entity(index = {name}, …)] or declare the index's sort_key")
        } else {
            format!("index `{name}` has a sort key in its `table!` declaration: add `sk = \"…\"` to #[entity(index = {name}, …)]")
        };
        // One const item per check: const evaluation stops at its first panic.
        quote! {
            const _: () = ::ddb_entity::__private::index_of_table::<#path, #table>();
            const _: () = ::core::assert!(
                #not ::ddb_entity::__private::index_has_sort_key::<#path>(),
                #message
            );
        }
    });
    // Const items cannot mention the entity's generic parameters.
    let holes: Vec<&HoleModel> = if model.generics.params.is_empty() {
        std::iter::once(&model.pk)
            .chain(std::iter::once(&model.sk))
            .chain(
                model
                    .indexes
                    .iter()
                    .flat_map(|i| std::iter::once(&i.pk).chain(i.sk.iter())),
            )
            .flat_map(|t| t.holes())
            .collect()
    } else {
        Vec::new()
    };
    // Stated on its own, at the hole, so a wrong field type reads as the
    // key trait's own message rather than as a builder's argument bound.
    let type_checks = holes.iter().map(|hole| {
        let ty = &hole.ty;
        quote_spanned! {hole.span=>
            const _: () = ::ddb_entity::__private::assert_key_part::<#ty>();
        }
    });
    let width_checks = holes.iter().filter_map(|hole| {
        let width = hole.width?;
        let ty = &hole.ty;
        let field = &hole.field;
        // `assert!` reads its message as a format string: braces doubled.
        let message = format!(
            "the key width of `{{{{{field}:{width}}}}}` is wider than its integer type can be; use a narrower width"
        );
        Some(quote! {
            const _: () = ::core::assert!(
                #width <= <#ty as ::ddb_entity::__private::PaddedInt>::MAX_DIGITS,
                #message
            );
        })
    });
    quote! {
        #(#index_checks)*
        #(#type_checks)*
        #(#width_checks)*
    }
}

/// `stamp` and `updated_at` for entities with maintained timestamps.
fn timestamps(model: &EntityModel<'_>) -> TokenStream {
    if model.created_at.is_none() && model.updated_at.is_none() {
        return TokenStream::new();
    }
    let name = model.ident.to_string();
    let value = |ty: &syn::Type| {
        quote! {
            ::ddb_entity::__private::timestamp::<#ty>(#name, now)?
        }
    };
    let stamp_updated = model.updated_at.as_ref().map(|(_, ty, attribute)| {
        let value = value(ty);
        quote!(item.insert(::std::string::String::from(#attribute), #value);)
    });
    let stamp_created = model.created_at.as_ref().map(|(field, ty, attribute)| {
        let value = value(ty);
        quote! {
            if ::ddb_entity::Timestamp::is_unset(&self.#field) {
                item.insert(::std::string::String::from(#attribute), #value);
            }
        }
    });
    let updated_at = match &model.updated_at {
        Some((_, ty, attribute)) => {
            let value = value(ty);
            quote!(::core::result::Result::Ok(::core::option::Option::Some((#attribute, #value))))
        }
        None => quote!(::core::result::Result::Ok(::core::option::Option::None)),
    };
    quote! {
        fn stamp(
            &self,
            item: &mut ::ddb_entity::Item,
            now: ::std::time::SystemTime,
        ) -> ::ddb_entity::Result<()> {
            #stamp_updated
            #stamp_created
            ::core::result::Result::Ok(())
        }

        #[allow(unused_variables)]
        fn updated_at(
            now: ::std::time::SystemTime,
        ) -> ::ddb_entity::Result<
            ::core::option::Option<(&'static str, ::ddb_entity::sdk::types::AttributeValue)>,
        > {
            #updated_at
        }
    }
}
