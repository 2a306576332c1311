//! A key-part enum: unit variants, each stored as its name (or rename),
//! or with `#[key(format = "position")]` as its position and name.

use syn::{Data, DeriveInput, Expr, Fields, Generics, Ident, LitStr};

use crate::attr;
use crate::attr::key::Format;
use crate::ctxt::Ctxt;

/// A `#[derive(KeyPart)]` input.
pub(crate) struct KeyPart<'a> {
    pub(crate) original: &'a DeriveInput,
    pub(crate) ident: &'a Ident,
    pub(crate) generics: &'a Generics,
    /// The unit variants, in declaration order (others are reported).
    pub(crate) variants: Vec<Variant<'a>>,
    /// `#[key(format = …)]`: names (the default) or positions and names.
    pub(crate) format: Format,
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

    /// The component the variant encodes to: its name (`High`), what a
    /// table designed by hand writes (`STATUS#active`); adding a variant
    /// anywhere changes no stored key.
    ///
    /// With `#[key(format = "position")]`, its position among the enum's
    /// variants in two digits, `-`, and its name (`02-High`): keys sort as
    /// the variants are declared whatever the names, and inserting a
    /// variant re-keys those after it.
    pub(crate) fn component(&self, format: Format) -> String {
        match format {
            Format::Name => self.name(),
            Format::Position => format!(
                "{:0width$}-{}",
                self.position,
                self.name(),
                width = POSITION_DIGITS
            ),
        }
    }
}

impl KeyPart<'_> {
    /// The stored components, in declaration order.
    pub(crate) fn components(&self) -> Vec<String> {
        self.variants
            .iter()
            .map(|variant| variant.component(self.format))
            .collect()
    }

    /// Whether the stored components sort bytewise in declaration order
    /// (rule 1 of the key contract, with the derived `Ord`): always with
    /// positions, with names only when they happen to (or are renamed to).
    pub(crate) fn ordered(&self) -> bool {
        self.components().windows(2).all(|pair| pair[0] < pair[1])
    }

    /// Whether no component is a proper prefix of another, so that a hole
    /// of this type may be followed by literal text in its segment.
    pub(crate) fn prefix_free(&self) -> bool {
        let components = self.components();
        components.iter().all(|a| {
            components
                .iter()
                .all(|b| a == b || !b.starts_with(a.as_str()))
        })
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
            format: attr::key::enum_format(cx, &input.attrs),
            original: input,
            ident: &input.ident,
            generics: &input.generics,
            variants,
        }
    }
}
