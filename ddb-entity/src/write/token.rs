//! Write tokens: what lets a write resent after a lost answer recognise
//! the item stored as its own.
//!
//! Each write call that needs one makes a token **once**, stores it in the
//! table's reserved [`token_attribute`](crate::table::TableSchema::token_attribute)
//! (overwriting the previous writer's: one per item, never growing) and,
//! where a replay of the same request would change the result, conditions
//! the write on the stored token not being its own. The SDK serialises a
//! request once and resends those bytes on every retry, so every attempt of
//! one call carries the same token: "the stored token is mine" means "an
//! attempt of this call was applied, and nothing wrote the item since".

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use aws_sdk_dynamodb::types::AttributeValue;

use crate::error::{Repr, Result};
use crate::item::Item;
use crate::table::TableSchema;

/// URL-safe base64 alphabet: the token is plain ASCII, no escaping on the wire.
const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Characters of a generated token: 21 × 6 = 126 random bits.
pub(crate) const GENERATED_LENGTH: usize = 21;

/// The length limits of a caller's token (a transaction's
/// `ClientRequestToken` takes 1 to 36 characters; a write token the same,
/// so one value can serve both).
pub(crate) const TOKEN_LENGTH: std::ops::RangeInclusive<usize> = 1..=36;

/// One write call's token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct WriteToken(String);

impl WriteToken {
    /// A fresh token, unique per call (not secret): 126 bits from two
    /// SipHash outputs keyed by the process's random `RandomState` keys,
    /// over the time, a process-wide counter, the process id and the
    /// thread. No new dependency, no system call beyond the clock.
    pub(crate) fn generate() -> Self {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let count = COUNTER.fetch_add(1, Ordering::Relaxed);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let draw = |salt: u64| {
            let mut hasher = RandomState::new().build_hasher();
            hasher.write_u64(salt);
            hasher.write_u64(count);
            hasher.write_u128(nanos);
            hasher.write_u32(std::process::id());
            std::thread::current().id().hash(&mut hasher);
            hasher.finish()
        };
        let bits = (u128::from(draw(0x5752_4954_4531)) << 64) | u128::from(draw(0x5752_4954_4532));
        let token = (0..GENERATED_LENGTH)
            .map(|i| char::from(ALPHABET[((bits >> (6 * i)) & 63) as usize]))
            .collect();
        WriteToken(token)
    }

    /// The caller's own token (1 to 36 characters), for a write the caller
    /// may send again as a new call: the same token makes the resend
    /// recognise the first call's effect.
    pub(crate) fn given(token: String) -> Result<Self> {
        let length = token.chars().count();
        if !TOKEN_LENGTH.contains(&length) {
            return Err(Repr::InvalidToken { length }.into());
        }
        Ok(WriteToken(token))
    }

    /// The token, or a fresh one.
    pub(crate) fn given_or_generated(token: Option<String>) -> Result<Self> {
        token.map_or_else(|| Ok(Self::generate()), Self::given)
    }

    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }

    /// The token as the attribute value stored.
    pub(crate) fn value(&self) -> AttributeValue {
        AttributeValue::S(self.0.clone())
    }

    /// Whether `item` holds this token in `attribute` itself.
    pub(crate) fn is_at(&self, item: &Item, attribute: &str) -> bool {
        matches!(item.get(attribute), Some(AttributeValue::S(stored)) if *stored == self.0)
    }

    /// Whether `item` (as stored) holds this token in one of the slots of
    /// the table's token history: a write of this call was applied, and
    /// fewer than [`TableSchema::TOKEN_HISTORY`] updates came after it.
    pub(crate) fn is_in(&self, item: &Item, schema: &TableSchema) -> bool {
        (0..TableSchema::TOKEN_HISTORY).any(|slot| self.is_at(item, &schema.token_slot(slot)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_tokens_are_unique_short_and_url_safe() {
        let tokens: std::collections::HashSet<_> =
            (0..10_000).map(|_| WriteToken::generate().0).collect();
        assert_eq!(tokens.len(), 10_000);
        for token in tokens.iter().take(50) {
            assert_eq!(token.len(), GENERATED_LENGTH);
            assert!(token.bytes().all(|b| ALPHABET.contains(&b)), "{token}");
        }
    }

    #[test]
    fn a_given_token_is_1_to_36_characters() {
        assert!(WriteToken::given("order-42".into()).is_ok());
        assert!(WriteToken::given("x".repeat(36)).is_ok());
        for bad in [String::new(), "x".repeat(37)] {
            let err = WriteToken::given(bad).unwrap_err();
            assert_eq!(err.kind(), crate::error::ErrorKind::InvalidToken);
        }
    }
}
