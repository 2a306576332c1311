//! An entity: a struct with named fields, read with its `#[entity(…)]` key
//! templates, their holes resolved to the fields they name.

use proc_macro2::Span;
use syn::{Data, DeriveInput, Fields, Generics, Ident, LitStr, Path, Type, Visibility};

use crate::attr;
use crate::ctxt::Ctxt;
use crate::name;
use crate::template::{self, Piece, Template};

/// `key_fields = "key_and_body"`: primary-key fields stored as attributes
/// too.
pub(crate) const KEY_AND_BODY: &str = "key_and_body";
/// `key_fields = "key_only"`: the default.
pub(crate) const KEY_ONLY: &str = "key_only";

/// A `#[derive(Entity)]` input.
pub(crate) struct Entity<'a> {
    pub(crate) original: &'a DeriveInput,
    pub(crate) ident: &'a Ident,
    pub(crate) vis: &'a Visibility,
    pub(crate) generics: &'a Generics,
    /// The named fields; `None` for a tuple or unit struct, an enum or a
    /// union (reported).
    pub(crate) fields: Option<Vec<Field<'a>>>,
    /// The attributes as written.
    pub(crate) attrs: attr::entity::Entity,
    pub(crate) pk: Option<KeyTemplate<'a>>,
    pub(crate) sk: Option<KeyTemplate<'a>>,
    pub(crate) indexes: Vec<Index<'a>>,
    /// `computed = name: Type = function(field, …)`.
    pub(crate) computed: &'a [attr::entity::Computed],
}

/// One named field.
pub(crate) struct Field<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) ty: &'a Type,
    /// `T` when the field is written `Option<T>`: it can make an index sparse.
    pub(crate) option_inner: Option<&'a Type>,
    /// What serde does with it.
    pub(crate) serde: attr::serde::SerdeField,
    /// The attribute serde stores it under: what an update must name.
    pub(crate) attribute: String,
    pub(crate) role: Role,
}

/// Whether a field feeds a key template.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    None,
    /// A primary-key field also stored as an attribute: with
    /// `key_fields = "key_and_body"`, a field only a shard reads, a raw key
    /// attribute, a field of a generic type.
    Primary,
    /// A hole of the table's partition or sort key, stored in the key only
    /// (the default): reads restore it from the parsed key.
    KeyOnly,
    Index,
}

/// One `#[entity(index = …)]`.
pub(crate) struct Index<'a> {
    pub(crate) path: Path,
    /// The index type's name, e.g. `Gsi1`, for generated names.
    pub(crate) name: Ident,
    pub(crate) pk: Option<KeyTemplate<'a>>,
    pub(crate) sk: Option<KeyTemplate<'a>>,
    /// `when = predicate(field, …)`: the item is in the index only while
    /// it holds.
    pub(crate) when: Option<attr::entity::Call>,
    /// `allow_hot = "reason"`: the partition key may be hot.
    pub(crate) allow_hot: Option<LitStr>,
    /// The whole attribute.
    pub(crate) span: Span,
}

/// A template whose holes are resolved to fields where they can be: its
/// `#`-joined segments, each a list of parts written side by side (see
/// `template` for the shapes; the first segment is empty for a leading
/// `#`).
pub(crate) struct KeyTemplate<'a> {
    /// As written, for generated docs.
    pub(crate) source: String,
    pub(crate) lit: LitStr,
    pub(crate) segments: Vec<Vec<Part<'a>>>,
    /// `pk = field`: the one hole is the key attribute itself, written by
    /// serde as it is, not encoded.
    pub(crate) raw: bool,
}

/// One part of a template in key order, with where it stands in its
/// segment.
pub(crate) struct Placed<'t, 'a> {
    pub(crate) part: PlacedPart<'t, 'a>,
    /// It continues the segment of the part before it (no `#` before it).
    pub(crate) joined: bool,
}

/// A part as [`KeyTemplate::placed`] lists it.
#[derive(Clone, Copy)]
pub(crate) enum PlacedPart<'t, 'a> {
    Literal(&'t str),
    Hole(&'t Hole<'a>),
    Shard(&'t Shard<'a>),
}

/// What follows a hole in its segment.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Followed {
    /// The segment ends with the hole.
    Nothing,
    /// Literal text only: the hole's encoding must be prefix-free.
    ByText,
    /// Another hole: the hole's encoding must have a fixed length.
    ByHole,
}

pub(crate) enum Part<'a> {
    Literal(String),
    Hole(Hole<'a>),
    /// `{shard(field, …) % count}`: the last segment of a partition key.
    Shard(Shard<'a>),
}

/// `{shard(order_id) % 16}`: the shard a frozen hash of the fields' key
/// encodings chooses, written as the partition key's last segment.
pub(crate) struct Shard<'a> {
    pub(crate) count: u16,
    pub(crate) by: Vec<ShardInput<'a>>,
    /// The whole `{…}`.
    pub(crate) span: Span,
}

/// A field a shard is computed from.
pub(crate) struct ShardInput<'a> {
    pub(crate) name: String,
    pub(crate) span: Span,
    /// The field (or computed value, refused by the checks) it names;
    /// `None` when it names none (reported).
    pub(crate) field: Option<HoleField<'a>>,
}

/// A `{field}` or `{field:width}` of a template.
pub(crate) struct Hole<'a> {
    /// As written in the template.
    pub(crate) name: String,
    pub(crate) width: Option<usize>,
    /// Where it is written, for errors about it.
    pub(crate) span: Span,
    /// The field it names; `None` when it names none (reported).
    pub(crate) field: Option<HoleField<'a>>,
    /// The hole is a raw key attribute (`pk = field`).
    pub(crate) raw: bool,
    /// The hole ends a segment of a partition key (the table's or an
    /// index's) and declares no width: written in its type's partition
    /// form (`KeyPart::encode_partition`, plain decimals for integers),
    /// since a partition key is only matched for equality.
    pub(crate) partition: bool,
}

/// The field a hole names, as written in the struct.
#[derive(Clone, Copy)]
pub(crate) struct HoleField<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) ty: &'a Type,
    pub(crate) option_inner: Option<&'a Type>,
    /// A computed value (`computed = …`), not a field: how to compute it.
    pub(crate) computed: Option<&'a attr::entity::Call>,
}

impl<'a> Entity<'a> {
    pub(crate) fn from_ast(cx: &Ctxt, input: &'a DeriveInput) -> Self {
        let mut fields = fields(cx, input);
        let mut attrs = attr::entity::entity(cx, &input.attrs);
        // Holes borrow their types for the input's lifetime; the computed
        // values' are parsed from its attributes, and live as long as this
        // (short-lived) macro invocation.
        let computed: &'a [attr::entity::Computed] =
            Box::leak(std::mem::take(&mut attrs.computed).into_boxed_slice());
        let known = fields.as_deref();
        let resolve = |lit: &LitStr| {
            KeyTemplate::resolve(cx, &template::parse(cx, lit), known, computed, &input.ident)
        };
        let resolve_key = |value: &attr::entity::KeyValue| match value {
            attr::entity::KeyValue::Template(lit) => resolve(lit),
            attr::entity::KeyValue::Raw(ident) => {
                let name = name::unraw(ident);
                let raw = Template {
                    segments: vec![vec![Piece::Hole(template::Hole {
                        name: name.clone(),
                        width: None,
                        span: ident.span(),
                        reported: false,
                    })]],
                    lit: LitStr::new(&name, ident.span()),
                };
                let mut template = KeyTemplate::resolve(cx, &raw, known, &[], &input.ident);
                template.raw = true;
                for part in template.segments.iter_mut().flatten() {
                    if let Part::Hole(hole) = part {
                        hole.raw = true;
                    }
                }
                template
            }
        };
        // An index keyed by the table's own attributes (keys swapped)
        // writes them again with its templates: `to_item` refuses one that
        // writes another form than the table's (`IndexKeyClash`, which says
        // to declare a width).
        let mut pk = attrs.pk.as_ref().map(resolve_key);
        if let Some(pk) = &mut pk {
            pk.mark_partition();
        }
        let sk = attrs.sk.as_ref().map(resolve);
        let indexes: Vec<Index<'a>> = attrs
            .indexes
            .iter()
            .filter_map(|index| {
                let mut index_pk = index.pk.as_ref().map(resolve_key);
                if let Some(pk) = &mut index_pk {
                    pk.mark_partition();
                }
                Some(Index {
                    path: index.path.clone(),
                    name: index.path.segments.last()?.ident.clone(),
                    pk: index_pk,
                    sk: index.sk.as_ref().map(resolve),
                    when: index.when.clone(),
                    allow_hot: index.allow_hot.clone(),
                    span: index.span,
                })
            })
            .collect();
        // A shard's fields are read by the key as its holes are.
        let names = |templates: &mut dyn Iterator<Item = &KeyTemplate<'a>>| -> Vec<String> {
            templates
                .flat_map(|t| {
                    let holes = t.holes().map(|h| h.name.clone());
                    let shard = t
                        .shard()
                        .into_iter()
                        .flat_map(|s| s.by.iter().map(|i| i.name.clone()));
                    holes.chain(shard).collect::<Vec<_>>()
                })
                .collect()
        };
        let primary = names(&mut pk.iter().chain(sk.iter()));
        let mut indexed = names(&mut indexes.iter().flat_map(|i| i.pk.iter().chain(i.sk.iter())));
        // What computed values and predicates read is part of index keys.
        let inputs = computed
            .iter()
            .map(|c| &c.call)
            .chain(indexes.iter().filter_map(|i| i.when.as_ref()));
        indexed.extend(inputs.flat_map(|call| call.args.iter().map(name::unraw)));
        // The holes a read can restore from the parsed key: not a raw key
        // (the attribute is the field), not a value of a generic type (its
        // encoding is not known to serialise, see `key_fields`).
        let keys_in_body = attrs
            .key_fields
            .as_ref()
            .is_some_and(|lit| lit.value() == KEY_AND_BODY);
        let generic: Vec<String> = input
            .generics
            .type_params()
            .map(|p| p.ident.to_string())
            .collect();
        let mentions_generic = |ty: &Type| {
            fn walk(tokens: proc_macro2::TokenStream, params: &[String]) -> bool {
                tokens.into_iter().any(|token| match token {
                    proc_macro2::TokenTree::Ident(ident) => params.contains(&ident.to_string()),
                    proc_macro2::TokenTree::Group(group) => walk(group.stream(), params),
                    _ => false,
                })
            }
            walk(quote::ToTokens::to_token_stream(ty), &generic)
        };
        let key_only: Vec<String> = if keys_in_body {
            Vec::new()
        } else {
            pk.iter()
                .chain(sk.iter())
                .flat_map(|t| t.holes())
                .filter(|hole| !hole.raw)
                .filter(|hole| {
                    hole.field
                        .is_some_and(|f| f.computed.is_none() && !mentions_generic(f.ty))
                })
                .map(|hole| hole.name.clone())
                .collect()
        };
        for field in fields.iter_mut().flatten() {
            let name = name::unraw(field.ident);
            field.role = if key_only.contains(&name) && !field.serde.skipped && !field.serde.flatten
            {
                Role::KeyOnly
            } else if primary.contains(&name) {
                Role::Primary
            } else if indexed.contains(&name) {
                Role::Index
            } else {
                Role::None
            };
        }
        Entity {
            original: input,
            ident: &input.ident,
            vis: &input.vis,
            generics: &input.generics,
            fields,
            attrs,
            pk,
            sk,
            indexes,
            computed,
        }
    }

    /// The field named `name`.
    pub(crate) fn field_named(&self, name: &str) -> Option<&Field<'a>> {
        self.fields
            .iter()
            .flatten()
            .find(|field| name::unraw(field.ident) == name)
    }

    /// The validated table (the checks require it).
    pub(crate) fn table(&self) -> &Path {
        self.attrs
            .table
            .as_ref()
            .expect("checked: the entity names its table")
    }

    /// The validated partition key template.
    pub(crate) fn pk(&self) -> &KeyTemplate<'a> {
        self.pk
            .as_ref()
            .expect("checked: the entity has a partition key")
    }

    /// The primary key's templates: the partition key's, then the sort
    /// key's when the entity has one (its table has a sort key).
    pub(crate) fn primary(&self) -> impl Iterator<Item = &KeyTemplate<'a>> {
        self.pk.iter().chain(self.sk.iter())
    }

    /// The entity type, the type attribute's value: `type = "…"`, or the
    /// struct's name in snake case (`LineItem` → `line_item`), which a
    /// reader of the table recognises and which no key template decides
    /// (two entities whose sort keys both read `PROFILE` are still two
    /// types).
    pub(crate) fn type_tag(&self) -> String {
        match &self.attrs.type_tag {
            Some(lit) => lit.value(),
            None => name::snake(self.ident),
        }
    }

    /// The fields serde stores under their own attribute (not skipped, not
    /// flattened).
    pub(crate) fn stored(&self) -> impl Iterator<Item = &Field<'a>> {
        self.fields
            .iter()
            .flatten()
            .filter(|field| !field.serde.skipped && !field.serde.flatten)
    }

    /// The stored field called `name` (as templates and options name it).
    pub(crate) fn stored_named(&self, name: &str) -> Option<&Field<'a>> {
        self.stored().find(|field| name::unraw(field.ident) == name)
    }

    /// The version field, `#[entity(version = "…")]`.
    pub(crate) fn version(&self) -> Option<&Field<'a>> {
        self.stored_named(&self.attrs.version.as_ref()?.value())
    }

    /// The creation-time field, `#[entity(created_at = "…")]`.
    pub(crate) fn created_at(&self) -> Option<&Field<'a>> {
        self.stored_named(&self.attrs.created_at.as_ref()?.value())
    }

    /// The update-time field, `#[entity(updated_at = "…")]`.
    pub(crate) fn updated_at(&self) -> Option<&Field<'a>> {
        self.stored_named(&self.attrs.updated_at.as_ref()?.value())
    }

    /// Whether `ty` mentions one of the entity's type parameters (then no
    /// const item can name it).
    pub(crate) fn is_generic(&self, ty: &Type) -> bool {
        let params: Vec<String> = self
            .generics
            .type_params()
            .map(|p| p.ident.to_string())
            .collect();
        fn walk(tokens: proc_macro2::TokenStream, params: &[String]) -> bool {
            tokens.into_iter().any(|token| match token {
                proc_macro2::TokenTree::Ident(ident) => params.contains(&ident.to_string()),
                proc_macro2::TokenTree::Group(group) => walk(group.stream(), params),
                _ => false,
            })
        }
        !params.is_empty() && walk(quote::ToTokens::to_token_stream(ty), &params)
    }

    /// The fields of every template's shard, each once, with the first
    /// shard that names it.
    pub(crate) fn shard_inputs(&self) -> Vec<&ShardInput<'a>> {
        let mut inputs: Vec<&ShardInput<'a>> = Vec::new();
        for input in self
            .templates()
            .filter_map(KeyTemplate::shard)
            .flat_map(|s| &s.by)
        {
            if !inputs.iter().any(|seen| seen.name == input.name) {
                inputs.push(input);
            }
        }
        inputs
    }

    /// Every template: primary key, then each index's.
    pub(crate) fn templates(&self) -> impl Iterator<Item = &KeyTemplate<'a>> {
        self.pk.iter().chain(self.sk.iter()).chain(
            self.indexes
                .iter()
                .flat_map(|i| i.pk.iter().chain(i.sk.iter())),
        )
    }
}

/// The named fields with their stored names, or `None` (and an error) for
/// any other shape.
fn fields<'a>(cx: &Ctxt, input: &'a DeriveInput) -> Option<Vec<Field<'a>>> {
    let named = named_fields(cx, input)?;
    let rename_all = attr::serde::rename_all(&input.attrs);
    let fields = named
        .into_iter()
        .filter_map(|field| {
            let ident = field.ident.as_ref()?;
            let serde = attr::serde::field(&field.attrs);
            let name = name::unraw(ident);
            let attribute = match (&serde.rename, &rename_all) {
                (Some(rename), _) => rename.clone(),
                (None, Some(rule)) => attr::serde::apply_rename_all(rule, &name),
                (None, None) => name,
            };
            Some(Field {
                ident,
                ty: &field.ty,
                option_inner: super::option_inner(&field.ty),
                serde,
                attribute,
                role: Role::None,
            })
        })
        .collect();
    Some(fields)
}

fn named_fields<'a>(cx: &Ctxt, input: &'a DeriveInput) -> Option<Vec<&'a syn::Field>> {
    match &input.data {
        Data::Struct(data) => match &data.fields {
            Fields::Named(named) => Some(named.named.iter().collect()),
            _ => {
                cx.error(
                    &input.ident,
                    "#[derive(Entity)] needs a struct with named fields: key templates name the fields",
                );
                None
            }
        },
        _ => {
            cx.error(
                &input.ident,
                "#[derive(Entity)] works on structs; for a unit enum used inside keys, derive `KeyPart`",
            );
            None
        }
    }
}

impl<'a> KeyTemplate<'a> {
    fn resolve(
        cx: &Ctxt,
        template: &Template,
        fields: Option<&[Field<'a>]>,
        computed: &'a [attr::entity::Computed],
        entity: &Ident,
    ) -> Self {
        // The field (or computed value) a hole or a shard input names;
        // an unknown name is reported once, at `span`, unless `reported`.
        let lookup = |name: &str, span: Span, reported: bool| {
            fields.and_then(|fields| {
                let found = fields.iter().find(|f| name::unraw(f.ident) == name);
                if let Some(f) = found {
                    return Some(HoleField {
                        ident: f.ident,
                        ty: f.ty,
                        option_inner: f.option_inner,
                        computed: None,
                    });
                }
                if let Some(c) = computed.iter().find(|c| name::unraw(&c.name) == name) {
                    return Some(HoleField {
                        ident: &c.name,
                        ty: &c.ty,
                        option_inner: super::option_inner(&c.ty),
                        computed: Some(&c.call),
                    });
                }
                if !reported {
                    cx.error_at(span, unknown_field(name, fields, entity));
                }
                None
            })
        };
        let resolve_hole = |hole: &template::Hole| {
            let field = lookup(&hole.name, hole.span, hole.reported);
            Part::Hole(Hole {
                name: hole.name.clone(),
                width: hole.width,
                span: hole.span,
                field,
                raw: false,
                partition: false,
            })
        };
        let resolve_shard = |shard: &template::Shard| {
            let by = shard
                .by
                .iter()
                .map(|input| ShardInput {
                    name: input.name.clone(),
                    span: input.span,
                    field: lookup(&input.name, input.span, false),
                })
                .collect();
            Part::Shard(Shard {
                count: shard.count,
                by,
                span: shard.span,
            })
        };
        let segments = template
            .segments
            .iter()
            .map(|segment| {
                segment
                    .iter()
                    .map(|piece| match piece {
                        Piece::Literal(text) => Part::Literal(text.clone()),
                        Piece::Hole(hole) => resolve_hole(hole),
                        Piece::Shard(shard) => resolve_shard(shard),
                    })
                    .collect()
            })
            .collect();
        KeyTemplate {
            source: template.lit.value(),
            lit: template.lit.clone(),
            segments,
            raw: false,
        }
    }

    /// Marks the holes that end a segment of this partition-key template
    /// without a width as written in their partition form.
    fn mark_partition(&mut self) {
        if self.raw {
            return;
        }
        for segment in &mut self.segments {
            if let Some(Part::Hole(hole)) = segment.last_mut()
                && hole.width.is_none()
            {
                hole.partition = true;
            }
        }
    }

    /// The field of a raw key (`pk = field`), `None` for a template.
    pub(crate) fn raw_hole(&self) -> Option<&Hole<'a>> {
        self.raw.then(|| self.holes().next()).flatten()
    }

    /// Every part in key order, with where it stands in its segment. An
    /// empty first segment (a leading `#`) is one empty literal.
    pub(crate) fn placed(&self) -> Vec<Placed<'_, 'a>> {
        let mut out = Vec::new();
        for segment in &self.segments {
            if segment.is_empty() {
                out.push(Placed {
                    part: PlacedPart::Literal(""),
                    joined: false,
                });
            }
            for (i, part) in segment.iter().enumerate() {
                out.push(Placed {
                    part: match part {
                        Part::Literal(text) => PlacedPart::Literal(text),
                        Part::Hole(hole) => PlacedPart::Hole(hole),
                        Part::Shard(shard) => PlacedPart::Shard(shard),
                    },
                    joined: i > 0,
                });
            }
        }
        out
    }

    /// Whether the hole `name` has more text after it in its segment, and
    /// whether that text holds another hole.
    pub(crate) fn followed(&self, name: &str) -> Followed {
        for segment in &self.segments {
            let Some(at) = segment
                .iter()
                .position(|part| matches!(part, Part::Hole(hole) if hole.name == name))
            else {
                continue;
            };
            let rest = &segment[at + 1..];
            return if rest.iter().any(|part| matches!(part, Part::Hole(_))) {
                Followed::ByHole
            } else if rest.is_empty() {
                Followed::Nothing
            } else {
                Followed::ByText
            };
        }
        Followed::Nothing
    }

    pub(crate) fn holes(&self) -> impl Iterator<Item = &Hole<'a>> {
        self.segments
            .iter()
            .flatten()
            .filter_map(|part| match part {
                Part::Hole(hole) => Some(hole),
                Part::Literal(_) | Part::Shard(_) => None,
            })
    }

    /// The shard, `{shard(…) % n}`, when the template declares one.
    pub(crate) fn shard(&self) -> Option<&Shard<'a>> {
        self.segments.iter().flatten().find_map(|part| match part {
            Part::Shard(shard) => Some(shard),
            _ => None,
        })
    }
}

impl<'a> ShardInput<'a> {
    fn resolved(&self) -> HoleField<'a> {
        self.field
            .expect("checked: every shard input names a field")
    }

    /// The field.
    pub(crate) fn field(&self) -> &'a Ident {
        self.resolved().ident
    }

    /// Its type (checked: never an `Option`).
    pub(crate) fn ty(&self) -> &'a syn::Type {
        self.resolved().ty
    }
}

impl<'a> Hole<'a> {
    fn resolved(&self) -> HoleField<'a> {
        self.field.expect("checked: every hole names a field")
    }

    /// The field the hole names.
    pub(crate) fn field(&self) -> &'a Ident {
        self.resolved().ident
    }

    /// The key part type: the field's type, or `T` of an `Option<T>` field.
    pub(crate) fn ty(&self) -> &'a Type {
        let field = self.resolved();
        field.option_inner.unwrap_or(field.ty)
    }

    /// Whether the key part is spelled `Unordered<…>`: numbers as
    /// hand-written keys hold them, which bound no range. Read from the
    /// type as written; another spelling (an alias) is caught by a
    /// compile-time check of `KeyPart::ORDERED` instead.
    pub(crate) fn unordered(&self) -> bool {
        self.field.is_some() && super::type_name(self.ty()).as_deref() == Some("Unordered")
    }

    /// Whether the field is an `Option` (the hole makes its index sparse).
    pub(crate) fn optional(&self) -> bool {
        self.resolved().option_inner.is_some()
    }

    /// How the value is computed, when the hole names a computed value.
    pub(crate) fn computed(&self) -> Option<&'a attr::entity::Call> {
        self.field.and_then(|field| field.computed)
    }
}

impl<'a> Index<'a> {
    /// The validated partition key template.
    pub(crate) fn pk(&self) -> &KeyTemplate<'a> {
        self.pk
            .as_ref()
            .expect("checked: every index has a partition key")
    }

    /// The holes of the index's templates, each field once.
    pub(crate) fn holes(&self) -> Vec<&Hole<'a>> {
        distinct_holes(self.pk.iter().chain(self.sk.iter()))
    }
}

/// The holes of `templates`, each field once, in order of first appearance.
pub(crate) fn distinct_holes<'t, 'a: 't>(
    templates: impl IntoIterator<Item = &'t KeyTemplate<'a>>,
) -> Vec<&'t Hole<'a>> {
    let mut holes: Vec<&Hole<'a>> = Vec::new();
    for hole in templates.into_iter().flat_map(KeyTemplate::holes) {
        if !holes.iter().any(|seen| seen.name == hole.name) {
            holes.push(hole);
        }
    }
    holes
}

fn unknown_field(name: &str, fields: &[Field<'_>], entity: &Ident) -> String {
    let names: Vec<String> = fields
        .iter()
        .map(|field| name::unraw(field.ident))
        .collect();
    let is_identifier = name
        .chars()
        .next()
        .is_some_and(|c| c == '_' || c.is_alphabetic())
        && name.chars().all(|c| c == '_' || c.is_alphanumeric());
    // A typo, or the last (or first) word of a field's name: `{id}` for
    // `order_id`.
    let near = name::closest(name, names.iter().map(String::as_str)).or_else(|| {
        let mut words = names
            .iter()
            .filter(|n| n.ends_with(&format!("_{name}")) || n.starts_with(&format!("{name}_")));
        match (words.next(), words.next()) {
            (Some(only), None) => Some(only.as_str()),
            _ => None,
        }
    });
    if let Some(near) = near {
        return format!("no field `{name}` in `{entity}`; did you mean `{{{near}}}`?");
    }
    let listed = names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ");
    if is_identifier {
        format!("no field `{name}` in `{entity}`: a hole names one of its fields, {listed}")
    } else {
        format!(
            "`{{{name}}}` does not name a field: a hole is `{{field}}` with one of `{entity}`'s fields, {listed}"
        )
    }
}
