//! An export read where DynamoDB wrote it, in S3 (feature `export-s3`):
//! its manifests and data files fetched with the user's S3 client, each
//! data file checked against the manifest before any record of it is
//! handed out (the checks and the counting are `read.rs`'s, shared with a
//! local copy).

use aws_sdk_s3::Client;
use futures_util::stream::Stream;

use super::read::{DataFile, ExportSummary, Fetched, parse_files, parse_summary, verified_records};
use super::record::ExportRecord;
use crate::error::{Error, Repr, Result};

/// An export in S3, read by its manifests: the bucket and the export's
/// folder, the key prefix that holds its `manifest-summary.json`
/// (`<prefix>/AWSDynamoDB/<ExportId>`, as `ExportTableToPointInTime`
/// reports it in `ExportManifest` without the file name). The files
/// manifest and the data files are read from the keys the manifests
/// give.
///
/// Each data file is fetched whole (one `GetObject`, held in memory
/// gzip'd as stored, one file at a time) and checked before any of its
/// records is handed out: the MD5 of its bytes against the manifest's
/// `md5Checksum`, the ETag S3 serves it with against the manifest's
/// `etag` (and, for a file written in one part, against the MD5 itself);
/// after its last record, their count against `itemCount`. A damaged
/// file, another object at its key or a file cut short is an
/// [`ErrorKind::Decode`](crate::ErrorKind::Decode) naming it
/// (`s3://bucket/key`); a failed request is an
/// [`ErrorKind::Service`](crate::ErrorKind::Service) with S3's error code
/// ([`Error::code`]: `NoSuchKey`, `AccessDenied`, …), retryable when S3
/// says so ([`Error::is_retryable`]). The stream ends at the first
/// error.
///
/// The client is yours, built as you build the DynamoDB one (aws-config
/// for region, credentials and the HTTPS stack). It needs
/// `s3:GetObject` on the export's keys.
///
/// # Example
///
/// ```no_run
/// # async fn run(s3: aws_sdk_s3::Client) -> Result<(), ddb_entity::Error> {
/// use ddb_entity::evolve::export::S3Export;
/// use futures_util::TryStreamExt;
///
/// // s3: aws_sdk_s3::Client::new(&aws_config::load_from_env().await)
/// let export = S3Export::open(s3, "my-exports", "orders/AWSDynamoDB/01700000000000-a1b2c3d4").await?;
/// println!("{} items in {} files", export.summary().item_count, export.files().len());
/// let mut records = std::pin::pin!(export.records());
/// while let Some(record) = records.try_next().await? {
///     // record.entity::<Order>()?, record.decode::<LegacyRow>()?, …
/// #   let _ = record;
/// }
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct S3Export {
    client: Client,
    bucket: String,
    summary: ExportSummary,
    files: Vec<DataFile>,
}

impl S3Export {
    /// Reads the export's two manifests: `manifest-summary.json` under
    /// `folder` (a trailing `/` or none) in `bucket`, then the files
    /// manifest at the key the summary gives.
    ///
    /// See [the example](S3Export#example).
    pub async fn open(
        client: Client,
        bucket: impl Into<String>,
        folder: impl AsRef<str>,
    ) -> Result<Self> {
        let bucket = bucket.into();
        let folder = folder.as_ref().trim_end_matches('/');
        let summary_key = if folder.is_empty() {
            "manifest-summary.json".to_owned()
        } else {
            format!("{folder}/manifest-summary.json")
        };
        let fetched = fetch(&client, &bucket, &summary_key).await?;
        let summary = parse_summary(&fetched.name, &fetched.bytes)?;
        let fetched = fetch(&client, &bucket, &summary.manifest_files_s3_key).await?;
        let files = parse_files(&fetched.name, &fetched.bytes)?;
        Ok(S3Export {
            client,
            bucket,
            summary,
            files,
        })
    }

    /// The summary manifest.
    ///
    /// See [the example](S3Export#example).
    pub fn summary(&self) -> &ExportSummary {
        &self.summary
    }

    /// The data files, as the files manifest lists them.
    ///
    /// See [the example](S3Export#example).
    pub fn files(&self) -> &[DataFile] {
        &self.files
    }

    /// Every record of every data file, file after file, each file
    /// checked before its records are handed out (see [`S3Export`]).
    ///
    /// See [the example](S3Export#example).
    pub fn records(&self) -> impl Stream<Item = Result<ExportRecord>> + '_ {
        verified_records(&self.files, move |file| {
            fetch(&self.client, &self.bucket, &file.data_file_s3_key)
        })
    }
}

/// The whole object at `key`, and the ETag S3 serves it with.
async fn fetch(client: &Client, bucket: &str, key: &str) -> Result<Fetched> {
    let name = format!("s3://{bucket}/{key}");
    let output = client
        .get_object()
        .bucket(bucket)
        .key(key)
        .send()
        .await
        .map_err(|err| Error::s3("GetObject", name.clone(), err))?;
    let etag = output.e_tag().map(str::to_owned);
    let bytes = output.body.collect().await.map_err(|err| {
        Error::from(Repr::ExportFile {
            file: name.clone(),
            line: None,
            reason: format!("its download broke off: {err}; read it again"),
        })
    })?;
    Ok(Fetched {
        name,
        bytes: bytes.into_bytes().to_vec(),
        etag,
    })
}
