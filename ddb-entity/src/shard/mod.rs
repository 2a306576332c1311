//! Write sharding: a partition key spread over a fixed number of shards by
//! a stable hash of other fields, and read back as one.
//!
//! A partition key of few values — a status, a date, a literal — takes
//! every write of the table to a handful of partitions, and DynamoDB holds
//! each partition to roughly 1,000 write and 3,000 read units per second
//! whatever the table is provisioned for. Write sharding adds a calculated
//! suffix to such a key: `STATUS#{status}#{shard(order_id) % 16}` writes
//! each order to one of 16 partitions, chosen by its id, and a query of
//! `STATUS#Open` reads all 16 and merges them in sort-key order as if they
//! were one (see [`Query`](crate::read::Query)).
//!
//! # The shard function (frozen)
//!
//! The shard of an item is a function of the values of the fields the
//! template names, and of nothing else: not of the process, the platform,
//! the build or the version of this crate. Keys written today are found
//! by every later reader, in any language, by this definition:
//!
//! 1. Encode each named field with its [`KeyPart`] encoding at the type's
//!    own full width (the text a `{field}` hole writes, without a width a
//!    template may declare), in the order the template names them.
//! 2. Join the encodings with the byte `#` (0x23), which no encoding
//!    contains: `enc(a) # enc(b) # …`.
//! 3. Hash the bytes with 64-bit FNV-1a (offset basis
//!    `0xcbf29ce484222325`, prime `0x100000001b3`), then mix the result
//!    with MurmurHash3's 64-bit finaliser (`h ^= h >> 33;
//!    h *= 0xff51afd7ed558ccd; h ^= h >> 33; h *= 0xc4ceb9fe1a85ec53;
//!    h ^= h >> 33`, multiplications wrapping).
//! 4. The shard is that number modulo the shard count `N`.
//!
//! FNV-1a alone spreads its low bits poorly — its lowest bit is the parity
//! of the input's lowest bits — so a shard count of a power of two would
//! see sequential ids crowd some shards; the finaliser makes every output
//! bit depend on every input bit. It is [`shard_of`], pinned by golden
//! values in this crate's tests and by a χ² test of its spread.
//!
//! # The key
//!
//! The shard is written as the last segment of the partition key: its
//! number, zero-padded to the digits of `N − 1`, `/` and the count,
//! `03/16` for shard 3 of 16 ([`ShardComponent`]). The count is part of
//! the key, so items written under two counts never share a partition
//! (see *Re-sharding* in the derive's reference).
//!
//! ```
//! use ddb_entity::shard::{ShardComponent, ShardSpec, shard_of};
//! use ddb_entity::key;
//!
//! let spec = ShardSpec::new(16, &["order_id"]);
//! let shard = shard_of(spec.count(), &[key::encode(&9931u64)?.as_str()]);
//! assert!(shard < 16);
//! assert_eq!(ShardComponent::new(3, 16).to_string(), "03/16");
//! assert_eq!(ShardComponent::new(7, 8).to_string(), "7/8");
//! # Ok::<(), ddb_entity::key::KeyError>(())
//! ```
//!
//! [`KeyPart`]: crate::key::KeyPart

mod component;
mod hash;

pub use component::ShardComponent;
pub use hash::{ShardHasher, shard_of};

/// The fewest shards a template may declare: one shard is no sharding.
///
/// ```
/// use ddb_entity::shard::{MIN_SHARDS, ShardSpec};
///
/// assert_eq!(ShardSpec::new(MIN_SHARDS, &["id"]).count(), 2);
/// assert!(std::panic::catch_unwind(|| ShardSpec::new(MIN_SHARDS - 1, &["id"])).is_err());
/// ```
pub const MIN_SHARDS: u16 = 2;
/// The most shards a template may declare: a query of the partition sends
/// one request per shard.
///
/// ```
/// use ddb_entity::shard::{MAX_SHARDS, ShardSpec};
///
/// // The widest shard component: `0999/1000`.
/// assert_eq!(ShardSpec::new(MAX_SHARDS, &["id"]).component(999).to_string(), "999/1000");
/// assert!(std::panic::catch_unwind(|| ShardSpec::new(MAX_SHARDS + 1, &["id"])).is_err());
/// ```
pub const MAX_SHARDS: u16 = 1000;

/// A template's shard declaration, `{shard(order_id) % 16}`: how many
/// shards, and the fields whose values choose one.
///
/// # Example
///
/// ```
/// use ddb_entity::shard::{MAX_SHARDS, MIN_SHARDS, ShardSpec};
///
/// let spec = ShardSpec::new(16, &["order_id"]);
/// assert_eq!((spec.count(), spec.by()), (16, &["order_id"][..]));
/// assert_eq!(spec.to_string(), "{shard(order_id) % 16}");
/// assert_eq!(spec.component(3).to_string(), "03/16");
/// assert!((MIN_SHARDS..=MAX_SHARDS).contains(&spec.count()));
/// assert_eq!((MIN_SHARDS, MAX_SHARDS), (2, 1000));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ShardSpec {
    count: u16,
    by: &'static [&'static str],
}

impl ShardSpec {
    /// `count` shards chosen by the fields `by`. Panics (at compile time in
    /// a const) unless `count` is 2 to 1000 and `by` names a field.
    ///
    /// See [the example](ShardSpec#example).
    pub const fn new(count: u16, by: &'static [&'static str]) -> Self {
        assert!(
            count >= MIN_SHARDS && count <= MAX_SHARDS,
            "a shard count is 2 to 1000"
        );
        assert!(!by.is_empty(), "a shard is chosen by at least one field");
        ShardSpec { count, by }
    }

    /// The number of shards.
    ///
    /// See [the example](ShardSpec#example).
    pub const fn count(&self) -> u16 {
        self.count
    }

    /// The fields whose values choose the shard, in hashing order.
    ///
    /// See [the example](ShardSpec#example).
    pub const fn by(&self) -> &'static [&'static str] {
        self.by
    }

    /// The shard component of shard `shard` (`03/16`).
    ///
    /// ```
    /// let spec = ddb_entity::shard::ShardSpec::new(16, &["id"]);
    /// assert_eq!(spec.component(3).to_string(), "03/16");
    /// ```
    pub fn component(&self, shard: u16) -> ShardComponent {
        ShardComponent::new(shard, self.count)
    }
}

/// As written in a template: `{shard(order_id) % 16}`.
impl std::fmt::Display for ShardSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{{shard({}) % {}}}", self.by.join(", "), self.count)
    }
}

#[cfg(test)]
mod tests;
