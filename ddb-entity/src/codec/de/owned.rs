//! An owned value as a [`Source`]: its strings and binaries are *taken* —
//! moved into the value (`visit_string`, `visit_byte_buf`), an empty one
//! left in their place — and everything else is read in place. The item,
//! emptied of what was taken, is dropped whole afterwards.
//!
//! Moving each entry out of the maps instead (`HashMap::into_iter`) does
//! the same work but frees the item piece by piece between reads, which
//! glibc's allocator answers with chunk coalescing and fastbin
//! consolidation: it measured 1.25× slower on the bench's page of small
//! items than taking, where the item is freed in one sweep afterwards, as
//! hand-written code frees it.

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use serde::de::value::{StrDeserializer, StringDeserializer};
use serde::de::{self, Visitor};
use serde::forward_to_deserialize_any;

use super::{KeyText, Result, Shape, Source, check_ignored, numbers_of, shape_of};
use crate::codec::error::DecodeError;

impl<'de> Source<'de> for &mut AttributeValue {
    #[inline]
    fn shape(&self) -> Shape<'_> {
        shape_of(self)
    }

    #[inline]
    fn numbers(&self) -> Option<impl ExactSizeIterator<Item = &str>> {
        numbers_of(self).map(|set| set.map(String::as_str))
    }

    fn check_ignored(&self) -> Result<()> {
        check_ignored(self)
    }

    #[inline]
    fn string(self) -> Result<impl de::Deserializer<'de, Error = DecodeError>, Self> {
        match self {
            AttributeValue::S(s) => Ok(StringDeserializer::<DecodeError>::new(std::mem::take(s))),
            other => Err(other),
        }
    }

    #[inline]
    fn blob(self) -> Result<impl de::Deserializer<'de, Error = DecodeError>, Self> {
        match self {
            AttributeValue::B(b) => Ok(ByteBuf(take_blob(b))),
            other => Err(other),
        }
    }

    #[inline]
    fn text(self) -> Result<impl KeyText<'de>, Self> {
        match self {
            AttributeValue::S(s) => Ok(Transient(s)),
            other => Err(other),
        }
    }

    #[inline]
    fn elements(self) -> Result<impl ExactSizeIterator<Item = Self>, Self> {
        match self {
            AttributeValue::L(list) => Ok(list.iter_mut()),
            other => Err(other),
        }
    }

    #[inline]
    fn entries(self) -> Result<impl ExactSizeIterator<Item = (impl KeyText<'de>, Self)>, Self> {
        match self {
            AttributeValue::M(map) => {
                Ok(map.iter_mut().map(|(key, value)| (Transient(key), value)))
            }
            other => Err(other),
        }
    }

    #[inline]
    fn strings(
        self,
    ) -> Result<impl ExactSizeIterator<Item = impl de::Deserializer<'de, Error = DecodeError>>, Self>
    {
        match self {
            AttributeValue::Ss(set) => Ok(set
                .iter_mut()
                .map(|s| StringDeserializer::<DecodeError>::new(std::mem::take(s)))),
            other => Err(other),
        }
    }

    #[inline]
    fn blobs(
        self,
    ) -> Result<impl ExactSizeIterator<Item = impl de::Deserializer<'de, Error = DecodeError>>, Self>
    {
        match self {
            AttributeValue::Bs(set) => Ok(set.iter_mut().map(|b| ByteBuf(take_blob(b)))),
            other => Err(other),
        }
    }
}

/// A binary taken out of its place (an empty one left there).
fn take_blob(blob: &mut Blob) -> Vec<u8> {
    std::mem::replace(blob, Blob::new(Vec::new())).into_inner()
}

/// A key of an owned map: the map keeps it (to name it in an error), the
/// visitor sees it for the duration of the call.
#[derive(Clone, Copy)]
pub(super) struct Transient<'a>(pub(super) &'a str);

impl<'de> KeyText<'de> for Transient<'_> {
    fn as_str(&self) -> &str {
        self.0
    }

    #[inline]
    fn visit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_str(self.0)
    }

    fn visit_enum<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_enum(StrDeserializer::<DecodeError>::new(self.0))
    }
}

/// A binary taken out: whatever is asked, it offers the bytes.
pub(super) struct ByteBuf(pub(super) Vec<u8>);

impl<'de> de::Deserializer<'de> for ByteBuf {
    type Error = DecodeError;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_byte_buf(self.0)
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}
