//! Order-preserving, injective, reversible key encoding.
//!
//! DynamoDB compares `S` keys by their UTF-8 bytes. Every range query,
//! every `begins_with` and every "newest first" therefore depends on one
//! promise: **the byte order of an encoded key is the order of the typed
//! values it was built from**. This module keeps that promise for every
//! value of every supported type, and for whole composite keys such as
//! `ORDER#{placed}#{order_id}`.
//!
//! A key is a sequence of *segments* joined by the [`DELIMITER`] `#`: the
//! template's literal segments (`ORDER`) and the *components* that typed
//! values encode to through [`KeyPart`]. [`KeyBuf`] assembles keys and
//! prefixes, [`KeyReader`] parses them back, [`prefix_upper_bound`] closes a
//! `BETWEEN` range over a prefix.
//!
//! ```
//! use ddb_entity::key::{KeyBuf, KeyReader};
//!
//! let mut key = KeyBuf::new();
//! key.literal("NAME").part("Smith Jr")?.part(&7u32)?;
//! let key = key.finish();
//! assert_eq!(key, "NAME#Smith$`Jr#0000000007");
//!
//! let mut reader = KeyReader::new(&key);
//! reader.literal("NAME")?;
//! let last: String = reader.part()?;
//! let n: u32 = reader.part()?;
//! reader.finish()?;
//! assert_eq!((last.as_str(), n), ("Smith Jr", 7));
//! # Ok::<(), ddb_entity::key::KeyError>(())
//! ```
//!
//! # Formats
//!
//! | type | component | example |
//! | --- | --- | --- |
//! | `u8`…`u128`, `usize` | zero-padded decimal, full width | `42u32` → `0000000042` |
//! | `i8`…`i128`, `isize` | as unsigned; negatives `-` + nine's complement | `-1i32` → `-9999999998` |
//!
//! `u128` and `i128` encode, but an entity cannot have them as key fields:
//! DynamoDB numbers hold 38 digits, so the item body cannot store every
//! value, and `#[derive(Entity)]` refuses them at compile time. Wrap one
//! in a newtype that serialises as a string and implements [`KeyPart`] by
//! delegating to it.
//!
//! | [`Padded<W, T>`](Padded) | as above, `W` digits | `Padded::<6, u32>(42)` → `000042` |
//! | `f32`, `f64` | IEEE-754 total order as fixed-width hex | `1.0f64` → `bff0000000000000` |
//! | `bool` | `false` / `true` | |
//! | `str`, `String`, `char` | bytes `<= $` escaped as `$` + byte + 0x40 | `"a b"` → ``a$`b`` |
//! | unit enums, `#[derive(KeyPart)]` | the name or rename; ordered only if the names sort as declared (`#[key(format = "position")]`: position in two digits, `-`, name) | `Priority::High` → `High` |
//! | `NaiveDate` | `YYYY-MM-DD` | `2026-03-14` |
//! | `NaiveTime` | `HH:MM:SS.nnnnnnnnn` | `09:31:00.000000000` |
//! | `NaiveDateTime` | `YYYY-MM-DDTHH:MM:SS.nnnnnnnnn` | |
//! | `DateTime<Utc>` | `YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ` | `2026-03-14T09:31:00.000000000Z` |
//! | `Uuid` | lowercase hyphenated | `67e55044-10b1-426f-9247-bb680e5fe0c8` |
//! | `Ulid` | 26 Crockford base32 characters | `01ARZ3NDEKTSV4RRFFQ69G5FAV` |
//!
//! The chrono types need the feature `chrono`, `Uuid` the feature `uuid`,
//! `Ulid` the feature `ulid`. Each module's docs state the exact format and
//! why it sorts.

mod bound;
mod builder;
mod cardinality;
mod error;
mod float;
#[cfg(any(feature = "uuid", feature = "ulid"))]
mod id;
mod int;
#[cfg(feature = "chrono")]
mod iso;
mod reader;
mod scalar;
mod string;
#[cfg(feature = "chrono")]
mod time;
#[cfg(feature = "chrono")]
mod unix;
mod unordered;

use std::borrow::Cow;
use std::rc::Rc;
use std::sync::Arc;

pub use bound::{
    PARTITION_KEY_MAX_BYTES, SORT_KEY_MAX_BYTES, greatest_below, prefix_successor,
    prefix_upper_bound,
};
pub use builder::KeyBuf;
pub use cardinality::Cardinality;
pub use error::KeyError;
pub use int::{Padded, PaddedInt};
#[cfg(feature = "chrono")]
#[cfg_attr(docsrs, doc(cfg(feature = "chrono")))]
pub use iso::{IsoMillis, IsoNanos, IsoSeconds};
pub use reader::{KeyReader, SegmentReader};
pub use string::StrPrefix;
#[cfg(feature = "chrono")]
#[cfg_attr(docsrs, doc(cfg(feature = "chrono")))]
pub use time::{DateOf, Year, YearMonth, date_of};
#[cfg(feature = "chrono")]
#[cfg_attr(docsrs, doc(cfg(feature = "chrono")))]
pub use unix::{UnixMillis, UnixSeconds};
pub use unordered::Unordered;

/// The byte that joins the segments of a key: `#` (0x23).
///
/// No component encoding ever contains it, nor any byte below it; see
/// [`KeyPart`] for why that one invariant carries the whole contract.
///
/// ```
/// assert_eq!(ddb_entity::key::DELIMITER, '#');
/// ```
pub const DELIMITER: char = '#';

/// The delimiters a table may declare for its keys (`delimiter: '|'` in
/// [`table!`](crate::table!)), `#` first, the default and the library's own.
///
/// A table designed by hand often joins its key segments with another
/// character: `TENANT|acme`, `USER:ann`, `device_12`. Declared on the
/// table, it is the one truth its entities' templates are checked against
/// at compile time: a template that joins segments with `#` on a table of
/// `|` does not compile. The delimiter is then literal text between a
/// template's holes, and what the contract needs of a hole followed by
/// more of the key is what it needs of a hole followed by literal text
/// ([`KeyPart::PREFIX_FREE`], [`KeyPart::FIXED_LEN`]): every one of these
/// delimiters but `#` sorts above some bytes a string writes (`|` is 0x7C,
/// above every letter), so `"a|…"` would sort after `"ab|…"` — a string
/// can only be the last hole of such a key. `#` (0x23) sorts below every
/// byte of an escaped component, which is why it alone joins
/// variable-length components in order.
///
/// Not among them: letters and digits (text), `{` `}` (template syntax),
/// `$` (the string escape), `-` and `.` (inside the library's own
/// encodings of dates, negative numbers and enums, so keys could not be
/// read by eye nor split by the survey), whitespace and quotes.
///
/// ```
/// use ddb_entity::key::{KEY_DELIMITERS, is_key_delimiter};
/// assert_eq!(KEY_DELIMITERS[0], '#');
/// assert!(is_key_delimiter('|') && is_key_delimiter(':') && is_key_delimiter('_'));
/// assert!(!is_key_delimiter('-') && !is_key_delimiter('a') && !is_key_delimiter('$'));
/// ```
pub const KEY_DELIMITERS: &[char] = &['#', '|', ':', '_', '/', '~', ';', ','];

/// Whether `delimiter` is one of [`KEY_DELIMITERS`] (see its example).
///
/// ```
/// assert!(ddb_entity::key::is_key_delimiter('#'));
/// ```
pub const fn is_key_delimiter(delimiter: char) -> bool {
    let mut i = 0;
    while i < KEY_DELIMITERS.len() {
        if KEY_DELIMITERS[i] == delimiter {
            return true;
        }
        i += 1;
    }
    false
}

/// A value that can fill a `{hole}` of a key template.
///
/// # The contract
///
/// An implementation appends a *component* to a key. For all values `a`,
/// `b` of the implementing type it promises:
///
/// 1. **Order**: `a < b` ⇔ `enc(a) < enc(b)`, comparing the UTF-8 bytes
///    as DynamoDB does, and `a == b` ⇔ `enc(a) == enc(b)`.
/// 2. **Round trip**: [`DecodeKeyPart::decode_key`]`(enc(a)) == a`.
/// 3. **Injectivity**: distinct values never encode equal (this follows
///    from 1, and is what keeps one entity's key space sealed from
///    another's).
/// 4. **Component bytes**: every byte of `enc(a)` is greater than `0x23`,
///    the [`DELIMITER`] `#`. In particular no value ever writes a `#`.
///
/// # Why one byte rule is enough
///
/// A composite key joins components with `#`:
/// `enc(a₁) # enc(a₂) # …`. Compare two keys of one template,
/// `(a₁, a₂, …)` and `(b₁, b₂, …)`, byte by byte:
///
/// - If `enc(a₁) == enc(b₁)` both continue with `#` and the comparison
///   moves on to the next component, just as tuple comparison moves on
///   when `a₁ == b₁`.
/// - If the encodings first differ at a byte inside both, that byte
///   decides, and by rule 1 it decides as `a₁.cmp(b₁)` does.
/// - If `enc(a₁)` is a proper prefix of `enc(b₁)`, the shorter key
///   continues with `#` (0x23) while the longer continues with a
///   component byte, which rule 4 makes greater than `0x23`; so the key
///   built from `a₁` sorts first, and rule 1 says `a₁ < b₁`.
///
/// So **tuple order ⇔ byte order of the joined key**. And because no
/// component contains `#`, splitting a key on `#` recovers exactly the
/// components it was built from: no value can forge a delimiter, alias two
/// holes, or reach into another entity's key space.
///
/// **Segments of several pieces.** A template may also put literal text
/// and holes side by side in one segment (`{kind}REACTION`,
/// `{number}-{comment}`), written with [`KeyBuf::join_literal`] and
/// [`KeyBuf::join_part`]. The argument above then needs one more property
/// of a hole followed by more text in its segment: that no encoding of its
/// type is a proper prefix of another's ([`PREFIX_FREE`](Self::PREFIX_FREE)),
/// so two keys of one template first differ inside that hole's encodings,
/// and decide as the values do; followed by another hole it must also have
/// one length ([`FIXED_LEN`](Self::FIXED_LEN)), which is how
/// [`KeyReader::segment`] cuts the segment back into its parts. Literal
/// text is the same in every key of a template, so it never decides.
/// `#[derive(Entity)]` checks both at compile time. A leading `#` (an empty
/// first literal segment) is a literal like any other.
///
/// The same rule makes prefixes honest: `NAME#Smith#` (a prefix cut at a
/// component boundary, see [`KeyBuf::finish_prefix`]) matches every key whose
/// last name is exactly `Smith` and never `NAME#Smithson#…`.
///
/// # Implementing it
///
/// Unit enums get an implementation from `#[derive(KeyPart)]`: a variant
/// encodes as its name or `#[key(rename = "…")]` (`High`), so adding a
/// variant changes no stored key; [`ORDERED`](Self::ORDERED) and
/// [`PREFIX_FREE`](Self::PREFIX_FREE) are computed from the names at
/// compile time, and a sort key accepts only an ordered enum (names that
/// sort as declared, or `#[key(format = "position")]`: `02-High`). By hand, the
/// easiest correct route is to map onto a type that already keeps the
/// contract:
///
/// ```
/// use ddb_entity::key::{self, DecodeKeyPart, KeyError, KeyPart};
///
/// /// Priority 1 sorts first.
/// #[derive(Debug, PartialEq, PartialOrd)]
/// struct Priority(u8);
///
/// impl KeyPart for Priority {
///     fn encode_key(&self, out: &mut String) -> Result<(), KeyError> {
///         self.0.encode_key(out)
///     }
/// }
/// impl DecodeKeyPart for Priority {
///     fn decode_key(component: &str) -> Result<Self, KeyError> {
///         u8::decode_key(component).map(Priority)
///     }
/// }
///
/// assert_eq!(key::encode(&Priority(1))?, "001");
/// assert_eq!(key::decode::<Priority>("001")?, Priority(1));
/// # Ok::<(), KeyError>(())
/// ```
///
/// # Example
///
/// What the built-in types declare:
///
/// ```
/// use ddb_entity::key::{Cardinality, KeyPart, Unordered};
///
/// assert_eq!(<u32 as KeyPart>::FIXED_LEN, Some(10));
/// assert_eq!(<String as KeyPart>::FIXED_LEN, None);
/// assert!(<u32 as KeyPart>::PREFIX_FREE && !<String as KeyPart>::PREFIX_FREE);
/// assert_eq!(<bool as KeyPart>::CARDINALITY, Cardinality::AtMost(2));
/// assert_eq!(<String as KeyPart>::CARDINALITY, Cardinality::Unbounded);
/// assert!(<i64 as KeyPart>::ORDERED && !<Unordered<u64> as KeyPart>::ORDERED);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be used in a DynamoDB key template",
    label = "this field's type has no order-preserving key encoding",
    note = "implement `ddb_entity::key::KeyPart` (and `DecodeKeyPart`), derive `KeyPart` for a unit enum, or use a supported type: integers, f32/f64, bool, char, String, and with features chrono dates/times, uuid, ulid"
)]
pub trait KeyPart {
    /// Appends this value's component encoding to `out`.
    ///
    /// Never writes `#` nor any byte below it. On error `out` may hold a
    /// partial component; callers discard the key.
    ///
    /// ```
    /// use ddb_entity::key::KeyPart;
    ///
    /// let mut out = String::from("CUST#");
    /// 42u64.encode_key(&mut out)?;
    /// assert_eq!(out, "CUST#00000000000000000042");
    /// # Ok::<(), ddb_entity::key::KeyError>(())
    /// ```
    fn encode_key(&self, out: &mut String) -> Result<(), KeyError>;

    /// Appends this value's encoding in a hole that ends a segment of a
    /// *partition* key without a declared width, where order is never
    /// observed (a partition key is only matched for equality): the
    /// [`encode_key`](Self::encode_key) encoding, except that integers are
    /// written as plain decimals (`CUST#42`), as hand-written tables write them. It
    /// keeps the round trip and injectivity
    /// ([`DecodeKeyPart::decode_partition`] parses it back, strictly), not
    /// order, and writes no byte up to `#`.
    ///
    /// ```
    /// use ddb_entity::key::KeyPart;
    ///
    /// let mut out = String::from("CUST#");
    /// 42u64.encode_partition(&mut out)?;
    /// assert_eq!(out, "CUST#42");
    /// # Ok::<(), ddb_entity::key::KeyError>(())
    /// ```
    fn encode_partition(&self, out: &mut String) -> Result<(), KeyError> {
        self.encode_key(out)
    }

    /// Why a field of this type cannot fill a hole of an entity's key
    /// template although the type has a key encoding: the item body cannot
    /// hold every value (`u128`, `i128`: DynamoDB numbers have 38 digits).
    /// `#[derive(Entity)]` refuses such a field at compile time with this
    /// message. `None` for every other type.
    #[doc(hidden)]
    const NOT_AN_ENTITY_FIELD: Option<&'static str> = None;

    /// The byte length of *every* encoding of this type, when it is the
    /// same for all values (`u32`: 10 digits, `Uuid`: 36 characters);
    /// `None` otherwise (the default: strings, signed integers, `bool`).
    ///
    /// A template may put a hole and more text in one segment
    /// (`"ISSUE#{number}-{comment}"`): a hole followed there by another
    /// hole must have a fixed length, which is how a key is cut back into
    /// its parts. `#[derive(Entity)]` checks it at compile time. Declaring
    /// it is a promise: every encoding has exactly this many bytes.
    ///
    /// See [the example](KeyPart#example).
    const FIXED_LEN: Option<usize> = None;

    /// Whether no encoding of this type is a proper prefix of another's
    /// (`bool`: `false`/`true`; derived unit enums: when no name begins
    /// another). True for every type with a
    /// [`FIXED_LEN`](Self::FIXED_LEN), false by default (a string's
    /// encoding continues with more characters: `a` of `ab`).
    ///
    /// A hole followed by literal text in its segment (`"{kind}REACTION"`)
    /// keeps the order of rule 1 only for such a type: for a string,
    /// `"a" + "REACTION"` sorts after `"aB" + "REACTION"` although `"a"` is
    /// less than `"aB"`. `#[derive(Entity)]` checks it at compile time.
    ///
    /// See [the example](KeyPart#example).
    const PREFIX_FREE: bool = Self::FIXED_LEN.is_some();

    /// Whether decoding is exactly the inverse of encoding, in every form
    /// the type writes (full, declared width, partition): a component that
    /// decodes to a value is exactly what encoding that value writes, and
    /// a value serialises as itself to a [`KeyFieldValue`] (so equal
    /// serialisations are equal values). Then a key field read back from a
    /// stored key, found unchanged in the decoded value, proves its part of
    /// the key without writing it again. True for the library's integers
    /// only; false by default, and a promise where it is set.
    ///
    /// [`KeyFieldValue`]: crate::codec::KeyFieldValue
    #[doc(hidden)]
    const CANONICAL: bool = false;

    /// How many distinct values the type can write, as far as it decides
    /// how writes spread over partitions ([`Cardinality`]): `bool` and unit
    /// enums few, narrow integers a bounded number, a date one per day;
    /// [`Unbounded`](Cardinality::Unbounded) by default. The hot-partition
    /// lint (`ddb_entity::lint::hot_partitions`) flags a
    /// partition key whose holes all have few values. Declaring it is a
    /// promise only as far as the lint goes: nothing else reads it.
    ///
    /// See [the example](KeyPart#example).
    const CARDINALITY: Cardinality = Cardinality::Unbounded;
    /// Whether byte order of encodings is the order of values (promise 1
    /// above). [`Unordered`] says no (numbers that hand-written keys hold
    /// unpadded), and so does a derived unit enum whose stored names do
    /// not sort as declared. A sort-key builder refuses to make a range
    /// bound of an `Unordered` hole; `#[derive(Entity)]` refuses any other
    /// unordered type in a sort key at compile time.
    ///
    /// See [the example](KeyPart#example).
    const ORDERED: bool = true;
}

/// Parses a component written by [`KeyPart::encode_key`] back into a value.
///
/// Decoding is strict: it accepts only canonical encodings, so
/// `decode(enc(x)) == x` and any other text — a hand-written key, another
/// type's component, a foreign entity's key — is a [`KeyError`], never a
/// near-miss value.
///
/// # Example
///
/// ```
/// use ddb_entity::key::DecodeKeyPart;
///
/// assert_eq!(u16::decode_key("00042")?, 42);
/// assert!(u16::decode_key("42").is_err());
/// assert!(u16::decode_key("+0042").is_err());
/// # Ok::<(), ddb_entity::key::KeyError>(())
/// ```
pub trait DecodeKeyPart: Sized {
    /// Parses one component (the text between two `#`).
    ///
    /// See [the example](DecodeKeyPart#example).
    fn decode_key(component: &str) -> Result<Self, KeyError>;

    /// Parses a component written by [`KeyPart::encode_partition`]: for
    /// integers the canonical plain decimal (no sign but a leading `-`, no
    /// leading zero), for every other type [`decode_key`](Self::decode_key).
    ///
    /// ```
    /// use ddb_entity::key::DecodeKeyPart;
    ///
    /// assert_eq!(u64::decode_partition("42")?, 42);
    /// assert!(u64::decode_partition("042").is_err());
    /// assert_eq!(i32::decode_partition("-7")?, -7);
    /// assert!(i32::decode_partition("-0").is_err());
    /// # Ok::<(), ddb_entity::key::KeyError>(())
    /// ```
    fn decode_partition(component: &str) -> Result<Self, KeyError> {
        Self::decode_key(component)
    }
}

/// A value that encodes a left cut of `T`'s component encoding, such as the
/// year of a date or the first letters of a name.
///
/// # The contract
///
/// For every `x: T`, `enc(cut)` is a byte-prefix of `enc(x)` exactly when
/// `x` lies under the cut (the date is in that year, the name starts with
/// those letters). Its bytes obey the component rule of [`KeyPart`].
///
/// A cut ends a key: [`KeyBuf::cut`] writes it as the last, partial
/// component of a `begins_with` prefix.
///
/// # Example
///
/// ```
/// use ddb_entity::key::{self, PrefixOf, StrPrefix};
///
/// let mut cut = String::new();
/// PrefixOf::<String>::encode_prefix(&StrPrefix("Smith J"), &mut cut)?;
/// assert!(key::encode("Smith Jr")?.starts_with(&cut));
/// assert!(!key::encode("Smithson")?.starts_with(&cut));
/// # Ok::<(), ddb_entity::key::KeyError>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot cut a key hole of type `{T}`",
    label = "not a left part of a `{T}` key",
    note = "a cut is a left part of the hole's encoding: `StrPrefix(\"…\")` of a string, `Year(…)` or `YearMonth(…)` of a chrono date or time, a `NaiveDate` of a date-time; other types have none, so fill the whole hole instead"
)]
pub trait PrefixOf<T: ?Sized> {
    /// Appends the partial component to `out`.
    ///
    /// See [the example](PrefixOf#example).
    fn encode_prefix(&self, out: &mut String) -> Result<(), KeyError>;
}

/// Encodes one value as a standalone component.
///
/// ```
/// use ddb_entity::key;
///
/// assert_eq!(key::encode(&-5i8)?, "-994");
/// assert_eq!(key::encode("a#b")?, "a$cb");
/// # Ok::<(), key::KeyError>(())
/// ```
pub fn encode<P: KeyPart + ?Sized>(part: &P) -> Result<String, KeyError> {
    let mut out = String::new();
    part.encode_key(&mut out)?;
    Ok(out)
}

/// Decodes one standalone component.
///
/// ```
/// use ddb_entity::key;
///
/// assert_eq!(key::decode::<i8>("-994")?, -5);
/// assert_eq!(key::decode::<String>("a$cb")?, "a#b");
/// # Ok::<(), key::KeyError>(())
/// ```
pub fn decode<P: DecodeKeyPart>(component: &str) -> Result<P, KeyError> {
    P::decode_key(component)
}

// Pointer-like wrappers encode as what they point to, so templates accept
// `&str`, `Cow<str>`, `Arc<str>` fields without copies.

impl<T: KeyPart + ?Sized> KeyPart for &T {
    const NOT_AN_ENTITY_FIELD: Option<&'static str> = T::NOT_AN_ENTITY_FIELD;
    const FIXED_LEN: Option<usize> = T::FIXED_LEN;
    const PREFIX_FREE: bool = T::PREFIX_FREE;
    const CARDINALITY: Cardinality = T::CARDINALITY;
    const ORDERED: bool = T::ORDERED;

    fn encode_key(&self, out: &mut String) -> Result<(), KeyError> {
        (**self).encode_key(out)
    }

    fn encode_partition(&self, out: &mut String) -> Result<(), KeyError> {
        (**self).encode_partition(out)
    }
}

impl<T: KeyPart + ?Sized> KeyPart for Box<T> {
    const NOT_AN_ENTITY_FIELD: Option<&'static str> = T::NOT_AN_ENTITY_FIELD;
    const FIXED_LEN: Option<usize> = T::FIXED_LEN;
    const PREFIX_FREE: bool = T::PREFIX_FREE;
    const CARDINALITY: Cardinality = T::CARDINALITY;
    const ORDERED: bool = T::ORDERED;

    fn encode_key(&self, out: &mut String) -> Result<(), KeyError> {
        (**self).encode_key(out)
    }

    fn encode_partition(&self, out: &mut String) -> Result<(), KeyError> {
        (**self).encode_partition(out)
    }
}

impl<T: KeyPart + ?Sized> KeyPart for Arc<T> {
    const NOT_AN_ENTITY_FIELD: Option<&'static str> = T::NOT_AN_ENTITY_FIELD;
    const FIXED_LEN: Option<usize> = T::FIXED_LEN;
    const PREFIX_FREE: bool = T::PREFIX_FREE;
    const CARDINALITY: Cardinality = T::CARDINALITY;
    const ORDERED: bool = T::ORDERED;

    fn encode_key(&self, out: &mut String) -> Result<(), KeyError> {
        (**self).encode_key(out)
    }

    fn encode_partition(&self, out: &mut String) -> Result<(), KeyError> {
        (**self).encode_partition(out)
    }
}

impl<T: KeyPart + ?Sized> KeyPart for Rc<T> {
    const NOT_AN_ENTITY_FIELD: Option<&'static str> = T::NOT_AN_ENTITY_FIELD;
    const FIXED_LEN: Option<usize> = T::FIXED_LEN;
    const PREFIX_FREE: bool = T::PREFIX_FREE;
    const CARDINALITY: Cardinality = T::CARDINALITY;
    const ORDERED: bool = T::ORDERED;

    fn encode_key(&self, out: &mut String) -> Result<(), KeyError> {
        (**self).encode_key(out)
    }

    fn encode_partition(&self, out: &mut String) -> Result<(), KeyError> {
        (**self).encode_partition(out)
    }
}

impl<T: KeyPart + ToOwned + ?Sized> KeyPart for Cow<'_, T> {
    const NOT_AN_ENTITY_FIELD: Option<&'static str> = T::NOT_AN_ENTITY_FIELD;
    const FIXED_LEN: Option<usize> = T::FIXED_LEN;
    const PREFIX_FREE: bool = T::PREFIX_FREE;
    const CARDINALITY: Cardinality = T::CARDINALITY;
    const ORDERED: bool = T::ORDERED;

    fn encode_key(&self, out: &mut String) -> Result<(), KeyError> {
        (**self).encode_key(out)
    }

    fn encode_partition(&self, out: &mut String) -> Result<(), KeyError> {
        (**self).encode_partition(out)
    }
}
