//! `table!`: `ddb_entity::table!` is a `macro_rules` macro that forwards
//! its input here, after the runtime crate's path (`[$crate]`).
//!
//! A proc macro rather than `macro_rules` arms, so that the options come
//! in any order, each at most once, and every mistake is one error at the
//! token written, with a did-you-mean as `#[entity(…)]`'s. Like the
//! derives, it records every error and recovers (a misspelt option is
//! read as the option it is near, a bad value as the default), and always
//! writes the table, its indexes and their impls, so a mistake is not
//! followed by "cannot find type `App`" wherever the table is used.

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use quote::{ToTokens, quote, quote_spanned};
use syn::parse::{ParseStream, Parser};
use syn::{Attribute, Ident, LitBool, LitChar, LitInt, LitStr, Token, Visibility};

use crate::attr::{known_option, list_options, split_commas};
use crate::ctxt::Ctxt;
use crate::name;

/// The characters that may join key segments. The runtime crate's
/// `key::KEY_DELIMITERS` is the same list; its test
/// `table_accepts_every_key_delimiter` declares a table with each.
const KEY_DELIMITERS: &[char] = &['#', '|', ':', '_', '/', '~', ';', ','];

const TABLE_OPTIONS: &[&str] = &[
    "partition_key",
    "sort_key",
    "type_attribute",
    "ttl_attribute",
    "token_attribute",
    "typed_by",
    "write_tokens",
    "delimiter",
    "billing",
    "indexes",
    "local_indexes",
    "multi_key_indexes",
];
const INDEX_OPTIONS: &[&str] = &["partition_key", "sort_key", "projection", "capacity"];
const LOCAL_OPTIONS: &[&str] = &["sort_key", "projection"];
const MULTI_OPTIONS: &[&str] = &["partition_key", "sort_key"];
const CAPACITY_OPTIONS: &[&str] = &["read", "write"];
const TYPINGS: &[&str] = &["Attribute", "Key", "KeyAndAttribute"];
const PROJECTIONS: &[&str] = &["all", "keys_only", "include"];
const BILLINGS: &[&str] = &["on_demand", "provisioned"];
const KEY_TYPES: &[&str] = &["S", "N", "B"];
const TYPING_CHOICES: &str =
    "`Attribute` (a type attribute), `Key` (the keys alone) or `KeyAndAttribute`";
const BILLING_CHOICES: &str = "`on_demand` or `provisioned { read: 5, write: 5 }`";
const PROJECTION_CHOICES: &str = "`all`, `keys_only` or `include[\"attribute\", …]`";

pub(crate) fn table(input: TokenStream) -> TokenStream {
    let cx = Ctxt::new();
    let parsed = (|input: ParseStream<'_>| parse(&cx, input)).parse2(input);
    let errors = cx.check().err().map(|errors| errors.to_compile_error());
    match parsed {
        Ok(table) => {
            let items = expand(&table);
            quote!(#items #errors)
        }
        Err(error) => {
            let error = error.to_compile_error();
            quote!(#error #errors)
        }
    }
}

/// One `name: value` entry of a block, its name checked.
struct Entry {
    name: Ident,
    /// The option it is, or is near.
    option: &'static str,
    value: TokenStream,
}

struct Table {
    krate: TokenStream,
    attrs: Vec<Attribute>,
    vis: Visibility,
    ident: Ident,
    partition_key: Option<LitStr>,
    sort_key: Option<LitStr>,
    type_attribute: Option<LitStr>,
    ttl_attribute: Option<LitStr>,
    token_attribute: Option<LitStr>,
    typed_by: Option<Ident>,
    write_tokens: Option<LitBool>,
    delimiter: Option<LitChar>,
    billing: Option<TokenStream>,
    indexes: Vec<GlobalIndex>,
    local_indexes: Vec<LocalIndex>,
    multi_key_indexes: Vec<MultiIndex>,
}

/// What every kind of index starts with: `/// docs pub Name = "Name"`.
struct Header {
    attrs: Vec<Attribute>,
    vis: Visibility,
    ident: Ident,
    name: LitStr,
}

struct GlobalIndex {
    header: Header,
    partition_key: Option<LitStr>,
    sort_key: Option<LitStr>,
    projection: Option<TokenStream>,
    capacity: Option<TokenStream>,
}

struct LocalIndex {
    header: Header,
    sort_key: Option<LitStr>,
    projection: Option<TokenStream>,
}

struct MultiIndex {
    header: Header,
    partition_key: Vec<(LitStr, Ident)>,
    sort_key: Vec<(LitStr, Ident)>,
}

fn parse(cx: &Ctxt, input: ParseStream<'_>) -> syn::Result<Table> {
    let krate;
    syn::bracketed!(krate in input);
    let krate: TokenStream = krate.parse()?;
    let attrs = input.call(Attribute::parse_outer)?;
    let vis: Visibility = input.parse()?;
    input.parse::<Token![struct]>()?;
    let ident: Ident = input.parse()?;
    let body;
    syn::braced!(body in input);
    let body: TokenStream = body.parse()?;
    if !input.is_empty() {
        return Err(input.error("`table!` declares one table: `pub struct App { … }`"));
    }
    let mut table = Table {
        krate,
        attrs,
        vis,
        ident,
        partition_key: None,
        sort_key: None,
        type_attribute: None,
        ttl_attribute: None,
        token_attribute: None,
        typed_by: None,
        write_tokens: None,
        delimiter: None,
        billing: None,
        indexes: Vec::new(),
        local_indexes: Vec::new(),
        multi_key_indexes: Vec::new(),
    };
    let mut seen = Vec::new();
    for entry in entries(cx, body, TABLE_OPTIONS, "the table", &mut seen) {
        let Entry {
            name,
            option,
            value,
        } = entry;
        match option {
            "partition_key" => table.partition_key = attribute(cx, option, value),
            "sort_key" => table.sort_key = attribute(cx, option, value),
            "type_attribute" => table.type_attribute = attribute(cx, option, value),
            "ttl_attribute" => table.ttl_attribute = attribute(cx, option, value),
            "token_attribute" => table.token_attribute = attribute(cx, option, value),
            "typed_by" => {
                table.typed_by = word(cx, &name, value, TYPINGS, "typing", TYPING_CHOICES)
            }
            "write_tokens" => table.write_tokens = write_tokens(cx, value),
            "delimiter" => table.delimiter = delimiter(cx, value),
            "billing" => table.billing = billing(cx, &table.krate, &name, value),
            "indexes" => {
                table.indexes = list(cx, &name, value, |cx, header, body| {
                    global_index(cx, &table.krate, header, body)
                });
            }
            "local_indexes" => {
                table.local_indexes = list(cx, &name, value, |cx, header, body| {
                    local_index(cx, &table.krate, header, body)
                });
            }
            "multi_key_indexes" => {
                table.multi_key_indexes = list(cx, &name, value, multi_index);
            }
            _ => unreachable!("every table option is read"),
        }
    }
    if table.partition_key.is_none() && !seen.contains(&"partition_key") {
        cx.error(
            &table.ident,
            format!(
                "table `{}` needs its partition key attribute: `partition_key: \"PK\"`",
                table.ident
            ),
        );
    }
    Ok(table)
}

/// The `name: value` entries of a block, split at its top-level commas,
/// each name one of `options` (or reported, and read as the option it is
/// near, with a did-you-mean), each at most once. `seen` is every option
/// named, given well or not, so that a bad value is not also "missing".
fn entries(
    cx: &Ctxt,
    body: TokenStream,
    options: &'static [&'static str],
    what: &str,
    seen: &mut Vec<&'static str>,
) -> Vec<Entry> {
    let mut entries = Vec::new();
    for part in split_commas(body) {
        let mut tokens = part.into_iter();
        let first = tokens.next().expect("split_commas yields no empty part");
        let TokenTree::Ident(name) = first else {
            cx.error_at(
                first.span(),
                format!(
                    "expected an option of {what}, as in `partition_key: \"PK\"`; the options are {}",
                    list_options(options)
                ),
            );
            continue;
        };
        let written = name::unraw(&name);
        let Some(option) = known_option(cx, &name, options, &format!("of {what}")) else {
            continue;
        };
        match tokens.next() {
            Some(TokenTree::Punct(punct)) if punct.as_char() == ':' => {}
            _ => {
                cx.error(
                    &name,
                    format!("`{written}` needs a value after a colon: `{option}: …`"),
                );
                continue;
            }
        }
        let value: TokenStream = tokens.collect();
        if seen.contains(&option) {
            cx.error(&name, format!("`{option}` is given twice; keep one"));
            continue;
        }
        seen.push(option);
        if value.is_empty() {
            cx.error(&name, format!("`{option}:` needs a value after the colon"));
            continue;
        }
        entries.push(Entry {
            name,
            option,
            value,
        });
    }
    entries
}

/// Parses all of `value` with `parser`, or records `message` at the value.
fn value<T>(
    cx: &Ctxt,
    value: TokenStream,
    parser: impl FnOnce(ParseStream<'_>) -> syn::Result<T>,
    message: impl FnOnce() -> String,
) -> Option<T> {
    match parser.parse2(value.clone()) {
        Ok(parsed) => Some(parsed),
        Err(_) => {
            cx.error(value, message());
            None
        }
    }
}

/// An attribute's name: `"PK"`.
fn attribute(cx: &Ctxt, option: &str, tokens: TokenStream) -> Option<LitStr> {
    value(
        cx,
        tokens,
        |input| input.parse::<LitStr>(),
        || format!("`{option}` takes the attribute's name as a string: `{option}: \"…\"`"),
    )
}

/// One of `words`, with a did-you-mean.
/// `choices` says how to write them, for messages.
fn word(
    cx: &Ctxt,
    name: &Ident,
    tokens: TokenStream,
    words: &[&'static str],
    what: &str,
    choices: &str,
) -> Option<Ident> {
    let option = name::unraw(name);
    let ident = value(
        cx,
        tokens,
        |input| input.parse::<Ident>(),
        || format!("`{option}` is {choices}"),
    )?;
    let written = name::unraw(&ident);
    if words.contains(&written.as_str()) {
        return Some(ident);
    }
    match name::closest(&written, words.iter().copied()) {
        Some(near) => {
            cx.error(
                &ident,
                format!("unknown {what} `{written}`; did you mean `{near}`?"),
            );
            Some(Ident::new(near, ident.span()))
        }
        None => {
            cx.error(
                &ident,
                format!("unknown {what} `{written}`: write {choices}"),
            );
            None
        }
    }
}

fn write_tokens(cx: &Ctxt, tokens: TokenStream) -> Option<LitBool> {
    value(
        cx,
        tokens,
        |input| input.parse::<LitBool>(),
        || "`write_tokens` is `true` or `false`".to_owned(),
    )
}

fn delimiter(cx: &Ctxt, tokens: TokenStream) -> Option<LitChar> {
    let listed = KEY_DELIMITERS
        .iter()
        .map(|c| format!("'{c}'"))
        .collect::<Vec<_>>()
        .join(", ");
    if let Ok(text) = (|input: ParseStream<'_>| input.parse::<LitStr>()).parse2(tokens.clone()) {
        let hint = match text.value().chars().collect::<Vec<_>>()[..] {
            [c] => format!("'{c}'"),
            _ => "'|'".to_owned(),
        };
        cx.error(
            &text,
            format!("a delimiter is one character, written as a char: `delimiter: {hint}`"),
        );
        return None;
    }
    let lit = value(
        cx,
        tokens,
        |input| input.parse::<LitChar>(),
        || format!("a delimiter is one of {listed}, written as a char: `delimiter: '|'`"),
    )?;
    if KEY_DELIMITERS.contains(&lit.value()) {
        Some(lit)
    } else {
        cx.error(
            &lit,
            format!(
                "{:?} cannot join key segments: a key delimiter is one of {listed} (see `ddb_entity::key::KEY_DELIMITERS`); letters and digits are text, braces template syntax, `$` the string escape, and `-` `.` appear inside the library's own encodings",
                lit.value()
            ),
        );
        None
    }
}

/// A value that starts with one of `words` (`provisioned { … }`,
/// `include[…]`): the word, checked as [`word`] does, and the tokens after
/// it; `not_a_word` is the error when the value starts with anything else.
fn word_then(
    cx: &Ctxt,
    name: &Ident,
    tokens: TokenStream,
    words: &[&'static str],
    what: &str,
    choices: &str,
    not_a_word: String,
) -> Option<(Ident, Vec<TokenTree>)> {
    let mut iter = tokens.clone().into_iter();
    let Some(TokenTree::Ident(first)) = iter.next() else {
        cx.error(tokens, not_a_word);
        return None;
    };
    let rest = iter.collect();
    let word = word(cx, name, first.to_token_stream(), words, what, choices)?;
    Some((word, rest))
}

/// `on_demand` or `provisioned { read: …, write: … }`, as the
/// `Billing` expression.
fn billing(
    cx: &Ctxt,
    krate: &TokenStream,
    name: &Ident,
    tokens: TokenStream,
) -> Option<TokenStream> {
    let (kind, rest) = word_then(
        cx,
        name,
        tokens,
        BILLINGS,
        "billing",
        BILLING_CHOICES,
        format!("`billing` is {BILLING_CHOICES}"),
    )?;
    match (name::unraw(&kind).as_str(), &rest[..]) {
        ("on_demand", []) => Some(quote!(#krate::Billing::OnDemand)),
        ("provisioned", [TokenTree::Group(group)]) if group.delimiter() == Delimiter::Brace => {
            let capacity = capacity(cx, group)?;
            Some(quote!(#krate::Billing::Provisioned(#krate::Throughput #capacity)))
        }
        ("provisioned", []) => {
            cx.error(
                &kind,
                "a provisioned table states its capacity: `billing: provisioned { read: 5, write: 5 }`",
            );
            None
        }
        _ => {
            let rest: TokenStream = rest.into_iter().collect();
            cx.error(rest, format!("`billing` is {BILLING_CHOICES}"));
            None
        }
    }
}

/// `{ read: 5, write: 10 }`, in either order, as the `Throughput` fields.
fn capacity(cx: &Ctxt, group: &proc_macro2::Group) -> Option<TokenStream> {
    let mut seen = Vec::new();
    let (mut read, mut write) = (None, None);
    for entry in entries(
        cx,
        group.stream(),
        CAPACITY_OPTIONS,
        "a capacity",
        &mut seen,
    ) {
        let option = entry.option;
        let units = value(
            cx,
            entry.value,
            |input| input.parse::<LitInt>(),
            || format!("`{option}` takes a number of units: `{option}: 5`"),
        );
        match option {
            "read" => read = units,
            _ => write = units,
        }
    }
    let mut missing = Vec::new();
    if read.is_none() && !seen.contains(&"read") {
        missing.push("read");
    }
    if write.is_none() && !seen.contains(&"write") {
        missing.push("write");
    }
    if !missing.is_empty() {
        cx.error_at(
            group.span_open(),
            format!(
                "a capacity states {}: `{{ read: 5, write: 5 }}`",
                missing
                    .iter()
                    .map(|m| format!("its {m} units"))
                    .collect::<Vec<_>>()
                    .join(" and ")
            ),
        );
    }
    let (read, write) = (read?, write?);
    Some(quote!({ read: #read, write: #write }))
}

/// `all`, `keys_only` or `include["a", …]`, as the `Projection`
/// expression.
fn projection(
    cx: &Ctxt,
    krate: &TokenStream,
    name: &Ident,
    tokens: TokenStream,
) -> Option<TokenStream> {
    let (kind, rest) = word_then(
        cx,
        name,
        tokens,
        PROJECTIONS,
        "projection",
        PROJECTION_CHOICES,
        format!("a projection is {PROJECTION_CHOICES}"),
    )?;
    match (name::unraw(&kind).as_str(), &rest[..]) {
        ("all", []) => Some(quote!(#krate::Projection::All)),
        ("keys_only", []) => Some(quote!(#krate::Projection::KeysOnly)),
        ("include", [TokenTree::Group(group)]) if group.delimiter() == Delimiter::Bracket => {
            let names = value(
                cx,
                group.stream(),
                |input| input.parse_terminated(|input| input.parse::<LitStr>(), Token![,]),
                || {
                    "`include` lists attribute names as strings: `include[\"status\", \"total_cents\"]`".to_owned()
                },
            )?;
            let names = names.iter();
            Some(quote!(#krate::Projection::Include(&[#(#names),*])))
        }
        ("include", []) => {
            cx.error(
                &kind,
                "`include` names the attributes it projects: `projection: include[\"status\", \"total_cents\"]`",
            );
            None
        }
        _ => {
            let rest: TokenStream = rest.into_iter().collect();
            cx.error(rest, format!("a projection is {PROJECTION_CHOICES}"));
            None
        }
    }
}

/// `{ Entry, … }` of one kind of index: each `/// docs pub Name = "Name" { … }`.
fn list<T>(
    cx: &Ctxt,
    name: &Ident,
    tokens: TokenStream,
    mut entry: impl FnMut(&Ctxt, Header, TokenStream) -> T,
) -> Vec<T> {
    let option = name::unraw(name);
    let mut iter = tokens.clone().into_iter();
    let body = match (iter.next(), iter.next()) {
        (Some(TokenTree::Group(group)), None) if group.delimiter() == Delimiter::Brace => {
            group.stream()
        }
        _ => {
            cx.error(
                tokens,
                format!("`{option}` lists its indexes in braces: `{option}: {{ pub ByEmail = \"ByEmail\" {{ … }} }}`"),
            );
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    for part in split_commas(body) {
        let header = |input: ParseStream<'_>| {
            let attrs = input.call(Attribute::parse_outer)?;
            let vis: Visibility = input.parse()?;
            let ident: Ident = input.parse()?;
            input.parse::<Token![=]>()?;
            let name: LitStr = input.parse()?;
            let body;
            syn::braced!(body in input);
            let body: TokenStream = body.parse()?;
            Ok((
                Header {
                    attrs,
                    vis,
                    ident,
                    name,
                },
                body,
            ))
        };
        match value(cx, part, header, || {
            format!(
                "an index of `{option}` is `pub ByEmail = \"ByEmail\" {{ … }}`: its type, its name in DynamoDB, and its keys"
            )
        }) {
            Some((header, body)) => out.push(entry(cx, header, body)),
            None => continue,
        }
    }
    out
}

fn global_index(cx: &Ctxt, krate: &TokenStream, header: Header, body: TokenStream) -> GlobalIndex {
    let what = format!("index `{}`", header.ident);
    let mut index = GlobalIndex {
        header,
        partition_key: None,
        sort_key: None,
        projection: None,
        capacity: None,
    };
    let mut seen = Vec::new();
    for Entry {
        name,
        option,
        value: tokens,
    } in entries(cx, body, INDEX_OPTIONS, &what, &mut seen)
    {
        match option {
            "partition_key" => index.partition_key = attribute(cx, option, tokens),
            "sort_key" => index.sort_key = attribute(cx, option, tokens),
            "projection" => index.projection = projection(cx, krate, &name, tokens),
            _ => {
                let mut iter = tokens.clone().into_iter();
                index.capacity = match (iter.next(), iter.next()) {
                    (Some(TokenTree::Group(group)), None)
                        if group.delimiter() == Delimiter::Brace =>
                    {
                        capacity(cx, &group)
                    }
                    _ => {
                        cx.error(tokens, "a capacity is `{ read: 5, write: 5 }`");
                        None
                    }
                };
            }
        }
    }
    if !seen.contains(&"partition_key") {
        cx.error(
            &index.header.ident,
            format!(
                "index `{}` needs its partition key attribute: `partition_key: \"GSI1PK\"`",
                index.header.ident
            ),
        );
    }
    index
}

fn local_index(cx: &Ctxt, krate: &TokenStream, header: Header, body: TokenStream) -> LocalIndex {
    let what = format!(
        "local index `{}` (its partition key is the table's)",
        header.ident
    );
    let mut index = LocalIndex {
        header,
        sort_key: None,
        projection: None,
    };
    let mut seen = Vec::new();
    for Entry {
        name,
        option,
        value: tokens,
    } in entries(cx, body, LOCAL_OPTIONS, &what, &mut seen)
    {
        match option {
            "sort_key" => index.sort_key = attribute(cx, option, tokens),
            _ => index.projection = projection(cx, krate, &name, tokens),
        }
    }
    if !seen.contains(&"sort_key") {
        cx.error(
            &index.header.ident,
            format!(
                "local index `{}` needs its sort key attribute: `sort_key: \"placed\"`",
                index.header.ident
            ),
        );
    }
    index
}

fn multi_index(cx: &Ctxt, header: Header, body: TokenStream) -> MultiIndex {
    let what = format!("multi-key index `{}`", header.ident);
    let mut index = MultiIndex {
        header,
        partition_key: Vec::new(),
        sort_key: Vec::new(),
    };
    let mut seen = Vec::new();
    for Entry {
        name,
        option,
        value: tokens,
    } in entries(cx, body, MULTI_OPTIONS, &what, &mut seen)
    {
        let attributes = key_attributes(cx, &name, tokens);
        match option {
            "partition_key" => index.partition_key = attributes,
            _ => index.sort_key = attributes,
        }
    }
    if !seen.contains(&"partition_key") {
        cx.error(
            &index.header.ident,
            format!(
                "multi-key index `{}` needs its partition key attributes: `partition_key: [\"tournament\": S]`",
                index.header.ident
            ),
        );
    }
    index
}

/// `["a": S, "b": N]`.
fn key_attributes(cx: &Ctxt, name: &Ident, tokens: TokenStream) -> Vec<(LitStr, Ident)> {
    let option = name::unraw(name);
    let example = || {
        format!(
            "`{option}` lists attributes and their types: `{option}: [\"tournament\": S, \"round\": N]`"
        )
    };
    let mut iter = tokens.clone().into_iter();
    let body = match (iter.next(), iter.next()) {
        (Some(TokenTree::Group(group)), None) if group.delimiter() == Delimiter::Bracket => {
            group.stream()
        }
        _ => {
            cx.error(tokens, example());
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    for part in split_commas(body) {
        let pair = |input: ParseStream<'_>| {
            let name: LitStr = input.parse()?;
            input.parse::<Token![:]>()?;
            let ty: Ident = input.parse()?;
            Ok((name, ty))
        };
        let Some((attribute, ty)) = value(cx, part, pair, example) else {
            continue;
        };
        let ty_name = name::unraw(&ty);
        if KEY_TYPES.contains(&ty_name.as_str()) {
            out.push((attribute, ty));
        } else {
            let message = match name::closest(&ty_name, KEY_TYPES.iter().copied()) {
                Some(near) if ty_name.len() > 1 => {
                    format!("unknown key attribute type `{ty_name}`; did you mean `{near}`?")
                }
                _ => format!(
                    "unknown key attribute type `{ty_name}`: write `S` (string), `N` (number) or `B` (binary)"
                ),
            };
            cx.error(&ty, message);
        }
    }
    out
}

fn some_or_none(value: Option<&impl ToTokens>) -> TokenStream {
    match value {
        Some(value) => quote!(::core::option::Option::Some(#value)),
        None => quote!(::core::option::Option::None),
    }
}

/// The items are spanned at the names they declare, so that a message
/// about the table or an index (not a `Table`, of another table) points at
/// its name in the declaration.
fn expand(table: &Table) -> TokenStream {
    let krate = &table.krate;
    let Table {
        attrs, vis, ident, ..
    } = table;
    let pk = match &table.partition_key {
        Some(pk) => pk.to_token_stream(),
        None => quote!(""),
    };
    let sk = some_or_none(table.sort_key.as_ref());
    let type_attribute = match &table.type_attribute {
        Some(name) => name.to_token_stream(),
        None => quote!("_type"),
    };
    let ttl = some_or_none(table.ttl_attribute.as_ref());
    let token_attribute = match &table.token_attribute {
        Some(name) => name.to_token_stream(),
        None => quote!("_wt"),
    };
    let typing = match &table.typed_by {
        Some(typing) => quote!(#krate::Typing::#typing),
        None => quote!(#krate::Typing::Attribute),
    };
    // Declared, or else what the typing implies.
    let write_tokens = match &table.write_tokens {
        Some(declared) => declared.to_token_stream(),
        None => quote!(#typing.default_write_tokens()),
    };
    let delimiter = match &table.delimiter {
        Some(delimiter) => delimiter.to_token_stream(),
        None => quote!('#'),
    };
    let billing = match &table.billing {
        Some(billing) => billing.clone(),
        None => quote!(#krate::Billing::OnDemand),
    };
    let globals = table.indexes.iter().map(|index| &index.header.ident);
    let locals = table.local_indexes.iter().map(|index| &index.header.ident);
    let multis = table
        .multi_key_indexes
        .iter()
        .map(|index| &index.header.ident);
    let sorted = table
        .sort_key
        .as_ref()
        .map(|_| quote!(impl #krate::SortedTable for #ident {}));
    let derives = quote!(#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]);

    let global_items = table.indexes.iter().map(|index| {
        let Header {
            attrs,
            vis,
            ident: index_ident,
            name,
        } = &index.header;
        let index_pk = match &index.partition_key {
            Some(pk) => pk.to_token_stream(),
            None => quote!(""),
        };
        let index_sk = some_or_none(index.sort_key.as_ref());
        let projection = match &index.projection {
            Some(projection) => projection.clone(),
            None => quote!(#krate::Projection::All),
        };
        let capacity = match &index.capacity {
            Some(capacity) => quote!(::core::option::Option::Some(#krate::Throughput #capacity)),
            None => quote!(::core::option::Option::None),
        };
        let sorted = index
            .sort_key
            .as_ref()
            .map(|_| quote!(impl #krate::SortedIndex for #index_ident {}));
        quote_spanned! {index_ident.span()=>
            #(#attrs)*
            #derives
            #vis struct #index_ident;

            impl #krate::Index for #index_ident {
                type Table = #ident;
                const SCHEMA: #krate::IndexSchema = #krate::IndexSchema {
                    name: #name,
                    keys: #krate::KeySchema {
                        partition_key: #index_pk,
                        sort_key: #index_sk,
                    },
                    kind: #krate::IndexKind::Global,
                    projection: #projection,
                    capacity: #capacity,
                };
            }

            #sorted
        }
    });

    let local_items = table.local_indexes.iter().map(|index| {
        let Header {
            attrs,
            vis,
            ident: index_ident,
            name,
        } = &index.header;
        let local_sk = match &index.sort_key {
            Some(sk) => sk.to_token_stream(),
            None => quote!(""),
        };
        let projection = match &index.projection {
            Some(projection) => projection.clone(),
            None => quote!(#krate::Projection::All),
        };
        quote_spanned! {index_ident.span()=>
            #(#attrs)*
            #derives
            #vis struct #index_ident;

            impl #krate::Index for #index_ident {
                type Table = #ident;
                const SCHEMA: #krate::IndexSchema = #krate::IndexSchema {
                    name: #name,
                    keys: #krate::KeySchema {
                        partition_key: #pk,
                        sort_key: ::core::option::Option::Some(#local_sk),
                    },
                    kind: #krate::IndexKind::Local,
                    projection: #projection,
                    capacity: ::core::option::Option::None,
                };
            }

            impl #krate::SortedIndex for #index_ident {}
            impl #krate::LocalIndex for #index_ident {}
        }
    });

    let multi_items = table.multi_key_indexes.iter().map(|index| {
        let Header {
            attrs,
            vis,
            ident: index_ident,
            name,
        } = &index.header;
        let attributes = |list: &[(LitStr, Ident)]| {
            let attributes = list.iter().map(|(name, ty)| {
                let ty = quote_spanned!(ty.span()=> #krate::KeyAttributeType::#ty);
                quote!(#krate::KeyAttribute { name: #name, ty: #ty })
            });
            quote!(&[#(#attributes),*])
        };
        let partition_key = attributes(&index.partition_key);
        let sort_key = attributes(&index.sort_key);
        quote_spanned! {index_ident.span()=>
            #(#attrs)*
            #derives
            #vis struct #index_ident;

            impl #krate::MultiKeyIndex for #index_ident {
                type Table = #ident;
                const SCHEMA: #krate::MultiKeyIndexSchema = #krate::MultiKeyIndexSchema {
                    name: #name,
                    partition_key: #partition_key,
                    sort_key: #sort_key,
                };
            }
        }
    });

    quote_spanned! {ident.span()=>
        #(#attrs)*
        #derives
        #vis struct #ident;

        impl #krate::Table for #ident {
            const SCHEMA: #krate::TableSchema = #krate::TableSchema {
                primary: #krate::KeySchema {
                    partition_key: #pk,
                    sort_key: #sk,
                },
                type_attribute: #type_attribute,
                ttl_attribute: #ttl,
                token_attribute: #token_attribute,
                typing: #typing,
                write_tokens: #write_tokens,
                delimiter: #delimiter,
                billing: #billing,
                indexes: &[#(<#globals as #krate::Index>::SCHEMA),*],
                local_indexes: &[#(<#locals as #krate::Index>::SCHEMA),*],
                multi_key_indexes: &[#(<#multis as #krate::MultiKeyIndex>::SCHEMA),*],
            };
        }

        #sorted

        #(#global_items)*
        #(#local_items)*
        #(#multi_items)*
    }
}
