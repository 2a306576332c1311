//! One line of an export's data file, as AWS documents it: a full
//! export's `{"Item": {…}}`, or an incremental export's
//! `{"Metadata": {"WriteTimestampMicros": {"N": "…"}}, "Keys": {…},
//! "NewImage": {…}, "OldImage": {…}}`, every value in DynamoDB JSON.

use std::collections::HashMap;

use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::entity::Entity;
use crate::error::{Repr, Result};
use crate::item::Item;

/// One line of an export: an item of a full export, or a change of an
/// incremental one. See [the module's example](super#example).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ExportRecord {
    /// An item as the table held it at the export time (a full export).
    Item(Item),
    /// An item changed within the export's window (an incremental export).
    Change(ExportChange),
}

/// What an incremental export says of one item: its key, its image after
/// the window (none when it was deleted), its image before (with the view
/// `NEW_AND_OLD_IMAGES`; none when it was created in the window) and when
/// it was last written. An export holds one change per item and window,
/// its final state. See [the module's example](super#example).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ExportChange {
    /// The item's primary key.
    pub keys: Item,
    /// The item after the window; `None`: deleted.
    pub new_image: Option<Item>,
    /// The item before the window, with the view `NEW_AND_OLD_IMAGES`.
    pub old_image: Option<Item>,
    /// When DynamoDB last wrote it, in microseconds since the epoch.
    pub written_at_micros: u64,
}

impl ExportChange {
    /// Whether the item was deleted by the end of the window.
    ///
    /// See [the module's example](super#example).
    pub fn is_removal(&self) -> bool {
        self.new_image.is_none()
    }
}

impl ExportRecord {
    /// The item as it stands: a full export's item, or an incremental
    /// change's new image (`None` for a deletion).
    ///
    /// See [the module's example](super#example).
    pub fn item(&self) -> Option<&Item> {
        match self {
            ExportRecord::Item(item) => Some(item),
            ExportRecord::Change(change) => change.new_image.as_ref(),
        }
    }

    /// [`item`](ExportRecord::item) decoded as the entity `E`, exactly as
    /// a read of the table decodes it (its stored key checked against the
    /// key the decoded value makes); `Ok(None)` for a deletion or an item
    /// of another type.
    ///
    /// See [the module's example](super#example).
    pub fn entity<E: Entity>(&self) -> Result<Option<E>> {
        let Some(item) = self.item() else {
            return Ok(None);
        };
        let schema = <E::Table as crate::table::Table>::SCHEMA;
        if crate::item::type_tag(item, &schema).is_some_and(|tag| tag != E::TYPE_TAG) {
            return Ok(None);
        }
        E::from_item(item.clone()).map(Some)
    }

    /// [`item`](ExportRecord::item) decoded with serde into any shape `L`
    /// (a legacy table's row, as a migration's mapping takes it);
    /// `Ok(None)` for a deletion.
    ///
    /// See [the module's example](super#example).
    pub fn decode<L: DeserializeOwned>(&self) -> Result<Option<L>> {
        let Some(item) = self.item() else {
            return Ok(None);
        };
        let described = crate::evolve::migrate::describe_key(item);
        crate::codec::from_item(item.clone())
            .map(Some)
            .map_err(|err| {
                crate::evolve::migrate::legacy_decode_error::<L>("export", described, err)
            })
    }
}

/// A data file's line as written: exactly one of the two shapes.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    #[serde(rename = "Item")]
    item: Option<HashMap<String, serde_dynamo::AttributeValue>>,
    #[serde(rename = "Metadata")]
    metadata: Option<Metadata>,
    #[serde(rename = "Keys")]
    keys: Option<HashMap<String, serde_dynamo::AttributeValue>>,
    #[serde(rename = "NewImage")]
    new_image: Option<HashMap<String, serde_dynamo::AttributeValue>>,
    #[serde(rename = "OldImage")]
    old_image: Option<HashMap<String, serde_dynamo::AttributeValue>>,
}

#[derive(Deserialize)]
struct Metadata {
    #[serde(rename = "WriteTimestampMicros")]
    write_timestamp_micros: serde_dynamo::AttributeValue,
}

/// Parses one line of `file` (its number `line`, from 1).
pub(crate) fn parse(file: &str, line: u64, text: &[u8]) -> Result<ExportRecord> {
    let fault = |reason: String| -> crate::error::Error {
        Repr::ExportFile {
            file: file.to_owned(),
            line: Some(line),
            reason,
        }
        .into()
    };
    let parsed: Line = serde_json::from_slice(text).map_err(|err| {
        fault(format!(
            "not a line of a DynamoDB JSON export ({err}); each line is one `{{\"Item\": …}}` (full export) or `{{\"Metadata\": …, \"Keys\": …, \"NewImage\": …, \"OldImage\": …}}` (incremental export)"
        ))
    })?;
    let item = |map: HashMap<String, serde_dynamo::AttributeValue>| -> Item {
        map.into_iter()
            .map(|(name, value)| (name, value.into()))
            .collect()
    };
    match parsed {
        Line {
            item: Some(found),
            metadata: None,
            keys: None,
            new_image: None,
            old_image: None,
        } => Ok(ExportRecord::Item(item(found))),
        Line {
            item: None,
            metadata: Some(metadata),
            keys: Some(keys),
            new_image,
            old_image,
        } => {
            let written_at_micros = match metadata.write_timestamp_micros {
                serde_dynamo::AttributeValue::N(n) => n.parse().ok(),
                _ => None,
            }
            .ok_or_else(|| {
                fault("`Metadata.WriteTimestampMicros` is not a number (`{\"N\": \"…\"}`)".to_owned())
            })?;
            Ok(ExportRecord::Change(ExportChange {
                keys: item(keys),
                new_image: new_image.map(item),
                old_image: old_image.map(item),
                written_at_micros,
            }))
        }
        _ => Err(fault(
            "it mixes a full export's `Item` with an incremental export's `Metadata`/`Keys`/images, or lacks both".to_owned(),
        )),
    }
}
