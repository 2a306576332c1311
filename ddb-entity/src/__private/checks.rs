//! The key rules generated code checks at compile time that depend on the
//! table's declaration, which the derive cannot see: stated once here, as
//! const functions of the table, each returning the message of the
//! mistake (built at compile time) or `None`.
//!
//! Generated code panics with the message in its own const item, spanned
//! at the template or hole the user wrote
//! (`const _: () = if let Some(m) = … { panic!("{}", m.text()) };`), so
//! the compiler reports it there and nowhere else.

use crate::key::KeyPart;
use crate::table::Table;

/// The types whose key encodings have one fixed length: what a hole
/// followed by more of its key must be.
const FIXED_LENGTH_TYPES: &str =
    "an unsigned integer, a float, a date or time, an `IsoSeconds`, a `Uuid`, a `Ulid`";

/// A message built at compile time: a const function cannot allocate, so
/// it writes into a fixed buffer. A message longer than the buffer keeps
/// its beginning.
pub struct ConstMessage {
    buf: [u8; 1024],
    len: usize,
}

impl ConstMessage {
    const fn new() -> Self {
        ConstMessage {
            buf: [0; 1024],
            len: 0,
        }
    }

    /// Appends `text` whole, or nothing when it does not fit (so the
    /// message stays UTF-8).
    const fn push(mut self, text: &str) -> Self {
        let bytes = text.as_bytes();
        if self.len + bytes.len() > self.buf.len() {
            return self;
        }
        let mut i = 0;
        while i < bytes.len() {
            self.buf[self.len + i] = bytes[i];
            i += 1;
        }
        self.len += bytes.len();
        self
    }

    const fn push_char(self, c: char) -> Self {
        let mut utf8 = [0u8; 4];
        let text: &str = c.encode_utf8(&mut utf8);
        self.push(text)
    }

    /// `text` with every `#` written as `delimiter`.
    const fn push_replaced(mut self, text: &str, delimiter: char) -> Self {
        let bytes = text.as_bytes();
        let mut start = 0;
        let mut i = 0;
        while i <= bytes.len() {
            if i == bytes.len() || bytes[i] == b'#' {
                let (head, _) = bytes.split_at(i);
                let (_, piece) = head.split_at(start);
                self = match core::str::from_utf8(piece) {
                    Ok(piece) => self.push(piece),
                    Err(_) => self,
                };
                if i < bytes.len() {
                    self = self.push_char(delimiter);
                }
                start = i + 1;
            }
            i += 1;
        }
        self
    }

    /// `value` as at least two upper-case hexadecimal digits.
    const fn push_hex(mut self, value: u32) -> Self {
        const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
        let mut digits = [0u8; 8];
        let mut count = 0;
        let mut rest = value;
        while rest > 0 || count < 2 {
            digits[7 - count] = DIGITS[(rest % 16) as usize];
            rest /= 16;
            count += 1;
        }
        let (_, written) = digits.split_at(8 - count);
        if let Ok(text) = core::str::from_utf8(written) {
            self = self.push(text);
        }
        self
    }

    /// The message.
    pub const fn text(&self) -> &str {
        let (written, _) = self.buf.split_at(self.len);
        match core::str::from_utf8(written) {
            Ok(text) => text,
            Err(_) => "",
        }
    }
}

/// A template written with `#` between its segments, on table `T`
/// (`table` as the entity names it) declared with another delimiter: the
/// message saying how to write it.
pub const fn delimiter_mismatch<T: Table>(table: &str, template: &str) -> Option<ConstMessage> {
    let delimiter = T::SCHEMA.delimiter;
    if delimiter == '#' {
        return None;
    }
    Some(
        ConstMessage::new()
            .push("table `")
            .push(table)
            .push("` joins its key segments with `")
            .push_char(delimiter)
            .push(
                "` (its `delimiter` in `table!`), and this template joins them with `#`: write \"",
            )
            .push_replaced(template, delimiter)
            .push("\""),
    )
}

/// A hole `name` of type `type_name` followed by more of its key, by
/// another hole (`by_hole`) or by literal text: `holds` is whether its key
/// part is then fixed-length (by a hole) or prefix-free (by text). On a
/// table joining segments with `#` the rule is the segment's; on a table
/// of another delimiter, which is then literal text of the template and
/// sorts above bytes a value writes, a fixed length is what tells where
/// the value ends.
pub const fn followed_hole<T: Table>(
    holds: bool,
    by_hole: bool,
    table: &str,
    name: &str,
    type_name: &str,
) -> Option<ConstMessage> {
    if holds {
        return None;
    }
    let delimiter = T::SCHEMA.delimiter;
    let message = ConstMessage::new()
        .push("`{")
        .push(name)
        .push("}` is followed by ");
    Some(if delimiter != '#' {
        message
            .push("more of the key, and a `")
            .push(type_name)
            .push("`'s key encoding has no fixed length and can start another's: on table `")
            .push(table)
            .push("`, whose delimiter `")
            .push_char(delimiter)
            .push("` (0x")
            .push_hex(delimiter as u32)
            .push(") sorts above bytes a value writes, \"a")
            .push_char(delimiter)
            .push("…\" would sort after \"ab")
            .push_char(delimiter)
            .push("…\" and where the value ends could not be told; make `{")
            .push(name)
            .push("}` the key's last hole, or use a fixed-length type (")
            .push(FIXED_LENGTH_TYPES)
            .push(")")
    } else if by_hole {
        message
            .push("another hole in its segment, so its encoding must have one fixed length to tell where it ends, and a `")
            .push(type_name)
            .push("`'s has not: separate the holes with `#`, or use a fixed-length type (")
            .push(FIXED_LENGTH_TYPES)
            .push(")")
    } else {
        message
            .push("literal text in its segment, but one `")
            .push(type_name)
            .push("`'s key encoding can start another's (a string's \"a\" starts \"ab\"), so keys would not sort by `")
            .push(name)
            .push("`: end the segment after the hole with `#`, or use a type whose encodings are prefix-free (an integer, a float, `bool`, `char`, a date or time, an id, a `KeyPart` enum)")
    })
}

/// A sort-key hole `name` of `template` must sort (`KeyPart::ORDERED`) when
/// its type is not spelled `Unordered<…>`: an alias of `Unordered`, a
/// derived enum whose stored names do not sort as declared, or a user's key
/// part declaring `ORDERED = false` would otherwise slip past the rule that
/// such a hole comes last and bounds no range. Generated code calls it in
/// its own const item, spanned at the hole.
pub const fn assert_sorts<P: KeyPart + ?Sized>(name: &str, template: &str) {
    if P::ORDERED {
        return;
    }
    let message = ConstMessage::new()
        .push("`{")
        .push(name)
        .push("}` in the sort key \"")
        .push(template)
        .push("\" has a key part that does not sort (`KeyPart::ORDERED` is false), so a range over it would return nonsense: for a #[derive(KeyPart)] enum, rename its variants so their stored names sort as declared (#[key(rename = \"1-low\")]) or declare #[key(format = \"position\")]; for numbers written unpadded, write the type as `Unordered<…>` so the derive keeps ranges off it; or move the field into the partition key");
    panic!("{}", message.text());
}
