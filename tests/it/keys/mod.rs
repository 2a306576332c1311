//! The key-encoding contract of DESIGN.md §3, proven for every key part:
//! order, round trip and injectivity of single values and of `#`-joined
//! tuples, honest prefixes and range bounds, strict decoding, and
//! adversarial values that must neither panic nor mis-sort.

mod adopted;
mod bound;
mod delimited;
mod enums;
mod floats;
mod ids;
mod ints;
mod prefixes;
mod ranges;
mod robustness;
mod scalars;
mod shards;
mod strings;
mod templates;
mod time;
mod tuples;

use std::cmp::Ordering;
use std::fmt::Debug;

use ddb_entity::key::{self, DecodeKeyPart, KeyPart};
use proptest::prelude::*;

/// Encodes a value the test expects to be encodable.
fn enc<P: KeyPart + ?Sized + Debug>(part: &P) -> String {
    match key::encode(part) {
        Ok(encoded) => encoded,
        Err(err) => panic!("{part:?} did not encode: {err}"),
    }
}

/// Rule 4 of the contract: every byte above the delimiter `#`.
fn assert_component_bytes(encoded: &str) -> Result<(), TestCaseError> {
    prop_assert!(
        encoded.bytes().all(|b| b > b'#'),
        "component {encoded:?} has a byte <= 0x23"
    );
    Ok(())
}

/// The whole single-value contract for one pair of a totally ordered type:
/// order (and equality) agree bytewise, both round trip, both obey the byte
/// rule.
fn assert_contract<T>(a: &T, b: &T) -> Result<(), TestCaseError>
where
    T: KeyPart + DecodeKeyPart + Ord + Debug,
{
    assert_contract_by(a, b, |x, y| Some(x.cmp(y)))
}

/// As [`assert_contract`], with the type's order given by `cmp` (`None`
/// only for values the type cannot encode, which callers exclude).
fn assert_contract_by<T>(
    a: &T,
    b: &T,
    cmp: impl Fn(&T, &T) -> Option<Ordering>,
) -> Result<(), TestCaseError>
where
    T: KeyPart + DecodeKeyPart + PartialEq + Debug,
{
    let (ea, eb) = (enc(a), enc(b));
    prop_assert_eq!(
        Some(ea.as_bytes().cmp(eb.as_bytes())),
        cmp(a, b),
        "order of {:?} vs {:?} encoded as {:?} vs {:?}",
        a,
        b,
        ea,
        eb
    );
    // Injectivity, spelled out: equal keys only from equal values.
    if ea == eb {
        prop_assert_eq!(a, b);
    }
    for (value, encoded) in [(a, &ea), (b, &eb)] {
        assert_component_bytes(encoded)?;
        prop_assert_eq!(&key::decode::<T>(encoded)?, value);
    }
    Ok(())
}
