//! Where an entity's keys sit in the table or one of its indexes: the key
//! patterns of its partition and sort key there.

use super::described::PrimaryKey;
use super::keyspace::KeyPattern;
use crate::layout::{EntityLayout, Piece, TemplateLayout};
use crate::shard::ShardSpec;
use crate::table::{IndexKind, TableSchema};

/// An entity's keys in the table or one index.
#[derive(Debug, Clone)]
pub(crate) struct Placement<'m> {
    pub(crate) entity: &'m EntityLayout,
    pub(crate) pk: KeyPattern,
    /// For a sharded partition key: what every shard's value starts with
    /// (the template before its shard segment, and the `#`), and the
    /// shards. A Query given that prefix reads every shard.
    pub(crate) shards: Option<(KeyPattern, ShardSpec)>,
    /// The partition key template as written.
    pub(crate) pk_source: String,
    pub(crate) sk: Option<KeyPattern>,
    /// The sort key template as written, or the field that fills it.
    pub(crate) sk_source: Option<String>,
    /// Whether only some of its items are there: an index it fills
    /// sparsely (an `Option` hole or a `when`), a local index whose sort
    /// key attribute is an `Option` field. Never on the table.
    pub(crate) sparse: bool,
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
            shards: shards(entity.pk()),
            pk_source: entity.pk().source.to_owned(),
            sk: entity.sk().map(KeyPattern::of),
            sk_source: entity.sk().map(|sk| sk.source.to_owned()),
            sparse: false,
        });
    };
    let declared = schema.index(name)?;
    match declared.kind {
        IndexKind::Global => {
            let filled = entity.index(name)?;
            Some(Placement {
                entity,
                pk: KeyPattern::of(&filled.partition),
                shards: shards(&filled.partition),
                pk_source: filled.partition.source.to_owned(),
                sk: filled.sort.as_ref().map(KeyPattern::of),
                sk_source: filled.sort.as_ref().map(|sk| sk.source.to_owned()),
                sparse: filled.sparse,
            })
        }
        IndexKind::Local => {
            let attribute = declared.keys.sort_key?;
            let field = entity.field(attribute)?;
            Some(Placement {
                entity,
                pk: KeyPattern::of(entity.pk()),
                shards: shards(entity.pk()),
                pk_source: entity.pk().source.to_owned(),
                sk: Some(KeyPattern::any()),
                sk_source: Some(format!("field `{}`", field.name)),
                sparse: field.optional,
            })
        }
    }
}

/// The prefix of a sharded partition template's values and its shards:
/// the shard is always the whole last segment.
fn shards(template: &TemplateLayout) -> Option<(KeyPattern, ShardSpec)> {
    let (last, before) = template.segments.split_last()?;
    let [Piece::Shard(spec)] = last else {
        return None;
    };
    // A template of the shard alone: its shards share the empty prefix.
    let prefix = match before {
        [] => KeyPattern::value(""),
        _ => KeyPattern::of_segments(before, template.raw).then_delimiter(),
    };
    Some((prefix, *spec))
}

impl Placement<'_> {
    /// Whether a Query of `partition` reads this placement's items: the
    /// partition is one of its values, or the prefix of all its shards.
    pub(crate) fn in_partition(&self, partition: &str) -> bool {
        self.pk.matches(partition) || self.fans_out(partition).is_some()
    }

    /// The shards a Query of `partition` reads, when `partition` is what
    /// every shard of this placement's partition key starts with.
    pub(crate) fn fans_out(&self, partition: &str) -> Option<ShardSpec> {
        let (prefix, spec) = self.shards.as_ref()?;
        prefix.matches(partition).then_some(*spec)
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
