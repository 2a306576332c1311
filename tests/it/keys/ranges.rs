//! `SortRange`: what each typed sort-key condition selects, against a
//! model of the typed values — for every string, including those that sit
//! on component boundaries — and never an empty bound.

use ddb_entity::Entity;
use proptest::prelude::*;

use super::strings::text;
use crate::ranges::{OPS, Person, PersonProbe};

fn probe() -> impl Strategy<Value = PersonProbe> {
    prop_oneof![
        Just(PersonProbe::All),
        text().prop_map(PersonProbe::LastCut),
        text().prop_map(PersonProbe::Last),
        (text(), text()).prop_map(|(l, q)| PersonProbe::FirstCut(l, q)),
        (text(), text()).prop_map(|(l, f)| PersonProbe::Whole(l, f)),
    ]
}

/// A person and a probe that often share a prefix with it.
fn person_and_probe() -> impl Strategy<Value = ((String, String), PersonProbe)> {
    prop_oneof![
        ((text(), text()), probe()),
        ((text(), text()), text(), text()).prop_map(|((l, f), tail, other)| {
            let probe = PersonProbe::Whole(l.clone(), f.clone() + &tail);
            let person = if other.is_empty() { (l, f) } else { (l, other) };
            (person, probe)
        }),
        ((text(), text()), text()).prop_map(|((l, f), tail)| {
            let cut: String = f.chars().take(2).collect();
            ((l.clone(), f + &tail), PersonProbe::FirstCut(l, cut))
        }),
        ((text(), text()), text())
            .prop_map(|((l, f), tail)| { ((l.clone() + &tail, f), PersonProbe::Last(l)) }),
    ]
}

fn sort_key(last: &str, first: &str) -> Option<String> {
    let person = Person {
        group: 1,
        last: last.to_owned(),
        first: first.to_owned(),
    };
    let key = person.primary_key().ok()?;
    Some(key.sort().to_owned())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn each_operator_selects_what_the_typed_values_mean(((last, first), probe) in person_and_probe()) {
        // Over-long keys are refused when built; nothing to compare.
        let Some(key) = sort_key(&last, &first) else { return Ok(()) };
        for op in OPS {
            let Ok(range) = op.range(probe.key()) else { continue };
            prop_assert_ne!(range.low(), Some(""));
            prop_assert_ne!(range.high(), Some(""));
            let expected = op.selects(probe.place(&last, &first));
            prop_assert_eq!(range.contains(&key), expected, "{:?} {:?} on {:?}/{:?} = {:?}: {:?}", op, probe, last, first, key, range);
        }
    }

    #[test]
    fn between_selects_from_the_first_through_the_last(
        ((last, first), low) in person_and_probe(),
        high in probe(),
    ) {
        let Some(key) = sort_key(&last, &first) else { return Ok(()) };
        let Ok(range) = ddb_entity::SortRange::between(low.key(), high.key()) else { return Ok(()) };
        let expected = low.place(&last, &first) >= 0 && high.place(&last, &first) <= 0;
        prop_assert_eq!(range.contains(&key), expected, "{:?}..{:?} on {:?}", low, high, key);
    }

    /// Neighbours of the key space: what sorts just before and after
    /// `NAME#…` is never in an open range of persons.
    #[test]
    fn open_ranges_never_leave_the_key_space(probe in probe(), neighbour in prop_oneof![
        Just("NAME".to_owned()), Just("NAME\"".to_owned()), Just("NAME$".to_owned()),
        Just("NAMEX#1".to_owned()), Just("PROFILE".to_owned()), Just("ADDR#1".to_owned()),
        Just("NAME\u{10FFFF}".to_owned()),
    ]) {
        for op in OPS {
            let Ok(range) = op.range(probe.key()) else { continue };
            prop_assert!(!range.contains(&neighbour), "{:?} {:?} holds {:?}", op, probe, neighbour);
        }
    }
}
