//! The lints: common DynamoDB modelling failures, found in the model, each with
//! a name, a severity and a rationale, and silenced only by saying why.

use super::described::PrimaryKey;
use super::finding::{Findings, Lint};
use super::hot;
use super::placement::{collide, placements};
use super::table_model::Model;
use crate::layout::EntityLayout;
use crate::table::{Billing, IndexKind, Projection, Table};

/// DynamoDB's default quota of global secondary indexes per table.
const GLOBAL_INDEX_QUOTA: usize = 20;

/// The model-wide lints: keys, indexes, capacity, hot partitions.
pub(crate) fn lint_model<T: Table>(model: &Model<T>, used: &[&str], findings: &mut Findings<'_>) {
    let schema = model.schema();
    let entities = model.entities();
    duplicate_types(entities, findings);
    key_collisions(schema, entities, findings);
    // Multi-attribute indexes are global indexes too.
    let global = schema.indexes.len() + schema.multi_key_indexes.len();
    if global > GLOBAL_INDEX_QUOTA {
        findings.push(
            Lint::TooManyGlobalIndexes,
            "table",
            format!(
                "{global} global indexes declared; DynamoDB allows {GLOBAL_INDEX_QUOTA} by default (raise the quota first, or overload fewer generic indexes: GSI1PK/GSI1SK serve many entity types)"
            ),
        );
    }
    if let Billing::Provisioned(table) = schema.billing {
        for index in schema.indexes {
            let Some(capacity) = schema.index_capacity(index) else {
                continue;
            };
            if capacity.write < table.write {
                findings.push(
                    Lint::IndexUnderProvisioned,
                    index.name,
                    format!(
                        "{} write units, the table {}: every table write that touches the index is also an index write, so the index throttles the table's writes; give it at least {} write units",
                        capacity.write, table.write, table.write
                    ),
                );
            }
        }
    }
    if !model.declared_patterns().is_empty() {
        for index in schema.all_indexes() {
            if !used.contains(&index.name) {
                findings.push(
                    Lint::UnusedIndex,
                    index.name,
                    "no declared access pattern reads it, yet every write to an item with its key attributes writes it too: declare the pattern it serves, or drop it".to_string(),
                );
            }
        }
    }
    if let Some(local) = schema.local_indexes.first() {
        for entity in entities {
            if unbounded_collection(entity) {
                let names: Vec<&str> = schema.local_indexes.iter().map(|i| i.name).collect();
                findings.push(
                    Lint::LocalIndexCollectionLimit,
                    local.name,
                    format!(
                        "with local index(es) {} every item collection is capped at 10 GB, and `{}` puts any number of items under one `{}` (its sort key `{}` has holes): prefer a global index, or bound the collection",
                        names.join(", "),
                        entity.entity,
                        entity.pk().source,
                        entity.sk().map_or("", |sk| sk.source)
                    ),
                );
            }
        }
    }
    hot::lint(model.entities(), findings);
}

/// An entity whose sort key has a hole: one partition holds any number
/// of its items.
fn unbounded_collection(entity: &EntityLayout) -> bool {
    entity.sk().is_some_and(|sk| sk.holes().next().is_some())
}

/// Two entities registered with one type attribute value: every typed
/// read checks the value, so each would read the other's items as its own.
fn duplicate_types(entities: &[&'static EntityLayout], findings: &mut Findings<'_>) {
    for (i, a) in entities.iter().enumerate() {
        for b in &entities[i + 1..] {
            if a.type_tag == b.type_tag && a.entity != b.entity {
                findings.push(
                    Lint::DuplicateType,
                    format!("{} and {}", a.entity, b.entity),
                    format!(
                        "both store the type attribute value `{}`, so a read of one accepts the other's items and a collection cannot tell them apart: give one of them `type = \"…\"` in its #[entity(…)] (without it, the type is the struct's name in snake case)",
                        a.type_tag
                    ),
                );
            }
        }
    }
}

fn key_collisions(
    schema: &crate::table::TableSchema,
    entities: &[&'static EntityLayout],
    findings: &mut Findings<'_>,
) {
    let placed = placements(schema, entities, None);
    for (i, a) in placed.iter().enumerate() {
        for b in &placed[i + 1..] {
            if collide(a, b) {
                findings.push(
                    Lint::KeyCollision,
                    format!("{} and {}", a.entity.entity, b.entity.entity),
                    format!(
                        "`{}` / `{}` and `{}` / `{}` can write the same primary key, so a put of one overwrites the other: give them distinct literal segments or partitions",
                        a.pk_source,
                        a.sk_source.as_deref().unwrap_or("-"),
                        b.pk_source,
                        b.sk_source.as_deref().unwrap_or("-"),
                    ),
                );
            }
        }
    }
}

/// Whether a projection holds every attribute an entity stores besides
/// the keys; the missing ones.
pub(crate) fn missing_attributes(
    projection: Projection,
    entity: &EntityLayout,
    keys: &[&str],
) -> Vec<&'static str> {
    match projection {
        Projection::All => Vec::new(),
        Projection::KeysOnly | Projection::Include(_) => entity
            .fields
            .iter()
            .map(|f| f.attribute)
            .filter(|a| !keys.contains(a) && !projection.non_key_attributes().contains(a))
            .collect(),
    }
}

/// The kind of an index, for messages.
pub(crate) fn kind_name(kind: IndexKind) -> &'static str {
    match kind {
        IndexKind::Global => "global",
        IndexKind::Local => "local",
    }
}
