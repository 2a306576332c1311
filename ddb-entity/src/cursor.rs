//! Opaque, checked query cursors.

use std::fmt;
use std::str::FromStr;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::error::{Error, Repr, Result};
use crate::item::Item;

/// Where a query stopped: pass it to [`Query::after`](crate::op::Query::after)
/// to resume. Opaque text, safe to hand to a client (e.g. in a URL), and
/// checked on use: a cursor from another partition or index is refused, so
/// a tampered cursor cannot jump into someone else's data.
#[derive(Clone, PartialEq, Eq)]
pub struct Cursor {
    /// The index the query ran on (`""` for the table).
    index: String,
    /// DynamoDB's `LastEvaluatedKey`: every value is a string key attribute.
    last_key: Vec<(String, String)>,
}

const VERSION: &str = "c1";

impl Cursor {
    pub(crate) fn new(index: Option<&str>, last_evaluated_key: &Item) -> Result<Self> {
        let mut last_key = last_evaluated_key
            .iter()
            .map(|(name, value)| match value {
                AttributeValue::S(value) => Ok((name.clone(), value.clone())),
                _ => Err(invalid(format!(
                    "key attribute `{name}` is not a string; ddb-entity tables have string keys"
                ))),
            })
            .collect::<Result<Vec<_>>>()?;
        last_key.sort();
        Ok(Cursor {
            index: index.unwrap_or_default().to_owned(),
            last_key,
        })
    }

    /// Where segment `segment` of a scan in `total` segments of `index`
    /// stopped: the segment is part of what the cursor is for (a cursor of
    /// one segment given to another would skip or repeat items).
    pub(crate) fn for_scan(
        index: Option<&str>,
        segment: u32,
        total: u32,
        last_evaluated_key: &Item,
    ) -> Result<Self> {
        let mut cursor = Cursor::new(index, last_evaluated_key)?;
        cursor.index = scan_scope(index, segment, total);
        Ok(cursor)
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
        if self.index != scan_scope(index, segment, total) {
            return Err(invalid(format!(
                "it is not from segment {segment} of {total} of a scan of this table or index"
            )));
        }
        let mut expected: Vec<&str> = key_schema.to_vec();
        expected.sort_unstable();
        expected.dedup();
        let names: Vec<&str> = self.last_key.iter().map(|(n, _)| n.as_str()).collect();
        if names != expected {
            return Err(invalid(format!(
                "its key has the attributes {names:?}, where this scan's items are keyed by exactly {expected:?}"
            )));
        }
        Ok(self
            .last_key
            .iter()
            .map(|(name, value)| (name.clone(), AttributeValue::S(value.clone())))
            .collect())
    }

    /// The `ExclusiveStartKey` for a query on `index` whose items are keyed
    /// by exactly the attributes `key_schema` (the index's keys, and for a
    /// global secondary index the table's too: what DynamoDB's
    /// `LastEvaluatedKey` holds), in the partition
    /// `partition_attribute = partition`; or why this cursor is not for it.
    ///
    /// Exactly those attributes, each once: a cursor naming one twice
    /// could pass the partition check on one value while the request used
    /// the other, and one naming other attributes is not a key.
    pub(crate) fn start_key(
        &self,
        index: Option<&str>,
        key_schema: &[&str],
        partition_attribute: &str,
        partition: &str,
    ) -> Result<Item> {
        if self.index != index.unwrap_or_default() {
            return Err(invalid("it belongs to another index"));
        }
        let mut expected: Vec<&str> = key_schema.to_vec();
        expected.sort_unstable();
        expected.dedup();
        // `last_key` is sorted by name (see `new` and `from_str`).
        let names: Vec<&str> = self
            .last_key
            .iter()
            .map(|(name, _)| name.as_str())
            .collect();
        if names != expected {
            return Err(invalid(format!(
                "its key has the attributes {names:?}, where this query's index is keyed by exactly {expected:?}"
            )));
        }
        let resumes_here = self
            .last_key
            .iter()
            .any(|(name, value)| name == partition_attribute && value == partition);
        if !resumes_here {
            return Err(invalid("it belongs to another partition"));
        }
        Ok(self
            .last_key
            .iter()
            .map(|(name, value)| (name.clone(), AttributeValue::S(value.clone())))
            .collect())
    }
}

/// Hex of length-prefixed fields: plain ASCII, no dependency, and every
/// field boundary explicit so no value can smuggle in another field.
impl fmt::Display for Cursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(VERSION)?;
        f.write_str(".")?;
        let fields = std::iter::once(self.index.as_str()).chain(
            self.last_key
                .iter()
                .flat_map(|(n, v)| [n.as_str(), v.as_str()]),
        );
        for field in fields {
            write!(f, "{:08x}", field.len())?;
            for byte in field.as_bytes() {
                write!(f, "{byte:02x}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Cursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Key values can be personal data (emails): not in logs.
        f.debug_struct("Cursor")
            .field("index", &self.index)
            .field("attributes", &self.last_key.len())
            .finish()
    }
}

impl FromStr for Cursor {
    type Err = Error;

    fn from_str(text: &str) -> Result<Self> {
        let bad = invalid;
        let body = text
            .strip_prefix(VERSION)
            .and_then(|rest| rest.strip_prefix('.'))
            .ok_or_else(|| bad("it is not a ddb-entity cursor"))?;
        let bytes = hex_decode(body).ok_or_else(|| bad("it is not valid hex"))?;
        let mut fields = Vec::new();
        let mut rest = bytes.as_slice();
        while !rest.is_empty() {
            let (len, tail) = rest
                .split_first_chunk::<4>()
                .ok_or_else(|| bad("it is truncated"))?;
            let len = u32::from_be_bytes(*len) as usize;
            if tail.len() < len {
                return Err(bad("it is truncated"));
            }
            let (field, tail) = tail.split_at(len);
            fields.push(String::from_utf8(field.to_vec()).map_err(|_| bad("it is not UTF-8"))?);
            rest = tail;
        }
        let mut fields = fields.into_iter();
        let index = fields.next().ok_or_else(|| bad("it is empty"))?;
        let rest: Vec<String> = fields.collect();
        if rest.is_empty() || !rest.len().is_multiple_of(2) {
            return Err(bad("its key is incomplete"));
        }
        let mut last_key: Vec<(String, String)> = rest
            .chunks(2)
            .map(|pair| (pair[0].clone(), pair[1].clone()))
            .collect();
        last_key.sort();
        if last_key.windows(2).any(|pair| pair[0].0 == pair[1].0) {
            return Err(bad("its key names an attribute twice"));
        }
        Ok(Cursor { index, last_key })
    }
}

/// What a scan cursor records where a query's records its index: the
/// index, the segment and the segmentation, after a NUL no index name has.
fn scan_scope(index: Option<&str>, segment: u32, total: u32) -> String {
    format!(
        "{}\u{0}scan\u{0}{segment}/{total}",
        index.unwrap_or_default()
    )
}

fn invalid(reason: impl Into<String>) -> Error {
    Repr::InvalidCursor {
        reason: reason.into(),
    }
    .into()
}

/// Lengths were written as 8 hex digits = 4 bytes, big-endian.
fn hex_decode(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    text.as_bytes()
        .chunks(2)
        .map(|pair| {
            let digit = |b: u8| (b as char).to_digit(16);
            Some((digit(pair[0])? * 16 + digit(pair[1])?) as u8)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(pairs: &[(&str, &str)]) -> Item {
        pairs
            .iter()
            .map(|(n, v)| (n.to_string(), AttributeValue::S(v.to_string())))
            .collect()
    }

    #[test]
    fn a_cursor_round_trips_through_text_and_checks_where_it_resumes() {
        let last = item(&[("PK", "CUST#1"), ("SK", "ORDER#2026#x")]);
        let cursor = Cursor::new(None, &last).unwrap();
        let parsed: Cursor = cursor.to_string().parse().unwrap();
        assert_eq!(parsed, cursor);
        let keys = ["PK", "SK"];
        assert_eq!(parsed.start_key(None, &keys, "PK", "CUST#1").unwrap(), last);
        assert!(parsed.start_key(None, &keys, "PK", "CUST#2").is_err());
        assert!(
            parsed
                .start_key(Some("GSI1"), &keys, "PK", "CUST#1")
                .is_err()
        );
    }

    /// Text of a cursor with these fields, however forged.
    fn forged(index: &str, pairs: &[(&str, &str)]) -> String {
        let mut text = String::from("c1.");
        let fields = std::iter::once(index).chain(pairs.iter().flat_map(|(n, v)| [*n, *v]));
        for field in fields {
            text.push_str(&format!("{:08x}", field.len()));
            for byte in field.bytes() {
                text.push_str(&format!("{byte:02x}"));
            }
        }
        text
    }

    #[test]
    fn only_exactly_the_key_schema_of_the_queried_index_is_accepted() {
        let table = ["PK", "SK"];
        let gsi = ["GSI1PK", "GSI1SK", "PK", "SK"];
        let ok = |index: &str, pairs: &[(&str, &str)], schema: &[&str], pk: &str, value: &str| {
            let cursor: Cursor = forged(index, pairs).parse()?;
            let index = (!index.is_empty()).then_some(index);
            cursor.start_key(index, schema, pk, value)
        };
        assert!(ok("", &[("PK", "A"), ("SK", "B")], &table, "PK", "A").is_ok());
        let g = [
            ("GSI1PK", "O#1"),
            ("GSI1SK", "C#1"),
            ("PK", "C#1"),
            ("SK", "O"),
        ];
        assert!(ok("GSI1", &g, &gsi, "GSI1PK", "O#1").is_ok());
        /// Index, key pairs, key schema, partition attribute and value.
        type Case<'a> = (
            &'a str,
            &'a [(&'a str, &'a str)],
            &'a [&'a str],
            &'a str,
            &'a str,
        );
        let refused: [Case<'_>; 8] = [
            // The partition twice: one passes the check, the other is used.
            (
                "",
                &[("PK", "A"), ("PK", "Z"), ("SK", "B")],
                &table,
                "PK",
                "A",
            ),
            (
                "",
                &[("PK", "Z"), ("SK", "B"), ("PK", "A")],
                &table,
                "PK",
                "A",
            ),
            (
                "",
                &[("PK", "A"), ("SK", "B"), ("SK", "C")],
                &table,
                "PK",
                "A",
            ),
            // Missing or extra attributes.
            ("", &[("PK", "A")], &table, "PK", "A"),
            (
                "",
                &[("PK", "A"), ("SK", "B"), ("GSI1PK", "X")],
                &table,
                "PK",
                "A",
            ),
            ("", &[("PK", "A"), ("total", "B")], &table, "PK", "A"),
            // An index cursor without the table's keys, and the other way.
            (
                "GSI1",
                &[("GSI1PK", "O#1"), ("GSI1SK", "C#1")],
                &gsi,
                "GSI1PK",
                "O#1",
            ),
            (
                "",
                &[("GSI1PK", "A"), ("GSI1SK", "C#1"), ("PK", "A"), ("SK", "B")],
                &table,
                "PK",
                "A",
            ),
        ];
        for (index, pairs, schema, pk, value) in refused {
            let err = ok(index, pairs, schema, pk, value).unwrap_err();
            assert_eq!(
                err.kind(),
                crate::ErrorKind::InvalidCursor,
                "{pairs:?}: {err}"
            );
        }
    }

    #[test]
    fn a_tampered_cursor_is_refused() {
        let cursor = Cursor::new(None, &item(&[("PK", "A"), ("SK", "B")])).unwrap();
        let text = cursor.to_string();
        for bad in [
            "",
            "c1.",
            "c1.zz",
            "c2.00",
            &text[..text.len() - 2],
            &format!("{text}00"),
        ] {
            assert!(bad.parse::<Cursor>().is_err(), "{bad:?}");
        }
    }
}
