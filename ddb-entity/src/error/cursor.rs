//! Why a cursor was refused, for code that logs refusals apart.

/// Why a query refused a [`Cursor`](crate::Cursor): the detail of an
/// [`ErrorKind::InvalidCursor`](crate::ErrorKind::InvalidCursor), from
/// [`Error::cursor_fault`](crate::Error::cursor_fault).
///
/// Every fault is the client's cursor, not the query, and nothing was
/// sent: a service answers all of them alike (HTTP 400), and may log them
/// apart.
///
/// ```
/// use ddb_entity::{Cursor, ErrorKind, op::CursorFault};
///
/// let err = "c2.not-a-cursor".parse::<Cursor>().unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::InvalidCursor);
/// assert_eq!(err.cursor_fault(), Some(CursorFault::Malformed));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CursorFault {
    /// Not the text of a cursor of this library: an unknown version, not
    /// base64url, or truncated.
    Malformed,
    /// An unsealed cursor whose key is not one of this query: another
    /// index, another partition, or not exactly the index's key attributes.
    Mismatch,
}

impl CursorFault {
    /// A short name: `"malformed"` or `"mismatch"`.
    ///
    /// ```
    /// assert_eq!(ddb_entity::op::CursorFault::Mismatch.as_str(), "mismatch");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            CursorFault::Malformed => "malformed",
            CursorFault::Mismatch => "mismatch",
        }
    }
}

impl std::fmt::Display for CursorFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
