//! Integers: full width and declared width.

use std::fmt::{Debug, Display};

use ddb_entity::key::{self, DecodeKeyPart, KeyError, KeyPart, Padded, PaddedInt};
use proptest::prelude::*;

use super::{assert_component_bytes, assert_contract, enc};

/// Digits of the magnitude, as the encoder must count them.
fn digits<T: Display>(x: T) -> usize {
    x.to_string().trim_start_matches('-').len()
}

fn encode_padded<T: PaddedInt>(x: T, width: usize) -> Result<String, KeyError> {
    let mut out = String::new();
    x.encode_padded(width, &mut out).map(|()| out)
}

/// The contract at a declared width: values that fit keep order and round
/// trip in exactly `width` digits; values that do not are an error.
fn assert_padded<T>(a: T, b: T, width: usize) -> Result<(), TestCaseError>
where
    T: PaddedInt + Ord + Debug + Display,
{
    for x in [a, b] {
        match encode_padded(x, width) {
            Ok(encoded) => {
                prop_assert!(digits(x) <= width);
                assert_component_bytes(&encoded)?;
                let sign = usize::from(x.to_string().starts_with('-'));
                prop_assert_eq!(encoded.len(), width + sign);
                prop_assert_eq!(T::decode_padded(&encoded, width)?, x);
            }
            Err(err) => prop_assert_eq!(
                err,
                KeyError::WidthOverflow {
                    value: x.to_string(),
                    digits: digits(x),
                    width
                }
            ),
        }
    }
    if let (Ok(ea), Ok(eb)) = (encode_padded(a, width), encode_padded(b, width)) {
        prop_assert_eq!(
            ea.cmp(&eb),
            a.cmp(&b),
            "{:?} {:?} -> {:?} {:?}",
            a,
            b,
            ea,
            eb
        );
    }
    Ok(())
}

macro_rules! int_suite {
    ($($name:ident: $t:ty),* $(,)?) => {$(
        mod $name {
            use super::*;

            /// Uniform values rarely land near zero or the ends, where
            /// signs, padding and overflow live.
            fn value() -> impl Strategy<Value = $t> {
                prop_oneof![
                    any::<$t>(),
                    any::<i16>().prop_map(|x| x as $t),
                    (0u8..4).prop_map(|d| <$t>::MIN.wrapping_add(d as $t)),
                    (0u8..4).prop_map(|d| <$t>::MAX.wrapping_sub(d as $t)),
                ]
            }

            /// Pairs that are often equal or adjacent.
            fn pair() -> impl Strategy<Value = ($t, $t)> {
                prop_oneof![
                    (value(), value()),
                    value().prop_map(|a| (a, a)),
                    (value(), -3i8..=3).prop_map(|(a, d)| (a, a.wrapping_add(d as $t))),
                ]
            }

            proptest! {
                #[test]
                fn contract((a, b) in pair()) {
                    assert_contract(&a, &b)?;
                    prop_assert_eq!(enc(&a).len(), <$t as PaddedInt>::MAX_DIGITS + usize::from(a.to_string().starts_with('-')));
                }

                #[test]
                fn declared_width((a, b) in pair(), width in 1..=<$t as PaddedInt>::MAX_DIGITS) {
                    assert_padded(a, b, width)?;
                }

                /// A partition key's plain form is `Display`'s, and reads
                /// back exactly the texts `Display` writes: a value's own,
                /// never one with a sign, a space or a leading zero added.
                #[test]
                fn partition_form_is_display(a in value(), text in "[-+0-9 ]{0,6}") {
                    let mut out = String::new();
                    a.encode_partition(&mut out).unwrap();
                    prop_assert_eq!(&out, &a.to_string());
                    prop_assert_eq!(<$t>::decode_partition(&out), Ok(a));
                    let canonical = text.parse::<$t>().ok().filter(|x| x.to_string() == text);
                    prop_assert_eq!(<$t>::decode_partition(&text).ok(), canonical);
                }
            }

            #[test]
            fn full_width_is_the_width_of_max() {
                assert_eq!(<$t as PaddedInt>::MAX_DIGITS, <$t>::MAX.to_string().len());
                for x in [<$t>::MIN, <$t>::MAX, 0 as $t, 1 as $t, <$t>::MIN.wrapping_add(1), <$t>::MAX - 1] {
                    let e = enc(&x);
                    assert_eq!(key::decode::<$t>(&e), Ok(x), "{e}");
                    assert!(e.bytes().all(|b| b > b'#'), "{e}");
                }
                assert_eq!(enc(&<$t>::MAX), <$t>::MAX.to_string());
                assert_eq!(enc(&(0 as $t)), "0".repeat(<$t as PaddedInt>::MAX_DIGITS));
            }

            #[test]
            fn invalid_widths_are_errors() {
                let max = <$t as PaddedInt>::MAX_DIGITS;
                for width in [0, max + 1, usize::MAX] {
                    let err = KeyError::InvalidWidth { width, max };
                    assert_eq!(encode_padded(1 as $t, width), Err(err.clone()));
                    assert_eq!(<$t>::decode_padded("1", width), Err(err));
                }
            }

            #[test]
            fn decoding_rejects_non_canonical_text() {
                let max = <$t as PaddedInt>::MAX_DIGITS;
                let zeros = "0".repeat(max);
                let too_big = "9".repeat(max);
                let bad = [
                    String::new(),
                    "0".repeat(max - 1),
                    "0".repeat(max + 1),
                    format!("+{}", &zeros[1..]),
                    format!(" {}", &zeros[1..]),
                    format!("{}x", &zeros[1..]),
                    format!("-{zeros}"),
                    format!("-{too_big}"),
                    format!("{}١", &zeros[1..]),
                    too_big,
                    format!("{zeros}#"),
                ];
                for text in bad {
                    assert!(key::decode::<$t>(&text).is_err(), "{text:?} decoded");
                }
            }
        }
    )*};
}

int_suite! {
    u8_: u8, u16_: u16, u32_: u32, u64_: u64, u128_: u128, usize_: usize,
    i8_: i8, i16_: i16, i32_: i32, i64_: i64, i128_: i128, isize_: isize,
}

#[test]
fn negatives_are_a_minus_and_the_nines_complement() {
    assert_eq!(enc(&42i32), "0000000042");
    assert_eq!(enc(&-1i32), "-9999999998");
    assert_eq!(enc(&-42i32), "-9999999957");
    assert_eq!(enc(&i8::MIN), "-871");
    assert_eq!(enc(&i8::MAX), "127");
    assert_eq!(enc(&i64::MIN), "-0776627963145224191");
    assert_eq!(enc(&i128::MIN), "-829858816539530768268312696284115894271");
    assert_eq!(enc(&u128::MAX), "340282366920938463463374607431768211455");
    assert_eq!(enc(&u64::MAX), "18446744073709551615");
    assert_eq!(enc(&usize::MAX).len(), usize::MAX.to_string().len());
    // `-` + all nines would be -0, which nothing encodes to.
    assert!(key::decode::<i32>("-9999999999").is_err());
    assert!(key::decode::<i8>("-870").is_err()); // -129
    assert!(key::decode::<i8>("128").is_err());
    assert!(key::decode::<u8>("256").is_err());
    assert_eq!(key::decode::<i8>("-871"), Ok(i8::MIN));
}

#[test]
fn left_padding_alone_would_mis_sort_negatives() {
    // The naive `{:0>4}` gives "00-5" > "00-3": -5 after -3.
    assert!(format!("{:0>4}", -5) > format!("{:0>4}", -3));
    assert!(enc(&-5i16) < enc(&-3i16));
    assert!(enc(&-3i16) < enc(&3i16));
}

#[test]
fn declared_width_overflow_is_an_error_not_a_truncation() {
    assert_eq!(enc(&Padded::<6, u32>(42)), "000042");
    assert_eq!(enc(&Padded::<6, u32>(999_999)), "999999");
    assert_eq!(
        key::encode(&Padded::<6, u32>(1_000_000)),
        Err(KeyError::WidthOverflow {
            value: "1000000".into(),
            digits: 7,
            width: 6
        })
    );
    assert_eq!(enc(&Padded::<3, i64>(-7)), "-992");
    assert_eq!(
        key::encode(&Padded::<3, i64>(-1000)),
        Err(KeyError::WidthOverflow {
            value: "-1000".into(),
            digits: 4,
            width: 3
        })
    );
    assert_eq!(
        key::encode(&Padded::<0, u8>(0)),
        Err(KeyError::InvalidWidth { width: 0, max: 3 })
    );
    assert_eq!(
        key::decode::<Padded<6, u32>>("000042"),
        Ok(Padded::<6, u32>(42))
    );
    assert!(key::decode::<Padded<6, u32>>("0000042").is_err());
    assert!(key::decode::<Padded<3, i64>>("-999").is_err());
    assert_eq!(
        key::encode(&Padded::<40, u128>(1)),
        Err(KeyError::InvalidWidth { width: 40, max: 39 })
    );
}

proptest! {
    #[test]
    fn padded_wrapper_keeps_the_contract(
        a in -999_999i32..=999_999,
        b in -999_999i32..=999_999,
    ) {
        assert_contract(&Padded::<6, i32>(a), &Padded::<6, i32>(b))?;
    }
}
