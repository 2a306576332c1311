//! `Entity::index_changes`: how an update's changes move the index keys.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::keys;
use crate::ast::{Entity, Hole, Index, KeyTemplate, Part};
use crate::expand::checks::key_type;
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
        decode_primary_key(model, quote!(key.partition()), quote!(key.sort()))
    } else {
        quote!(let _ = key;)
    };
    // Each index's schema, bound once: its changes and errors name it.
    let schemas = model.indexes.iter().map(|index| {
        let (var, path) = (schema_var(index), super::checks::index_alias(index));
        quote!(let #var = <#path as __ddb::Index>::SCHEMA;)
    });
    if model.indexes.is_empty() {
        return quote! {
            #decode
            __p::Ok(__p::Vec::new())
        };
    }
    quote! {
        #decode
        #(#schemas)*
        let mut out = __p::Vec::new();
        #(#per_index)*
        __p::Ok(out)
    }
}

/// The binding of an index's schema in `index_changes`: `__index_gsi1`.
fn schema_var(index: &Index<'_>) -> proc_macro2::Ident {
    format_ident!("__index_{}", name::snake(&index.name))
}

fn primary_field_names(model: &Entity<'_>) -> Vec<String> {
    keys::params(model.primary())
        .iter()
        .map(|hole| name::unraw(hole.field()))
        .collect()
}

fn uses_primary_fields(model: &Entity<'_>, index: &Index<'_>) -> bool {
    let primary = primary_field_names(model);
    reads(index).iter().any(|name| primary.contains(name))
}

/// The fields an index's key and membership read, each once: the fields
/// of its holes and of its shard, the inputs of its computed values and of
/// its `when`.
fn reads(index: &Index<'_>) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let holes = index.holes();
    let inputs = holes
        .iter()
        .flat_map(|hole| match hole.computed() {
            Some(call) => call.args.iter().map(name::unraw).collect(),
            None => vec![name::unraw(hole.field())],
        })
        .chain(
            index
                .pk()
                .shard()
                .into_iter()
                .flat_map(|shard| shard.by.iter().map(|input| input.name.clone())),
        )
        .chain(
            index
                .when
                .iter()
                .flat_map(|call| call.args.iter().map(name::unraw)),
        );
    for name in inputs {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// The entity's one key reader, `__read_key(partition, sort)`: the
/// primary key's stored values parsed back into the values of its holes,
/// in the order of the key functions' parameters. Matching a stored key
/// (`key_matches`), an update's index changes and an upsert's key fields
/// all read the key through it.
pub(super) fn key_reader(model: &Entity<'_>) -> TokenStream {
    let reader = |template: &KeyTemplate<'_>, value: TokenStream| {
        if let Some(hole) = template.raw_hole() {
            // The key attribute is the field's own string.
            let decoded = format_ident!("__decoded_{}", name::unraw(hole.field()));
            let ty = key_type(model, hole);
            return quote! {
                let #decoded: #ty = ::core::convert::From::from(__p::String::from(#value));
            };
        }
        let steps = template
            .segments
            .iter()
            .map(|segment| read_segment(model, segment));
        quote! {
            let mut reader = __ddb::key::KeyReader::new(#value);
            #(#steps)*
            reader.finish()?;
        }
    };
    let pk = reader(model.pk(), quote!(__partition));
    let sk = model.sk.as_ref().map(|sk| reader(sk, quote!(__sort)));
    let holes = keys::params(model.primary());
    let decoded = holes
        .iter()
        .map(|hole| format_ident!("__decoded_{}", name::unraw(hole.field())));
    let types = holes.iter().map(|hole| key_type(model, hole));
    quote! {
        #[allow(unused_variables, clippy::type_complexity)]
        fn __read_key(
            __partition: &__p::str,
            __sort: &__p::str,
        ) -> ::core::result::Result<(#(#types,)*), __ddb::key::KeyError> {
            #pk
            #sk
            __p::Ok((#(#decoded,)*))
        }
    }
}

/// Statements binding each primary-key field to a reference to its value
/// read back from the stored key values `partition` and `sort` (`&str`s),
/// through the entity's key reader; inside a function returning a
/// `Result` of the crate's error.
pub(super) fn decode_primary_key(
    model: &Entity<'_>,
    partition: TokenStream,
    sort: TokenStream,
) -> TokenStream {
    let holes = keys::params(model.primary());
    let fields = holes.iter().map(|hole| hole.field());
    // Bound by reference: the pattern of a borrowed tuple binds each field
    // as `&T`, and the borrow extends the decoded tuple's life.
    quote! {
        let (#(#fields,)*) = &Self::__read_key(#partition, #sort)?;
    }
}

/// The statements reading one segment of a key into `__decoded_…`
/// bindings: a whole literal or hole with `reader.literal`/`reader.part`,
/// a segment of several parts piece by piece (fixed-length holes, then the
/// last one up to the segment's literal end).
fn read_segment(model: &Entity<'_>, segment: &[Part<'_>]) -> TokenStream {
    let decoded = |hole: &Hole<'_>| format_ident!("__decoded_{}", name::unraw(hole.field()));
    let typed = |hole: &Hole<'_>| {
        let ty = key_type(model, hole);
        match hole.width {
            Some(width) => (quote!(__p::Padded<#width, #ty>), quote!(.0)),
            None if hole.partition => (quote!(__p::PartitionPart<#ty>), quote!(.0)),
            None => (quote!(#ty), quote!()),
        }
    };
    match segment {
        [] => quote!(reader.literal("")?;),
        [Part::Literal(text)] => quote!(reader.literal(#text)?;),
        // The shard is computed from fields read elsewhere in the key.
        [Part::Shard(_)] => {
            quote!(let _: __ddb::shard::ShardComponent = reader.part()?;)
        }
        [Part::Hole(hole)] => {
            let (name, (read, unwrap)) = (decoded(hole), typed(hole));
            let ty = key_type(model, hole);
            quote!(let #name: #ty = reader.part::<#read>()? #unwrap;)
        }
        parts => {
            let last_hole = parts.iter().rposition(|part| matches!(part, Part::Hole(_)));
            let suffix: String = last_hole
                .map(|at| {
                    parts[at + 1..]
                        .iter()
                        .filter_map(|part| match part {
                            Part::Literal(text) => Some(text.as_str()),
                            Part::Hole(_) | Part::Shard(_) => None,
                        })
                        .collect()
                })
                .unwrap_or_default();
            let steps = parts.iter().enumerate().map(|(at, part)| match part {
                // Alone in its segment (checked).
                Part::Shard(_) => quote!(),
                Part::Literal(_) if last_hole.is_some_and(|last| at > last) => quote!(),
                Part::Literal(text) => quote!(segment.literal(#text)?;),
                Part::Hole(hole) => {
                    let (name, (read, unwrap)) = (decoded(hole), typed(hole));
                    let ty = key_type(model, hole);
                    if Some(at) == last_hole {
                        quote!(let #name: #ty = segment.last::<#read>(#suffix)? #unwrap;)
                    } else {
                        quote!(let #name: #ty = segment.fixed::<#read>()? #unwrap;)
                    }
                }
            });
            let finish = if last_hole.is_some() {
                quote!()
            } else {
                quote!(segment.finish()?;)
            };
            quote! {
                #[allow(unused_mut)]
                let mut segment = reader.segment()?;
                #(#steps)*
                #finish
            }
        }
    }
}

/// Pushes this index's change when the update touches what it reads: the
/// fields of its holes, the inputs of its computed values and of its
/// `when`. Every such field outside the primary key must be in the update
/// (else `MissingKeyField`, before sending), except that a `when` found
/// false removes the item from the index whatever the other fields are.
fn index_change(model: &Entity<'_>, index: &Index<'_>) -> TokenStream {
    let entity = model.ident.to_string();
    let primary = primary_field_names(model);
    let changed: Vec<String> = reads(index)
        .into_iter()
        .filter(|name| !primary.contains(name))
        .collect();
    let schema = schema_var(index);
    // `__field_x: &X` for a changed field, `x` (decoded) for a primary one.
    let input = |name: &str| -> TokenStream {
        if primary.contains(&name.to_owned()) {
            let ident = model
                .field_named(name)
                .expect("checked: an index reads fields")
                .ident;
            quote!(#ident)
        } else {
            let ident = format_ident!("__field_{}", name);
            quote!(#ident)
        }
    };
    let lookup = |name: &str| -> TokenStream {
        let field = model
            .field_named(name)
            .expect("checked: an index reads fields");
        let ty = field.ty;
        let binding = format_ident!("__field_{}", name);
        if field.option_inner.is_some() {
            // Removed: `None`, a constant borrowed for as long as needed.
            // The type looked up is the binding's.
            quote! {
                let #binding: &#ty = changes
                    .value_or_removed(#entity, #schema.name, #name)?
                    .unwrap_or(&__p::None);
            }
        } else {
            quote! {
                let #binding: &#ty = changes.value_of(#entity, #schema.name, #name)?;
            }
        }
    };
    let call = |call: &crate::attr::entity::Call| {
        let function = &call.function;
        let args = call.args.iter().map(|arg| input(&name::unraw(arg)));
        quote!(#function(#(#args),*))
    };
    let member_inputs: Vec<String> = index
        .when
        .iter()
        .flat_map(|when| when.args.iter().map(name::unraw))
        .filter(|name| changed.contains(name))
        .collect();
    let member_lookups = member_inputs.iter().map(|name| lookup(name));
    let key_lookups = changed
        .iter()
        .filter(|name| !member_inputs.contains(name))
        .map(|name| lookup(name));
    // Each hole as the `&T` (or `Option<&T>`) its key function takes.
    let holes = index.holes();
    let bindings = holes.iter().map(|hole| {
        let field = hole.field();
        let inner = key_type(model, hole);
        let computed = format_ident!("__computed_{}", name::unraw(field));
        match (hole.computed(), hole.optional()) {
            (Some(how), true) => {
                let value = call(how);
                quote! {
                    let #computed = #value;
                    let #field: __p::Option<&#inner> = #computed.as_ref();
                }
            }
            (Some(how), false) => {
                let value = call(how);
                quote! {
                    let #computed = #value;
                    let #field: &#inner = &#computed;
                }
            }
            (None, _) if primary.contains(&name::unraw(field)) => quote!(),
            (None, true) => {
                let source = input(&name::unraw(field));
                quote!(let #field: __p::Option<&#inner> = #source.as_ref();)
            }
            (None, false) => {
                let source = input(&name::unraw(field));
                quote!(let #field: &#inner = #source;)
            }
        }
    });
    // Every binding is a `&T`: fixed-width holes take the value itself.
    let arg = |hole: &Hole<'_>| {
        let field = hole.field();
        match hole.width {
            Some(_) => quote!(*#field),
            None => quote!(#field),
        }
    };
    // A shard input: the decoded primary field or the changed field, a `&T`.
    let shard_arg = |shard_input: &crate::ast::ShardInput<'_>| {
        let value = input(&shard_input.name);
        if model.is_generic(shard_input.ty()) {
            value
        } else {
            let alias = super::checks::shard_alias(shard_input);
            quote!(__p::checked::<#alias>(#value))
        }
    };
    let key = keys::index_key(model, index, arg, shard_arg);
    let set = quote!(__p::IndexChange::Set(#schema, #key));
    let remove = quote!(__p::IndexChange::Remove(#schema));
    let sparse: Vec<_> = holes
        .iter()
        .filter(|hole| hole.optional())
        .map(|hole| hole.field())
        .collect();
    let change = if sparse.is_empty() {
        set
    } else {
        quote! {
            match (#(#sparse,)*) {
                (#(__p::Some(#sparse),)*) => #set,
                _ => #remove,
            }
        }
    };
    let keyed = quote! {
        #(#key_lookups)*
        #(#bindings)*
        out.push(#change);
    };
    let body = match &index.when {
        None => keyed,
        Some(when) => {
            let member = call(when);
            quote! {
                #(#member_lookups)*
                if #member {
                    #keyed
                } else {
                    out.push(#remove);
                }
            }
        }
    };
    if changed.is_empty() {
        // Built from primary-key fields only: no update can move it, and
        // an upsert, which may create the item, writes it.
        return quote! {
            if changes.creates() {
                #body
            }
        };
    }
    // An upsert that leaves the index's fields alone may create the item:
    // a required field it reads must be given. (Only `Option` fields may be
    // left out: the item then stays out of the sparse index, as it is.)
    let required = changed
        .iter()
        .find(|name| {
            model
                .field_named(name)
                .is_some_and(|field| field.option_inner.is_none())
        })
        .map(|name| {
            quote! {
                else if changes.creates() {
                    return __p::Err(__p::missing_key_field(
                        #entity,
                        #schema.name,
                        #name,
                    ));
                }
            }
        });
    quote! {
        if changes.touches(&[#(#changed),*]) {
            #body
        } #required
    }
}

/// The primary-key fields `key_fields` returns (as the struct names
/// them): what `LAYOUT` marks as key fields, whose attributes a read
/// restores from the key when the body lacks them.
pub(super) fn key_field_names(model: &Entity<'_>) -> Vec<String> {
    let raw: Vec<String> = model
        .primary()
        .filter_map(|template| template.raw_hole())
        .map(|hole| hole.field().to_string())
        .collect();
    keys::params(model.primary())
        .into_iter()
        .filter(|hole| !model.is_generic(hole.ty()) && !raw.contains(&hole.field().to_string()))
        .map(|hole| name::unraw(hole.field()))
        .collect()
}

/// `key_field_is(&self, position, value)`: whether the value's field at
/// `position` of `key_fields`' list is `value`, as `key_fields` reads it
/// back from a stored key (see `EntityHooks::key_field_is`). Only for a
/// primary key whose holes are all plain integer fields, each once, none
/// raw, and no shard: then those fields are the whole key's variable text,
/// and finding them all proves it. Nothing otherwise (the default: false).
pub(super) fn key_field_is(model: &Entity<'_>) -> TokenStream {
    let holes = keys::params(model.primary());
    let written = model.primary().flat_map(KeyTemplate::holes).count();
    let plain = model
        .primary()
        .all(|template| template.shard().is_none() && template.raw_hole().is_none())
        && holes
            .iter()
            .all(|hole| hole.computed().is_none() && is_integer(hole.ty()));
    if holes.is_empty() || written != holes.len() || !plain {
        return quote!();
    }
    // In `key_fields`' order: the position is what `ReadBack` keeps.
    let fields = holes.iter().map(|hole| hole.field());
    quote! {
        fn key_field_is(&self, i: __p::usize, v: &__p::KeyFieldValue) -> __p::bool {
            __p::key_field_is(&[#(&self.#fields),*], i, v)
        }
    }
}

/// Whether `ty` is written as one of the library's integers, the key types
/// whose parse is canonical (`KeyPart::CANONICAL`): `key_field_is` is
/// generated for those alone, since no other key type can prove a key
/// (and a type that is no key part at all is reported once, by its own
/// check, not again by `key_field_is`). An alias of an integer is verified
/// by writing the key, as any other type.
fn is_integer(ty: &syn::Type) -> bool {
    const INTEGERS: [&str; 10] = [
        "u8", "u16", "u32", "u64", "usize", "i8", "i16", "i32", "i64", "isize",
    ];
    let syn::Type::Path(path) = ty else {
        return false;
    };
    path.qself.is_none()
        && path.path.leading_colon.is_none()
        && path.path.segments.len() == 1
        && path.path.segments[0].arguments.is_none()
        && INTEGERS
            .iter()
            .any(|name| path.path.segments[0].ident == name)
}

/// The body of `key_fields(key)`: the primary-key fields, parsed back from
/// the key, as the attributes the entity's body stores them under (what an
/// upsert writes, since it may create the item).
pub(super) fn key_fields(model: &Entity<'_>) -> TokenStream {
    let holes = keys::params(model.primary());
    let entity = model.ident.to_string();
    // A raw key's field is the key attribute itself, which the request's
    // `Key` writes and an update may not SET.
    let raw: Vec<String> = model
        .primary()
        .filter_map(|template| template.raw_hole())
        .map(|hole| hole.field().to_string())
        .collect();
    // A generic hole's type is a key part, not known to serialise (the
    // impl's bounds are on `Self`): left out, so an upsert of such an
    // entity is refused before sending rather than failing to compile.
    let inserts = holes
        .iter()
        .filter(|hole| !model.is_generic(hole.ty()) && !raw.contains(&hole.field().to_string()))
        .map(|hole| {
            let field = hole.field();
            let name = name::unraw(field);
            let attribute = model
                .stored_named(&name)
                .map_or(name, |field| field.attribute.clone());
            quote! {
                fields.push((#attribute, __p::key_field_value(#entity, #field)?));
            }
        });
    let count = holes.len();
    // Nothing pushed (every hole raw or generic): the list stays as it is.
    let inserts: Vec<TokenStream> = inserts.collect();
    let mutable = (!inserts.is_empty()).then(|| quote!(mut));
    let decode = if holes.is_empty() {
        quote!(let _ = key;)
    } else {
        decode_primary_key(model, quote!(key.partition()), quote!(key.sort()))
    };
    quote! {
        #decode
        let #mutable fields = __p::key_fields_buffer(#count);
        #(#inserts)*
        __p::Ok(fields)
    }
}
