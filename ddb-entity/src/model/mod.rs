//! The model: the table, its indexes and its entities as one value, and
//! what is made from it.
//!
//! Always available: the table's definition as the SDK's own
//! [`CreateTableInput`](aws_sdk_dynamodb::operation::create_table::CreateTableInput)
//! ([`create_table_input`]), which [`Db::create_table_if_missing`](crate::db::Db::create_table_if_missing)
//! sends, and the drift check of a live table against the declaration
//! ([`Db::drift`](crate::db::Db::drift)).
//!
//! With the feature `model`, [`Model`]: the table's declaration, every
//! entity stored in it (their templates, indexes and fields, as
//! `#[derive(Entity)]` describes them) and the access patterns the
//! application declares next to the queries that serve them. From it:
//!
//! - the [`Report`]: the access-pattern table, generated from code: each
//!   pattern's operation (a GetItem, a Query of one partition, a Query
//!   per shard or per partition, a Scan) and what it costs in requests,
//!   on which index, reading which entity types, none of which can share
//!   a key there; and the model's [`Lint`]s, with the usual answer to a
//!   pattern that is more than one Query;
//! - deploy definitions: the AWS CLI's `create-table` input, a
//!   CloudFormation/SAM template, Terraform (HCL or JSON), a NoSQL
//!   Workbench data model — all from the one `CreateTableInput`;
//! - the key-layout snapshot ([`LayoutSnapshot`]): every entity's templates and the exact
//!   keys written for sample values, to commit and review;
//! - the [`TenantPolicy`]: an IAM policy confining a principal to one
//!   tenant's partitions (`dynamodb:LeadingKeys`).
//!
//! ```
//! ddb_entity::table! {
//!     /// The shop's table.
//!     pub struct App {
//!         partition_key: "PK",
//!         sort_key: "SK",
//!         billing: provisioned { read: 5, write: 5 },
//!         local_indexes: { pub ByDate = "ByDate" { sort_key: "placed_at", projection: keys_only } },
//!     }
//! }
//!
//! let input = ddb_entity::model::create_table_input(&<App as ddb_entity::Table>::SCHEMA, "shop")?;
//! assert_eq!(input.local_secondary_indexes()[0].index_name(), "ByDate");
//! assert_eq!(input.provisioned_throughput().map(|c| c.write_capacity_units()), Some(5));
//! # Ok::<(), ddb_entity::Error>(())
//! ```
//!
//! This module sits above the entities and the operations: it reads the
//! table declaration, the entities' descriptions and the read plans of
//! typed requests, and nothing below it imports from here (table creation
//! lives here because it sends the model's definition).
//!
#![cfg_attr(
    feature = "model",
    doc = "[`Model`]: Model\n[`Report`]: Report\n[`Lint`]: Lint\n[`LayoutSnapshot`]: LayoutSnapshot\n[`TenantPolicy`]: TenantPolicy"
)]
#![cfg_attr(
    not(feature = "model"),
    doc = "[`Model`]: https://docs.rs/ddb-entity/latest/ddb_entity/model/struct.Model.html\n[`Report`]: https://docs.rs/ddb-entity/latest/ddb_entity/model/struct.Report.html\n[`Lint`]: https://docs.rs/ddb-entity/latest/ddb_entity/model/enum.Lint.html\n[`LayoutSnapshot`]: https://docs.rs/ddb-entity/latest/ddb_entity/model/struct.LayoutSnapshot.html\n[`TenantPolicy`]: https://docs.rs/ddb-entity/latest/ddb_entity/model/struct.TenantPolicy.html"
)]

mod create;
mod definition;
pub(crate) mod drift;

#[cfg(feature = "model")]
mod analysis;
#[cfg(feature = "model")]
mod artefact;
#[cfg(feature = "model")]
mod cost;
#[cfg(feature = "model")]
mod described;
#[cfg(feature = "model")]
mod finding;
#[cfg(feature = "model")]
mod hot;
#[cfg(feature = "model")]
mod json;
#[cfg(feature = "model")]
mod keyspace;
#[cfg(feature = "model")]
mod layout;
#[cfg(feature = "model")]
mod lint;
#[cfg(feature = "model")]
mod pattern;
#[cfg(feature = "model")]
mod placement;
#[cfg(feature = "model")]
mod report;
#[cfg(feature = "model")]
mod table_model;
#[cfg(feature = "model")]
mod tenant;

pub use create::{CreateTable, Provisioned};
pub use definition::{create_table_input, time_to_live_specification};
pub use drift::{Difference, DifferenceKind, Drift, DriftCheck};

#[cfg(feature = "model")]
#[cfg_attr(docsrs, doc(cfg(feature = "model")))]
pub use analysis::PatternRow;
#[cfg(feature = "model")]
#[cfg_attr(docsrs, doc(cfg(feature = "model")))]
pub use cost::Requests;
#[cfg(feature = "model")]
#[cfg_attr(docsrs, doc(cfg(feature = "model")))]
pub use finding::{Finding, Lint, Severity};
#[cfg(feature = "model")]
#[cfg_attr(docsrs, doc(cfg(feature = "model")))]
pub use layout::LayoutSnapshot;
#[cfg(feature = "model")]
#[cfg_attr(docsrs, doc(cfg(feature = "model")))]
pub use pattern::AccessPattern;
#[cfg(feature = "model")]
#[cfg_attr(docsrs, doc(cfg(feature = "model")))]
pub use report::Report;
#[cfg(feature = "model")]
#[cfg_attr(docsrs, doc(cfg(feature = "model")))]
pub use table_model::Model;
#[cfg(feature = "model")]
#[cfg_attr(docsrs, doc(cfg(feature = "model")))]
pub use tenant::{TenantPolicy, TenantPolicyDocument};
