//! Strings: order-preserving, prefix-free escaping.
//!
//! # Format
//!
//! The string's UTF-8 bytes are written one by one. A byte `b <= 0x24`
//! (`$`) becomes the two bytes `$` and `b + 0x40`; every other byte,
//! including every byte of a non-ASCII character, is copied:
//!
//! | byte | written |
//! | --- | --- |
//! | NUL, 0x01 … 0x1A | `$@`, `$A` … `$Z` (caret notation) |
//! | 0x1B … 0x1F | `$[`, `$\`, `$]`, `$^`, `$_` |
//! | space, `!`, `"` | ``$` ``, `$a`, `$b` |
//! | `#` (the delimiter) | `$c` |
//! | `$` (the escape) | `$d` |
//! | anything else | itself |
//!
//! Emails, ids, words and most text contain none of these bytes but space,
//! and stay as they are: `alice@example.com` → `alice@example.com`,
//! `Smith Jr` → ``Smith$`Jr``. The empty string encodes to the empty
//! component (an empty *partition key* is rejected by
//! [`KeyBuf::finish_partition`](crate::key::KeyBuf::finish_partition)).
//!
//! # Why it sorts
//!
//! Each byte maps to a *codeword* of one or two bytes, and the codewords
//!
//! - are **prefix-free**: one-byte codewords are bytes above `$`, and
//!   two-byte codewords start with `$`; two codewords that share a first
//!   byte are both two bytes long and differ in the second;
//! - are **monotone**: for bytes `a < b`, the codeword of `a` is below the
//!   codeword of `b`. Escaped bytes are the smallest bytes and their
//!   codewords start with `$`, below every copied byte; among escaped bytes
//!   the second byte `b + 0x40` grows with `b`; copied bytes compare as
//!   themselves.
//!
//! Comparing two encodings therefore walks the two strings' bytes in step:
//! equal bytes give equal codewords, the first differing byte gives
//! codewords ordered like the bytes, and a string that is a prefix of the
//! other gives an encoding that is a prefix of the other's. So
//! **`enc(s) < enc(t)` ⇔ `s < t`** for all strings, and decoding is
//! unambiguous. Every written byte is `$` or above (`b + 0x40 >= 0x40`), so
//! never `#` nor below: `"Smith"` sorts before `"Smith Jr"` even inside
//! `NAME#{last}#{first}`, where the naive choice of leaving the space alone
//! would put `NAME#Smith Jr#…` (space, 0x20) before `NAME#Smith#…` (`#`,
//! 0x23). Escapes and their replacements are ASCII, so the encoding of a
//! `str` is again valid UTF-8.
//!
//! ```
//! use ddb_entity::key;
//!
//! assert_eq!(key::encode("alice@example.com")?, "alice@example.com");
//! assert_eq!(key::encode("a#b")?, "a$cb");
//! assert_eq!(key::encode("$5")?, "$d5");
//! assert_eq!(key::decode::<String>("a$cb")?, "a#b");
//! assert!(key::decode::<String>("a#b").is_err()); // a raw delimiter
//! assert!(key::decode::<String>("a$xb").is_err()); // no such escape
//! # Ok::<(), key::KeyError>(())
//! ```

use std::rc::Rc;
use std::sync::Arc;

use super::{DecodeKeyPart, KeyError, KeyPart, PrefixOf};

/// The escape byte; it and every byte below it are escaped.
const ESCAPE: u8 = b'$';
/// Added to an escaped byte to lift it into `@`..=`d`.
const LIFT: u8 = 0x40;

pub(crate) const EXPECTED: &str =
    "an escaped string (bytes <= 0x24 only as `$` followed by `@` to `d`)";

/// Whether any byte is at or below the escape. Branch-free, so it
/// vectorises: most keys (emails, ids, words) need no escaping at all.
fn has_low_bytes(bytes: &[u8]) -> bool {
    bytes.iter().fold(false, |low, &b| low | (b <= ESCAPE))
}

fn escape_into(s: &str, out: &mut String) {
    let bytes = s.as_bytes();
    if !has_low_bytes(bytes) {
        out.push_str(s);
        return;
    }
    let mut copied = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b <= ESCAPE {
            // `b` is ASCII, so `i` is a char boundary.
            out.push_str(&s[copied..i]);
            out.push(char::from(ESCAPE));
            out.push(char::from(b + LIFT));
            copied = i + 1;
        }
    }
    out.push_str(&s[copied..]);
}

/// Reverses [`escape_into`], rejecting every text it cannot write.
pub(crate) fn unescape(component: &str, expected: &'static str) -> Result<String, KeyError> {
    let bytes = component.as_bytes();
    if !has_low_bytes(bytes) {
        return Ok(component.to_owned());
    }
    let mut out = String::with_capacity(component.len());
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == ESCAPE {
            let escaped = match bytes.get(i + 1) {
                Some(&e @ LIFT..=0x64) => e - LIFT,
                _ => return Err(KeyError::malformed(expected, component)),
            };
            out.push_str(&component[copied..i]);
            out.push(char::from(escaped));
            i += 2;
            copied = i;
        } else if b < ESCAPE {
            return Err(KeyError::malformed(expected, component));
        } else {
            i += 1;
        }
    }
    out.push_str(&component[copied..]);
    Ok(out)
}

impl KeyPart for str {
    fn encode_key(&self, out: &mut String) -> Result<(), KeyError> {
        escape_into(self, out);
        Ok(())
    }
}

impl KeyPart for String {
    fn encode_key(&self, out: &mut String) -> Result<(), KeyError> {
        escape_into(self, out);
        Ok(())
    }
}

impl DecodeKeyPart for String {
    fn decode_key(component: &str) -> Result<Self, KeyError> {
        unescape(component, EXPECTED)
    }
}

impl DecodeKeyPart for Box<str> {
    fn decode_key(component: &str) -> Result<Self, KeyError> {
        unescape(component, EXPECTED).map(String::into_boxed_str)
    }
}

impl DecodeKeyPart for Arc<str> {
    fn decode_key(component: &str) -> Result<Self, KeyError> {
        unescape(component, EXPECTED).map(Arc::from)
    }
}

impl DecodeKeyPart for Rc<str> {
    fn decode_key(component: &str) -> Result<Self, KeyError> {
        unescape(component, EXPECTED).map(Rc::from)
    }
}

/// The first characters of a string: a [`PrefixOf`] cut of `String` and
/// `str` components, for `begins_with` on a partial name.
///
/// The escaping maps each byte on its own, so the encoding of a prefix is a
/// prefix of the encoding of every string that starts with it, and (the
/// codewords being prefix-free) of no other string.
///
/// ```
/// use ddb_entity::key::{KeyBuf, StrPrefix};
///
/// let mut prefix = KeyBuf::new();
/// prefix.literal("NAME").cut::<String, _>(&StrPrefix("Smith J"))?;
/// let prefix = prefix.finish_prefix();
/// assert_eq!(prefix, "NAME#Smith$`J");
///
/// let mut key = KeyBuf::new();
/// key.literal("NAME").part("Smith Jr")?.part("Anna")?;
/// assert!(key.finish().starts_with(&prefix));
/// # Ok::<(), ddb_entity::key::KeyError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StrPrefix<'a>(pub &'a str);

impl PrefixOf<String> for StrPrefix<'_> {
    fn encode_prefix(&self, out: &mut String) -> Result<(), KeyError> {
        escape_into(self.0, out);
        Ok(())
    }
}

impl PrefixOf<str> for StrPrefix<'_> {
    fn encode_prefix(&self, out: &mut String) -> Result<(), KeyError> {
        escape_into(self.0, out);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(s: &str) -> String {
        let mut out = String::new();
        escape_into(s, &mut out);
        out
    }

    #[test]
    fn escapes_every_low_byte_and_round_trips() {
        for b in 0u8..=0x7f {
            let s = char::from(b).to_string();
            let e = enc(&s);
            assert!(e.bytes().all(|x| x > b'#'), "{b:#x} -> {e:?}");
            assert_eq!(e.len(), if b <= ESCAPE { 2 } else { 1 });
            assert_eq!(unescape(&e, EXPECTED).as_deref(), Ok(s.as_str()));
        }
        assert_eq!(enc("\0\x01\x1a #$"), "$@$A$Z$`$c$d");
    }

    #[test]
    fn rejects_what_it_never_writes() {
        for bad in ["$", "a$", "$?", "$e", "a#b", " ", "\0", "$$"] {
            assert!(unescape(bad, EXPECTED).is_err(), "{bad:?}");
        }
    }
}
