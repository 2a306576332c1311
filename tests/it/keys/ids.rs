//! UUID and ULID: byte order of the key is the identifier's `Ord`.

use ddb_entity::key;
use proptest::prelude::*;
use ulid::Ulid;
use uuid::Uuid;

use super::{assert_contract, enc};

/// Pairs that share long leading runs, where byte order is decided late.
fn u128_pair() -> impl Strategy<Value = (u128, u128)> {
    prop_oneof![
        (any::<u128>(), any::<u128>()),
        any::<u128>().prop_map(|a| (a, a)),
        (any::<u128>(), 0u32..128).prop_map(|(a, bit)| (a, a ^ (1 << bit))),
    ]
}

proptest! {
    #[test]
    fn uuid_contract((a, b) in u128_pair()) {
        let (a, b) = (Uuid::from_u128(a), Uuid::from_u128(b));
        assert_contract(&a, &b)?;
        prop_assert_eq!(enc(&a), a.hyphenated().to_string());
    }

    #[test]
    fn ulid_contract((a, b) in u128_pair()) {
        assert_contract(&Ulid(a), &Ulid(b))?;
        prop_assert_eq!(enc(&Ulid(a)).len(), 26);
    }

    #[test]
    fn uuid_decoding_accepts_only_canonical_text(text in "[0-9a-fA-F-]{30,38}") {
        if let Ok(x) = key::decode::<Uuid>(&text) {
            prop_assert_eq!(enc(&x), text);
        }
    }

    #[test]
    fn ulid_decoding_accepts_only_canonical_text(text in "[0-9A-Za-z]{25,27}") {
        if let Ok(x) = key::decode::<Ulid>(&text) {
            prop_assert_eq!(enc(&x), text);
        }
    }
}

#[test]
fn canonical_forms_and_rejections() {
    let uuid = Uuid::from_u128(0x67e55044_10b1_426f_9247_bb680e5fe0c8);
    assert_eq!(enc(&uuid), "67e55044-10b1-426f-9247-bb680e5fe0c8");
    assert_eq!(enc(&Uuid::nil()), "00000000-0000-0000-0000-000000000000");
    assert_eq!(enc(&Uuid::max()), "ffffffff-ffff-ffff-ffff-ffffffffffff");
    for bad in [
        "67E55044-10B1-426F-9247-BB680E5FE0C8",
        "67e5504410b1426f9247bb680e5fe0c8",
        "{67e55044-10b1-426f-9247-bb680e5fe0c8}",
        "urn:uuid:67e55044-10b1-426f-9247-bb680e5fe0c8",
        "67e55044-10b1-426f-9247-bb680e5fe0c",
        "67e55044-10b1-426f-9247_bb680e5fe0c8",
        "67e5504-410b1-426f-9247-bb680e5fe0c8",
    ] {
        assert!(key::decode::<Uuid>(bad).is_err(), "{bad:?}");
    }

    let ulid = Ulid(0x0156_3E3A_B5D3_D676_4C61_EFB9_9302_BD5B);
    assert_eq!(enc(&ulid), "01ARZ3NDEKTSV4RRFFQ69G5FAV");
    assert_eq!(enc(&Ulid(u128::MAX)), "7ZZZZZZZZZZZZZZZZZZZZZZZZZ");
    assert_eq!(enc(&Ulid(0)), "0".repeat(26));
    for bad in [
        "01arz3ndektsv4rrffq69g5fav",
        "81ARZ3NDEKTSV4RRFFQ69G5FAV",
        "01ARZ3NDEKTSV4RRFFQ69G5FA",
        "01ARZ3NDEKTSV4RRFFQ69G5FAVV",
        "01ARZ3NDEKTSV4RRFFQ69G5FAI",
        "01ARZ3NDEKTSV4RRFFQ69G5FAU",
    ] {
        assert!(key::decode::<Ulid>(bad).is_err(), "{bad:?}");
    }
}
