//! Range bounds over key prefixes.

/// DynamoDB's limit on the size of a sort key: 1024 bytes of UTF-8.
///
/// [`prefix_upper_bound`] relies on it: no stored sort key is longer.
///
/// ```
/// assert_eq!(ddb_entity::key::SORT_KEY_MAX_BYTES, 1024);
/// ```
pub const SORT_KEY_MAX_BYTES: usize = 1024;

/// DynamoDB's limit on the size of a partition key: 2048 bytes of UTF-8.
///
/// ```
/// assert_eq!(ddb_entity::key::PARTITION_KEY_MAX_BYTES, 2048);
/// ```
pub const PARTITION_KEY_MAX_BYTES: usize = 2048;

/// The largest character of each UTF-8 length: 1, 2, 3 and 4 bytes.
const LARGEST_OF_LEN: [char; 4] = ['\u{7F}', '\u{7FF}', '\u{FFFF}', '\u{10FFFF}'];

/// The inclusive upper bound of every sort key that starts with `prefix`,
/// for a `BETWEEN prefix AND bound` sort-key condition.
///
/// DynamoDB allows one condition on the sort key, and `BETWEEN` is
/// inclusive, so selecting everything under a prefix as a range (to start
/// it part-way, to page it, or to span from one prefix to the end of
/// another) needs a string that is at least every sort key starting with
/// the prefix and below every other sort key above it.
///
/// # Construction
///
/// The bound is `prefix` followed by `U+10FFFF` as often as it fits in
/// [`SORT_KEY_MAX_BYTES`], then the remaining `r < 4` bytes filled with the
/// largest character of exactly `r` bytes (`U+FFFF`, `U+07FF`, `U+007F`),
/// so the bound is exactly 1024 bytes long. A prefix of 1024 bytes or more
/// is its own bound (at most itself is stored under it).
///
/// # Why it is exact
///
/// Let `prefix + s` be a sort key, so `s` has at most as many bytes as the
/// filler `f`. Compare `s` with `f` character by character. No UTF-8
/// sequence is bytewise above `U+10FFFF`'s `F4 8F BF BF`, and UTF-8 byte
/// order is code-point order, so a character of `s` below `U+10FFFF` makes
/// `s < f` at once, and an equal one moves on. Past the 4-byte characters
/// of `f`, `s` has at most `r` bytes left, so its next character has at
/// most `r` bytes and is at most the largest `r`-byte character. Hence
/// `s <= f` and `prefix + s <= bound`. The bound is itself a sort key under
/// `prefix` — the greatest one — so every sort key above it does not start
/// with `prefix`: `BETWEEN prefix AND bound` selects exactly the sort keys
/// that start with `prefix`.
///
/// ```
/// use ddb_entity::key::{SORT_KEY_MAX_BYTES, prefix_upper_bound};
///
/// let hi = prefix_upper_bound("ORDER#2026-03");
/// assert_eq!(hi.len(), SORT_KEY_MAX_BYTES);
/// assert!("ORDER#2026-03-31#00000000000000000007".as_bytes() <= hi.as_bytes());
/// assert!("ORDER#2026-04".as_bytes() > hi.as_bytes());
/// assert!("ORDER#2026-03".as_bytes() <= hi.as_bytes());
/// ```
pub fn prefix_upper_bound(prefix: &str) -> String {
    let Some(room) = SORT_KEY_MAX_BYTES.checked_sub(prefix.len()) else {
        return prefix.to_owned();
    };
    let mut bound = String::with_capacity(SORT_KEY_MAX_BYTES);
    bound.push_str(prefix);
    let largest = LARGEST_OF_LEN[3];
    bound.extend(std::iter::repeat_n(largest, room / largest.len_utf8()));
    if let Some(&last) = (room % 4)
        .checked_sub(1)
        .and_then(|i| LARGEST_OF_LEN.get(i))
    {
        bound.push(last);
    }
    bound
}

/// The least string above every string that starts with `prefix`: the
/// first sort key *after* everything under it, for an exclusive bound
/// written inclusively (`> everything under p` is `>= prefix_successor(p)`).
/// `None` when no string is above them all: `prefix` is empty or only
/// `U+10FFFF`s.
///
/// # Construction
///
/// The last character is raised by one code point (skipping the
/// surrogates, which are no characters); a `U+10FFFF` cannot be raised, so
/// it is dropped and the one before is raised instead. A string `t` above
/// every string under `prefix` first differs from `prefix` at some
/// character it has greater; at the last character that makes `t` at least
/// the result, and earlier it makes `t` greater than it.
///
/// ```
/// use ddb_entity::key::prefix_successor;
///
/// assert_eq!(prefix_successor("ORDER#").as_deref(), Some("ORDER$"));
/// assert_eq!(prefix_successor("a\u{10FFFF}").as_deref(), Some("b"));
/// assert_eq!(prefix_successor("\u{10FFFF}"), None);
/// assert_eq!(prefix_successor(""), None);
/// ```
pub fn prefix_successor(prefix: &str) -> Option<String> {
    let mut next = prefix.to_owned();
    while let Some(last) = next.pop() {
        if let Some(raised) = char_after(last) {
            next.push(raised);
            return Some(next);
        }
    }
    None
}

/// The greatest sort key (at most [`SORT_KEY_MAX_BYTES`]) below `key`: the
/// last one *before* it, for an exclusive bound written inclusively
/// (`< key` is `<= greatest_below(key)`). `None` for the empty string,
/// below which there is nothing.
///
/// # Construction
///
/// With `key = rest + c`: when `c` is `U+0000`, `rest` itself (nothing lies
/// between `rest` and `rest + U+0000`); otherwise the upper bound of the
/// prefix `rest + (c - 1)` ([`prefix_upper_bound`]), the greatest string
/// under it, above which the next string is `key`.
///
/// ```
/// use ddb_entity::key::{greatest_below, prefix_upper_bound};
///
/// assert_eq!(greatest_below("ORDER#"), Some(prefix_upper_bound("ORDER\"")));
/// assert_eq!(greatest_below("a\u{0}").as_deref(), Some("a"));
/// assert_eq!(greatest_below(""), None);
/// ```
pub fn greatest_below(key: &str) -> Option<String> {
    let mut below = key.to_owned();
    let last = below.pop()?;
    match char_before(last) {
        None => Some(below),
        Some(lowered) => {
            below.push(lowered);
            Some(prefix_upper_bound(&below))
        }
    }
}

/// The next Unicode scalar value, skipping the surrogate gap.
fn char_after(c: char) -> Option<char> {
    match c {
        '\u{D7FF}' => Some('\u{E000}'),
        c => char::from_u32(u32::from(c) + 1),
    }
}

/// The previous Unicode scalar value, skipping the surrogate gap.
fn char_before(c: char) -> Option<char> {
    match c {
        '\u{E000}' => Some('\u{D7FF}'),
        c => u32::from(c).checked_sub(1).and_then(char::from_u32),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_exactly_the_sort_key_limit() {
        for len in 0..=SORT_KEY_MAX_BYTES + 3 {
            let prefix = "a".repeat(len);
            let bound = prefix_upper_bound(&prefix);
            assert!(bound.starts_with(&prefix));
            assert_eq!(bound.len(), SORT_KEY_MAX_BYTES.max(len));
        }
        for (i, c) in LARGEST_OF_LEN.iter().enumerate() {
            assert_eq!(c.len_utf8(), i + 1);
        }
    }
}
