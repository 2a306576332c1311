//! The one error type of key encoding and key parsing.

/// Longest slice of user text an error carries: enough to recognise the
/// value, bounded so that a 400 KB attribute never lands in a log line.
const FOUND_MAX_CHARS: usize = 64;

/// Why a value could not be written into a key, or a key could not be read
/// back into typed parts.
///
/// Every message says what was expected and what to do about it. Parse
/// errors from [`KeyReader`](crate::key::KeyReader) name the `#`-separated
/// segment (its 0-based index and its text) they failed on.
///
/// ```
/// use ddb_entity::key::{self, KeyError};
///
/// assert_eq!(key::encode(&f64::NAN), Err(KeyError::NaN));
/// let err = key::decode::<u8>("7").unwrap_err();
/// assert!(matches!(err, KeyError::Malformed { .. }));
/// assert_eq!(
///     err.to_string(),
///     r#"expected u8 (3 zero-padded digits), found "7": only keys written by this encoding can be read back"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum KeyError {
    /// A float key part was NaN, which has no place in a sorted key.
    #[error("NaN cannot be stored in a sorted key: reject or replace it before building the key")]
    NaN,

    /// An integer has more digits than the declared key width.
    #[error(
        "{value} has {digits} digits but the key width is {width}: declare a wider width (changing it re-keys stored items)"
    )]
    WidthOverflow {
        /// The value, as text.
        value: String,
        /// Digits of the value's magnitude.
        digits: usize,
        /// The declared width.
        width: usize,
    },

    /// A declared integer width is zero or wider than the type can need.
    #[error("key width {width} is invalid: declare a width between 1 and {max}")]
    InvalidWidth {
        /// The declared width.
        width: usize,
        /// The most digits the integer type can have.
        max: usize,
    },

    /// A value lies outside the range its fixed-width encoding can hold.
    #[error("{what} {value} is outside the range a key can hold: {}", out_of_range_hint(.what))]
    OutOfRange {
        /// What was out of range, e.g. `"year"`.
        what: &'static str,
        /// The offending value, as text.
        value: String,
    },

    /// Text is not the canonical encoding of the expected type.
    #[error(
        "expected {expected}, found {found:?}: only keys written by this encoding can be read back"
    )]
    Malformed {
        /// The expected format, e.g. `"u64 (20 zero-padded digits)"`.
        expected: &'static str,
        /// The text found (at most 64 characters of it).
        found: String,
    },

    /// A segment of a whole key could not be decoded as the template's type.
    #[error("key segment {index} ({found:?}) is not a valid {expected}: {source}")]
    Segment {
        /// 0-based index of the `#`-separated segment.
        index: usize,
        /// The type the template expects there.
        expected: &'static str,
        /// The segment's text (at most 64 characters of it).
        found: String,
        /// Why the segment did not decode.
        #[source]
        source: Box<KeyError>,
    },

    /// A literal segment of a key differs from the template's.
    #[error(
        "key segment {index} is {found:?} but the template has the literal {expected:?}: the key belongs to another entity or template"
    )]
    UnexpectedLiteral {
        /// 0-based index of the `#`-separated segment.
        index: usize,
        /// The template's literal.
        expected: String,
        /// The segment's text (at most 64 characters of it).
        found: String,
    },

    /// A key has fewer segments than its template.
    #[error(
        "the key ends before segment {index} ({expected}): the key belongs to another entity or template"
    )]
    MissingSegment {
        /// 0-based index of the missing segment.
        index: usize,
        /// What the template expects there: a literal or a type.
        expected: String,
    },

    /// A key has more segments than its template.
    #[error(
        "the key continues after its last template segment with {rest:?} at segment {index}: the key belongs to another entity or template"
    )]
    TrailingSegments {
        /// 0-based index of the first extra segment.
        index: usize,
        /// The rest of the key (at most 64 characters of it).
        rest: String,
    },

    /// A key longer than DynamoDB stores: 2048 bytes for a partition key,
    /// 1024 for a sort key.
    #[error(
        "the {what} is {bytes} bytes long, over DynamoDB's limit of {limit} bytes: shorten the values that go into it (or hash a long one into a fixed-width id)"
    )]
    TooLong {
        /// `"partition key"` or `"sort key"`.
        what: &'static str,
        /// Its length in UTF-8 bytes.
        bytes: usize,
        /// DynamoDB's limit.
        limit: usize,
    },

    /// A key that DynamoDB requires to be non-empty encoded to `""`.
    #[error(
        "the key encodes to an empty string, which DynamoDB rejects: give the template a literal segment or use a non-empty value"
    )]
    EmptyKey,
}

fn out_of_range_hint(what: &str) -> &'static str {
    match what {
        "year" => "dates and times in keys must lie in years 0000 to 9999",
        "month" => "months run from 1 to 12",
        _ => "use a value inside the type's key range",
    }
}

impl KeyError {
    /// A [`KeyError::Malformed`] carrying a bounded excerpt of `found`.
    ///
    /// For implementors of [`DecodeKeyPart`](crate::key::DecodeKeyPart):
    ///
    /// ```
    /// use ddb_entity::key::KeyError;
    ///
    /// let err = KeyError::malformed("a colour (red or blue)", &"x".repeat(1000));
    /// let KeyError::Malformed { found, .. } = err else { unreachable!() };
    /// assert!(found.len() < 100);
    /// ```
    pub fn malformed(expected: &'static str, found: &str) -> Self {
        Self::Malformed {
            expected,
            found: excerpt(found),
        }
    }
}

/// At most [`FOUND_MAX_CHARS`] characters of `text`, cut on a char boundary,
/// with `…` marking a cut.
pub(crate) fn excerpt(text: &str) -> String {
    match text.char_indices().nth(FOUND_MAX_CHARS) {
        None => text.to_owned(),
        Some((cut, _)) => {
            let mut short = String::with_capacity(cut + '…'.len_utf8());
            short.push_str(&text[..cut]);
            short.push('…');
            short
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpt_cuts_on_a_char_boundary() {
        let long = "😀".repeat(100);
        let short = excerpt(&long);
        assert_eq!(short.chars().count(), FOUND_MAX_CHARS + 1);
        assert!(short.ends_with('…'));
        assert_eq!(excerpt("abc"), "abc");
        assert_eq!(excerpt(&"a".repeat(64)), "a".repeat(64));
    }
}
