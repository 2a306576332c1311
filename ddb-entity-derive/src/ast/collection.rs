//! A collection: a struct of `Option<E>`/`Vec<E>` fields or an enum of
//! `Variant(E)`, one member per entity type.

use syn::{Data, DeriveInput, Fields, Generics, Ident, Type};

use crate::ctxt::Ctxt;
use crate::name;

/// A `#[derive(Collection)]` input.
pub(crate) struct Collection<'a> {
    pub(crate) original: &'a DeriveInput,
    pub(crate) ident: &'a Ident,
    pub(crate) generics: &'a Generics,
    pub(crate) shape: Shape,
    /// The members that could be read (the others are reported).
    pub(crate) members: Vec<Member<'a>>,
}

/// What the collection is declared as.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// A struct of `Option<E>`/`Vec<E>` fields: implements `Collection`.
    Struct,
    /// An enum of `Variant(E)`: implements `CollectionItem`.
    Enum,
    /// Anything else (reported): implements nothing.
    Other,
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

pub(crate) const STRUCT_EXAMPLE: &str =
    "`struct CustomerView { customer: Option<Customer>, orders: Vec<Order> }`";
pub(crate) const ENUM_EXAMPLE: &str = "`enum CustomerItem { Customer(Customer), Order(Order) }`";

impl<'a> Collection<'a> {
    pub(crate) fn from_ast(cx: &Ctxt, input: &'a DeriveInput) -> Self {
        let mut members = Vec::new();
        let shape = match &input.data {
            Data::Struct(data) => match &data.fields {
                Fields::Named(named) => {
                    for field in &named.named {
                        let Some(ident) = field.ident.as_ref() else {
                            continue;
                        };
                        let (entity, holds) = if let Some(inner) = super::option_inner(&field.ty) {
                            (inner, Holds::One)
                        } else if let Some(inner) = super::vec_inner(&field.ty) {
                            (inner, Holds::Many)
                        } else {
                            cx.error(
                                &field.ty,
                                format!(
                                    "field `{}` of a collection must be `Option<E>` (at most one item) or `Vec<E>` (any number, in sort-key order), where E is an entity; move other data out of the collection",
                                    name::unraw(ident)
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
                    Shape::Struct
                }
                _ => {
                    cx.error(
                        &input.ident,
                        format!(
                            "#[derive(Collection)] needs named fields, one per entity type, as in {STRUCT_EXAMPLE}; for a stream of mixed items, derive it on an enum such as {ENUM_EXAMPLE}"
                        ),
                    );
                    Shape::Other
                }
            },
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
                Shape::Other
            }
        };
        Collection {
            original: input,
            ident: &input.ident,
            generics: &input.generics,
            shape,
            members,
        }
    }
}
