//! A Query's or a Scan's response body, split into its items (each kept as
//! its span of the body, parsed once later, when handed out) and the rest
//! of the page, parsed here by serde: `Count`, `ScannedCount`,
//! `LastEvaluatedKey`, `ConsumedCapacity`.
//!
//! Finding where an item ends takes a scan of its text 64 bytes at a time
//! ([`blocks`]: the insides of strings masked out, only the brackets left
//! looked at), building nothing. The scan checks the page's own structure
//! (the object, the `Items` array, the commas between items); each item's
//! text is checked whole when it is parsed. A body cut short is an error
//! here.

use std::ops::Range;

mod blocks;

/// The page, its items as spans of the text.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Split<'a> {
    pub(crate) items: Vec<Range<usize>>,
    /// `Count`, `ScannedCount`, `LastEvaluatedKey`, `ConsumedCapacity`
    /// and any other member, as its value's text.
    pub(crate) members: Vec<(&'a str, &'a str)>,
}

type Scan<T> = Result<T, String>;

/// The capacity units a response reports (what [`Spent`](crate::capacity::Spent) reads).
#[derive(serde::Deserialize)]
struct WireCapacity {
    #[serde(rename = "CapacityUnits")]
    total: Option<f64>,
    #[serde(rename = "ReadCapacityUnits")]
    read: Option<f64>,
    #[serde(rename = "WriteCapacityUnits")]
    write: Option<f64>,
}

/// A response's `ConsumedCapacity` member (one object), as the SDK holds
/// it: the units [`Spent`](crate::capacity::Spent) reads.
pub(crate) fn wire_capacity(
    value: &str,
) -> Result<Option<aws_sdk_dynamodb::types::ConsumedCapacity>, serde_json::Error> {
    let capacity = serde_json::from_str::<Option<WireCapacity>>(value)?;
    Ok(capacity.map(|c| {
        aws_sdk_dynamodb::types::ConsumedCapacity::builder()
            .set_capacity_units(c.total)
            .set_read_capacity_units(c.read)
            .set_write_capacity_units(c.write)
            .build()
    }))
}

/// The member `name`'s `value` (its text, from [`Split::members`]) read
/// as `T`; every member a response's reader does not use is still read,
/// as [`IgnoredAny`](serde::de::IgnoredAny), so a body that is not JSON
/// fails whole.
pub(crate) fn member<'a, T: serde::Deserialize<'a>>(name: &str, value: &'a str) -> Scan<T> {
    serde_json::from_str(value).map_err(|err| member_error(name, err))
}

/// What is wrong with the member `name`'s value.
pub(crate) fn member_error(name: &str, err: impl std::fmt::Display) -> String {
    format!("{name}: {err}")
}

/// Splits the page `text`.
pub(crate) fn split(text: &str) -> Scan<Split<'_>> {
    let b = text.as_bytes();
    let mut split = Split::default();
    let mut at = expect(b, ws(b, 0), b'{')?;
    at = ws(b, at);
    if b.get(at) == Some(&b'}') {
        return end(b, at + 1).map(|()| split);
    }
    loop {
        let key_end = string(b, at)?;
        let key = &text[at + 1..key_end - 1];
        at = ws(b, expect(b, ws(b, key_end), b':')?);
        if key == "Items" {
            at = items(b, at, &mut split.items)?;
        } else {
            let value_end = value(b, at)?;
            split.members.push((key, &text[at..value_end]));
            at = value_end;
        }
        at = ws(b, at);
        match b.get(at) {
            Some(b',') => at = ws(b, at + 1),
            Some(b'}') => return end(b, at + 1).map(|()| split),
            _ => return Err(unexpected(b, at, "`,` or `}` after a member of the page")),
        }
    }
}

/// The `Items` array at `at`: each item's span; returns where it ends.
fn items(b: &[u8], at: usize, items: &mut Vec<Range<usize>>) -> Scan<usize> {
    let mut at = ws(b, expect(b, at, b'[')?);
    if b.get(at) == Some(&b']') {
        return Ok(at + 1);
    }
    loop {
        if b.get(at) != Some(&b'{') {
            return Err(unexpected(b, at, "an item (an object)"));
        }
        let item_end = value(b, at)?;
        items.push(at..item_end);
        at = ws(b, item_end);
        match b.get(at) {
            Some(b',') => at = ws(b, at + 1),
            Some(b']') => return Ok(at + 1),
            _ => return Err(unexpected(b, at, "`,` or `]` after an item")),
        }
    }
}

/// Where the value at `at` ends: a string, an object or array (to its
/// matching bracket, strings skipped whole), or a scalar (to the next
/// delimiter).
fn value(b: &[u8], at: usize) -> Scan<usize> {
    match b.get(at) {
        None => Err(cut()),
        Some(b'"') => string(b, at),
        Some(b'{' | b'[') => match blocks::nested_end(b, at) {
            Some(Ok(end)) => Ok(end),
            Some(Err(())) => Err(cut()),
            None => nested_bytes(b, at),
        },
        Some(_) => {
            let len = b[at..]
                .iter()
                .position(|c| matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'))
                .unwrap_or(b.len() - at);
            if len == 0 {
                return Err(unexpected(b, at, "a value"));
            }
            Ok(at + len)
        }
    }
}

/// Where the object or array at `at` ends, byte by byte: to its matching
/// bracket, strings skipped whole (what [`blocks::nested_end`] answers 64
/// bytes at a time, and hands back here when a backslash stands outside a
/// string).
fn nested_bytes(b: &[u8], at: usize) -> Scan<usize> {
    let mut depth = 0usize;
    let mut i = at;
    while let Some(&c) = b.get(i) {
        match c {
            b'"' => {
                i = string(b, i)?;
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return Ok(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    Err(cut())
}

/// Where the string starting at `at` (a quote) ends, after its closing
/// quote. Most strings of an item are short (names, types, keys): their
/// first bytes are looked at one by one, and `memchr` (whose setup costs
/// more than a short string) takes over past them.
#[inline]
fn string(b: &[u8], at: usize) -> Scan<usize> {
    const SHORT: usize = 16;
    let mut i = expect(b, at, b'"')?;
    loop {
        let short = b.get(i..(i + SHORT).min(b.len())).unwrap_or_default();
        let found = match short.iter().position(|&c| c == b'"' || c == b'\\') {
            Some(k) => Some(k),
            None if short.len() < SHORT => None,
            None => memchr::memchr2(b'"', b'\\', &b[i + SHORT..]).map(|k| k + SHORT),
        };
        match found {
            None => return Err(cut()),
            Some(k) if b[i + k] == b'\\' => i += k + 2,
            Some(k) => return Ok(i + k + 1),
        }
    }
}

/// After `c` at `at`.
#[inline]
fn expect(b: &[u8], at: usize, c: u8) -> Scan<usize> {
    if b.get(at) == Some(&c) {
        Ok(at + 1)
    } else {
        Err(unexpected(b, at, &format!("`{}`", c as char)))
    }
}

/// Nothing but white space after `at`.
fn end(b: &[u8], at: usize) -> Scan<()> {
    let at = ws(b, at);
    if at == b.len() {
        Ok(())
    } else {
        Err(unexpected(b, at, "the end of the body"))
    }
}

/// After the white space at `at`.
fn ws(b: &[u8], mut at: usize) -> usize {
    while matches!(b.get(at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        at += 1;
    }
    at
}

fn cut() -> String {
    "the body ends inside a value".to_owned()
}

fn unexpected(b: &[u8], at: usize, expected: &str) -> String {
    match b.get(at) {
        None => format!("the body ends where {expected} was expected"),
        Some(c) => format!(
            "expected {expected} at byte {at}, found `{}`",
            (*c as char).escape_default()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::value::RawValue;

    /// The spans serde_json's own parse finds.
    /// A page's item texts and its other members (name, value text).
    type Parts<'a> = (Vec<&'a str>, Vec<(String, String)>);

    fn by_serde(text: &str) -> Option<Parts<'_>> {
        let mut page: std::collections::BTreeMap<String, &RawValue> =
            serde_json::from_str(text).ok()?;
        let items: Vec<&RawValue> = match page.remove("Items") {
            Some(items) => serde_json::from_str(items.get()).ok()?,
            None => Vec::new(),
        };
        let items = items.iter().map(|item| item.get()).collect();
        let rest = page
            .into_iter()
            .map(|(key, value)| (key, value.get().to_owned()))
            .collect();
        Some((items, rest))
    }

    fn by_split(text: &str) -> Option<Parts<'_>> {
        let split = split(text).ok()?;
        let items = split.items.iter().map(|span| &text[span.clone()]).collect();
        let mut rest: Vec<(String, String)> = split
            .members
            .iter()
            .map(|(key, value)| (key.to_string(), value.to_string()))
            .collect();
        rest.sort();
        Some((items, rest))
    }

    #[test]
    fn pages_split_as_serde_json_reads_them() {
        let pages = [
            r#"{"Items":[],"Count":0,"ScannedCount":0}"#,
            r#"{}"#,
            r#" { "Count" : 2 , "Items" : [ {"PK":{"S":"a\"}b]"}} , {"PK":{"S":"\\"},"L":{"L":[{"M":{}},{"N":"1"}]}} ] , "ScannedCount" : 5 } "#,
            r#"{"Items":[{"PK":{"S":"x"}}],"LastEvaluatedKey":{"PK":{"S":"x"}},"ConsumedCapacity":{"TableName":"t","CapacityUnits":0.5}}"#,
            r#"{"Items":[{"S":{"S":"日本 \u00e9 \\u \""}}],"Count":1}"#,
        ];
        for page in pages {
            assert_eq!(by_split(page), by_serde(page), "{page}");
        }
    }

    #[test]
    fn a_body_cut_anywhere_or_broken_between_items_is_an_error() {
        let page = r#"{"Items":[{"PK":{"S":"a\"b"}},{"PK":{"S":"c"}}],"Count":2,"ScannedCount":2}"#;
        for cut in 0..page.len() {
            assert!(split(&page[..cut]).is_err(), "{}", &page[..cut]);
        }
        for broken in [
            r#"{"Items":[{"PK":{"S":"a"}} {"PK":{"S":"c"}}],"Count":2}"#,
            r#"{"Items":[{"PK":{"S":"a"}},],"Count":2}"#,
            r#"{"Items":["a"],"Count":2}"#,
            r#"{"Items":[{"PK":{"S":"a"}}] "Count":2}"#,
            r#"{"Items":[]}x"#,
            r#"["Items"]"#,
        ] {
            assert!(split(broken).is_err(), "{broken}");
        }
    }

    proptest::proptest! {
        /// Random DynamoDB JSON pages, compact or with white space between
        /// every token: the split finds what serde_json finds, and the
        /// page cut at any byte is an error.
        #[test]
        fn any_dynamodb_page_splits_as_serde_json_reads_it(
            items in proptest::collection::vec(
                proptest::collection::btree_map(r#"[A-Za-z_#\\"]{1,8}"#, crate::codec::wire::arbitrary_value(), 0..5),
                0..5,
            ),
            pretty: bool,
        ) {
            let page = serde_json::json!({
                "Items": items,
                "Count": items.len(),
                "ScannedCount": items.len(),
                "LastEvaluatedKey": {"PK": {"S": "a\\\"}"}},
            });
            let text = if pretty {
                serde_json::to_string_pretty(&page).unwrap()
            } else {
                serde_json::to_string(&page).unwrap()
            };
            proptest::prop_assert_eq!(by_split(&text), by_serde(&text));
            for cut in 0..text.len() {
                if text.is_char_boundary(cut) {
                    proptest::prop_assert!(split(&text[..cut]).is_err(), "{}", &text[..cut]);
                }
            }
        }

        /// On any text (JSON or not) starting with a bracket, the scan 64
        /// bytes at a time ends where the scan byte by byte ends, or fails
        /// as it does; cut at any byte, too.
        #[test]
        fn the_block_scan_ends_where_the_byte_scan_ends(
            text in r#"[\[{][\[\]{}"\\ a]{0,300}"#,
        ) {
            let b = text.as_bytes();
            for cut in 1..=b.len() {
                let b = &b[..cut];
                proptest::prop_assert_eq!(value(b, 0), nested_bytes(b, 0), "{}", &text[..cut]);
            }
        }
    }

    #[test]
    fn escapes_at_every_position_of_a_block() {
        // Escaped quotes and backslashes, brackets inside strings, nested
        // lists and maps, unicode: shifted across the 64-byte blocks.
        for pad in 0..140 {
            for body in [
                r#"{"S":"a\"}]b"}"#,
                r#"{"S":"a\\"}"#,
                r#"{"S":"\\\\\"{["}"#,
                r#"{"L":[{"M":{"x":{"S":"}\\"}}},{"N":"1"}]}"#,
                "{\"S\":\"日本\u{e9} \\u00e9\"}",
            ] {
                let text = format!("{{\"k\":{{\"S\":\"{}\"}},\"v\":{body}}}", "x".repeat(pad));
                let b = text.as_bytes();
                assert_eq!(value(b, 0), Ok(b.len()), "{text}");
                for cut in 1..b.len() {
                    let cut = &b[..cut];
                    assert_eq!(value(cut, 0), nested_bytes(cut, 0));
                    assert!(value(cut, 0).is_err());
                }
            }
        }
        // A backslash outside every string (never JSON): the byte scan's
        // answer.
        let odd = br#"{\"}"  }"#;
        assert_eq!(value(odd, 0), nested_bytes(odd, 0));
    }

    proptest::proptest! {
        /// Any strings (quotes, backslashes, brackets, any unicode) in
        /// items and members, written by serde_json with or without
        /// white space: the split finds what serde_json finds.
        #[test]
        fn any_page_splits_as_serde_json_reads_it(
            items in proptest::collection::vec(
                proptest::collection::vec(("\\PC{0,6}", "[\\\\\"{}\\[\\]a-z ]{0,40}|\\PC{0,40}"), 0..4),
                0..5,
            ),
            count in 0i32..10,
            pretty: bool,
        ) {
            let items: Vec<serde_json::Value> = items
                .into_iter()
                .map(|attributes| {
                    serde_json::Value::Object(
                        attributes
                            .into_iter()
                            .map(|(name, text)| (name, serde_json::json!({"L": [{"S": text}, {"M": {}}]})))
                            .collect(),
                    )
                })
                .collect();
            let page = serde_json::json!({"Count": count, "Items": items, "LastEvaluatedKey": {"PK": {"S": "]\"}"}}});
            let text = if pretty {
                serde_json::to_string_pretty(&page).unwrap()
            } else {
                serde_json::to_string(&page).unwrap()
            };
            proptest::prop_assert_eq!(by_split(&text), by_serde(&text));
        }
    }
}
