//! `#[derive(Entity)]`: keys complete and storable, indexes once each,
//! maintained fields that exist and stay out of keys.

use syn::{LitStr, Type};

use crate::ast::{self, Entity, Field, Followed, Hole, Role};
use crate::ctxt::Ctxt;
use crate::name;

pub(crate) fn entity(cx: &Ctxt, entity: &Entity<'_>) {
    if let Some(lifetime) = entity.original.generics.lifetimes().next() {
        cx.error(
            lifetime,
            "an entity cannot borrow: items are decoded into owned values; use owned field types (String, Vec, …)",
        );
    }
    let attrs = &entity.attrs;
    if attrs.table.is_none() {
        cx.error(
            entity.ident,
            "missing `table`: add #[entity(table = YourTable, pk = \"…\", sk = \"…\")], where YourTable is declared with `ddb_entity::table!`",
        );
    }
    let span = entity.ident.span();
    match (&entity.pk, &entity.sk) {
        (None, None) => cx.error_at(
            span,
            "missing `pk` and `sk`: an entity's key is a partition key template and a sort key template, e.g. #[entity(table = App, pk = \"CUST#{customer_id}\", sk = \"ORDER#{order_id}\")]",
        ),
        (None, Some(_)) => cx.error_at(span, format!("missing `pk`: {PK_HELP}")),
        // With or without a sort key, as the table has one: checked
        // against the table's declaration by the generated code.
        (Some(_), _) => {}
    }
    for (position, index) in entity.indexes.iter().enumerate() {
        if entity.indexes[..position]
            .iter()
            .any(|earlier| earlier.path == index.path)
        {
            cx.error(
                &index.path,
                "this index is already filled by another #[entity(index = …)]; an entity has one key per index",
            );
        }
        if index.pk.is_none() {
            cx.error_at(
                index.span,
                format!("missing `pk` for index `{}`: {PK_HELP}", index.name),
            );
        }
    }
    holes(cx, entity);
    shards(cx, entity);
    super::unordered::unordered(cx, entity);
    computed(cx, entity);
    type_tag(cx, entity);
    key_fields(cx, entity);
    schema_version(cx, entity);
    maintained(cx, entity, attrs.version.as_ref(), "version", "`u64`");
    let timestamp = "timestamp (`u64` epoch milliseconds)";
    maintained(
        cx,
        entity,
        attrs.created_at.as_ref(),
        "creation time",
        timestamp,
    );
    maintained(
        cx,
        entity,
        attrs.updated_at.as_ref(),
        "update time",
        timestamp,
    );
}

/// `key_fields = "…"` names one of the two ways to store primary-key
/// fields.
fn key_fields(cx: &Ctxt, entity: &Entity<'_>) {
    let Some(lit) = &entity.attrs.key_fields else {
        return;
    };
    let value = lit.value();
    if value != ast::KEY_ONLY && value != ast::KEY_AND_BODY {
        cx.error(
            lit,
            format!(
                "`key_fields` is \"{}\" (the default: a field of the table's key templates is stored in the key only, and reads take it from the parsed key) or \"{}\" (also stored as an attribute, so filters and conditions can name it), not \"{value}\"",
                ast::KEY_ONLY,
                ast::KEY_AND_BODY
            ),
        );
    }
}

/// `schema_version = N` is a version from 1, and `upcast = [...]` lists
/// at most the versions before it.
fn schema_version(cx: &Ctxt, entity: &Entity<'_>) {
    let attrs = &entity.attrs;
    let version = attrs.schema_version.as_ref();
    if let (None, Some(upcast)) = (version, &attrs.upcast) {
        cx.error_at(
            upcast.span,
            "`upcast` lists the shapes of earlier schema versions, but the entity declares no version: add schema_version = N (N - 1 earlier versions at most)",
        );
    }
    let Some(lit) = version else { return };
    let Ok(number) = lit.base10_parse::<u32>() else {
        cx.error(lit, "`schema_version` must fit in a u32");
        return;
    };
    if number == 0 {
        cx.error(
            lit,
            "schema versions start at 1 (an item without a version is read as version 1)",
        );
        return;
    }
    if let Some(upcast) = &attrs.upcast {
        let earlier = upcast.types.len();
        if earlier as u64 >= u64::from(number) {
            cx.error_at(
                upcast.span,
                format!(
                    "`upcast` lists {earlier} earlier shape{}, but schema_version = {number} has only {} before it: list versions 1 to {} at most, oldest first",
                    if earlier == 1 { "" } else { "s" },
                    number - 1,
                    number - 1,
                ),
            );
        }
        if earlier == 0 {
            cx.error_at(
                upcast.span,
                "`upcast = []` lists no earlier shape; remove it, or name the earlier versions' types, oldest first",
            );
        }
        // The list is positional: its first entry is version 1. A shorter
        // list would shift every shape to a later version than its own
        // (`schema_version = 3, upcast = [V1]` would read version 2's items
        // with V1's shape), so it must cover every version before N, with
        // `_` for the oldest ones no longer read.
        let before = u64::from(number) - 1;
        if earlier > 0 && (earlier as u64) < before {
            let missing = if earlier as u64 + 1 == before {
                format!("version {before}")
            } else {
                format!("versions {} to {before}", earlier + 1)
            };
            let example = if before == 2 {
                "[V1, V2]".to_owned()
            } else {
                format!("[V1, …, V{before}]")
            };
            cx.error_at(
                upcast.span,
                format!(
                    "`upcast` has no shape for {missing}: the list starts at version 1 and names one shape per version before schema_version = {number}, oldest first (`upcast = {example}`), and as written it would read items with another version's shape; add the missing shape, or write `_` for an oldest version no stored item has any more (`upcast = [_, V2, …]`)"
                ),
            );
        }
        let mut shapes = false;
        for ty in &upcast.types {
            match ty {
                Type::Infer(_) if shapes => cx.error(
                    ty,
                    "`_` stands for an old version no stored item has any more, and comes before every shape: the chain of `From` conversions cannot skip a version",
                ),
                Type::Infer(_) => {}
                _ => shapes = true,
            }
        }
        if !shapes && earlier > 0 {
            cx.error_at(
                upcast.span,
                "`upcast` lists no shape, only `_`: remove it (items of older versions are then a decode error), or name the shapes of the versions still stored",
            );
        }
    }
}

const PK_HELP: &str = "every key needs a partition key template, e.g. pk = \"CUST#{customer_id}\"";

/// What each hole's field allows, reported once per field and rule.
fn holes(cx: &Ctxt, entity: &Entity<'_>) {
    let Some(fields) = &entity.fields else { return };
    let mut reported: Vec<(&str, String)> = Vec::new();
    let mut report = |rule: &'static str, hole: &Hole<'_>, message: String| {
        if !reported.contains(&(rule, hole.name.clone())) {
            reported.push((rule, hole.name.clone()));
            cx.error_at(hole.span, message);
        }
    };
    let primary = entity.pk.iter().chain(entity.sk.iter());
    let indexed = entity
        .indexes
        .iter()
        .flat_map(|i| i.pk.iter().chain(i.sk.iter()));
    let templates = primary
        .map(|t| (t, true))
        .chain(indexed.map(|t| (t, false)));
    for (template, in_primary) in templates {
        for hole in template.holes() {
            if hole.computed().is_some() {
                let name = &hole.name;
                if in_primary {
                    report(
                        "computed",
                        hole,
                        format!(
                            "`{name}` is a computed value, but the primary key must read back into fields (updates address items by it): use computed values in index templates, and fields here"
                        ),
                    );
                }
                let ty = hole.field.and_then(|f| f.option_inner).unwrap_or(hole.ty());
                if let Some(what) = not_a_key_part(ty) {
                    report(
                        "type",
                        hole,
                        format!(
                            "`{name}` is {what}, which has no order-preserving key encoding: compute a single ordered value (an integer, a string, a date, an id, a `KeyPart` enum)"
                        ),
                    );
                } else if let Some(width) = hole.width {
                    width_fits(hole, ty, width, &mut report);
                }
                continue;
            }
            let Some(field) = fields.iter().find(|f| name::unraw(f.ident) == hole.name) else {
                continue;
            };
            let name = &hole.name;
            if field.serde.skipped {
                report(
                    "skipped",
                    hole,
                    format!(
                        "`{name}` is skipped by serde, so it would be lost on the next read; a key field must be stored (remove #[serde(skip…)])"
                    ),
                );
            }
            if let Some(inner) = field.option_inner {
                if in_primary {
                    report(
                        "sparse",
                        hole,
                        format!(
                            "`{name}` is an `Option`, but the primary key cannot be sparse: every item needs its whole key; use a non-optional field, or move this template to an index (an `Option` field there makes the index sparse)"
                        ),
                    );
                } else if ast::option_inner(inner).is_some() {
                    report(
                        "type",
                        hole,
                        format!(
                            "`{name}` is an `Option` of an `Option`, which no key can hold: a sparse index hole is `Option<T>` of a key part `T`; write `{name}: {}`",
                            ast::type_string(inner)
                        ),
                    );
                }
            }
            let ty = field.option_inner.unwrap_or(field.ty);
            if template.followed(name) != Followed::Nothing && entity.is_generic(ty) {
                report(
                    "type",
                    hole,
                    format!(
                        "`{name}` shares its segment with more text, which only some key types allow (checked at compile time), and a type parameter cannot be checked: separate `{{{name}}}` with `#`, or give the field a concrete type"
                    ),
                );
            }
            if let Some(what) = not_a_key_part(ty) {
                report(
                    "type",
                    hole,
                    format!(
                        "`{name}` is {what}, which has no order-preserving key encoding: a hole holds one ordered value (an integer, a string, a date, an id, a `KeyPart` enum); key on something else, or encode it as a `String` field"
                    ),
                );
            } else if let Some(width) = hole.width {
                width_fits(hole, ty, width, &mut report);
            }
        }
    }
}

/// Shards: on partition keys only, computed from stored fields every item
/// has, from the primary key's fields for the table's partition key, and
/// spreading a partition (not all of its items to one shard); and
/// `allow_hot` only where a key is not sharded.
fn shards(cx: &Ctxt, entity: &Entity<'_>) {
    let Some(fields) = &entity.fields else { return };
    let primary_holes: Vec<&str> = entity
        .primary()
        .flat_map(|t| t.holes())
        .map(|hole| hole.name.as_str())
        .collect();
    // (template, is a partition key, is the table's, allow_hot)
    let mut templates: Vec<(&ast::KeyTemplate<'_>, bool, bool, Option<&LitStr>)> = Vec::new();
    templates.extend(
        entity
            .pk
            .iter()
            .map(|t| (t, true, true, entity.attrs.allow_hot.as_ref())),
    );
    templates.extend(entity.sk.iter().map(|t| (t, false, true, None)));
    for index in &entity.indexes {
        templates.extend(
            index
                .pk
                .iter()
                .map(|t| (t, true, false, index.allow_hot.as_ref())),
        );
        templates.extend(index.sk.iter().map(|t| (t, false, false, None)));
    }
    for (template, partition, table, allow_hot) in templates {
        if let Some(lit) = allow_hot {
            if lit.value().trim().is_empty() {
                cx.error(
                    lit,
                    "`allow_hot` needs its reason, e.g. allow_hot = \"a few open tickets, written rarely\": the lint reports it in place of the finding",
                );
            } else if template.shard().is_some() {
                cx.error(
                    lit,
                    "this partition key is sharded, which spreads its writes already: remove `allow_hot`",
                );
            }
        }
        let Some(shard) = template.shard() else {
            continue;
        };
        if table && partition && entity.sk.is_none() {
            cx.error_at(
                shard.span,
                "the table has no sort key, so each partition key holds one item and there is nothing to spread over shards: remove the shard (a hot item needs a cache, not a shard)",
            );
            continue;
        }
        if !partition {
            cx.error_at(
                shard.span,
                "a sort key is never sharded: the shard chooses the partition an item is stored in, and the sort key orders the items inside it; move the shard to the end of the partition key, e.g. pk = \"STATUS#{status}#{shard(order_id) % 16}\"",
            );
            continue;
        }
        let mut inputs_fine = true;
        for input in &shard.by {
            let Some(field) = input.field else {
                inputs_fine = false;
                continue;
            };
            let name = &input.name;
            let refuse = |message: String| cx.error_at(input.span, message);
            if field.computed.is_some() {
                refuse(format!(
                    "`{name}` is a computed value: a shard is chosen by stored fields, which every read can hash again; name the fields it is computed from"
                ));
            } else if let Some(what) = not_a_key_part(field.ty) {
                refuse(format!(
                    "`{name}` is {what}, which has no key encoding to hash: choose the shard by fields of key-part types (an integer, a string, an id, a `KeyPart` enum)"
                ));
            } else if field.option_inner.is_some() {
                refuse(format!(
                    "`{name}` is an `Option`, and an item without it would have no shard: choose the shard by fields every item has"
                ));
            } else if fields
                .iter()
                .any(|f| name::unraw(f.ident) == *name && f.serde.skipped)
            {
                refuse(format!(
                    "`{name}` is skipped by serde, so the shard could not be computed again from a stored item: choose the shard by stored fields"
                ));
            } else if table && !primary_holes.contains(&name.as_str()) {
                refuse(format!(
                    "the table's partition key is sharded by `{name}`, which is not in the primary key: a get or an update by key computes the shard from the key's fields alone; shard by a field of the sort key"
                ));
            } else {
                continue;
            }
            inputs_fine = false;
        }
        let in_partition: Vec<&str> = template.holes().map(|hole| hole.name.as_str()).collect();
        if inputs_fine
            && !shard.by.is_empty()
            && shard
                .by
                .iter()
                .all(|input| in_partition.contains(&input.name.as_str()))
        {
            let names = shard
                .by
                .iter()
                .map(|input| format!("`{}`", input.name))
                .collect::<Vec<_>>()
                .join(", ");
            cx.error_at(
                shard.span,
                format!(
                    "the items of one partition all have the same {names} (it is in the partition key), so they would all land in one shard: shard by a field that differs between them, such as one of the sort key's"
                ),
            );
        }
    }
}

/// Computed values and index predicates: named apart from the fields,
/// read from stored fields, each computed value used by an index.
fn computed(cx: &Ctxt, entity: &Entity<'_>) {
    let Some(fields) = &entity.fields else { return };
    let inputs = |call: &crate::attr::entity::Call, what: &str| {
        for arg in &call.args {
            let name = name::unraw(arg);
            match entity.stored_named(&name) {
                Some(_) => {}
                None if fields.iter().any(|f| name::unraw(f.ident) == name) => cx.error(
                    arg,
                    format!("`{name}` is not stored by serde, so {what} could not be kept in step with it: read stored fields only"),
                ),
                None => {
                    let stored: Vec<String> =
                        entity.stored().map(|f| name::unraw(f.ident)).collect();
                    let near = name::closest(&name, stored.iter().map(String::as_str));
                    let message = match near {
                        Some(near) => format!(
                            "{what} reads `{name}`, which is no field of `{}`; did you mean `{near}`?",
                            entity.ident
                        ),
                        None => format!(
                            "{what} reads `{name}`, which is no field of `{}`: name stored fields, each passed by reference",
                            entity.ident
                        ),
                    };
                    cx.error(arg, message);
                }
            }
        }
    };
    for computed in entity.computed {
        let name = name::unraw(&computed.name);
        if fields.iter().any(|f| name::unraw(f.ident) == name) {
            cx.error(
                &computed.name,
                format!("`{name}` is already a field: give the computed value a name of its own"),
            );
            continue;
        }
        inputs(&computed.call, &format!("the computed value `{name}`"));
        // The primary key's templates count: a computed value there is
        // refused on its own, and one mistake is one error.
        let templates = || {
            let primary = entity.pk.iter().chain(entity.sk.iter());
            primary.chain(
                entity
                    .indexes
                    .iter()
                    .flat_map(|i| i.pk.iter().chain(i.sk.iter())),
            )
        };
        // A shard naming it is refused on its own: not reported twice.
        let used = templates()
            .flat_map(|t| t.holes())
            .any(|hole| hole.name == name)
            || templates()
                .filter_map(|t| t.shard())
                .any(|shard| shard.by.iter().any(|input| input.name == name));
        if !used {
            cx.error(
                &computed.name,
                format!("the computed value `{name}` is in no index template: use it as a hole, `{{{name}}}`, or remove it"),
            );
        }
    }
    for index in &entity.indexes {
        if let Some(when) = &index.when {
            inputs(when, &format!("the membership of index `{}`", index.name));
        }
    }
}

/// Types that are visibly no key part, whatever the user's impls: a
/// collection, an array, a slice, a tuple.
fn not_a_key_part(ty: &Type) -> Option<String> {
    let written = ast::type_string(ty);
    match ty {
        Type::Array(_) | Type::Slice(_) => Some(format!("an array (`{written}`)")),
        Type::Tuple(tuple) if !tuple.elems.is_empty() => Some(format!("a tuple (`{written}`)")),
        Type::Reference(reference) => not_a_key_part(&reference.elem),
        _ => {
            let name = ast::type_name(ty)?;
            let collections = [
                "Vec", "VecDeque", "HashMap", "HashSet", "BTreeMap", "BTreeSet",
            ];
            collections
                .contains(&name.as_str())
                .then(|| format!("a collection (`{written}`)"))
        }
    }
}

/// A width pads an integer: on a type that is visibly no integer, it is a
/// mistake.
fn width_fits(
    hole: &Hole<'_>,
    ty: &Type,
    width: usize,
    report: &mut impl FnMut(&'static str, &Hole<'_>, String),
) {
    let Some(type_name) = ast::type_name(ty) else {
        return;
    };
    let not_integers = [
        "String",
        "str",
        "bool",
        "char",
        "f32",
        "f64",
        "Uuid",
        "Ulid",
        "NaiveDate",
        "NaiveTime",
        "NaiveDateTime",
        "DateTime",
    ];
    if not_integers.contains(&type_name.as_str()) {
        let name = &hole.name;
        report(
            "width",
            hole,
            format!(
                "`{{{name}:{width}}}` pads `{name}` to {width} digits, but a width applies to integers and `{name}` is a `{}`: write `{{{name}}}`",
                ast::type_string(ty)
            ),
        );
    }
}

/// An explicit entity type is a non-empty word without `#`; without one,
/// the struct's name in snake case is.
fn type_tag(cx: &Ctxt, entity: &Entity<'_>) {
    if let Some(lit) = &entity.attrs.type_tag {
        let value = lit.value();
        if value.is_empty() || value.contains('#') {
            cx.error(
                lit,
                "`type` is the value of the type attribute: a non-empty word without `#`, e.g. type = \"order\" (without it, the struct's name in snake case is used)",
            );
        }
    }
}

/// A field the library maintains: stored, and in no key template.
fn maintained(cx: &Ctxt, entity: &Entity<'_>, lit: Option<&LitStr>, what: &str, kind: &str) {
    let (Some(lit), Some(_)) = (lit, &entity.fields) else {
        return;
    };
    let name = lit.value();
    let field: Option<&Field<'_>> = entity.stored_named(&name);
    match field {
        None => cx.error(
            lit,
            format!("no stored field `{name}` to hold the {what}; name a {kind} field of this struct that serde stores"),
        ),
        Some(field) if field.role != Role::None => cx.error(
            lit,
            format!("`{name}` is part of a key template; the {what} must be a field of its own"),
        ),
        Some(_) => {}
    }
}
