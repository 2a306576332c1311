//! What generated code calls. Not public API: no semver promise.

pub use serde;

pub use crate::entity::SortKeyBuilder;
pub use crate::key::{DecodeKeyPart, KeyBuf, KeyError, KeyPart, Padded, PaddedInt, PrefixOf};

/// Compile-time check that an index belongs to the entity's table; named so
/// the error reads well.
pub const fn index_of_table<I: crate::Index<Table = T>, T: crate::Table>() {}

/// Whether the index declares a sort key, for a const assertion.
pub const fn index_has_sort_key<I: crate::Index>() -> bool {
    I::SCHEMA.keys.sort_key.is_some()
}

/// Compile-time check that a hole's type is a key part, reported at the hole.
pub const fn assert_key_part<T: KeyPart + ?Sized>() {}
