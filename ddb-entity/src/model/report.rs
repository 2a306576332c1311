//! The model's report: the table, its entities, the access-pattern table
//! and the lints' findings, as Markdown.

use std::fmt::{self, Write};

use super::analysis::{PatternRow, check_patterns, projects_all};
use super::described::PrimaryKey;
use super::finding::{Finding, Findings, Severity};
use super::lint::lint_model;
use super::table_model::Model;
use crate::layout::{EntityLayout, TemplateLayout};
use crate::table::{Billing, IndexKind, Table, TableSchema};

/// What [`Model::report`] found: the access-pattern rows and every
/// finding, allowed ones included (with their reason).
///
/// ```
/// use ddb_entity::Entity;
/// use ddb_entity::model::{AccessPattern, Lint, Model, Severity};
/// use serde::{Deserialize, Serialize};
///
/// ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// struct Customer { id: u64 }
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "CUST#{id}", sk = "ORDER#{order_id}")]
/// struct Order { id: u64, order_id: u64 }
///
/// // Orders, collected into customers: the range never holds one.
/// let report = Model::<App>::new("shop")
///     .entity::<Customer>()
///     .entity::<Order>()
///     .pattern(
///         AccessPattern::query("Orders of a customer", |db| {
///             Ok(db.query(Order::partition(1)?).sk_begins_with(Order::sk()))
///         })
///         .returns::<Vec<Customer>>(),
///     )
///     .report();
/// assert!(!report.is_clean());
/// let error = report.errors().next().unwrap();
/// assert_eq!((error.lint, error.lint.severity()), (Lint::PatternMissesType, Severity::Error));
/// assert!(!report.patterns[0].ok);
/// assert!(report.access_patterns_markdown().contains("| Orders of a customer | Query | table |"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The table's name.
    pub table: String,
    /// The Markdown of the table and its entities.
    overview: String,
    /// One row per declared pattern, in declaration order.
    pub patterns: Vec<PatternRow>,
    /// The findings, in lint order.
    pub findings: Vec<Finding>,
}

impl<T: Table> Model<T> {
    /// Checks the access patterns and runs every lint.
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
    /// assert!(report.is_clean(), "{report}");
    /// assert_eq!(report.patterns.len(), 2);
    /// assert!(report.to_string().contains("| User by email | GetItem | table |"));
    /// ```
    pub fn report(&self) -> Report {
        let mut findings = Findings::new(self.allowed());
        let (patterns, used) = check_patterns(
            self.schema(),
            self.entities(),
            self.declared_patterns(),
            &mut findings,
        );
        projects_all(self.schema(), self.declared_patterns(), &mut findings);
        lint_model(self, &used, &mut findings);
        let mut findings = findings.out;
        findings.sort_by_key(|f| f.lint);
        Report {
            table: self.table_name().to_owned(),
            overview: overview(self.table_name(), self.schema(), self.entities()),
            patterns,
            findings,
        }
    }
}

impl Report {
    /// Whether no finding counts (every one is allowed, or there are none).
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
    /// use ddb_entity::model::Lint;
    ///
    /// let users_only = || {
    ///     Model::<App>::new("shop")
    ///         .entity::<User>()
    ///         .pattern(AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))))
    /// };
    /// // No pattern reads GSI1…
    /// assert!(!users_only().report().is_clean());
    /// // …which is fine once said why.
    /// let allowed = users_only().allow(Lint::UnusedIndex, "GSI1", "the admin console reads it");
    /// assert!(allowed.report().is_clean());
    /// ```
    pub fn is_clean(&self) -> bool {
        self.active().next().is_none()
    }

    /// The findings that count: not allowed.
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
    /// use ddb_entity::model::Lint;
    ///
    /// // An unused index, allowed: a finding, but not an active one.
    /// let report = Model::<App>::new("shop")
    ///     .entity::<User>()
    ///     .pattern(AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))))
    ///     .allow(Lint::UnusedIndex, "GSI1", "the admin console reads it")
    ///     .report();
    /// assert_eq!(report.findings.len(), 1);
    /// assert_eq!(report.active().count(), 0);
    /// ```
    pub fn active(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| f.is_active())
    }

    /// The findings of severity error that count.
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
    /// use ddb_entity::model::Lint;
    ///
    /// // An unused index is a warning, not an error.
    /// let report = Model::<App>::new("shop")
    ///     .entity::<User>()
    ///     .pattern(AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))))
    ///     .report();
    /// assert_eq!(report.active().next().unwrap().lint, Lint::UnusedIndex);
    /// assert_eq!(report.errors().count(), 0);
    /// ```
    pub fn errors(&self) -> impl Iterator<Item = &Finding> {
        self.active()
            .filter(|f| f.lint.severity() == Severity::Error)
    }

    /// The findings of one lint, allowed or not.
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
    /// use ddb_entity::model::Lint;
    ///
    /// let report = Model::<App>::new("shop")
    ///     .entity::<User>()
    ///     .pattern(AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))))
    ///     .report();
    /// let unused: Vec<&str> = report.of_lint(Lint::UnusedIndex).map(|f| f.subject.as_str()).collect();
    /// assert_eq!(unused, ["GSI1"]);
    /// ```
    pub fn of_lint(&self, lint: super::Lint) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(move |f| f.lint == lint)
    }

    /// Panics, listing them, if any finding counts: for a test that keeps
    /// the model clean.
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
    /// model().report().assert_clean();
    ///
    /// let unused = Model::<App>::new("shop")
    ///     .entity::<User>()
    ///     .pattern(AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))))
    ///     .report();
    /// let panic = std::panic::catch_unwind(|| unused.assert_clean()).unwrap_err();
    /// assert!(panic.downcast_ref::<String>().unwrap().contains("warning[unused-index] GSI1"));
    /// ```
    #[track_caller]
    pub fn assert_clean(&self) {
        if !self.is_clean() {
            let listed: Vec<String> = self.active().map(|f| format!("- {f}")).collect();
            panic!(
                "the model of table `{}` has {} finding(s):\n{}",
                self.table,
                listed.len(),
                listed.join("\n")
            );
        }
    }

    /// The access-pattern table, generated from code: every pattern with
    /// its operation, index, requests, key condition, the entity types it reads, what it
    /// returns, its expected result set and latency budget, and whether it
    /// passed the checks.
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
    /// let table = model().report().access_patterns_markdown();
    /// assert!(table.starts_with("| Access pattern | Operation | Index |"));
    /// assert!(table.contains("| Order by id | Query | GSI1 |"));
    /// ```
    pub fn access_patterns_markdown(&self) -> String {
        let mut out = String::new();
        out.push_str(
            "| Access pattern | Operation | Index | Requests | Key condition | Reads | Returns | Expected items | Latency budget | Check |\n",
        );
        out.push_str("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
        for row in &self.patterns {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                cell(&row.name),
                row.operation,
                cell(&row.index),
                row.requests,
                code(&row.key_condition),
                if row.reads.is_empty() {
                    "-".to_owned()
                } else {
                    row.reads.join(", ")
                },
                row.returns.unwrap_or("-"),
                row.expected_items.map_or("-".into(), |n| format!("≤ {n}")),
                row.latency
                    .map_or("-".into(), |d| format!("{} ms", d.as_millis())),
                if row.ok { "ok" } else { "**fails**" },
            );
        }
        out
    }

    /// The findings as a Markdown list (`none` when there are none).
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
    /// let findings = Model::<App>::new("shop")
    ///     .entity::<User>()
    ///     .pattern(AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))))
    ///     .report()
    ///     .findings_markdown();
    /// assert!(findings.contains("unused-index"), "{findings}");
    /// ```
    pub fn findings_markdown(&self) -> String {
        if self.findings.is_empty() {
            return "none\n".into();
        }
        let mut out = String::new();
        for finding in &self.findings {
            let _ = writeln!(out, "- {}", cell(&finding.to_string()));
        }
        out
    }

    /// The whole report: table, entities, access patterns, findings.
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
    /// let markdown = model().report().markdown();
    /// assert!(markdown.contains("| User by email | GetItem | table |"));
    /// assert_eq!(markdown, model().report().to_string());
    /// ```
    pub fn markdown(&self) -> String {
        format!(
            "{}\n## Access patterns\n\n{}\n## Findings\n\n{}",
            self.overview,
            self.access_patterns_markdown(),
            self.findings_markdown()
        )
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.markdown())
    }
}

/// A table cell: `|` escaped, newlines flattened.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// Inline code in a cell.
fn code(text: &str) -> String {
    format!("`{}`", cell(text).replace('`', "'"))
}

fn overview(name: &str, schema: &TableSchema, entities: &[&'static EntityLayout]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Model of table `{name}`\n");
    let keys = |pk: &str, sk: Option<&str>| match sk {
        Some(sk) => format!("`{pk}` / `{sk}`"),
        None => format!("`{pk}`"),
    };
    let billing = match schema.billing {
        Billing::OnDemand => "on demand".to_owned(),
        Billing::Provisioned(c) => {
            format!("provisioned, {} read / {} write units", c.read, c.write)
        }
    };
    let _ = writeln!(
        out,
        "Keys {}; type attribute `{}`; time to live {}; billing {billing}.\n",
        keys(schema.primary.partition_key, schema.primary.sort_key),
        schema.type_attribute,
        schema
            .ttl_attribute
            .map_or("off".to_owned(), |a| format!("on `{a}`")),
    );
    if schema.all_indexes().next().is_some() || !schema.multi_key_indexes.is_empty() {
        out.push_str(
            "| Index | Kind | Keys | Projection | Capacity |\n| --- | --- | --- | --- | --- |\n",
        );
        for index in schema.all_indexes() {
            let kind = match index.kind {
                IndexKind::Global => "global",
                IndexKind::Local => "local",
            };
            let projection = match index.projection.non_key_attributes() {
                [] => index.projection.as_str().to_owned(),
                attributes => format!("{} {}", index.projection.as_str(), attributes.join(", ")),
            };
            let capacity = schema
                .index_capacity(index)
                .map_or("-".to_owned(), |c| format!("{} / {}", c.read, c.write));
            let _ = writeln!(
                out,
                "| {} | {kind} | {} | {projection} | {capacity} |",
                index.name,
                keys(index.keys.partition_key, index.keys.sort_key)
            );
        }
        for index in schema.multi_key_indexes {
            let typed = |attributes: &[crate::table::KeyAttribute]| {
                attributes
                    .iter()
                    .map(|a| format!("`{}` {}", a.name, a.ty.as_str()))
                    .collect::<Vec<_>>()
                    .join(" + ")
            };
            let sort = if index.sort_key.is_empty() {
                String::new()
            } else {
                format!(" / {}", typed(index.sort_key))
            };
            let capacity = schema
                .billing
                .capacity()
                .map_or("-".to_owned(), |c| format!("{} / {}", c.read, c.write));
            let _ = writeln!(
                out,
                "| {} | global, multi-attribute | {}{sort} | ALL | {capacity} |",
                index.name,
                typed(index.partition_key)
            );
        }
        out.push('\n');
    }
    out.push_str("## Entities\n\n");
    out.push_str("| Entity | Type | Partition key | Sort key | Indexes | Fields |\n| --- | --- | --- | --- | --- | --- |\n");
    for entity in entities {
        let template = |t: &TemplateLayout| code(t.source);
        let indexes: Vec<String> = entity
            .index_keys()
            .map(|(index, key)| {
                let sk = key
                    .sort
                    .as_ref()
                    .map_or(String::new(), |sk| format!(" / {}", code(sk.source)));
                let sparse = if key.sparse { " (sparse)" } else { "" };
                format!("{}: {}{sk}{sparse}", index.name, code(key.partition.source))
            })
            .collect();
        let fields: Vec<&str> = entity.fields.iter().map(|f| f.attribute).collect();
        let _ = writeln!(
            out,
            "| {} | `{}` | {} | {} | {} | {} |",
            entity.entity,
            cell(entity.type_tag),
            template(entity.pk()),
            entity.sk().map_or("-".to_owned(), template),
            if indexes.is_empty() {
                "-".to_owned()
            } else {
                indexes.join("; ")
            },
            fields.join(", "),
        );
    }
    out
}
