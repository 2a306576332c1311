//! Floats: IEEE-754 total order, NaN rejected, `-0.0` canonical.

use ddb_entity::key::{self, KeyError};
use proptest::prelude::*;

use super::{assert_component_bytes, assert_contract_by, enc};

macro_rules! float_suite {
    ($name:ident: $t:ty, $bits:ty, $hex:literal) => {
        mod $name {
            use super::*;

            const SIGN: $bits = 1 << (<$bits>::BITS - 1);
            const EXP: $bits = <$t>::INFINITY.to_bits();

            /// Every class of float, NaN excluded: arbitrary bit patterns
            /// (mostly huge and tiny exponents), subnormals, zeros of both
            /// signs, infinities, extremes and everyday numbers.
            fn value() -> impl Strategy<Value = $t> {
                prop_oneof![
                    any::<$bits>().prop_map(<$t>::from_bits),
                    (
                        any::<bool>(),
                        0..(1 as $bits) << (<$t>::MANTISSA_DIGITS - 1)
                    )
                        .prop_map(|(neg, m)| <$t>::from_bits(m | if neg { SIGN } else { 0 })),
                    prop::sample::select(vec![
                        0.0,
                        -0.0,
                        <$t>::INFINITY,
                        <$t>::NEG_INFINITY,
                        <$t>::MIN,
                        <$t>::MAX,
                        <$t>::MIN_POSITIVE,
                        -<$t>::MIN_POSITIVE,
                        <$t>::EPSILON,
                        1.0,
                        -1.0,
                        <$t>::from_bits(1),
                        -<$t>::from_bits(1),
                    ]),
                    (-1000i32..1000).prop_map(|n| n as $t / 8.0),
                ]
                .prop_filter("NaN has no key", |x| !x.is_nan())
            }

            fn pair() -> impl Strategy<Value = ($t, $t)> {
                prop_oneof![
                    (value(), value()),
                    value().prop_map(|a| (a, a)),
                    // Neighbours in bit order, across zero and the sign.
                    (value(), -2i8..=2).prop_map(|(a, d)| {
                        let b = <$t>::from_bits(a.to_bits().wrapping_add(d as $bits));
                        (a, if b.is_nan() { a } else { b })
                    }),
                    value().prop_map(|a| (a, -a)),
                ]
            }

            proptest! {
                #[test]
                fn contract((a, b) in pair()) {
                    assert_contract_by(&a, &b, |x, y| x.partial_cmp(y))?;
                    let e = enc(&a);
                    prop_assert_eq!(e.len(), $hex);
                    // Bit-exact round trip, but for -0.0 which comes back as 0.0.
                    let back: $t = key::decode(&e)?;
                    let expected = if a == 0.0 { 0.0 } else { a };
                    prop_assert_eq!(back.to_bits(), expected.to_bits());
                }

                #[test]
                fn nan_is_an_error_and_its_encodings_are_rejected(
                    neg in any::<bool>(),
                    payload in 1..(1 as $bits) << (<$t>::MANTISSA_DIGITS - 1),
                ) {
                    let bits = EXP | payload | if neg { SIGN } else { 0 };
                    let nan = <$t>::from_bits(bits);
                    prop_assert!(nan.is_nan());
                    prop_assert_eq!(key::encode(&nan), Err(KeyError::NaN));
                    // What the order mapping would have written for it.
                    let mapped = if neg { !bits } else { bits | SIGN };
                    let text = format!("{:0width$x}", mapped, width = $hex);
                    prop_assert!(key::decode::<$t>(&text).is_err(), "{} decoded", text);
                }

                #[test]
                fn decoding_accepts_only_canonical_text(text in "[0-9a-fA-F]{0,17}") {
                    if let Ok(x) = key::decode::<$t>(&text) {
                        prop_assert_eq!(enc(&x), text);
                    }
                }
            }

            #[test]
            fn adversarial_values() {
                let ordered = [
                    <$t>::NEG_INFINITY,
                    <$t>::MIN,
                    -1.0,
                    -<$t>::MIN_POSITIVE,
                    -<$t>::from_bits(1),
                    0.0,
                    <$t>::from_bits(1),
                    <$t>::MIN_POSITIVE,
                    1.0,
                    <$t>::MAX,
                    <$t>::INFINITY,
                ];
                for pair in ordered.windows(2) {
                    let (a, b) = (enc(&pair[0]), enc(&pair[1]));
                    assert!(a < b, "{:?} {a} !< {:?} {b}", pair[0], pair[1]);
                    assert_component_bytes(&a).unwrap();
                }
                assert_eq!(enc(&(-0.0 as $t)), enc(&(0.0 as $t)));
                assert_eq!(
                    key::decode::<$t>(&enc(&(-0.0 as $t))).map(|x| x.to_bits()),
                    Ok(0)
                );
                // The bits of -0.0 mapped as the encoder would, had it not canonicalised.
                let negative_zero = format!("{:0width$x}", !SIGN, width = $hex);
                assert!(key::decode::<$t>(&negative_zero).is_err());
                assert_eq!(key::encode(&<$t>::NAN), Err(KeyError::NaN));
                assert_eq!(key::encode(&-<$t>::NAN), Err(KeyError::NaN));
                let one = enc(&(1.0 as $t));
                for bad in [
                    one.to_uppercase(),
                    one[1..].to_string(),
                    format!("{one}0"),
                    format!("+{}", &one[1..]),
                    format!("{}g", &one[1..]),
                ] {
                    assert!(key::decode::<$t>(&bad).is_err(), "{bad:?}");
                }
            }
        }
    };
}

float_suite!(f32_: f32, u32, 8);
float_suite!(f64_: f64, u64, 16);

#[test]
fn documented_encodings() {
    assert_eq!(enc(&f64::NEG_INFINITY), "000fffffffffffff");
    assert_eq!(enc(&-1.0f64), "400fffffffffffff");
    assert_eq!(enc(&0.0f64), "8000000000000000");
    assert_eq!(enc(&1.0f64), "bff0000000000000");
    assert_eq!(enc(&f64::INFINITY), "fff0000000000000");
    assert_eq!(enc(&1.5f32), "bfc00000");
}
