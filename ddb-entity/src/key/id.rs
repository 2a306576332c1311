//! Identifiers: UUID (feature `uuid`) and ULID (feature `ulid`).
//!
//! # Format
//!
//! - `Uuid`: the 36-character lowercase hyphenated form,
//!   `67e55044-10b1-426f-9247-bb680e5fe0c8`. Its hex digits spell the 16
//!   bytes in order, hyphens stand at the same places in every value, and
//!   lowercase hex sorts like the nibbles it spells, so byte order of the
//!   key is `Uuid`'s `Ord` (its bytes, big-endian).
//! - `Ulid`: the canonical 26-character Crockford base32 form, uppercase,
//!   `01ARZ3NDEKTSV4RRFFQ69G5FAV`. The alphabet
//!   `0123456789ABCDEFGHJKMNPQRSTVWXYZ` is in ASCII order and each character
//!   spells 5 bits of the 128-bit value, most significant first, so byte
//!   order is `Ulid`'s `Ord`: creation time first.
//!
//! Decoding accepts only these forms: no uppercase UUIDs, braces, URNs or
//! hyphen-less UUIDs; no lowercase ULIDs and no ULID above
//! `7ZZZZZZZZZZZZZZZZZZZZZZZZZ`.
//!
//! ```
//! # #[cfg(all(feature = "uuid", feature = "ulid"))] {
//! use ddb_entity::key;
//!
//! let id = uuid::Uuid::from_u128(0x67e55044_10b1_426f_9247_bb680e5fe0c8);
//! assert_eq!(key::encode(&id)?, "67e55044-10b1-426f-9247-bb680e5fe0c8");
//! assert!(key::decode::<uuid::Uuid>("67E55044-10B1-426F-9247-BB680E5FE0C8").is_err());
//!
//! let id = ulid::Ulid(0x0156_3E3A_B5D3_D676_4C61_EFB9_9302_BD5B);
//! assert_eq!(key::encode(&id)?, "01ARZ3NDEKTSV4RRFFQ69G5FAV");
//! assert_eq!(key::decode::<ulid::Ulid>("01ARZ3NDEKTSV4RRFFQ69G5FAV")?, id);
//! # }
//! # Ok::<(), ddb_entity::key::KeyError>(())
//! ```

#[cfg(feature = "uuid")]
mod uuid_impl {
    use uuid::Uuid;

    use crate::key::{DecodeKeyPart, KeyError, KeyPart};

    const HEX: &[u8; 16] = b"0123456789abcdef";
    const EXPECTED: &str = "Uuid (36 characters, lowercase hyphenated)";
    /// Byte indexes after which the hyphenated form has a `-`.
    const HYPHEN_AFTER: [usize; 4] = [3, 5, 7, 9];

    impl KeyPart for Uuid {
        const FIXED_LEN: Option<usize> = Some(36);

        fn encode_key(&self, out: &mut String) -> Result<(), KeyError> {
            out.reserve(36);
            for (i, b) in self.as_bytes().iter().enumerate() {
                out.push(char::from(HEX[usize::from(b >> 4)]));
                out.push(char::from(HEX[usize::from(b & 0xf)]));
                if HYPHEN_AFTER.contains(&i) {
                    out.push('-');
                }
            }
            Ok(())
        }
    }

    impl DecodeKeyPart for Uuid {
        fn decode_key(component: &str) -> Result<Self, KeyError> {
            let malformed = || KeyError::malformed(EXPECTED, component);
            if component.len() != 36 {
                return Err(malformed());
            }
            let mut text = component.bytes();
            let mut bytes = [0u8; 16];
            for (i, byte) in bytes.iter_mut().enumerate() {
                let mut nibble = || match text.next() {
                    Some(c @ b'0'..=b'9') => Ok(c - b'0'),
                    Some(c @ b'a'..=b'f') => Ok(c - b'a' + 10),
                    _ => Err(malformed()),
                };
                *byte = nibble()? << 4 | nibble()?;
                if HYPHEN_AFTER.contains(&i) && text.next() != Some(b'-') {
                    return Err(malformed());
                }
            }
            Ok(Uuid::from_bytes(bytes))
        }
    }
}

#[cfg(feature = "ulid")]
mod ulid_impl {
    use ulid::Ulid;

    use crate::key::{DecodeKeyPart, KeyError, KeyPart};

    const CROCKFORD: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    const LEN: u32 = 26;
    const EXPECTED: &str = "Ulid (26 uppercase Crockford base32 characters)";

    impl KeyPart for Ulid {
        const FIXED_LEN: Option<usize> = Some(LEN as usize);

        fn encode_key(&self, out: &mut String) -> Result<(), KeyError> {
            out.reserve(LEN as usize);
            for i in (0..LEN).rev() {
                // 26 × 5 = 130 bits: the first character spells the top 3 bits.
                let index = (self.0 >> (i * 5)) & 0x1f;
                out.push(char::from(CROCKFORD[index as usize]));
            }
            Ok(())
        }
    }

    impl DecodeKeyPart for Ulid {
        fn decode_key(component: &str) -> Result<Self, KeyError> {
            let malformed = || KeyError::malformed(EXPECTED, component);
            if component.len() != LEN as usize {
                return Err(malformed());
            }
            let mut value: u128 = 0;
            for (i, c) in component.bytes().enumerate() {
                let digit = CROCKFORD
                    .iter()
                    .position(|&d| d == c)
                    .ok_or_else(malformed)?;
                // The first character carries 3 bits; more would overflow.
                if i == 0 && digit > 7 {
                    return Err(malformed());
                }
                value = value << 5 | digit as u128;
            }
            Ok(Ulid(value))
        }
    }
}
