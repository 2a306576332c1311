//! The one way a stream record becomes a typed [`Record`], whichever source
//! it came from (a Lambda event, the Streams API): each source only moves
//! its fields into a [`RawRecord`].

use std::time::SystemTime;

use aws_sdk_dynamodb::types::AttributeValue;

use super::record::{Change, ChangeKind, Origin, Record, ViewType};
use crate::collection::{CollectionItem, decode_one};
use crate::entity::verify::item_at;
use crate::error::{ItemAt, Repr, Result};
use crate::item::{Item, attribute};
use crate::table::{Table, TableSchema};

/// A stream record's fields, as any source has them.
#[derive(Debug, Default)]
pub(crate) struct RawRecord {
    /// `eventName`: `INSERT`, `MODIFY` or `REMOVE`.
    pub(crate) event_name: String,
    pub(crate) event_id: String,
    pub(crate) sequence_number: Option<String>,
    pub(crate) shard_id: Option<String>,
    pub(crate) keys: Item,
    pub(crate) new_image: Option<Item>,
    pub(crate) old_image: Option<Item>,
    /// `StreamViewType` as recorded; `None` when the record does not say.
    pub(crate) view: Option<String>,
    /// `userIdentity`: its type and principal.
    pub(crate) identity: Option<(String, String)>,
    pub(crate) created: Option<SystemTime>,
    pub(crate) table_name: Option<String>,
    /// Why the source could not convert part of the record, if it could not.
    pub(crate) unreadable: Option<String>,
}

/// Parses `raw` as a change of `T`s. `expected_table`, when given, is the
/// only table whose records are taken (the others are
/// [`ErrorKind::ForeignRecord`](crate::error::ErrorKind::ForeignRecord)).
pub(crate) fn parse<T: CollectionItem>(raw: RawRecord, expected_table: Option<&str>) -> Record<T> {
    let view = raw.view.as_deref().map(str::parse::<ViewType>);
    let origin = Origin::from_identity(
        raw.identity
            .as_ref()
            .map(|(kind, principal)| (kind.as_str(), principal.as_str())),
    );
    let change = match raw.unreadable {
        Some(detail) => Err(Repr::MalformedRecord {
            at: item_at(&raw.keys, &T::Table::SCHEMA),
            detail,
        }
        .into()),
        None => change::<T>(
            &raw.event_name,
            &raw.keys,
            raw.new_image,
            raw.old_image,
            view,
            raw.table_name.as_deref(),
            expected_table,
        ),
    };
    Record {
        change,
        keys: raw.keys,
        origin,
        sequence_number: raw.sequence_number,
        shard_id: raw.shard_id,
        event_id: raw.event_id,
        view: view.and_then(Result::ok),
        approximate_creation_time: raw.created,
        table_name: raw.table_name,
    }
}

fn change<T: CollectionItem>(
    event_name: &str,
    keys: &Item,
    new_image: Option<Item>,
    old_image: Option<Item>,
    view: Option<Result<ViewType, super::record::UnknownName>>,
    table_name: Option<&str>,
    expected_table: Option<&str>,
) -> Result<Change<T>> {
    let schema = T::Table::SCHEMA;
    let at = item_at(keys, &schema);
    let malformed = |detail: String| Repr::MalformedRecord {
        at: at.clone(),
        detail,
    };
    if let (Some(expected), Some(found)) = (expected_table, table_name)
        && expected != found
    {
        return Err(Repr::ForeignRecord {
            at,
            keys: shown_keys(keys),
            detail: format!("it is from the stream of table `{found}`, not of `{expected}`"),
        }
        .into());
    }
    check_keys(keys, &schema, &at)?;
    let kind: ChangeKind = event_name.parse().map_err(|_| {
        malformed(format!(
            "its eventName {event_name:?} is none of INSERT, MODIFY, REMOVE"
        ))
    })?;
    let view = match view {
        None => None,
        Some(Ok(view)) => Some(view),
        Some(Err(_)) => {
            return Err(malformed(
                "its StreamViewType is none of KEYS_ONLY, NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES"
                    .into(),
            )
            .into());
        }
    };
    // An image the view type captures must be there; one it does not
    // capture is ignored even if present (a hand-made event), so a `None`
    // always means "not captured". Without a view type, take what is there.
    let image = |image: Option<Item>, name: &str, captured: Option<bool>| -> Result<Option<T>> {
        match (image, captured) {
            (Some(item), Some(true) | None) => {
                check_image_key(&item, keys, &schema, name, &at)?;
                decode_one::<T>(item).map(Some)
            }
            (None, Some(true)) => Err(malformed(format!(
                "its {kind} record has no {name}, although its stream's view type {} captures it",
                view.map_or("", ViewType::as_str)
            ))
            .into()),
            (_, Some(false)) | (None, None) => Ok(None),
        }
    };
    let captures_new = view.map(ViewType::captures_new);
    let captures_old = view.map(ViewType::captures_old);
    Ok(match kind {
        ChangeKind::Insert => Change::Insert {
            new: image(new_image, "NewImage", captures_new)?,
        },
        ChangeKind::Modify => Change::Modify {
            old: image(old_image, "OldImage", captures_old)?,
            new: image(new_image, "NewImage", captures_new)?,
        },
        ChangeKind::Remove => Change::Remove {
            old: image(old_image, "OldImage", captures_old)?,
        },
    })
}

/// A record of this table names exactly the table's key attributes, as
/// strings (every key this library writes is a string).
fn check_keys(keys: &Item, schema: &TableSchema, at: &ItemAt) -> Result<()> {
    let primary = schema.primary;
    let expected: Vec<&str> = std::iter::once(primary.partition_key)
        .chain(primary.sort_key)
        .collect();
    let all_strings = expected
        .iter()
        .all(|name| matches!(attribute(keys, name), Some(AttributeValue::S(_))));
    if all_strings && keys.len() == expected.len() {
        return Ok(());
    }
    let mut found: Vec<&str> = keys.keys().map(String::as_str).collect();
    found.sort_unstable();
    let detail = if found.is_empty() {
        "it has no keys".to_owned()
    } else if found == {
        let mut sorted = expected.clone();
        sorted.sort_unstable();
        sorted
    } {
        format!(
            "its key attributes are not all strings (this table's keys {} are)",
            expected.join(", ")
        )
    } else {
        format!(
            "its key attributes are {}, this table's are {}",
            found.join(", "),
            expected.join(", ")
        )
    };
    Err(Repr::ForeignRecord {
        at: at.clone(),
        keys: shown_keys(keys),
        detail,
    }
    .into())
}

/// A record's keys for a message, whatever their names and types:
/// `Id=101 Sort=(binary)`, each value cut at 100 characters.
fn shown_keys(keys: &Item) -> String {
    if keys.is_empty() {
        return "(none)".to_owned();
    }
    let mut shown: Vec<String> = keys
        .iter()
        .map(|(name, value)| {
            let value = match value {
                AttributeValue::S(text) | AttributeValue::N(text) => {
                    text.chars().take(100).collect::<String>()
                }
                AttributeValue::B(_) => "(binary)".to_owned(),
                _ => "(not a key type)".to_owned(),
            };
            format!("{name}={value}")
        })
        .collect();
    shown.sort_unstable();
    shown.join(" ")
}

/// An image stored under another key than its record's was not recorded
/// by DynamoDB: refuse it rather than report a change of another item.
fn check_image_key(
    image: &Item,
    keys: &Item,
    schema: &TableSchema,
    name: &str,
    at: &ItemAt,
) -> Result<()> {
    let primary = schema.primary;
    for attribute_name in std::iter::once(primary.partition_key).chain(primary.sort_key) {
        let (recorded, imaged) = (
            attribute(keys, attribute_name),
            attribute(image, attribute_name),
        );
        if recorded != imaged {
            let shown = match imaged {
                Some(AttributeValue::S(value)) => format!("{value:?}"),
                Some(_) => "a non-string value".to_owned(),
                None => "nothing".to_owned(),
            };
            return Err(Repr::MalformedRecord {
                at: at.clone(),
                detail: format!(
                    "its {name} holds {shown} under {attribute_name}, not the record's key"
                ),
            }
            .into());
        }
    }
    Ok(())
}

/// The table a table or stream ARN names:
/// `arn:aws:dynamodb:REGION:ACCOUNT:table/NAME/stream/LABEL` → `NAME`.
pub(crate) fn table_of_arn(arn: &str) -> Option<&str> {
    let (_, rest) = arn.split_once(":table/")?;
    let name = rest.split('/').next()?;
    (!name.is_empty()).then_some(name)
}
