//! The bytes of a cursor: length-prefixed fields, and the URL-safe text
//! they travel as.
//!
//! Both directions are strict, so that one text is one cursor: base64url
//! without padding whose unused low bits must be zero, and lengths in the
//! shortest LEB128 form. A changed character therefore always changes the
//! bytes (or is refused), which is what lets a seal catch every change.

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// RFC 4648 §5 base64url, without padding.
pub(super) fn encode_base64url(bytes: &[u8], out: &mut String) {
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        // 1 byte → 2 characters, 2 → 3, 3 → 4.
        for i in 0..=chunk.len() {
            out.push(char::from(ALPHABET[(n >> (18 - 6 * i)) as usize & 63]));
        }
    }
}

/// The bytes of base64url text without padding; `None` for any other
/// text, including one whose last character carries non-zero unused bits.
pub(super) fn decode_base64url(text: &str) -> Option<Vec<u8>> {
    let sextet = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'-' => Some(62),
        b'_' => Some(63),
        _ => None,
    };
    let mut bytes = Vec::with_capacity(text.len() * 3 / 4);
    for chunk in text.as_bytes().chunks(4) {
        if chunk.len() == 1 {
            return None;
        }
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= u32::from(sextet(c)?) << (18 - 6 * i);
        }
        let len = chunk.len() - 1;
        // Bits below the last whole byte must be zero: otherwise two texts
        // would decode to the same bytes.
        if n & ((1 << (24 - 8 * len)) - 1) != 0 {
            return None;
        }
        bytes.extend((0..len).map(|i| (n >> (16 - 8 * i)) as u8));
    }
    Some(bytes)
}

/// Appends `n` as unsigned LEB128.
pub(super) fn put_varint(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push(n as u8 | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// Appends a field: its length, then its bytes.
pub(super) fn put_field(out: &mut Vec<u8>, field: &[u8]) {
    put_varint(out, field.len() as u64);
    out.extend_from_slice(field);
}

/// Reads what [`put_varint`] and [`put_field`] wrote; every method is
/// `None` at a malformed or truncated input.
pub(super) struct Reader<'a>(pub(super) &'a [u8]);

impl<'a> Reader<'a> {
    pub(super) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub(super) fn varint(&mut self) -> Option<u64> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let (&byte, rest) = self.0.split_first()?;
            self.0 = rest;
            let bits = u64::from(byte & 0x7f);
            // Past 64 bits, or a longer form than needed (a last byte of 0).
            if bits << shift >> shift != bits || (shift > 0 && byte == 0) {
                return None;
            }
            n |= bits << shift;
            if byte & 0x80 == 0 {
                return Some(n);
            }
        }
        None
    }

    pub(super) fn field(&mut self) -> Option<&'a [u8]> {
        let len = usize::try_from(self.varint()?).ok()?;
        if self.0.len() < len {
            return None;
        }
        let (field, rest) = self.0.split_at(len);
        self.0 = rest;
        Some(field)
    }

    pub(super) fn string(&mut self) -> Option<String> {
        String::from_utf8(self.field()?.to_vec()).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64url_round_trips_every_length_and_refuses_every_other_text() {
        let bytes: Vec<u8> = (0..=255).collect();
        for len in 0..bytes.len() {
            let mut text = String::new();
            encode_base64url(&bytes[..len], &mut text);
            assert_eq!(text.len(), (len * 4).div_ceil(3));
            assert!(
                text.bytes()
                    .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
            );
            assert_eq!(decode_base64url(&text).as_deref(), Some(&bytes[..len]));
        }
        // Known answers (RFC 4648 §10, in the URL alphabet, no padding).
        let mut text = String::new();
        encode_base64url(b"foobar\xfb\xff", &mut text);
        assert_eq!(text, "Zm9vYmFy-_8");
        // Not base64url, a dangling character, and (the last three) texts
        // that differ from a canonical one only in unused low bits.
        for bad in [
            "A",
            "Zm9=",
            "Zm9v+",
            "Zm9/",
            "Zm9v YmFy",
            "Zh",
            "Zm9",
            "Zm-",
        ] {
            assert_eq!(decode_base64url(bad), None, "{bad:?}");
        }
        assert_eq!(decode_base64url("Zg"), Some(b"f".to_vec()));
        assert_eq!(decode_base64url("Zm8"), Some(b"fo".to_vec()));
    }

    #[test]
    fn varints_are_read_back_only_in_their_shortest_form() {
        for n in [0, 1, 127, 128, 300, u64::from(u32::MAX), u64::MAX] {
            let mut out = Vec::new();
            put_varint(&mut out, n);
            let mut reader = Reader(&out);
            assert_eq!(reader.varint(), Some(n));
            assert!(reader.is_empty());
        }
        for bad in [&[0x80, 0x00][..], &[0xff; 11], &[0x80], &[]] {
            assert_eq!(Reader(bad).varint(), None, "{bad:?}");
        }
        // 2^64 does not fit.
        let mut too_big = vec![0x80; 9];
        too_big.push(0x02);
        assert_eq!(Reader(&too_big).varint(), None);
        let mut out = Vec::new();
        put_field(&mut out, b"abc");
        assert_eq!(Reader(&out).field(), Some(&b"abc"[..]));
        assert_eq!(Reader(&out[..3]).field(), None);
    }
}
