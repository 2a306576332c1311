//! Where an entity's keys sit in the table or one of its indexes: the key
//! patterns of its partition and sort key there.

use super::described::PrimaryKey;
use super::keyspace::KeyPattern;
use crate::layout::EntityLayout;
use crate::table::{IndexKind, TableSchema};

/// An entity's keys in the table or one index.
#[derive(Debug, Clone)]
pub(crate) struct Placement<'m> {
    pub(crate) entity: &'m EntityLayout,
    pub(crate) pk: KeyPattern,
    /// The partition key template as written.
    pub(crate) pk_source: String,
    pub(crate) sk: Option<KeyPattern>,
    /// The sort key template as written, or the field that fills it.
    pub(crate) sk_source: Option<String>,
}

/// The entity's keys in the table (`index: None`) or index `index`, or
/// `None` when the entity is not there: a global index it does not fill,
/// a local index whose sort key attribute it does not store.
pub(crate) fn place<'m>(
    schema: &TableSchema,
    entity: &'m EntityLayout,
    index: Option<&str>,
) -> Option<Placement<'m>> {
    let Some(name) = index else {
        return Some(Placement {
            entity,
            pk: KeyPattern::of(entity.pk()),
            pk_source: entity.pk().source.to_owned(),
            sk: entity.sk().map(KeyPattern::of),
            sk_source: entity.sk().map(|sk| sk.source.to_owned()),
        });
    };
    let declared = schema.index(name)?;
    match declared.kind {
        IndexKind::Global => {
            let filled = entity.index(name)?;
            Some(Placement {
                entity,
                pk: KeyPattern::of(&filled.partition),
                pk_source: filled.partition.source.to_owned(),
                sk: filled.sort.as_ref().map(KeyPattern::of),
                sk_source: filled.sort.as_ref().map(|sk| sk.source.to_owned()),
            })
        }
        IndexKind::Local => {
            let attribute = declared.keys.sort_key?;
            let field = entity.field(attribute)?;
            Some(Placement {
                entity,
                pk: KeyPattern::of(entity.pk()),
                pk_source: entity.pk().source.to_owned(),
                sk: Some(KeyPattern::any()),
                sk_source: Some(format!("field `{}`", field.name)),
            })
        }
    }
}

/// Every entity's placement in the table or index.
pub(crate) fn placements<'m>(
    schema: &TableSchema,
    entities: &'m [&'static EntityLayout],
    index: Option<&str>,
) -> Vec<Placement<'m>> {
    entities
        .iter()
        .filter_map(|entity| place(schema, entity, index))
        .collect()
}

/// Whether two placements can write the same whole key.
pub(crate) fn collide(a: &Placement<'_>, b: &Placement<'_>) -> bool {
    a.pk.meets(&b.pk)
        && match (&a.sk, &b.sk) {
            (Some(x), Some(y)) => x.meets(y),
            (None, None) => true,
            // One index, one key schema: both or neither have a sort key.
            _ => false,
        }
}
