//! `#[derive(Collection)]`: at least one member, no entity type held
//! twice, no generics. Whether each member is an entity of one table with
//! a distinct entity type only the type system knows: `expand` states
//! those as const checks.

use syn::Data;

use crate::ast::{self, Collection, Shape};
use crate::ctxt::Ctxt;
use crate::name;

pub(crate) fn collection(cx: &Ctxt, collection: &Collection<'_>) {
    if !collection.generics.params.is_empty() {
        cx.error(
            collection.generics,
            "#[derive(Collection)] does not take generic parameters: name concrete entity types (a type alias can fix a generic entity's parameters)",
        );
    }
    // A unit or tuple struct, or a union, has had its error already.
    let empty = match &collection.original.data {
        Data::Struct(data) => {
            matches!(&data.fields, syn::Fields::Named(named) if named.named.is_empty())
        }
        Data::Enum(data) => data.variants.is_empty(),
        Data::Union(_) => false,
    };
    if empty {
        let what = match collection.shape {
            Shape::Enum => "a variant such as `Order(Order)`",
            Shape::Struct | Shape::Other => "a field such as `orders: Vec<Order>`",
        };
        cx.error(
            collection.ident,
            format!("a collection needs at least one entity type: add {what}"),
        );
    }
    let members = &collection.members;
    for (position, member) in members.iter().enumerate() {
        let entity = ast::type_string(member.entity);
        let earlier = members[..position]
            .iter()
            .find(|earlier| ast::type_string(earlier.entity) == entity);
        if let Some(earlier) = earlier {
            let (what, fix) = match collection.shape {
                Shape::Enum => ("variant", "keep one variant".to_owned()),
                Shape::Struct | Shape::Other => (
                    "field",
                    format!("keep one field (a `Vec<{entity}>` holds any number of them)"),
                ),
            };
            cx.error(
                member.entity,
                format!(
                    "`{entity}` is already held by {what} `{}`: items are routed by entity type, so this {what} would never get one; {fix}",
                    name::unraw(earlier.ident)
                ),
            );
        }
    }
}
