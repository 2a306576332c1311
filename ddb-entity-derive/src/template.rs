//! Key templates: `"ORDER#{placed}#{order_id:6}"`, parsed at compile time.
//!
//! # The IR
//!
//! A template is a list of *segments*, joined in every key by the
//! delimiter `#`; a segment is a list of *pieces*, literal text and
//! `{field}` holes, written one after the other without a delimiter:
//!
//! | template | segments |
//! | --- | --- |
//! | `ORDER#{placed}#{id}` | `[ORDER]`, `[{placed}]`, `[{id}]` |
//! | `#ORDER#{id}` | `[]` (empty: the key starts with `#`), `[ORDER]`, `[{id}]` |
//! | `{kind}REACTION#{user}` | `[{kind}, REACTION]`, `[{user}]` |
//! | `ISSUE#{number}-{comment}` | `[ISSUE]`, `[{number}, -, {comment}]` |
//!
//! Only the first segment may be empty, and only when others follow. Two
//! holes never touch (a literal stands between them). Whether a hole may
//! share its segment depends on its type (see `KeyPart::PREFIX_FREE` and
//! `KeyPart::FIXED_LEN`), checked by the generated code at compile time.
//!
//! Parsing recovers: a malformed piece is reported once and read as what
//! it most likely meant (`{id` as `{id}`), so the holes a template names
//! are known even when it is wrong, and nothing downstream reports the same
//! mistake again.

use proc_macro2::Span;
use syn::LitStr;

use crate::ctxt::Ctxt;

/// Widest integer key part: u128/i128 have 39 digits.
const MAX_WIDTH: usize = 39;

/// A parsed template: its segments, and the literal for spans.
pub(crate) struct Template {
    pub(crate) segments: Vec<Vec<Piece>>,
    pub(crate) lit: LitStr,
}

pub(crate) enum Piece {
    /// Literal text, e.g. `ORDER`; never empty.
    Literal(String),
    /// A `{field}` or `{field:width}` hole.
    Hole(Hole),
}

pub(crate) struct Hole {
    /// The field name as written (a raw identifier without its `r#`).
    pub(crate) name: String,
    pub(crate) width: Option<usize>,
    /// Inside the literal where the compiler supports it, else the literal.
    pub(crate) span: Span,
    /// An error about this hole was reported already: say nothing more.
    pub(crate) reported: bool,
}

/// Parses `lit`, recording every problem in `cx` and recovering from it.
pub(crate) fn parse(cx: &Ctxt, lit: &LitStr) -> Template {
    let text = lit.value();
    let mut segments = Vec::new();
    if text.is_empty() {
        cx.error(
            lit,
            "empty key template: DynamoDB keys cannot be empty; write literal segments and `{field}` holes joined by `#`, e.g. \"CUST#{customer_id}\"",
        );
    }
    let split = split(&text);
    let count = split.len();
    for (position, (offset, raw)) in split.into_iter().enumerate() {
        let span = subspan(lit, offset, raw.len());
        let report = |message: String| {
            cx.error_at(span, format!("{message} (in key template \"{text}\")"));
        };
        if raw.is_empty() {
            // A leading `#`: an empty first segment, before others.
            if position == 0 && count > 1 {
                segments.push(Vec::new());
            } else if !text.is_empty() {
                report("empty segment: segments are joined by a single `#`; only the start may be empty (a leading `#`), never the middle or the end".into());
            }
            continue;
        }
        let Some(runs) = runs(raw) else {
            segments.push(vec![Piece::Literal(raw.to_owned())]);
            continue;
        };
        let mut pieces = Vec::new();
        let mut reported_segment = false;
        let mut previous_hole: Option<&str> = None;
        for (at, run) in runs {
            let span = subspan(lit, offset + at, run.len());
            match run {
                Run::Text(text_run) if text_run.contains('}') => {
                    // `id}` lost its `{`: a hole, not text.
                    let inner = text_run.trim_matches(['{', '}']);
                    if !reported_segment {
                        report(format!(
                            "`{raw}` has a `}}` without its `{{`: write `{{{inner}}}`"
                        ));
                        reported_segment = true;
                    }
                    pieces.push(Piece::Hole(hole(cx, inner, span, &text, true)));
                    previous_hole = Some(inner);
                }
                Run::Text(text_run) => {
                    pieces.push(Piece::Literal(text_run.to_owned()));
                    previous_hole = None;
                }
                Run::Hole { inner, closed } => {
                    let mut reported = false;
                    if !closed && !reported_segment {
                        report(format!(
                            "`{raw}` is missing its closing `}}`: write `{{{inner}}}`"
                        ));
                        reported_segment = true;
                        reported = true;
                    } else if let Some(before) = previous_hole
                        && !reported_segment
                    {
                        report(format!(
                            "`{{{before}}}{{{inner}}}` puts two holes side by side, so no key says where one ends: write a literal between them, e.g. `{{{before}}}-{{{inner}}}`, or separate them with `#`: `{{{before}}}#{{{inner}}}`"
                        ));
                        reported_segment = true;
                        reported = true;
                    }
                    pieces.push(Piece::Hole(hole(cx, inner, span, &text, reported)));
                    previous_hole = Some(inner);
                }
            }
        }
        segments.push(pieces);
    }
    dedup_holes(cx, &mut segments);
    Template {
        segments,
        lit: lit.clone(),
    }
}

/// Splits on the `#` that join segments: a `#` between braces belongs to a
/// (malformed) hole, reported there. Yields (byte offset, segment).
fn split(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (at, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            '#' if depth == 0 => {
                out.push((start, &text[start..at]));
                start = at + 1;
            }
            _ => {}
        }
    }
    out.push((start, &text[start..]));
    out
}

enum Run<'a> {
    Text(&'a str),
    Hole { inner: &'a str, closed: bool },
}

impl Run<'_> {
    /// Its length in the template, braces included.
    fn len(&self) -> usize {
        match self {
            Run::Text(text) => text.len(),
            Run::Hole { inner, closed } => inner.len() + 1 + usize::from(*closed),
        }
    }
}

/// A segment as text and `{…}` runs with their byte offsets in it; `None`
/// for plain literal text.
fn runs(raw: &str) -> Option<Vec<(usize, Run<'_>)>> {
    if !raw.contains(['{', '}']) {
        return None;
    }
    let mut out = Vec::new();
    let mut at = 0;
    while at < raw.len() {
        let rest = &raw[at..];
        match rest.find('{') {
            Some(0) => match rest.find('}') {
                Some(end) => {
                    out.push((
                        at,
                        Run::Hole {
                            inner: &rest[1..end],
                            closed: true,
                        },
                    ));
                    at += end + 1;
                }
                None => {
                    out.push((
                        at,
                        Run::Hole {
                            inner: &rest[1..],
                            closed: false,
                        },
                    ));
                    at = raw.len();
                }
            },
            Some(next) => {
                out.push((at, Run::Text(&rest[..next])));
                at += next;
            }
            None => {
                out.push((at, Run::Text(rest)));
                at = raw.len();
            }
        }
    }
    Some(out)
}

/// The hole `{inner}`; `reported` when its segment's shape was reported.
fn hole(cx: &Ctxt, inner: &str, span: Span, text: &str, mut reported: bool) -> Hole {
    let (name, width) = match inner.split_once(':') {
        None => (inner.trim(), None),
        Some((name, width)) => match width.trim().parse::<usize>() {
            Ok(width) if (1..=MAX_WIDTH).contains(&width) => (name.trim(), Some(width)),
            _ => {
                if !reported {
                    cx.error_at(
                        span,
                        format!(
                            "`{width}` is not a key width: write a number of digits from 1 to {MAX_WIDTH}, e.g. `{{{}:6}}` (in key template \"{text}\")",
                            name.trim()
                        ),
                    );
                    reported = true;
                }
                (name.trim(), None)
            }
        },
    };
    let name = if let Some(raw) = name.strip_prefix("r#") {
        if !reported {
            cx.error_at(
                span,
                format!("`#` joins segments, so a hole cannot spell a raw identifier: write `{{{raw}}}` for the field `r#{raw}`"),
            );
            reported = true;
        }
        raw.to_owned()
    } else if name.contains('#') {
        let meant = name.replace('#', "_");
        if !reported {
            cx.error_at(
                span,
                format!("`#` joins segments and cannot appear inside a hole: name one field, e.g. `{{{meant}}}` (in key template \"{text}\")"),
            );
            reported = true;
        }
        meant
    } else {
        name.to_owned()
    };
    Hole {
        name,
        width,
        span,
        reported,
    }
}

/// A field fills at most one hole of a template: later repeats are
/// reported and dropped.
fn dedup_holes(cx: &Ctxt, segments: &mut [Vec<Piece>]) {
    let mut seen: Vec<String> = Vec::new();
    for segment in segments {
        segment.retain(|piece| {
            let Piece::Hole(hole) = piece else { return true };
            if seen.contains(&hole.name) {
                if !hole.reported {
                    cx.error_at(
                        hole.span,
                        format!(
                            "hole `{{{}}}` appears twice in one key template; each field fills at most one hole",
                            hole.name
                        ),
                    );
                }
                return false;
            }
            seen.push(hole.name.clone());
            true
        });
    }
}

/// The span of `len` bytes at `offset` in the literal's value. Stable Rust
/// cannot point inside a literal yet, so this falls back to the literal.
fn subspan(lit: &LitStr, offset: usize, len: usize) -> Span {
    // +1 skips the opening quote; escapes would shift this, so only plain
    // literals (the usual case) get a precise span.
    let token = lit.token();
    if token.to_string().len() != lit.value().len() + 2 {
        return lit.span();
    }
    token
        .subspan(offset + 1..offset + 1 + len.max(1))
        .unwrap_or_else(|| lit.span())
}
