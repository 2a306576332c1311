//! `bool` and `char`.
//!
//! # Format
//!
//! - `bool`: `false` or `true` (`f` < `t`, so `false` sorts first).
//! - `char`: the one-character string, escaped exactly as a `str` (bytes
//!   up to `$` written as `$` and the byte plus 0x40): `'a'` → `a`,
//!   `' '` → ``$` ``, `'#'` → `$c`. UTF-8 byte order is code point order,
//!   and the escaping keeps byte order.
//!
//! ```
//! use ddb_entity::key;
//!
//! assert_eq!(key::encode(&true)?, "true");
//! assert_eq!(key::encode(&'#')?, "$c");
//! assert_eq!(key::decode::<char>("😀")?, '😀');
//! assert!(key::decode::<char>("ab").is_err());
//! assert!(key::decode::<bool>("TRUE").is_err());
//! # Ok::<(), key::KeyError>(())
//! ```

use super::string::unescape;
use super::{DecodeKeyPart, KeyError, KeyPart};

impl KeyPart for bool {
    // `false` and `true` differ in their first byte.
    const PREFIX_FREE: bool = true;

    fn encode_key(&self, out: &mut String) -> Result<(), KeyError> {
        out.push_str(if *self { "true" } else { "false" });
        Ok(())
    }
}

impl DecodeKeyPart for bool {
    fn decode_key(component: &str) -> Result<Self, KeyError> {
        match component {
            "false" => Ok(false),
            "true" => Ok(true),
            _ => Err(KeyError::malformed("bool (false or true)", component)),
        }
    }
}

impl KeyPart for char {
    // One character: UTF-8 is prefix-free, and an escape (`$` and one
    // byte) starts with a byte no unescaped character is.
    const PREFIX_FREE: bool = true;

    fn encode_key(&self, out: &mut String) -> Result<(), KeyError> {
        self.encode_utf8(&mut [0; 4]).encode_key(out)
    }
}

impl DecodeKeyPart for char {
    fn decode_key(component: &str) -> Result<Self, KeyError> {
        const EXPECTED: &str = "char (one escaped character)";
        let text = unescape(component, EXPECTED)?;
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Ok(c),
            _ => Err(KeyError::malformed(EXPECTED, component)),
        }
    }
}
