//! Key builders: whole keys, partitions, and sort-key stage builders that
//! can only be cut from the left.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use crate::ast::{Entity, Hole, Index, KeyTemplate, PlacedPart, Shard, ShardInput};
use crate::name;

/// What a generated function takes for a hole: the hole's own type for a
/// fixed-width integer (it is `Copy`), anything encoding as it otherwise.
pub(super) fn arg_type(hole: &Hole<'_>) -> TokenStream {
    let ty = &hole.ty();
    if hole.raw {
        return quote!(impl __ddb::RawKey);
    }
    match hole.width {
        Some(_) => quote!(#ty),
        None => quote!(impl __ddb::KeyArg<#ty>),
    }
}

/// The value to hand to `KeyWriter::part` for a hole whose argument is
/// `arg`: encoded as the hole's checked type, so a type without a key
/// encoding is reported at the template alone (see `KeyArgPart`).
pub(super) fn part_value(model: &Entity<'_>, hole: &Hole<'_>, arg: &TokenStream) -> TokenStream {
    let ty = super::checks::key_type(model, hole);
    match hole.width {
        Some(width) => quote!(&__p::Padded::<#width, #ty>(#arg)),
        None if hole.partition => quote!(&__p::PartitionPart(
            __p::key_arg::<#ty, _>(&#arg)
        )),
        None => quote!(&__p::key_arg::<#ty, _>(&#arg)),
    }
}

/// What a key function does at its template's shard.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum AtShard {
    /// Compute it from the parameters named after its fields (a whole key).
    Compute,
    /// Stop: the caller makes the sharded partition of what is written.
    Stop,
}

/// Statements appending `template` to the `KeyWriter` named `buf`, each
/// hole (and shard input) taken from the function parameter of the same
/// name.
pub(super) fn fill(
    model: &Entity<'_>,
    buf: &Ident,
    template: &KeyTemplate<'_>,
    at_shard: AtShard,
) -> TokenStream {
    if let Some(hole) = template.raw_hole() {
        let field = hole.field();
        return quote!(#buf.raw(&#field););
    }
    // A whole segment's hole takes the argument as it is (`arg`,
    // `partition_arg`); a padded or joined one, its key part.
    let hole_write = |hole: &Hole<'_>, joined: bool| {
        let field = hole.field();
        let name = name::unraw(field);
        let ty = super::checks::key_type(model, hole);
        match hole.width {
            None if !joined && hole.partition => quote!(partition_arg::<#ty, _>(#name, &#field)),
            None if !joined => quote!(arg::<#ty, _>(#name, &#field)),
            _ => {
                let value = part_value(model, hole, &quote!(#field));
                let method = write_part(joined);
                quote!(#method(#name, #value))
            }
        }
    };
    // A shard input is an argument too: encoded as its field's type.
    let shard_value = |input: &ShardInput<'_>| {
        let field = input.field();
        let ty = super::checks::shard_key_type(model, input);
        quote!(&__p::key_arg::<#ty, _>(&#field))
    };
    fill_with(model, buf, template, at_shard, hole_write, shard_value)
}

/// [`fill`] with each hole's write (the `KeyWriter` method call, given
/// the hole and whether it continues its segment) and each shard input's
/// value (a reference) given by the caller.
pub(super) fn fill_with(
    model: &Entity<'_>,
    buf: &Ident,
    template: &KeyTemplate<'_>,
    at_shard: AtShard,
    hole_write: impl Fn(&Hole<'_>, bool) -> TokenStream,
    shard_value: impl Fn(&ShardInput<'_>) -> TokenStream,
) -> TokenStream {
    let statements = template
        .placed()
        .into_iter()
        .map(|placed| match placed.part {
            PlacedPart::Literal(text) if placed.joined => quote!(#buf.join_literal(#text);),
            PlacedPart::Literal(text) => quote!(#buf.literal(#text);),
            PlacedPart::Hole(hole) => {
                let write = hole_write(hole, placed.joined);
                quote!(#buf.#write?;)
            }
            PlacedPart::Shard(_) if at_shard == AtShard::Stop => TokenStream::new(),
            PlacedPart::Shard(shard) => {
                let entity = model.ident.to_string();
                let spec = shard_spec(shard);
                let inputs = shard.by.iter().map(|input| {
                    let name = name::unraw(input.field());
                    let value = shard_value(input);
                    quote!(__shard.input(#name, #value)?;)
                });
                quote! {
                    let mut __shard = __p::ShardInputs::new(#entity);
                    #(#inputs)*
                    #buf.shard(__shard.component(#spec));
                }
            }
        });
    quote!(#(#statements)*)
}

/// The runtime's description of a shard: `ShardSpec::new(16, &["order_id"])`.
pub(super) fn shard_spec(shard: &Shard<'_>) -> TokenStream {
    let count = shard.count;
    let names = shard.by.iter().map(|input| input.name.as_str());
    quote!(__ddb::shard::ShardSpec::new(#count, &[#(#names),*]))
}

/// `part`, or `join_part` for a hole that continues its segment.
fn write_part(joined: bool) -> Ident {
    if joined {
        format_ident!("join_part")
    } else {
        format_ident!("part")
    }
}

/// The holes of `templates` as function parameters: each field once, in
/// order of first appearance.
pub(super) fn params<'t, 'a: 't>(
    templates: impl IntoIterator<Item = &'t KeyTemplate<'a>>,
) -> Vec<&'t Hole<'a>> {
    crate::ast::distinct_holes(templates)
}

pub(super) fn param_list(holes: &[&Hole<'_>]) -> TokenStream {
    let params = holes.iter().map(|hole| {
        let field = hole.field();
        let ty = arg_type(hole);
        quote!(#field: #ty)
    });
    quote!(#(#params),*)
}

/// `__ddb::IndexKey { partition, sort }` of `index`, built with the
/// generated `…_partition` and `…_sk` functions from the values `arg` gives
/// for each hole (a sharded partition written here, its shard computed
/// from the references `shard_arg` gives for its fields). Inside a
/// function returning a `Result`.
pub(super) fn index_key(
    model: &Entity<'_>,
    index: &Index<'_>,
    arg: impl Fn(&Hole<'_>) -> TokenStream,
    shard_arg: impl Fn(&ShardInput<'_>) -> TokenStream,
) -> TokenStream {
    let snake = name::snake(&index.name);
    let partition_fn = format_ident!("{}_partition", snake);
    let sk_fn = format_ident!("{}_sk", snake);
    let partition = if index.pk().shard().is_some() {
        let buf = format_ident!("__pk");
        let entity = model.ident.to_string();
        let path = super::checks::index_alias(index);
        let fill = fill_with(
            model,
            &buf,
            index.pk(),
            AtShard::Compute,
            |hole, joined| {
                let (name, value) = (
                    name::unraw(hole.field()),
                    part_value(model, hole, &arg(hole)),
                );
                let method = write_part(joined);
                quote!(#method(#name, #value))
            },
            shard_arg,
        );
        quote! {{
            let mut #buf = __p::KeyWriter::new(#entity);
            #fill
            #buf.finish_index_partition::<#path>()?
        }}
    } else {
        let partition_args = params([index.pk()]).into_iter().map(&arg);
        quote!(Self::#partition_fn(#(#partition_args),*)?.into_string())
    };
    let sort = match &index.sk {
        None => quote!(__p::None),
        Some(sk) => {
            let calls = sk.holes().map(|hole| {
                let field = hole.field();
                let value = arg(hole);
                quote!(.#field(#value))
            });
            quote! {
                __p::Some(
                    (Self::#sk_fn() #(#calls)*).into_value()?
                )
            }
        }
    };
    quote! {
        __ddb::IndexKey {
            partition: #partition,
            sort: #sort,
        }
    }
}

/// The sort-key builder of one template: `Entity::sk()` (or
/// `Entity::gsi1_sk()`) and its stage type. Returns (constructor fn, items).
pub(super) struct SortKeyBuilder<'m> {
    pub(super) model: &'m Entity<'m>,
    /// `Order::sk` / `Order::gsi1_sk`
    pub(super) constructor: Ident,
    /// `OrderSk` / `OrderGsi1Sk`
    pub(super) stage: Ident,
    /// `__ddb::Primary<__Table>` / `__Index_gsi1` (checked aliases)
    pub(super) index: TokenStream,
    pub(super) template: &'m KeyTemplate<'m>,
    pub(super) what: String,
}

impl SortKeyBuilder<'_> {
    /// The constructor (inside the entity's inherent impl) and the stage
    /// type with its impls (at module level).
    pub(super) fn expand(&self) -> (TokenStream, TokenStream) {
        let Self {
            model,
            constructor,
            stage,
            index,
            template,
            what,
        } = self;
        let vis = model.vis;
        let sort_key = quote!(__ddb::SortKey<#index>);
        let placed = template.placed();
        let holes: Vec<(&Hole<'_>, bool)> = placed
            .iter()
            .filter_map(|p| match p.part {
                PlacedPart::Hole(hole) => Some((hole, p.joined)),
                PlacedPart::Literal(_) | PlacedPart::Shard(_) => None,
            })
            .collect();
        // Literals before the first hole go in at construction; those after
        // hole i go in with hole i. Where the next hole continues their
        // segment, `continues()` keeps a prefix cut there free of a `#`.
        let mut leading: Vec<TokenStream> = Vec::new();
        let mut after: Vec<Vec<TokenStream>> = vec![Vec::new(); holes.len()];
        let mut seen = 0;
        for p in &placed {
            let ops = match seen {
                0 => &mut leading,
                n => &mut after[n - 1],
            };
            match p.part {
                PlacedPart::Literal(text) if p.joined => ops.push(quote!(.join_literal(#text))),
                PlacedPart::Literal(text) => ops.push(quote!(.literal(#text))),
                PlacedPart::Hole(_) => {
                    if p.joined {
                        ops.push(quote!(.continues()));
                    }
                    seen += 1;
                }
                // A sort key has none (checked).
                PlacedPart::Shard(_) => {}
            }
        }
        let entity_name = model.ident.to_string();
        let start = quote! {
            __p::SortKeyBuilder::<#index>::new(#entity_name) #(#leading)*
        };
        let source = &template.source;
        let entity = model.ident;

        if holes.is_empty() {
            let doc = format!(
                "The sort key of every `{entity}` {what}: `{source}`, a whole key (the template has no holes)."
            );
            let constructor_fn = quote! {
                #[doc = #doc]
                #vis fn #constructor() -> #sort_key {
                    #start.whole()
                }
            };
            return (constructor_fn, TokenStream::new());
        }

        let generics = model.generics;
        let (impl_generics, ty_generics, _) = generics.split_for_impl();
        let where_clause = super::checks::where_clause(model, &[]);
        let type_args: Vec<TokenStream> = generics
            .params
            .iter()
            .filter_map(|param| match param {
                syn::GenericParam::Type(t) => {
                    let ident = &t.ident;
                    Some(quote!(#ident))
                }
                syn::GenericParam::Const(c) => {
                    let ident = &c.ident;
                    Some(quote!(#ident))
                }
                syn::GenericParam::Lifetime(_) => None,
            })
            .collect();
        let decl_params: Vec<&syn::GenericParam> = generics.params.iter().collect();
        let stage_ty = |filled: usize| quote!(#stage<#(#type_args,)* #filled>);

        let doc = format!(
            "Sort-key builder of `{entity}` {what} (`{source}`): fill the holes from the left and stop \
             anywhere; the result converts into a [`SortKey`](::ddb_entity::SortKey) prefix."
        );
        let struct_item = quote! {
            #[doc = #doc]
            #[must_use = "a sort-key builder does nothing until it is used as a sort-key condition"]
            #vis struct #stage<#(#decl_params,)* const FILLED: __p::usize> (
                __p::SortKeyBuilder<#index>,
                ::core::marker::PhantomData<fn() -> #entity #ty_generics>,
            ) #where_clause;
        };

        let impl_for_prefix = quote! {
            #[automatically_derived]
            impl<#(#decl_params,)* const FILLED: __p::usize> ::core::convert::From<#stage<#(#type_args,)* FILLED>>
                for #sort_key #where_clause
            {
                fn from(stage: #stage<#(#type_args,)* FILLED>) -> Self {
                    stage.0.prefix()
                }
            }
        };

        let stages = holes.iter().enumerate().map(|(i, &(hole, joined))| {
            let field = hole.field();
            // A cut names the hole's checked type, in its bound too: a hole
            // type without a key encoding has no cuts, and its check at the
            // template is the one error.
            let ty = super::checks::key_type(model, hole);
            let arg = arg_type(hole);
            let value = part_value(model, hole, &quote!(#field));
            let literals = &after[i];
            let this = stage_ty(i);
            let last = i + 1 == holes.len();
            let (returns, finish) = if last && hole.unordered() {
                // No range or prefix through unpadded numbers.
                (
                    quote!(__ddb::UnorderedSortKey<#index>),
                    quote!(.whole_unordered()),
                )
            } else if last {
                (sort_key.clone(), quote!(.whole()))
            } else {
                let next = stage_ty(i + 1);
                (next, quote!())
            };
            let wrap = |inner: TokenStream| {
                if last {
                    inner
                } else {
                    quote!(#stage(#inner, ::core::marker::PhantomData))
                }
            };
            let name = name::unraw(field);
            let write = write_part(joined);
            let body = wrap(quote!(self.0.#write(#name, #value) #(#literals)* #finish));
            let fill_doc = format!("Fills `{{{field}}}`.");
            let cut = match hole.width {
                Some(_) => TokenStream::new(),
                None if hole.unordered() => TokenStream::new(),
                None => {
                    let cut_fn = format_ident!("{}_prefix", name::unraw(field));
                    let cut_method = if joined {
                        format_ident!("join_cut")
                    } else {
                        format_ident!("cut")
                    };
                    let cut_doc = format!(
                        "Cuts inside `{{{field}}}`: every key whose `{field}` starts with `cut` \
                         (e.g. a year or a month of a date)."
                    );
                    quote! {
                        #[doc = #cut_doc]
                        #vis fn #cut_fn<C: __ddb::key::PrefixOf<#ty>>(self, cut: C) -> #sort_key {
                            self.0.#cut_method::<#ty, C>(#name, &cut)
                        }
                    }
                }
            };
            quote! {
                impl #impl_generics #this #where_clause {
                    #[doc = #fill_doc]
                    #vis fn #field(self, #field: #arg) -> #returns {
                        #body
                    }
                    #cut
                }
            }
        });

        let steps = holes
            .iter()
            .map(|(hole, _)| format!("`.{}(…)`", name::unraw(hole.field())))
            .collect::<Vec<_>>()
            .join(", then ");
        let cuts = holes
            .iter()
            .filter(|(hole, _)| hole.width.is_none() && !hole.unordered())
            .map(|(hole, _)| format!("`.{}_prefix(…)`", name::unraw(hole.field())))
            .collect::<Vec<_>>();
        let cuts = match cuts.as_slice() {
            [] => String::new(),
            cuts => format!(
                " {} cut inside a hole (a year of a date, the first letters of a name).",
                cuts.join(", ")
            ),
        };
        let constructor_doc = format!(
            "Starts the sort key of `{entity}` {what} (`{source}`): fill the holes from the left \
             with {steps}, and stop anywhere for a prefix.{cuts} Every stage converts into a \
             [`SortKey`](::ddb_entity::SortKey)."
        );
        let first = stage_ty(0);
        let constructor_fn = quote! {
            #[doc = #constructor_doc]
            #vis fn #constructor() -> #first {
                #stage(#start, ::core::marker::PhantomData)
            }
        };
        let items = quote! {
            #struct_item
            #impl_for_prefix
            #(#stages)*
        };
        (constructor_fn, items)
    }
}
