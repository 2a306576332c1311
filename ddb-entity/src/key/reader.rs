//! Parsing keys back into typed parts.

use super::error::excerpt;
use super::{DELIMITER, DecodeKeyPart, KeyError, KeyPart};

/// Reads a key segment by segment, in template order.
///
/// Since no component contains `#`, splitting on `#` recovers exactly the
/// segments the key was built from. Every error names the 0-based segment
/// index and its text.
///
/// ```
/// use ddb_entity::key::{KeyError, KeyReader};
///
/// let mut key = KeyReader::new("ORDER#0020260314#00000000000000000007");
/// key.literal("ORDER")?;
/// let placed: u32 = key.part()?;
/// let id: u64 = key.part()?;
/// key.finish()?;
/// assert_eq!((placed, id), (20260314, 7));
///
/// let mut key = KeyReader::new("ORDER#2026-03-14");
/// key.literal("ORDER")?;
/// let err = key.part::<u32>().unwrap_err();
/// assert!(matches!(err, KeyError::Segment { index: 1, .. }));
/// assert!(err.to_string().starts_with(r#"key segment 1 ("2026-03-14") is not a valid u32"#));
/// # Ok::<(), KeyError>(())
/// ```
#[derive(Debug, Clone)]
pub struct KeyReader<'a> {
    /// The unread rest of the key; `None` once its last segment is read.
    rest: Option<&'a str>,
    /// Index of the next segment.
    index: usize,
}

impl<'a> KeyReader<'a> {
    /// A reader at the first segment of `key`.
    ///
    /// Even the empty key has one (empty) segment, as the key of a template
    /// `{name}` with an empty name.
    ///
    /// ```
    /// let mut key = ddb_entity::key::KeyReader::new("");
    /// assert_eq!(key.part::<String>()?, "");
    /// key.finish()?;
    /// # Ok::<(), ddb_entity::key::KeyError>(())
    /// ```
    pub fn new(key: &'a str) -> Self {
        Self {
            rest: Some(key),
            index: 0,
        }
    }

    /// 0-based index of the next segment.
    ///
    /// ```
    /// let mut key = ddb_entity::key::KeyReader::new("A#B");
    /// key.literal("A")?;
    /// assert_eq!(key.index(), 1);
    /// # Ok::<(), ddb_entity::key::KeyError>(())
    /// ```
    pub fn index(&self) -> usize {
        self.index
    }

    /// The unread rest of the key, `None` after the last segment.
    ///
    /// ```
    /// let mut key = ddb_entity::key::KeyReader::new("A#B#C");
    /// key.literal("A")?;
    /// assert_eq!(key.rest(), Some("B#C"));
    /// # Ok::<(), ddb_entity::key::KeyError>(())
    /// ```
    pub fn rest(&self) -> Option<&'a str> {
        self.rest
    }

    #[inline]
    fn next_segment(&mut self, expected: impl FnOnce() -> String) -> Result<&'a str, KeyError> {
        let Some(rest) = self.rest else {
            return Err(KeyError::MissingSegment {
                index: self.index,
                expected: expected(),
            });
        };
        // `#` is ASCII, so the split is at a character boundary.
        let at = find_delimiter(rest.as_bytes());
        let segment = match at.and_then(|at| Some((rest.get(..at)?, rest.get(at + 1..)?))) {
            Some((segment, rest)) => {
                self.rest = Some(rest);
                segment
            }
            None => {
                self.rest = None;
                rest
            }
        };
        self.index += 1;
        Ok(segment)
    }

    /// Reads the next segment, which must equal the template literal
    /// `expected`.
    ///
    /// ```
    /// use ddb_entity::key::{KeyError, KeyReader};
    ///
    /// let mut key = KeyReader::new("CUST#00042");
    /// assert_eq!(
    ///     key.literal("ORDER"),
    ///     Err(KeyError::UnexpectedLiteral {
    ///         index: 0,
    ///         expected: "ORDER".into(),
    ///         found: "CUST".into(),
    ///     })
    /// );
    /// ```
    #[inline]
    pub fn literal(&mut self, expected: &str) -> Result<(), KeyError> {
        // The common case without scanning for the segment's end: the rest
        // starts with the literal, and the delimiter (or the key's end)
        // follows. A literal holding `#` never equals a segment, so it
        // takes the slow path, which reports it. Inlined where the literal
        // is a constant (generated key readers): the comparison is then
        // the literal's bytes, unrolled.
        if let Some(rest) = self.rest
            && let Some(next) = after_literal(rest, expected)
        {
            self.rest = next;
            self.index += 1;
            return Ok(());
        }
        self.literal_by_segment(expected)
    }

    /// [`KeyReader::literal`] by reading the segment whole and comparing
    /// it: where the literal is not at the front, to say what is.
    #[cold]
    #[inline(never)]
    fn literal_by_segment(&mut self, expected: &str) -> Result<(), KeyError> {
        let index = self.index;
        let segment = self.next_segment(|| format!("the literal {expected:?}"))?;
        if segment == expected {
            Ok(())
        } else {
            Err(KeyError::UnexpectedLiteral {
                index,
                expected: expected.to_owned(),
                found: excerpt(segment),
            })
        }
    }

    /// Decodes the next segment as a `P`.
    ///
    /// ```
    /// use ddb_entity::key::{KeyError, KeyReader};
    ///
    /// let mut key = KeyReader::new("a$cb");
    /// assert_eq!(key.part::<String>()?, "a#b");
    /// assert!(matches!(key.part::<u8>(), Err(KeyError::MissingSegment { index: 1, .. })));
    /// # Ok::<(), KeyError>(())
    /// ```
    #[inline]
    pub fn part<P: DecodeKeyPart>(&mut self) -> Result<P, KeyError> {
        let index = self.index;
        let expected = std::any::type_name::<P>();
        let segment = self.next_segment(|| expected.to_owned())?;
        P::decode_key(segment).map_err(|source| segment_error(index, expected, segment, source))
    }

    /// Takes the next segment whole, to read a template segment that holds
    /// literal text beside a hole, or several holes (`{kind}REACTION`,
    /// `{number}-{comment}`), piece by piece.
    ///
    /// ```
    /// use ddb_entity::key::KeyReader;
    ///
    /// let mut key = KeyReader::new("ISSUE#00007-alice");
    /// key.literal("ISSUE")?;
    /// let mut segment = key.segment()?;
    /// let number: u16 = segment.fixed()?;
    /// segment.literal("-")?;
    /// let author: String = segment.last("")?;
    /// key.finish()?;
    /// assert_eq!((number, author.as_str()), (7, "alice"));
    /// # Ok::<(), ddb_entity::key::KeyError>(())
    /// ```
    pub fn segment(&mut self) -> Result<SegmentReader<'a>, KeyError> {
        let index = self.index;
        let text = self.next_segment(|| "a segment".to_owned())?;
        Ok(SegmentReader {
            index,
            whole: text,
            rest: text,
        })
    }

    /// Checks that every segment has been read.
    ///
    /// ```
    /// use ddb_entity::key::{KeyError, KeyReader};
    ///
    /// let mut key = KeyReader::new("CUST#00042#EXTRA");
    /// key.literal("CUST")?;
    /// key.part::<u16>()?;
    /// assert_eq!(
    ///     key.finish(),
    ///     Err(KeyError::TrailingSegments { index: 2, rest: "EXTRA".into() })
    /// );
    /// # Ok::<(), KeyError>(())
    /// ```
    pub fn finish(self) -> Result<(), KeyError> {
        match self.rest {
            None => Ok(()),
            Some(rest) => Err(KeyError::TrailingSegments {
                index: self.index,
                rest: excerpt(rest),
            }),
        }
    }
}

/// The delimiter, as the byte it is.
const HASH: u8 = DELIMITER as u8;

/// Segment `index` (`found`) is no `expected`: why, in `source`.
#[cold]
#[inline(never)]
fn segment_error(index: usize, expected: &'static str, found: &str, source: KeyError) -> KeyError {
    KeyError::Segment {
        index,
        expected,
        found: excerpt(found),
        source: Box::new(source),
    }
}

/// What follows the segment `literal` that `rest` starts with: `Some` of
/// the rest after its delimiter, or `Some(None)` where the key ends; `None`
/// if the first segment is not `literal` (or `literal` holds a `#`, which
/// no segment does). One pass over the literal's bytes.
#[inline]
fn after_literal<'a>(rest: &'a str, literal: &str) -> Option<Option<&'a str>> {
    let (bytes, literal) = (rest.as_bytes(), literal.as_bytes());
    let head = bytes.get(..literal.len())?;
    if !head.iter().zip(literal).all(|(&b, &l)| b == l && l != HASH) {
        return None;
    }
    match bytes.get(literal.len()) {
        None => Some(None),
        // After an ASCII byte: a character boundary.
        Some(&HASH) => rest.get(literal.len() + 1..).map(Some),
        Some(_) => None,
    }
}

/// Where the first `#` of `bytes` is: eight bytes a step (a key's integer
/// segments are 10 to 20 digits), then byte by byte.
#[inline]
fn find_delimiter(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    const HASHES: u64 = u64::from_ne_bytes([HASH; 8]);
    let mut chunks = bytes.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        // A byte of `x` is zero where the chunk holds `#`; the lowest such
        // byte is flagged exactly (a borrow only runs upwards).
        let x = u64::from_le_bytes(word) ^ HASHES;
        let zero = x.wrapping_sub(ONES) & !x & HIGHS;
        if zero != 0 {
            return Some(at + (zero.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&b| b == HASH)
        .map(|i| at + i)
}

/// One segment of a key read piece by piece: literal text, holes of a fixed
/// length, and a last hole that runs to the segment's literal end. Made by
/// [`KeyReader::segment`]; errors name the segment as `KeyReader`'s do.
///
/// # Example
///
/// ```
/// use ddb_entity::key::KeyReader;
///
/// // `ISSUE#{number}-{comment}`: a fixed-length hole, literal text, a last hole.
/// let mut key = KeyReader::new("ISSUE#00007-003#REACT");
/// key.literal("ISSUE")?;
/// let mut segment = key.segment()?;
/// let number: u16 = segment.fixed()?;
/// segment.literal("-")?;
/// let comment: u8 = segment.last("")?;
/// assert_eq!((number, comment), (7, 3));
///
/// // A segment read whole, then checked to hold nothing more.
/// let mut segment = key.segment()?;
/// segment.literal("REACT")?;
/// segment.finish()?;
/// key.finish()?;
/// # Ok::<(), ddb_entity::key::KeyError>(())
/// ```
#[derive(Debug, Clone)]
pub struct SegmentReader<'a> {
    index: usize,
    whole: &'a str,
    rest: &'a str,
}

impl<'a> SegmentReader<'a> {
    fn unexpected(&self, expected: &str) -> KeyError {
        KeyError::UnexpectedLiteral {
            index: self.index,
            expected: expected.to_owned(),
            found: excerpt(self.whole),
        }
    }

    fn decode<P: DecodeKeyPart>(&self, text: &str) -> Result<P, KeyError> {
        P::decode_key(text).map_err(|source| KeyError::Segment {
            index: self.index,
            expected: std::any::type_name::<P>(),
            found: excerpt(self.whole),
            source: Box::new(source),
        })
    }

    /// Reads literal text the template has here.
    ///
    /// ```
    /// let mut key = ddb_entity::key::KeyReader::new("REACT02-HEART");
    /// let mut segment = key.segment()?;
    /// assert!(segment.literal("REACTION").is_err());
    /// segment.literal("REACT")?;
    /// # Ok::<(), ddb_entity::key::KeyError>(())
    /// ```
    pub fn literal(&mut self, expected: &str) -> Result<(), KeyError> {
        match self.rest.strip_prefix(expected) {
            Some(rest) => {
                self.rest = rest;
                Ok(())
            }
            None => Err(self.unexpected(expected)),
        }
    }

    /// Decodes a hole of a type with a [`FIXED_LEN`](KeyPart::FIXED_LEN):
    /// exactly that many bytes.
    ///
    /// See [`SegmentReader`'s example](SegmentReader#example).
    pub fn fixed<P: KeyPart + DecodeKeyPart>(&mut self) -> Result<P, KeyError> {
        let len = P::FIXED_LEN.unwrap_or(usize::MAX);
        let (Some(text), Some(rest)) = (self.rest.get(..len), self.rest.get(len..)) else {
            return Err(KeyError::Segment {
                index: self.index,
                expected: std::any::type_name::<P>(),
                found: excerpt(self.whole),
                source: Box::new(KeyError::malformed(
                    "a component of the type's fixed length",
                    self.rest,
                )),
            });
        };
        let value = self.decode(text)?;
        self.rest = rest;
        Ok(value)
    }

    /// Decodes the segment's last hole: everything left but the literal
    /// `suffix` that ends the segment, which must be there.
    ///
    /// See [`SegmentReader`'s example](SegmentReader#example).
    pub fn last<P: DecodeKeyPart>(mut self, suffix: &str) -> Result<P, KeyError> {
        let Some(text) = self.rest.strip_suffix(suffix) else {
            return Err(self.unexpected(suffix));
        };
        self.rest = "";
        self.decode(text)
    }

    /// Checks that the whole segment has been read.
    ///
    /// See [`SegmentReader`'s example](SegmentReader#example).
    pub fn finish(self) -> Result<(), KeyError> {
        if self.rest.is_empty() {
            Ok(())
        } else {
            Err(self.unexpected(""))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time scan finds the first `#` wherever it is, as a
    /// byte-by-byte scan does: every position in texts of every length up
    /// to three words, with and without a second `#`, beside bytes one
    /// above and below it and high bytes (which a borrow could flag).
    #[test]
    fn find_delimiter_is_the_byte_scan() {
        let fill = [b'0', b'"', b'$', 0xff, 0x80, 0xa3];
        for len in 0..=24 {
            for &byte in &fill {
                let mut text = vec![byte; len];
                assert_eq!(find_delimiter(&text), None);
                for first in 0..len {
                    text.fill(byte);
                    text[first] = HASH;
                    assert_eq!(find_delimiter(&text), Some(first));
                    for second in first + 1..len {
                        text[second] = HASH;
                        assert_eq!(find_delimiter(&text), Some(first));
                        text[second] = byte;
                    }
                }
            }
        }
    }

    /// The literal's fast path reads what the segment comparison reads:
    /// the literal followed by `#` or the end; a literal holding `#`, a
    /// longer segment or a prefix are refused as before.
    #[test]
    fn literal_fast_path_is_the_segment_comparison() {
        let cases = [
            ("ORDER#1", "ORDER", Ok(Some("1"))),
            ("ORDER", "ORDER", Ok(None)),
            ("ORDER#", "ORDER", Ok(Some(""))),
            ("ORDERS#1", "ORDER", Err("ORDERS")),
            ("ORD#1", "ORDER", Err("ORD")),
            ("A#B#C", "A#B", Err("A")),
            ("", "", Ok(None)),
            ("#x", "", Ok(Some("x"))),
        ];
        for (key, literal, expected) in cases {
            let mut reader = KeyReader::new(key);
            let read = reader.literal(literal);
            match expected {
                Ok(rest) => {
                    assert_eq!(read, Ok(()), "{key:?} {literal:?}");
                    assert_eq!((reader.rest(), reader.index()), (rest, 1));
                }
                Err(found) => assert_eq!(
                    read,
                    Err(KeyError::UnexpectedLiteral {
                        index: 0,
                        expected: literal.into(),
                        found: found.into(),
                    })
                ),
            }
        }
    }
}
