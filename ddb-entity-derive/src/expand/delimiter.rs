//! The table's declared key delimiter, the one truth an entity's templates
//! are checked against. The derive cannot see the `table!` declaration, so
//! it states the check as a const item at each template: a template that
//! joins segments with `#` on a table declared with another delimiter is
//! one compile error there, saying how to write it.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use crate::ast::{Entity, Followed};

/// The delimiters other than `#` a table may declare, for messages that
/// name the one declared (`ddb_entity::key::KEY_DELIMITERS`; one missing
/// here still fails, with a message that does not name it).
const DECLARABLE: [char; 7] = ['|', ':', '_', '/', '~', ';', ','];

/// One const item per template that writes `#`.
pub(super) fn checks(model: &Entity<'_>) -> TokenStream {
    let named = model.table();
    let table_name = quote!(#named).to_string().replace(' ', "");
    // Through the checked alias: a `table = …` that names no table is
    // reported once, by its own check, not again by each template's.
    let table = super::checks::table_alias();
    let checks = model.templates().filter(|t| !t.raw).filter_map(|template| {
        let text = template.lit.value();
        if !text.contains('#') {
            return None;
        }
        // `panic!` reads its message as a format string: braces doubled.
        let escape = |message: String| message.replace('{', "{{").replace('}', "}}");
        let span = template.lit.span();
        let arms = DECLARABLE.iter().map(|&delimiter| {
            let rewritten = text.replace('#', &delimiter.to_string());
            let message = escape(format!(
                "table `{table_name}` joins its key segments with `{delimiter}` (its `delimiter` in `table!`), and this template joins them with `#`: write \"{rewritten}\""
            ));
            quote_spanned!(span=> #delimiter => ::core::panic!(#message),)
        });
        let other = escape(format!(
            "table `{table_name}` declares another key `delimiter` than `#` in `table!`, and this template joins its segments with `#`: write them with the table's delimiter"
        ));
        Some(quote_spanned! {template.lit.span()=>
            const _: () = match <#table as ::ddb_entity::Table>::SCHEMA.delimiter {
                '#' => {}
                #(#arms)*
                _ => ::core::panic!(#other),
            };
        })
    });
    let holes = hole_checks(model, &table_name);
    quote!(#(#checks)* #holes)
}

/// On a table of another delimiter, a hole followed by more of the key
/// (the delimiter is then literal text of the template) needs what the
/// `#` split would have spared it: a prefix-free encoding before text, a
/// fixed length before another hole. Stated here, naming the delimiter;
/// the generic rule (`checks::segment_checks`) stands aside on such a
/// table so one mistake is one error.
fn hole_checks(model: &Entity<'_>, table_name: &str) -> TokenStream {
    let table = super::checks::table_alias();
    let mut seen: Vec<String> = Vec::new();
    let mut checks = Vec::new();
    for template in model.templates().filter(|t| !t.raw) {
        for hole in template.holes() {
            let followed = template.followed(&hole.name);
            if followed == Followed::Nothing
                || model.is_generic(hole.ty())
                || seen.contains(&hole.name)
            {
                continue;
            }
            seen.push(hole.name.clone());
            let ty = hole.ty();
            let part = match hole.width {
                Some(width) => quote!(::ddb_entity::__private::Padded<#width, #ty>),
                None => quote!(#ty),
            };
            let holds = match followed {
                Followed::ByHole => {
                    quote!(<#part as ::ddb_entity::__private::KeyPart>::FIXED_LEN.is_some())
                }
                _ => quote!(<#part as ::ddb_entity::__private::KeyPart>::PREFIX_FREE),
            };
            let name = &hole.name;
            let type_name = crate::ast::type_string(ty);
            let arms = DECLARABLE.iter().map(|&delimiter| {
                let message = format!(
                    "`{{{name}}}` is followed by more of the key, and a `{type_name}`'s key encoding has no fixed length and can start another's: on table `{table_name}`, whose delimiter `{delimiter}` (0x{:02X}) sorts above bytes a value writes, \"a{delimiter}…\" would sort after \"ab{delimiter}…\" and where the value ends could not be told; make `{{{name}}}` the key's last hole, or use a fixed-length type (an unsigned integer, a date or time, an `IsoSeconds`, a `Uuid`, a `Ulid`)",
                    u32::from(delimiter)
                )
                .replace('{', "{{")
                .replace('}', "}}");
                quote_spanned!(hole.span=> #delimiter => ::core::panic!(#message),)
            });
            checks.push(quote_spanned! {hole.span=>
                const _: () = if !(#holds) {
                    match <#table as ::ddb_entity::Table>::SCHEMA.delimiter {
                        '#' => {}
                        #(#arms)*
                        _ => ::core::panic!("a hole followed by more of the key needs a fixed-length type on a table whose delimiter is not `#`"),
                    }
                };
            });
        }
    }
    quote!(#(#checks)*)
}
