//! Writing ImportTable's input: DynamoDB JSON lines, `{"Item": {…}}` per
//! item, plain or gzip'd, from typed entities or raw items.

use std::io::Write;
use std::time::SystemTime;

use flate2::Compression;
use flate2::write::GzEncoder;

use crate::entity::Entity;
use crate::error::{Error, Repr, Result};
use crate::item::Item;

/// Writes an ImportTable input file (`InputFormat` `DYNAMODB_JSON`): one
/// line `{"Item":{…}}` per item, attributes in name order, each value in
/// DynamoDB JSON; with [`gzip`](ImportWriter::gzip), for
/// `InputCompressionType` `GZIP`. An import creates a new table without
/// write capacity: build the single table from a legacy export this way.
///
/// See [the module's example](super#example).
pub struct ImportWriter<W: Write> {
    out: Out<W>,
    items: u64,
    now: SystemTime,
}

enum Out<W: Write> {
    Plain(W),
    Gzip(GzEncoder<W>),
}

impl<W: Write> ImportWriter<W> {
    /// Plain lines into `out`.
    ///
    /// See [the module's example](super#example).
    pub fn new(out: W) -> Self {
        ImportWriter {
            out: Out::Plain(out),
            items: 0,
            now: SystemTime::now(),
        }
    }

    /// Gzip'd lines into `out`.
    ///
    /// See [the module's example](super#example).
    pub fn gzip(out: W) -> Self {
        ImportWriter {
            out: Out::Gzip(GzEncoder::new(out, Compression::default())),
            items: 0,
            now: SystemTime::now(),
        }
    }

    /// The time maintained timestamps (`created_at`, `updated_at`) get
    /// (default: when the writer was made).
    ///
    /// See [the module's example](super#example).
    pub fn stamped_at(mut self, now: SystemTime) -> Self {
        self.now = now;
        self
    }

    /// Writes `entity` as the item the library would store for it: its
    /// keys, index keys, type attribute and body.
    ///
    /// See [the module's example](super#example).
    pub fn put<E: Entity>(&mut self, entity: &E) -> Result<()> {
        let item = crate::entity::convert::to_item(entity, self.now)?;
        self.put_item(&item)
    }

    /// Writes `item` as it is.
    ///
    /// See [the module's example](super#example).
    pub fn put_item(&mut self, item: &Item) -> Result<()> {
        let line = line(item)?;
        let written = match &mut self.out {
            Out::Plain(out) => out.write_all(&line),
            Out::Gzip(out) => out.write_all(&line),
        };
        written.map_err(|err| io_error(&err))?;
        self.items += 1;
        Ok(())
    }

    /// Items written so far.
    ///
    /// See [the module's example](super#example).
    pub fn items(&self) -> u64 {
        self.items
    }

    /// Ends the file (the gzip trailer) and hands back the writer and how
    /// many items it holds.
    ///
    /// See [the module's example](super#example).
    pub fn finish(self) -> Result<(W, u64)> {
        let out = match self.out {
            Out::Plain(mut out) => {
                out.flush().map_err(|err| io_error(&err))?;
                out
            }
            Out::Gzip(out) => out.finish().map_err(|err| io_error(&err))?,
        };
        Ok((out, self.items))
    }
}

/// `{"Item":{…}}` and a newline, attributes (and map keys) in name order.
fn line(item: &Item) -> Result<Vec<u8>> {
    let mut attributes = serde_json::Map::new();
    for (name, value) in item {
        let value = serde_dynamo::AttributeValue::from(value.clone());
        let value = serde_json::to_value(value).map_err(|err| encode_error(name, &err))?;
        attributes.insert(name.clone(), value);
    }
    let mut line = serde_json::to_vec(&serde_json::json!({ "Item": attributes }))
        .map_err(|err| encode_error("Item", &err))?;
    line.push(b'\n');
    Ok(line)
}

fn encode_error(name: &str, err: &serde_json::Error) -> Error {
    Repr::ExportFile {
        file: "an import file".to_owned(),
        line: None,
        reason: format!("attribute `{name}` cannot be written as DynamoDB JSON: {err}"),
    }
    .into()
}

fn io_error(err: &std::io::Error) -> Error {
    Repr::ExportFile {
        file: "an import file".to_owned(),
        line: None,
        reason: format!("cannot be written: {err}"),
    }
    .into()
}
