//! Where an object or an array ends, found 64 bytes at a time: each block
//! is classified at once (quotes, backslashes, opening and closing
//! brackets, as bit masks), the strings' insides are masked out by a
//! running parity of the quotes that no backslash escapes, and only the
//! brackets left are looked at one by one. The byte-by-byte scan
//! ([`super::value`]) branched on every quote and bracket, in an order
//! no predictor learns.
//!
//! The answer is the byte-by-byte scan's for every input: a backslash
//! outside every string (never in JSON) sends the value back to it.

/// 64 bytes, as masks (bit `i` for byte `i`).
#[derive(Debug, Default, PartialEq)]
struct Classes {
    quote: u64,
    backslash: u64,
    /// `{` or `[`.
    open: u64,
    /// `}` or `]`.
    close: u64,
}

const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// Bit 7 of each byte of `word` that equals `c`'s (exactly: no carry
/// crosses a byte).
#[inline(always)]
fn equal(word: u64, c: u8) -> u64 {
    let t = word ^ (u64::from(c) * 0x0101_0101_0101_0101);
    !(((t & LOW7) + LOW7) | t) & HIGH
}

/// Bit 7 of each byte gathered: bit `k` for byte `k`.
#[inline(always)]
fn gather(high: u64) -> u64 {
    (high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// The block's classes, eight bytes at a time (plain integer arithmetic:
/// the same code on every target). Backslashes are rare: their mask is
/// built only when the block holds one.
#[inline]
fn classify(block: &[u8; 64]) -> Classes {
    let mut classes = Classes::default();
    let mut backslashes = 0;
    for (k, bytes) in block.chunks_exact(8).enumerate() {
        let mut word = [0u8; 8];
        word.copy_from_slice(bytes);
        let word = u64::from_le_bytes(word);
        classes.quote |= gather(equal(word, b'"')) << (8 * k);
        // `{` and `[` (0x7b, 0x5b) differ only in bit 0x20, as do `}` and `]`.
        let folded = word | 0x2020_2020_2020_2020;
        classes.open |= gather(equal(folded, b'{')) << (8 * k);
        classes.close |= gather(equal(folded, b'}')) << (8 * k);
        backslashes |= equal(word, b'\\');
    }
    if backslashes != 0 {
        for (k, bytes) in block.chunks_exact(8).enumerate() {
            let mut word = [0u8; 8];
            word.copy_from_slice(bytes);
            classes.backslash |= gather(equal(u64::from_le_bytes(word), b'\\')) << (8 * k);
        }
    }
    classes
}

/// The block's classes, a byte at a time: what [`classify`] must answer.
#[cfg(test)]
fn classify_bytes(block: &[u8; 64]) -> Classes {
    let mut classes = Classes::default();
    for (i, &c) in block.iter().enumerate() {
        let bit = 1u64 << i;
        match c {
            b'"' => classes.quote |= bit,
            b'\\' => classes.backslash |= bit,
            b'{' | b'[' => classes.open |= bit,
            b'}' | b']' => classes.close |= bit,
            _ => {}
        }
    }
    classes
}

/// Bit `i` set when an odd number of bits `0..=i` are set.
#[inline]
fn prefix_parity(mut x: u64) -> u64 {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    x
}

/// Where the object or array starting at `at` (a `{` or `[`) ends, after
/// its matching bracket: `Some(Ok(end))`; `Some(Err(()))` when the text
/// ends first; `None` when a backslash stands outside a string (the
/// caller scans byte by byte).
pub(super) fn nested_end(b: &[u8], at: usize) -> Option<Result<usize, ()>> {
    let text = &b[at..];
    let mut state = State::default();
    let mut blocks = text.chunks_exact(64);
    for (n, block) in blocks.by_ref().enumerate() {
        let block = block.try_into().expect("a chunk of 64 bytes");
        if let Some(end) = state.block(block)? {
            return Some(Ok(at + 64 * n + end));
        }
    }
    let rest = blocks.remainder();
    if !rest.is_empty() {
        // Padded with spaces, which no mask holds.
        let mut last = [b' '; 64];
        last[..rest.len()].copy_from_slice(rest);
        if let Some(end) = state.block(&last)? {
            return Some(Ok(at + text.len() - rest.len() + end));
        }
    }
    Some(Err(()))
}

/// What is carried from block to block.
#[derive(Default)]
struct State {
    depth: usize,
    /// Inside a string at the block's start (all ones, or none).
    in_string: u64,
    /// The block's first byte escaped by the previous block's last.
    escaped_first: u64,
}

impl State {
    /// The next block: `Some(Some(end))` when the value ends in it (after
    /// byte `end - 1`); `None` when a backslash stands outside a string.
    #[inline]
    fn block(&mut self, block: &[u8; 64]) -> Option<Option<usize>> {
        let classes = classify(block);
        // The bytes a backslash escapes: each backslash not itself
        // escaped escapes the next byte (backslashes are rare: one by one).
        let mut escaped = self.escaped_first;
        self.escaped_first = 0;
        let mut escapers = classes.backslash & !escaped;
        while escapers != 0 {
            let i = escapers.trailing_zeros();
            if i == 63 {
                self.escaped_first = 1;
                break;
            }
            escaped |= 1 << (i + 1);
            escapers &= !(1 << (i + 1));
            escapers &= escapers - 1;
        }
        // Inside a string: from an opening quote to (not with) its
        // closing one.
        let strings = prefix_parity(classes.quote & !escaped) ^ self.in_string;
        self.in_string = ((strings >> 63) & 1).wrapping_neg();
        if classes.backslash & !strings != 0 {
            return None;
        }
        let open = classes.open & !strings;
        let mut brackets = (open | classes.close) & !strings;
        while brackets != 0 {
            let i = brackets.trailing_zeros();
            if open & (1 << i) != 0 {
                self.depth += 1;
            } else {
                self.depth -= 1;
                if self.depth == 0 {
                    return Some(Some(i as usize + 1));
                }
            }
            brackets &= brackets - 1;
        }
        Some(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_block_classes_are_the_bytes_classes() {
        let text = br#"{"a\"}":[{"S":"\\"}],"b":{"L":[]}} \\ "{[]}" x"#;
        let mut block = [b' '; 64];
        block[..text.len()].copy_from_slice(text);
        for shift in 0..64 {
            block.rotate_right(1);
            assert_eq!(classify(&block), classify_bytes(&block), "{shift}");
        }
        let all: Vec<u8> = (0..=255u8).collect();
        for start in (0..256).step_by(64) {
            let block: [u8; 64] = all[start..start + 64].try_into().unwrap();
            assert_eq!(classify(&block), classify_bytes(&block));
        }
    }

    #[test]
    fn parity_marks_the_insides_of_strings() {
        assert_eq!(prefix_parity(0b1001), 0b0111);
        assert_eq!(prefix_parity(0b1001_0100), !0b0111_1111 | 0b0000_1100);
        assert_eq!(prefix_parity(1 << 63), 1 << 63);
        assert_eq!(prefix_parity(1), u64::MAX);
    }
}
