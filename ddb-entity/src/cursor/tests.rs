use std::time::{Duration, UNIX_EPOCH};

use super::*;
use crate::table::KeySchema;

const TABLE: KeySchema = KeySchema {
    partition_key: "PK",
    sort_key: Some("SK"),
};
const GSI1: KeySchema = KeySchema {
    partition_key: "GSI1PK",
    sort_key: Some("GSI1SK"),
};

fn item(pairs: &[(&str, &str)]) -> Item {
    pairs
        .iter()
        .map(|(n, v)| (n.to_string(), AttributeValue::S(v.to_string())))
        .collect()
}

/// A query of table `app`, or of its index `GSI1`, on `partition`.
fn scope<'a>(index: Option<&'a str>, partition: &'a str) -> Scope<'a> {
    Scope {
        table: "app",
        index,
        keys: [if index.is_some() { GSI1 } else { TABLE }, TABLE],
        partition,
        range: None,
        reverse: false,
        filter: None,
        shards: None,
    }
}

fn now() -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_773_480_660)
}

fn fault(result: Result<impl fmt::Debug>) -> CursorFault {
    let err = result.unwrap_err();
    assert_eq!(err.kind(), crate::error::ErrorKind::InvalidCursor, "{err}");
    err.cursor_fault().unwrap()
}

/// A typical table key, and the same item's key on GSI1.
const PK: &str = "CUST#00000000000000000042";
const SK: &str = "ORDER#2026-03-14#00000000000000009003";
const GSI1PK: &str = "ORDER#00000000000000009003";

fn table_key() -> Item {
    item(&[("PK", PK), ("SK", SK)])
}

fn gsi1_key() -> Item {
    item(&[("GSI1PK", GSI1PK), ("GSI1SK", PK), ("PK", PK), ("SK", SK)])
}

#[test]
fn a_cursor_round_trips_through_text_and_checks_where_it_resumes() {
    let last = item(&[("PK", "CUST#1"), ("SK", "ORDER#2026#x")]);
    let here = scope(None, "CUST#1");
    let cursor = Cursor::at(&here, &last, None, now()).unwrap();
    assert!(!cursor.is_sealed());
    let text = cursor.to_string();
    assert!(text.starts_with("c2."), "{text}");
    let parsed: Cursor = text.parse().unwrap();
    assert_eq!(parsed, cursor);
    assert_eq!(parsed.resume(&here, None, now()).unwrap(), last);
    let elsewhere = parsed.resume(&scope(None, "CUST#2"), None, now());
    assert_eq!(fault(elsewhere), CursorFault::Mismatch);
    let on_index = parsed.resume(&scope(Some("GSI1"), "CUST#1"), None, now());
    assert_eq!(fault(on_index), CursorFault::Mismatch);
}

#[test]
fn a_typical_unsealed_cursor_is_short_and_url_safe() {
    let table = Cursor::at(&scope(None, PK), &table_key(), None, now()).unwrap();
    let text = table.to_string();
    assert_eq!(text.len(), 98, "{text}");
    let url_safe = |c: char| c.is_ascii_alphanumeric() || "-_.".contains(c);
    assert!(text.chars().all(url_safe), "{text}");
    let gsi = Cursor::at(&scope(Some("GSI1"), GSI1PK), &gsi1_key(), None, now()).unwrap();
    assert_eq!(gsi.to_string().len(), 193);
}

/// Text of an unsealed cursor with these fields, however forged.
fn forged(index: &str, pairs: &[(&str, &str)]) -> String {
    let mut bytes = Vec::new();
    wire::put_field(&mut bytes, index.as_bytes());
    for (name, value) in pairs {
        wire::put_field(&mut bytes, name.as_bytes());
        wire::put_field(&mut bytes, value.as_bytes());
    }
    let mut text = String::from("c2.");
    wire::encode_base64url(&bytes, &mut text);
    text
}

#[test]
fn only_exactly_the_key_schema_of_the_queried_index_is_accepted() {
    let resume = |index: &str, pairs: &[(&str, &str)], partition: &str| {
        let cursor: Cursor = forged(index, pairs).parse()?;
        let index = (!index.is_empty()).then_some(index);
        cursor.resume(&scope(index, partition), None, now())
    };
    assert!(resume("", &[("PK", "A"), ("SK", "B")], "A").is_ok());
    let g = [
        ("GSI1PK", "O#1"),
        ("GSI1SK", "C#1"),
        ("PK", "C#1"),
        ("SK", "O"),
    ];
    assert!(resume("GSI1", &g, "O#1").is_ok());
    type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a str);
    let refused: [Case<'_>; 9] = [
        // The partition twice: one passes the check, the other is used.
        ("", &[("PK", "A"), ("PK", "Z"), ("SK", "B")], "A"),
        ("", &[("PK", "Z"), ("SK", "B"), ("PK", "A")], "A"),
        ("", &[("PK", "A"), ("SK", "B"), ("SK", "C")], "A"),
        // Missing or extra attributes.
        ("", &[("PK", "A")], "A"),
        ("", &[("PK", "A"), ("SK", "B"), ("GSI1PK", "X")], "A"),
        ("", &[("PK", "A"), ("total", "B")], "A"),
        // An index cursor without the table's keys, and the other way.
        ("GSI1", &[("GSI1PK", "O#1"), ("GSI1SK", "C#1")], "O#1"),
        (
            "",
            &[("GSI1PK", "A"), ("GSI1SK", "C#1"), ("PK", "A"), ("SK", "B")],
            "A",
        ),
        // No key at all.
        ("", &[], "A"),
    ];
    for (index, pairs, partition) in refused {
        let fault = fault(resume(index, pairs, partition));
        assert!(
            matches!(fault, CursorFault::Mismatch | CursorFault::Malformed),
            "{pairs:?}: {fault}"
        );
    }
}

#[test]
fn a_malformed_cursor_is_refused() {
    let cursor = Cursor::at(
        &scope(None, "A"),
        &item(&[("PK", "A"), ("SK", "B")]),
        None,
        now(),
    );
    let text = cursor.unwrap().to_string();
    for bad in [
        "",
        "c2",
        "c2.",
        "c2.zz",
        "c2.AAJQSwFBAlNLAU=",
        "c3.AAJQSwFBAlNLAUI",
        "c1.00000000",
        "s1.AAAA",
        "S1.AAJQSwFBAlNLAUI",
        &text[..text.len() - 2],
        &format!("{text}AA"),
        &format!("{text}."),
    ] {
        let result = bad.parse::<Cursor>();
        assert_eq!(fault(result), CursorFault::Malformed, "{bad:?}");
    }
}

#[cfg(feature = "sealed-cursors")]
mod sealed {
    use super::*;
    use crate::entity::SortRange;

    const KEY_1: [u8; 32] = [1; 32];
    const KEY_2: [u8; 32] = [2; 32];

    fn seal_1() -> CursorSeal {
        CursorSeal::new(1, KEY_1)
    }

    fn sealed(seal: &CursorSeal, scope: &Scope<'_>, key: &Item) -> Cursor {
        let cursor = Cursor::at(scope, key, Some(seal), now()).unwrap();
        assert!(cursor.is_sealed());
        cursor
    }

    fn bytes(cursor: &Cursor) -> &[u8] {
        match &cursor.0 {
            Form::Sealed(bytes) => bytes,
            Form::Plain(_) | Form::Shards(_) | Form::Multi(_) | Form::Segments(_) => {
                panic!("not sealed")
            }
        }
    }

    #[test]
    fn a_sealed_cursor_hides_the_key_and_resumes_its_query() {
        let seal = seal_1();
        let here = scope(None, PK);
        let cursor = sealed(&seal, &here, &table_key());
        let text = cursor.to_string();
        assert!(text.starts_with("s1."), "{text}");
        let parsed: Cursor = text.parse().unwrap();
        assert_eq!(parsed, cursor);
        assert_eq!(
            parsed.resume(&here, Some(&seal), now()).unwrap(),
            table_key()
        );
        // Nothing of the key in the clear.
        let sealed = bytes(&cursor);
        for secret in [&b"ORDER#"[..], b"2026-03-14", b"9003", b"CUST#"] {
            assert!(!sealed.windows(secret.len()).any(|w| w == secret));
        }
        // A random nonce each time: the same position seals differently.
        let again = Cursor::at(&here, &table_key(), Some(&seal), now()).unwrap();
        assert_ne!(again, cursor);
        assert_eq!(
            again.resume(&here, Some(&seal), now()).unwrap(),
            table_key()
        );
        // On an index, the table's keys come back too.
        let gsi = scope(Some("GSI1"), GSI1PK);
        let cursor = Cursor::at(&gsi, &gsi1_key(), Some(&seal), now()).unwrap();
        assert_eq!(cursor.resume(&gsi, Some(&seal), now()).unwrap(), gsi1_key());
    }

    #[test]
    fn typical_sealed_cursors_are_short() {
        let table = scope(None, PK);
        assert_eq!(
            sealed(&seal_1(), &table, &table_key()).to_string().len(),
            110
        );
        let expiring = seal_1().expire_after(Duration::from_secs(3600));
        assert_eq!(
            sealed(&expiring, &table, &table_key()).to_string().len(),
            115
        );
        let gsi = scope(Some("GSI1"), GSI1PK);
        assert_eq!(sealed(&seal_1(), &gsi, &gsi1_key()).to_string().len(), 179);
    }

    #[test]
    fn a_cursor_sealed_for_one_query_is_refused_by_any_other() {
        let seal = seal_1();
        let march = SortRange::from_bounds(Some("ORDER#2026-03"), Some("ORDER#2026-03\u{10FFFF}"));
        let april = SortRange::from_bounds(Some("ORDER#2026-04"), Some("ORDER#2026-04\u{10FFFF}"));
        let nothing = SortRange::from_bounds(Some("B"), Some("A"));
        let everything = SortRange::from_bounds(None, None);
        let here = Scope {
            range: Some(&march),
            ..scope(None, PK)
        };
        let cursor = sealed(&seal, &here, &table_key());
        assert!(cursor.resume(&here, Some(&seal), now()).is_ok());

        let others = [
            Scope {
                table: "app-staging",
                ..here
            },
            Scope {
                partition: "CUST#00000000000000000043",
                ..here
            },
            Scope {
                range: Some(&april),
                ..here
            },
            Scope {
                range: None,
                ..here
            },
            Scope {
                range: Some(&nothing),
                ..here
            },
            Scope {
                reverse: true,
                ..here
            },
            Scope {
                filter: Some(b"#status = :open"),
                ..here
            },
            Scope {
                index: Some("GSI1"),
                keys: [GSI1, TABLE],
                ..here
            },
            Scope {
                index: Some("GSI1"),
                ..here
            },
        ];
        for other in &others {
            let result = cursor.resume(other, Some(&seal), now());
            assert_eq!(fault(result), CursorFault::Unauthentic, "{other:?}");
        }
        // No condition and one that bounds nothing select the same items.
        let whole = scope(None, PK);
        let cursor = sealed(&seal, &whole, &table_key());
        let unbounded = Scope {
            range: Some(&everything),
            ..whole
        };
        assert!(cursor.resume(&unbounded, Some(&seal), now()).is_ok());
        // The associated data of every scope differs from every other's
        // (`whole` is `others`' "no condition").
        let mut bindings: Vec<Vec<u8>> = others
            .iter()
            .chain([&here])
            .map(|scope| scope.binding(SEALED, 1))
            .collect();
        bindings.push(here.binding(SEALED, 2));
        bindings.push(here.binding("s2", 1));
        let count = bindings.len();
        bindings.sort();
        bindings.dedup();
        assert_eq!(bindings.len(), count);
    }

    #[test]
    fn sealed_and_unsealed_cursors_are_not_interchangeable() {
        let here = scope(None, PK);
        let plain = Cursor::at(&here, &table_key(), None, now()).unwrap();
        let result = plain.resume(&here, Some(&seal_1()), now());
        assert_eq!(fault(result), CursorFault::Unsealed);
        let sealed = sealed(&seal_1(), &here, &table_key());
        assert_eq!(
            fault(sealed.resume(&here, None, now())),
            CursorFault::NoSeal
        );
    }

    #[test]
    fn every_bit_flip_truncation_and_extension_is_refused() {
        let seal = seal_1().expire_after(Duration::from_secs(60));
        let here = scope(None, PK);
        let cursor = sealed(&seal, &here, &table_key());
        let text = cursor.to_string();
        let refused = |candidate: &str| match candidate.parse::<Cursor>() {
            Err(err) => err.cursor_fault().unwrap(),
            Ok(cursor) => fault(cursor.resume(&here, Some(&seal), now())),
        };
        let mut tried = 0;
        for at in 0..text.len() {
            for bit in 0..8 {
                let mut flipped = text.clone().into_bytes();
                flipped[at] ^= 1 << bit;
                if let Ok(flipped) = String::from_utf8(flipped) {
                    refused(&flipped);
                    tried += 1;
                }
            }
        }
        assert_eq!(tried, text.len() * 7, "every flip of the low 7 bits");
        for len in 0..text.len() {
            refused(&text[..len]);
        }
        for extra in ["A", "-", "_", "AA", "AAA", "AAAA", "=", ".", "%3D", " "] {
            refused(&format!("{text}{extra}"));
        }
        // Every bit of the sealed bytes, including the key id: none opens.
        let sealed = bytes(&cursor);
        for at in 0..sealed.len() {
            for bit in 0..8 {
                let mut flipped = sealed.to_vec();
                flipped[at] ^= 1 << bit;
                let result = Cursor(Form::Sealed(flipped)).resume(&here, Some(&seal), now());
                assert_eq!(
                    fault(result),
                    CursorFault::Unauthentic,
                    "byte {at} bit {bit}"
                );
            }
        }
    }

    #[test]
    fn rotation_opens_old_cursors_and_seals_with_the_new_key() {
        let here = scope(None, PK);
        let before = seal_1();
        let during = CursorSeal::new(2, KEY_2).also_open(1, KEY_1);
        let after = CursorSeal::new(2, KEY_2);

        let old = sealed(&before, &here, &table_key());
        assert_eq!(bytes(&old)[0], 1);
        assert_eq!(
            old.resume(&here, Some(&during), now()).unwrap(),
            table_key()
        );
        let new = sealed(&during, &here, &table_key());
        assert_eq!(bytes(&new)[0], 2, "sealed with the new key");
        assert!(new.resume(&here, Some(&after), now()).is_ok());
        assert_eq!(
            fault(new.resume(&here, Some(&before), now())),
            CursorFault::Unauthentic
        );
        // Once the old key is dropped, its cursors are refused.
        assert_eq!(
            fault(old.resume(&here, Some(&after), now())),
            CursorFault::Unauthentic
        );
        // An id names a key; another key under the same id opens nothing.
        let impostor = CursorSeal::new(1, KEY_2);
        assert_eq!(
            fault(old.resume(&here, Some(&impostor), now())),
            CursorFault::Unauthentic
        );
        // Several keys under one id: the right one opens it.
        let both = CursorSeal::new(1, KEY_2).also_open(1, KEY_1);
        assert!(old.resume(&here, Some(&both), now()).is_ok());
    }

    #[test]
    fn the_longest_lifetime_saturates_instead_of_overflowing() {
        let here = scope(None, PK);
        let seal = seal_1().expire_after(Duration::MAX);
        // Sealing used to panic ("attempt to add with overflow").
        let cursor = sealed(&seal, &here, &table_key());
        let far = now() + Duration::from_secs(100 * 365 * 24 * 3600);
        assert!(cursor.resume(&here, Some(&seal), far).is_ok());
    }

    #[test]
    fn a_cursor_expires_by_the_clock_to_the_second() {
        let here = scope(None, PK);
        let seal = seal_1().expire_after(Duration::from_millis(59_500));
        let cursor = sealed(&seal, &here, &table_key());
        let at = |seconds: u64| now() + Duration::from_secs(seconds);
        assert!(cursor.resume(&here, Some(&seal), at(59)).is_ok());
        assert_eq!(
            fault(cursor.resume(&here, Some(&seal), at(60))),
            CursorFault::Expired
        );
        // The expiry is in the cursor: a seal without one still holds it.
        assert_eq!(
            fault(cursor.resume(&here, Some(&seal_1()), at(600))),
            CursorFault::Expired
        );
        // A clock that went back is no reason to refuse.
        assert!(
            cursor
                .resume(&here, Some(&seal), at(0) - Duration::from_secs(3600))
                .is_ok()
        );
        // Without an expiry, a cursor lives as long as its key.
        let forever = sealed(&seal_1(), &here, &table_key());
        assert!(
            forever
                .resume(&here, Some(&seal_1()), at(10 * 365 * 86_400))
                .is_ok()
        );
    }
}

/// The composite cursor of a query read over shards.
mod shards {
    use super::*;

    const PREFIX: &str = "STATUS#Open#";

    /// GSI1 of `app`, read over `count` shards of [`PREFIX`].
    fn sharded(count: u16) -> Scope<'static> {
        Scope {
            shards: Some(count),
            ..scope(Some("GSI1"), PREFIX)
        }
    }

    /// The GSI1 key of an item in shard `shard` of 4.
    fn key_in(shard: u16, n: u32) -> Item {
        let partition = format!("{PREFIX}{}", crate::shard::ShardComponent::new(shard, 4));
        let sort = format!("ORDER#{n:010}");
        let pk = format!("ORDER#{n:020}");
        item(&[
            ("GSI1PK", &partition),
            ("GSI1SK", &sort),
            ("PK", &pk),
            ("SK", "ORDER"),
        ])
    }

    fn positions() -> Vec<ShardPosition> {
        vec![
            ShardPosition::After(key_in(0, 7)),
            ShardPosition::Start,
            ShardPosition::Done,
            ShardPosition::After(key_in(3, 9)),
        ]
    }

    #[test]
    fn a_composite_cursor_round_trips_and_is_checked_exactly() {
        let here = sharded(4);
        let cursor = Cursor::at_shards(&here, &positions(), None, None, now()).unwrap();
        let text = cursor.to_string();
        assert!(text.starts_with("m2."), "{text}");
        // The merged position round-trips; the earlier format is refused
        // with its own fault, never read as a position.
        let merged = Cursor::at_shards(&here, &positions(), Some(("NAME#Smith", 3)), None, now())
            .unwrap()
            .to_string();
        let (_, at) = merged
            .parse::<Cursor>()
            .unwrap()
            .resume_shards(&here, None, now())
            .unwrap();
        assert_eq!(at, Some(("NAME#Smith".to_owned(), 3)));
        let old = format!("m1.{}", &text[3..]);
        assert_eq!(fault(old.parse::<Cursor>()), CursorFault::Outdated);
        let parsed: Cursor = text.parse().unwrap();
        assert_eq!(
            parsed.resume_shards(&here, None, now()).unwrap().0,
            positions()
        );
        assert_eq!(
            format!("{parsed:?}"),
            r#"Cursor { index: "GSI1", shards: 4 }"#
        );

        // Another count, partition, index; a one-partition query.
        let other = |count, partition, index| Scope {
            shards: Some(count),
            ..scope(index, partition)
        };
        for scope in [
            other(8, PREFIX, Some("GSI1")),
            other(4, "STATUS#Shipped#", Some("GSI1")),
            other(4, PREFIX, None),
        ] {
            assert_eq!(
                fault(parsed.resume_shards(&scope, None, now())),
                CursorFault::Mismatch
            );
        }
        assert_eq!(
            fault(parsed.resume(&scope(Some("GSI1"), PREFIX), None, now())),
            CursorFault::Mismatch
        );
        // A one-partition cursor on a query read over shards.
        let single = Cursor::at(&scope(Some("GSI1"), GSI1PK), &gsi1_key(), None, now()).unwrap();
        assert_eq!(
            fault(single.resume_shards(&here, None, now())),
            CursorFault::Mismatch
        );
    }

    #[test]
    fn values_are_front_coded_across_shards_on_character_boundaries() {
        let here = sharded(4);
        let with_sort = |shard: u16, sort: &str| {
            let mut key = key_in(shard, 1);
            key.insert("GSI1SK".into(), AttributeValue::S(sort.into()));
            ShardPosition::After(key)
        };
        // Shared prefixes that end inside a character of the next value.
        let positions = vec![
            with_sort(0, "NAME#é"),
            with_sort(1, "NAME#è"),
            ShardPosition::Done,
            with_sort(3, "NAME#"),
        ];
        let cursor = Cursor::at_shards(&here, &positions, None, None, now()).unwrap();
        let parsed: Cursor = cursor.to_string().parse().unwrap();
        assert_eq!(
            parsed.resume_shards(&here, None, now()).unwrap().0,
            positions
        );
        // Repeated values cost two bytes a shard, not the value again.
        let same: Vec<ShardPosition> = (0..4).map(|shard| with_sort(shard, "NAME#Smith")).collect();
        let short = Cursor::at_shards(&here, &same, None, None, now())
            .unwrap()
            .to_string();
        let first = Cursor::at_shards(
            &here,
            &[
                same[0].clone(),
                ShardPosition::Done,
                ShardPosition::Done,
                ShardPosition::Done,
            ],
            None,
            None,
            now(),
        )
        .unwrap()
        .to_string();
        assert!(
            short.len() < first.len() + 3 * 12,
            "{} vs {}",
            short.len(),
            first.len()
        );
    }

    #[test]
    fn only_positions_of_their_own_shards_and_keys_are_written() {
        let here = sharded(4);
        // Shard 1 holding shard 0's key.
        let mut wrong = positions();
        wrong[1] = ShardPosition::After(key_in(0, 1));
        assert_eq!(
            fault(Cursor::at_shards(&here, &wrong, None, None, now())),
            CursorFault::Mismatch
        );
        // A key without the index's sort key.
        let mut partial = key_in(1, 1);
        partial.remove("GSI1SK");
        wrong[1] = ShardPosition::After(partial);
        assert_eq!(
            fault(Cursor::at_shards(&here, &wrong, None, None, now())),
            CursorFault::Mismatch
        );
        // Three positions for four shards.
        assert_eq!(
            fault(Cursor::at_shards(
                &here,
                &positions()[..3],
                None,
                None,
                now()
            )),
            CursorFault::Mismatch
        );
    }

    #[test]
    fn a_malformed_composite_is_refused() {
        let here = sharded(4);
        let text = Cursor::at_shards(&here, &positions(), None, None, now())
            .unwrap()
            .to_string();
        for len in 3..text.len() {
            if let Ok(cursor) = text[..len].parse::<Cursor>() {
                assert!(cursor.resume_shards(&here, None, now()).is_err(), "{len}");
            }
        }
        // Every shard done is no cursor a page hands out.
        let done = Positions {
            index: "GSI1".into(),
            prefix: PREFIX.into(),
            count: 4,
            content: vec![2, 2, 2, 2, 0],
        };
        assert_eq!(
            fault(Cursor(Form::Shards(done)).resume_shards(&here, None, now())),
            CursorFault::Malformed
        );
        let unknown = Positions {
            index: "GSI1".into(),
            prefix: PREFIX.into(),
            count: 4,
            content: vec![0, 9, 0, 0],
        };
        assert_eq!(
            fault(Cursor(Form::Shards(unknown)).resume_shards(&here, None, now())),
            CursorFault::Malformed
        );
    }

    #[cfg(feature = "sealed-cursors")]
    #[test]
    fn a_sealed_composite_opens_only_for_its_query_and_count() {
        let seal = CursorSeal::new(1, [3; 32]);
        let here = sharded(4);
        let cursor = Cursor::at_shards(&here, &positions(), None, Some(&seal), now()).unwrap();
        assert!(cursor.is_sealed());
        let text = cursor.to_string();
        let parsed: Cursor = text.parse().unwrap();
        assert_eq!(
            parsed.resume_shards(&here, Some(&seal), now()).unwrap().0,
            positions()
        );
        for other in [
            sharded(8),
            Scope {
                reverse: true,
                ..sharded(4)
            },
            Scope {
                shards: None,
                ..sharded(4)
            },
        ] {
            let result = match other.shards {
                Some(_) => parsed.resume_shards(&other, Some(&seal), now()).map(drop),
                None => parsed.resume(&other, Some(&seal), now()).map(drop),
            };
            assert_eq!(fault(result), CursorFault::Unauthentic);
        }
        // Every bit of the sealed bytes: none opens.
        let Form::Sealed(sealed) = &parsed.0 else {
            panic!("sealed")
        };
        for at in 0..sealed.len() {
            for bit in 0..8 {
                let mut flipped = sealed.clone();
                flipped[at] ^= 1 << bit;
                let result = Cursor(Form::Sealed(flipped)).resume_shards(&here, Some(&seal), now());
                assert_eq!(
                    fault(result),
                    CursorFault::Unauthentic,
                    "byte {at} bit {bit}"
                );
            }
        }
    }
}

mod segments {
    use super::*;

    fn positions() -> Vec<(u32, ShardPosition)> {
        vec![
            (0, ShardPosition::Done),
            (1, ShardPosition::After(table_key())),
            (2, ShardPosition::Start),
            (3, ShardPosition::Start),
        ]
    }

    #[test]
    fn a_scan_cursor_round_trips_leaving_out_segments_at_their_start() {
        let cursor = Cursor::at_segments(None, 4, &positions()).unwrap();
        let text = cursor.to_string();
        assert!(text.starts_with("p1."), "{text}");
        let parsed: Cursor = text.parse().unwrap();
        assert_eq!(parsed, cursor);
        let resumed = parsed.resume_segments(None, 4, &["PK", "SK"]).unwrap();
        assert_eq!(resumed, positions()[..2]);
        // Not a segment's own cursor, nor any query's.
        assert_eq!(parsed.scan_segment(), None);
        assert_eq!(
            fault(parsed.resume(&scope(None, PK), None, now())),
            CursorFault::Mismatch
        );
        let segment = Cursor::for_scan(None, 2, 4, &table_key()).unwrap();
        assert_eq!(segment.scan_segment(), Some(2));
        assert_eq!(
            fault(segment.resume_segments(None, 4, &["PK", "SK"])),
            CursorFault::Mismatch
        );
    }

    #[test]
    fn a_scan_cursor_of_another_scan_is_refused() {
        let cursor = Cursor::at_segments(None, 4, &positions()).unwrap();
        for (index, total, keys) in [
            (Some("GSI1"), 4, &["GSI1PK", "GSI1SK", "PK", "SK"][..]),
            (None, 3, &["PK", "SK"][..]),
            (None, 4, &["PK"][..]),
        ] {
            assert_eq!(
                fault(cursor.resume_segments(index, total, keys)),
                CursorFault::Mismatch,
                "{index:?} {total}"
            );
        }
    }

    #[test]
    fn a_malformed_scan_cursor_is_refused_never_a_panic() {
        let text = Cursor::at_segments(None, 4, &positions())
            .unwrap()
            .to_string();
        for len in 3..text.len() {
            if let Ok(cursor) = text[..len].parse::<Cursor>() {
                assert!(
                    cursor.resume_segments(None, 4, &["PK", "SK"]).is_err(),
                    "{len}"
                );
            }
        }
        // Every low bit of every byte flipped: refused or read as another
        // position of this scan, never a panic.
        let Form::Segments(bytes) = Cursor::at_segments(None, 4, &positions()).unwrap().0 else {
            unreachable!()
        };
        for at in 0..bytes.len() {
            for bit in 0..7 {
                let mut forged = bytes.clone();
                forged[at] ^= 1 << bit;
                let _ = Cursor(Form::Segments(forged)).resume_segments(None, 4, &["PK", "SK"]);
            }
        }
        // Segments out of order, out of range, or of an unknown tag.
        let mut header = Vec::new();
        wire::put_field(&mut header, b"");
        wire::put_varint(&mut header, 4);
        for entries in [vec![2u8, 2, 2, 1, 2], vec![1, 7, 2], vec![1, 1, 9]] {
            let mut forged = header.clone();
            forged.extend(entries);
            assert_eq!(
                fault(Cursor(Form::Segments(forged)).resume_segments(None, 4, &["PK", "SK"])),
                CursorFault::Malformed
            );
        }
    }
}
