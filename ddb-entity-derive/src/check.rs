//! The rules that span attributes, templates and fields. Produces the
//! validated model that `expand` turns into code without further checks.

use proc_macro2::Span;
use syn::{Data, DeriveInput, Fields, Generics, Ident, LitStr, Path, Type, Visibility};

use crate::ast::{self, KeyField};
use crate::attr;
use crate::ctxt::Ctxt;
use crate::template::{self, Segment, Template};

/// A validated `#[derive(Entity)]`.
pub(crate) struct EntityModel<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) vis: &'a Visibility,
    pub(crate) generics: &'a Generics,
    pub(crate) table: Path,
    pub(crate) type_name: String,
    pub(crate) pk: KeyTemplate,
    pub(crate) sk: KeyTemplate,
    pub(crate) indexes: Vec<IndexModel>,
    /// The stored fields, for typed updates.
    pub(crate) fields: Vec<FieldModel>,
    /// The optimistic-locking version field and its stored name.
    pub(crate) version: Option<(Ident, Type, String)>,
    /// Maintained timestamp fields and their stored names.
    pub(crate) created_at: Option<(Ident, Type, String)>,
    pub(crate) updated_at: Option<(Ident, Type, String)>,
}

/// A stored field: its Rust name, type, attribute name and key role.
pub(crate) struct FieldModel {
    pub(crate) ident: Ident,
    pub(crate) ty: Type,
    /// Its serde name: what an update expression must name.
    pub(crate) attribute: String,
    pub(crate) role: Role,
}

/// Whether a field feeds a key template.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    None,
    Primary,
    Index,
}

/// One index the entity fills.
pub(crate) struct IndexModel {
    pub(crate) path: Path,
    /// The index type's name, e.g. `Gsi1`, for generated names.
    pub(crate) name: Ident,
    pub(crate) pk: KeyTemplate,
    pub(crate) sk: Option<KeyTemplate>,
}

impl IndexModel {
    /// The holes of the index's templates, each field once.
    pub(crate) fn holes(&self) -> Vec<&HoleModel> {
        distinct_holes(std::iter::once(&self.pk).chain(self.sk.iter()))
    }
}

/// The holes of `templates`, each field once, in order of first appearance.
pub(crate) fn distinct_holes<'t>(
    templates: impl IntoIterator<Item = &'t KeyTemplate>,
) -> Vec<&'t HoleModel> {
    let mut holes: Vec<&HoleModel> = Vec::new();
    for hole in templates.into_iter().flat_map(KeyTemplate::holes) {
        if !holes.iter().any(|seen| seen.field == hole.field) {
            holes.push(hole);
        }
    }
    holes
}

/// A template whose holes are resolved to fields.
pub(crate) struct KeyTemplate {
    pub(crate) source: String,
    pub(crate) parts: Vec<Part>,
}

pub(crate) enum Part {
    Literal(String),
    /// Boxed: a field's type makes a hole large next to a literal.
    Hole(Box<HoleModel>),
}

#[derive(Clone)]
pub(crate) struct HoleModel {
    pub(crate) field: Ident,
    /// The key part type: the field's type, or `T` of an `Option<T>` field.
    pub(crate) ty: Type,
    pub(crate) optional: bool,
    pub(crate) width: Option<usize>,
    /// Where the hole is written, for errors about its type.
    pub(crate) span: Span,
}

impl KeyTemplate {
    pub(crate) fn holes(&self) -> impl Iterator<Item = &HoleModel> {
        self.parts.iter().filter_map(|part| match part {
            Part::Hole(hole) => Some(hole.as_ref()),
            Part::Literal(_) => None,
        })
    }
}

/// Validates a `#[derive(Entity)]` input.
pub(crate) fn entity(input: &DeriveInput) -> syn::Result<EntityModel<'_>> {
    let cx = Ctxt::default();
    let fields = named_fields(&cx, input);
    if let Some(lifetime) = input.generics.lifetimes().next() {
        cx.error(
            lifetime,
            "an entity cannot borrow: items are decoded into owned values; use owned field types (String, Vec, …)",
        );
    }
    let attrs = attr::entity_attrs(&cx, &input.attrs);
    let ident = &input.ident;
    if attrs.table.is_none() {
        cx.error(
            ident,
            "missing `table`: add #[entity(table = YourTable, pk = \"…\", sk = \"…\")], where YourTable is declared with `ddb_entity::table!`",
        );
    }
    let resolve = |lit: &Option<LitStr>, what: &str, allow_sparse: bool, span: Span| {
        let Some(lit) = lit else {
            cx.error_at(span, format!("missing `{what}`: {}", missing_help(what)));
            return None;
        };
        let template = template::parse(&cx, lit)?;
        resolve(&cx, &template, &fields, allow_sparse)
    };
    let pk = resolve(&attrs.pk, "pk", false, ident.span());
    let sk = resolve(&attrs.sk, "sk", false, ident.span());

    let mut indexes = Vec::new();
    for (position, index) in attrs.indexes.iter().enumerate() {
        let repeated = attrs.indexes[..position]
            .iter()
            .any(|earlier| earlier.index == index.index);
        if repeated {
            cx.error(
                &index.index,
                "this index is already filled by another #[entity(index = …)]; an entity has one key per index",
            );
            continue;
        }
        let Some(name) = index.index.segments.last().map(|s| s.ident.clone()) else {
            continue;
        };
        let pk = resolve(&index.pk, "pk", true, index.span);
        let sk = match &index.sk {
            Some(_) => resolve(&index.sk, "sk", true, index.span).map(Some),
            None => Some(None),
        };
        if let (Some(pk), Some(sk)) = (pk, sk) {
            indexes.push(IndexModel {
                path: index.index.clone(),
                name,
                pk,
                sk,
            });
        }
    }

    let type_name = type_name(&cx, &attrs, sk.as_ref());
    let stored = stored_fields(input, &fields, [&pk, &sk], &indexes);
    // A field the library maintains: stored, and in no key template.
    let maintained = |lit: &Option<LitStr>, what: &str, kind: &str| {
        let lit = lit.as_ref()?;
        let name = lit.value();
        let Some(field) = stored
            .iter()
            .find(|f| f.ident.to_string().trim_start_matches("r#") == name)
        else {
            cx.error(
                lit,
                format!("no stored field `{name}` to hold the {what}; name a {kind} field of this struct that serde stores"),
            );
            return None;
        };
        if field.role != Role::None {
            cx.error(
                lit,
                format!(
                    "`{name}` is part of a key template; the {what} must be a field of its own"
                ),
            );
            return None;
        }
        Some((
            field.ident.clone(),
            field.ty.clone(),
            field.attribute.clone(),
        ))
    };
    let version = maintained(&attrs.version, "version", "`u64`");
    let created_at = maintained(
        &attrs.created_at,
        "creation time",
        "timestamp (`u64` epoch milliseconds)",
    );
    let updated_at = maintained(
        &attrs.updated_at,
        "update time",
        "timestamp (`u64` epoch milliseconds)",
    );
    match (attrs.table, pk, sk, type_name) {
        (Some(table), Some(pk), Some(sk), Some(type_name)) => cx.finish(EntityModel {
            ident,
            vis: &input.vis,
            generics: &input.generics,
            table,
            type_name,
            pk,
            sk,
            indexes,
            fields: stored,
            version,
            created_at,
            updated_at,
        }),
        _ => {
            // Every missing piece recorded an error.
            cx.finish(())?;
            unreachable!("a missing piece of the model always records an error")
        }
    }
}

/// The fields serde stores under their own attribute (not skipped, not
/// flattened), with their key roles.
fn stored_fields(
    input: &DeriveInput,
    fields: &[KeyField<'_>],
    primary: [&Option<KeyTemplate>; 2],
    indexes: &[IndexModel],
) -> Vec<FieldModel> {
    let rename_all = crate::serde_attr::rename_all(&input.attrs);
    let mentions = |template: &KeyTemplate, name: &str| {
        template
            .holes()
            .any(|hole| hole.field.to_string().trim_start_matches("r#") == name)
    };
    fields
        .iter()
        .filter(|field| !field.serde.skipped && !field.serde.flatten)
        .map(|field| {
            let name = field.name();
            let in_primary = primary
                .iter()
                .filter_map(|t| t.as_ref())
                .any(|t| mentions(t, &name));
            let in_index = indexes
                .iter()
                .flat_map(|i| std::iter::once(&i.pk).chain(i.sk.iter()))
                .any(|t| mentions(t, &name));
            let role = match (in_primary, in_index) {
                (true, _) => Role::Primary,
                (false, true) => Role::Index,
                (false, false) => Role::None,
            };
            let attribute = match (&field.serde.rename, &rename_all) {
                (Some(rename), _) => rename.clone(),
                (None, Some(rule)) => crate::serde_attr::apply_rename_all(rule, &name),
                (None, None) => name,
            };
            FieldModel {
                ident: field.ident.clone(),
                ty: field.ty.clone(),
                attribute,
                role,
            }
        })
        .collect()
}

fn missing_help(what: &str) -> &'static str {
    match what {
        "pk" => "every key needs a partition key template, e.g. pk = \"CUST#{customer_id}\"",
        _ => {
            "a single table has a sort key, so every entity needs a sort key template, e.g. sk = \"ORDER#{placed}#{order_id}\" or sk = \"PROFILE\""
        }
    }
}

fn named_fields<'a>(cx: &Ctxt, input: &'a DeriveInput) -> Vec<KeyField<'a>> {
    match &input.data {
        Data::Struct(data) => match &data.fields {
            Fields::Named(named) => named.named.iter().filter_map(KeyField::new).collect(),
            _ => {
                cx.error(
                    &input.ident,
                    "#[derive(Entity)] needs a struct with named fields: key templates name the fields",
                );
                Vec::new()
            }
        },
        _ => {
            cx.error(
                &input.ident,
                "#[derive(Entity)] works on structs; for a unit enum used inside keys, derive `KeyPart`",
            );
            Vec::new()
        }
    }
}

fn resolve(
    cx: &Ctxt,
    template: &Template,
    fields: &[KeyField<'_>],
    allow_sparse: bool,
) -> Option<KeyTemplate> {
    let mut ok = true;
    let mut parts = Vec::new();
    for segment in &template.segments {
        match segment {
            Segment::Literal(text) => parts.push(Part::Literal(text.clone())),
            Segment::Hole(hole) => {
                let Some(field) = fields.iter().find(|field| field.name() == hole.field) else {
                    cx.error_at(hole.span, unknown_field(&hole.field, fields));
                    ok = false;
                    continue;
                };
                if field.serde.skipped {
                    cx.error_at(
                        hole.span,
                        format!(
                            "`{}` is skipped by serde, so it would be lost on the next read; a key field must be stored (remove #[serde(skip…)])",
                            hole.field
                        ),
                    );
                    ok = false;
                }
                if field.option_inner.is_some() && !allow_sparse {
                    cx.error_at(
                        hole.span,
                        format!(
                            "`{}` is an `Option`, but the primary key cannot be sparse: every item needs its whole key; use a non-optional field, or move this template to an index (an `Option` field there makes the index sparse)",
                            hole.field
                        ),
                    );
                    ok = false;
                }
                parts.push(Part::Hole(Box::new(HoleModel {
                    field: field.ident.clone(),
                    ty: field.option_inner.unwrap_or(field.ty).clone(),
                    optional: field.option_inner.is_some(),
                    width: hole.width,
                    span: hole.span,
                })));
            }
        }
    }
    ok.then(|| KeyTemplate {
        source: template.source(),
        parts,
    })
}

fn unknown_field(name: &str, fields: &[KeyField<'_>]) -> String {
    let closest = fields
        .iter()
        .map(|field| field.name())
        .min_by_key(|candidate| edit_distance(name, candidate))
        .filter(|candidate| edit_distance(name, candidate) <= name.len().max(3) / 3 + 1);
    match closest {
        Some(candidate) => format!(
            "no field `{name}` in this struct; did you mean `{{{candidate}}}`? A hole names one of the struct's fields"
        ),
        None => format!(
            "no field `{name}` in this struct; a hole `{{…}}` names one of the struct's fields"
        ),
    }
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitute = previous[j] + usize::from(ca != *cb);
            current.push(substitute.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

fn type_name(cx: &Ctxt, attrs: &attr::EntityAttrs, sk: Option<&KeyTemplate>) -> Option<String> {
    if let Some(lit) = &attrs.type_name {
        let value = lit.value();
        if value.is_empty() || value.contains('#') {
            cx.error(
                lit,
                "`type` names the entity type: a non-empty word without `#`, e.g. type = \"ORDER\"",
            );
            return None;
        }
        return Some(value);
    }
    let sk = sk?;
    match sk.parts.first() {
        Some(Part::Literal(text)) => Some(text.clone()),
        _ => {
            let span = attrs
                .sk
                .as_ref()
                .map_or_else(Span::call_site, |lit| lit.span());
            cx.error_at(
                span,
                "the sort key starts with a hole, so it names no entity type: add `type = \"…\"` to #[entity(…)], or start the sort key with a literal such as \"ORDER#{…}\"",
            );
            None
        }
    }
}

/// A validated `#[derive(KeyPart)]` enum.
pub(crate) struct KeyPartModel<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) generics: &'a Generics,
    /// (variant, name in keys)
    pub(crate) variants: Vec<(&'a Ident, String)>,
}

/// Validates a `#[derive(KeyPart)]` input: a unit enum whose names are
/// distinct, non-empty and made of bytes above `$` (so they need no escaping
/// and decode by plain comparison).
pub(crate) fn key_part(input: &DeriveInput) -> syn::Result<KeyPartModel<'_>> {
    let cx = Ctxt::default();
    let mut variants = Vec::new();
    match &input.data {
        Data::Enum(data) => {
            if data.variants.is_empty() {
                cx.error(&input.ident, "#[derive(KeyPart)] needs at least one variant");
            }
            for variant in &data.variants {
                if !matches!(variant.fields, Fields::Unit) {
                    cx.error(
                        &variant.ident,
                        "#[derive(KeyPart)] supports unit variants only: a key part is one name; move data into its own key hole",
                    );
                    continue;
                }
                let rename = attr::variant_rename(&cx, &variant.attrs);
                let (name, span) = match &rename {
                    Some(lit) => (lit.value(), lit.span()),
                    None => (variant.ident.to_string(), variant.ident.span()),
                };
                if name.is_empty() || name.bytes().any(|b| b <= b'$') {
                    cx.error_at(
                        span,
                        format!(
                            "key name {name:?} must be non-empty and free of spaces and of `!\"#$` and control characters; rename it with #[key(rename = \"…\")]"
                        ),
                    );
                    continue;
                }
                if let Some((earlier, _)) = variants.iter().find(|(_, n)| *n == name) {
                    cx.error_at(
                        span,
                        format!("key name {name:?} is already used by `{earlier}`; key names must be distinct"),
                    );
                    continue;
                }
                variants.push((&variant.ident, name));
            }
        }
        _ => cx.error(
            &input.ident,
            "#[derive(KeyPart)] works on unit enums; for a struct, implement `KeyPart` by hand (see its docs)",
        ),
    }
    cx.finish(KeyPartModel {
        ident: &input.ident,
        generics: &input.generics,
        variants,
    })
}

/// A validated `#[derive(Collection)]`: at least one member, no entity type
/// written twice, no generics.
pub(crate) struct CollectionModel<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) generics: &'a Generics,
    pub(crate) shape: Shape,
    pub(crate) members: Vec<Member<'a>>,
}

/// What the collection is declared as.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// A struct of `Option<E>`/`Vec<E>` fields: implements `Collection`.
    Struct,
    /// An enum of `Variant(E)`: implements `CollectionItem`.
    Enum,
}

/// One entity type of a collection.
pub(crate) struct Member<'a> {
    /// The field, or the variant.
    pub(crate) ident: &'a Ident,
    /// The entity type.
    pub(crate) entity: &'a Type,
    pub(crate) holds: Holds,
}

/// How a member holds its entity.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Holds {
    /// An `Option<E>` field: at most one item.
    One,
    /// A `Vec<E>` field: any number, in arrival (sort-key) order.
    Many,
    /// An enum variant `Variant(E)`.
    Variant,
}

const STRUCT_EXAMPLE: &str =
    "`struct CustomerView { customer: Option<Customer>, orders: Vec<Order> }`";
const ENUM_EXAMPLE: &str = "`enum CustomerItem { Customer(Customer), Order(Order) }`";

/// Validates a `#[derive(Collection)]` input. Whether each member is an
/// entity, and whether the members share a table and have distinct entity
/// types, only the type system knows: `expand` states those as const
/// checks.
pub(crate) fn collection(input: &DeriveInput) -> syn::Result<CollectionModel<'_>> {
    let cx = Ctxt::default();
    if !input.generics.params.is_empty() {
        cx.error(
            &input.generics,
            "#[derive(Collection)] does not take generic parameters: name concrete entity types (a type alias can fix a generic entity's parameters)",
        );
    }
    let mut members = Vec::new();
    let shape = match &input.data {
        Data::Struct(data) => {
            match &data.fields {
                Fields::Named(named) => {
                    for field in &named.named {
                        let Some(ident) = field.ident.as_ref() else {
                            continue;
                        };
                        let (entity, holds) = if let Some(inner) = ast::option_inner(&field.ty) {
                            (inner, Holds::One)
                        } else if let Some(inner) = ast::vec_inner(&field.ty) {
                            (inner, Holds::Many)
                        } else {
                            cx.error(
                                &field.ty,
                                format!(
                                    "field `{}` of a collection must be `Option<E>` (at most one item) or `Vec<E>` (any number, in sort-key order), where E is an entity; move other data out of the collection",
                                    unraw(ident)
                                ),
                            );
                            continue;
                        };
                        members.push(Member {
                            ident,
                            entity,
                            holds,
                        });
                    }
                }
                _ => cx.error(
                    &input.ident,
                    format!(
                        "#[derive(Collection)] needs named fields, one per entity type, as in {STRUCT_EXAMPLE}; for a stream of mixed items, derive it on an enum such as {ENUM_EXAMPLE}"
                    ),
                ),
            }
            Shape::Struct
        }
        Data::Enum(data) => {
            for variant in &data.variants {
                match &variant.fields {
                    Fields::Unnamed(fields) if fields.unnamed.len() == 1 => {
                        members.push(Member {
                            ident: &variant.ident,
                            entity: &fields.unnamed[0].ty,
                            holds: Holds::Variant,
                        });
                    }
                    _ => cx.error(
                        variant,
                        format!(
                            "variant `{0}` of a collection enum must hold exactly one entity, as in `{0}(YourEntity)`",
                            variant.ident
                        ),
                    ),
                }
            }
            Shape::Enum
        }
        Data::Union(_) => {
            cx.error(
                &input.ident,
                format!(
                    "#[derive(Collection)] works on a struct of `Option<E>`/`Vec<E>` fields, as in {STRUCT_EXAMPLE}, or on an enum of one-entity variants, as in {ENUM_EXAMPLE}; not on a union"
                ),
            );
            Shape::Struct
        }
    };
    // A unit or tuple struct, or a union, has had its error already.
    let empty = match &input.data {
        Data::Struct(data) => {
            matches!(&data.fields, Fields::Named(named) if named.named.is_empty())
        }
        Data::Enum(data) => data.variants.is_empty(),
        Data::Union(_) => false,
    };
    if empty {
        let what = match shape {
            Shape::Struct => "a field such as `orders: Vec<Order>`",
            Shape::Enum => "a variant such as `Order(Order)`",
        };
        cx.error(
            &input.ident,
            format!("a collection needs at least one entity type: add {what}"),
        );
    }
    for (position, member) in members.iter().enumerate() {
        let entity = type_string(member.entity);
        let earlier = members[..position]
            .iter()
            .find(|earlier| type_string(earlier.entity) == entity);
        if let Some(earlier) = earlier {
            let (what, fix) = match shape {
                Shape::Struct => (
                    "field",
                    format!("keep one field (a `Vec<{entity}>` holds any number of them)"),
                ),
                Shape::Enum => ("variant", "keep one variant".to_owned()),
            };
            cx.error(
                member.entity,
                format!(
                    "`{entity}` is already held by {what} `{}`: items are routed by entity type, so this {what} would never get one; {fix}",
                    unraw(earlier.ident)
                ),
            );
        }
    }
    cx.finish(CollectionModel {
        ident: &input.ident,
        generics: &input.generics,
        shape,
        members,
    })
}

/// A type as written, for messages: `crate::model::Customer`.
pub(crate) fn type_string(ty: &Type) -> String {
    let tokens = quote::ToTokens::to_token_stream(ty).to_string();
    tokens.replace(' ', "").replace(',', ", ")
}

fn unraw(ident: &Ident) -> String {
    let name = ident.to_string();
    name.strip_prefix("r#").map(str::to_owned).unwrap_or(name)
}
