//! A key-part enum: unit variants, each stored as its position and name.

use syn::{Data, DeriveInput, Expr, Fields, Generics, Ident, LitStr};

use crate::attr;
use crate::ctxt::Ctxt;

/// A `#[derive(KeyPart)]` input.
pub(crate) struct KeyPart<'a> {
    pub(crate) original: &'a DeriveInput,
    pub(crate) ident: &'a Ident,
    pub(crate) generics: &'a Generics,
    /// The unit variants, in declaration order (others are reported).
    pub(crate) variants: Vec<Variant<'a>>,
}

/// One unit variant.
pub(crate) struct Variant<'a> {
    pub(crate) ident: &'a Ident,
    /// Its position among the enum's variants: what keys sort by.
    pub(crate) position: usize,
    /// `#[key(rename = "…")]`.
    pub(crate) rename: Option<LitStr>,
    /// `= 3`, when written.
    pub(crate) discriminant: Option<&'a Expr>,
}

/// Digits of a variant's position in its component.
const POSITION_DIGITS: usize = 2;
/// A derived key part has at most 100 variants: two digits of position.
pub(crate) const MAX_VARIANTS: usize = 100;

impl Variant<'_> {
    /// The name shown in keys: the rename, or the variant's name.
    pub(crate) fn name(&self) -> String {
        match &self.rename {
            Some(lit) => lit.value(),
            None => crate::name::unraw(self.ident),
        }
    }

    /// The component the variant encodes to: its position among the
    /// enum's variants in two digits, `-`, and its name, e.g. `02-High`.
    ///
    /// The position makes keys sort as the variants are declared (the
    /// derived `Ord`) whatever their names, and stays the same when a
    /// variant is added at the end; the name keeps stored keys readable.
    /// A rename changes the name only, so it can never break the order.
    pub(crate) fn component(&self) -> String {
        format!(
            "{:0width$}-{}",
            self.position,
            self.name(),
            width = POSITION_DIGITS
        )
    }
}

impl<'a> KeyPart<'a> {
    pub(crate) fn from_ast(cx: &Ctxt, input: &'a DeriveInput) -> Self {
        let mut variants = Vec::new();
        match &input.data {
            Data::Enum(data) => {
                for (position, variant) in data.variants.iter().enumerate() {
                    let rename = attr::key::variant_rename(cx, &variant.attrs);
                    if !matches!(variant.fields, Fields::Unit) {
                        cx.error(
                            &variant.ident,
                            "#[derive(KeyPart)] supports unit variants only: a key part is one name; move data into its own key hole",
                        );
                        continue;
                    }
                    variants.push(Variant {
                        ident: &variant.ident,
                        position,
                        rename,
                        discriminant: variant.discriminant.as_ref().map(|(_, expr)| expr),
                    });
                }
            }
            _ => {
                cx.error(
                    &input.ident,
                    "#[derive(KeyPart)] works on unit enums; for a struct, implement `KeyPart` by hand (see its docs)",
                );
            }
        }
        KeyPart {
            original: input,
            ident: &input.ident,
            generics: &input.generics,
            variants,
        }
    }
}
