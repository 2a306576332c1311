//! Opaque, checked query cursors.

mod scope;
mod wire;

use std::fmt;
use std::str::FromStr;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::error::{CursorFault, Error, Repr, Result};
use crate::item::Item;

pub(crate) use scope::Scope;

/// Where a query stopped: pass it to [`Query::after`](crate::op::Query::after)
/// to resume. Short URL-safe text (`Display` and `FromStr`), to hand to a
/// client (`?cursor=…`) and take back.
///
/// `c2.…`: the key of the last item read, readable by whoever holds it,
/// and checked on use — a cursor of another index or partition, or that is
/// not exactly the index's key, is refused before anything is sent. A
/// table cursor with the keys `CUST#00000000000000000042` /
/// `ORDER#2026-03-14#00000000000000009003` is 98 characters. Refusals are [`ErrorKind::InvalidCursor`](crate::ErrorKind::InvalidCursor),
/// with the detail in [`Error::cursor_fault`](crate::Error::cursor_fault).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use ddb_entity::{Cursor, Db, Entity, local::LocalDynamo, op::Page};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}")]
/// struct Order { customer_id: u64, order_id: u64 }
///
/// # let dynamo = LocalDynamo::start().await?;
/// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// # db.create_table_if_missing().await?;
/// for order_id in 1..=3 {
///     db.put(&Order { customer_id: 42, order_id }).await?;
/// }
/// let first: Page<Vec<Order>> = db.query(Order::partition(42)?).page_size(2).page().await?;
/// let text = first.cursor.unwrap().to_string(); // to the client, and back
/// let cursor: Cursor = text.parse()?;
/// let rest: Vec<Order> = db.query(Order::partition(42)?).after(cursor).all().await?;
/// assert_eq!(rest.len(), 1);
/// # Ok(())
/// # }
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Cursor(Position);

/// The text prefix: the version of the format.
const PLAIN: &str = "c2";

impl Cursor {
    /// The cursor of a query in `scope` that stopped at DynamoDB's
    /// `last_evaluated_key`.
    pub(crate) fn at(scope: &Scope<'_>, last_evaluated_key: &Item) -> Result<Self> {
        Ok(Cursor(Position::new(scope.index, last_evaluated_key)?))
    }

    /// The `ExclusiveStartKey` that resumes the query in `scope` from this
    /// cursor, or why this cursor is not for it.
    pub(crate) fn resume(&self, scope: &Scope<'_>) -> Result<Item> {
        self.0.start_key(scope)
    }
}

/// A cursor's content: the index and DynamoDB's
/// `LastEvaluatedKey`, whose values are all strings in our tables.
#[derive(Clone, PartialEq, Eq)]
struct Position {
    /// The index the query ran on (`""` for the table).
    index: String,
    /// Sorted by name.
    last_key: Vec<(String, String)>,
}

impl Position {
    fn new(index: Option<&str>, last_evaluated_key: &Item) -> Result<Self> {
        let mut last_key = last_evaluated_key
            .iter()
            .map(|(name, value)| match value {
                AttributeValue::S(value) => Ok((name.clone(), value.clone())),
                _ => Err(invalid(
                    CursorFault::Mismatch,
                    format!(
                        "key attribute `{name}` is not a string; ddb-entity tables have string keys"
                    ),
                )),
            })
            .collect::<Result<Vec<_>>>()?;
        last_key.sort();
        Ok(Position {
            index: index.unwrap_or_default().to_owned(),
            last_key,
        })
    }

    /// Whether this is a position of the query in `scope`: its index, in
    /// its partition, keyed by exactly the attributes of DynamoDB's
    /// `LastEvaluatedKey` there, each once. A key naming one twice could
    /// pass the partition check on one value while the request used the
    /// other, and one naming other attributes is not a key.
    fn check(&self, scope: &Scope<'_>) -> Result<()> {
        let mismatch = |reason: String| invalid(CursorFault::Mismatch, reason);
        if self.index != scope.index.unwrap_or_default() {
            return Err(mismatch("it belongs to another index".into()));
        }
        let expected = scope.key_attributes();
        let names: Vec<&str> = self
            .last_key
            .iter()
            .map(|(name, _)| name.as_str())
            .collect();
        if names != expected {
            return Err(mismatch(format!(
                "its key has the attributes {names:?}, where this query's index is keyed by exactly {expected:?}"
            )));
        }
        let resumes_here = self
            .last_key
            .iter()
            .any(|(name, value)| name == scope.partition_attribute() && value == scope.partition);
        if !resumes_here {
            return Err(mismatch("it belongs to another partition".into()));
        }
        Ok(())
    }

    fn start_key(&self, scope: &Scope<'_>) -> Result<Item> {
        self.check(scope)?;
        Ok(self.to_item())
    }

    fn to_item(&self) -> Item {
        self.last_key
            .iter()
            .map(|(name, value)| (name.clone(), AttributeValue::S(value.clone())))
            .collect()
    }

    /// Length-prefixed fields: the index, then each name and value.
    fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        wire::put_field(&mut out, self.index.as_bytes());
        for (name, value) in &self.last_key {
            wire::put_field(&mut out, name.as_bytes());
            wire::put_field(&mut out, value.as_bytes());
        }
        out
    }

    fn decode(bytes: &[u8]) -> Result<Self> {
        let bad = |reason: &str| invalid(CursorFault::Malformed, reason);
        let mut reader = wire::Reader(bytes);
        let index = reader.string().ok_or_else(|| bad("it is truncated"))?;
        let mut last_key = Vec::new();
        while !reader.is_empty() {
            let name = reader.string().ok_or_else(|| bad("it is truncated"))?;
            let value = reader
                .string()
                .ok_or_else(|| bad("its key is incomplete"))?;
            last_key.push((name, value));
        }
        if last_key.is_empty() {
            return Err(bad("it holds no key"));
        }
        last_key.sort();
        if last_key.windows(2).any(|pair| pair[0].0 == pair[1].0) {
            return Err(invalid(
                CursorFault::Mismatch,
                "its key names an attribute twice",
            ));
        }
        Ok(Position { index, last_key })
    }
}

/// `c2.`, then base64url without padding: URL-safe as it is.
impl fmt::Display for Cursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bytes = self.0.encode();
        let mut text = String::with_capacity(3 + bytes.len().div_ceil(3) * 4);
        text.push_str(PLAIN);
        text.push('.');
        wire::encode_base64url(&bytes, &mut text);
        f.write_str(&text)
    }
}

impl fmt::Debug for Cursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Key values can be personal data (emails): not in logs.
        f.debug_struct("Cursor")
            .field("index", &self.0.index)
            .field("attributes", &self.0.last_key.len())
            .finish()
    }
}

impl FromStr for Cursor {
    type Err = Error;

    /// Reads the text [`Display`](fmt::Display) wrote.
    fn from_str(text: &str) -> Result<Self> {
        let bad = |reason: &str| invalid(CursorFault::Malformed, reason);
        let (version, body) = text
            .split_once('.')
            .ok_or_else(|| bad("it is not a ddb-entity cursor"))?;
        if version != PLAIN {
            return Err(bad("it is not a cursor of this version of ddb-entity"));
        }
        let bytes = wire::decode_base64url(body).ok_or_else(|| bad("it is not base64url"))?;
        Ok(Cursor(Position::decode(&bytes)?))
    }
}

fn invalid(fault: CursorFault, reason: impl Into<String>) -> Error {
    Repr::InvalidCursor {
        fault,
        reason: reason.into(),
    }
    .into()
}

#[cfg(test)]
mod tests;
