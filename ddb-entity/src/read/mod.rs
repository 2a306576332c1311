//! Reads: one entity by key (GetItem) and one partition of the table or an
//! index (Query), typed and demultiplexed.

pub(crate) mod engine;
mod filter;
mod get;
mod key_type;
mod multi;
mod plan;
mod query;
mod scan;

pub use get::Get;
pub use multi::MultiQuery;
#[cfg(feature = "model")]
pub(crate) use plan::shown as shown_key;
pub use plan::{ReadOperation, ReadPlan, SortCondition};
pub use query::{Page, Query};
pub use scan::{Scan, ScanPage};
