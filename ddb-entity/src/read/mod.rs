//! Reads: one entity by key (GetItem), one partition of the table or an
//! index (Query), a multi-attribute index (MultiQuery) and scans, typed
//! and demultiplexed, all finished by the one engine (`engine/`).

pub(crate) mod engine;
mod filter;
mod get;
mod key_type;
mod multi;
mod plan;
mod query;
mod scan;
mod shape;

pub use engine::finish::Page;
pub use get::Get;
pub use multi::MultiQuery;
#[cfg(feature = "model")]
pub(crate) use plan::shown as shown_key;
pub use plan::{ReadOperation, ReadPlan, SortCondition};
pub use query::Query;
pub(crate) use query::projection;
pub use scan::{Scan, ScanPage};
pub use shape::{Partial, Projected, ReadShape, Whole};
