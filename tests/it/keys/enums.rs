//! `#[derive(KeyPart)]` unit enums: keys sort in declaration order (the
//! derived `Ord`) whatever the variants' names, a rename changes only the
//! readable part, and adding a variant at the end changes no stored key.

use ddb_entity::KeyPart;
use ddb_entity::key;
use proptest::prelude::*;

use super::{assert_contract, enc};

/// Declared in priority order; alphabetically it would be High < Low <
/// Medium < Urgent.
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

/// `Priority` as a later release declares it: one variant appended.
#[derive(KeyPart, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum PriorityV2 {
    Low,
    Medium,
    High,
    #[key(rename = "URGENT")]
    Urgent,
    Blocker,
}

fn priority() -> impl Strategy<Value = Priority> {
    (0..ALL.len()).prop_map(|i| ALL[i])
}

proptest! {
    #[test]
    fn contract(a in priority(), b in priority()) {
        assert_contract(&a, &b)?;
    }

    /// As the middle of a composite key: the enum's order decides before
    /// the next component does.
    #[test]
    fn tuple_order(a in priority(), x in any::<u16>(), b in priority(), y in any::<u16>()) {
        let joined = |p: &Priority, n: &u16| format!("{}#{}", enc(p), enc(n));
        prop_assert_eq!(joined(&a, &x).cmp(&joined(&b, &y)), (a, x).cmp(&(b, y)));
    }
}

#[test]
fn stored_text_is_position_and_name() {
    let stored: Vec<String> = ALL.iter().map(enc).collect();
    assert_eq!(stored, ["00-Low", "01-Medium", "02-High", "03-URGENT"]);
}

#[test]
fn appending_a_variant_changes_no_stored_key() {
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
    assert!(enc(&PriorityV2::Urgent) < enc(&PriorityV2::Blocker));
}

#[test]
fn decoding_is_strict() {
    for bad in [
        "",
        "Low",
        "00",
        "00-",
        "00-low",
        "0-Low",
        "01-Low",
        "03-Urgent",
        "04-Blocker",
        "00-Low#",
    ] {
        assert!(key::decode::<Priority>(bad).is_err(), "{bad:?}");
    }
}
