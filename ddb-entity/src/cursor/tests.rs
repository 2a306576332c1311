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
        index,
        keys: [if index.is_some() { GSI1 } else { TABLE }, TABLE],
        partition,
    }
}

fn fault(result: Result<impl fmt::Debug>) -> CursorFault {
    let err = result.unwrap_err();
    assert_eq!(err.kind(), crate::ErrorKind::InvalidCursor, "{err}");
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
    let cursor = Cursor::at(&here, &last).unwrap();
    let text = cursor.to_string();
    assert!(text.starts_with("c2."), "{text}");
    let parsed: Cursor = text.parse().unwrap();
    assert_eq!(parsed, cursor);
    assert_eq!(parsed.resume(&here).unwrap(), last);
    let elsewhere = parsed.resume(&scope(None, "CUST#2"));
    assert_eq!(fault(elsewhere), CursorFault::Mismatch);
    let on_index = parsed.resume(&scope(Some("GSI1"), "CUST#1"));
    assert_eq!(fault(on_index), CursorFault::Mismatch);
}

#[test]
fn a_typical_unsealed_cursor_is_short_and_url_safe() {
    let table = Cursor::at(&scope(None, PK), &table_key()).unwrap();
    let text = table.to_string();
    assert_eq!(text.len(), 98, "{text}");
    let url_safe = |c: char| c.is_ascii_alphanumeric() || "-_.".contains(c);
    assert!(text.chars().all(url_safe), "{text}");
    let gsi = Cursor::at(&scope(Some("GSI1"), GSI1PK), &gsi1_key()).unwrap();
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
        cursor.resume(&scope(index, partition))
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
    let cursor = Cursor::at(&scope(None, "A"), &item(&[("PK", "A"), ("SK", "B")]));
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
