//! `#[key(…)]` on a `#[derive(KeyPart)]` enum and on its variants.

use syn::{Attribute, LitStr};

use super::set;
use crate::ctxt::Ctxt;

/// `#[key(rename = "…")]`: the name the variant shows in keys.
pub(crate) fn variant_rename(cx: &Ctxt, attrs: &[Attribute]) -> Option<LitStr> {
    let mut rename = None;
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("key")) {
        for entry in super::entries(cx, attr, &["rename"], "#[key(rename = \"HIGH\")]") {
            match syn::parse2::<LitStr>(entry.value) {
                Ok(lit) => set(cx, &mut rename, lit, "rename"),
                Err(_) => cx.error(
                    &entry.name,
                    "`rename` takes the name in quotes, e.g. #[key(rename = \"HIGH\")]",
                ),
            }
        }
    }
    rename
}

/// How a `#[derive(KeyPart)]` enum writes its variants.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    /// Its name or rename alone (`active`): the default.
    Name,
    /// `NN-Name`, the position in two digits first: the format before
    /// names became the default, kept for tables that store it.
    Position,
}

/// `#[key(format = "name" | "position")]` on the enum.
pub(crate) fn enum_format(cx: &Ctxt, attrs: &[Attribute]) -> Format {
    let mut format = None;
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("key")) {
        for entry in super::entries(cx, attr, &["format"], "#[key(format = \"position\")]") {
            match syn::parse2::<LitStr>(entry.value) {
                Ok(lit) if matches!(lit.value().as_str(), "name" | "position") => {
                    set(cx, &mut format, lit, "format");
                }
                Ok(lit) => cx.error(
                    &lit,
                    "`format` is \"name\" (the default: `active`) or \"position\" (`00-active`, the earlier default: keys sort as the variants are declared)",
                ),
                Err(_) => cx.error(
                    &entry.name,
                    "`format` takes \"name\" or \"position\" in quotes, e.g. #[key(format = \"position\")]",
                ),
            }
        }
    }
    match format {
        Some(lit) if lit.value() == "position" => Format::Position,
        _ => Format::Name,
    }
}
