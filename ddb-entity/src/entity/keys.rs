//! Typed key values produced by the generated key builders.

use std::fmt;
use std::marker::PhantomData;

use aws_sdk_dynamodb::types::AttributeValue;

use super::{Entity, Item};
use crate::key::{KeyBuf, KeyError, KeyPart, PrefixOf, prefix_upper_bound};
use crate::table::{QueryIndex, Table};

/// The whole primary key of one entity `E`: what GetItem, DeleteItem and
/// UpdateItem address. Built by the generated `E::key(…)` or by
/// [`Entity::primary_key`].
pub struct Key<E> {
    partition: String,
    sort: String,
    entity: PhantomData<fn() -> E>,
}

impl<E> Key<E> {
    /// A key from its encoded partition and sort key values. Generated code
    /// builds these from templates; by hand, use [`KeyBuf`].
    pub fn new(partition: String, sort: String) -> Self {
        Key {
            partition,
            sort,
            entity: PhantomData,
        }
    }

    /// The partition key value, e.g. `CUST#00000000000000000042`.
    pub fn partition(&self) -> &str {
        &self.partition
    }

    /// The sort key value, e.g. `PROFILE`.
    pub fn sort(&self) -> &str {
        &self.sort
    }

    /// The partition and sort key values.
    pub fn into_parts(self) -> (String, String) {
        (self.partition, self.sort)
    }
}

impl<E: Entity> Key<E> {
    /// The key as the attribute map a GetItem `Key` parameter takes.
    pub fn to_attributes(&self) -> Item {
        let keys = E::Table::SCHEMA.primary;
        let mut item = Item::with_capacity(2);
        item.insert(
            keys.partition_key.to_owned(),
            AttributeValue::S(self.partition.clone()),
        );
        if let Some(sort_key) = keys.sort_key {
            item.insert(sort_key.to_owned(), AttributeValue::S(self.sort.clone()));
        }
        item
    }
}

// Manual impls: derives would demand `E: Clone`, `E: PartialEq`, … of the
// entity, which the key does not contain.
impl<E> Clone for Key<E> {
    fn clone(&self) -> Self {
        Key::new(self.partition.clone(), self.sort.clone())
    }
}

impl<E> PartialEq for Key<E> {
    fn eq(&self, other: &Self) -> bool {
        self.partition == other.partition && self.sort == other.sort
    }
}

impl<E> Eq for Key<E> {}

impl<E> std::hash::Hash for Key<E> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.partition.hash(state);
        self.sort.hash(state);
    }
}

impl<E> fmt::Debug for Key<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Key")
            .field("entity", &std::any::type_name::<E>())
            .field("partition", &self.partition)
            .field("sort", &self.sort)
            .finish()
    }
}

/// An entity's key values in one global secondary index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexKey {
    /// The index partition key value.
    pub partition: String,
    /// The index sort key value, when the index has a sort key.
    pub sort: Option<String>,
}

/// One partition key value of index `I` (the table itself is
/// [`Primary`](crate::Primary)): where a Query starts. Every entity type
/// whose template produces the same value shares the partition — that is
/// how one Query returns a whole item collection.
pub struct Partition<I> {
    value: String,
    index: PhantomData<fn() -> I>,
}

impl<I: QueryIndex> Partition<I> {
    /// A partition from its encoded value (never empty). Generated
    /// `…partition(…)` functions build these from templates.
    pub fn new(value: String) -> Result<Self, KeyError> {
        if value.is_empty() {
            return Err(KeyError::EmptyKey);
        }
        Ok(Partition {
            value,
            index: PhantomData,
        })
    }

    /// The partition key value, e.g. `CUST#00000000000000000042`.
    pub fn as_str(&self) -> &str {
        &self.value
    }

    /// The partition key value.
    pub fn into_string(self) -> String {
        self.value
    }
}

impl<I> Clone for Partition<I> {
    fn clone(&self) -> Self {
        Partition {
            value: self.value.clone(),
            index: PhantomData,
        }
    }
}

impl<I> PartialEq for Partition<I> {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

impl<I> Eq for Partition<I> {}

impl<I> fmt::Debug for Partition<I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Partition")
            .field("index", &std::any::type_name::<I>())
            .field("value", &self.value)
            .finish()
    }
}

/// A sort key of index `I`, whole or cut from the left at a prefix: the
/// operand of a sort-key condition (`=`, `begins_with`, `BETWEEN`, …).
///
/// The generated `…sk()` builders make one; they only cut coarse to fine.
/// An encoding error (a NaN, a width overflow) is kept and reported before
/// any request is sent, so the builders chain without `?` at every step.
pub struct SortKey<I> {
    value: Result<String, KeyError>,
    whole: bool,
    index: PhantomData<fn() -> I>,
}

impl<I> SortKey<I> {
    /// The encoded value: a whole sort key or a prefix of one, or why it
    /// could not be encoded.
    pub fn value(&self) -> Result<&str, KeyError> {
        self.value.as_deref().map_err(Clone::clone)
    }

    /// The encoded value, or why it could not be encoded.
    pub fn into_value(self) -> Result<String, KeyError> {
        self.value
    }

    /// Whether every hole of the template is filled (an exact sort key), as
    /// opposed to a prefix.
    pub fn is_whole(&self) -> bool {
        self.whole
    }

    /// The least string `>=` every sort key under this prefix, for the
    /// upper end of an inclusive `BETWEEN` (see
    /// [`prefix_upper_bound`](crate::key::prefix_upper_bound)). A whole key
    /// is its own upper bound.
    pub fn upper_bound(&self) -> Result<String, KeyError> {
        let value = self.value.clone()?;
        Ok(if self.whole {
            value
        } else {
            prefix_upper_bound(&value)
        })
    }
}

impl<I> Clone for SortKey<I> {
    fn clone(&self) -> Self {
        SortKey {
            value: self.value.clone(),
            whole: self.whole,
            index: PhantomData,
        }
    }
}

impl<I> fmt::Debug for SortKey<I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SortKey")
            .field("index", &std::any::type_name::<I>())
            .field("value", &self.value)
            .field("whole", &self.whole)
            .finish()
    }
}

/// What the generated sort-key stage builders wrap: a key under
/// construction whose first error is kept until the end.
#[doc(hidden)]
pub struct SortKeyBuilder<I> {
    buf: Result<KeyBuf, KeyError>,
    index: PhantomData<fn() -> I>,
}

#[doc(hidden)]
impl<I> SortKeyBuilder<I> {
    pub fn new() -> Self {
        SortKeyBuilder {
            buf: Ok(KeyBuf::new()),
            index: PhantomData,
        }
    }

    pub fn literal(mut self, literal: &str) -> Self {
        if let Ok(buf) = &mut self.buf {
            buf.literal(literal);
        }
        self
    }

    pub fn part<P: KeyPart + ?Sized>(mut self, part: &P) -> Self {
        if let Ok(buf) = &mut self.buf
            && let Err(err) = buf.part(part)
        {
            self.buf = Err(err);
        }
        self
    }

    /// A terminal cut inside the next component (a year of a date, …).
    pub fn cut<T: ?Sized, C: PrefixOf<T> + ?Sized>(self, cut: &C) -> SortKey<I> {
        let value = self.buf.and_then(|mut buf| {
            buf.cut::<T, C>(cut)?;
            Ok(buf.finish())
        });
        SortKey {
            value,
            whole: false,
            index: PhantomData,
        }
    }

    /// Every hole is filled.
    pub fn whole(self) -> SortKey<I> {
        SortKey {
            value: self.buf.map(KeyBuf::finish),
            whole: true,
            index: PhantomData,
        }
    }

    /// Cut at the component boundary reached so far (nothing written yet is
    /// the empty prefix, "every sort key"; an empty first component is `#`).
    pub fn prefix(self) -> SortKey<I> {
        let value = self.buf.map(KeyBuf::finish_prefix);
        SortKey {
            value,
            whole: false,
            index: PhantomData,
        }
    }
}

impl<I> Default for SortKeyBuilder<I> {
    fn default() -> Self {
        Self::new()
    }
}
