//! The model as code: access patterns checked, deploy definitions made
//! from the one CreateTable input and created on the server, key-layout
//! snapshots, per-tenant IAM policies, and the drift of live tables.
//!
//! Golden files live in `golden/`; after an intended change, regenerate
//! them with `UPDATE_EXPECT=1 cargo test --all-features --test it modelling`
//! and review the diff: for the key layouts, a diff is a data migration.

// The example's model is the one these tests check.
#[path = "../../../examples/model_report/shop.rs"]
pub mod shop;

mod artefacts;
mod costs;
mod definition;
mod drift;
mod layout;
pub mod ledger;
mod lints;
mod patterns;
mod report;
mod servers;
mod tenant;
