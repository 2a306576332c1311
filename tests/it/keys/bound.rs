//! `prefix_upper_bound`: `BETWEEN prefix AND bound` selects exactly the
//! sort keys (at most 1024 bytes) that start with the prefix.

use ddb_entity::key::{SORT_KEY_MAX_BYTES, greatest_below, prefix_successor, prefix_upper_bound};
use proptest::prelude::*;

use super::strings::text;

/// Text rich in the characters the bound is built from and their
/// neighbours: the largest of each UTF-8 length and the first of the next.
fn edgy() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-c#\u{7e}\u{7f}\u{80}\u{7fe}\u{7ff}\u{800}\u{fffe}\u{ffff}\u{10000}\u{10fffe}\u{10ffff}]{0,6}",
        text(),
    ]
}

/// Long runs of the largest characters, to reach the 1024-byte limit.
fn long() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec!['\u{10ffff}', '\u{ffff}', '\u{7ff}', '\u{7f}', 'z']),
        0usize..=1030,
        edgy(),
    )
        .prop_map(|(c, n, tail)| {
            let mut s: String = std::iter::repeat_n(c, n / c.len_utf8()).collect();
            s.push_str(&tail);
            s
        })
}

fn prefix() -> impl Strategy<Value = String> {
    prop_oneof![3 => edgy(), 1 => long()]
}

/// Cuts `s` to at most `max` bytes on a char boundary.
fn fit(mut s: String, max: usize) -> String {
    while s.len() > max {
        s.pop();
    }
    s
}

/// The first string after every string under `p`, where one exists: `p`
/// with its last character raised by one.
fn next_after(p: &str) -> Option<String> {
    let mut s = p.to_owned();
    let last = s.pop()?;
    let next = (u32::from(last) + 1..=0x10ffff).find_map(char::from_u32)?;
    s.push(next);
    Some(s)
}

/// Candidate sort keys: under the prefix, beside it, or anywhere.
fn candidate(p: String) -> impl Strategy<Value = (String, String)> {
    let len = p.len();
    prop_oneof![
        prop_oneof![edgy(), long()].prop_map({
            let p = p.clone();
            move |s| (p.clone(), fit(p.clone() + &s, SORT_KEY_MAX_BYTES))
        }),
        (0..=len, edgy()).prop_map({
            let p = p.clone();
            move |(cut, s)| (p.clone(), fit(fit(p.clone(), cut) + &s, SORT_KEY_MAX_BYTES))
        }),
        edgy().prop_map(move |s| (p.clone(), s)),
    ]
}

proptest! {
    #[test]
    fn between_prefix_and_bound_is_exactly_begins_with((p, q) in prefix().prop_flat_map(candidate)) {
        let bound = prefix_upper_bound(&p);
        prop_assert!(bound.starts_with(&p));
        prop_assert_eq!(bound.len(), SORT_KEY_MAX_BYTES.max(p.len()));
        prop_assume!(q.len() <= SORT_KEY_MAX_BYTES);
        let between = p.as_bytes() <= q.as_bytes() && q.as_bytes() <= bound.as_bytes();
        prop_assert_eq!(between, q.starts_with(&p), "p={:?} q={:?}", p, q);
    }

    #[test]
    fn the_next_string_after_the_prefix_is_above_the_bound(p in prefix()) {
        let bound = prefix_upper_bound(&p);
        if let Some(next) = next_after(&p) {
            prop_assert!(next.as_bytes() > bound.as_bytes(), "p={:?} next={:?}", p, next);
        }
        // The greatest key under the prefix is the bound itself.
        if p.len() <= SORT_KEY_MAX_BYTES {
            prop_assert!(bound.starts_with(&p) && bound.len() <= SORT_KEY_MAX_BYTES);
        }
    }
}

proptest! {
    /// `> everything under p` is `>= prefix_successor(p)`, exactly.
    #[test]
    fn the_successor_is_the_first_string_after_everything_under_the_prefix((p, q) in prefix().prop_flat_map(candidate)) {
        prop_assume!(q.len() <= SORT_KEY_MAX_BYTES);
        let after_all = !q.starts_with(&p) && q.as_bytes() > p.as_bytes();
        match prefix_successor(&p) {
            Some(next) => prop_assert_eq!(q.as_bytes() >= next.as_bytes(), after_all, "p={:?} q={:?}", p, q),
            None => prop_assert!(!after_all, "nothing is after every string under {:?}, but {:?} is", p, q),
        }
    }

    /// `< key` is `<= greatest_below(key)`, exactly, for storable keys.
    #[test]
    fn the_greatest_below_is_the_last_string_before_a_key((p, q) in prefix().prop_flat_map(candidate)) {
        prop_assume!(q.len() <= SORT_KEY_MAX_BYTES && p.len() <= SORT_KEY_MAX_BYTES);
        let before = q.as_bytes() < p.as_bytes();
        match greatest_below(&p) {
            Some(below) => {
                prop_assert!(below.len() <= SORT_KEY_MAX_BYTES);
                prop_assert_eq!(q.as_bytes() <= below.as_bytes(), before, "p={:?} q={:?}", p, q);
            }
            None => prop_assert!(p.is_empty() && !before),
        }
    }
}

#[test]
fn filler_by_remaining_bytes() {
    let tail = |p: &str| prefix_upper_bound(p)[p.len()..].chars().collect::<Vec<_>>();
    let max = '\u{10ffff}';
    assert!(tail(&"a".repeat(1024)).is_empty());
    assert_eq!(tail(&"a".repeat(1023)), vec!['\u{7f}']);
    assert_eq!(tail(&"a".repeat(1022)), vec!['\u{7ff}']);
    assert_eq!(tail(&"a".repeat(1021)), vec!['\u{ffff}']);
    assert_eq!(tail(&"a".repeat(1020)), vec![max]);
    assert_eq!(tail(&"a".repeat(1019)), vec![max, '\u{7f}']);
    assert_eq!(prefix_upper_bound(&"a".repeat(2000)), "a".repeat(2000));
    assert_eq!(tail("").len(), 256);

    // The example of the issue: the month's bound includes its last day.
    let hi = prefix_upper_bound("ORDER#2026-03");
    assert!("ORDER#2026-03-31#00000000000000000007" <= hi.as_str());
    assert!("ORDER#2026-04" > hi.as_str());
    assert!("ORDER#2026-03\u{10ffff}\u{10ffff}" <= hi.as_str());
}
