//! Reads: one entity by key (GetItem) and one partition of the table or an
//! index (Query), typed and demultiplexed.

mod get;
mod plan;
mod query;

pub use get::Get;
pub(crate) use plan::shown as shown_key;
pub use plan::{ReadOperation, ReadPlan, SortCondition};
pub use query::{Page, Query};
