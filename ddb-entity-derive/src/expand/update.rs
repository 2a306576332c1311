//! `Entity::index_changes`: how an update's changes move the index keys.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::keys;
use crate::ast::{Entity, Hole, Index, KeyTemplate, Part};
use crate::name;

/// The body of `index_changes(key, changes)`.
pub(super) fn index_changes(model: &Entity<'_>) -> TokenStream {
    let per_index: Vec<TokenStream> = model
        .indexes
        .iter()
        .map(|index| index_change(model, index))
        .collect();
    let decode = if model
        .indexes
        .iter()
        .any(|index| uses_primary_fields(model, index))
    {
        decode_primary_key(model)
    } else {
        quote!(let _ = key;)
    };
    quote! {
        #decode
        #[allow(unused_mut)]
        let mut out = ::std::vec::Vec::new();
        #(#per_index)*
        ::core::result::Result::Ok(out)
    }
}

fn primary_field_names(model: &Entity<'_>) -> Vec<String> {
    keys::params([model.pk(), model.sk()])
        .iter()
        .map(|hole| hole.field().to_string())
        .collect()
}

fn uses_primary_fields(model: &Entity<'_>, index: &Index<'_>) -> bool {
    let primary = primary_field_names(model);
    index
        .holes()
        .iter()
        .any(|hole| primary.contains(&hole.field().to_string()))
}

/// `let customer_id = &…;` for every primary-key field, parsed back from
/// the key the update addresses (the encoding is reversible), so an index
/// template can reuse them although an update never changes them.
fn decode_primary_key(model: &Entity<'_>) -> TokenStream {
    let reader = |template: &KeyTemplate<'_>, value: TokenStream| {
        let steps = template.parts.iter().map(|part| match part {
            Part::Literal(text) => quote!(reader.literal(#text)?;),
            Part::Hole(hole) => {
                let field = hole.field();
                let ty = super::checks::key_type(model, hole);
                let decoded = format_ident!("__decoded_{}", name::unraw(field));
                match hole.width {
                    Some(width) => quote! {
                        let #decoded: #ty = reader.part::<::ddb_entity::__private::Padded<#width, #ty>>()?.0;
                    },
                    None => quote!(let #decoded: #ty = reader.part::<#ty>()?;),
                }
            }
        });
        quote! {
            let mut reader = ::ddb_entity::key::KeyReader::new(#value);
            #(#steps)*
            reader.finish()?;
        }
    };
    let pk = reader(model.pk(), quote!(key.partition()));
    let sk = reader(model.sk(), quote!(key.sort()));
    let bindings = keys::params([model.pk(), model.sk()])
        .into_iter()
        .map(|hole| {
            let field = hole.field();
            let decoded = format_ident!("__decoded_{}", name::unraw(field));
            quote!(let #field = &#decoded;)
        });
    quote! {
        #pk
        #sk
        #(#bindings)*
    }
}

/// Pushes this index's change when the update touches its template.
fn index_change(model: &Entity<'_>, index: &Index<'_>) -> TokenStream {
    let path = &index.path;
    let entity = model.ident.to_string();
    let primary = primary_field_names(model);
    let holes = index.holes();
    let changed: Vec<&Hole<'_>> = holes
        .iter()
        .copied()
        .filter(|hole| !primary.contains(&hole.field().to_string()))
        .collect();
    // Every binding is a `&T`: fixed-width holes take the value itself.
    let arg = |hole: &Hole<'_>| {
        let field = hole.field();
        match hole.width {
            Some(_) => quote!(*#field),
            None => quote!(#field),
        }
    };
    if changed.is_empty() {
        // Built from primary-key fields only: no update can move it, and
        // an upsert, which may create the item, writes it.
        let key = keys::index_key(index, arg);
        return quote! {
            if changes.creates() {
                out.push(::ddb_entity::__private::IndexChange::Set(
                    <#path as ::ddb_entity::Index>::SCHEMA,
                    #key,
                ));
            }
        };
    }
    let names: Vec<String> = changed
        .iter()
        .map(|hole| name::unraw(hole.field()))
        .collect();
    let lookups = changed.iter().zip(&names).map(|(hole, name)| {
        let field = hole.field();
        let inner = super::checks::key_type(model, hole);
        let missing = quote! {
            return ::core::result::Result::Err(::ddb_entity::__private::missing_key_field(
                #entity,
                <#path as ::ddb_entity::Index>::SCHEMA.name,
                #name,
            ))
        };
        if hole.optional() {
            quote! {
                let #field: ::core::option::Option<&#inner> =
                    match changes.lookup::<::core::option::Option<#inner>>(#name) {
                        ::ddb_entity::__private::Lookup::Set(value) => value.as_ref(),
                        ::ddb_entity::__private::Lookup::Removed => ::core::option::Option::None,
                        _ => #missing,
                    };
            }
        } else {
            quote! {
                let #field: &#inner = match changes.lookup::<#inner>(#name) {
                    ::ddb_entity::__private::Lookup::Set(value) => value,
                    _ => #missing,
                };
            }
        }
    });
    let key = keys::index_key(index, arg);
    let set = quote! {
        ::ddb_entity::__private::IndexChange::Set(<#path as ::ddb_entity::Index>::SCHEMA, #key)
    };
    let sparse: Vec<_> = changed
        .iter()
        .filter(|hole| hole.optional())
        .map(|hole| hole.field())
        .collect();
    let change = if sparse.is_empty() {
        set
    } else {
        quote! {
            match (#(#sparse,)*) {
                (#(::core::option::Option::Some(#sparse),)*) => #set,
                _ => ::ddb_entity::__private::IndexChange::Remove(<#path as ::ddb_entity::Index>::SCHEMA),
            }
        }
    };
    // An upsert that leaves the template alone may create the item: a
    // required field of it must be given. (Only `Option` fields may be
    // left out: the item then stays out of the sparse index, as it is.)
    let required = changed
        .iter()
        .zip(&names)
        .find(|(hole, _)| !hole.optional())
        .map(|(_, name)| {
            quote! {
                else if changes.creates() {
                    return ::core::result::Result::Err(::ddb_entity::__private::missing_key_field(
                        #entity,
                        <#path as ::ddb_entity::Index>::SCHEMA.name,
                        #name,
                    ));
                }
            }
        });
    quote! {
        if changes.touches(&[#(#names),*]) {
            #(#lookups)*
            out.push(#change);
        } #required
    }
}

/// The body of `key_fields(key)`: the primary-key fields, parsed back from
/// the key, as the attributes the entity's body stores them under (what an
/// upsert writes, since it may create the item).
pub(super) fn key_fields(model: &Entity<'_>) -> TokenStream {
    let holes = keys::params([model.pk(), model.sk()]);
    let entity = model.ident.to_string();
    // A generic hole's type is a key part, not known to serialise (the
    // impl's bounds are on `Self`): left out, so an upsert of such an
    // entity is refused before sending rather than failing to compile.
    let inserts = holes.iter().filter(|hole| !model.is_generic(hole.ty())).map(|hole| {
        let field = hole.field();
        let attribute = model
            .stored_named(&name::unraw(field))
            .map_or_else(|| name::unraw(field), |field| field.attribute.clone());
        quote! {
            fields.push((#attribute, ::ddb_entity::__private::key_field_value(#entity, #field)?));
        }
    });
    let count = holes.len();
    let decode = if holes.is_empty() {
        quote!(let _ = key;)
    } else {
        decode_primary_key(model)
    };
    quote! {
        #decode
        let mut fields = ::std::vec::Vec::with_capacity(#count);
        #(#inserts)*
        ::core::result::Result::Ok(fields)
    }
}
