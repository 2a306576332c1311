//! What the entity's `#[serde(…)]` attributes say about where each field is
//! stored: the attribute names updates must use.

use syn::Attribute;
use syn::meta::ParseNestedMeta;

/// What serde does with one field.
#[derive(Default)]
pub(crate) struct SerdeField {
    /// `skip`, `skip_serializing` or `skip_deserializing`: not stored.
    pub(crate) skipped: bool,
    /// `flatten`: stored as several attributes, none under its name.
    pub(crate) flatten: bool,
    /// `rename = "…"` or `rename(serialize = "…")`.
    pub(crate) rename: Option<String>,
}

pub(crate) fn field(attrs: &[Attribute]) -> SerdeField {
    let mut field = SerdeField::default();
    for_each_serde_key(attrs, |meta| {
        if meta.path.is_ident("skip")
            || meta.path.is_ident("skip_serializing")
            || meta.path.is_ident("skip_deserializing")
        {
            field.skipped = true;
        } else if meta.path.is_ident("flatten") {
            field.flatten = true;
        } else if meta.path.is_ident("rename") {
            field.rename = serialize_name(meta)?;
            return Ok(());
        }
        skip_value(meta)
    });
    field
}

/// The container's `rename_all = "…"` (or `rename_all(serialize = "…")`).
pub(crate) fn rename_all(attrs: &[Attribute]) -> Option<String> {
    let mut rule = None;
    for_each_serde_key(attrs, |meta| {
        if meta.path.is_ident("rename_all") {
            rule = serialize_name(meta)?;
            return Ok(());
        }
        skip_value(meta)
    });
    rule
}

/// The stored name of a field called `name` under container rule `rule`,
/// as serde computes it.
pub(crate) fn apply_rename_all(rule: &str, name: &str) -> String {
    let words: Vec<&str> = name.split('_').filter(|w| !w.is_empty()).collect();
    let capitalised = |w: &&str| {
        let mut chars = w.chars();
        chars
            .next()
            .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
    };
    match rule {
        "lowercase" => name.to_lowercase(),
        "UPPERCASE" => name.to_uppercase(),
        "PascalCase" => words.iter().map(capitalised).collect(),
        "camelCase" => {
            let pascal: String = words.iter().map(capitalised).collect();
            let mut chars = pascal.chars();
            chars
                .next()
                .map_or_else(String::new, |c| c.to_lowercase().chain(chars).collect())
        }
        "SCREAMING_SNAKE_CASE" => name.to_uppercase(),
        "kebab-case" => name.replace('_', "-"),
        "SCREAMING-KEBAB-CASE" => name.to_uppercase().replace('_', "-"),
        _ => name.to_owned(), // snake_case, or a rule serde itself rejects
    }
}

fn for_each_serde_key(
    attrs: &[Attribute],
    mut f: impl FnMut(&ParseNestedMeta<'_>) -> syn::Result<()>,
) {
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("serde")) {
        // serde reports its own attribute errors; we only read what we need.
        let _ = attr.parse_nested_meta(|meta| f(&meta));
    }
}

/// `key = "x"` → x; `key(serialize = "x", …)` → x.
fn serialize_name(meta: &ParseNestedMeta<'_>) -> syn::Result<Option<String>> {
    if meta.input.peek(syn::Token![=]) {
        let lit: syn::LitStr = meta.value()?.parse()?;
        return Ok(Some(lit.value()));
    }
    let mut name = None;
    meta.parse_nested_meta(|inner| {
        let lit: syn::LitStr = inner.value()?.parse()?;
        if inner.path.is_ident("serialize") {
            name = Some(lit.value());
        }
        Ok(())
    })?;
    Ok(name)
}

fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        let _: syn::Expr = meta.value()?.parse()?;
    } else if meta.input.peek(syn::token::Paren) {
        let content;
        syn::parenthesized!(content in meta.input);
        let _: proc_macro2::TokenStream = content.parse()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::apply_rename_all;

    #[test]
    fn rename_all_rules_match_serde() {
        let cases = [
            ("camelCase", "placed_at", "placedAt"),
            ("PascalCase", "placed_at", "PlacedAt"),
            ("SCREAMING_SNAKE_CASE", "placed_at", "PLACED_AT"),
            ("kebab-case", "placed_at", "placed-at"),
            ("SCREAMING-KEBAB-CASE", "placed_at", "PLACED-AT"),
            ("lowercase", "placed_at", "placed_at"),
            ("UPPERCASE", "placed_at", "PLACED_AT"),
            ("snake_case", "placed_at", "placed_at"),
        ];
        for (rule, name, expected) in cases {
            assert_eq!(apply_rename_all(rule, name), expected, "{rule}");
        }
    }
}
