//! The cursor of a query of a multi-attribute index: its key values are
//! typed (a multi-attribute index's attributes may be numbers or bytes),
//! so each value carries its type.
//!
//! Unsealed (`k1.`): the index, the key condition's canonical text (the
//! scope's `partition`: a cursor of other conditions is refused), then per
//! key attribute, sorted by name, its name, a type tag (`S`, `N`, `B`) and
//! its value. Sealed (`s1.`): the attributes alone, bound to the scope.

use std::time::SystemTime;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;

use super::{Cursor, CursorSeal, Form, Scope, invalid, wire};
use crate::error::{CursorFault, Result};
use crate::item::Item;

impl Cursor {
    /// The cursor of the multi-attribute index query in `scope` (its
    /// `partition` the key condition's canonical text) after `key`.
    pub(crate) fn at_multi(
        scope: &Scope<'_>,
        key: &Item,
        seal: Option<&CursorSeal>,
        now: SystemTime,
    ) -> Result<Self> {
        let entries = entries(key)?;
        match seal {
            None => {
                let mut out = Vec::with_capacity(entries.len() + 64);
                wire::put_field(&mut out, scope.index.unwrap_or_default().as_bytes());
                wire::put_field(&mut out, scope.partition.as_bytes());
                out.extend_from_slice(&entries);
                Ok(Cursor(Form::Multi(out)))
            }
            Some(seal) => seal.seal_content(scope, &entries, now),
        }
    }

    /// The `ExclusiveStartKey` of the multi-attribute index query in
    /// `scope`, keyed by exactly `expected` (sorted), from this cursor.
    pub(crate) fn resume_multi(
        &self,
        scope: &Scope<'_>,
        expected: &[&str],
        seal: Option<&CursorSeal>,
        now: SystemTime,
    ) -> Result<Item> {
        let mismatch = |reason: &str| invalid(CursorFault::Mismatch, reason);
        let malformed = || invalid(CursorFault::Malformed, "it is truncated");
        let entries = match (&self.0, seal) {
            (Form::Multi(bytes), None) => {
                let mut reader = wire::Reader(bytes);
                let index = reader.string().ok_or_else(malformed)?;
                let condition = reader.string().ok_or_else(malformed)?;
                if index != scope.index.unwrap_or_default() {
                    return Err(mismatch("it belongs to another index"));
                }
                if condition != scope.partition {
                    return Err(mismatch("it belongs to a query of other key conditions"));
                }
                reader.0.to_vec()
            }
            (Form::Sealed(sealed), Some(seal)) => seal.open_content(sealed, scope, now)?,
            (Form::Sealed(_), None) => return Err(super::sealing_mismatch(true)),
            (_, Some(_)) => return Err(super::sealing_mismatch(false)),
            (_, None) => {
                return Err(mismatch(
                    "it is not the cursor of a query of a multi-attribute index",
                ));
            }
        };
        let mut reader = wire::Reader(&entries);
        let mut key = Item::new();
        let mut names = Vec::new();
        while !reader.is_empty() {
            let name = reader.string().ok_or_else(malformed)?;
            let (&tag, rest) = reader.0.split_first().ok_or_else(malformed)?;
            reader.0 = rest;
            let value = reader.field().ok_or_else(malformed)?;
            let value = match tag {
                b'S' => {
                    AttributeValue::S(String::from_utf8(value.to_vec()).map_err(|_| malformed())?)
                }
                b'N' => {
                    AttributeValue::N(String::from_utf8(value.to_vec()).map_err(|_| malformed())?)
                }
                b'B' => AttributeValue::B(Blob::new(value)),
                _ => {
                    return Err(invalid(
                        CursorFault::Malformed,
                        "it holds an unknown value type",
                    ));
                }
            };
            names.push(name.clone());
            key.insert(name, value);
        }
        if names != expected {
            return Err(mismatch(
                "its key is not exactly the attributes this index's items are keyed by",
            ));
        }
        Ok(key)
    }
}

/// Every attribute of `key`, sorted by name: name, type tag, value.
fn entries(key: &Item) -> Result<Vec<u8>> {
    let mut names: Vec<&String> = key.keys().collect();
    names.sort();
    let mut out = Vec::new();
    for name in names {
        wire::put_field(&mut out, name.as_bytes());
        let (tag, value): (u8, &[u8]) = match &key[name] {
            AttributeValue::S(s) => (b'S', s.as_bytes()),
            AttributeValue::N(n) => (b'N', n.as_bytes()),
            AttributeValue::B(b) => (b'B', b.as_ref()),
            _ => {
                return Err(invalid(
                    CursorFault::Mismatch,
                    format!("key attribute `{name}` is not a string, number or bytes"),
                ));
            }
        };
        out.push(tag);
        wire::put_field(&mut out, value);
    }
    Ok(out)
}
