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
    pub(crate) pk: Option<KeyValue>,
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
    /// first from version 1 (`_` for an old version no longer read), each
    /// converted to the next with `From`.
    pub(crate) upcast: Option<Upcast>,
    pub(crate) indexes: Vec<Index>,
    /// `computed = name: Type = function(field, …)`: values that index
    /// templates use like fields.
    pub(crate) computed: Vec<Computed>,
    /// `allow_hot = "reason"`: the table's partition key may be hot.
    pub(crate) allow_hot: Option<LitStr>,
    /// `key_fields = "key_only" | "key_and_body"`: whether primary-key
    /// fields are stored in the key only (the default) or also as
    /// attributes.
    pub(crate) key_fields: Option<LitStr>,
}

/// `function(field, …)`: a function (or `Self::method`) called with
/// references to the named fields.
#[derive(Clone)]
pub(crate) struct Call {
    pub(crate) function: syn::Path,
    pub(crate) args: Vec<syn::Ident>,
    pub(crate) span: Span,
}

/// `computed = day: NaiveDate = day_of(created_at)`.
pub(crate) struct Computed {
    pub(crate) name: syn::Ident,
    pub(crate) ty: syn::Type,
    pub(crate) call: Call,
}

/// A partition key: a template, or a field that is the key attribute.
pub(crate) enum KeyValue {
    /// `pk = "CUST#{id}"`
    Template(LitStr),
    /// `pk = session_token`: the field is the key attribute, stored once.
    Raw(syn::Ident),
}

impl quote::ToTokens for KeyValue {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match self {
            KeyValue::Template(lit) => lit.to_tokens(tokens),
            KeyValue::Raw(ident) => ident.to_tokens(tokens),
        }
    }
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
    pub(crate) pk: Option<KeyValue>,
    pub(crate) sk: Option<LitStr>,
    /// `when = predicate(field, …)`: the item is in the index only while
    /// the predicate holds.
    pub(crate) when: Option<Call>,
    /// `allow_hot = "reason"`: the index's partition key may be hot.
    pub(crate) allow_hot: Option<LitStr>,
    /// The whole attribute, for errors about it.
    pub(crate) span: Span,
}

const INDEX: &[&str] = &["index", "pk", "sk", "when", "allow_hot"];
const ALL: &[&str] = &[
    "table",
    "index",
    "pk",
    "sk",
    "type",
    "version",
    "created_at",
    "updated_at",
    "computed",
    "when",
    "allow_hot",
    "schema_version",
    "upcast",
    "key_fields",
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
                "pk" => {
                    if let Some(value) = key_value(cx, &entry) {
                        set(cx, &mut merged.pk, value, "pk");
                    }
                    continue;
                }
                "computed" => {
                    if let Some(computed) = computed(cx, &entry) {
                        merged.computed.push(computed);
                    }
                    continue;
                }
                "when" => {
                    cx.error(
                        &entry.name,
                        "`when` belongs in an index's #[entity(index = …, when = …)]: it decides which items that index holds",
                    );
                    continue;
                }
                "sk" => &mut merged.sk,
                "type" => &mut merged.type_tag,
                "version" => &mut merged.version,
                "created_at" => &mut merged.created_at,
                "updated_at" => &mut merged.updated_at,
                "allow_hot" => &mut merged.allow_hot,
                "key_fields" => &mut merged.key_fields,
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
    let (mut path, mut pk, mut sk, mut when, mut allow_hot) = (None, None, None, None, None);
    for entry in entries {
        match entry.option {
            "index" => {
                if let Some(value) = self::path(cx, &entry) {
                    set(cx, &mut path, value, "index");
                }
            }
            "pk" => {
                if let Some(value) = key_value(cx, &entry) {
                    set(cx, &mut pk, value, "pk");
                }
            }
            "sk" => {
                if let Some(lit) = string(cx, &entry) {
                    set(cx, &mut sk, lit, "sk");
                }
            }
            "allow_hot" => {
                if let Some(lit) = string(cx, &entry) {
                    set(cx, &mut allow_hot, lit, "allow_hot");
                }
            }
            "when" => match call(&entry.value) {
                Ok(value) if when.is_none() => when = Some(value),
                Ok(value) => cx.error_at(value.span, "`when` is given twice; keep one"),
                Err(err) => cx.error_at(
                    err.span(),
                    "`when` takes a predicate called with fields, e.g. when = is_open(status): a function (or `Self::method`) taking a reference to each field and returning `bool`",
                ),
            },
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
        when,
        allow_hot,
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

/// `function(field, …)`.
fn call(value: &TokenStream) -> syn::Result<Call> {
    let span = value_span(value);
    let call: syn::ExprCall = syn::parse2(value.clone())?;
    let syn::Expr::Path(function) = *call.func else {
        return Err(syn::Error::new(span, "not a path"));
    };
    let args = call
        .args
        .iter()
        .map(|arg| match arg {
            syn::Expr::Path(path) => path
                .path
                .get_ident()
                .cloned()
                .ok_or_else(|| syn::Error::new_spanned(arg, "not a field")),
            other => Err(syn::Error::new_spanned(other, "not a field")),
        })
        .collect::<syn::Result<Vec<_>>>()?;
    Ok(Call {
        function: function.path,
        args,
        span,
    })
}

/// `computed = name: Type = function(field, …)`.
fn computed(cx: &Ctxt, entry: &Entry) -> Option<Computed> {
    let parsed = |input: syn::parse::ParseStream<'_>| {
        let name: syn::Ident = input.parse()?;
        input.parse::<syn::Token![:]>()?;
        let ty: syn::Type = input.parse()?;
        input.parse::<syn::Token![=]>()?;
        let rest: TokenStream = input.parse()?;
        Ok((name, ty, rest))
    };
    match syn::parse::Parser::parse2(parsed, entry.value.clone()) {
        Ok((name, ty, rest)) => match call(&rest) {
            Ok(call) => Some(Computed { name, ty, call }),
            Err(_) => {
                cx.error_at(
                    value_span(&rest),
                    "a computed value is a function (or `Self::method`) called with fields, e.g. computed = day: NaiveDate = day_of(created_at)",
                );
                None
            }
        },
        Err(_) => {
            cx.error_at(
                value_span(&entry.value),
                "`computed` takes a name, its key type and the function of fields that computes it: computed = day: NaiveDate = day_of(created_at)",
            );
            None
        }
    }
}

/// The value of `pk`: a template in quotes, or a field's name.
fn key_value(cx: &Ctxt, entry: &Entry) -> Option<KeyValue> {
    if let Ok(ident) = syn::parse2::<syn::Ident>(entry.value.clone()) {
        return Some(KeyValue::Raw(ident));
    }
    string(cx, entry).map(KeyValue::Template)
}

/// The value of a string option.
fn string(cx: &Ctxt, entry: &Entry) -> Option<LitStr> {
    if let Ok(lit) = syn::parse2::<LitStr>(entry.value.clone()) {
        return Some(lit);
    }
    let option = entry.option;
    let example = match option {
        "pk" => {
            "a key template in quotes, e.g. pk = \"CUST#{customer_id}\", or a field that is the key attribute itself, e.g. pk = session_token"
        }
        "sk" => {
            if syn::parse2::<syn::Ident>(entry.value.clone()).is_ok() {
                "a key template in quotes: only a partition key can be a field itself (pk = field); a sort key is a template, which keeps the order, e.g. sk = \"{field}\""
            } else {
                "a key template in quotes, e.g. sk = \"ORDER#{order_id}\""
            }
        }
        "type" => "the entity type in quotes, e.g. type = \"ORDER\"",
        "version" => "the name of a `u64` field in quotes, e.g. version = \"version\"",
        "allow_hot" => {
            "the reason the partition key may be hot, in quotes, e.g. allow_hot = \"a few open tickets, written rarely\""
        }
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
