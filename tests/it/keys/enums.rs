//! `#[derive(KeyPart)]` unit enums: stored as their names (or renames) by
//! default, so adding a variant anywhere changes no stored key; ordered —
//! usable in a sort key — only when the stored names sort as declared,
//! which the derive computes at compile time; `#[key(format = "position")]`
//! keeps the earlier `NN-Name` format, which sorts as declared whatever
//! the names.

use ddb_entity::KeyPart;
use ddb_entity::key::{self, KeyPart as _};
use proptest::prelude::*;

use super::{assert_contract, assert_contract_by, enc};

/// Declared in priority order; alphabetically it would be High < Low <
/// Medium < Urgent: by name it does not sort.
#[derive(KeyPart, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Priority {
    Low,
    Medium,
    High,
    #[key(rename = "URGENT")]
    Urgent,
}

const ALL: [Priority; 4] = [
    Priority::Low,
    Priority::Medium,
    Priority::High,
    Priority::Urgent,
];

/// `Priority` as a later release declares it: a variant inserted in the
/// middle and one appended.
#[derive(KeyPart, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum PriorityV2 {
    Low,
    Medium,
    Elevated,
    High,
    #[key(rename = "URGENT")]
    Urgent,
    Blocker,
}

/// Explicit codes that sort as declared: ordered by name.
#[derive(KeyPart, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Tier {
    #[key(rename = "1-BRONZE")]
    Bronze,
    #[key(rename = "2-SILVER")]
    Silver,
    #[key(rename = "3-GOLD")]
    Gold,
}

const TIERS: [Tier; 3] = [Tier::Bronze, Tier::Silver, Tier::Gold];

/// The earlier default, kept by declaration.
#[derive(KeyPart, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[key(format = "position")]
enum Positioned {
    Low,
    Medium,
    High,
    #[key(rename = "URGENT")]
    Urgent,
}

const POSITIONED: [Positioned; 4] = [
    Positioned::Low,
    Positioned::Medium,
    Positioned::High,
    Positioned::Urgent,
];

/// One name begins another: a hole of it cannot be followed by literal
/// text in its segment.
#[derive(KeyPart, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Stem {
    #[key(rename = "a")]
    A,
    #[key(rename = "ab")]
    Ab,
}

fn priority() -> impl Strategy<Value = Priority> {
    (0..ALL.len()).prop_map(|i| ALL[i])
}

fn tier() -> impl Strategy<Value = Tier> {
    (0..TIERS.len()).prop_map(|i| TIERS[i])
}

fn positioned() -> impl Strategy<Value = Positioned> {
    (0..POSITIONED.len()).prop_map(|i| POSITIONED[i])
}

proptest! {
    /// Unordered by name: round trip and injectivity still hold.
    #[test]
    fn names_round_trip_and_are_injective(a in priority(), b in priority()) {
        assert_contract_by(&a, &b, |x, y| Some(enc(x).cmp(&enc(y))))?;
        prop_assert_eq!(enc(&a) == enc(&b), a == b);
    }

    #[test]
    fn codes_that_sort_keep_the_whole_contract(a in tier(), b in tier()) {
        assert_contract(&a, &b)?;
    }

    #[test]
    fn positions_keep_the_whole_contract(a in positioned(), b in positioned()) {
        assert_contract(&a, &b)?;
    }

    /// As the middle of a composite key: the enum's order decides before
    /// the next component does.
    #[test]
    fn tuple_order(a in tier(), x in any::<u16>(), b in tier(), y in any::<u16>()) {
        let joined = |p: &Tier, n: &u16| format!("{}#{}", enc(p), enc(n));
        prop_assert_eq!(joined(&a, &x).cmp(&joined(&b, &y)), (a, x).cmp(&(b, y)));
    }
}

#[test]
fn stored_text_is_the_name_or_rename() {
    let stored: Vec<String> = ALL.iter().map(enc).collect();
    assert_eq!(stored, ["Low", "Medium", "High", "URGENT"]);
    let positioned: Vec<String> = POSITIONED.iter().map(enc).collect();
    assert_eq!(positioned, ["00-Low", "01-Medium", "02-High", "03-URGENT"]);
}

#[test]
fn order_and_prefixes_are_computed_from_the_stored_names() {
    const { assert!(!Priority::ORDERED) };
    const { assert!(Tier::ORDERED) };
    const { assert!(Positioned::ORDERED) };
    const { assert!(Priority::PREFIX_FREE) };
    const { assert!(!Stem::PREFIX_FREE) };
    assert_eq!(key::encode(&Stem::Ab).unwrap(), "ab");
}

#[test]
fn adding_a_variant_anywhere_changes_no_stored_key() {
    let v2 = [
        PriorityV2::Low,
        PriorityV2::Medium,
        PriorityV2::High,
        PriorityV2::Urgent,
    ];
    for (old, new) in ALL.iter().zip(v2) {
        assert_eq!(enc(old), enc(&new));
        assert_eq!(key::decode::<PriorityV2>(&enc(old)).unwrap(), new);
    }
}

#[test]
fn decoding_is_strict() {
    for bad in ["", "low", "00-Low", "Urgent", "Low#", " Low", "Blocker"] {
        assert!(key::decode::<Priority>(bad).is_err(), "{bad:?}");
    }
    for bad in [
        "",
        "Low",
        "00",
        "00-",
        "00-low",
        "0-Low",
        "01-Low",
        "04-Blocker",
    ] {
        assert!(key::decode::<Positioned>(bad).is_err(), "{bad:?}");
    }
}
