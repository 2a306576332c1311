//! Typed key values produced by the generated key builders.

use std::fmt;
use std::marker::PhantomData;

use aws_sdk_dynamodb::types::AttributeValue;

use super::Entity;
use crate::error::{Error, Result};
use crate::item::Item;
use crate::key::{
    KeyBuf, KeyError, KeyPart, PARTITION_KEY_MAX_BYTES, PrefixOf, SORT_KEY_MAX_BYTES,
    greatest_below, prefix_successor, prefix_upper_bound,
};
use crate::shard::{ShardComponent, ShardHasher, ShardSpec};
use crate::table::{LocalIndex, Primary, QueryIndex, Table};

/// The whole primary key of one entity `E`: what GetItem, DeleteItem and
/// UpdateItem address. Built by the generated `E::key(…)` or by
/// [`Entity::primary_key`].
///
/// # Example
///
/// ```
/// use ddb_entity::{Entity, Key};
/// use serde::{Deserialize, Serialize};
///
/// ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}")]
/// struct Order { customer_id: u64, order_id: u64 }
///
/// let key: Key<Order> = Order::key(42, 7)?;
/// assert_eq!(key.partition(), "CUST#42");
/// assert_eq!(key.sort(), "ORDER#00000000000000000007");
/// assert_eq!(key.to_attributes()["PK"].as_s().unwrap(), key.partition());
/// // From stored values, checked against the entity's templates.
/// let again = Key::<Order>::new(key.partition().to_owned(), key.sort().to_owned())?;
/// assert!(again == key);
/// let (partition, sort) = again.into_parts();
/// assert_eq!((partition.len(), sort.len()), (7, 26));
/// # Ok::<(), ddb_entity::Error>(())
/// ```
pub struct Key<E> {
    partition: String,
    sort: String,
    entity: PhantomData<fn() -> E>,
}

impl<E: Entity> Key<E> {
    /// A key from its encoded partition and sort key values, as the
    /// generated builders (or a hand-written [`KeyBuf`]) produce them.
    /// Refused before any request: an empty value (DynamoDB rejects empty
    /// key strings), a partition key over 2048 bytes, a sort key over 1024.
    ///
    /// ```
    /// # use ddb_entity::{Entity, Key};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
    /// # struct Customer { id: u64 }
    /// assert!(Key::<Customer>::new("CUST#1".into(), "PROFILE".into()).is_ok());
    /// assert!(Key::<Customer>::new(String::new(), "PROFILE".into()).unwrap_err().is_key());
    /// ```
    pub fn new(partition: String, sort: String) -> Result<Self> {
        Self::check(&partition, &sort)?;
        Ok(Self::checked(partition, sort))
    }

    /// The checks [`Key::new`] makes, on borrowed strings.
    pub(crate) fn check(partition: &str, sort: &str) -> Result<()> {
        let invalid = |source: KeyError| Error::from(source).for_entity(E::RUST_NAME);
        check_partition(partition).map_err(invalid)?;
        if E::Table::SCHEMA.primary.sort_key.is_some() {
            check_sort(sort).map_err(invalid)?;
        }
        Ok(())
    }

    /// A key [`Key::check`] has accepted.
    pub(crate) fn checked(partition: String, sort: String) -> Self {
        Key {
            partition,
            sort,
            entity: PhantomData,
        }
    }

    /// The key as the attribute map a GetItem `Key` parameter takes.
    ///
    /// See [the example](Key#example).
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

impl<E> Key<E> {
    /// The partition key value, e.g. `CUST#42`.
    ///
    /// See [the example](Key#example).
    pub fn partition(&self) -> &str {
        &self.partition
    }

    /// The sort key value, e.g. `PROFILE`.
    ///
    /// See [the example](Key#example).
    pub fn sort(&self) -> &str {
        &self.sort
    }

    /// The partition and sort key values.
    ///
    /// See [the example](Key#example).
    pub fn into_parts(self) -> (String, String) {
        (self.partition, self.sort)
    }
}

/// A partition key value DynamoDB accepts: not empty, at most 2048 bytes.
pub(crate) fn check_partition(value: &str) -> Result<(), KeyError> {
    check_length(value, "partition key", PARTITION_KEY_MAX_BYTES)
}

/// A sort key value DynamoDB accepts: not empty, at most 1024 bytes.
pub(crate) fn check_sort(value: &str) -> Result<(), KeyError> {
    check_length(value, "sort key", SORT_KEY_MAX_BYTES)
}

/// An index key of `entity` that DynamoDB accepts: a partition key value
/// that is not empty and at most 2048 bytes, a sort key at most 1024,
/// naming the index and attribute that is not. Every item written (put,
/// create, batch and transaction puts) and every key an update moves goes
/// through it, whoever built the [`IndexKey`].
pub(crate) fn check_index_key(
    entity: &'static str,
    index: &crate::table::IndexSchema,
    key: &IndexKey,
) -> Result<()> {
    let refuse = |attribute: &'static str, source: KeyError| -> Error {
        Error::index_key(Some(entity), index.name, attribute, source)
    };
    check_partition(&key.partition).map_err(|source| refuse(index.keys.partition_key, source))?;
    if let (Some(attribute), Some(sort)) = (index.keys.sort_key, &key.sort) {
        check_sort(sort).map_err(|source| refuse(attribute, source))?;
    }
    Ok(())
}

fn check_length(value: &str, what: &'static str, limit: usize) -> Result<(), KeyError> {
    if value.is_empty() {
        return Err(KeyError::EmptyKey);
    }
    if value.len() > limit {
        return Err(KeyError::TooLong {
            what,
            bytes: value.len(),
            limit,
        });
    }
    Ok(())
}

// Manual impls: derives would demand `E: Clone`, `E: PartialEq`, … of the
// entity, which the key does not contain.
impl<E> Clone for Key<E> {
    fn clone(&self) -> Self {
        Key {
            partition: self.partition.clone(),
            sort: self.sort.clone(),
            entity: PhantomData,
        }
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

impl<E: Entity> fmt::Debug for Key<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Key")
            .field("entity", &E::RUST_NAME)
            .field("partition", &self.partition)
            .field("sort", &self.sort)
            .finish()
    }
}

/// An entity's key values in one global secondary index.
///
/// ```
/// use ddb_entity::IndexKey;
///
/// let key = IndexKey { partition: "EMAIL#ada@example.com".into(), sort: Some("PROFILE".into()) };
/// assert_eq!(key.sort.as_deref(), Some("PROFILE"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexKey {
    /// The index partition key value.
    pub partition: String,
    /// The index sort key value, when the index has a sort key.
    pub sort: Option<String>,
}

/// One partition key value of index `I` (the table itself is
/// [`Primary`](crate::table::Primary)): where a Query starts. Every entity type
/// whose template produces the same value shares the partition — that is
/// how one Query returns a whole item collection.
///
/// A partition of a *sharded* template (`"STATUS#{status}#{shard(order_id) % 16}"`)
/// is one logical partition stored as several: [`shards`](Self::shards)
/// says how many, [`shard_partitions`](Self::shard_partitions) lists them,
/// and a Query of it reads them all and merges them into one sort-key
/// order.
///
/// # Example
///
/// ```
/// use ddb_entity::shard::ShardSpec;
/// use ddb_entity::{Entity, Partition, Primary};
/// use serde::{Deserialize, Serialize};
///
/// ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}")]
/// struct Order { customer_id: u64, order_id: u64 }
///
/// let customer = Order::partition(42)?;
/// assert_eq!(customer.as_str(), "CUST#42");
/// assert!(!customer.is_sharded() && customer.shards().is_none() && customer.shard(0).is_none());
/// assert!(customer.shard_partitions() == [customer.clone()]);
///
/// let spec = ShardSpec::new(4, &["event_id"]);
/// let day = Partition::<Primary<App>>::sharded("DAY#2026-03-14#".into(), spec)?;
/// assert!(day.is_sharded());
/// assert_eq!(day.shard(1).unwrap().into_string(), "DAY#2026-03-14#1/4");
/// assert!(day.shard(4).is_none());
/// assert_eq!(customer.into_string(), "CUST#42");
/// # Ok::<(), ddb_entity::Error>(())
/// ```
pub struct Partition<I> {
    /// The value, or for a sharded partition what every shard's value
    /// starts with (`STATUS#Open#`).
    value: String,
    shards: Option<ShardSpec>,
    index: PhantomData<fn() -> I>,
}

impl<I: QueryIndex> Partition<I> {
    /// A partition from its encoded value: not empty, at most 2048 bytes.
    /// Generated `…partition(…)` functions build these from templates.
    ///
    /// ```
    /// use ddb_entity::{Partition, Primary};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// assert!(Partition::<Primary<App>>::new("CUST#1".into()).is_ok());
    /// assert!(Partition::<Primary<App>>::new(String::new()).unwrap_err().is_key());
    /// ```
    pub fn new(value: String) -> Result<Self> {
        check_partition(&value).map_err(|source| match I::INDEX_NAME {
            // Name the index's attribute: "the partition key" alone could
            // be the table's.
            Some(index) => Error::index_key(None, index, I::KEYS.partition_key, source),
            None => Error::from(source),
        })?;
        Ok(Partition {
            value,
            shards: None,
            index: PhantomData,
        })
    }

    /// A partition spread over `spec.count()` shards: shard `n`'s value is
    /// `prefix` followed by its [`ShardComponent`] (`STATUS#Open#` and
    /// `03/16`). `prefix` is empty or ends with `#`, as a template whose
    /// last segment is the shard writes it. Generated `…partition(…)`
    /// functions of sharded templates build these. Refused: a prefix that
    /// does not end a segment, and one that makes a shard's value longer
    /// than 2048 bytes.
    ///
    /// ```
    /// use ddb_entity::{Partition, Primary};
    /// use ddb_entity::shard::ShardSpec;
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// let spec = ShardSpec::new(4, &["event_id"]);
    /// let day = Partition::<Primary<App>>::sharded("DAY#2026-03-14#".into(), spec)?;
    /// assert_eq!(day.shards(), Some(spec));
    /// let values: Vec<String> = day.shard_partitions().into_iter().map(|p| p.into_string()).collect();
    /// assert_eq!(values, ["DAY#2026-03-14#0/4", "DAY#2026-03-14#1/4", "DAY#2026-03-14#2/4", "DAY#2026-03-14#3/4"]);
    /// # Ok::<(), ddb_entity::Error>(())
    /// ```
    pub fn sharded(prefix: String, spec: ShardSpec) -> Result<Self> {
        let longest = prefix.len() + ShardComponent::len_for(spec.count());
        let refuse = |source: KeyError| match I::INDEX_NAME {
            Some(index) => Error::index_key(None, index, I::KEYS.partition_key, source),
            None => Error::from(source),
        };
        if !(prefix.is_empty() || prefix.ends_with(crate::key::DELIMITER)) {
            return Err(refuse(KeyError::malformed(
                "the part of a sharded partition key before its shard, ending with `#`",
                &prefix,
            )));
        }
        if longest > PARTITION_KEY_MAX_BYTES {
            return Err(refuse(KeyError::TooLong {
                what: "partition key",
                bytes: longest,
                limit: PARTITION_KEY_MAX_BYTES,
            }));
        }
        Ok(Partition {
            value: prefix,
            shards: Some(spec),
            index: PhantomData,
        })
    }

    /// The partition key value, e.g. `CUST#42`. For a
    /// sharded partition, what every shard's value starts with
    /// (`STATUS#Open#`), which is no partition key itself: see
    /// [`shard_partitions`](Self::shard_partitions).
    ///
    /// See [the example](Partition#example).
    pub fn as_str(&self) -> &str {
        &self.value
    }

    /// The partition key value (for a sharded partition, as
    /// [`as_str`](Self::as_str)).
    ///
    /// See [the example](Partition#example).
    pub fn into_string(self) -> String {
        self.value
    }

    /// How the partition is sharded, `None` for a partition stored as one.
    ///
    /// See [the example](Partition#example).
    pub fn shards(&self) -> Option<ShardSpec> {
        self.shards
    }

    /// Whether the partition is spread over shards, and a Query of it
    /// reads them all.
    ///
    /// See [the example](Partition#example).
    pub fn is_sharded(&self) -> bool {
        self.shards.is_some()
    }

    /// Shard `shard` alone, as a partition stored as one; `None` past the
    /// last shard, or for a partition that is not sharded.
    ///
    /// See [the example](Partition#example).
    pub fn shard(&self, shard: u16) -> Option<Partition<I>> {
        let spec = self.shards?;
        (shard < spec.count()).then(|| Partition {
            value: format!("{}{}", self.value, spec.component(shard)),
            shards: None,
            index: PhantomData,
        })
    }

    /// Every partition the items are stored in: each shard's, in shard
    /// order, or this one alone when it is not sharded.
    ///
    /// See [the example](Partition#example).
    pub fn shard_partitions(&self) -> Vec<Partition<I>> {
        match self.shards {
            None => vec![self.clone()],
            Some(spec) => (0..spec.count())
                .filter_map(|shard| self.shard(shard))
                .collect(),
        }
    }
}

impl<T: Table> Partition<Primary<T>> {
    /// The same partition of local index `L`: a local index keeps the
    /// table's partition key, and sorts its items by another attribute.
    /// See [`LocalIndex`] for an example.
    ///
    /// See [the example](Partition#example).
    pub fn local<L: LocalIndex<Table = T>>(self) -> Partition<L> {
        Partition {
            value: self.value,
            shards: self.shards,
            index: PhantomData,
        }
    }
}

impl<I> Clone for Partition<I> {
    fn clone(&self) -> Self {
        Partition {
            value: self.value.clone(),
            shards: self.shards,
            index: PhantomData,
        }
    }
}

impl<I> PartialEq for Partition<I> {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value && self.shards == other.shards
    }
}

impl<I> Eq for Partition<I> {}

impl<I: QueryIndex> fmt::Debug for Partition<I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut debug = f.debug_struct("Partition");
        debug
            .field("index", &I::INDEX_NAME.unwrap_or("(table)"))
            .field("value", &self.value);
        if let Some(spec) = self.shards {
            debug.field("shards", &spec.count());
        }
        debug.finish()
    }
}

/// Why a key could not be built, kept until the key is used: which entity,
/// which field, and the encoder's error. Cheap to clone, unlike [`Error`].
#[derive(Debug, Clone)]
pub(crate) struct KeyFault {
    entity: &'static str,
    field: Option<&'static str>,
    /// The index and key attribute of a whole index sort key refused (a
    /// function, to keep the fault small).
    index: Option<IndexOf>,
    source: KeyError,
}

/// An index's name and sort key attribute (`None` for the table).
type IndexOf = fn() -> Option<(&'static str, &'static str)>;

impl KeyFault {
    pub(crate) fn into_error(self) -> Error {
        match (self.field, self.index.and_then(|index| index())) {
            (Some(field), _) => Error::key_of(self.entity, field, self.source),
            (None, Some((index, attribute))) => {
                Error::index_key(Some(self.entity), index, attribute, self.source)
            }
            (None, None) => Error::from(self.source).for_entity(self.entity),
        }
    }
}

/// A sort key of index `I`, whole or cut from the left at a prefix: the
/// operand of a sort-key condition (`=`, `begins_with`, `BETWEEN`, …).
///
/// The generated `…sk()` builders make one; they only cut coarse to fine.
/// An encoding error (a NaN, a width overflow) is kept and reported before
/// any request is sent, so the builders chain without `?` at every step.
///
/// # Example
///
/// ```
/// use ddb_entity::{Entity, SortKey};
/// use serde::{Deserialize, Serialize};
///
/// ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{placed}#{order_id}")]
/// struct Order { customer_id: u64, placed: String, order_id: u64 }
///
/// // A prefix: every order of one day.
/// let day: SortKey<_> = Order::sk().placed("2026-03-14").into();
/// assert_eq!(day.value()?, "ORDER#2026-03-14#");
/// assert!(!day.is_whole());
/// assert!(day.upper_bound()? > "ORDER#2026-03-14#99999999999999999999".to_owned());
///
/// // A whole key is its own upper bound.
/// let one: SortKey<_> = Order::sk().placed("2026-03-14").order_id(7).into();
/// assert!(one.is_whole());
/// assert_eq!(one.upper_bound()?, one.value()?);
/// assert_eq!(one.into_value()?, "ORDER#2026-03-14#00000000000000000007");
/// # Ok::<(), ddb_entity::Error>(())
/// ```
pub struct SortKey<I> {
    value: std::result::Result<String, KeyFault>,
    whole: bool,
    /// The sort keys the template can produce at all: where an open range
    /// (`sk_gt`, `sk_lt`, …) built from this key stops.
    space: KeySpace,
    index: PhantomData<fn() -> I>,
}

/// The sort keys one template can produce: its *key space*.
///
/// Every whole key of a template starts with the template's leading
/// literal segments (`ORDER#` for `ORDER#{placed}#{id}`), so that prefix
/// bounds the space. A template that starts with a hole has no such
/// prefix: its space is every sort key. A template without holes has one
/// key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum KeySpace {
    /// Every key starting with this prefix (empty: every sort key).
    Prefix(String),
    /// The one key of a template without holes.
    Exact(String),
}

impl KeySpace {
    /// The least key of the space, `None` for "no lower bound".
    pub(crate) fn low(&self) -> Option<String> {
        match self {
            KeySpace::Prefix(prefix) if prefix.is_empty() => None,
            KeySpace::Prefix(prefix) | KeySpace::Exact(prefix) => Some(prefix.clone()),
        }
    }

    /// The greatest key of the space, `None` for "no upper bound".
    pub(crate) fn high(&self) -> Option<String> {
        match self {
            KeySpace::Prefix(prefix) if prefix.is_empty() => None,
            KeySpace::Prefix(prefix) => Some(prefix_upper_bound(prefix)),
            KeySpace::Exact(key) => Some(key.clone()),
        }
    }
}

/// A whole sort key whose last hole is an
/// [`Unordered`](crate::key::Unordered) number (`LINE#7`): what a sort-key
/// builder returns when it fills such a hole.
///
/// It converts into no [`SortKey`], so it bounds no range and no prefix:
/// byte order over unpadded numbers is not their order (`LINE#12` sorts
/// before `LINE#7`), and `begins_with(LINE#1)` would also find `LINE#12`.
/// Read the item by its whole key with a get (`Entity::key(…)`), or the
/// items around it with the stage before the hole. Index keys are built
/// with it as usual ([`into_value`](UnorderedSortKey::into_value)).
///
/// # Example
///
/// ```
/// use ddb_entity::{Entity, key::Unordered};
/// use serde::{Deserialize, Serialize};
///
/// ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK", typed_by: Key } }
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "ORDER#{order}", sk = "LINE#{line}")]
/// struct Line { order: String, line: Unordered<u32> }
///
/// assert_eq!(Line::sk().line(Unordered(7)).value()?, "LINE#7");
/// assert_eq!(Line::key("o-1", Unordered(12))?.sort(), "LINE#12");
/// # Ok::<(), ddb_entity::Error>(())
/// ```
#[must_use = "an unordered sort key does nothing until its value is used"]
pub struct UnorderedSortKey<I>(SortKey<I>);

impl<I> UnorderedSortKey<I> {
    /// The encoded value, or why it could not be encoded.
    ///
    /// See [the example](UnorderedSortKey#example).
    pub fn value(&self) -> Result<&str> {
        self.0.value()
    }

    /// The encoded value, or why it could not be encoded.
    ///
    /// See [the example](UnorderedSortKey#example).
    pub fn into_value(self) -> Result<String> {
        self.0.into_value()
    }
}

/// A sort key as the bound of a range or a prefix (`K` is the key): the
/// self type of [`InARange`], so that rustc reports that bound's own
/// message rather than the `Into<SortKey<…>>` it is nested in.
#[doc(hidden)]
pub struct RangeBound<K>(core::marker::PhantomData<K>);

/// A key that can bound a range or be a prefix: a [`SortKey`], never an
/// [`UnorderedSortKey`]. The unmet bound of the `From` impl below is the
/// error of a range on an `Unordered` hole, saying why.
#[diagnostic::on_unimplemented(
    message = "an Unordered hole cannot be in a range or a prefix: its text does not sort as its value (`LINE#10` sorts before `LINE#3`, and `LINE#1` is a prefix of `LINE#12`)",
    label = "a sort key with an `Unordered` hole",
    note = "read the item by its whole key with a get (`Entity::key(…)`), or query by the sort key's stage before the hole; for ranges over that value, make the field an ordered type (an integer, a date, a fixed-width id) instead of `Unordered`"
)]
#[doc(hidden)]
pub trait InARange {}

impl<I> InARange for RangeBound<SortKey<I>> {}

// Only there to fail: its bound is never met, and the unmet bound carries
// the message.
#[doc(hidden)]
impl<I> From<UnorderedSortKey<I>> for SortKey<I>
where
    RangeBound<UnorderedSortKey<I>>: InARange,
{
    fn from(key: UnorderedSortKey<I>) -> Self {
        key.0
    }
}

impl<I> fmt::Debug for UnorderedSortKey<I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("UnorderedSortKey")
            .field(&self.0.value)
            .finish()
    }
}

impl<I> SortKey<I> {
    /// The encoded value: a whole sort key or a prefix of one, or why it
    /// could not be encoded.
    ///
    /// See [the example](SortKey#example).
    pub fn value(&self) -> Result<&str> {
        self.value
            .as_deref()
            .map_err(|fault| fault.clone().into_error())
    }

    /// The encoded value, or why it could not be encoded.
    ///
    /// See [the example](SortKey#example).
    pub fn into_value(self) -> Result<String> {
        self.value.map_err(KeyFault::into_error)
    }

    /// Whether every hole of the template is filled (an exact sort key), as
    /// opposed to a prefix.
    ///
    /// See [the example](SortKey#example).
    pub fn is_whole(&self) -> bool {
        self.whole
    }

    /// The least string `>=` every sort key under this prefix, for the
    /// upper end of an inclusive `BETWEEN` (see
    /// [`prefix_upper_bound`](crate::key::prefix_upper_bound)). A whole key
    /// is its own upper bound.
    ///
    /// See [the example](SortKey#example).
    pub fn upper_bound(&self) -> Result<String> {
        let value = self.value()?;
        Ok(if self.whole {
            value.to_owned()
        } else {
            prefix_upper_bound(value)
        })
    }

    /// The key space of the template this key was built from: where an
    /// open range built from it stops.
    pub(crate) fn space(&self) -> &KeySpace {
        &self.space
    }

    /// The least sort key this key denotes (the key itself, or the prefix),
    /// `None` for the empty prefix: no lower bound.
    pub(crate) fn first(&self) -> Result<Option<String>> {
        let value = self.value()?;
        Ok((!value.is_empty()).then(|| value.to_owned()))
    }

    /// The greatest sort key this key denotes (the key itself, or the upper
    /// bound of the prefix), `None` for the empty prefix: no upper bound.
    pub(crate) fn last(&self) -> Result<Option<String>> {
        let value = self.value()?;
        Ok(match (self.whole, value.is_empty()) {
            (false, true) => None,
            _ => Some(self.upper_bound()?),
        })
    }

    /// The least sort key of the template after every key this one denotes;
    /// `None` when nothing comes after.
    ///
    /// For a prefix, [`prefix_successor`]. For a whole key `x`, `x$`: every
    /// other whole key of the same template has as many `#`-separated
    /// segments, so one above `x` either differs from it at some byte it has
    /// greater, or continues it with a component byte, and every component
    /// byte is at least `$` (the [`KeyPart`] contract). What is skipped —
    /// `x` followed by `#` or a byte below it — no key of this template can
    /// be: keys nested under `x` by *another* template (`x#LINE#…`).
    pub(crate) fn after(&self) -> Result<Option<String>> {
        let value = self.value()?;
        Ok(if self.whole {
            Some(format!("{value}$"))
        } else {
            prefix_successor(value)
        })
    }

    /// The greatest sort key before every key this one denotes; `None`
    /// when nothing comes before (the empty prefix).
    pub(crate) fn before(&self) -> Result<Option<String>> {
        Ok(greatest_below(self.value()?))
    }
}

impl<I> Clone for SortKey<I> {
    fn clone(&self) -> Self {
        SortKey {
            value: self.value.clone(),
            whole: self.whole,
            space: self.space.clone(),
            index: PhantomData,
        }
    }
}

impl<I: QueryIndex> fmt::Debug for SortKey<I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SortKey")
            .field("index", &I::INDEX_NAME.unwrap_or("(table)"))
            .field("value", &self.value.as_deref().ok())
            .field("whole", &self.whole)
            .field("space", &self.space)
            .finish()
    }
}

/// Writes one key of an entity from its template, naming the entity and
/// the field of the first value that cannot be encoded. What the generated
/// `key`/`partition` functions use.
#[doc(hidden)]
pub struct KeyWriter {
    entity: &'static str,
    buf: KeyBuf,
}

#[doc(hidden)]
impl KeyWriter {
    pub fn new(entity: &'static str) -> Self {
        KeyWriter {
            entity,
            buf: KeyBuf::in_buffer(spare_key_buffer()),
        }
    }

    pub fn literal(&mut self, literal: &str) -> &mut Self {
        self.buf.literal(literal);
        self
    }

    pub fn part<P: KeyPart + ?Sized>(
        &mut self,
        field: &'static str,
        part: &P,
    ) -> Result<&mut Self> {
        self.buf
            .part(part)
            .map_err(|source| Error::key_of(self.entity, field, source))?;
        Ok(self)
    }

    /// The argument `arg` of hole `field`, written as the hole's key type
    /// `T` (see [`key_arg`](super::key_arg)): a whole segment.
    pub fn arg<T: KeyPart + ?Sized, A: super::KeyArg<T> + ?Sized>(
        &mut self,
        field: &'static str,
        arg: &A,
    ) -> Result<&mut Self> {
        self.part(field, &super::key_arg::<T, A>(arg))
    }

    /// [`arg`](Self::arg) for a partition-key hole, written as a
    /// `PartitionPart` (plain decimals for integers).
    pub fn partition_arg<T: KeyPart + ?Sized, A: super::KeyArg<T> + ?Sized>(
        &mut self,
        field: &'static str,
        arg: &A,
    ) -> Result<&mut Self> {
        let part = super::PartitionPart(super::key_arg::<T, A>(arg));
        self.part(field, &part)
    }

    pub fn join_literal(&mut self, literal: &str) -> &mut Self {
        self.buf.join_literal(literal);
        self
    }

    /// A raw key attribute: the field's string, as it is.
    pub fn raw<R: super::RawKey + ?Sized>(&mut self, value: &R) -> &mut Self {
        self.buf.raw(value.raw_key());
        self
    }

    pub fn join_part<P: KeyPart + ?Sized>(
        &mut self,
        field: &'static str,
        part: &P,
    ) -> Result<&mut Self> {
        self.buf
            .join_part(part)
            .map_err(|source| Error::key_of(self.entity, field, source))?;
        Ok(self)
    }

    /// The whole value, which must be a valid partition key.
    pub fn finish_partition(self) -> Result<String> {
        let value = self.buf.finish();
        check_partition(&value).map_err(|source| Error::from(source).for_entity(self.entity))?;
        Ok(value)
    }

    /// The whole value, which must be a valid partition key of index `I`
    /// (a refusal names the index and its attribute).
    pub fn finish_index_partition<I: crate::table::Index>(self) -> Result<String> {
        let value = self.buf.finish();
        check_partition(&value).map_err(|source| {
            let index = I::SCHEMA;
            Error::index_key(
                Some(self.entity),
                index.name,
                index.keys.partition_key,
                source,
            )
        })?;
        Ok(value)
    }

    /// Writes the shard segment, computed by [`ShardInputs`].
    pub fn shard(&mut self, component: ShardComponent) -> &mut Self {
        // A shard component always encodes.
        let _ = self.buf.part(&component);
        self
    }

    /// The partition of index `I` (or of the table) written so far,
    /// spread over the shards of `spec`: the template's last segment is
    /// its shard.
    pub fn sharded_partition<I: QueryIndex>(self, spec: ShardSpec) -> Result<Partition<I>> {
        let entity = self.entity;
        Partition::sharded(self.buf.finish_prefix(), spec).map_err(|err| err.for_entity(entity))
    }

    /// The whole value, which must be a valid sort key.
    pub fn finish_sort(self) -> Result<String> {
        let value = self.buf.finish();
        check_sort(&value).map_err(|source| Error::from(source).for_entity(self.entity))?;
        Ok(value)
    }
}

thread_local! {
    /// Key strings handed back once compared ([`recycle_key_buffer`]): a
    /// read verifies every item it decodes by building its keys, which
    /// would otherwise allocate and free two strings per item.
    static SPARE_KEY_BUFFERS: std::cell::RefCell<Vec<String>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// How many spare key strings a thread keeps, and the largest kept.
const SPARE_KEYS_KEPT: usize = 4;
const SPARE_KEY_CAPACITY: usize = 256;

/// A string to write a key into: a spare one, or a new one with room for
/// most keys.
fn spare_key_buffer() -> String {
    SPARE_KEY_BUFFERS
        .try_with(|spare| spare.try_borrow_mut().ok()?.pop())
        .ok()
        .flatten()
        .unwrap_or_else(|| String::with_capacity(48))
}

/// Hands a key string no longer needed back for the next key built on
/// this thread (a few, none large, are kept).
pub(crate) fn recycle_key_buffer(key: String) {
    if key.capacity() == 0 || key.capacity() > SPARE_KEY_CAPACITY {
        return;
    }
    let _ = SPARE_KEY_BUFFERS.try_with(|spare| {
        if let Ok(mut spare) = spare.try_borrow_mut()
            && spare.len() < SPARE_KEYS_KEPT
        {
            spare.push(key);
        }
    });
}

/// The values a sharded template's shard is computed from, in its order
/// (`{shard(customer_id, order_id) % 16}`), naming the entity and field of
/// one that cannot be encoded. What generated key functions use.
#[doc(hidden)]
pub struct ShardInputs {
    entity: &'static str,
    hasher: ShardHasher,
}

#[doc(hidden)]
impl ShardInputs {
    pub fn new(entity: &'static str) -> Self {
        ShardInputs {
            entity,
            hasher: ShardHasher::new(),
        }
    }

    pub fn input<P: KeyPart + ?Sized>(
        &mut self,
        field: &'static str,
        value: &P,
    ) -> Result<&mut Self> {
        self.hasher
            .input(value)
            .map_err(|source| Error::key_of(self.entity, field, source))?;
        Ok(self)
    }

    /// The shard of `spec` these values choose.
    pub fn component(&self, spec: ShardSpec) -> ShardComponent {
        spec.component(self.hasher.shard(spec.count()))
    }
}

/// What the generated sort-key stage builders wrap: a key under
/// construction whose first error is kept until the end.
#[doc(hidden)]
pub struct SortKeyBuilder<I> {
    entity: &'static str,
    buf: std::result::Result<KeyBuf, KeyFault>,
    /// The template's leading literals as a prefix, taken when the first
    /// hole is filled or cut: the key space. `None` until then.
    space: Option<String>,
    index: PhantomData<fn() -> I>,
}

#[doc(hidden)]
impl<I> SortKeyBuilder<I> {
    pub fn new(entity: &'static str) -> Self {
        SortKeyBuilder {
            entity,
            buf: Ok(KeyBuf::new()),
            space: None,
            index: PhantomData,
        }
    }

    pub fn literal(mut self, literal: &str) -> Self {
        if let Ok(buf) = &mut self.buf {
            buf.literal(literal);
        }
        self
    }

    pub fn part<P: KeyPart + ?Sized>(mut self, field: &'static str, part: &P) -> Self {
        self.enter_holes();
        if let Ok(buf) = &mut self.buf
            && let Err(source) = buf.part(part)
        {
            self.buf = Err(self.fault(field, source));
        }
        self
    }

    pub fn join_literal(mut self, literal: &str) -> Self {
        if let Ok(buf) = &mut self.buf {
            buf.join_literal(literal);
        }
        self
    }

    pub fn join_part<P: KeyPart + ?Sized>(mut self, field: &'static str, part: &P) -> Self {
        self.enter_holes();
        if let Ok(buf) = &mut self.buf
            && let Err(source) = buf.join_part(part)
        {
            self.buf = Err(self.fault(field, source));
        }
        self
    }

    /// The template continues the last segment: a prefix here ends without
    /// a delimiter (see [`KeyBuf::continues`]).
    pub fn continues(mut self) -> Self {
        if let Ok(buf) = &mut self.buf {
            buf.continues();
        }
        self
    }

    /// Generated code writes the leading literals first, then the holes
    /// (and the literals between them): what is written when the first hole
    /// comes is the key space's prefix. Recorded here rather than passed in,
    /// so every generated builder carries its space without a new argument.
    fn enter_holes(&mut self) {
        if self.space.is_none() {
            let written = self.buf.as_ref().map(|buf| buf.clone().finish_prefix());
            self.space = Some(written.unwrap_or_default());
        }
    }

    /// The key space: the leading literals' prefix once a hole was reached,
    /// else (no hole reached yet) what is written so far as a prefix, or for
    /// a template without holes its one whole key.
    fn key_space(&self, whole: Option<&str>) -> KeySpace {
        match (&self.space, whole) {
            (Some(prefix), _) => KeySpace::Prefix(prefix.clone()),
            (None, Some(key)) => KeySpace::Exact(key.to_owned()),
            (None, None) => KeySpace::Prefix(
                self.buf
                    .as_ref()
                    .map(|buf| buf.clone().finish_prefix())
                    .unwrap_or_default(),
            ),
        }
    }

    fn fault(&self, field: &'static str, source: KeyError) -> KeyFault {
        KeyFault {
            entity: self.entity,
            field: Some(field),
            index: None,
            source,
        }
    }

    /// A terminal cut inside the next component (a year of a date, …).
    pub fn cut<T: ?Sized, C: PrefixOf<T> + ?Sized>(
        self,
        field: &'static str,
        cut: &C,
    ) -> SortKey<I> {
        self.cut_with(field, |buf| buf.cut::<T, C>(cut).map(drop))
    }

    /// A terminal cut inside the next hole, joined to the last segment
    /// (`{number}-{comment}` cut inside `comment`).
    pub fn join_cut<T: ?Sized, C: PrefixOf<T> + ?Sized>(
        self,
        field: &'static str,
        cut: &C,
    ) -> SortKey<I> {
        self.cut_with(field, |buf| buf.join_cut::<T, C>(cut).map(drop))
    }

    fn cut_with(
        mut self,
        field: &'static str,
        cut: impl FnOnce(&mut KeyBuf) -> std::result::Result<(), KeyError>,
    ) -> SortKey<I> {
        self.enter_holes();
        let space = self.key_space(None);
        let fault = |source| KeyFault {
            entity: self.entity,
            field: Some(field),
            index: None,
            source,
        };
        let value = self.buf.and_then(|mut buf| {
            cut(&mut buf).map_err(fault)?;
            Ok(buf.finish())
        });
        SortKey {
            value,
            whole: false,
            space,
            index: PhantomData,
        }
    }

    /// Every hole is filled: a whole sort key, which DynamoDB requires to
    /// be non-empty and at most 1024 bytes (an index's refusal names the
    /// index and its attribute).
    pub fn whole(self) -> SortKey<I>
    where
        I: QueryIndex,
    {
        let entity = self.entity;
        let space = self
            .buf
            .as_ref()
            .map(|buf| self.key_space(Some(buf.as_str())))
            .unwrap_or_else(|_| self.key_space(None));
        let index: IndexOf = || I::INDEX_NAME.zip(I::KEYS.sort_key);
        let index = Some(index);
        let value = self.buf.map(KeyBuf::finish).and_then(|value| {
            check_sort(&value).map_err(|source| KeyFault {
                entity,
                field: None,
                index,
                source,
            })?;
            Ok(value)
        });
        SortKey {
            value,
            whole: true,
            space,
            index: PhantomData,
        }
    }

    /// Every hole is filled and the last is an
    /// [`Unordered`](crate::key::Unordered) number: a whole sort key that
    /// no sort-key condition takes (see [`UnorderedSortKey`]).
    pub fn whole_unordered(self) -> UnorderedSortKey<I>
    where
        I: QueryIndex,
    {
        UnorderedSortKey(self.whole())
    }

    /// Cut at the component boundary reached so far (nothing written yet is
    /// the empty prefix, "every sort key"; an empty first component is `#`).
    pub fn prefix(self) -> SortKey<I> {
        let space = self.key_space(None);
        let value = self.buf.map(KeyBuf::finish_prefix);
        SortKey {
            value,
            whole: false,
            space,
            index: PhantomData,
        }
    }
}
