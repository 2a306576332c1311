//! DynamoDB's sets (`SS`, `NS`, `BS`) as a Rust type: what an update adds
//! to or deletes from atomically, and what `contains` asks about.

use std::collections::BTreeSet;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeSeq, Serializer};

/// serde_dynamo's newtype names for its set codecs, which [`Set`] serializes
/// through and the item codec recognises: serde_dynamo's serializer compares
/// them by address, which only its own statics can match; we compare the
/// text, which no Rust type name can contain (U+037E is not an identifier
/// character).
pub(crate) const STRING_SET: &str = "\u{037E}STRINGSET\u{037E}";
pub(crate) const NUMBER_SET: &str = "\u{037E}NUMBERSET\u{037E}";
pub(crate) const BINARY_SET: &str = "\u{037E}BYTESSET\u{037E}";

/// A set of strings, integers or byte strings, stored as a DynamoDB set
/// (`SS`, `NS` or `BS`) — not as a list, which is what a `Vec` or a
/// `HashSet` becomes.
///
/// DynamoDB has no empty set: an attribute holding one is refused. So an
/// empty `Set` is stored as **no attribute** (like `None`), and a missing
/// attribute reads back as an empty `Set` (no `#[serde(default)]` needed).
/// An update adds to one atomically
/// ([`Update::add_to_set`](crate::write::Update::add_to_set)) or takes
/// elements out ([`Update::delete_from_set`](crate::write::Update::delete_from_set));
/// taking the last one out removes the attribute. Conditions ask
/// [`contains`](crate::entity::Field::contains) and [`size`](crate::entity::Field::size).
///
/// Elements are kept in order (a `BTreeSet`), so an item encodes the same
/// way every time.
///
/// # Example
///
/// ```
/// use ddb_entity::{Entity, Set};
/// use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
///
/// #[derive(Entity, Serialize, Deserialize, Debug, PartialEq)]
/// #[entity(table = App, pk = "REPO#{name}", sk = "REPO")]
/// struct Repo { name: String, topics: Set<String>, stars_by_year: Set<u16> }
///
/// let repo = Repo { name: "ddb".into(), topics: Set::from(["rust", "aws"]), stars_by_year: Set::new() };
/// let item = repo.to_item()?;
/// assert_eq!(item["topics"].as_ss().unwrap(), &["aws", "rust"]);
/// assert!(!item.contains_key("stars_by_year")); // empty: no attribute
/// assert_eq!(Repo::from_item(item)?, repo);
///
/// let mut topics = Set::new();
/// assert!(topics.insert("rust".to_owned()) && !topics.insert("rust".to_owned()));
/// topics.extend(["aws".to_owned(), "orm".to_owned()]);
/// assert!(topics.remove(&"orm".to_owned()) && !topics.remove(&"orm".to_owned()));
/// assert!(topics.contains(&"aws".to_owned()) && !topics.is_empty());
/// assert_eq!(topics.len(), 2);
/// assert_eq!(topics.iter().collect::<Vec<_>>(), ["aws", "rust"]); // in order
/// # Ok::<(), ddb_entity::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Set<T>(BTreeSet<T>);

/// What a [`Set`] can hold: strings (`SS`), integers (`NS`) and byte
/// strings (`BS`). Sealed.
///
/// ```
/// use ddb_entity::{Set, codec};
///
/// let ids: Set<u64> = Set::from([3, 1, 2]);
/// assert_eq!(codec::to_attribute_value(&ids)?.as_ns().unwrap(), &["1", "2", "3"]);
/// let keys: Set<Vec<u8>> = Set::from([vec![0xde, 0xad]]);
/// assert!(codec::to_attribute_value(&keys)?.is_bs());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait SetElement: Ord + Clone + Send + Sync + 'static + sealed::Sealed {
    /// serde's newtype name that makes the codec write the list as a set.
    #[doc(hidden)]
    const MARKER: &'static str;

    #[doc(hidden)]
    fn serialize_element<S: SerializeSeq>(&self, seq: &mut S) -> Result<(), S::Error>;

    #[doc(hidden)]
    fn deserialize_element<'de, A: SeqAccess<'de>>(seq: &mut A) -> Result<Option<Self>, A::Error>;
}

mod sealed {
    pub trait Sealed {}
}

impl sealed::Sealed for String {}
impl SetElement for String {
    const MARKER: &'static str = STRING_SET;

    fn serialize_element<S: SerializeSeq>(&self, seq: &mut S) -> Result<(), S::Error> {
        seq.serialize_element(self)
    }

    fn deserialize_element<'de, A: SeqAccess<'de>>(seq: &mut A) -> Result<Option<Self>, A::Error> {
        seq.next_element()
    }
}

macro_rules! number_elements {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl SetElement for $t {
            const MARKER: &'static str = NUMBER_SET;

            fn serialize_element<S: SerializeSeq>(&self, seq: &mut S) -> Result<(), S::Error> {
                seq.serialize_element(self)
            }

            fn deserialize_element<'de, A: SeqAccess<'de>>(
                seq: &mut A,
            ) -> Result<Option<Self>, A::Error> {
                seq.next_element()
            }
        }
    )*};
}
number_elements!(i8, i16, i32, i64, u8, u16, u32, u64);

impl sealed::Sealed for Vec<u8> {}
/// Byte strings, stored as binary (`BS`), not as lists of numbers.
impl SetElement for Vec<u8> {
    const MARKER: &'static str = BINARY_SET;

    fn serialize_element<S: SerializeSeq>(&self, seq: &mut S) -> Result<(), S::Error> {
        seq.serialize_element(&Bytes(self))
    }

    fn deserialize_element<'de, A: SeqAccess<'de>>(seq: &mut A) -> Result<Option<Self>, A::Error> {
        Ok(seq.next_element::<ByteBuf>()?.map(|bytes| bytes.0))
    }
}

/// Serialises bytes as bytes (`B`), where `Vec<u8>` would be a list.
struct Bytes<'a>(&'a [u8]);

impl Serialize for Bytes<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(self.0)
    }
}

/// Reads bytes from bytes or from a list of numbers.
struct ByteBuf(Vec<u8>);

impl<'de> Deserialize<'de> for ByteBuf {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Bytes;
        impl<'de> Visitor<'de> for Bytes {
            type Value = ByteBuf;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("bytes")
            }
            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<ByteBuf, E> {
                Ok(ByteBuf(v.to_vec()))
            }
            fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<ByteBuf, E> {
                Ok(ByteBuf(v))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ByteBuf, A::Error> {
                let mut bytes = Vec::new();
                while let Some(byte) = seq.next_element()? {
                    bytes.push(byte);
                }
                Ok(ByteBuf(bytes))
            }
        }
        deserializer.deserialize_byte_buf(Bytes)
    }
}

impl<T: SetElement> Set<T> {
    /// An empty set (stored as no attribute).
    ///
    /// See [the example](Set#example).
    pub fn new() -> Self {
        Set(BTreeSet::new())
    }

    /// Adds `value`; `false` when it was there already.
    ///
    /// See [the example](Set#example).
    pub fn insert(&mut self, value: T) -> bool {
        self.0.insert(value)
    }

    /// Takes `value` out; `false` when it was not there.
    ///
    /// See [the example](Set#example).
    pub fn remove(&mut self, value: &T) -> bool {
        self.0.remove(value)
    }

    /// Whether `value` is in the set.
    ///
    /// See [the example](Set#example).
    pub fn contains(&self, value: &T) -> bool {
        self.0.contains(value)
    }

    /// The number of elements.
    ///
    /// See [the example](Set#example).
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the set is empty (and so stored as no attribute).
    ///
    /// See [the example](Set#example).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The elements, in order.
    ///
    /// See [the example](Set#example).
    pub fn iter(&self) -> std::collections::btree_set::Iter<'_, T> {
        self.0.iter()
    }
}

impl<T> Default for Set<T> {
    fn default() -> Self {
        Set(BTreeSet::new())
    }
}

impl<T: fmt::Debug> fmt::Debug for Set<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(&self.0).finish()
    }
}

impl<T: SetElement> FromIterator<T> for Set<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        Set(iter.into_iter().collect())
    }
}

impl<T: SetElement> Extend<T> for Set<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        self.0.extend(iter);
    }
}

impl<T> IntoIterator for Set<T> {
    type Item = T;
    type IntoIter = std::collections::btree_set::IntoIter<T>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a, T> IntoIterator for &'a Set<T> {
    type Item = &'a T;
    type IntoIter = std::collections::btree_set::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<T: SetElement, const N: usize> From<[T; N]> for Set<T> {
    fn from(values: [T; N]) -> Self {
        values.into_iter().collect()
    }
}

impl<const N: usize> From<[&str; N]> for Set<String> {
    fn from(values: [&str; N]) -> Self {
        values.into_iter().map(str::to_owned).collect()
    }
}

impl<T: SetElement> From<BTreeSet<T>> for Set<T> {
    fn from(values: BTreeSet<T>) -> Self {
        Set(values)
    }
}

impl<T> From<Set<T>> for BTreeSet<T> {
    fn from(set: Set<T>) -> Self {
        set.0
    }
}

impl<T: SetElement> Serialize for Set<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.0.is_empty() {
            // DynamoDB refuses an empty set: none is stored instead.
            return serializer.serialize_none();
        }
        serializer.serialize_newtype_struct(T::MARKER, &Elements(&self.0))
    }
}

/// The elements of a non-empty set, as the sequence the set codec reads.
struct Elements<'a, T>(&'a BTreeSet<T>);

impl<T: SetElement> Serialize for Elements<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for element in self.0 {
            element.serialize_element(&mut seq)?;
        }
        seq.end()
    }
}

impl<'de, T: SetElement> Deserialize<'de> for Set<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // Through `Option`, so a missing attribute is an empty set, as a
        // missing `Option` is `None`.
        deserializer.deserialize_option(SetVisitor(PhantomData))
    }
}

struct SetVisitor<T>(PhantomData<fn() -> T>);

impl<'de, T: SetElement> Visitor<'de> for SetVisitor<T> {
    type Value = Set<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a set")
    }

    fn visit_none<E: de::Error>(self) -> Result<Set<T>, E> {
        Ok(Set::new())
    }

    fn visit_unit<E: de::Error>(self) -> Result<Set<T>, E> {
        Ok(Set::new())
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Set<T>, D::Error> {
        deserializer.deserialize_seq(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Set<T>, A::Error> {
        let mut set = BTreeSet::new();
        while let Some(element) = T::deserialize_element(&mut seq)? {
            set.insert(element);
        }
        Ok(Set(set))
    }
}

#[cfg(test)]
mod tests {
    use aws_sdk_dynamodb::primitives::Blob;
    use aws_sdk_dynamodb::types::AttributeValue;

    use super::*;
    use crate::codec;

    #[test]
    fn sets_are_stored_as_dynamodb_sets_and_empty_ones_as_nothing() {
        let strings = Set::from(["b", "a"]);
        assert_eq!(
            codec::to_attribute_value(&strings).unwrap(),
            AttributeValue::Ss(vec!["a".into(), "b".into()])
        );
        let numbers: Set<i64> = Set::from([3, -1]);
        assert_eq!(
            codec::to_attribute_value(&numbers).unwrap(),
            AttributeValue::Ns(vec!["-1".into(), "3".into()])
        );
        let bytes: Set<Vec<u8>> = Set::from([vec![1, 2]]);
        let encoded = codec::to_attribute_value(&bytes).unwrap();
        assert_eq!(encoded, AttributeValue::Bs(vec![Blob::new(vec![1, 2])]));
        assert_eq!(
            codec::from_attribute_value::<Set<Vec<u8>>>(encoded).unwrap(),
            bytes
        );
        assert!(
            codec::to_attribute_value(&Set::<String>::new())
                .unwrap()
                .is_null()
        );
        assert_eq!(
            codec::from_attribute_value::<Set<i64>>(AttributeValue::Ns(vec![
                "3".into(),
                "-1".into()
            ]))
            .unwrap(),
            numbers
        );
        // A list reads as a set too (written by other code).
        assert_eq!(
            codec::from_attribute_value::<Set<String>>(AttributeValue::L(vec![AttributeValue::S(
                "a".into()
            )]))
            .unwrap(),
            Set::from(["a"])
        );
    }

    #[test]
    fn a_missing_set_field_reads_as_empty() {
        #[derive(serde::Deserialize, Debug)]
        struct Tagged {
            tags: Set<String>,
        }
        let tagged: Tagged = codec::from_item(Default::default()).unwrap();
        assert!(tagged.tags.is_empty());
    }
}
