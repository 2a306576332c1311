//! Evolving a live table: a new index and its backfill, re-keying, schema
//! versions, a multi-table migration and dual reads.

mod add_index;
mod backfill;
mod export;
mod export_s3;
mod interleave;
mod migrate;
mod shared;
mod throttle;
mod versions;
