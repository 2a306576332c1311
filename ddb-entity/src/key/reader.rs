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

    fn next_segment(&mut self, expected: impl FnOnce() -> String) -> Result<&'a str, KeyError> {
        let Some(rest) = self.rest else {
            return Err(KeyError::MissingSegment {
                index: self.index,
                expected: expected(),
            });
        };
        // A byte scan: keys are short, and a `char` pattern's searcher
        // costs more to set up than the scan (`#` is ASCII, so the split
        // is at a character boundary).
        const HASH: u8 = DELIMITER as u8;
        let at = rest.bytes().position(|b| b == HASH);
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
    pub fn literal(&mut self, expected: &str) -> Result<(), KeyError> {
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
    pub fn part<P: DecodeKeyPart>(&mut self) -> Result<P, KeyError> {
        let index = self.index;
        let expected = std::any::type_name::<P>();
        let segment = self.next_segment(|| expected.to_owned())?;
        P::decode_key(segment).map_err(|source| KeyError::Segment {
            index,
            expected,
            found: excerpt(segment),
            source: Box::new(source),
        })
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
