//! Evolving a live table: add an index and backfill it, rewrite items after
//! a key template or schema change, migrate from a multi-table model.
//!
//! A genuinely new access pattern may need a new index and a backfill,
//! and a DynamoDB table cannot just be altered. These are the days a
//! team loses data; this module makes them routine:
//!
//! - [`Db::add_index`](crate::db::Db::add_index) creates a declared index on a
//!   live table (UpdateTable) and waits until it is ACTIVE;
//! - [`Db::backfill`](crate::db::Db::backfill) rewrites every item of an
//!   entity into exactly what this build of the entity writes — its index
//!   keys after a new index, a template or shard-count change, its newest
//!   schema version after an upcast — in parallel segments, each item by an
//!   update conditioned on it being unchanged since it was read, with
//!   progress events and a resumable [`Checkpoint`];
//! - entity schema versions (`#[entity(schema_version = N, upcast = [...])]`,
//!   stored in [`SCHEMA_VERSION_ATTRIBUTE`]) read old items through the
//!   user's `From` chain and always write the newest;
//! - [`Migration`] copies legacy tables (any item shape, via serde) into
//!   the single table, and [`DualRead`] reads new first, legacy second,
//!   while the write path flips.
//!
//! Each job's page has its example, run against the embedded server:
//! [`AddIndex`](AddIndex#example), [`Backfill`](Backfill#example),
//! [`Checkpoint`](Checkpoint#example), [`Migration`](Migration#example),
//! [`DualRead`](DualRead#example).

mod add_index;
mod backfill;
mod checkpoint;
mod dual;
#[cfg(feature = "export")]
#[cfg_attr(docsrs, doc(cfg(feature = "export")))]
pub mod export;
mod group;
mod lease;
mod migrate;
mod pace;
mod rewrite;
mod scan;
mod segment;
mod statements;

pub use add_index::{AddIndex, IndexAdded};
pub use backfill::{Backfill, BackfillEvent, BackfillTotals};
pub use checkpoint::{Checkpoint, SegmentPosition};
pub use dual::{DualRead, DualReadStats, Found, legacy_get};
pub use lease::{JobProgress, LeaseTable, SegmentLease, SharedJob};
pub use migrate::{Migration, MigrationEvent, MigrationReport, MigrationTotals, Mismatch, Writes};
pub use pace::Rate;

pub use crate::item::SCHEMA_VERSION_ATTRIBUTE;
