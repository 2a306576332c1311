//! An entity's body as the codec reads it: the item's attributes, then the
//! key fields read back from its key (`extra`), as one map — without
//! inserting the key fields into the item first (a name allocated and
//! hashed per field, per item read).
//!
//! Reading a struct, a map or anything self-described walks both in turn
//! (the key fields as [`KeyFieldValue`]s, integers handed over as such),
//! exactly as a map holding all of them is walked (an item's own order is
//! its hash map's, so no order is promised either way). Any other request
//! (a body is an `M`: each is an error, or an `M`-shaped read of another
//! kind) is answered by the item with the key fields inserted, as a plain
//! `M` answers it: one code path for the rare case, the same result.

use std::collections::hash_map;

use aws_sdk_dynamodb::types::AttributeValue;
use serde::de::{self, DeserializeSeed, MapAccess, Visitor};

use std::borrow::Cow;

use super::key_field::KeyFieldValue;
use super::owned::Transient;
use super::value::Map;
use super::wire::{Entries, Key as WireKey, Wire};
use super::{KeyDe, KeyText, Result, Source, Value};
use crate::codec::error::DecodeError;
use crate::item::Item;

/// The body: `item`'s attributes and then `extra`'s, none named in both.
pub(crate) struct Body<'a> {
    pub(crate) item: &'a mut Item,
    pub(crate) extra: &'a mut Vec<(&'static str, KeyFieldValue)>,
}

impl<'a> Body<'a> {
    /// Both, as one map's entries: the item's read as any `M`'s, then the
    /// key fields, each deserializing itself.
    fn entries(self) -> BodyMap<'a, ItemEntries<'a>, Transient<'a>, &'a mut AttributeValue> {
        BodyMap {
            item: Map {
                iter: ItemEntries(self.item.iter_mut()),
                entry: None,
            },
            extra: self.extra.drain(..),
            pending: None,
        }
    }

    /// Both in one `M`: the key fields inserted into the item.
    fn whole(self) -> AttributeValue {
        let mut item = std::mem::take(self.item);
        for (name, value) in self.extra.drain(..) {
            item.entry(name.to_owned())
                .or_insert_with(|| value.into_attribute());
        }
        AttributeValue::M(item)
    }
}

/// The body of an item parsed from a response's bytes: its entries'
/// attributes and then `extra`'s, none named in both — read by the rules
/// of [`Body`].
pub(crate) struct WireBody<'a, 'de> {
    pub(crate) entries: &'a mut Entries<'de>,
    pub(crate) extra: &'a mut Vec<(&'static str, KeyFieldValue)>,
}

impl<'a, 'de> WireBody<'a, 'de> {
    /// Both, as one map's entries: the item's read as any `M`'s, then the
    /// key fields, each deserializing itself (integers as such, never
    /// written out as text and parsed again).
    fn entries(self) -> BodyMap<'a, WireEntries<'a, 'de>, WireKey<'a, 'de>, &'a mut Wire<'de>> {
        BodyMap {
            item: Map {
                iter: WireEntries(self.entries.iter_mut()),
                entry: None,
            },
            extra: self.extra.drain(..),
            pending: None,
        }
    }

    /// Both in one `M`: the key fields added to the entries.
    fn whole(self) -> Wire<'de> {
        let mut entries = std::mem::take(self.entries);
        entries.extend(self.extra.drain(..).map(|(name, value)| {
            (
                Cow::Borrowed(name),
                Wire::from_attribute_value(value.into_attribute()),
            )
        }));
        Wire::M(entries)
    }
}

/// A parsed item's entries, as the codec's map reads them.
struct WireEntries<'a, 'de>(std::slice::IterMut<'a, (Cow<'de, str>, Wire<'de>)>);

impl<'a, 'de> Iterator for WireEntries<'a, 'de> {
    type Item = (WireKey<'a, 'de>, &'a mut Wire<'de>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(name, value)| (WireKey(name), value))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl ExactSizeIterator for WireEntries<'_, '_> {}

/// The item's entries, as the codec's map reads them.
struct ItemEntries<'a>(hash_map::IterMut<'a, String, AttributeValue>);

impl<'a> Iterator for ItemEntries<'a> {
    type Item = (Transient<'a>, &'a mut AttributeValue);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(name, value)| (Transient(name), value))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl ExactSizeIterator for ItemEntries<'_> {}

/// The item's entries (read exactly as any `M`'s), then the key fields.
struct BodyMap<'a, I, K, S> {
    item: Map<I, K, S>,
    extra: std::vec::Drain<'a, (&'static str, KeyFieldValue)>,
    /// The key field whose name was just read.
    pending: Option<(&'static str, KeyFieldValue)>,
}

impl<'de, I, K, S> MapAccess<'de> for BodyMap<'_, I, K, S>
where
    I: ExactSizeIterator<Item = (K, S)>,
    K: KeyText<'de>,
    S: Source<'de>,
{
    type Error = DecodeError;

    #[inline]
    fn next_key_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.item.iter.len() > 0 {
            return self.item.next_key_seed(seed);
        }
        let Some((name, value)) = self.extra.next() else {
            return Ok(None);
        };
        self.pending = Some((name, value));
        match seed.deserialize(KeyDe(Transient(name))) {
            Ok(key) => Ok(Some(key)),
            Err(err) => Err(err.at_key(name)),
        }
    }

    #[inline]
    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value> {
        match self.pending.take() {
            Some((name, value)) => seed.deserialize(value).map_err(|err| err.at_key(name)),
            None => self.item.next_value_seed(seed),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.item.iter.len() + self.extra.len())
    }
}

/// A body's `Deserializer`: a struct, a map or anything self-described
/// walks its entries and then the key fields; any other request is
/// answered by the whole `M`.
macro_rules! body_deserializer {
    ($body:ty) => {
        impl<'de> de::Deserializer<'de> for $body {
            type Error = DecodeError;

            #[inline]
            fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
                visitor.visit_map(self.entries())
            }

            #[inline]
            fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
                visitor.visit_map(self.entries())
            }

            #[inline]
            fn deserialize_struct<V: Visitor<'de>>(
                self,
                _name: &'static str,
                _fields: &'static [&'static str],
                visitor: V,
            ) -> Result<V::Value> {
                visitor.visit_map(self.entries())
            }

            fn deserialize_newtype_struct<V: Visitor<'de>>(
                self,
                _name: &'static str,
                visitor: V,
            ) -> Result<V::Value> {
                visitor.visit_newtype_struct(self)
            }

            through_value! { whole;
                deserialize_bool() deserialize_i8() deserialize_i16() deserialize_i32()
                deserialize_i64() deserialize_i128() deserialize_u8() deserialize_u16()
                deserialize_u32() deserialize_u64() deserialize_u128() deserialize_f32()
                deserialize_f64() deserialize_char() deserialize_str() deserialize_string()
                deserialize_bytes() deserialize_byte_buf() deserialize_option()
                deserialize_unit() deserialize_seq() deserialize_identifier()
                deserialize_ignored_any()
                deserialize_unit_struct(name: &'static str)
                deserialize_tuple(len: usize)
                deserialize_tuple_struct(name: &'static str, len: usize)
                deserialize_enum(name: &'static str, variants: &'static [&'static str])
            }
        }
    };
}

body_deserializer!(Body<'_>);
body_deserializer!(WireBody<'_, 'de>);
