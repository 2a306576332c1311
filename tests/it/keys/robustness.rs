//! Nothing panics on any input, and decoding is strict: whatever decodes
//! was written by the encoder, byte for byte.

use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Utc};
use ddb_entity::key::{self, DecodeKeyPart, KeyPart, KeyReader, Padded};
use proptest::prelude::*;
use ulid::Ulid;
use uuid::Uuid;

use super::strings::text;

/// `decode(t) == Ok(x)` ⇒ `enc(x) == t`.
fn canonical<T: DecodeKeyPart + KeyPart>(text: &str) -> Result<(), TestCaseError> {
    if let Ok(x) = T::decode_key(text) {
        prop_assert_eq!(
            key::encode(&x)?,
            text,
            "{} decoded leniently",
            std::any::type_name::<T>()
        );
    }
    Ok(())
}

fn canonical_everywhere(text: &str) -> Result<(), TestCaseError> {
    canonical::<u8>(text)?;
    canonical::<u16>(text)?;
    canonical::<u32>(text)?;
    canonical::<u64>(text)?;
    canonical::<u128>(text)?;
    canonical::<usize>(text)?;
    canonical::<i8>(text)?;
    canonical::<i16>(text)?;
    canonical::<i32>(text)?;
    canonical::<i64>(text)?;
    canonical::<i128>(text)?;
    canonical::<isize>(text)?;
    canonical::<Padded<4, i16>>(text)?;
    canonical::<bool>(text)?;
    canonical::<char>(text)?;
    canonical::<String>(text)?;
    canonical::<Uuid>(text)?;
    canonical::<Ulid>(text)?;
    canonical::<NaiveDate>(text)?;
    canonical::<NaiveTime>(text)?;
    canonical::<NaiveDateTime>(text)?;
    canonical::<DateTime<Utc>>(text)?;
    // Floats compare by bits here: every accepted text is a canonical one.
    if let Ok(x) = f32::decode_key(text) {
        prop_assert_eq!(key::encode(&x)?, text);
    }
    if let Ok(x) = f64::decode_key(text) {
        prop_assert_eq!(key::encode(&x)?, text);
    }
    Ok(())
}

/// Valid encodings of many types, then damaged: one byte-range replaced.
fn near_miss() -> impl Strategy<Value = String> {
    let valid = prop_oneof![
        any::<i64>().prop_map(|x| key::encode(&x).unwrap_or_default()),
        any::<u8>().prop_map(|x| key::encode(&x).unwrap_or_default()),
        any::<i8>().prop_map(|x| key::encode(&x).unwrap_or_default()),
        any::<u64>().prop_map(|x| key::encode(&f64::from_bits(x)).unwrap_or_default()),
        any::<u128>().prop_map(|x| key::encode(&Uuid::from_u128(x)).unwrap_or_default()),
        any::<u128>().prop_map(|x| key::encode(&Ulid(x)).unwrap_or_default()),
        text().prop_map(|x| key::encode(&x).unwrap_or_default()),
        Just("2026-03-14T23:59:60.000000000Z".to_owned()),
        Just("9999-12-31T23:59:59.999999999Z".to_owned()),
    ];
    (
        valid,
        any::<prop::sample::Index>(),
        "[\\x00-\\x7f]{0,2}|\\PC{0,1}",
    )
        .prop_map(|(v, at, with)| {
            let cut = at.index(v.len() + 1);
            // Damage at a char boundary at or before `cut`.
            let cut = (0..=cut)
                .rev()
                .find(|&i| v.is_char_boundary(i))
                .unwrap_or(0);
            let mut s = v[..cut].to_owned();
            s.push_str(&with);
            let resume = (cut + 1..=v.len())
                .find(|&i| v.is_char_boundary(i))
                .unwrap_or(v.len());
            s.push_str(&v[resume..]);
            s
        })
}

proptest! {
    #[test]
    fn arbitrary_text_never_panics_and_decodes_only_if_canonical(t in text()) {
        canonical_everywhere(&t)?;
    }

    #[test]
    fn damaged_encodings_decode_only_if_canonical(t in near_miss()) {
        canonical_everywhere(&t)?;
    }

    #[test]
    fn arbitrary_keys_never_panic_the_reader(k in "[A-Z0-9#$ -]{0,30}|\\PC{0,20}") {
        let mut r = KeyReader::new(&k);
        let _ = r.literal("A");
        let _ = r.part::<u32>();
        let _ = r.part::<String>();
        let _ = r.part::<DateTime<Utc>>();
        let _ = r.finish();
    }
}
