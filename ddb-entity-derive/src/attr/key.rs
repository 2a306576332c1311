//! `#[key(…)]` on a variant of a `#[derive(KeyPart)]` enum.

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
