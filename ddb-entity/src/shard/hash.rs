//! The frozen shard function: FNV-1a 64 over the joined encodings, mixed
//! with MurmurHash3's finaliser, modulo the count. Changing anything here
//! moves stored items to other shards: the golden values in `tests.rs`
//! must never change.

use crate::key::{DELIMITER, KeyError, KeyPart};

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// The shard, of `count`, of the already encoded key parts `encoded` (each
/// the text its [`KeyPart`] writes, in the template's order): the frozen
/// function of the [module docs](crate::shard).
///
/// ```
/// use ddb_entity::shard::shard_of;
/// // Golden values: the same on every platform, in every version.
/// assert_eq!(shard_of(16, &["00000000000000000001"]), 11);
/// assert_eq!(shard_of(16, &["00000000000000009931"]), 15);
/// assert_eq!(shard_of(7, &["01-Open", "alice"]), 3);
/// ```
pub fn shard_of(count: u16, encoded: &[&str]) -> u16 {
    let mut hasher = ShardHasher::new();
    for part in encoded {
        hasher.encoded(part);
    }
    hasher.shard(count)
}

/// The shard function fed one key part at a time, encoding each with its
/// [`KeyPart`] (what generated code uses).
///
/// # Example
///
/// ```
/// use ddb_entity::shard::{ShardHasher, shard_of};
///
/// let mut hasher = ShardHasher::new();
/// hasher.input(&9931u64)?;
/// assert_eq!(hasher.shard(16), shard_of(16, &["00000000000000009931"]));
///
/// // Parts already encoded, as a template writes them, in order.
/// let mut by_text = ShardHasher::new();
/// by_text.encoded("00000000000000009931");
/// assert_eq!(by_text.shard(16), hasher.shard(16));
/// assert!(ShardHasher::new().encoded("a").encoded("b").shard(1000) < 1000);
/// # Ok::<(), ddb_entity::key::KeyError>(())
/// ```
#[derive(Debug, Clone)]
pub struct ShardHasher {
    hash: u64,
    inputs: usize,
    scratch: String,
}

impl Default for ShardHasher {
    fn default() -> Self {
        Self::new()
    }
}

impl ShardHasher {
    /// No input yet.
    ///
    /// See [the example](ShardHasher#example).
    pub fn new() -> Self {
        ShardHasher {
            hash: FNV_OFFSET,
            inputs: 0,
            scratch: String::new(),
        }
    }

    /// Adds the next field's value, encoded as its type encodes it in a key.
    ///
    /// See [the example](ShardHasher#example).
    pub fn input<P: KeyPart + ?Sized>(&mut self, value: &P) -> Result<&mut Self, KeyError> {
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        let encoded = value.encode_key(&mut scratch);
        if encoded.is_ok() {
            self.encoded(&scratch);
        }
        self.scratch = scratch;
        encoded.map(|()| self)
    }

    /// Adds the next field's value as already encoded.
    ///
    /// See [the example](ShardHasher#example).
    pub fn encoded(&mut self, encoded: &str) -> &mut Self {
        if self.inputs > 0 {
            self.bytes(&[DELIMITER as u8]);
        }
        self.bytes(encoded.as_bytes());
        self.inputs += 1;
        self
    }

    fn bytes(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.hash ^= u64::from(byte);
            self.hash = self.hash.wrapping_mul(FNV_PRIME);
        }
    }

    /// The shard, of `count`, of the inputs so far. Panics for a count of
    /// zero.
    ///
    /// See [the example](ShardHasher#example).
    pub fn shard(&self, count: u16) -> u16 {
        // The remainder is below `count`, a `u16`.
        (fmix64(self.hash) % u64::from(count)) as u16
    }
}

/// MurmurHash3's 64-bit finaliser: every output bit depends on every
/// input bit.
const fn fmix64(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^= h >> 33;
    h
}

#[cfg(test)]
pub(super) fn raw_hash(encoded: &[&str]) -> u64 {
    let mut hasher = ShardHasher::new();
    for part in encoded {
        hasher.encoded(part);
    }
    fmix64(hasher.hash)
}
