//! The model's hot-partition findings: the crate's one judgement of hot
//! partition keys ([`crate::lint::hot_partitions`], over each entity's
//! [`Entity::LAYOUT`](crate::entity::Entity::LAYOUT)) reported in the model's
//! words, so a key the hot-partition lint passes is never a model finding,
//! and the other way round.

use super::finding::{Findings, Lint};
use crate::layout::EntityLayout;
use crate::lint::{HotPartition, HotReason, hot_partitions};

/// A finding per entity and table or index whose partition key is hot;
/// one allowed with `allow_hot = "…"` on the entity is reported with that
/// reason, as one the model allows.
pub(crate) fn lint(entities: &[&'static EntityLayout], findings: &mut Findings<'_>) {
    let lint = hot_partitions(entities);
    for hot in lint.findings().chain(lint.allowed()) {
        let place = hot.index.unwrap_or("the table");
        let subject = format!("{} on {place}", hot.entity);
        let message = message(hot, is_sparse(entities, hot));
        match hot.allowed {
            Some(reason) => findings.push_allowed(Lint::HotPartition, subject, message, reason),
            None => findings.push(Lint::HotPartition, subject, message),
        }
    }
}

/// Whether the hot key is that of an index some of the entity's items stay
/// out of.
fn is_sparse(entities: &[&EntityLayout], hot: &HotPartition) -> bool {
    entities
        .iter()
        .filter(|entity| entity.entity == hot.entity)
        .flat_map(|entity| entity.keys)
        .any(|key| key.index_name() == hot.index && hot.index.is_some() && key.sparse)
}

/// What is hot, why, and the usual fix with the sharded template.
fn message(hot: &HotPartition, sparse: bool) -> String {
    let fields = |fields: &[&str]| {
        fields
            .iter()
            .map(|field| format!("`{{{field}}}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let why = match &hot.reason {
        HotReason::Literal => format!(
            "`{}` is one literal value: every item shares one partition",
            hot.template
        ),
        HotReason::Calendar { fields: holes } => format!(
            "`{}` follows the clock through {}: every write of one day goes to one partition",
            hot.template,
            fields(holes)
        ),
        HotReason::FewValues { at_most, .. } => format!(
            "`{}` has at most {at_most} values: writes concentrate on that many partitions",
            hot.template
        ),
    };
    let note = if sparse {
        " (the index is sparse: fine while few items qualify)"
    } else {
        ""
    };
    format!(
        "{why}{note}; a partition takes about 1,000 write and 3,000 read units per second whatever the table's capacity: {}, e.g. `{}`",
        hot.fix, hot.suggestion
    )
}
