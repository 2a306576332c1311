//! Why a cursor was refused, for code that logs refusals apart.

/// Why a query refused a [`Cursor`](crate::cursor::Cursor): the detail of an
/// [`ErrorKind::InvalidCursor`](crate::error::ErrorKind::InvalidCursor), from
/// [`Error::cursor_fault`](crate::error::Error::cursor_fault).
///
/// Every fault is the client's cursor, not the query, and nothing was
/// sent: a service answers all of them alike (HTTP 400), and may log them
/// apart — an expired cursor is routine, one that does not authenticate
/// is worth a look.
///
/// ```
/// use ddb_entity::{Cursor, ErrorKind, op::CursorFault};
///
/// let err = "c2.not-a-cursor".parse::<Cursor>().unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::InvalidCursor);
/// let status = match err.cursor_fault() {
///     Some(CursorFault::Expired) => 400, // "this listing has expired, start again"
///     Some(CursorFault::Unauthentic) => 400, // and log: tampered or forged
///     Some(_) => 400,
///     None => 500,
/// };
/// assert_eq!(err.cursor_fault(), Some(CursorFault::Malformed));
/// # let _ = status;
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CursorFault {
    /// Not the text of a cursor of this library: an unknown version, not
    /// base64url, truncated, or too short to be sealed.
    Malformed,
    /// An unsealed cursor whose key is not one of this query: another
    /// index, another partition, or not exactly the index's key attributes.
    Mismatch,
    /// An unsealed cursor, where the handle accepts only sealed ones
    /// (`Db::with_cursor_seal`).
    Unsealed,
    /// A sealed cursor, where the handle has no seal to open it with: the
    /// service's configuration differs from the one that sealed it (a
    /// handle without `Db::with_cursor_seal`, or a build without the
    /// `sealed-cursors` feature).
    NoSeal,
    /// A sealed cursor that no key of the handle opens for this query:
    /// tampered with, forged, sealed for another query (table, index,
    /// partition, sort-key condition, direction, filter), or sealed with a key the
    /// handle no longer accepts. The cursor's contents are unknown: its
    /// key id too may be forged.
    Unauthentic,
    /// A sealed cursor of this query, authentic, past the expiry it was
    /// sealed with: the client should start the listing again.
    Expired,
    /// A cursor of an earlier format this version no longer resumes from
    /// (a sharded query's `m1.` cursor, which held per-shard positions
    /// only): the client should start the listing again.
    ///
    /// ```
    /// use ddb_entity::{Cursor, op::CursorFault};
    ///
    /// let err = "m1.AAAAAA".parse::<Cursor>().unwrap_err();
    /// assert_eq!(err.cursor_fault(), Some(CursorFault::Outdated));
    /// ```
    Outdated,
}

impl CursorFault {
    /// A short name: `"malformed"`, `"mismatch"`, `"unsealed"`, `"no seal"`,
    /// `"unauthentic"`, `"expired"` or `"outdated"`.
    ///
    /// ```
    /// assert_eq!(ddb_entity::op::CursorFault::Expired.as_str(), "expired");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            CursorFault::Malformed => "malformed",
            CursorFault::Mismatch => "mismatch",
            CursorFault::Unsealed => "unsealed",
            CursorFault::NoSeal => "no seal",
            CursorFault::Unauthentic => "unauthentic",
            CursorFault::Expired => "expired",
            CursorFault::Outdated => "outdated",
        }
    }
}

impl std::fmt::Display for CursorFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
