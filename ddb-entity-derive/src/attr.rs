//! Reading `#[entity(…)]` and `#[key(…)]` attributes.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Attribute, LitStr, Path};

use crate::ctxt::Ctxt;

/// Every `#[entity(…)]` of one struct, merged.
#[derive(Default)]
pub(crate) struct EntityAttrs {
    pub(crate) table: Option<Path>,
    pub(crate) pk: Option<LitStr>,
    pub(crate) sk: Option<LitStr>,
    pub(crate) type_name: Option<LitStr>,
    /// `version = "field"`: optimistic locking on that field.
    pub(crate) version: Option<LitStr>,
    /// `created_at = "field"` / `updated_at = "field"`: maintained timestamps.
    pub(crate) created_at: Option<LitStr>,
    pub(crate) updated_at: Option<LitStr>,
    pub(crate) indexes: Vec<IndexAttrs>,
}

/// One `#[entity(index = …, pk = "…", sk = "…")]`.
pub(crate) struct IndexAttrs {
    pub(crate) index: Path,
    pub(crate) pk: Option<LitStr>,
    pub(crate) sk: Option<LitStr>,
    /// The whole attribute, for errors about it.
    pub(crate) span: Span,
}

enum Value {
    Path(Path),
    Str(LitStr),
}

const PRIMARY_KEYS: &str = "`table`, `pk`, `sk`, `type`, `version`, `created_at`, `updated_at`";
const INDEX_KEYS: &str = "`index`, `pk`, `sk`";

/// Reads the `#[entity(…)]` attributes. Unknown or repeated keys are
/// recorded in `cx` and skipped, so one compile reports all of them.
pub(crate) fn entity_attrs(cx: &Ctxt, attrs: &[Attribute]) -> EntityAttrs {
    let mut merged = EntityAttrs::default();
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("entity")) {
        let entries = entries(cx, attr);
        let is_index = entries.iter().any(|(name, _)| name == "index");
        if is_index {
            let mut index = None;
            let (mut pk, mut sk) = (None, None);
            for (name, value) in entries {
                match (name.as_str(), value) {
                    ("index", Value::Path(path)) => set(cx, &mut index, path, "index"),
                    ("pk", Value::Str(lit)) => set(cx, &mut pk, lit, "pk"),
                    ("sk", Value::Str(lit)) => set(cx, &mut sk, lit, "sk"),
                    (other, value) => wrong_key(cx, other, &value, INDEX_KEYS, "an index"),
                }
            }
            if let Some(index) = index {
                merged.indexes.push(IndexAttrs {
                    index,
                    pk,
                    sk,
                    span: attr.span(),
                });
            }
        } else {
            for (name, value) in entries {
                match (name.as_str(), value) {
                    ("table", Value::Path(path)) => set(cx, &mut merged.table, path, "table"),
                    ("pk", Value::Str(lit)) => set(cx, &mut merged.pk, lit, "pk"),
                    ("sk", Value::Str(lit)) => set(cx, &mut merged.sk, lit, "sk"),
                    ("type", Value::Str(lit)) => set(cx, &mut merged.type_name, lit, "type"),
                    ("version", Value::Str(lit)) => set(cx, &mut merged.version, lit, "version"),
                    ("created_at", Value::Str(lit)) => {
                        set(cx, &mut merged.created_at, lit, "created_at")
                    }
                    ("updated_at", Value::Str(lit)) => {
                        set(cx, &mut merged.updated_at, lit, "updated_at")
                    }
                    (other, value) => wrong_key(cx, other, &value, PRIMARY_KEYS, "the primary key"),
                }
            }
        }
    }
    merged
}

/// The `name = value` entries of one attribute; a value is a path for
/// `table`/`index` and a string literal otherwise.
fn entries(cx: &Ctxt, attr: &Attribute) -> Vec<(String, Value)> {
    let mut entries = Vec::new();
    let parsed = attr.parse_nested_meta(|meta| {
        let name = meta
            .path
            .get_ident()
            .map(|ident| ident.to_string())
            .unwrap_or_default();
        let value = if name == "table" || name == "index" {
            Value::Path(meta.value()?.parse()?)
        } else {
            match meta.value()?.parse::<syn::Lit>()? {
                syn::Lit::Str(lit) => Value::Str(lit),
                other => {
                    cx.error(
                        &other,
                        format!("`{name}` takes a string, e.g. {name} = \"CUST#{{id}}\""),
                    );
                    return Ok(());
                }
            }
        };
        if name.is_empty() {
            cx.error(&meta.path, "expected a key such as `pk`, not a path");
            return Ok(());
        }
        entries.push((name, value));
        Ok(())
    });
    if let Err(err) = parsed {
        cx.syn_error(err);
    }
    entries
}

fn set<T: quote::ToTokens>(cx: &Ctxt, slot: &mut Option<T>, value: T, name: &str) {
    if slot.is_some() {
        cx.error(&value, format!("`{name}` is given twice; keep one"));
    } else {
        *slot = Some(value);
    }
}

fn wrong_key(cx: &Ctxt, name: &str, value: &Value, expected: &str, what: &str) {
    let span = match value {
        Value::Path(path) => path.span(),
        Value::Str(lit) => lit.span(),
    };
    let message = match name {
        "table" | "type" | "version" | "created_at" | "updated_at" => format!(
            "`{name}` belongs to the primary key's #[entity(…)], not to an index's; an index attribute takes {expected}"
        ),
        "pk" | "sk" | "index" => format!("`{name}` takes a different kind of value here"),
        _ => format!("unknown key `{name}` in #[entity(…)] for {what}; expected one of {expected}"),
    };
    cx.error_at(span, message);
}

/// `#[key(rename = "…")]` on an enum variant.
pub(crate) fn variant_rename(cx: &Ctxt, attrs: &[Attribute]) -> Option<LitStr> {
    let mut rename = None;
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("key")) {
        let parsed = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                let lit: LitStr = meta.value()?.parse()?;
                set(cx, &mut rename, lit, "rename");
                Ok(())
            } else {
                Err(meta.error("unknown key in #[key(…)]; expected `rename = \"…\"`"))
            }
        });
        if let Err(err) = parsed {
            cx.syn_error(err);
        }
    }
    rename
}
