//! Sealed cursors: XChaCha20-Poly1305 under the service's keys, bound to
//! the query by the associated data.
//!
//! The sealed bytes are `key id (1) ‖ nonce (24) ‖ ciphertext ‖ tag (16)`;
//! the plaintext is the expiry (LEB128 Unix seconds, 0 for none) and the
//! values of the key attributes other than the partition, in the order of
//! [`Scope::key_attributes`], each length-prefixed. Everything else the
//! cursor stands for — table, index, key attributes, partition, sort-key
//! range, direction, filter — is the associated data
//! ([`Scope::binding`]): authenticated, never sent. A cursor presented to
//! another query therefore fails authentication like a tampered one.
//!
//! Why XChaCha20-Poly1305: its 192-bit nonces can be drawn at random for
//! every cursor without counting how many a key has sealed (a service
//! seals one per page it serves, for as long as the key lives); 96-bit
//! nonces (AES-GCM) make a repeat plausible within the life of a busy key,
//! and a repeat there leaks the authentication key. It is constant time
//! in software on every target, and one small RustCrypto crate.

use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use aws_sdk_dynamodb::types::AttributeValue;
use chacha20poly1305::aead::Generate;
use chacha20poly1305::{AeadInOut, Key, KeyInit, Tag, XChaCha20Poly1305, XNonce};

use super::{Cursor, Form, Position, SEALED, Scope, invalid, wire};
use crate::error::{CursorFault, Repr, Result};
use crate::item::Item;

const NONCE_LEN: usize = 24;
const TAG_LEN: usize = 16;

/// The keys a service seals its query cursors with, for clients it does
/// not trust: give it to a handle with
/// [`Db::with_cursor_seal`](crate::db::Db::with_cursor_seal), and every page
/// of every query on that handle hands out sealed cursors, and every
/// [`after`](crate::read::Query::after) takes only cursors sealed for that
/// very query.
///
/// A key is 32 random bytes the service keeps secret (e.g. `openssl rand
/// -base64 32` into its secret store), shared by every instance that
/// serves the same listings, with a one-byte id the cursor carries so the
/// opener finds it. **Rotation**: seal with the new key and still open
/// with the old one ([`also_open`](Self::also_open)) for as long as
/// cursors live; then drop the old one. Ids tell the current keys apart;
/// reuse one only once its old key is retired.
///
/// With the `sealed-cursors` feature. Sealing is XChaCha20-Poly1305 with a
/// random nonce per cursor.
///
/// ```
/// use std::time::Duration;
/// use ddb_entity::CursorSeal;
///
/// // From the service's secret store; never a constant in real code.
/// let current: [u8; 32] = *b"an example key of 32 bytes......";
/// let previous: [u8; 32] = *b"the key before it, also 32 bytes";
/// let seal = CursorSeal::new(2, current)
///     .also_open(1, previous)
///     .expire_after(Duration::from_secs(3600));
/// assert_eq!(seal.sealing_key_id(), 2);
/// assert_eq!(format!("{seal:?}"), "CursorSeal { sealing_key_id: 2, opening_key_ids: [2, 1], expire_after: Some(3600s) }");
/// ```
#[derive(Clone)]
pub struct CursorSeal {
    /// The first one seals; all of them open.
    keys: Vec<SealKey>,
    lifetime: Option<Duration>,
}

#[derive(Clone)]
struct SealKey {
    id: u8,
    /// Wipes the key when dropped.
    cipher: XChaCha20Poly1305,
}

impl CursorSeal {
    /// Seals with `key`, under the id `key_id`, and opens what it sealed.
    /// Cursors do not expire unless [`expire_after`](Self::expire_after)
    /// says so.
    ///
    /// ```
    /// let seal = ddb_entity::CursorSeal::new(1, [7; 32]); // a real key is random
    /// assert_eq!(seal.sealing_key_id(), 1);
    /// ```
    pub fn new(key_id: u8, key: [u8; 32]) -> Self {
        CursorSeal {
            keys: vec![SealKey::new(key_id, key)],
            lifetime: None,
        }
    }

    /// Also opens cursors sealed with `key` under `key_id`: a key being
    /// rotated out. Several may be held; a cursor opens if any key with its
    /// id opens it.
    ///
    /// ```
    /// let seal = ddb_entity::CursorSeal::new(2, [2; 32]).also_open(1, [1; 32]);
    /// assert_eq!(seal.sealing_key_id(), 2);
    /// ```
    pub fn also_open(mut self, key_id: u8, key: [u8; 32]) -> Self {
        self.keys.push(SealKey::new(key_id, key));
        self
    }

    /// Cursors sealed from now on expire `lifetime` after they are made (to
    /// the second), by the handle's clock ([`Db::now`](crate::db::Db::now)).
    /// The expiry is sealed inside each cursor, so it holds whatever seal
    /// later opens it.
    ///
    /// ```
    /// use std::time::Duration;
    /// let seal = ddb_entity::CursorSeal::new(1, [7; 32]).expire_after(Duration::from_secs(900));
    /// # let _ = seal;
    /// ```
    pub fn expire_after(mut self, lifetime: Duration) -> Self {
        self.lifetime = Some(lifetime);
        self
    }

    /// The id of the key new cursors are sealed with.
    ///
    /// ```
    /// assert_eq!(ddb_entity::CursorSeal::new(9, [7; 32]).sealing_key_id(), 9);
    /// ```
    pub fn sealing_key_id(&self) -> u8 {
        self.keys[0].id
    }

    /// The sealed cursor of the query in `scope` at `position`.
    pub(super) fn seal(
        &self,
        scope: &Scope<'_>,
        position: &Position,
        now: SystemTime,
    ) -> Result<Cursor> {
        // Exactly the key of this query: the partition is then the
        // scope's, and every other attribute is there once.
        position.check(scope)?;
        let mut content = Vec::with_capacity(64);
        // Checked: sorted by name, exactly the scope's key attributes.
        for (name, value) in &position.last_key {
            if name != scope.partition_attribute() {
                wire::put_field(&mut content, value.as_bytes());
            }
        }
        self.seal_content(scope, &content, now)
    }

    /// The sealed cursor holding `content`, for the query in `scope`: its
    /// expiry, then `content`, encrypted and bound to the scope.
    pub(super) fn seal_content(
        &self,
        scope: &Scope<'_>,
        content: &[u8],
        now: SystemTime,
    ) -> Result<Cursor> {
        let expires = match self.lifetime {
            None => 0,
            Some(lifetime) => {
                // Saturating: `Duration::MAX` means "never", not an
                // overflow (a panic in debug, an instant expiry in release).
                let seconds = lifetime
                    .as_secs()
                    .saturating_add(u64::from(lifetime.subsec_nanos() > 0));
                unix_seconds(now).saturating_add(seconds).max(1)
            }
        };
        let mut plaintext = Vec::with_capacity(content.len() + 8);
        wire::put_varint(&mut plaintext, expires);
        plaintext.extend_from_slice(content);

        let key = &self.keys[0];
        let nonce = XNonce::try_generate().map_err(|err| Repr::SealFailed {
            source: Box::new(err),
        })?;
        let binding = scope.binding(SEALED, key.id);
        let tag = key
            .cipher
            .encrypt_inout_detached(&nonce, &binding, plaintext.as_mut_slice().into())
            .map_err(|err| Repr::SealFailed {
                source: Box::new(err),
            })?;
        let mut sealed = Vec::with_capacity(1 + NONCE_LEN + plaintext.len() + TAG_LEN);
        sealed.push(key.id);
        sealed.extend_from_slice(&nonce);
        sealed.extend_from_slice(&plaintext);
        sealed.extend_from_slice(&tag);
        Ok(Cursor(Form::Sealed(sealed)))
    }

    /// The `ExclusiveStartKey` in `sealed`, if a key of this seal opens it
    /// for the query in `scope` and it has not expired.
    pub(super) fn open(&self, sealed: &[u8], scope: &Scope<'_>, now: SystemTime) -> Result<Item> {
        let content = self.open_content(sealed, scope, now)?;
        let mut reader = wire::Reader(&content);
        let mut key = Item::new();
        for name in scope.key_attributes() {
            let value = if name == scope.partition_attribute() {
                scope.partition.to_owned()
            } else {
                reader.string().ok_or_else(unreadable)?
            };
            key.insert(name.to_owned(), AttributeValue::S(value));
        }
        if !reader.is_empty() {
            return Err(unreadable());
        }
        Ok(key)
    }

    /// What [`seal_content`](Self::seal_content) sealed, if a key of this
    /// seal opens it for the query in `scope` and it has not expired.
    pub(super) fn open_content(
        &self,
        sealed: &[u8],
        scope: &Scope<'_>,
        now: SystemTime,
    ) -> Result<Vec<u8>> {
        let malformed = || invalid(CursorFault::Malformed, "it is too short to be sealed");
        let (&key_id, rest) = sealed.split_first().ok_or_else(malformed)?;
        let (nonce, rest) = rest.split_at_checked(NONCE_LEN).ok_or_else(malformed)?;
        let tag_at = rest.len().checked_sub(TAG_LEN).ok_or_else(malformed)?;
        let (ciphertext, tag) = rest.split_at(tag_at);
        let nonce = XNonce::try_from(nonce).map_err(|_| malformed())?;
        let tag = Tag::try_from(tag).map_err(|_| malformed())?;
        let binding = scope.binding(SEALED, key_id);

        let mut plaintext = ciphertext.to_vec();
        let mut candidates = self.keys.iter().filter(|key| key.id == key_id).peekable();
        if candidates.peek().is_none() {
            return Err(invalid(
                CursorFault::Unauthentic,
                format!(
                    "it names key id {key_id}, which this handle does not hold (a retired key, or a forged cursor)"
                ),
            ));
        }
        let opened = candidates.any(|key| {
            plaintext.copy_from_slice(ciphertext);
            key.cipher
                .decrypt_inout_detached(&nonce, &binding, plaintext.as_mut_slice().into(), &tag)
                .is_ok()
        });
        if !opened {
            return Err(invalid(
                CursorFault::Unauthentic,
                "it was not sealed for this query with a key of this handle (tampered with, forged, or from another query)",
            ));
        }

        // Authentic: what follows was written by `seal` for this scope, so
        // a failure here is another version's format, not a forgery.
        let mut reader = wire::Reader(&plaintext);
        let expires = reader.varint().ok_or_else(unreadable)?;
        if expires != 0 && unix_seconds(now) >= expires {
            return Err(invalid(
                CursorFault::Expired,
                "it has expired; start the listing again",
            ));
        }
        Ok(reader.0.to_vec())
    }
}

/// An authentic cursor whose content this version cannot read.
pub(super) fn unreadable() -> crate::error::Error {
    invalid(
        CursorFault::Malformed,
        "its sealed content is not in this version's format",
    )
}

impl SealKey {
    fn new(id: u8, key: [u8; 32]) -> Self {
        SealKey {
            id,
            cipher: XChaCha20Poly1305::new(&Key::from(key)),
        }
    }
}

/// Whole seconds since the Unix epoch; 0 before it.
fn unix_seconds(time: SystemTime) -> u64 {
    time.duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_secs())
}

impl fmt::Debug for CursorSeal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never the keys.
        f.debug_struct("CursorSeal")
            .field("sealing_key_id", &self.sealing_key_id())
            .field(
                "opening_key_ids",
                &self.keys.iter().map(|key| key.id).collect::<Vec<_>>(),
            )
            .field("expire_after", &self.lifetime)
            .finish()
    }
}
