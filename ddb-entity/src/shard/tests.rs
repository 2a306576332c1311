//! The shard function is frozen: these values were computed by an
//! independent implementation of the documented definition (Python, from
//! the module docs alone) and must never change.

use super::hash::raw_hash;
use super::*;

/// (count, encoded parts, shard, mixed 64-bit hash)
const GOLDEN: &[(u16, &[&str], u16, u64)] = &[
    (16, &["00000000000000000001"], 11, 0xa3bc_82c7_1121_217b),
    (16, &["00000000000000009931"], 15, 0x875a_3572_eab1_92df),
    (7, &["01-Open", "alice"], 3, 0xdadf_17b2_01e7_998d),
    (1000, &["00000000000000000042"], 122, 0x8816_95fd_a8f4_497a),
    (16, &[""], 6, 0xefd0_1f60_ba99_2926),
    (2, &["a$`b"], 1, 0x2e26_ea03_d4a1_9f53),
    (64, &["2026-03-14", "0000000007"], 34, 0xf19c_9e9b_4a19_76a2),
    (16, &["héllo"], 13, 0xc185_4127_47a0_264d),
];

#[test]
fn the_shard_function_matches_its_golden_values() {
    for &(count, parts, shard, hash) in GOLDEN {
        assert_eq!(raw_hash(parts), hash, "{parts:?}");
        assert_eq!(shard_of(count, parts), shard, "{parts:?} % {count}");
    }
}

#[test]
fn the_hasher_encodes_each_input_as_its_key_part() {
    let mut hasher = ShardHasher::new();
    hasher.input(&7u32).unwrap().input("a b").unwrap();
    assert_eq!(hasher.shard(64), shard_of(64, &["0000000007", "a$`b"]));
    // The join is a `#` no encoding contains: ("ab", "c") is not ("a", "bc").
    assert_ne!(raw_hash(&["ab", "c"]), raw_hash(&["a", "bc"]));
    assert_ne!(raw_hash(&["ab"]), raw_hash(&["a", "b"]));
    // A value that cannot be encoded is an error, not a shard.
    assert_eq!(
        ShardHasher::new().input(&f64::NAN).unwrap_err(),
        crate::key::KeyError::NaN
    );
}

#[test]
fn a_spec_renders_as_written() {
    let spec = ShardSpec::new(16, &["customer_id", "order_id"]);
    assert_eq!(spec.to_string(), "{shard(customer_id, order_id) % 16}");
    assert_eq!(spec.component(0).to_string(), "00/16");
    assert_eq!(spec.component(15).to_string(), "15/16");
}
