//! `#[derive(Entity)]`: the `Entity` impl, key functions and compile-time
//! checks against the table declaration.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::checks;
use super::keys::{self, AtShard, SortKeyBuilder};
use crate::ast::{Entity, Hole, Index, ShardInput};
use crate::name;

pub(crate) fn entity(model: &Entity<'_>) -> TokenStream {
    let ident = model.ident;
    let vis = model.vis;
    // The table and its indexes by their checked aliases (see checks.rs).
    let table = checks::table_alias();
    let (impl_generics, ty_generics, where_clause) = model.generics.split_for_impl();
    let primary = quote!(__ddb::Primary<#table>);
    let result = quote!(__ddb::Result);

    // Whole primary key and primary partition.
    let key_params = keys::params(model.primary());
    let key_param_list = keys::param_list(&key_params);
    let pk_params = keys::params([model.pk()]);
    let pk_param_list = keys::param_list(&pk_params);
    let pk_buf = format_ident!("__pk");
    let sk_buf = format_ident!("__sk");
    let name = ident.to_string();
    let fill_pk = keys::fill(model, &pk_buf, model.pk(), AtShard::Compute);
    let pk_source = &model.pk().source;
    // A sharded partition: every shard's, read as one.
    let partition_value = match model.pk().shard() {
        Some(shard) => {
            let fill = keys::fill(model, &pk_buf, model.pk(), AtShard::Stop);
            let spec = keys::shard_spec(shard);
            quote! {
                #fill
                #pk_buf.sharded_partition::<#primary>(#spec)
            }
        }
        None => quote! {
            #fill_pk
            __ddb::Partition::new(#pk_buf.finish_partition()?)
        },
    };
    // A table without a sort key: the key is the partition key alone.
    let (sort, sk_source) = match &model.sk {
        Some(sk) => {
            let fill_sk = keys::fill(model, &sk_buf, sk, AtShard::Compute);
            (
                quote! {{
                    let mut #sk_buf = __p::KeyWriter::new(#name);
                    #fill_sk
                    #sk_buf.finish_sort()?
                }},
                format!(" / `{}`", sk.source),
            )
        }
        None => (quote!(__p::String::new()), String::new()),
    };
    let key_doc = format!(
        "The primary key of the `{ident}` with these key fields: `{pk_source}`{sk_source}."
    );
    let partition_doc = match model.pk().shard() {
        Some(shard) => format!(
            "The partition `{pk_source}`, spread over {} shards: a Query of it reads every shard and \
             merges them in sort-key order, for `{ident}` items (and every other entity type sharing \
             this partition template).",
            shard.count
        ),
        None => format!(
            "The partition `{pk_source}`: where a Query for `{ident}` items (and every other entity \
             type sharing this partition template) starts."
        ),
    };

    let (sk_constructor, sk_items) = match &model.sk {
        Some(sk) => SortKeyBuilder {
            model,
            constructor: format_ident!("sk"),
            stage: format_ident!("{}Sk", ident),
            index: primary.clone(),
            template: sk,
            what: "in the table".to_owned(),
        }
        .expand(),
        None => (TokenStream::new(), TokenStream::new()),
    };
    let key_matching = super::matches::key_matching(model);
    let ordered_sort_holes = super::matches::ordered_sort_holes(model);

    let index_fns = model
        .indexes
        .iter()
        .map(|index| index_functions(model, index));
    let (index_constructors, index_items): (Vec<_>, Vec<_>) = index_fns.unzip();

    let self_args = key_params.iter().map(|hole| self_arg(model, hole));
    let index_schemas = model.indexes.iter().map(|index| {
        let path = checks::index_alias(index);
        quote!(<#path as __ddb::Index>::SCHEMA)
    });
    let entries = model.indexes.iter().map(|index| index_entry(model, index));
    let type_name = model.type_tag();
    let checks = checks::items(model);
    let delimiter_checks = super::delimiter::checks(model);
    let timestamps = timestamps(model);
    let version = model.version().map(|field| {
        let (field, ty) = (field.ident, field.ty);
        quote! {
            fn version(&self) -> __p::u64 {
                <#ty as __p::VersionNumber>::to_u64(self.#field)
            }
        }
    });
    let schema = super::schema::hooks(model);
    let (fields_fn, fields_item) = super::fields::fields(model);
    let index_changes = super::update::index_changes(model);
    let layout = super::layout::layout(model);
    let key_fields = super::update::key_fields(model);
    let key_field_is = super::update::key_field_is(model);
    let key_reader = super::update::key_reader(model);
    // A generic entity is one for the parameters that serde can store
    // and that make its key types key parts; its key functions build
    // `Key<Self>`, which needs `Self: Entity`.
    let (inherent_where, entity_where) = if model.generics.params.is_empty() {
        (quote!(#where_clause), quote!(#where_clause))
    } else {
        let storable = quote! {
            Self: __p::serde::Serialize
                + __p::serde::de::DeserializeOwned
                + ::core::marker::Send
                + ::core::marker::Sync
                + 'static
        };
        (
            checks::where_clause(model, &[quote!(Self: __ddb::Entity)]),
            checks::where_clause(model, &[storable]),
        )
    };
    let global_index_checks = super::layout::global_index_checks(model);
    let versioned = model.version().map(|_| {
        quote! {
            #[automatically_derived]
            impl #impl_generics __ddb::Versioned for #ident #ty_generics #entity_where {}
        }
    });

    quote! {
        // The checked aliases are named after fields (`__Key_order_id`).
        #[allow(non_camel_case_types)]
        const _: () = {
        // Short paths for the runtime: its public API and what generated
        // code calls (`__private`). Only `__`-prefixed names: a user's type
        // named in a template resolves here as in the user's module.
        use ::ddb_entity as __ddb;
        use ::ddb_entity::__private as __p;
        #checks
        #delimiter_checks
        #ordered_sort_holes

        impl #impl_generics #ident #ty_generics #inherent_where {
            #[doc = #key_doc]
            #vis fn key(#key_param_list) -> #result<__ddb::Key<Self>> {
                let mut #pk_buf = __p::KeyWriter::new(#name);
                #fill_pk
                __ddb::Key::new(#pk_buf.finish_partition()?, #sort)
            }

            #[doc = #partition_doc]
            #vis fn partition(#pk_param_list) -> #result<__ddb::Partition<#primary>> {
                let mut #pk_buf = __p::KeyWriter::new(#name);
                #partition_value
            }

            #sk_constructor
            #(#index_constructors)*
            #fields_fn
        }

        impl #impl_generics #ident #ty_generics #entity_where {
            #key_reader
        }

        #fields_item
        #sk_items
        #(#index_items)*

        #[automatically_derived]
        impl #impl_generics __ddb::Entity for #ident #ty_generics #entity_where {
            type Table = #table;
            const RUST_NAME: &'static __p::str = #name;
            const TYPE_TAG: &'static __p::str = #type_name;
            const INDEXES: &'static [__ddb::IndexSchema] = &[#(#index_schemas),*];
            #layout

            fn primary_key(&self) -> #result<__ddb::Key<Self>> {
                Self::key(#(#self_args),*)
            }

            fn index_entries(&self) -> #result<__p::Vec<__ddb::IndexEntry>> {
                __p::Ok(__p::Vec::from([#(#entries),*]))
            }
        }

        #[automatically_derived]
        impl #impl_generics __p::EntityHooks for #ident #ty_generics #entity_where {

            #key_matching

            #version

            #schema

            #timestamps

            // Primary-key fields are parsed back from the key for every
            // index that reuses them; not every index needs every one.
            #[allow(unused_variables)]
            fn index_changes(
                key: &__ddb::Key<Self>,
                changes: &__p::Changes,
            ) -> #result<__p::Vec<__p::IndexChange>> {
                #index_changes
            }

            #[allow(unused_variables)]
            fn key_fields(
                key: &__ddb::Key<Self>,
            ) -> #result<__p::Vec<(&'static __p::str, __p::KeyFieldValue)>> {
                #key_fields
            }

            #key_field_is
        }

        #versioned

        #global_index_checks
        };
    }
}

/// A reference to a shard input on `&self`, as its checked type.
fn shard_arg(model: &Entity<'_>, input: &ShardInput<'_>) -> TokenStream {
    let field = input.field();
    if model.is_generic(input.ty()) {
        quote!(&self.#field)
    } else {
        let alias = checks::shard_alias(input);
        quote!(__p::checked::<#alias>(&self.#field))
    }
}

/// `field` from `&self`: by reference, or by value for fixed-width
/// integers (which are `Copy`).
fn self_arg(model: &Entity<'_>, hole: &Hole<'_>) -> TokenStream {
    checks::checked(model, hole, self_value(hole))
}

/// A reference to the hole's value on `&self`: the field, or the computed
/// value (a temporary, alive to the end of the statement).
fn self_value(hole: &Hole<'_>) -> TokenStream {
    match hole.computed() {
        Some(call) => {
            let value = call_on_self(call);
            quote!(&#value)
        }
        None => {
            let field = hole.field();
            quote!(&self.#field)
        }
    }
}

/// `function(&self.a, &self.b)`.
fn call_on_self(call: &crate::attr::entity::Call) -> TokenStream {
    let function = &call.function;
    let args = &call.args;
    quote!(#function(#(&self.#args),*))
}

/// `gsi1_partition(…)` and `gsi1_sk()` in the inherent impl, plus the
/// stage type at module level.
fn index_functions(model: &Entity<'_>, index: &Index<'_>) -> (TokenStream, TokenStream) {
    let vis = model.vis;
    let ident = model.ident;
    // The checked index, in the signatures too: an index of another table
    // is reported at the attribute, and its queries (partition and
    // sort-key conditions) report nothing more.
    let path = checks::index_alias(index);
    let snake = name::snake(&index.name);
    let partition_fn = format_ident!("{}_partition", snake);
    let params = keys::params([index.pk()]);
    let param_list = keys::param_list(&params);
    let buf = format_ident!("__pk");
    let source = &index.pk().source;
    let index_name = &index.name;
    let entity_name = ident.to_string();
    let (doc, body) = match index.pk().shard() {
        Some(shard) => {
            let fill = keys::fill(model, &buf, index.pk(), AtShard::Stop);
            let spec = keys::shard_spec(shard);
            (
                format!(
                    "The partition `{source}` of index `{index_name}`, spread over {} shards: a Query of it \
                     reads every shard and merges them in sort-key order.",
                    shard.count
                ),
                quote! {
                    #fill
                    #buf.sharded_partition::<#path>(#spec)
                },
            )
        }
        None => {
            let fill = keys::fill(model, &buf, index.pk(), AtShard::Compute);
            (
                format!(
                    "The partition `{source}` of index `{index_name}`: where a Query for `{ident}` items on that index starts."
                ),
                quote! {
                    #fill
                    __ddb::Partition::new(#buf.finish_index_partition::<#path>()?)
                },
            )
        }
    };
    let partition = quote! {
        #[doc = #doc]
        #vis fn #partition_fn(#param_list) -> __ddb::Result<__ddb::Partition<#path>> {
            let mut #buf = __p::KeyWriter::new(#entity_name);
            #body
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

/// This value's `IndexEntry` for `index`: its key, or `None` when an
/// `Option` hole is `None` (the item stays out of the sparse index).
fn index_entry(model: &Entity<'_>, index: &Index<'_>) -> TokenStream {
    let path = checks::index_alias(index);
    let arg = |hole: &Hole<'_>| {
        let field = hole.field();
        match hole.optional() {
            // Bound by the `match` below, as a `&T`.
            true => checks::checked(model, hole, quote!(#field)),
            false => self_arg(model, hole),
        }
    };
    let key = keys::index_key(model, index, arg, |input| shard_arg(model, input));
    let build = quote!(__p::Some(#key));
    let sparse: Vec<&Hole<'_>> = index
        .holes()
        .into_iter()
        .filter(|hole| hole.optional())
        .collect();
    let key = if sparse.is_empty() {
        build
    } else {
        let fields: Vec<_> = sparse.iter().map(|hole| hole.field()).collect();
        let values = sparse.iter().map(|hole| self_value(hole));
        quote! {
            match (#(#values,)*) {
                (#(__p::Some(#fields),)*) => #build,
                _ => __p::None,
            }
        }
    };
    // `when = predicate(…)`: in the index only while it holds.
    let key = match &index.when {
        Some(when) => {
            let member = call_on_self(when);
            quote! {
                if #member { #key } else { __p::None }
            }
        }
        None => key,
    };
    quote! {
        __ddb::IndexEntry {
            index: <#path as __ddb::Index>::SCHEMA,
            key: #key,
        }
    }
}

/// `stamp` and `updated_at` for entities with maintained timestamps.
fn timestamps(model: &Entity<'_>) -> TokenStream {
    let name = model.ident.to_string();
    let stamp = |field: &crate::ast::Field<'_>| {
        let (ty, attribute) = (field.ty, &field.attribute);
        quote!(__p::Some(__p::Stamp::of::<#ty>(#name, #attribute)))
    };
    let updated = model.updated_at().map(|field| {
        let stamp = stamp(field);
        quote!(const UPDATED_AT: __p::Option<__p::Stamp> = #stamp;)
    });
    let created = model.created_at().map(|field| {
        let stamp = stamp(field);
        let ident = field.ident;
        quote! {
            const CREATED_AT: __p::Option<__p::Stamp> = #stamp;
            fn created_unset(&self) -> __p::bool {
                __ddb::Timestamp::is_unset(&self.#ident)
            }
        }
    });
    quote!(#updated #created)
}
