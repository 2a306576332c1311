//! Parsing keys back into typed parts.

use super::error::excerpt;
use super::{DELIMITER, DecodeKeyPart, KeyError};

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
        let segment = match rest.split_once(DELIMITER) {
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
