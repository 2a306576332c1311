//! Numbers and text as hand-written keys hold them: plain decimal, no
//! padding; text verbatim, no escaping.
//!
//! A table designed by hand often writes `LINE#7` and `LINE#12` where this
//! library would write `LINE#0000000007`. Such keys do not sort as their
//! numbers (`12` < `7` as text), so a range over them returns nonsense
//! rather than an error (a sort key that is not lexicographically
//! ordered). [`Unordered`] reads and writes them as
//! they are, and says so in its name: a sort-key builder stops before an
//! `Unordered` hole can bound a range (see the type's docs).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{DecodeKeyPart, KeyError, KeyPart};

/// An integer written as plain decimal (`7`, `12`, `-3`), the way keys
/// written by other code often hold numbers: **not ordered** as keys.
///
/// Use it to adopt a table whose keys hold unpadded numbers; a table of
/// your own should pad (`{n}` or `{n:6}`), which sorts. The stored body is
/// the number itself (serde sees through the wrapper).
///
/// Reading is strict so that whatever is read is written back byte for
/// byte: no leading zeros (`007`), no `+`, no `-0`, no spaces. A key with
/// them does not match a template with this hole.
///
/// ```
/// use ddb_entity::key::{self, Unordered};
///
/// assert_eq!(key::encode(&Unordered(7u32))?, "7");
/// assert_eq!(key::decode::<Unordered<u32>>("12")?, Unordered(12));
/// assert!(key::decode::<Unordered<u32>>("007").is_err()); // would write back as "7"
/// // Why it is called unordered: as text, 12 sorts before 7.
/// assert!(key::encode(&Unordered(12u32))? < key::encode(&Unordered(7u32))?);
/// # Ok::<(), ddb_entity::key::KeyError>(())
/// ```
///
/// # No ranges, at compile time
///
/// In a sort key an `Unordered` hole must be the last hole. Its sort-key
/// builder method returns an [`UnorderedSortKey`](crate::entity::UnorderedSortKey),
/// which no sort-key condition takes, so a range (`sk_gt`, `sk_between`, …)
/// over unpadded numbers does not compile; the stages before it are
/// ordinary prefixes. Read one item by its key with a get.
///
/// ```compile_fail
/// # use ddb_entity::{Db, Entity, key::Unordered};
/// # use serde::{Deserialize, Serialize};
/// ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK", typed_by: Key } }
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "ORDER#{order}", sk = "LINE#{line}")]
/// struct Line { order: String, line: Unordered<u32> }
/// # async fn f(db: Db<App>) -> ddb_entity::Result<()> {
/// // error: `SortKey` cannot be made from an `UnorderedSortKey`
/// let lines: Vec<Line> = db.query(Line::partition("o-1")?).sk_gt(Line::sk().line(Unordered(3))).collect().await?;
/// # Ok(()) }
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Unordered<T>(pub T);

impl<T: fmt::Debug> fmt::Debug for Unordered<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Unordered({:?})", self.0)
    }
}

impl<T: fmt::Display> fmt::Display for Unordered<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<T> From<T> for Unordered<T> {
    fn from(value: T) -> Self {
        Unordered(value)
    }
}

const EXPECTED: &str = "unordered integer (plain decimal, no leading zeros)";

macro_rules! unordered {
    ($($int:ty),*) => {$(
        impl KeyPart for Unordered<$int> {
            const ORDERED: bool = false;

            fn encode_key(&self, out: &mut String) -> Result<(), KeyError> {
                use std::fmt::Write;
                // Digits and `-`: every byte above the delimiter.
                write!(out, "{}", self.0).expect("writing to a String cannot fail");
                Ok(())
            }
        }

        impl DecodeKeyPart for Unordered<$int> {
            fn decode_key(component: &str) -> Result<Self, KeyError> {
                if !canonical_decimal(component) {
                    return Err(KeyError::malformed(EXPECTED, component));
                }
                component
                    .parse::<$int>()
                    .map(Unordered)
                    .map_err(|_| KeyError::malformed(EXPECTED, component))
            }
        }
    )*};
}

unordered!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize);

const TEXT: &str = "unordered text (any characters but the delimiter `#`)";

/// Text as hand-written keys hold it: verbatim, no escaping — a space, a
/// `!` or a `$` as they are. What [`String`] cannot read back: its
/// encoding escapes every byte up to `$` so that keys sort as their text
/// (`Smith` before `Smith Jr`, where a raw space, 0x20, sorts below the
/// delimiter `#`, 0x23, and would put `Smith Jr#…` first). Verbatim text
/// keeps no such order, hence the name, and the same place as an
/// unordered number: anywhere in a partition key, only the last hole of
/// a sort key, never a range bound (see [`Unordered`]).
///
/// Writing refuses text with a `#`, which would forge a delimiter (a
/// [`KeyError`], before any request); reading refuses it too, so what is
/// read is written back byte for byte.
///
/// ```
/// use ddb_entity::key::{self, Unordered};
///
/// let name = Unordered("Smith Jr".to_owned());
/// assert_eq!(key::encode(&name)?, "Smith Jr"); // `String` writes "Smith$`Jr"
/// assert_eq!(key::decode::<Unordered<String>>("Smith Jr")?, name);
/// assert!(key::encode(&Unordered("a#b".to_owned())).is_err());
/// // Why it is unordered: "Smith Jr" + "#…" sorts before "Smith" + "#…".
/// assert!("Smith Jr#1" < "Smith#1");
/// # Ok::<(), ddb_entity::key::KeyError>(())
/// ```
impl KeyPart for Unordered<String> {
    const ORDERED: bool = false;

    fn encode_key(&self, out: &mut String) -> Result<(), KeyError> {
        if self.0.contains(super::DELIMITER) {
            return Err(KeyError::malformed(TEXT, &self.0));
        }
        out.push_str(&self.0);
        Ok(())
    }
}

impl DecodeKeyPart for Unordered<String> {
    fn decode_key(component: &str) -> Result<Self, KeyError> {
        if component.contains(super::DELIMITER) {
            return Err(KeyError::malformed(TEXT, component));
        }
        Ok(Unordered(component.to_owned()))
    }
}

/// Whether `text` is an integer as Rust's `Display` writes it: an optional
/// `-`, then digits without a leading zero (except `0` itself), and not
/// `-0`. Anything else would be written back differently.
fn canonical_decimal(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let negative = digits.len() != text.len();
    !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'))
        && !(negative && digits == "0")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_what_would_not_be_written_back() {
        for text in ["", "-", "007", "-0", "+1", " 1", "1 ", "1e3", "0x1"] {
            assert!(
                super::super::decode::<Unordered<i64>>(text).is_err(),
                "{text:?}"
            );
        }
        assert_eq!(
            super::super::decode::<Unordered<i64>>("0").unwrap(),
            Unordered(0)
        );
        assert_eq!(
            super::super::decode::<Unordered<i64>>("-12").unwrap(),
            Unordered(-12)
        );
    }
}
