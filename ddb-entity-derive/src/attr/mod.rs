//! Reading the derives' own attributes, `#[entity(…)]` and `#[key(…)]`, and
//! what `#[serde(…)]` says about stored names.
//!
//! An attribute is read entry by entry: a malformed entry or an unknown
//! option is reported and the rest of the attribute is still read, and a
//! misspelt option that is near a real one is read as that one, so one typo
//! is one error rather than a missing option and everything after it.

pub(crate) mod entity;
pub(crate) mod key;
pub(crate) mod serde;

use proc_macro2::{Delimiter, Ident, TokenStream, TokenTree};
use syn::spanned::Spanned;
use syn::{Attribute, Meta};

use crate::ctxt::Ctxt;
use crate::name;

/// One `name = value` of an attribute's list.
pub(crate) struct Entry {
    /// The option as written (for spans).
    pub(crate) name: Ident,
    /// The option it is read as: the name, or the near option it misspells.
    pub(crate) option: &'static str,
    pub(crate) value: TokenStream,
}

/// The entries of `#[attr(a = …, b = …)]`. `options` are the names the
/// attribute takes; `example` shows a whole attribute for messages.
pub(crate) fn entries(
    cx: &Ctxt,
    attr: &Attribute,
    options: &[&'static str],
    example: &str,
) -> Vec<Entry> {
    let list = match &attr.meta {
        Meta::List(list) if matches!(list.delimiter, syn::MacroDelimiter::Paren(_)) => list,
        meta => {
            cx.error(meta, format!("write the options in parentheses: {example}"));
            return Vec::new();
        }
    };
    let attr_name = format!(
        "#[{}(…)]",
        list.path.get_ident().map_or_else(String::new, name::unraw)
    );
    let place = format!("in {attr_name}");
    let mut entries = Vec::new();
    for chunk in split_commas(list.tokens.clone()) {
        let mut tokens = chunk.into_iter();
        let first = tokens.next().expect("split_commas yields no empty part");
        let TokenTree::Ident(name) = first else {
            cx.error_at(
                first.span(),
                format!("expected an option name, as in {example}"),
            );
            continue;
        };
        let written = name::unraw(&name);
        match tokens.next() {
            Some(TokenTree::Punct(punct)) if punct.as_char() == '=' => {}
            Some(TokenTree::Group(group)) if group.delimiter() == Delimiter::Parenthesis => {
                cx.error_at(
                    group.span(),
                    format!(
                        "`{written}` takes a value after `=`, not a list: write `{written} = …`"
                    ),
                );
                continue;
            }
            _ => {
                cx.error(
                    &name,
                    format!("`{written}` needs a value: write `{written} = …`"),
                );
                continue;
            }
        }
        let value: TokenStream = tokens.collect();
        if value.is_empty() {
            cx.error(&name, format!("`{written} =` needs a value after the `=`"));
            continue;
        }
        let Some(option) = known_option(cx, &name, options, &place) else {
            continue;
        };
        entries.push(Entry {
            name,
            option,
            value,
        });
    }
    entries
}

/// The option of `options` that `name` names. A misspelt one is an error
/// at it, and read as the option it is near; one near none is an error
/// listing them (`None`). `place` says where, for messages: `of the table`,
/// `in #[entity(…)]`.
pub(crate) fn known_option(
    cx: &Ctxt,
    name: &Ident,
    options: &[&'static str],
    place: &str,
) -> Option<&'static str> {
    let written = name::unraw(name);
    if let Some(option) = options.iter().find(|option| **option == written) {
        return Some(option);
    }
    match name::closest(&written, options.iter().copied()) {
        Some(near) => {
            cx.error(
                name,
                format!("unknown option `{written}` {place}; did you mean `{near}`?"),
            );
            Some(near)
        }
        None => {
            cx.error(
                name,
                format!(
                    "unknown option `{written}` {place}; the options are {}",
                    list_options(options)
                ),
            );
            None
        }
    }
}

/// The parts of `tokens` between its top-level commas, empty ones (a
/// trailing comma) left out.
pub(crate) fn split_commas(tokens: TokenStream) -> Vec<TokenStream> {
    let mut parts = vec![TokenStream::new()];
    for token in tokens {
        match &token {
            TokenTree::Punct(punct) if punct.as_char() == ',' => parts.push(TokenStream::new()),
            _ => parts.last_mut().expect("one part").extend([token]),
        }
    }
    parts.retain(|part| !part.is_empty());
    parts
}

/// `` `a`, `b`, `c` `` for messages.
pub(crate) fn list_options(options: &[&str]) -> String {
    options
        .iter()
        .map(|option| format!("`{option}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Records `value` in `slot`, or an error at it when the option was given
/// already (the first stays).
pub(crate) fn set<T: Spanned>(cx: &Ctxt, slot: &mut Option<T>, value: T, option: &str) {
    if slot.is_some() {
        cx.error_at(value.span(), format!("`{option}` is given twice; keep one"));
    } else {
        *slot = Some(value);
    }
}
