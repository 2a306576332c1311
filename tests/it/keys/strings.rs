//! Strings: the `$` escaping keeps order, is prefix-free and round trips.

use std::borrow::Cow;
use std::rc::Rc;
use std::sync::Arc;

use ddb_entity::key::{self, KeyBuf};
use proptest::prelude::*;

use super::{assert_component_bytes, assert_contract, enc};

/// Strings that hit what matters: the bytes at and below the escape `$`
/// (control characters, space, `!`, `"`, `#`), the escape's own
/// replacements (`@`..`d`), the first copied byte `%`, multi-byte and
/// non-BMP characters, and arbitrary Unicode.
pub(super) fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[\\x00-\\x30a-z$#]{0,8}",
        "[\\x00-\\x26@A-Z`a-e]{0,6}",
        "[ab\\x20-\\x25\u{7f}\u{80}\u{7ff}\u{800}\u{ffff}\u{10000}\u{10ffff}😀]{0,6}",
        any::<String>(),
    ]
}

/// Pairs that are often equal or one a prefix of the other.
pub(super) fn text_pair() -> impl Strategy<Value = (String, String)> {
    prop_oneof![
        (text(), text()),
        text().prop_map(|a| (a.clone(), a)),
        (text(), text()).prop_map(|(a, s)| (a.clone(), a + &s)),
        (text(), text(), text()).prop_map(|(p, s, t)| (p.clone() + &s, p + &t)),
    ]
}

proptest! {
    #[test]
    fn contract((a, b) in text_pair()) {
        assert_contract(&a, &b)?;
    }

    #[test]
    fn str_and_its_wrappers_encode_alike(s in text()) {
        let e = enc(&s);
        prop_assert_eq!(&enc(s.as_str()), &e);
        prop_assert_eq!(&enc(&Cow::Borrowed(s.as_str())), &e);
        prop_assert_eq!(&enc(&Box::<str>::from(s.as_str())), &e);
        prop_assert_eq!(&enc(&Arc::<str>::from(s.as_str())), &e);
        prop_assert_eq!(&enc(&Rc::<str>::from(s.as_str())), &e);
        prop_assert_eq!(&*key::decode::<Box<str>>(&e)?, s.as_str());
        prop_assert_eq!(&*key::decode::<Arc<str>>(&e)?, s.as_str());
    }

    #[test]
    fn every_char_keeps_the_contract(a in any::<char>(), b in any::<char>()) {
        assert_contract(&a, &b)?;
        prop_assert_eq!(enc(&a), enc(&a.to_string()));
    }

    #[test]
    fn decoding_accepts_only_canonical_text(text in "[\\x00-\\x26@-ea😀]{0,6}") {
        if let Ok(s) = key::decode::<String>(&text) {
            prop_assert_eq!(enc(&s), text);
        }
    }
}

#[test]
fn escape_table() {
    let cases = [
        ("", ""),
        ("alice@example.com", "alice@example.com"),
        ("\0", "$@"),
        ("\x01", "$A"),
        ("\x1a", "$Z"),
        ("\x1b\x1f", "$[$_"),
        (" ", "$`"),
        ("!", "$a"),
        ("\"", "$b"),
        ("#", "$c"),
        ("$", "$d"),
        ("$c", "$dc"),
        ("%", "%"),
        ("a#b", "a$cb"),
        ("😀", "😀"),
        ("\u{10ffff}", "\u{10ffff}"),
        ("\u{7f}", "\u{7f}"),
    ];
    for (raw, encoded) in cases {
        assert_eq!(enc(raw), encoded, "{raw:?}");
        assert_eq!(key::decode::<String>(encoded).as_deref(), Ok(raw));
        assert_component_bytes(encoded).unwrap();
    }
}

#[test]
fn decoding_rejects_what_is_never_written() {
    for bad in [
        "#", "a#b", "$", "a$", "$?", "$e", "$$", "$😀", " ", "\t", "!", "\"", "\0", "$C$",
    ] {
        assert!(key::decode::<String>(bad).is_err(), "{bad:?} decoded");
    }
    for bad in ["", "ab", "$c$c", "#"] {
        assert!(key::decode::<char>(bad).is_err(), "{bad:?} decoded as char");
    }
}

#[test]
fn smith_sorts_before_smith_jr_inside_a_composite_key() {
    let key = |last: &str, first: &str| {
        let mut k = KeyBuf::new();
        k.literal("NAME").part(last).unwrap().part(first).unwrap();
        k.finish()
    };
    let smith = key("Smith", "Zoe");
    let smith_jr = key("Smith Jr", "Adam");
    assert!(smith < smith_jr, "{smith} !< {smith_jr}");
    // Naively leaving the space alone puts 0x20 against the delimiter 0x23.
    assert!("NAME#Smith Jr#Adam" < "NAME#Smith#Zoe");
    for (a, b) in [
        ("Smith", "Smith!"),
        ("Smith", "Smith\""),
        ("Smith", "Smith\0"),
        ("a", "a$"),
    ] {
        assert!(key(a, "z") < key(b, "a"), "{a:?} {b:?}");
    }
}
