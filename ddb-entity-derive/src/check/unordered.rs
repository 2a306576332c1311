//! Where an `Unordered` key part may stand: anywhere in a partition key
//! (nothing sorts there), and in a sort key only as its last hole, so that
//! no prefix or range is ever cut through unpadded numbers.

use crate::ast::{Entity, KeyTemplate};
use crate::ctxt::Ctxt;

pub(super) fn unordered(cx: &Ctxt, entity: &Entity<'_>) {
    let sort_keys = entity
        .sk
        .iter()
        .chain(entity.indexes.iter().filter_map(|index| index.sk.as_ref()));
    for template in sort_keys {
        last_only(cx, template);
    }
}

fn last_only(cx: &Ctxt, template: &KeyTemplate<'_>) {
    let holes: Vec<_> = template
        .holes()
        .filter(|hole| hole.field.is_some())
        .collect();
    let Some((_, before_last)) = holes.split_last() else {
        return;
    };
    for hole in before_last.iter().filter(|hole| hole.unordered()) {
        cx.error_at(
            hole.span,
            format!(
                "`{{{name}}}` is `Unordered`: its keys do not sort as its numbers (`12` before `7`), so it can only be the last hole of a sort key, where no range or prefix cuts through it; move it to the end of \"{source}\", put it in the partition key, or store it padded (a plain integer field)",
                name = hole.name,
                source = template.source,
            ),
        );
    }
}
