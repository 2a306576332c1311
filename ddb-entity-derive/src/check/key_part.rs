//! `#[derive(KeyPart)]`: an enum of unit variants whose names can stand in
//! a key and tell the variants apart, and, when its stored names sort in
//! declaration order, whose derived order is that order too.

use syn::{Expr, ExprLit, ExprUnary, Lit, UnOp};

use crate::ast::{KeyPart, MAX_VARIANTS};
use crate::attr::key::Format;
use crate::ctxt::Ctxt;

pub(crate) fn key_part(cx: &Ctxt, key_part: &KeyPart<'_>) {
    let syn::Data::Enum(data) = &key_part.original.data else {
        return;
    };
    if data.variants.is_empty() {
        cx.error(
            key_part.ident,
            "#[derive(KeyPart)] needs at least one variant",
        );
    }
    if key_part.format == Format::Position && data.variants.len() > MAX_VARIANTS {
        cx.error(
            &data.variants[MAX_VARIANTS].ident,
            format!("#[key(format = \"position\")] numbers variants with two digits, so an enum has at most {MAX_VARIANTS}; store names (remove the format) or implement `KeyPart` by hand for a larger one"),
        );
    }
    for (position, variant) in key_part.variants.iter().enumerate() {
        let name = variant.name();
        let span = variant
            .rename
            .as_ref()
            .map_or_else(|| variant.ident.span(), |lit| lit.span());
        if name.is_empty() || name.bytes().any(|b| b <= b'$') {
            cx.error_at(
                span,
                format!(
                    "key name {name:?} must be non-empty and free of spaces and of `!\"#$` and control characters; rename it with #[key(rename = \"…\")]"
                ),
            );
        } else if let Some(earlier) = key_part.variants[..position]
            .iter()
            .find(|v| v.name() == name)
        {
            cx.error_at(
                span,
                format!(
                    "key name {name:?} is already used by `{}`: the two would read alike in stored keys; give each variant its own name",
                    earlier.ident
                ),
            );
        }
    }
    // An enum whose names do not sort is no sort key's part at all (the
    // entity derive refuses it there), so its `Ord` never meets a key.
    if key_part.ordered() {
        discriminants(cx, key_part);
    }
}

/// Keys of an ordered enum sort in declaration order; the derived `Ord`
/// sorts by discriminant. Explicit discriminants must therefore increase
/// as declared.
fn discriminants(cx: &Ctxt, key_part: &KeyPart<'_>) {
    let mut previous: Option<(i128, &syn::Ident)> = None;
    for variant in &key_part.variants {
        let value = match variant.discriminant {
            // An implicit discriminant is the previous one plus one.
            None => previous.map_or(0, |(value, _)| value + 1),
            Some(expr) => {
                let Some(value) = integer(expr) else {
                    cx.error(
                        expr,
                        "write the discriminant as an integer literal: keys sort in declaration order, and #[derive(KeyPart)] checks that the discriminants (which order the derived `Ord`) do too",
                    );
                    return;
                };
                if let Some((before, earlier)) = previous
                    && value <= before
                {
                    cx.error(
                        expr,
                        format!(
                            "`{}` is declared after `{earlier}` but its discriminant is not greater, so the derived `Ord` and the key order would disagree; declare the variants in discriminant order",
                            variant.ident
                        ),
                    );
                    return;
                }
                value
            }
        };
        previous = Some((value, variant.ident));
    }
}

fn integer(expr: &Expr) -> Option<i128> {
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Int(int), ..
        }) => int.base10_parse().ok(),
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr,
            ..
        }) => integer(expr).map(|v| -v),
        Expr::Group(group) => integer(&group.expr),
        Expr::Paren(paren) => integer(&paren.expr),
        _ => None,
    }
}
