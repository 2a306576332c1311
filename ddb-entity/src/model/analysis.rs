//! The access patterns checked against the model: which index each reads,
//! which entity types its partition and range hold, whether two of them
//! can share a key there, whether the index projects what it reads, and
//! how many requests it takes (the costlier shapes are in `cost.rs`).

use std::time::Duration;

use super::cost::{self, Requests, Sharded};
use super::finding::{Findings, Lint};
use super::lint::{kind_name, missing_attributes};
use super::pattern::{DeclaredPattern, Reads};
use super::placement::{Placement, collide, placements};
use crate::layout::EntityLayout;
use crate::read::{ReadOperation, ReadPlan, SortCondition, shown_key};
use crate::table::{IndexSchema, Projection, TableSchema};

/// One row of the access-pattern table.
///
/// ```
/// # use ddb_entity::Entity;
/// # use ddb_entity::model::{AccessPattern, Model};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
/// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
/// # #[derive(Entity, Serialize, Deserialize)]
/// # #[entity(table = App, pk = "USER#{email}", sk = "PROFILE")]
/// # struct User { email: String, name: String }
/// # #[derive(Entity, Serialize, Deserialize)]
/// # #[entity(table = App, pk = "USER#{email}", sk = "ORDER#{order_id}")]
/// # #[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "ORDER")]
/// # struct Order { email: String, order_id: u64, total_cents: i64 }
/// # fn model() -> Model<App> {
/// #     Model::<App>::new("shop")
/// #         .entity::<User>()
/// #         .entity::<Order>()
/// #         .pattern(AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))))
/// #         .pattern(
/// #             AccessPattern::query("Order by id", |db| Ok(db.query(Order::gsi1_partition(9931)?)))
/// #                 .returns::<Vec<Order>>(),
/// #         )
/// # }
/// let report = model().report();
/// let row = &report.patterns[1];
/// assert_eq!(row.name, "Order by id");
/// assert_eq!((row.operation.as_str(), row.index.as_str()), ("Query", "GSI1"));
/// assert_eq!(row.key_condition, "GSI1PK = ORDER#{order_id}");
/// assert_eq!((row.reads.as_slice(), row.returns), (&["Order"][..], Some("Order")));
/// assert!(row.ok);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternRow {
    /// The pattern's name.
    pub name: String,
    /// `GetItem`, `Query` or `Scan` (or `-` when its request could not be
    /// built).
    pub operation: String,
    /// `table`, or the index's name.
    pub index: String,
    /// The requests one call sends: one, a Query per shard or per
    /// partition, or a Scan's.
    pub requests: Requests,
    /// The key condition: the partition template(s) and the sort-key
    /// condition as sent for the pattern's sample values.
    pub key_condition: String,
    /// The Rust names of the entity types its partition and range hold.
    pub reads: Vec<&'static str>,
    /// What it declares it returns.
    pub returns: Option<&'static str>,
    /// The largest result set expected.
    pub expected_items: Option<usize>,
    /// The latency budget.
    pub latency: Option<Duration>,
    /// Whether no error finding is about it.
    pub ok: bool,
}

/// Checks every pattern: rows, findings, and the indexes they use.
pub(crate) fn check_patterns<'p>(
    schema: &TableSchema,
    entities: &[&'static EntityLayout],
    patterns: &'p [DeclaredPattern],
    findings: &mut Findings<'_>,
) -> (Vec<PatternRow>, Vec<&'p str>) {
    let mut rows = Vec::new();
    let mut used: Vec<&str> = Vec::new();
    for pattern in patterns {
        let before = findings.out.len();
        let row = match &pattern.reads {
            Err(error) => {
                findings.push(
                    Lint::PatternRequest,
                    &pattern.name,
                    format!("its request could not be built: {error}"),
                );
                PatternRow {
                    name: pattern.name.clone(),
                    operation: "-".into(),
                    index: "-".into(),
                    requests: Requests::One,
                    key_condition: "-".into(),
                    reads: Vec::new(),
                    returns: pattern.returns.as_ref().map(|r| r.name),
                    expected_items: pattern.expected_items,
                    latency: pattern.latency,
                    ok: false,
                }
            }
            Ok(Reads::Scan { index }) => {
                used.extend(*index);
                cost::scan(schema, entities, pattern, *index, findings)
            }
            Ok(Reads::One(plan)) => {
                used.extend(plan.index);
                let (row, sharded) = check_one(schema, entities, pattern, plan, findings);
                if let Some(sharded) = &sharded {
                    cost::fan_out(pattern, sharded, findings);
                }
                PatternRow {
                    requests: Requests::of(1, sharded.as_ref()),
                    ..row
                }
            }
            Ok(Reads::Partitions { plans, at_most }) => {
                let mut rows = plans.iter().map(|plan| {
                    used.extend(plan.index);
                    check_one(schema, entities, pattern, plan, findings)
                });
                let (mut row, mut sharded) = rows.next().expect("a pattern of no Query is refused");
                for (other, other_sharded) in rows {
                    row.ok &= other.ok;
                    for read in other.reads {
                        if !row.reads.contains(&read) {
                            row.reads.push(read);
                        }
                    }
                    sharded = sharded.or(other_sharded);
                }
                cost::partitions(pattern, *at_most, findings);
                if let Some(sharded) = &sharded {
                    cost::fan_out(pattern, sharded, findings);
                }
                PatternRow {
                    requests: Requests::of(*at_most, sharded.as_ref()),
                    ..row
                }
            }
        };
        let errors = findings.out[before..]
            .iter()
            .any(|f| f.is_active() && f.lint.severity() == super::Severity::Error);
        rows.push(PatternRow {
            ok: row.ok && !errors,
            ..row
        });
    }
    (rows, used)
}

/// The row of one GetItem or Query, and the sharded partition key it
/// reads every shard of, if it does.
fn check_one(
    schema: &TableSchema,
    entities: &[&'static EntityLayout],
    pattern: &DeclaredPattern,
    plan: &ReadPlan,
    findings: &mut Findings<'_>,
) -> (PatternRow, Option<Sharded>) {
    let name = &pattern.name;
    let placed = placements(schema, entities, plan.index);
    let in_partition: Vec<&Placement<'_>> = placed
        .iter()
        .filter(|p| p.in_partition(&plan.partition))
        .collect();
    let sharded = in_partition.iter().find_map(|p| {
        p.fans_out(&plan.partition).map(|spec| Sharded {
            template: p.pk_source.clone(),
            spec,
        })
    });
    let read: Vec<&Placement<'_>> = in_partition
        .iter()
        .copied()
        .filter(|p| holds(p, &plan.sort))
        .collect();
    let where_ = plan
        .index
        .map_or("the table".to_owned(), |i| format!("index {i}"));
    if read.is_empty() {
        findings.push(
            Lint::PatternReadsNothing,
            name,
            format!(
                "no entity of the model writes a key in partition {:?} of {where_} and its range: check the template and the sample values",
                plan.partition
            ),
        );
    }
    // On the table, two types sharing a key is a key collision of the
    // model; on an index it makes this pattern's results ambiguous.
    if plan.index.is_some() {
        for (i, a) in read.iter().enumerate() {
            for b in &read[i + 1..] {
                if collide(a, b) {
                    findings.push(
                        Lint::PatternKeyCollision,
                        name,
                        format!(
                            "`{}` and `{}` can have the same key on {where_} (`{}` / `{}` and `{}` / `{}`): the results cannot be told apart by key",
                            a.entity.entity,
                            b.entity.entity,
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
    let read_tags: Vec<&str> = read.iter().map(|p| p.entity.type_tag).collect();
    if let Some(returns) = &pattern.returns {
        for tag in returns.types {
            if !read_tags.contains(tag) {
                findings.push(
                    Lint::PatternMissesType,
                    name,
                    format!(
                        "returns `{}`, whose type `{tag}` its partition and range never hold on {where_}",
                        returns.name
                    ),
                );
            }
        }
        let others: Vec<&str> = read
            .iter()
            .filter(|p| !returns.types.contains(&p.entity.type_tag))
            .map(|p| p.entity.entity)
            .collect();
        if !others.is_empty() {
            findings.push(
                Lint::PatternReadsOtherTypes,
                name,
                format!(
                    "its range also holds {}: read, paid for and skipped; bound the range with the returned types' sort keys",
                    others.join(", ")
                ),
            );
        }
    }
    if let Some(index) = plan.index.and_then(|i| schema.index(i)) {
        check_projection(schema, index, pattern, plan, &read, findings);
    }
    let returned: Vec<&Placement<'_>> = match &pattern.returns {
        Some(returns) => read
            .iter()
            .copied()
            .filter(|p| returns.types.contains(&p.entity.type_tag))
            .collect(),
        None => read.clone(),
    };
    let row = PatternRow {
        name: name.clone(),
        operation: plan.operation.as_str().to_owned(),
        index: plan.index.unwrap_or("table").to_owned(),
        requests: Requests::One,
        key_condition: key_condition(plan, &in_partition, &returned),
        reads: read.iter().map(|p| p.entity.entity).collect(),
        returns: pattern.returns.as_ref().map(|r| r.name),
        expected_items: pattern.expected_items,
        latency: pattern.latency,
        ok: true,
    };
    (row, sharded)
}

/// Whether the placement's sort keys reach the condition.
fn holds(placement: &Placement<'_>, sort: &SortCondition) -> bool {
    let Some(sk) = &placement.sk else {
        return !matches!(sort, SortCondition::Nothing);
    };
    match sort {
        SortCondition::All => true,
        SortCondition::Nothing => false,
        SortCondition::Equal(value) => sk.matches(value),
        SortCondition::BeginsWith(prefix) => sk.reaches_prefix(prefix),
        SortCondition::Between(low, high) => sk.reaches_range(Some(low), Some(high)),
        SortCondition::AtLeast(low) => sk.reaches_range(Some(low), None),
        SortCondition::AtMost(high) => sk.reaches_range(None, Some(high)),
    }
}

fn check_projection(
    schema: &TableSchema,
    index: &IndexSchema,
    pattern: &DeclaredPattern,
    plan: &ReadPlan,
    read: &[&Placement<'_>],
    findings: &mut Findings<'_>,
) {
    if index.projection == Projection::All {
        return;
    }
    let keys: Vec<&str> = [schema.primary, index.keys]
        .iter()
        .flat_map(|k| std::iter::once(k.partition_key).chain(k.sort_key))
        .chain([schema.type_attribute])
        .collect();
    let projected = |attribute: &str| {
        keys.contains(&attribute) || index.projection.non_key_attributes().contains(&attribute)
    };
    match &plan.projection {
        Some(asked) => {
            let missing: Vec<&str> = asked.iter().copied().filter(|a| !projected(a)).collect();
            if !missing.is_empty() {
                findings.push(
                    Lint::PatternProjection,
                    &pattern.name,
                    format!(
                        "asks for {}, which {} index {} does not project ({})",
                        quoted(&missing),
                        kind_name(index.kind),
                        index.name,
                        index.projection.as_str()
                    ),
                );
            }
        }
        None => {
            for placement in read {
                let returned = pattern
                    .returns
                    .as_ref()
                    .is_none_or(|r| r.types.contains(&placement.entity.type_tag));
                if !returned {
                    continue;
                }
                let missing = missing_attributes(index.projection, placement.entity, &keys);
                if !missing.is_empty() {
                    findings.push(
                        Lint::PatternProjection,
                        &pattern.name,
                        format!(
                            "reads whole `{}` items from index {}, which projects {}: {} would be missing, so decoding fails (or an `Option` reads as `None`); project them, or ask for a projection",
                            placement.entity.entity,
                            index.name,
                            index.projection.as_str(),
                            quoted(&missing)
                        ),
                    );
                }
            }
        }
    }
}

fn quoted(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `PK = USER#{email}` and the sort condition, for the table's row.
fn key_condition(
    plan: &ReadPlan,
    in_partition: &[&Placement<'_>],
    returned: &[&Placement<'_>],
) -> String {
    let mut templates: Vec<&str> = Vec::new();
    let sources = returned.iter().chain(in_partition);
    for placement in sources {
        if !templates.contains(&placement.pk_source.as_str()) {
            templates.push(&placement.pk_source);
        }
    }
    let partition = if templates.is_empty() {
        format!("{:?}", plan.partition)
    } else {
        templates.join(" / ")
    };
    let mut out = format!("{} = {partition}", plan.keys.partition_key);
    let sk = plan.keys.sort_key.unwrap_or("sort key");
    let shown = shown_key;
    let sort = match (&plan.sort, plan.operation) {
        (SortCondition::Equal(_), ReadOperation::GetItem) => {
            let mut sks: Vec<&str> = Vec::new();
            for placement in returned {
                if let Some(source) = placement.sk_source.as_deref()
                    && !sks.contains(&source)
                {
                    sks.push(source);
                }
            }
            match sks.is_empty() {
                true => None,
                false => Some(format!("{sk} = {}", sks.join(" / "))),
            }
        }
        (SortCondition::All, _) => None,
        (SortCondition::Nothing, _) => Some("(empty range)".to_owned()),
        (SortCondition::Equal(v), _) => Some(format!("{sk} = {}", shown(v))),
        (SortCondition::BeginsWith(v), _) => Some(format!("begins_with({sk}, {})", shown(v))),
        (SortCondition::Between(low, high), _) => {
            Some(format!("{sk} BETWEEN {} AND {}", shown(low), shown(high)))
        }
        (SortCondition::AtLeast(v), _) => Some(format!("{sk} >= {}", shown(v))),
        (SortCondition::AtMost(v), _) => Some(format!("{sk} <= {}", shown(v))),
    };
    if let Some(sort) = sort {
        out.push_str(" AND ");
        out.push_str(&sort);
    }
    if plan.reverse {
        out.push_str(", newest first");
    }
    if let Some(limit) = plan
        .limit
        .filter(|_| plan.operation == ReadOperation::Query)
    {
        out.push_str(&format!(", limit {limit}"));
    }
    out
}

/// `IndexProjectsAll`: an `ALL` index every reading pattern projects.
pub(crate) fn projects_all(
    schema: &TableSchema,
    patterns: &[DeclaredPattern],
    findings: &mut Findings<'_>,
) {
    for index in schema.all_indexes() {
        if index.projection != Projection::All {
            continue;
        }
        let plans: Vec<&ReadPlan> = patterns
            .iter()
            .flat_map(DeclaredPattern::plans)
            .filter(|plan| plan.index == Some(index.name))
            .collect();
        // A Scan of it reads whole items (its projection is not checked).
        let scanned = patterns
            .iter()
            .any(|p| p.scanned() == Some(Some(index.name)));
        if plans.is_empty() || scanned || plans.iter().any(|plan| plan.projection.is_none()) {
            continue;
        }
        let mut attributes: Vec<&str> = Vec::new();
        for attribute in plans
            .iter()
            .flat_map(|plan| plan.projection.iter().flatten())
        {
            if !attributes.contains(attribute) {
                attributes.push(attribute);
            }
        }
        findings.push(
            Lint::IndexProjectsAll,
            index.name,
            format!(
                "projects ALL, but every pattern reading it asks only for {}: project `include[{}]` and every write copies less",
                quoted(&attributes),
                attributes
                    .iter()
                    .map(|a| format!("{a:?}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
    }
}
