//! The intermediate representation each derive works from: the input read
//! into entities, collections and key-part enums, keeping the original
//! syntax for spans.
//!
//! Building it reports what makes the input unreadable (a tuple struct, a
//! malformed template, a hole naming no field) and recovers, so that
//! [`check`](crate::check) can apply its rules to the rest and a failed
//! derive still knows the shape of what it was asked for (see
//! [`fallback`](crate::fallback)).

mod collection;
mod entity;
mod key_part;

pub(crate) use collection::{Collection, Holds, Member, Shape};
pub(crate) use entity::{
    Entity, Field, Followed, Hole, Index, KEY_AND_BODY, KEY_ONLY, KeyTemplate, Part, PlacedPart,
    Role, Shard, ShardInput, distinct_holes,
};
pub(crate) use key_part::{KeyPart, MAX_VARIANTS};

use syn::{GenericArgument, PathArguments, Type};

/// `Option<T>` (also `std::option::Option<T>`, `core::option::Option<T>`)
/// recognised by its path: a derive cannot resolve types.
pub(crate) fn option_inner(ty: &Type) -> Option<&Type> {
    wrapper_inner(ty, "Option", "option", &["std", "core"])
}

/// `Vec<T>` (also `std::vec::Vec<T>`, `alloc::vec::Vec<T>`) recognised by
/// its path, like [`option_inner`].
pub(crate) fn vec_inner(ty: &Type) -> Option<&Type> {
    wrapper_inner(ty, "Vec", "vec", &["std", "alloc"])
}

/// `T` of `Name<T>` or `root::module::Name<T>` for one of `roots`.
fn wrapper_inner<'a>(ty: &'a Type, name: &str, module: &str, roots: &[&str]) -> Option<&'a Type> {
    let Type::Path(path) = ty else { return None };
    if path.qself.is_some() {
        return None;
    }
    let segments: Vec<_> = path.path.segments.iter().collect();
    let last = segments.last()?;
    let prefix_ok = match segments.len() {
        1 => true,
        3 => {
            let root = segments[0].ident.to_string();
            roots.contains(&root.as_str()) && segments[1].ident == module
        }
        _ => false,
    };
    if !prefix_ok || last.ident != name {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first() {
        Some(GenericArgument::Type(inner)) if args.args.len() == 1 => Some(inner),
        _ => None,
    }
}

/// The last path segment's name of a plain path type: `String` for
/// `std::string::String`, `None` for references, tuples, arrays.
pub(crate) fn type_name(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(path) if path.qself.is_none() => {
            path.path.segments.last().map(|s| s.ident.to_string())
        }
        Type::Group(group) => type_name(&group.elem),
        _ => None,
    }
}

/// A type as written, for messages: `crate::model::Customer`.
pub(crate) fn type_string(ty: &Type) -> String {
    let tokens = quote::ToTokens::to_token_stream(ty).to_string();
    tokens.replace(' ', "").replace(',', ", ")
}
