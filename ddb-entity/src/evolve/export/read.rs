//! Reading an export: one data file from any async reader (gzip'd or
//! not, told by its first bytes), and a whole export by its manifests,
//! from a local copy of its folder or (feature `export-s3`) from S3, each
//! data file checked against the manifest (MD5, ETag) before any record of
//! it is handed out, and its item count after its last.

use std::future::Future;
use std::io::Write;
use std::path::{Path, PathBuf};

use flate2::write::MultiGzDecoder;
use futures_util::stream::{self, Stream, StreamExt};
use serde::Deserialize;
use tokio::io::{AsyncRead, AsyncReadExt};

use super::super::segment::stop_after_error;
use super::record::{ExportRecord, parse};
use crate::error::{Error, Repr, Result};

/// How much is read from the source at a time.
const CHUNK: usize = 64 * 1024;

/// The two bytes every gzip member starts with.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// The records of one data file read from `reader` (DynamoDB JSON lines,
/// gzip'd as an export writes them or plain as ImportTable also takes
/// them), named `file` in errors. A line that is not a record ends the
/// stream with an error naming the file and line.
///
/// See [the module's example](super#example).
pub fn read_records<R>(
    file: impl Into<String>,
    reader: R,
) -> impl Stream<Item = Result<ExportRecord>>
where
    R: AsyncRead + Unpin,
{
    let state = Lines {
        file: file.into(),
        reader,
        gzip: None,
        plain: Vec::new(),
        line: 0,
        ended: false,
        failed: false,
    };
    stream::unfold(state, |mut lines| async move {
        let next = lines.next().await?;
        if next.is_err() {
            lines.failed = true;
        }
        Some((next, lines))
    })
}

/// A data file's lines as they are decoded.
struct Lines<R> {
    file: String,
    reader: R,
    /// The gzip decoder, once the first bytes said so; it writes what it
    /// decodes into a buffer of its own.
    gzip: Option<MultiGzDecoder<Vec<u8>>>,
    /// Bytes of a plain file not yet split into lines.
    plain: Vec<u8>,
    line: u64,
    ended: bool,
    failed: bool,
}

impl<R: AsyncRead + Unpin> Lines<R> {
    fn fault(&self, line: Option<u64>, reason: String) -> Error {
        Repr::ExportFile {
            file: self.file.clone(),
            line,
            reason,
        }
        .into()
    }

    /// The decoded bytes not yet handed out.
    fn decoded(&mut self) -> &mut Vec<u8> {
        match &mut self.gzip {
            Some(decoder) => decoder.get_mut(),
            None => &mut self.plain,
        }
    }

    async fn next(&mut self) -> Option<Result<ExportRecord>> {
        if self.failed {
            return None;
        }
        loop {
            if let Some(end) = self.decoded().iter().position(|b| *b == b'\n') {
                let text: Vec<u8> = self.decoded().drain(..=end).collect();
                self.line += 1;
                if text.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                return Some(parse(&self.file, self.line, &text));
            }
            if self.ended {
                let rest = std::mem::take(self.decoded());
                if rest.iter().all(u8::is_ascii_whitespace) {
                    return None;
                }
                // The last line may end without a newline.
                self.line += 1;
                return Some(parse(&self.file, self.line, &rest));
            }
            if let Err(err) = self.fill().await {
                return Some(Err(err));
            }
        }
    }

    /// Reads the next chunk and decodes it.
    async fn fill(&mut self) -> Result<()> {
        let mut chunk = vec![0; CHUNK];
        let read = self
            .reader
            .read(&mut chunk)
            .await
            .map_err(|err| self.fault(None, format!("cannot be read: {err}")))?;
        chunk.truncate(read);
        if read == 0 {
            self.ended = true;
            if let Some(decoder) = &mut self.gzip {
                decoder.try_finish().map_err(|err| Repr::ExportFile {
                    file: self.file.clone(),
                    line: None,
                    reason: format!("its gzip data ends early: {err}"),
                })?;
            }
            return Ok(());
        }
        if self.gzip.is_none() && self.line == 0 && self.plain.is_empty() {
            // The first bytes of the file tell its compression.
            if chunk.starts_with(&GZIP_MAGIC) {
                self.gzip = Some(MultiGzDecoder::new(Vec::new()));
            }
        }
        match &mut self.gzip {
            Some(decoder) => decoder.write_all(&chunk).map_err(|err| {
                Error::from(Repr::ExportFile {
                    file: self.file.clone(),
                    line: None,
                    reason: format!("is not valid gzip: {err}"),
                })
            })?,
            None => self.plain.extend_from_slice(&chunk),
        }
        Ok(())
    }
}

/// An export's `manifest-summary.json`, as DynamoDB writes it: what was
/// exported, when, and where its files manifest is.
///
/// See [the module's example](super#example).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ExportSummary {
    /// The manifest format's version (`2020-06-30`).
    pub version: String,
    /// The export's ARN.
    pub export_arn: String,
    /// The exported table's ARN.
    pub table_arn: String,
    /// `FULL_EXPORT` or `INCREMENTAL_EXPORT` (a full export written before
    /// incremental exports existed says nothing: read as full).
    #[serde(default)]
    pub export_type: Option<String>,
    /// For an incremental export, its view: `NEW_AND_OLD_IMAGES` or
    /// `NEW_IMAGE`.
    #[serde(default)]
    pub output_view: Option<String>,
    /// `DYNAMODB_JSON` (`ION` exports are not read here).
    pub output_format: String,
    /// Items in the export, by its own count.
    pub item_count: u64,
    /// The files manifest's S3 key.
    pub manifest_files_s3_key: String,
}

impl ExportSummary {
    /// Whether this is an incremental export (changes, not items).
    ///
    /// See [the module's example](super#example).
    pub fn is_incremental(&self) -> bool {
        self.export_type.as_deref() == Some("INCREMENTAL_EXPORT")
    }
}

/// One line of an export's `manifest-files.json`: a data file.
///
/// See [the module's example](super#example).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct DataFile {
    /// Items (or changes) in the file.
    pub item_count: u64,
    /// The MD5 of the file's bytes, base64: checked before any record of
    /// the file is read.
    #[serde(default)]
    pub md5_checksum: Option<String>,
    /// The file's S3 ETag, as S3 gave it when the export wrote the file:
    /// compared with the ETag S3 serves it with, and, for a file written
    /// in one part (no `-N` suffix, so the ETag is its MD5 in hex), with
    /// the MD5 of its bytes.
    #[serde(default)]
    pub etag: Option<String>,
    /// The file's S3 key.
    pub data_file_s3_key: String,
}

/// The summary manifest's bytes, read from `name`.
pub(super) fn parse_summary(name: &str, bytes: &[u8]) -> Result<ExportSummary> {
    let fault = |reason: String| {
        Error::from(Repr::ExportFile {
            file: name.to_owned(),
            line: None,
            reason,
        })
    };
    let summary: ExportSummary = serde_json::from_slice(bytes)
        .map_err(|err| fault(format!("is not an export's summary manifest: {err}")))?;
    if summary.output_format != "DYNAMODB_JSON" {
        return Err(fault(format!(
            "the export's format is {}; only DYNAMODB_JSON exports are read: export again with ExportFormat DYNAMODB_JSON",
            summary.output_format
        )));
    }
    Ok(summary)
}

/// The files manifest's bytes, read from `name`: one entry a line.
pub(super) fn parse_files(name: &str, bytes: &[u8]) -> Result<Vec<DataFile>> {
    let mut files = Vec::new();
    for (i, line) in bytes.split(|b| *b == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let file: DataFile = serde_json::from_slice(line).map_err(|err| {
            Error::from(Repr::ExportFile {
                file: name.to_owned(),
                line: Some(i as u64 + 1),
                reason: format!("is not a data file's entry: {err}"),
            })
        })?;
        files.push(file);
    }
    Ok(files)
}

/// A data file's bytes as fetched, and the ETag its store served it with
/// (S3's; none for a local file).
pub(super) struct Fetched {
    pub(super) name: String,
    pub(super) bytes: Vec<u8>,
    pub(super) etag: Option<String>,
}

/// Every record of every file of `files`, file after file: each fetched
/// whole by `fetch`, checked against its manifest entry ([`verify`])
/// before any of its records is handed out, its records counted against
/// the manifest's `itemCount` when it ends. Holds one data file (as
/// stored: gzip'd) in memory at a time.
pub(super) fn verified_records<'a, F, Fut>(
    files: &'a [DataFile],
    fetch: F,
) -> impl Stream<Item = Result<ExportRecord>> + 'a
where
    F: Fn(&'a DataFile) -> Fut + Send + 'a,
    Fut: Future<Output = Result<Fetched>> + Send + 'a,
{
    let records = stream::iter(files)
        .then(move |file| {
            let fetched = fetch(file);
            async move {
                let fetched = fetched.await?;
                verify(&fetched, file)?;
                Ok::<_, Error>((fetched, file.item_count))
            }
        })
        .map(move |fetched| match fetched {
            Ok((Fetched { name, bytes, .. }, expected)) => {
                let records = read_records(name.clone(), std::io::Cursor::new(bytes));
                counted(name, expected, records).left_stream()
            }
            Err(err) => stream::once(async move { Err(err) }).right_stream(),
        })
        .flatten();
    // Nothing after the first error: a file that failed its check stops
    // the export where it is.
    stop_after_error(records)
}

/// The file `fetched` checked against its manifest `entry`: the MD5 of its
/// bytes against `md5Checksum`, its ETag against the one its store served
/// and, for a file written in one part, against the MD5 itself. A file
/// that fails any check is damaged, cut short, or another object at its
/// key: an error naming it, before a record of it is read.
fn verify(fetched: &Fetched, entry: &DataFile) -> Result<()> {
    let fault = |reason: String| {
        Error::from(Repr::ExportFile {
            file: fetched.name.clone(),
            line: None,
            reason,
        })
    };
    let digest = md5::compute(&fetched.bytes);
    if let Some(expected) = &entry.md5_checksum {
        let actual = aws_smithy_types::base64::encode(digest.0);
        if actual != *expected {
            return Err(fault(format!(
                "its MD5 is {actual} where the files manifest says {expected}: the file is damaged or not the one exported; download it again"
            )));
        }
    }
    if let Some(expected) = entry.etag.as_deref().map(unquoted) {
        if let Some(served) = fetched.etag.as_deref().map(unquoted)
            && !served.eq_ignore_ascii_case(expected)
        {
            return Err(fault(format!(
                "it is served with ETag {served} where the files manifest says {expected}: another object is at its key"
            )));
        }
        // An ETag with a `-N` suffix is of a multipart upload: the MD5 of
        // its parts' MD5s, not checkable without their sizes.
        if !expected.contains('-') {
            let actual = format!("{digest:x}");
            if !actual.eq_ignore_ascii_case(expected) {
                return Err(fault(format!(
                    "its MD5 is {actual} where the files manifest's ETag says {expected}: the file is damaged or not the one exported; download it again"
                )));
            }
        }
    }
    Ok(())
}

/// An ETag without the double quotes S3 puts around it.
fn unquoted(etag: &str) -> &str {
    etag.trim_matches('"')
}

/// An export downloaded to a local folder (as `aws s3 cp --recursive`
/// leaves it): the folder holding `manifest-summary.json` and
/// `manifest-files.json` (`…/AWSDynamoDB/<ExportId>/`), its data files
/// found under the same `AWSDynamoDB` folder by their keys.
///
/// See [the module's example](super#example).
#[derive(Debug, Clone)]
pub struct LocalExport {
    folder: PathBuf,
    summary: ExportSummary,
    files: Vec<DataFile>,
}

impl LocalExport {
    /// Reads the export's two manifests from `folder`.
    ///
    /// See [the module's example](super#example).
    pub async fn open(folder: impl AsRef<Path>) -> Result<Self> {
        let folder = folder.as_ref().to_path_buf();
        let summary_path = folder.join("manifest-summary.json");
        let summary = parse_summary(
            &summary_path.display().to_string(),
            &read_file(&summary_path).await?,
        )?;
        let files_path = folder.join("manifest-files.json");
        let files = parse_files(
            &files_path.display().to_string(),
            &read_file(&files_path).await?,
        )?;
        Ok(LocalExport {
            folder,
            summary,
            files,
        })
    }

    /// The summary manifest.
    ///
    /// See [the module's example](super#example).
    pub fn summary(&self) -> &ExportSummary {
        &self.summary
    }

    /// The data files, as the files manifest lists them.
    ///
    /// See [the module's example](super#example).
    pub fn files(&self) -> &[DataFile] {
        &self.files
    }

    /// Where `file` is in the local copy: its key from its `AWSDynamoDB/`
    /// on, under the folder that holds this export's `AWSDynamoDB`.
    fn path_of(&self, file: &DataFile) -> PathBuf {
        let key = &file.data_file_s3_key;
        let within = key
            .find("AWSDynamoDB/")
            .map_or(key.as_str(), |at| &key[at + "AWSDynamoDB/".len()..]);
        let root = self
            .folder
            .parent()
            .map_or_else(|| self.folder.clone(), Path::to_path_buf);
        root.join(within)
    }

    /// Every record of every data file, file after file. Each file is
    /// checked against the files manifest before any of its records is
    /// handed out (its `md5Checksum`, and its `etag` where that is the
    /// MD5 of a file written in one part), and its count against the
    /// manifest's `itemCount` when it ends: a damaged file, one cut short
    /// or another file in its place is an error naming it. One data file
    /// (gzip'd, as stored) is held in memory at a time.
    ///
    /// See [the module's example](super#example).
    pub fn records(&self) -> impl Stream<Item = Result<ExportRecord>> + '_ {
        verified_records(&self.files, move |file| {
            let path = self.path_of(file);
            async move {
                Ok(Fetched {
                    name: path.display().to_string(),
                    bytes: read_file(&path).await?,
                    etag: None,
                })
            }
        })
    }
}

/// The whole of a local file.
async fn read_file(path: &Path) -> Result<Vec<u8>> {
    tokio::fs::read(path).await.map_err(|err| {
        Error::from(Repr::ExportFile {
            file: path.display().to_string(),
            line: None,
            reason: format!("cannot be read: {err}"),
        })
    })
}

/// `records`, with an error after the last one when they are not
/// `expected` many.
fn counted<S>(file: String, expected: u64, records: S) -> impl Stream<Item = Result<ExportRecord>>
where
    S: Stream<Item = Result<ExportRecord>>,
{
    let tally = stream::once(async { None });
    records
        .map(Some)
        .chain(tally)
        .scan((0u64, false), move |(seen, failed), record| {
            let out = match record {
                Some(Ok(record)) => {
                    *seen += 1;
                    Some(Some(Ok(record)))
                }
                Some(Err(err)) => {
                    *failed = true;
                    Some(Some(Err(err)))
                }
                None if !*failed && *seen != expected => Some(Some(Err(Repr::ExportFile {
                    file: file.clone(),
                    line: None,
                    reason: format!(
                        "holds {seen} records where the files manifest says {expected}: a file cut short or another file in its place; download it again"
                    ),
                }
                .into()))),
                None => Some(None),
            };
            std::future::ready(out)
        })
        .filter_map(std::future::ready)
}
