//! Opaque, checked query cursors, sealed for untrusted clients.

mod multi;
mod scope;
#[cfg(feature = "sealed-cursors")]
mod seal;
mod segments;
mod shards;
mod wire;

use std::fmt;
use std::str::FromStr;
use std::time::SystemTime;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::error::{CursorFault, Error, Repr, Result};
use crate::item::Item;

pub(crate) use scope::Scope;
#[cfg(feature = "sealed-cursors")]
#[cfg_attr(docsrs, doc(cfg(feature = "sealed-cursors")))]
pub use seal::CursorSeal;
use shards::Positions;
pub(crate) use shards::ShardPosition;

/// Where a query stopped: pass it to [`Query::after`](crate::read::Query::after)
/// to resume. Short URL-safe text (`Display` and `FromStr`), to hand to a
/// client (`?cursor=…`) and take back.
///
/// **Unsealed** (`c2.…`, the default): the key of the last item read,
/// readable by whoever holds it, and checked on use — a cursor of another
/// index or partition, or that is not exactly the index's key, is refused
/// before anything is sent. Fit for clients you trust.
///
/// **Sealed** (`s1.…`, on a handle with `Db::with_cursor_seal`, a method
/// of the `sealed-cursors` feature): encrypted and authenticated with the
/// service's key, bound to the query it came from, optionally expiring.
/// A client can neither read the key values inside nor make one up, and a
/// cursor of one listing is refused by any other. Fit for the open web.
///
/// Sizes, for a table cursor with the keys
/// `CUST#00000000000000000042` / `ORDER#2026-03-14#00000000000000009003`:
/// 98 characters unsealed, 110 sealed (115 with an expiry). A sealed
/// cursor carries only what its query does not know — the key values
/// other than the partition — plus its nonce and tag. On the table the
/// nonce and tag outweigh the partition left out, so it is the longer;
/// on a global secondary index, whose cursor also holds the table's keys,
/// the same position is 193 characters unsealed and 179 sealed (the index
/// partition and the attribute names left out outweigh them). Plan for a
/// few hundred characters either way.
/// Refusals are [`ErrorKind::InvalidCursor`](crate::error::ErrorKind::InvalidCursor),
/// with the detail in [`Error::cursor_fault`](crate::error::Error::cursor_fault).
///
/// A query of a **sharded** partition (read over all its shards, merged)
/// hands out one cursor for all of them: unsealed (`m2.…`) it holds the
/// index, the partition and the shard count, checked on use, where the
/// merge stands in each shard, and the merged position (the sort key and
/// shard of the last item handed out); sealed (`s1.…`) the positions
/// alone, bound to the query and its shard count. A resumed read hands out
/// nothing that sorts before the merged position, so items written below
/// it meanwhile never come back out of order (as on one partition). A
/// cursor of another shard count, or of a single partition, is refused;
/// one of the earlier format (`m1.…`, and sealed ones made by it) with
/// [`CursorFault::Outdated`](crate::error::CursorFault::Outdated).
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
pub struct Cursor(Form);

#[derive(Clone, PartialEq, Eq)]
enum Form {
    /// The key itself, checked on use.
    Plain(Position),
    /// Key id, nonce, ciphertext and tag, as sealed; opened on use.
    Sealed(Vec<u8>),
    /// Every shard's position of a query read over shards, checked on use.
    Shards(Positions),
    /// The index, key condition and typed key of a multi-attribute index
    /// query, checked on use.
    Multi(Vec<u8>),
    /// Where each segment of a scan read as one listing stands, checked on
    /// use.
    Segments(Vec<u8>),
}

/// The text prefix of each form: the version of its format.
const PLAIN: &str = "c2";
const SEALED: &str = "s1";
const SHARDS: &str = "m2";
const MULTI: &str = "k1";
const SEGMENTS: &str = "p1";
/// The sharded form before the merged position was part of it.
const SHARDS_V1: &str = "m1";

/// Without the `sealed-cursors` feature no handle holds a seal: a stand-in
/// that has no values, so the code that would use one is never reached.
#[cfg(not(feature = "sealed-cursors"))]
#[derive(Debug)]
pub(crate) enum CursorSeal {}

#[cfg(not(feature = "sealed-cursors"))]
impl CursorSeal {
    fn seal(&self, _: &Scope<'_>, _: &Position, _: SystemTime) -> Result<Cursor> {
        match *self {}
    }

    fn open(&self, _: &[u8], _: &Scope<'_>, _: SystemTime) -> Result<Item> {
        match *self {}
    }

    fn seal_content(&self, _: &Scope<'_>, _: &[u8], _: SystemTime) -> Result<Cursor> {
        match *self {}
    }

    fn open_content(&self, _: &[u8], _: &Scope<'_>, _: SystemTime) -> Result<Vec<u8>> {
        match *self {}
    }
}

impl Cursor {
    /// The cursor of a query in `scope` that stopped at DynamoDB's
    /// `last_evaluated_key`: sealed when the handle has a `seal`.
    pub(crate) fn at(
        scope: &Scope<'_>,
        last_evaluated_key: &Item,
        seal: Option<&CursorSeal>,
        now: SystemTime,
    ) -> Result<Self> {
        let position = Position::new(scope.index, last_evaluated_key)?;
        match seal {
            None => Ok(Cursor(Form::Plain(position))),
            Some(seal) => seal.seal(scope, &position, now),
        }
    }

    /// The `ExclusiveStartKey` that resumes the query in `scope` from this
    /// cursor, or why this cursor is not for it. A handle with a `seal`
    /// takes only cursors it sealed for this very query; one without takes
    /// only unsealed cursors of this index and partition.
    pub(crate) fn resume(
        &self,
        scope: &Scope<'_>,
        seal: Option<&CursorSeal>,
        now: SystemTime,
    ) -> Result<Item> {
        match (&self.0, seal) {
            (Form::Plain(position), None) => position.start_key(scope),
            (Form::Sealed(sealed), Some(seal)) => seal.open(sealed, scope, now),
            (Form::Shards(_), None) => Err(invalid(
                CursorFault::Mismatch,
                "it is the cursor of a query read over shards, and this partition is not sharded",
            )),
            (Form::Multi(_), None) => Err(invalid(
                CursorFault::Mismatch,
                "it is the cursor of a query of a multi-attribute index",
            )),
            (Form::Segments(_), _) => Err(invalid(
                CursorFault::Mismatch,
                "it is the cursor of a scan's page; a query resumes only from its own cursors",
            )),
            (Form::Plain(_) | Form::Shards(_) | Form::Multi(_), Some(_)) => {
                Err(sealing_mismatch(false))
            }
            (Form::Sealed(_), None) => Err(sealing_mismatch(true)),
        }
    }

    /// Where segment `segment` of a scan in `total` segments of `index`
    /// stopped: the segment is part of what the cursor is for (a cursor of
    /// one segment given to another would skip or repeat items). Never
    /// sealed: a scan is an operations job, whose cursors are its own
    /// checkpoints, not handed to clients.
    pub(crate) fn for_scan(
        index: Option<&str>,
        segment: u32,
        total: u32,
        last_evaluated_key: &Item,
    ) -> Result<Self> {
        let mut position = Position::new(index, last_evaluated_key)?;
        position.index = scan_scope(index, segment, total);
        Ok(Cursor(Form::Plain(position)))
    }

    /// The `ExclusiveStartKey` for segment `segment` of `total` of a scan
    /// of `index`, keyed by exactly `key_schema`; or why this cursor is not
    /// for it (another segmentation, another index, a query's cursor).
    pub(crate) fn scan_start_key(
        &self,
        index: Option<&str>,
        segment: u32,
        total: u32,
        key_schema: &[&str],
    ) -> Result<Item> {
        let mismatch = |reason: String| invalid(CursorFault::Mismatch, reason);
        let Form::Plain(position) = &self.0 else {
            return Err(mismatch(
                "it is not a scan segment's cursor (`ScanPage::cursor`); a scan resumes a segment only from its own cursors".into(),
            ));
        };
        if position.index != scan_scope(index, segment, total) {
            return Err(mismatch(format!(
                "it is not from segment {segment} of {total} of a scan of this table or index"
            )));
        }
        let mut expected: Vec<&str> = key_schema.to_vec();
        expected.sort_unstable();
        expected.dedup();
        let names: Vec<&str> = position
            .last_key
            .iter()
            .map(|(name, _)| name.as_str())
            .collect();
        if names != expected {
            return Err(mismatch(format!(
                "its key has the attributes {names:?}, where this scan's items are keyed by exactly {expected:?}"
            )));
        }
        Ok(position.to_item())
    }

    /// The segment a scan segment's cursor ([`Cursor::for_scan`]) is of,
    /// `None` for any other cursor.
    pub(crate) fn scan_segment(&self) -> Option<u32> {
        let Form::Plain(position) = &self.0 else {
            return None;
        };
        let (_, place) = position.index.split_once("\u{0}scan\u{0}")?;
        place.split_once('/')?.0.parse().ok()
    }

    /// Whether the cursor is sealed (`s1.…`): made by a handle with
    /// `Db::with_cursor_seal` (the `sealed-cursors` feature).
    ///
    /// ```
    /// use ddb_entity::Cursor;
    ///
    /// // An unsealed table cursor: index "", then PK = "A", SK = "B".
    /// let cursor: Cursor = "c2.AAJQSwFBAlNLAUI".parse()?;
    /// assert!(!cursor.is_sealed());
    /// # Ok::<(), ddb_entity::Error>(())
    /// ```
    pub fn is_sealed(&self) -> bool {
        matches!(self.0, Form::Sealed(_))
    }
}

/// An unsealed cursor's content: the index and DynamoDB's
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

/// `c2.` or `s1.`, then base64url without padding: URL-safe as it is.
impl fmt::Display for Cursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (version, bytes) = match &self.0 {
            Form::Plain(position) => (PLAIN, position.encode()),
            Form::Sealed(sealed) => (SEALED, sealed.clone()),
            Form::Shards(positions) => (SHARDS, positions.encode()),
            Form::Multi(bytes) => (MULTI, bytes.clone()),
            Form::Segments(bytes) => (SEGMENTS, bytes.clone()),
        };
        let mut text = String::with_capacity(3 + bytes.len().div_ceil(3) * 4);
        text.push_str(version);
        text.push('.');
        wire::encode_base64url(&bytes, &mut text);
        f.write_str(&text)
    }
}

impl fmt::Debug for Cursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Key values can be personal data (emails): not in logs.
        match &self.0 {
            Form::Plain(position) => f
                .debug_struct("Cursor")
                .field("index", &position.index)
                .field("attributes", &position.last_key.len())
                .finish(),
            Form::Sealed(sealed) => f
                .debug_struct("Cursor")
                .field("sealed_bytes", &sealed.len())
                .finish(),
            Form::Multi(bytes) => f
                .debug_struct("Cursor")
                .field("multi_bytes", &bytes.len())
                .finish(),
            Form::Segments(bytes) => f
                .debug_struct("Cursor")
                .field("segments_bytes", &bytes.len())
                .finish(),
            Form::Shards(positions) => f
                .debug_struct("Cursor")
                .field("index", &positions.index())
                .field("shards", &positions.count())
                .finish(),
        }
    }
}

impl FromStr for Cursor {
    type Err = Error;

    /// Reads the text [`Display`](fmt::Display) wrote. A sealed cursor is
    /// only unpacked here; whether it authenticates is known when a query
    /// opens it.
    fn from_str(text: &str) -> Result<Self> {
        let bad = |reason: &str| invalid(CursorFault::Malformed, reason);
        let (version, body) = text
            .split_once('.')
            .ok_or_else(|| bad("it is not a ddb-entity cursor"))?;
        let bytes = || wire::decode_base64url(body).ok_or_else(|| bad("it is not base64url"));
        match version {
            PLAIN => Ok(Cursor(Form::Plain(Position::decode(&bytes()?)?))),
            SHARDS => Ok(Cursor(Form::Shards(Positions::decode(&bytes()?)?))),
            MULTI => Ok(Cursor(Form::Multi(bytes()?))),
            SEGMENTS => Ok(Cursor(Form::Segments(bytes()?))),
            SHARDS_V1 => Err(invalid(
                CursorFault::Outdated,
                "it is a sharded cursor of an earlier format (per-shard positions only, `m1.`), which could repeat items written below the merged position; start the listing again",
            )),
            SEALED => {
                let sealed = bytes()?;
                if sealed.len() < SEALED_MIN_LEN {
                    return Err(bad("it is too short to be sealed"));
                }
                Ok(Cursor(Form::Sealed(sealed)))
            }
            _ => Err(bad("it is not a cursor of this version of ddb-entity")),
        }
    }
}

/// What a scan cursor records where a query's records its index: the
/// index, the segment and the segmentation, after a NUL no index name has
/// (so no query's cursor is a scan's, nor the reverse).
fn scan_scope(index: Option<&str>, segment: u32, total: u32) -> String {
    format!(
        "{}\u{0}scan\u{0}{segment}/{total}",
        index.unwrap_or_default()
    )
}

/// Key id, 24-byte nonce, the expiry (at least one byte), 16-byte tag.
const SEALED_MIN_LEN: usize = 1 + 24 + 1 + 16;

/// A sealed cursor on a handle without a seal (`sealed`), or an unsealed
/// one on a handle that takes sealed cursors only.
fn sealing_mismatch(sealed: bool) -> Error {
    if sealed {
        invalid(
            CursorFault::NoSeal,
            "it is sealed, and this handle has no cursor seal to open it with (Db::with_cursor_seal)",
        )
    } else {
        invalid(
            CursorFault::Unsealed,
            "it is not sealed, and this handle takes sealed cursors only",
        )
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
