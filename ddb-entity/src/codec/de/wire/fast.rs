//! The common item read without serde: attribute names and values of the
//! ten known types, strings without escapes, borrowed from the text. It
//! answers only when it is sure: anything else (an escape, a control
//! character, an attribute type this version does not know, a binary that
//! is not base64, deep nesting, any text that is not JSON) gives `None`,
//! and the item is read by serde_json, whose answer (the entries, or the
//! error) is then the answer. Where this reader answers, it answers what
//! serde_json would (proptest `the_fast_read_agrees_with_serde_json`).

use std::borrow::Cow;

use super::{Entries, Wire};

/// Objects and arrays nested deeper than this are left to serde_json
/// (which refuses past 128; DynamoDB stores 32).
const DEPTH: usize = 64;

/// The item `text` (`{"name": {"S": "…"}, …}` and white space around).
pub(super) fn parse_item(text: &str) -> Option<Entries<'_>> {
    let mut reader = Reader { text, at: 0 };
    reader.ws();
    let entries = reader.item(0)?;
    reader.ws();
    (reader.at == text.len()).then_some(entries)
}

struct Reader<'de> {
    text: &'de str,
    at: usize,
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// Bit 7 set in the lowest byte of `word` that is zero (bytes above it
/// may be marked too: only the lowest mark is exact).
#[inline(always)]
fn zero(word: u64) -> u64 {
    word.wrapping_sub(ONES) & !word & HIGH
}

impl<'de> Reader<'de> {
    #[inline]
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    #[inline]
    fn ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    #[inline]
    fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek() == Some(c)).then(|| self.at += 1)
    }

    /// A string without escapes or control characters, borrowed.
    #[inline]
    fn string(&mut self) -> Option<&'de str> {
        self.eat(b'"')?;
        let b = self.text.as_bytes();
        let start = self.at;
        let mut i = start;
        let end = loop {
            if let Some(bytes) = b.get(i..i + 8) {
                let mut word = [0u8; 8];
                word.copy_from_slice(bytes);
                let word = u64::from_le_bytes(word);
                let marks = zero(word ^ (ONES * u64::from(b'"')))
                    | zero(word ^ (ONES * u64::from(b'\\')))
                    | (word.wrapping_sub(ONES * 0x20) & !word & HIGH);
                if marks == 0 {
                    i += 8;
                    continue;
                }
                let k = i + (marks.trailing_zeros() / 8) as usize;
                break (b[k] == b'"').then_some(k)?;
            }
            match *b.get(i)? {
                b'"' => break i,
                b'\\' | 0..=0x1f => return None,
                _ => i += 1,
            }
        };
        self.at = end + 1;
        self.text.get(start..end)
    }

    /// `true` or `false`.
    #[inline]
    fn boolean(&mut self) -> Option<bool> {
        let rest = &self.text.as_bytes()[self.at..];
        if rest.starts_with(b"true") {
            self.at += 4;
            Some(true)
        } else if rest.starts_with(b"false") {
            self.at += 5;
            Some(false)
        } else {
            None
        }
    }

    /// An object of attributes (an item, or an `M`'s value).
    fn item(&mut self, depth: usize) -> Option<Entries<'de>> {
        // What serde_json's map gives the visitor as its size hint (none).
        self.sequence(depth, [b'{', b'}'], 8, |reader, depth| {
            let name = reader.string()?;
            reader.ws();
            reader.eat(b':')?;
            reader.ws();
            Some((Cow::Borrowed(name), reader.value(depth)?))
        })
    }

    /// An array, each element read by `element`.
    fn list<T>(
        &mut self,
        depth: usize,
        element: impl FnMut(&mut Self, usize) -> Option<T>,
    ) -> Option<Vec<T>> {
        self.sequence(depth, [b'[', b']'], 0, element)
    }

    /// An object's members or an array's elements between `brackets`,
    /// separated by commas, each read by `element` one level deeper.
    #[inline]
    fn sequence<T>(
        &mut self,
        depth: usize,
        [open, close]: [u8; 2],
        capacity: usize,
        mut element: impl FnMut(&mut Self, usize) -> Option<T>,
    ) -> Option<Vec<T>> {
        if depth > DEPTH {
            return None;
        }
        self.eat(open)?;
        self.ws();
        let mut list = Vec::with_capacity(capacity);
        if self.eat(close).is_some() {
            return Some(list);
        }
        loop {
            list.push(element(self, depth + 1)?);
            self.ws();
            match self.peek()? {
                b',' => {
                    self.at += 1;
                    self.ws();
                }
                c if c == close => {
                    self.at += 1;
                    return Some(list);
                }
                _ => return None,
            }
        }
    }

    /// An attribute value: an object of one member, its type.
    fn value(&mut self, depth: usize) -> Option<Wire<'de>> {
        if depth > DEPTH {
            return None;
        }
        self.eat(b'{')?;
        self.ws();
        let tag = self.string()?;
        self.ws();
        self.eat(b':')?;
        self.ws();
        let text = |reader: &mut Self, _| reader.string().map(Cow::Borrowed);
        let binary = |reader: &mut Self, _| base64(reader.string()?);
        let value = match tag {
            "S" => Wire::S(Cow::Borrowed(self.string()?)),
            "N" => Wire::N(Cow::Borrowed(self.string()?)),
            "M" => Wire::M(self.item(depth + 1)?),
            "L" => Wire::L(self.list(depth + 1, Self::value)?),
            "BOOL" => Wire::Bool(self.boolean()?),
            "NULL" => Wire::Null(self.boolean()?),
            "SS" => Wire::Ss(self.list(depth + 1, text)?),
            "NS" => Wire::Ns(self.list(depth + 1, text)?),
            "B" => Wire::B(base64(self.string()?)?),
            "BS" => Wire::Bs(self.list(depth + 1, binary)?),
            _ => return None,
        };
        self.ws();
        self.eat(b'}')?;
        Some(value)
    }
}

/// A binary decoded as the SDK decodes it (`None`: not base64).
fn base64(text: &str) -> Option<Vec<u8>> {
    aws_smithy_types::base64::decode(text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// serde_json's read of the item (the reference).
    fn by_serde(text: &str) -> Option<Entries<'_>> {
        let mut de = serde_json::Deserializer::from_str(text);
        let item = serde::Deserialize::deserialize(&mut de)
            .and_then(|item: super::super::WireItem<'_>| de.end().map(|()| item));
        item.ok().map(|item| item.0)
    }

    proptest! {
        /// On random items (of every type, escapes, unicode, white space,
        /// values that are no attribute values), cut anywhere or with a
        /// byte changed: where the fast read answers, serde_json answers
        /// the same entries.
        #[test]
        fn the_fast_read_agrees_with_serde_json(
            item in proptest::collection::vec((r#"[a-z_#\\"]{1,6}"#, super::super::arbitrary_value()), 0..5),
            pretty: bool,
            change in any::<(usize, u8)>(),
        ) {
            let item = serde_json::Value::Object(item.into_iter().collect());
            let text = if pretty {
                serde_json::to_string_pretty(&item).unwrap()
            } else {
                serde_json::to_string(&item).unwrap()
            };
            if let Some(entries) = parse_item(&text) {
                prop_assert_eq!(Some(entries), by_serde(&text));
            }
            for cut in 0..text.len() {
                if let Some(part) = text.get(..cut)
                    && let Some(entries) = parse_item(part)
                {
                    prop_assert_eq!(Some(entries), by_serde(part));
                }
            }
            let mut bytes = text.clone().into_bytes();
            if !bytes.is_empty() {
                let at = change.0 % bytes.len();
                bytes[at] = change.1 % 128;
                if let Ok(changed) = std::str::from_utf8(&bytes)
                    && let Some(entries) = parse_item(changed)
                {
                    prop_assert_eq!(Some(entries), by_serde(changed), "{}", changed);
                }
            }
        }
    }

    #[test]
    fn the_common_item_is_read_fast() {
        let text = r#" { "PK" : {"S":"CUST#42"}, "n":{"N":"-1.5e3"},"b":{"BOOL":true},
            "z":{"NULL":true}, "l":{"L":[{"S":"日本"},{"M":{}}]}, "m":{"M":{"x":{"SS":["a","b"]}}},
            "ns":{"NS":["1"]}, "bin":{"B":"AAE="}, "bs":{"BS":["AAE="]} } "#;
        let entries = parse_item(text).expect("read fast");
        assert_eq!(Some(entries), by_serde(text));
        for slow in [
            r#"{"a":{"S":"\"q"}}"#,
            "{\"a\":{\"S\":\"\u{1}\"}}",
            r#"{"a":{"X":1}}"#,
            r#"{"a":{"B":"!"}}"#,
            r#"{"a":{"S":"x","N":"1"}}"#,
            r#"{"a":{"S":"x"}} x"#,
            r#"{"a":{"S":"x"},}"#,
        ] {
            assert_eq!(parse_item(slow), None, "{slow}");
        }
        let deep = format!(
            "{}{{\"a\":{{\"S\":\"x\"}}}}{}",
            r#"{"a":{"M":"#.repeat(40),
            "}}".repeat(40)
        );
        assert_eq!(parse_item(&deep), None);
    }
}
