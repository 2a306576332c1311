//! DynamoDB's export-to-S3 files read into typed items, and ImportTable's
//! input files written from typed entities: a migration without read or
//! write capacity (feature `export`).
//!
//! An export (`ExportTableToPointInTime`) writes, under
//! `<prefix>/AWSDynamoDB/<ExportId>/`, a `manifest-summary.json`, a
//! `manifest-files.json` (one line per data file: its `itemCount`,
//! `md5Checksum`, `etag`, `dataFileS3Key`) and gzip'd data files of JSON
//! lines in DynamoDB JSON: a **full** export's line is `{"Item": {…}}`, an
//! **incremental** export's is `{"Metadata": {"WriteTimestampMicros":
//! {"N": "…"}}, "Keys": {…}, "NewImage": {…}, "OldImage": {…}}` (no new
//! image: deleted; no old image: created in the window, or the view is
//! `NEW_IMAGE`). [`read_records`] reads one data file from any tokio
//! `AsyncRead` (an S3 `GetObject` body's `into_async_read()`, a file, a
//! byte slice), gzip'd or not; [`LocalExport`] reads a downloaded export
//! by its manifests and (feature `export-s3`) `S3Export` one where
//! DynamoDB wrote it, both checking each data file against the files
//! manifest (its MD5 and ETag) before handing out any of its records, and
//! its item count after the last. Each
//! [`ExportRecord`] decodes as an entity ([`ExportRecord::entity`], the
//! table's own decode and key check) or as any serde shape
//! ([`ExportRecord::decode`], a migration's legacy row).
//!
//! ImportTable (`InputFormat` `DYNAMODB_JSON`) takes the full export's
//! line shape: [`ImportWriter`] writes it from entities, plain or gzip'd,
//! attributes in name order. An import creates a new table; writes made
//! to the legacy table meanwhile come after it from an incremental export
//! (or the table's stream) through the same mapping.
//!
//! Not covered: Amazon Ion exports; a data file's MD5 read from an
//! `AsyncRead` by [`read_records`] alone (no manifest: the caller's to
//! check).
//!
//! # Example
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use ddb_entity::evolve::export::{ExportRecord, ImportWriter, read_records};
//! use ddb_entity::Entity;
//! use futures_util::TryStreamExt;
//! use serde::{Deserialize, Serialize};
//!
//! ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
//!
//! #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
//! #[entity(table = App, pk = "USER#{id}", sk = "PROFILE")]
//! struct User { id: u32, name: String }
//!
//! // An import file, gzip'd, from typed entities.
//! let mut import = ImportWriter::gzip(Vec::new());
//! import.put(&User { id: 7, name: "Ada".into() })?;
//! assert_eq!(import.items(), 1);
//! let (gzipped, count) = import.finish()?;
//! assert_eq!((count, &gzipped[..2]), (1, &[0x1f, 0x8b][..]));
//!
//! // Read back as an export's data file would be.
//! let records: Vec<ExportRecord> = read_records("users.json.gz", &gzipped[..]).try_collect().await?;
//! assert_eq!(records[0].entity::<User>()?, Some(User { id: 7, name: "Ada".into() }));
//!
//! // A plain line, exactly as written: attributes in name order.
//! let mut plain = ImportWriter::new(Vec::new());
//! plain.put(&User { id: 7, name: "Ada".into() })?;
//! let (text, _) = plain.finish()?;
//! assert_eq!(
//!     String::from_utf8(text)?,
//!     "{\"Item\":{\"PK\":{\"S\":\"USER#7\"},\"SK\":{\"S\":\"PROFILE\"},\"_type\":{\"S\":\"user\"},\"name\":{\"S\":\"Ada\"}}}\n"
//! );
//!
//! // An incremental export's deletion, and a legacy shape decoded with serde.
//! let line = br#"{"Metadata":{"WriteTimestampMicros":{"N":"1700000000000000"}},"Keys":{"PK":{"S":"USER#7"},"SK":{"S":"PROFILE"}},"OldImage":{"PK":{"S":"USER#7"},"SK":{"S":"PROFILE"},"name":{"S":"Ada"}}}"#;
//! let records: Vec<ExportRecord> = read_records("changes.json", &line[..]).try_collect().await?;
//! let ExportRecord::Change(change) = &records[0] else { unreachable!() };
//! assert!(change.is_removal() && change.old_image.is_some());
//! assert_eq!(change.written_at_micros, 1_700_000_000_000_000);
//! assert_eq!(records[0].item(), None);
//! #[derive(Deserialize)]
//! struct Row { name: String }
//! assert!(records[0].decode::<Row>()?.is_none());
//! # let _ = |r: Row| r.name;
//! # Ok(())
//! # }
//! ```

mod import;
mod read;
mod record;
#[cfg(feature = "export-s3")]
mod s3;

pub use import::ImportWriter;
pub use read::{DataFile, ExportSummary, LocalExport, read_records};
pub use record::{ExportChange, ExportRecord};
#[cfg(feature = "export-s3")]
#[cfg_attr(docsrs, doc(cfg(feature = "export-s3")))]
pub use s3::S3Export;
