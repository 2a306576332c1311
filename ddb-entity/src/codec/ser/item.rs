//! The top level: a value serialised as a whole item.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use serde::Serialize;
use serde::ser;

use super::{
    BINARY_SET, Map, NUMBER_SET, Result, STRING_SET, Seq, Struct, StructVariant, TupleVariant,
    ValueSer,
};
use crate::codec::error::{EncodeError, describe};

type Item = HashMap<String, AttributeValue>;

/// Serializes a value as an item: it must come out as a map (a struct, a
/// map, a struct with `flatten`, an enum variant with content).
#[derive(Clone, Copy)]
pub(crate) struct ItemSer {
    /// Room to leave for attributes the caller adds (keys, type), so adding
    /// them does not grow the map.
    pub(crate) reserve: usize,
    /// Leave out top-level `NULL`s (`None`): an entity's `None` is no
    /// attribute.
    pub(crate) drop_nulls: bool,
}

impl ItemSer {
    /// Encodes `value`.
    pub(crate) fn encode<T: ?Sized + Serialize>(self, value: &T) -> Result<Item> {
        value.serialize(self)
    }

    fn done(self, value: AttributeValue) -> Result<Item> {
        match value {
            AttributeValue::M(mut item) => {
                if self.drop_nulls {
                    item.retain(|_, value| !matches!(value, AttributeValue::Null(true)));
                }
                Ok(item)
            }
            other => Err(EncodeError::text(format!(
                "an item must serialise as a map (a struct), not as {}",
                describe(&other)
            ))),
        }
    }
}

macro_rules! through_value {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {$(
        fn $method(self, $($arg: $ty),*) -> Result<Item> {
            self.done(ValueSer.$method($($arg),*)?)
        }
    )*};
}

impl ser::Serializer for ItemSer {
    type Ok = Item;
    type Error = EncodeError;
    type SerializeSeq = Top<Seq>;
    type SerializeTuple = Top<Seq>;
    type SerializeTupleStruct = Top<Seq>;
    type SerializeTupleVariant = Top<TupleVariant>;
    type SerializeMap = TopMap;
    type SerializeStruct = TopStruct;
    type SerializeStructVariant = Top<StructVariant>;

    through_value! {
        serialize_bool(v: bool);
        serialize_i8(v: i8);
        serialize_i16(v: i16);
        serialize_i32(v: i32);
        serialize_i64(v: i64);
        serialize_u8(v: u8);
        serialize_u16(v: u16);
        serialize_u32(v: u32);
        serialize_u64(v: u64);
        serialize_f32(v: f32);
        serialize_f64(v: f64);
        serialize_char(v: char);
        serialize_str(v: &str);
        serialize_bytes(v: &[u8]);
        serialize_none();
        serialize_unit();
        serialize_unit_struct(name: &'static str);
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str);
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<Item> {
        value.serialize(self)
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<Item> {
        match name {
            STRING_SET | NUMBER_SET | BINARY_SET => {
                self.done(ValueSer.serialize_newtype_struct(name, value)?)
            }
            _ => value.serialize(self),
        }
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Item> {
        self.done(ValueSer.serialize_newtype_variant(name, index, variant, value)?)
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Top<Seq>> {
        Ok(Top(self, ValueSer.serialize_seq(len)?))
    }

    fn serialize_tuple(self, len: usize) -> Result<Top<Seq>> {
        Ok(Top(self, ValueSer.serialize_tuple(len)?))
    }

    fn serialize_tuple_struct(self, name: &'static str, len: usize) -> Result<Top<Seq>> {
        Ok(Top(self, ValueSer.serialize_tuple_struct(name, len)?))
    }

    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Top<TupleVariant>> {
        Ok(Top(
            self,
            ValueSer.serialize_tuple_variant(name, index, variant, len)?,
        ))
    }

    fn serialize_map(self, len: Option<usize>) -> Result<TopMap> {
        Ok(TopMap {
            map: Map::with_capacity(len.unwrap_or(0) + self.reserve),
            top: self,
        })
    }

    #[inline]
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<TopStruct> {
        Ok(TopStruct {
            fields: Struct(HashMap::with_capacity(len + self.reserve)),
            drop_nulls: self.drop_nulls,
        })
    }

    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Top<StructVariant>> {
        Ok(Top(
            self,
            ValueSer.serialize_struct_variant(name, index, variant, len)?,
        ))
    }
}

/// A compound value at the top level, built as a value and then required
/// to be a map.
pub(crate) struct Top<S>(ItemSer, S);

macro_rules! top_compound {
    ($trait:ident, $method:ident $(, $key:ident)?) => {
        impl<S: ser::$trait<Ok = AttributeValue, Error = EncodeError>> ser::$trait for Top<S> {
            type Ok = Item;
            type Error = EncodeError;

            fn $method<T: ?Sized + Serialize>(
                &mut self,
                $($key: &'static str,)?
                value: &T,
            ) -> Result<()> {
                self.1.$method($($key,)? value)
            }

            fn end(self) -> Result<Item> {
                self.0.done(self.1.end()?)
            }
        }
    };
}

top_compound!(SerializeSeq, serialize_element);
top_compound!(SerializeTuple, serialize_element);
top_compound!(SerializeTupleStruct, serialize_field);
top_compound!(SerializeTupleVariant, serialize_field);
top_compound!(SerializeStructVariant, serialize_field, key);

/// A struct at the top level: its fields are the item's attributes.
pub(crate) struct TopStruct {
    fields: Struct,
    drop_nulls: bool,
}

impl ser::SerializeStruct for TopStruct {
    type Ok = Item;
    type Error = EncodeError;

    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        let value = value.serialize(ValueSer).map_err(|e| e.at_key(key))?;
        if self.drop_nulls && matches!(value, AttributeValue::Null(true)) {
            // Left out rather than written and filtered afterwards. A field
            // serialised under the name of an earlier one (two `rename`s
            // alike) replaces it, so a `NULL` removes what was written.
            if !self.fields.0.is_empty() {
                self.fields.0.remove(key);
            }
            return Ok(());
        }
        self.fields.0.insert(key.to_owned(), value);
        Ok(())
    }

    fn end(self) -> Result<Item> {
        Ok(self.fields.0)
    }
}

/// A map at the top level (a struct with `flatten` is one).
pub(crate) struct TopMap {
    map: Map,
    top: ItemSer,
}

impl ser::SerializeMap for TopMap {
    type Ok = Item;
    type Error = EncodeError;

    fn serialize_key<K: ?Sized + Serialize>(&mut self, key: &K) -> Result<()> {
        self.map.key(key)
    }

    fn serialize_value<V: ?Sized + Serialize>(&mut self, value: &V) -> Result<()> {
        self.map.value(value)
    }

    fn serialize_entry<K: ?Sized + Serialize, V: ?Sized + Serialize>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<()> {
        self.map.entry(key, value)
    }

    fn end(self) -> Result<Item> {
        self.top.done(AttributeValue::M(self.map.map))
    }
}
