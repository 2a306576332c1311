//! Reading an export: one data file from any async reader (gzip'd or
//! not, told by its first bytes), and a whole export from a local copy of
//! its folder, by its manifests, each data file's item count checked.

use std::io::Write;
use std::path::{Path, PathBuf};

use flate2::write::MultiGzDecoder;
use futures_util::stream::{self, Stream, StreamExt};
use serde::Deserialize;
use tokio::io::{AsyncRead, AsyncReadExt};

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
    /// The MD5 of the file's bytes, base64.
    pub md5_checksum: String,
    /// The file's S3 key.
    pub data_file_s3_key: String,
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
        let read = |name: &str| {
            let path = folder.join(name);
            async move {
                tokio::fs::read(&path).await.map_err(|err| {
                    Error::from(Repr::ExportFile {
                        file: path.display().to_string(),
                        line: None,
                        reason: format!("cannot be read: {err}"),
                    })
                })
            }
        };
        let summary_bytes = read("manifest-summary.json").await?;
        let summary: ExportSummary = serde_json::from_slice(&summary_bytes).map_err(|err| {
            Error::from(Repr::ExportFile {
                file: folder.join("manifest-summary.json").display().to_string(),
                line: None,
                reason: format!("is not an export's summary manifest: {err}"),
            })
        })?;
        if summary.output_format != "DYNAMODB_JSON" {
            return Err(Repr::ExportFile {
                file: folder.join("manifest-summary.json").display().to_string(),
                line: None,
                reason: format!(
                    "the export's format is {}; only DYNAMODB_JSON exports are read: export again with ExportFormat DYNAMODB_JSON",
                    summary.output_format
                ),
            }
            .into());
        }
        let files_bytes = read("manifest-files.json").await?;
        let mut files = Vec::new();
        for (i, line) in files_bytes.split(|b| *b == b'\n').enumerate() {
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let file: DataFile = serde_json::from_slice(line).map_err(|err| {
                Error::from(Repr::ExportFile {
                    file: folder.join("manifest-files.json").display().to_string(),
                    line: Some(i as u64 + 1),
                    reason: format!("is not a data file's entry: {err}"),
                })
            })?;
            files.push(file);
        }
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

    /// Every record of every data file, file after file; each file's
    /// count is checked against the manifest's `itemCount` when it ends
    /// (a file cut short, or another file in its place, is an error
    /// naming it).
    ///
    /// See [the module's example](super#example).
    pub fn records(&self) -> impl Stream<Item = Result<ExportRecord>> + '_ {
        stream::iter(self.files.iter())
            .map(move |file| {
                let path = self.path_of(file);
                let name = path.display().to_string();
                let expected = file.item_count;
                let opened = async move {
                    tokio::fs::File::open(&path).await.map_err(|err| {
                        Error::from(Repr::ExportFile {
                            file: name.clone(),
                            line: None,
                            reason: format!("cannot be opened: {err}"),
                        })
                    })
                };
                stream::once(opened)
                    .map(move |opened| match opened {
                        Ok(reader) => counted(
                            path_name(file, self),
                            expected,
                            read_records(path_name(file, self), reader),
                        )
                        .left_stream(),
                        Err(err) => stream::once(async move { Err(err) }).right_stream(),
                    })
                    .flatten()
            })
            .flatten()
    }
}

fn path_name(file: &DataFile, export: &LocalExport) -> String {
    export.path_of(file).display().to_string()
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
