//! `#[entity(…)]`: the entity's table, key templates and maintained fields,
//! and one `#[entity(index = …, pk = "…", sk = "…")]` per index it fills.

use proc_macro2::{Span, TokenStream};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Attribute, LitInt, LitStr, Path, Token, Type};

use super::{Entry, list_options, set};
use crate::ctxt::Ctxt;

/// Every `#[entity(…)]` of one struct, merged. Holds what was written, as
/// written: templates are parsed and field names resolved later.
#[derive(Default)]
pub(crate) struct Entity {
    pub(crate) table: Option<Path>,
    pub(crate) pk: Option<LitStr>,
    pub(crate) sk: Option<LitStr>,
    /// `type = "…"`: the entity type, when the sort key has no literal
    /// first segment to name it.
    pub(crate) type_tag: Option<LitStr>,
    /// `version = "field"`: optimistic locking on that field.
    pub(crate) version: Option<LitStr>,
    /// `created_at = "field"` / `updated_at = "field"`: maintained timestamps.
    pub(crate) created_at: Option<LitStr>,
    pub(crate) updated_at: Option<LitStr>,
    /// `schema_version = N`: the version of the struct's shape, stored in
    /// every item.
    pub(crate) schema_version: Option<LitInt>,
    /// `upcast = [V1, V2]`: the shapes of the versions before it, oldest
    /// first, each converted to the next with `From`.
    pub(crate) upcast: Option<Upcast>,
    pub(crate) indexes: Vec<Index>,
}

/// `upcast = [OrderV1, OrderV2]`, as written.
pub(crate) struct Upcast {
    pub(crate) types: Vec<Type>,
    /// The list, for errors about it.
    pub(crate) span: Span,
}

/// One `#[entity(index = …, pk = "…", sk = "…")]`.
pub(crate) struct Index {
    pub(crate) path: Path,
    pub(crate) pk: Option<LitStr>,
    pub(crate) sk: Option<LitStr>,
    /// The whole attribute, for errors about it.
    pub(crate) span: Span,
}

const INDEX: &[&str] = &["index", "pk", "sk"];
const ALL: &[&str] = &[
    "table",
    "index",
    "pk",
    "sk",
    "type",
    "version",
    "created_at",
    "updated_at",
    "schema_version",
    "upcast",
];
const EXAMPLE: &str =
    "#[entity(table = App, pk = \"CUST#{customer_id}\", sk = \"ORDER#{order_id}\")]";

/// Reads the `#[entity(…)]` attributes. Every problem is recorded in `cx`
/// and the rest still read, so one compile reports all of them.
pub(crate) fn entity(cx: &Ctxt, attrs: &[Attribute]) -> Entity {
    let mut merged = Entity::default();
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("entity")) {
        let entries = super::entries(cx, attr, ALL, EXAMPLE);
        if entries.iter().any(|entry| entry.option == "index") {
            if let Some(index) = index(cx, attr.span(), entries) {
                merged.indexes.push(index);
            }
            continue;
        }
        for entry in entries {
            let slot = match entry.option {
                "table" => {
                    if let Some(path) = path(cx, &entry) {
                        set(cx, &mut merged.table, path, "table");
                    }
                    continue;
                }
                "schema_version" => {
                    if let Some(lit) = int(cx, &entry) {
                        set(cx, &mut merged.schema_version, lit, "schema_version");
                    }
                    continue;
                }
                "upcast" => {
                    if let Some(list) = upcast(cx, &entry) {
                        if merged.upcast.is_some() {
                            cx.error_at(list.span, "`upcast` is given twice; keep one");
                        } else {
                            merged.upcast = Some(list);
                        }
                    }
                    continue;
                }
                "pk" => &mut merged.pk,
                "sk" => &mut merged.sk,
                "type" => &mut merged.type_tag,
                "version" => &mut merged.version,
                "created_at" => &mut merged.created_at,
                "updated_at" => &mut merged.updated_at,
                _ => unreachable!("`index` makes an index attribute"),
            };
            if let Some(lit) = string(cx, &entry) {
                set(cx, slot, lit, entry.option);
            }
        }
    }
    merged
}

fn index(cx: &Ctxt, span: Span, entries: Vec<Entry>) -> Option<Index> {
    let (mut path, mut pk, mut sk) = (None, None, None);
    for entry in entries {
        match entry.option {
            "index" => {
                if let Some(value) = self::path(cx, &entry) {
                    set(cx, &mut path, value, "index");
                }
            }
            "pk" | "sk" => {
                let slot = if entry.option == "pk" { &mut pk } else { &mut sk };
                if let Some(lit) = string(cx, &entry) {
                    set(cx, slot, lit, entry.option);
                }
            }
            other => cx.error(
                &entry.name,
                format!(
                    "`{other}` belongs in the entity's own #[entity(…)], not in an index's; an index attribute takes {}",
                    list_options(INDEX)
                ),
            ),
        }
    }
    Some(Index {
        path: path?,
        pk,
        sk,
        span,
    })
}

/// The value of `table = App` or `index = Gsi1`: a type path. A quoted
/// name is reported and read as the path it spells.
fn path(cx: &Ctxt, entry: &Entry) -> Option<Path> {
    let option = entry.option;
    let what = if option == "table" {
        "the table type declared with `ddb_entity::table!`, e.g. table = App"
    } else {
        "an index type declared in the table's `ddb_entity::table!`, e.g. index = Gsi1"
    };
    if let Ok(path) = syn::parse2::<Path>(entry.value.clone()) {
        return Some(path);
    }
    if let Ok(lit) = syn::parse2::<LitStr>(entry.value.clone()) {
        let value = lit.value();
        cx.error(
            &lit,
            format!("`{option}` takes a type, not a string: write `{option} = {value}`"),
        );
        return lit.parse().ok();
    }
    cx.error_at(value_span(&entry.value), format!("`{option}` takes {what}"));
    None
}

/// The value of `schema_version = N`.
fn int(cx: &Ctxt, entry: &Entry) -> Option<LitInt> {
    if let Ok(lit) = syn::parse2::<LitInt>(entry.value.clone()) {
        return Some(lit);
    }
    cx.error_at(
        value_span(&entry.value),
        "`schema_version` takes a whole number, e.g. schema_version = 3",
    );
    None
}

/// The value of `upcast = [V1, V2]`.
fn upcast(cx: &Ctxt, entry: &Entry) -> Option<Upcast> {
    let parser = |input: syn::parse::ParseStream<'_>| {
        let content;
        syn::bracketed!(content in input);
        Punctuated::<Type, Token![,]>::parse_terminated(&content)
    };
    match syn::parse::Parser::parse2(parser, entry.value.clone()) {
        Ok(types) => Some(Upcast {
            types: types.into_iter().collect(),
            span: value_span(&entry.value),
        }),
        Err(_) => {
            cx.error_at(
                value_span(&entry.value),
                "`upcast` takes the types of the earlier versions in brackets, oldest first, e.g. upcast = [OrderV1, OrderV2]",
            );
            None
        }
    }
}

/// The value of a string option.
fn string(cx: &Ctxt, entry: &Entry) -> Option<LitStr> {
    if let Ok(lit) = syn::parse2::<LitStr>(entry.value.clone()) {
        return Some(lit);
    }
    let option = entry.option;
    let example = match option {
        "pk" => "a key template in quotes, e.g. pk = \"CUST#{customer_id}\"",
        "sk" => "a key template in quotes, e.g. sk = \"ORDER#{order_id}\"",
        "type" => "the entity type in quotes, e.g. type = \"ORDER\"",
        "version" => "the name of a `u64` field in quotes, e.g. version = \"version\"",
        _ => "the name of a timestamp field in quotes, e.g. updated_at = \"updated_at\"",
    };
    cx.error_at(
        value_span(&entry.value),
        format!("`{option}` takes {example}"),
    );
    None
}

fn value_span(value: &TokenStream) -> Span {
    let mut tokens = value.clone().into_iter();
    let first = tokens.next().map_or_else(Span::call_site, |t| t.span());
    tokens
        .last()
        .and_then(|last| first.join(last.span()))
        .unwrap_or(first)
}
