//! Assembling keys and key prefixes.

use super::{DELIMITER, KeyError, KeyPart, PrefixOf};

/// A key under construction: literal segments and encoded components joined
/// by `#`.
///
/// Each call appends one segment, writing the delimiter before it unless it
/// is the first. One `KeyBuf` yields one key, a component-boundary prefix,
/// or a cut prefix:
///
/// ```
/// use ddb_entity::key::{KeyBuf, StrPrefix};
///
/// // A whole key: ORDER#{placed}#{order_id}
/// let mut key = KeyBuf::with_capacity(32);
/// key.literal("ORDER").part(&20260314u32)?.part(&7u64)?;
/// assert_eq!(key.finish(), "ORDER#0020260314#00000000000000000007");
///
/// // Everything with placed == 20260314, whatever the order id.
/// let mut prefix = KeyBuf::new();
/// prefix.literal("ORDER").part(&20260314u32)?;
/// assert_eq!(prefix.finish_prefix(), "ORDER#0020260314#");
///
/// // Every name starting with "Smi".
/// let mut prefix = KeyBuf::new();
/// prefix.literal("NAME").cut::<String, _>(&StrPrefix("Smi"))?;
/// assert_eq!(prefix.finish_prefix(), "NAME#Smi");
/// # Ok::<(), ddb_entity::key::KeyError>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct KeyBuf {
    key: String,
    /// Whether a segment has been written, so the next one needs a `#`.
    started: bool,
    /// Whether the key ends inside a component (after [`KeyBuf::cut`]).
    cut: bool,
    /// Whether the template continues the last segment ([`KeyBuf::continues`]).
    open: bool,
}

impl KeyBuf {
    /// An empty key.
    ///
    /// ```
    /// assert_eq!(ddb_entity::key::KeyBuf::new().as_str(), "");
    /// ```
    pub fn new() -> Self {
        // Most keys fit: growing from empty reallocates up to four times.
        Self::with_capacity(48)
    }

    /// An empty key with room for `capacity` bytes.
    ///
    /// ```
    /// let key = ddb_entity::key::KeyBuf::with_capacity(64);
    /// assert_eq!(key.finish(), "");
    /// ```
    pub fn with_capacity(capacity: usize) -> Self {
        Self {
            key: String::with_capacity(capacity),
            ..Self::default()
        }
    }

    /// An empty key written into `buffer` (cleared first), to reuse its
    /// allocation.
    pub(crate) fn in_buffer(mut buffer: String) -> Self {
        buffer.clear();
        Self {
            key: buffer,
            ..Self::default()
        }
    }

    fn delimit(&mut self) {
        debug_assert!(
            !self.cut,
            "a key cut inside a component can only be finished"
        );
        if self.started {
            self.key.push(DELIMITER);
        }
        self.started = true;
        self.open = false;
    }

    /// Continues the last segment: no delimiter.
    fn join(&mut self) {
        debug_assert!(
            !self.cut,
            "a key cut inside a component can only be finished"
        );
        self.started = true;
        self.open = false;
    }

    /// Appends a literal segment of a template, such as `ORDER`.
    ///
    /// Literals come from templates checked at compile time and must not
    /// contain `#` (checked in debug builds).
    ///
    /// ```
    /// let mut key = ddb_entity::key::KeyBuf::new();
    /// key.literal("CUST").literal("PROFILE");
    /// assert_eq!(key.as_str(), "CUST#PROFILE");
    /// ```
    pub fn literal(&mut self, literal: &str) -> &mut Self {
        debug_assert!(
            !literal.contains(DELIMITER),
            "key literal {literal:?} contains the delimiter"
        );
        self.delimit();
        self.key.push_str(literal);
        self
    }

    /// Appends a value's component encoding.
    ///
    /// ```
    /// let mut key = ddb_entity::key::KeyBuf::new();
    /// key.literal("CUST").part(&42u16)?;
    /// assert_eq!(key.as_str(), "CUST#00042");
    /// # Ok::<(), ddb_entity::key::KeyError>(())
    /// ```
    pub fn part<P: KeyPart + ?Sized>(&mut self, part: &P) -> Result<&mut Self, KeyError> {
        self.delimit();
        part.encode_key(&mut self.key)?;
        Ok(self)
    }

    /// Appends a partial component: a [`PrefixOf`] cut of a `T` value, such
    /// as a year of a date.
    ///
    /// The key now ends inside this component: only
    /// [`finish_prefix`](Self::finish_prefix) (or `finish`) may follow.
    ///
    /// ```
    /// use ddb_entity::key::{KeyBuf, StrPrefix};
    ///
    /// let mut prefix = KeyBuf::new();
    /// prefix.literal("USER").cut::<str, _>(&StrPrefix("al"))?;
    /// assert_eq!(prefix.finish_prefix(), "USER#al");
    /// # Ok::<(), ddb_entity::key::KeyError>(())
    /// ```
    pub fn cut<T: ?Sized, P: PrefixOf<T> + ?Sized>(
        &mut self,
        cut: &P,
    ) -> Result<&mut Self, KeyError> {
        self.delimit();
        cut.encode_prefix(&mut self.key)?;
        self.cut = true;
        Ok(self)
    }

    /// Appends literal text to the last segment, without a delimiter: the
    /// `REACTION` of a template segment `{kind}REACTION`.
    ///
    /// ```
    /// use ddb_entity::key::KeyBuf;
    ///
    /// let mut key = KeyBuf::new();
    /// key.literal("ISSUE").part(&7u16)?.join_literal("-").join_part(&3u8)?;
    /// assert_eq!(key.finish(), "ISSUE#00007-003");
    /// # Ok::<(), ddb_entity::key::KeyError>(())
    /// ```
    pub fn join_literal(&mut self, literal: &str) -> &mut Self {
        debug_assert!(
            !literal.contains(DELIMITER),
            "key literal {literal:?} contains the delimiter"
        );
        self.join();
        self.key.push_str(literal);
        self
    }

    /// Appends a value's component encoding to the last segment, without a
    /// delimiter: the `{comment}` of `ISSUE#{number}-{comment}`. The
    /// template decides where this keeps the [`KeyPart`] contract (see
    /// [`KeyPart::PREFIX_FREE`] and [`KeyPart::FIXED_LEN`]).
    ///
    /// ```
    /// use ddb_entity::key::KeyBuf;
    ///
    /// let mut key = KeyBuf::new();
    /// key.literal("REACT").join_part(&2u8)?.join_literal("HEART");
    /// assert_eq!(key.finish(), "REACT002HEART");
    /// # Ok::<(), ddb_entity::key::KeyError>(())
    /// ```
    pub fn join_part<P: KeyPart + ?Sized>(&mut self, part: &P) -> Result<&mut Self, KeyError> {
        self.join();
        part.encode_key(&mut self.key)?;
        Ok(self)
    }

    /// [`cut`](Self::cut) inside a value joined to the last segment.
    ///
    /// ```
    /// use ddb_entity::key::{KeyBuf, StrPrefix};
    ///
    /// let mut key = KeyBuf::new();
    /// key.literal("NAME").join_literal("-").join_cut::<String, _>(&StrPrefix("Smi"))?;
    /// assert_eq!(key.finish_prefix(), "NAME-Smi");
    /// # Ok::<(), ddb_entity::key::KeyError>(())
    /// ```
    pub fn join_cut<T: ?Sized, P: PrefixOf<T> + ?Sized>(
        &mut self,
        cut: &P,
    ) -> Result<&mut Self, KeyError> {
        self.join();
        cut.encode_prefix(&mut self.key)?;
        self.cut = true;
        Ok(self)
    }

    /// Appends `value` as it is, for a raw key attribute (a field that is
    /// the whole key): no escaping, no delimiter.
    pub(crate) fn raw(&mut self, value: &str) -> &mut Self {
        self.join();
        self.key.push_str(value);
        self
    }

    /// Records that the template continues the last segment (a hole
    /// follows in it): a [`finish_prefix`](Self::finish_prefix) here ends
    /// without a delimiter, since none comes next in any key.
    ///
    /// ```
    /// use ddb_entity::key::KeyBuf;
    ///
    /// // Every key of `REACT{kind}#…` starts with `REACT`, not `REACT#`.
    /// let mut prefix = KeyBuf::new();
    /// prefix.literal("REACT").continues();
    /// assert_eq!(prefix.finish_prefix(), "REACT");
    /// ```
    pub fn continues(&mut self) -> &mut Self {
        self.open = true;
        self
    }

    /// The key as written so far.
    ///
    /// ```
    /// let mut key = ddb_entity::key::KeyBuf::new();
    /// key.literal("A").part("b c")?;
    /// assert_eq!(key.as_str(), "A#b$`c");
    /// # Ok::<(), ddb_entity::key::KeyError>(())
    /// ```
    pub fn as_str(&self) -> &str {
        &self.key
    }

    /// The whole key.
    ///
    /// ```
    /// let mut key = ddb_entity::key::KeyBuf::new();
    /// key.part("")?;
    /// assert_eq!(key.finish(), "");
    /// # Ok::<(), ddb_entity::key::KeyError>(())
    /// ```
    pub fn finish(self) -> String {
        self.key
    }

    /// The key as a prefix for `begins_with` or [`prefix_upper_bound`].
    ///
    /// After whole segments a trailing `#` is appended, so the prefix ends
    /// at a component boundary: `NAME#Smith#` matches every key whose
    /// component is exactly `Smith`, and never `NAME#Smithson#…`. After a
    /// [`cut`](Self::cut) the prefix ends inside the cut component, as the
    /// cut means, and after [`continues`](Self::continues) inside the
    /// segment the template continues. An empty `KeyBuf` gives the empty
    /// prefix.
    ///
    /// [`prefix_upper_bound`]: crate::key::prefix_upper_bound
    ///
    /// ```
    /// let mut prefix = ddb_entity::key::KeyBuf::new();
    /// prefix.literal("NAME").part("Smith")?;
    /// let prefix = prefix.finish_prefix();
    /// assert_eq!(prefix, "NAME#Smith#");
    /// assert!(!"NAME#Smithson#Ann".starts_with(&prefix));
    /// # Ok::<(), ddb_entity::key::KeyError>(())
    /// ```
    pub fn finish_prefix(mut self) -> String {
        if self.started && !self.cut && !self.open {
            self.key.push(DELIMITER);
        }
        self.key
    }

    /// The whole key, which must not be empty: DynamoDB rejects an empty
    /// string as a key attribute, so catch it before the request.
    ///
    /// ```
    /// use ddb_entity::key::{KeyBuf, KeyError};
    ///
    /// let mut key = KeyBuf::new();
    /// key.part("")?;
    /// assert_eq!(key.finish_partition(), Err(KeyError::EmptyKey));
    ///
    /// let mut key = KeyBuf::new();
    /// key.part("alice")?;
    /// assert_eq!(key.finish_partition()?, "alice");
    /// # Ok::<(), KeyError>(())
    /// ```
    pub fn finish_partition(self) -> Result<String, KeyError> {
        if self.key.is_empty() {
            Err(KeyError::EmptyKey)
        } else {
            Ok(self.key)
        }
    }
}
