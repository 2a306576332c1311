//! Floats: IEEE-754 total order as fixed-width hex.
//!
//! # Format
//!
//! Take the value's IEEE-754 bits. If the sign bit is set, flip every bit;
//! otherwise flip only the sign bit. Write the result as lowercase hex,
//! zero-padded to 8 characters for `f32` and 16 for `f64`:
//!
//! | `f64` | component |
//! | --- | --- |
//! | `-∞` | `000fffffffffffff` |
//! | `-1.0` | `400fffffffffffff` |
//! | `0.0` | `8000000000000000` |
//! | `1.0` | `bff0000000000000` |
//! | `+∞` | `fff0000000000000` |
//!
//! # Why it sorts
//!
//! For non-negative floats the bit patterns already grow with the value;
//! setting the sign bit lifts them above all negatives. For negative floats
//! the magnitude bits grow as the value falls; flipping them all reverses
//! that and clears the sign bit. The mapped integers thus follow the numeric
//! order, and fixed-width hex (`0`-`9` then `a`-`f`, all above `#`) keeps
//! integer order bytewise. Subnormals and infinities need no special case.
//!
//! # NaN and negative zero
//!
//! NaN is unordered, so it is rejected with [`KeyError::NaN`]. `-0.0` equals
//! `0.0` but has other bits; it is written as `0.0` so that the key order
//! agrees with `PartialOrd` (`a < b` ⇔ `enc(a) < enc(b)`, and `a == b` ⇔
//! `enc(a) == enc(b)`) and decodes back as `0.0`, which is `== -0.0`.
//! Decoding rejects the encodings of NaN and of `-0.0` as non-canonical.
//!
//! ```
//! use ddb_entity::key::{self, KeyError};
//!
//! assert_eq!(key::encode(&1.5f32)?, "bfc00000");
//! assert_eq!(key::encode(&-0.0f64)?, key::encode(&0.0f64)?);
//! assert_eq!(key::encode(&f32::NAN), Err(KeyError::NaN));
//! assert_eq!(key::decode::<f64>("bff0000000000000")?, 1.0);
//! assert!(key::decode::<f64>("BFF0000000000000").is_err());
//! # Ok::<(), KeyError>(())
//! ```

use super::{DecodeKeyPart, KeyError, KeyPart};

const HEX: &[u8; 16] = b"0123456789abcdef";

macro_rules! float {
    ($($t:ty, $bits:ty, $expected:literal);* $(;)?) => {$(
        impl KeyPart for $t {
            const FIXED_LEN: Option<usize> = Some((<$bits>::BITS / 4) as usize);

            fn encode_key(&self, out: &mut String) -> Result<(), KeyError> {
                if self.is_nan() {
                    return Err(KeyError::NaN);
                }
                // `+ 0.0` turns `-0.0` into `0.0` and leaves every other value alone.
                let bits = (*self + 0.0).to_bits();
                let sign = 1 << (<$bits>::BITS - 1);
                let key = if bits & sign != 0 { !bits } else { bits | sign };
                const DIGITS: u32 = <$bits>::BITS / 4;
                out.reserve(DIGITS as usize);
                for i in (0..DIGITS).rev() {
                    out.push(char::from(HEX[((key >> (i * 4)) & 0xf) as usize]));
                }
                Ok(())
            }
        }

        impl DecodeKeyPart for $t {
            fn decode_key(component: &str) -> Result<Self, KeyError> {
                let malformed = || KeyError::malformed($expected, component);
                if component.len() != (<$bits>::BITS / 4) as usize {
                    return Err(malformed());
                }
                let mut key: $bits = 0;
                for b in component.bytes() {
                    let nibble = match b {
                        b'0'..=b'9' => b - b'0',
                        b'a'..=b'f' => b - b'a' + 10,
                        _ => return Err(malformed()),
                    };
                    key = key << 4 | <$bits>::from(nibble);
                }
                let sign = 1 << (<$bits>::BITS - 1);
                let bits = if key & sign != 0 { key ^ sign } else { !key };
                let value = <$t>::from_bits(bits);
                // Only the canonical zero and real numbers are ever written.
                if value.is_nan() || bits == sign {
                    return Err(malformed());
                }
                Ok(value)
            }
        }
    )*};
}

float! {
    f32, u32, "f32 (8 lowercase hex digits of the order-mapped bits)";
    f64, u64, "f64 (16 lowercase hex digits of the order-mapped bits)";
}
