//! The hot-partition lint over each partition template's description.
//!
//! **Where this meets the sharding work.** The sharding room (a shard
//! suffix in templates, fan-out reads) owns the judgement of which
//! partition templates are hot and how a shard count cools them; until it
//! lands, this file is the model's stand-in, and the one place to replace:
//! [`partition_heat`] takes one partition template, as
//! [`TemplateShape`](crate::shape::TemplateShape) describes it (segments of
//! literal text and holes, each hole with its type's
//! [`Cardinality`](crate::key::Cardinality)), and says why it is hot, or `None`.
//! A sharded template (one with a shard suffix) is what will make it
//! answer `None`.

use super::lint::{Findings, Lint};
use crate::key::Cardinality;
use crate::shape::{EntityShape, TemplateShape};

/// At most this many distinct partition values is "few": a key whose
/// holes multiply to no more sends a table's writes to that many
/// partitions at most.
const FEW: u64 = 100;

/// Why every write of a template's items lands on a few partitions, or
/// `None` when its values spread.
pub(crate) fn partition_heat(template: &TemplateShape) -> Option<String> {
    // A sharded partition key spreads its writes by design; the sharding
    // lint (`lint::hot_partitions`) judges whether its count is enough.
    if template.raw || template.shards().is_some() {
        return None;
    }
    let holes: Vec<_> = template.holes().collect();
    if holes.is_empty() {
        return Some(format!(
            "`{}` is one literal value: every item shares one partition",
            template.source
        ));
    }
    if let Some(clock) = holes
        .iter()
        .find(|h| h.cardinality == Cardinality::Calendar)
        && holes
            .iter()
            .all(|h| h.cardinality == Cardinality::Calendar || few(h.cardinality).is_some())
    {
        return Some(format!(
            "`{}` follows the clock through `{{{}}}`: every write of one day goes to one partition",
            template.source, clock.field
        ));
    }
    let mut values: u64 = 1;
    for hole in &holes {
        match few(hole.cardinality) {
            Some(n) => values = values.saturating_mul(n),
            None => return None,
        }
    }
    (values <= FEW).then(|| {
        format!(
            "`{}` has at most {values} values: writes concentrate on that many partitions",
            template.source
        )
    })
}

/// A finding per entity and table or index whose partition template is hot.
pub(crate) fn lint(entities: &[EntityShape], findings: &mut Findings<'_>) {
    for entity in entities {
        let table = std::iter::once(("the table", &entity.pk));
        let indexes = entity.indexes.iter().map(|i| (i.index.name, &i.pk));
        for (place, template) in table.chain(indexes) {
            let Some(why) = partition_heat(template) else {
                continue;
            };
            let sparse = entity
                .indexes
                .iter()
                .find(|i| i.index.name == place)
                .is_some_and(|i| i.is_sparse());
            let note = if sparse {
                " (the index is sparse: fine while few items qualify)"
            } else {
                ""
            };
            findings.push(
                Lint::HotPartition,
                format!("{} on {place}", entity.rust_name),
                format!(
                    "{why}{note}; a partition takes about 1,000 write and 3,000 read units per second whatever the table's capacity: add a higher-cardinality component or a shard suffix"
                ),
            );
        }
    }
}

/// The number of values of a hole that has few (a `bool`, a unit enum, a
/// byte-wide integer): a wider integer, though bounded, spreads writes
/// well enough on its own.
fn few(cardinality: Cardinality) -> Option<u64> {
    match cardinality {
        Cardinality::AtMost(n) if n <= 256 => Some(n),
        _ => None,
    }
}
