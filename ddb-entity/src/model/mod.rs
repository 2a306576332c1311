//! The model: the table, its indexes and its entities as one value, and
//! what is made from it.
//!
//! The table's definition as the SDK's own
//! [`CreateTableInput`](aws_sdk_dynamodb::operation::create_table::CreateTableInput)
//! ([`create_table_input`]), which [`Db::create_table_if_missing`](crate::Db::create_table_if_missing)
//! sends, and the drift check of a live table against the declaration
//! ([`Db::drift`](crate::Db::drift)).
//!
//! This room sits above the entities and the operations, and nothing
//! below it imports from here (table creation lives here because it sends
//! the model's definition).

mod create;
mod definition;
mod drift;

pub use create::{CreateTable, Provisioned};
pub use definition::{create_table_input, time_to_live_specification};
pub use drift::{Difference, DifferenceKind, Drift, DriftCheck};
