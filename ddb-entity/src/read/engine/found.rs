//! An item a page found, as a lane holds it until it is handed out: the
//! SDK's item (a raw read, a count, a hand-written collection), or — a
//! typed read of entities — the item's bytes, a slice of its response's
//! body (no copy), parsed once into an [`ItemTree`] when it is handed out:
//! routing, stored-key verification and the body's decode all read that
//! one tree.

use std::ops::Range;
use std::sync::Arc;
use std::time::SystemTime;

use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::error::ProvideErrorMetadata;
use aws_sdk_dynamodb::error::SdkError;
use aws_sdk_dynamodb::operation::batch_get_item::BatchGetItemError;
use aws_sdk_dynamodb::operation::get_item::GetItemError;
use aws_sdk_dynamodb::operation::query::QueryError;
use aws_sdk_dynamodb::operation::scan::ScanError;
use aws_smithy_runtime_api::http::StatusCode;
use aws_smithy_types::body::SdkBody;
use bytes::Bytes;

use crate::codec::ItemTree;
use crate::codec::wire::{Wire, parse_item, skim};
use crate::error::{Error, Result};
use crate::item::{Item, ttl};
use crate::table::TableSchema;

/// One item of a page.
#[derive(Debug)]
pub(crate) enum Found {
    /// As the SDK parsed it.
    Item(Item),
    /// As the response's bytes hold it.
    Bytes(FoundBytes),
}

/// A response's body, checked once to be UTF-8 (its items' texts are
/// spans of it: never checked again).
pub(crate) type BodyText = Arc<String>;

/// The body `bytes` as text (no copy where the bytes own their buffer
/// alone; the error, where they are not UTF-8).
pub(crate) fn body_text(bytes: Bytes) -> std::result::Result<BodyText, String> {
    String::from_utf8(Vec::from(bytes))
        .map(Arc::new)
        .map_err(|err| err.utf8_error().to_string())
}

/// One item's text: a span of its response's body.
#[derive(Debug, Clone)]
pub(crate) struct ItemText {
    body: BodyText,
    span: Range<usize>,
}

impl ItemText {
    /// The item `span` of `body`: both ends on the item's braces.
    pub(crate) fn new(body: &BodyText, span: Range<usize>) -> Self {
        ItemText {
            body: Arc::clone(body),
            span,
        }
    }

    /// The text (empty if the span were not on character boundaries,
    /// which a span of braces always is: then the item fails to parse).
    pub(crate) fn as_str(&self) -> &str {
        self.body.get(self.span.clone()).unwrap_or_default()
    }
}

/// An item's text, parsed when handed out.
#[derive(Debug)]
pub(crate) struct FoundBytes {
    text: ItemText,
    /// The index whose keys the item was found by (what
    /// `keep_keys_found_by` marks on an SDK item).
    found_by: Option<&'static str>,
    /// The string the lanes' items are merged by, read as the page
    /// arrived (only when several lanes are merged).
    sort: Option<Box<str>>,
    origin: Arc<Origin>,
}

/// The request an item answered, for the error of a body that does not
/// hold DynamoDB's JSON.
#[derive(Debug)]
pub(crate) struct Origin {
    operation: &'static str,
    table: Box<str>,
}

impl Origin {
    pub(crate) fn new(operation: &'static str, table: &str) -> Arc<Self> {
        Arc::new(Origin {
            operation,
            table: table.into(),
        })
    }

    /// The error of a response whose body is not what DynamoDB answers:
    /// as the SDK fails a response it cannot parse (a service error, not
    /// transient).
    pub(crate) fn malformed(&self, detail: &str) -> Error {
        let response = || {
            HttpResponse::new(
                StatusCode::try_from(200).expect("200 is a status code"),
                SdkBody::empty(),
            )
        };
        let message = format!(
            "the {} response is not DynamoDB's JSON: {detail}",
            self.operation
        );
        fn failed<E>(origin: &Origin, message: String, response: HttpResponse) -> Error
        where
            E: ProvideErrorMetadata,
            SdkError<E, HttpResponse>: Into<aws_sdk_dynamodb::Error>,
        {
            Error::service(
                origin.operation,
                &origin.table,
                SdkError::<E, HttpResponse>::response_error(message, response),
            )
        }
        match self.operation {
            "Query" => failed::<QueryError>(self, message, response()),
            "GetItem" => failed::<GetItemError>(self, message, response()),
            "BatchGetItem" => failed::<BatchGetItemError>(self, message, response()),
            _ => failed::<ScanError>(self, message, response()),
        }
    }
}

impl FoundBytes {
    /// The item `text` (checked to be JSON) of a response to `origin`;
    /// with `merged_by`, that attribute's string is read out now.
    pub(crate) fn new(
        text: ItemText,
        found_by: Option<&'static str>,
        merged_by: Option<&'static str>,
        origin: &Arc<Origin>,
    ) -> Self {
        let sort = merged_by
            .and_then(|name| skim(text.as_str(), name))
            .and_then(|value| value.as_s().map(Box::from));
        FoundBytes {
            text,
            found_by,
            sort,
            origin: Arc::clone(origin),
        }
    }

    /// The one parse of the item.
    pub(crate) fn parse(&self) -> Result<ItemTree<'_>> {
        match parse_item(self.text.as_str()) {
            Ok(entries) => Ok(ItemTree {
                entries,
                found_by: self.found_by,
            }),
            Err(err) => Err(self.origin.malformed(&err.to_string())),
        }
    }

    /// The item's text (a span of the response's body: a cheap copy).
    pub(crate) fn text(&self) -> &ItemText {
        &self.text
    }
}

/// The attributes `names` of the item `text`, as the SDK holds them
/// (where a cursor resumes after it).
pub(crate) fn attributes_of(text: &ItemText, names: &[&str]) -> Item {
    let Ok(entries) = parse_item(text.as_str()) else {
        return Item::new();
    };
    entries
        .iter()
        .filter(|(name, _)| names.contains(&&**name))
        .filter_map(|(name, value)| Some((name.to_string(), value.to_attribute_value()?)))
        .collect()
}

impl Found {
    /// Whether the item is past its time to live at `now`.
    pub(crate) fn is_expired(&self, schema: &TableSchema, now: SystemTime) -> bool {
        match self {
            Found::Item(item) => ttl::is_expired(item, schema, now),
            Found::Bytes(found) => {
                let Some(attribute) = schema.ttl_attribute else {
                    return false;
                };
                let value = skim(found.text.as_str(), attribute);
                let number = match &value {
                    Some(Wire::N(n)) => Some(&**n),
                    _ => None,
                };
                ttl::expired(number, now)
            }
        }
    }

    /// The string value of the attribute lanes are merged by (`""`
    /// without one).
    pub(crate) fn sort_value(&self, attribute: Option<&str>) -> &str {
        match self {
            Found::Item(item) => match attribute.and_then(|name| item.get(name)) {
                Some(aws_sdk_dynamodb::types::AttributeValue::S(value)) => value,
                _ => "",
            },
            Found::Bytes(found) => found.sort.as_deref().unwrap_or_default(),
        }
    }

    /// The item as the SDK holds it (a raw read's items are never
    /// bytes; an attribute of a type this version does not know is left
    /// out of one that is).
    #[cfg(any(feature = "evolve", feature = "survey"))]
    pub(crate) fn into_item(self) -> Item {
        match self {
            Found::Item(item) => item,
            Found::Bytes(found) => found
                .parse()
                .map(|tree| tree.to_item_lossy())
                .unwrap_or_default(),
        }
    }
}
