//! Reads: one entity by key (GetItem) and one partition of the table or an
//! index (Query), typed and demultiplexed.

mod filter;
mod get;
mod multi;
mod query;
mod scan;

pub use get::Get;
pub use multi::MultiQuery;
pub use query::{Page, Query};
pub use scan::{Scan, ScanPage};
