//! Integers: fixed-width decimal.
//!
//! # Format
//!
//! Every integer type has a *width* `W`, the number of decimal digits of its
//! `MAX` ([`PaddedInt::MAX_DIGITS`]): `u8`/`i8` 3, `u16`/`i16` 5,
//! `u32`/`i32` 10, `u64` 20, `i64` 19, `u128`/`i128` 39, and `usize`/`isize`
//! as `u64`/`i64` on 64-bit targets.
//!
//! - A non-negative value is its decimal digits, left-padded with `0` to
//!   exactly `W` digits: `42u32` → `0000000042`.
//! - A negative value is `-` followed by the *nine's complement* of its
//!   magnitude padded to `W` digits (each digit `d` written as `9 - d`):
//!   `-1i32` → `-9999999998`, `-42i32` → `-9999999957`.
//!
//! # Why it sorts
//!
//! Equal-width digit strings compare as the numbers they spell. `-` (0x2D)
//! sorts below every digit, so negatives come before non-negatives; among
//! negatives a larger magnitude has a smaller complement, so `-42` sorts
//! before `-1`. (Left-padding alone, as some libraries do, turns `-5` into
//! `00-5` and sorts it among the positives.) `-`, `0`…`9` are all above the
//! delimiter `#`. A complement of all nines would be `-0`, which no value
//! encodes to and decoding rejects.
//!
//! # Declared width
//!
//! [`Padded<W, T>`](Padded) (or `#[key(width = W)]` in a template) uses
//! `W` digits instead of the type's full width. A value whose magnitude has
//! more than `W` digits is [`KeyError::WidthOverflow`], never a truncated
//! and mis-sorted key.

use super::{Cardinality, DecodeKeyPart, KeyError, KeyPart};

/// An integer type that can be written with a declared number of digits.
///
/// Implemented for every primitive integer type; the full-width
/// [`KeyPart`] implementations are `encode_padded(MAX_DIGITS)`.
///
/// # Example
///
/// ```
/// use ddb_entity::key::{KeyError, PaddedInt};
///
/// let mut out = String::new();
/// 42u32.encode_padded(6, &mut out)?;
/// assert_eq!(out, "000042");
/// assert_eq!(u32::decode_padded("000042", 6)?, 42);
/// assert_eq!((u8::MAX_DIGITS, u32::MAX_DIGITS, i64::MAX_DIGITS), (3, 10, 19));
///
/// let mut out = String::new();
/// assert_eq!(
///     1_000_000u32.encode_padded(6, &mut out),
///     Err(KeyError::WidthOverflow { value: "1000000".into(), digits: 7, width: 6 })
/// );
/// assert_eq!(
///     7u8.encode_padded(4, &mut out),
///     Err(KeyError::InvalidWidth { width: 4, max: 3 })
/// );
/// # Ok::<(), KeyError>(())
/// ```
pub trait PaddedInt: KeyPart + DecodeKeyPart + Copy {
    /// Decimal digits of the type's `MAX`: its full key width.
    ///
    /// See [the example](PaddedInt#example).
    const MAX_DIGITS: usize;

    /// Appends the value as `width` digits (plus a leading `-` for a
    /// negative value).
    ///
    /// Errors with [`KeyError::InvalidWidth`] unless
    /// `1 <= width <= MAX_DIGITS`, and with [`KeyError::WidthOverflow`] if
    /// the magnitude has more than `width` digits.
    ///
    /// See [the example](PaddedInt#example).
    fn encode_padded(&self, width: usize, out: &mut String) -> Result<(), KeyError>;

    /// Parses exactly what [`encode_padded`](Self::encode_padded) writes for
    /// `width`, and nothing else.
    ///
    /// See [the example](PaddedInt#example).
    fn decode_padded(component: &str, width: usize) -> Result<Self, KeyError>;
}

/// An integer written with exactly `WIDTH` digits instead of its type's full
/// width.
///
/// For readable keys with small numbers, or to match keys written by another
/// system. Values that need more digits are an error when the key is
/// built.
///
/// ```
/// use ddb_entity::key::{self, KeyError, Padded};
///
/// assert_eq!(key::encode(&Padded::<6, u32>(42))?, "000042");
/// assert_eq!(key::encode(&Padded::<3, i64>(-7))?, "-992");
/// assert_eq!(key::decode::<Padded<6, u32>>("000042")?, Padded(42));
/// assert!(matches!(
///     key::encode(&Padded::<2, u8>(100)),
///     Err(KeyError::WidthOverflow { digits: 3, width: 2, .. })
/// ));
/// # Ok::<(), KeyError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Padded<const WIDTH: usize, T>(pub T);

impl<const WIDTH: usize, T: PaddedInt> KeyPart for Padded<WIDTH, T> {
    const NOT_AN_ENTITY_FIELD: Option<&'static str> = T::NOT_AN_ENTITY_FIELD;
    // As `T`'s: `WIDTH` digits for an unsigned type, one more for a
    // negative value of a signed one.
    const FIXED_LEN: Option<usize> = match T::FIXED_LEN {
        Some(_) => Some(WIDTH),
        None => None,
    };
    const PREFIX_FREE: bool = T::PREFIX_FREE;
    // `WIDTH` digits hold 10^WIDTH magnitudes (each also negative, but for
    // zero, for a signed type), and no more values than `T` has.
    const CARDINALITY: Cardinality = {
        let magnitudes = match 10u128.checked_pow(WIDTH as u32) {
            Some(n) => n - 1,
            None => u128::MAX,
        };
        let min = if T::PREFIX_FREE && T::FIXED_LEN.is_none() {
            -(magnitudes as i128)
        } else {
            0
        };
        Cardinality::integers(min, magnitudes).min(T::CARDINALITY)
    };

    fn encode_key(&self, out: &mut String) -> Result<(), KeyError> {
        self.0.encode_padded(WIDTH, out)
    }
}

impl<const WIDTH: usize, T: PaddedInt> DecodeKeyPart for Padded<WIDTH, T> {
    fn decode_key(component: &str) -> Result<Self, KeyError> {
        T::decode_padded(component, WIDTH).map(Padded)
    }
}

/// Decimal digits of `n` (1 for zero).
const fn digit_count(mut n: u128) -> usize {
    let mut digits = 1;
    while n >= 10 {
        n /= 10;
        digits += 1;
    }
    digits
}

/// The longest component any integer writes: `-` and 39 digits.
const BUF_LEN: usize = 40;

/// `"00" "01" … "99"`: two digits per division, as `core::fmt` does.
const PAIRS: [u8; 200] = {
    let mut pairs = [0; 200];
    let mut i = 0;
    while i < 100 {
        pairs[2 * i] = b'0' + (i / 10) as u8;
        pairs[2 * i + 1] = b'0' + (i % 10) as u8;
        i += 1;
    }
    pairs
};

/// Most decimal digits that always fit a `u64` (`10^19 - 1 < 2^64`).
const U64_SAFE_DIGITS: usize = 19;

/// A stack buffer of ASCII zeros into which digits are written from the end.
struct Digits {
    buf: [u8; BUF_LEN],
    start: usize,
}

impl Digits {
    /// The decimal digits of `n`, without leading zeros.
    fn of(n: u128) -> Self {
        let mut digits = Self {
            buf: [b'0'; BUF_LEN],
            start: BUF_LEN,
        };
        // u128 division is a library call; leave it as soon as `n` fits u64.
        let mut n = n;
        let mut small = loop {
            match u64::try_from(n) {
                Ok(small) => break small,
                Err(_) => {
                    digits.push_front(b'0' + (n % 10) as u8);
                    n /= 10;
                }
            }
        };
        while small >= 100 {
            let pair = (small % 100) as usize * 2;
            small /= 100;
            digits.push_front(PAIRS[pair + 1]);
            digits.push_front(PAIRS[pair]);
        }
        if small >= 10 {
            let pair = small as usize * 2;
            digits.push_front(PAIRS[pair + 1]);
            digits.push_front(PAIRS[pair]);
        } else {
            digits.push_front(b'0' + small as u8);
        }
        digits
    }

    fn push_front(&mut self, byte: u8) {
        // At most 39 digits and one sign are pushed, so this never
        // saturates; saturating keeps that a non-panicking invariant.
        self.start = self.start.saturating_sub(1);
        self.buf[self.start] = byte;
    }

    fn len(&self) -> usize {
        BUF_LEN - self.start
    }

    /// Extends the digits to `width` with the buffer's leading zeros.
    fn pad_to(&mut self, width: usize) {
        self.start = BUF_LEN.saturating_sub(width).min(self.start);
    }

    fn nines_complement(&mut self) {
        for b in &mut self.buf[self.start..] {
            *b = b'9' - (*b - b'0');
        }
    }

    fn write_to(&self, out: &mut String) {
        let bytes = &self.buf[self.start..];
        // Digits and `-` are ASCII, so the first arm is always taken.
        match std::str::from_utf8(bytes) {
            Ok(ascii) => out.push_str(ascii),
            Err(_) => out.extend(bytes.iter().map(|&b| char::from(b))),
        }
    }

    /// Writes `n` as `width` digits, or reports how many it needs.
    fn write_padded(
        n: u128,
        negative: bool,
        width: usize,
        out: &mut String,
    ) -> Result<(), KeyError> {
        let mut digits = Self::of(n);
        if digits.len() > width {
            return Err(KeyError::WidthOverflow {
                value: format!("{}{n}", if negative { "-" } else { "" }),
                digits: digits.len(),
                width,
            });
        }
        digits.pad_to(width);
        if negative {
            digits.nines_complement();
            digits.push_front(b'-');
        }
        digits.write_to(out);
        Ok(())
    }
}

fn check_width(width: usize, max: usize) -> Result<(), KeyError> {
    if width == 0 || width > max {
        Err(KeyError::InvalidWidth { width, max })
    } else {
        Ok(())
    }
}

/// Parses exactly `width` ASCII digits (read as their nine's complement if
/// `complement`), rejecting any value above `max`.
///
/// `None` for anything else: other lengths, signs, non-digits, overflow.
#[inline(always)]
fn parse_digits(text: &str, width: usize, complement: bool, max: u128) -> Option<u128> {
    if text.len() != width {
        return None;
    }
    let digit = |b: u8| {
        let d = b.wrapping_sub(b'0');
        (d <= 9).then(|| if complement { 9 - d } else { d })
    };
    let (head, tail) = text.as_bytes().split_at(width.min(U64_SAFE_DIGITS));
    let mut small: u64 = 0;
    let mut eights = head.chunks_exact(8);
    for eight in &mut eights {
        small = small * 100_000_000 + eight_digits(eight, complement)?;
    }
    for &b in eights.remainder() {
        small = small * 10 + u64::from(digit(b)?);
    }
    let mut tail = tail.iter();
    // A twentieth digit (a full-width `u64`) still fits a `u64` unless
    // the value is above `u64::MAX`; `u128` arithmetic only beyond.
    let mut value = match tail.next() {
        None => u128::from(small),
        Some(&b) => {
            let d = u64::from(digit(b)?);
            match small.checked_mul(10).and_then(|n| n.checked_add(d)) {
                Some(n) => u128::from(n),
                None => u128::from(small) * 10 + u128::from(d),
            }
        }
    };
    for &b in tail {
        value = value.checked_mul(10)?.checked_add(u128::from(digit(b)?))?;
    }
    (value <= max).then_some(value)
}

/// The value of eight ASCII digits (each read as its nine's complement
/// with `complement`), the first the most significant; `None` unless all
/// eight are digits. A handful of word operations instead of eight steps.
#[inline]
fn eight_digits(eight: &[u8], complement: bool) -> Option<u64> {
    const ZEROS: u64 = u64::from_ne_bytes([b'0'; 8]);
    const SIXES: u64 = u64::from_ne_bytes([6; 8]);
    const NINES: u64 = u64::from_ne_bytes([9; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0xf0; 8]);
    let mut word = [0; 8];
    word.copy_from_slice(eight);
    let word = u64::from_le_bytes(word);
    // A digit is 0x30..=0x39: high nibble 3, and still 3 with 6 added (no
    // byte carries into the next: each is at most 0x3f by then).
    if word & HIGH != ZEROS || word.wrapping_add(SIXES) & HIGH != ZEROS {
        return None;
    }
    // Each byte a digit's value, the first digit in the lowest byte.
    let mut digits = word - ZEROS;
    if complement {
        digits = NINES - digits;
    }
    // Adjacent digits, then pairs, then fours combined in place.
    let pairs = (digits * 10 + (digits >> 8)) & 0x00ff_00ff_00ff_00ff;
    let fours = (pairs * 100 + (pairs >> 16)) & 0x0000_ffff_0000_ffff;
    Some((fours * 10_000 + (fours >> 32)) & 0xffff_ffff)
}

macro_rules! unsigned {
    ($($t:ty => $expected:literal $(, refused: $why:expr)?);* $(;)?) => {$(
        impl PaddedInt for $t {
            const MAX_DIGITS: usize = digit_count(<$t>::MAX as u128);

            fn encode_padded(&self, width: usize, out: &mut String) -> Result<(), KeyError> {
                check_width(width, Self::MAX_DIGITS)?;
                Digits::write_padded(*self as u128, false, width, out)
            }

            #[inline]
            fn decode_padded(component: &str, width: usize) -> Result<Self, KeyError> {
                check_width(width, Self::MAX_DIGITS)?;
                parse_digits(component, width, false, <$t>::MAX as u128)
                    .and_then(|n| <$t>::try_from(n).ok())
                    .ok_or_else(|| KeyError::malformed(
                        if width == Self::MAX_DIGITS { $expected } else { "zero-padded digits of the declared width" },
                        component,
                    ))
            }
        }

        impl KeyPart for $t {
            $(const NOT_AN_ENTITY_FIELD: Option<&'static str> = Some($why);)?
            const FIXED_LEN: Option<usize> = Some(Self::MAX_DIGITS);
            // Every form parses exactly its own text (`parse_digits`,
            // `decode_plain`).
            const CANONICAL: bool = true;
            const CARDINALITY: Cardinality = Cardinality::integers(0, <$t>::MAX as u128);

            fn encode_key(&self, out: &mut String) -> Result<(), KeyError> {
                self.encode_padded(Self::MAX_DIGITS, out)
            }

            fn encode_partition(&self, out: &mut String) -> Result<(), KeyError> {
                write_plain(*self as u128, false, out);
                Ok(())
            }
        }

        impl DecodeKeyPart for $t {
            fn decode_key(component: &str) -> Result<Self, KeyError> {
                Self::decode_padded(component, Self::MAX_DIGITS)
            }

            fn decode_partition(component: &str) -> Result<Self, KeyError> {
                // What `decode_plain` accepts of an unsigned type, without
                // the standard parser's generality.
                plain_unsigned(component)
                    .and_then(|n| <$t>::try_from(n).ok())
                    .ok_or_else(|| KeyError::malformed(plain_expected(stringify!($t)), component))
            }
        }
    )*};
}

/// An unsigned integer as `Display` writes it (digits, no leading zero but
/// `0` itself): its value, `None` for any other text or above `u128::MAX`.
#[inline]
fn plain_unsigned(text: &str) -> Option<u128> {
    let bytes = text.as_bytes();
    match bytes {
        [] => return None,
        [b'0', _, ..] => return None,
        _ => {}
    }
    let digit = |b: u8| {
        let d = b.wrapping_sub(b'0');
        (d <= 9).then_some(d)
    };
    let (head, tail) = bytes.split_at(bytes.len().min(U64_SAFE_DIGITS));
    let mut small: u64 = 0;
    for &b in head {
        small = small * 10 + u64::from(digit(b)?);
    }
    let mut value = u128::from(small);
    for &b in tail {
        value = value.checked_mul(10)?.checked_add(u128::from(digit(b)?))?;
    }
    Some(value)
}

macro_rules! signed {
    ($($t:ty => $expected:literal $(, refused: $why:expr)?);* $(;)?) => {$(
        impl PaddedInt for $t {
            const MAX_DIGITS: usize = digit_count(<$t>::MAX as u128);

            fn encode_padded(&self, width: usize, out: &mut String) -> Result<(), KeyError> {
                check_width(width, Self::MAX_DIGITS)?;
                // `unsigned_abs` keeps `MIN` exact, where `abs` would overflow.
                Digits::write_padded(self.unsigned_abs() as u128, *self < 0, width, out)
            }

            #[inline]
            fn decode_padded(component: &str, width: usize) -> Result<Self, KeyError> {
                check_width(width, Self::MAX_DIGITS)?;
                let expected = if width == Self::MAX_DIGITS {
                    $expected
                } else {
                    "zero-padded digits of the declared width, negatives as - and their nine's complement"
                };
                let malformed = || KeyError::malformed(expected, component);
                match component.strip_prefix('-') {
                    None => parse_digits(component, width, false, <$t>::MAX as u128)
                        .and_then(|n| <$t>::try_from(n).ok())
                        .ok_or_else(malformed),
                    // `-` and all nines would be `-0`: no value writes it.
                    Some(complement) => parse_digits(complement, width, true, <$t>::MIN.unsigned_abs() as u128)
                        .filter(|&magnitude| magnitude != 0)
                        .and_then(|magnitude| (0 as $t).checked_sub_unsigned(magnitude.try_into().ok()?))
                        .ok_or_else(malformed),
                }
            }
        }

        impl KeyPart for $t {
            $(const NOT_AN_ENTITY_FIELD: Option<&'static str> = Some($why);)?
            // Negatives are one byte longer (`-`), but start with a byte no
            // non-negative starts with: no encoding extends another.
            const PREFIX_FREE: bool = true;
            // Every form parses exactly its own text (`parse_digits` with
            // no `-0`, `decode_plain`).
            const CANONICAL: bool = true;
            const CARDINALITY: Cardinality = Cardinality::integers(<$t>::MIN as i128, <$t>::MAX as u128);

            fn encode_key(&self, out: &mut String) -> Result<(), KeyError> {
                self.encode_padded(Self::MAX_DIGITS, out)
            }

            fn encode_partition(&self, out: &mut String) -> Result<(), KeyError> {
                write_plain(self.unsigned_abs() as u128, *self < 0, out);
                Ok(())
            }
        }

        impl DecodeKeyPart for $t {
            fn decode_key(component: &str) -> Result<Self, KeyError> {
                Self::decode_padded(component, Self::MAX_DIGITS)
            }

            fn decode_partition(component: &str) -> Result<Self, KeyError> {
                decode_plain(component, stringify!($t))
            }
        }
    )*};
}

/// A plain decimal as [`KeyPart::encode_partition`] writes it, strictly:
/// what `Display` writes for the value it parses to, nothing else (no `+`,
/// no leading zero, no `-0`), so no two texts read as one value.
fn decode_plain<T: std::str::FromStr>(
    component: &str,
    type_name: &'static str,
) -> Result<T, KeyError> {
    Some(component)
        .filter(|component| is_plain_decimal(component))
        .and_then(|component| component.parse::<T>().ok())
        .ok_or_else(|| KeyError::malformed(plain_expected(type_name), component))
}

/// Whether `text` is an integer as `Display` writes one: an optional `-`,
/// then digits without a leading zero (`0` alone, never `-0`). Checked on
/// the text, so a read allocates nothing to compare it with.
fn is_plain_decimal(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let canonical = match digits.as_bytes() {
        [] => false,
        [b'0'] => digits.len() == text.len(),
        [first, ..] => *first != b'0',
    };
    canonical && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Writes `n` (negated with `negative`) as `Display` does, without
/// formatting machinery or an allocation.
fn write_plain(n: u128, negative: bool, out: &mut String) {
    let mut digits = Digits::of(n);
    if negative {
        digits.push_front(b'-');
    }
    digits.write_to(out);
}

/// "a u64 in plain decimal (a partition key's form)".
fn plain_expected(type_name: &'static str) -> &'static str {
    match type_name {
        "u8" => "a u8 in plain decimal (a partition key's form)",
        "u16" => "a u16 in plain decimal (a partition key's form)",
        "u32" => "a u32 in plain decimal (a partition key's form)",
        "u64" => "a u64 in plain decimal (a partition key's form)",
        "i8" => "an i8 in plain decimal (a partition key's form)",
        "i16" => "an i16 in plain decimal (a partition key's form)",
        "i32" => "an i32 in plain decimal (a partition key's form)",
        "i64" => "an i64 in plain decimal (a partition key's form)",
        _ => "an integer in plain decimal (a partition key's form)",
    }
}

/// Why a 128-bit integer cannot be an entity's key field.
const WIDE: &str = "a `u128` or `i128` field cannot be in a key template: the item body cannot hold it (DynamoDB numbers have 38 digits, these up to 39, and the serde_dynamo mapping refuses them), so every put would fail; use `u64`/`i64`, a `Uuid` or `Ulid`, or a newtype that serialises as a string and implements `KeyPart` by delegating to the integer";

unsigned! {
    u8 => "u8 (3 zero-padded digits)";
    u16 => "u16 (5 zero-padded digits)";
    u32 => "u32 (10 zero-padded digits)";
    u64 => "u64 (20 zero-padded digits)";
    u128 => "u128 (39 zero-padded digits)", refused: WIDE;
    usize => "usize (zero-padded digits, as many as usize::MAX has)";
}

signed! {
    i8 => "i8 (3 zero-padded digits, negatives as - and their nine's complement)";
    i16 => "i16 (5 zero-padded digits, negatives as - and their nine's complement)";
    i32 => "i32 (10 zero-padded digits, negatives as - and their nine's complement)";
    i64 => "i64 (19 zero-padded digits, negatives as - and their nine's complement)";
    i128 => "i128 (39 zero-padded digits, negatives as - and their nine's complement)", refused: WIDE;
    isize => "isize (zero-padded digits, as many as isize::MAX has, negatives as - and their nine's complement)";
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time digits read what a digit-by-digit loop reads:
    /// every value of eight digits at a stride, plain and complemented,
    /// and any one byte replaced by a non-digit (the bytes around `0` and
    /// `9`, `#`, a high byte) refused.
    #[test]
    fn plain_unsigned_is_the_plain_decimal_parse() {
        let texts = [
            "",
            "0",
            "00",
            "01",
            "7",
            "42",
            "-0",
            "-1",
            "+1",
            " 1",
            "1 ",
            "1a",
            "٣",
            "18446744073709551615",
            "18446744073709551616",
            "4294967295",
            "4294967296",
            "99999999999999999999999999999999999999",
            "340282366920938463463374607431768211455",
            "340282366920938463463374607431768211456",
            "1000000000000000000000",
        ];
        for text in texts {
            let ours = |read: Option<u128>| read;
            let std = |read: Result<u128, KeyError>| read.ok();
            assert_eq!(
                ours(plain_unsigned(text)),
                std(decode_plain::<u128>(text, "u128")),
                "{text:?}"
            );
            assert_eq!(
                u64::decode_partition(text).ok(),
                decode_plain::<u64>(text, "u64").ok(),
                "{text:?}"
            );
            assert_eq!(
                u32::decode_partition(text).ok(),
                decode_plain::<u32>(text, "u32").ok(),
                "{text:?}"
            );
        }
    }

    #[test]
    fn eight_digits_is_the_digit_loop() {
        let by_loop = |text: &[u8], complement: bool| {
            text.iter().try_fold(0u64, |n, &b| {
                let d = b.checked_sub(b'0').filter(|d| *d <= 9)?;
                Some(n * 10 + u64::from(if complement { 9 - d } else { d }))
            })
        };
        for n in (0..100_000_000u64).step_by(9_973).chain([99_999_999, 1]) {
            let text = format!("{n:08}");
            for complement in [false, true] {
                let read = eight_digits(text.as_bytes(), complement);
                assert_eq!(read, by_loop(text.as_bytes(), complement), "{text}");
                for at in 0..8 {
                    for bad in [b'/', b':', b'#', b'-', 0xb0, 0x3f, 0x40, b' '] {
                        let mut text = text.clone().into_bytes();
                        text[at] = bad;
                        assert_eq!(eight_digits(&text, complement), None);
                    }
                }
            }
        }
    }

    /// `u128`/`i128` keep their encoding, but `#[derive(Entity)]` refuses
    /// them as key fields, also behind a reference, a box or a width.
    #[test]
    fn wide_integers_are_refused_as_entity_key_fields_only() {
        assert!(u128::NOT_AN_ENTITY_FIELD.is_some());
        assert!(i128::NOT_AN_ENTITY_FIELD.is_some());
        assert!(<&u128>::NOT_AN_ENTITY_FIELD.is_some());
        assert!(<Box<i128>>::NOT_AN_ENTITY_FIELD.is_some());
        assert!(<Padded<6, u128>>::NOT_AN_ENTITY_FIELD.is_some());
        assert!(u64::NOT_AN_ENTITY_FIELD.is_none() && i64::NOT_AN_ENTITY_FIELD.is_none());
        assert!(<str>::NOT_AN_ENTITY_FIELD.is_none());
        assert_eq!(crate::key::encode(&7u128), Ok(format!("{:039}", 7)));
    }
}
