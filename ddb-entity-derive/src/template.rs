//! Key templates: `"ORDER#{placed}#{order_id:6}"`, parsed at compile time.
//!
//! Parsing recovers: a malformed segment is reported once and read as what
//! it most likely meant (`CUST{id}` as `CUST#{id}`, `{id` as `{id}`), so the
//! holes a template names are known even when it is wrong, and nothing
//! downstream reports the same mistake again.

use proc_macro2::Span;
use syn::LitStr;

use crate::ctxt::Ctxt;

/// Widest integer key part: u128/i128 have 39 digits.
const MAX_WIDTH: usize = 39;

/// A parsed template: its segments, and the literal for spans.
pub(crate) struct Template {
    pub(crate) segments: Vec<Segment>,
    pub(crate) lit: LitStr,
}

pub(crate) enum Segment {
    /// Literal text, e.g. `ORDER`.
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
    for (offset, raw) in split(&text) {
        let span = subspan(lit, offset, raw.len());
        let report = |message: String| {
            cx.error_at(span, format!("{message} (in key template \"{text}\")"));
        };
        if raw.is_empty() {
            if !text.is_empty() {
                report("empty segment: segments are joined by a single `#`, with none at the start or end".into());
            }
            continue;
        }
        let Some(pieces) = pieces(raw) else {
            segments.push(Segment::Literal(raw.to_owned()));
            continue;
        };
        let shape = match pieces.as_slice() {
            [Piece::Hole { closed: true, .. }] => None,
            [
                Piece::Hole {
                    closed: false,
                    inner,
                },
            ] => Some(format!(
                "`{raw}` is missing its closing `}}`: write `{{{inner}}}`"
            )),
            [Piece::Text(text), Piece::Hole { inner, .. }] if !text.contains('}') => Some(format!(
                "`{raw}` mixes literal text and a hole, but a hole fills a whole segment: write `{text}#{{{inner}}}`"
            )),
            [Piece::Text(text)] => Some(format!(
                "`{raw}` has a `}}` without its `{{`: write `{{{}}}`",
                text.trim_end_matches('}')
            )),
            _ if pieces
                .iter()
                .filter(|p| matches!(p, Piece::Hole { .. }))
                .count()
                > 1 =>
            {
                let holes: Vec<String> = pieces
                    .iter()
                    .filter_map(|p| match p {
                        Piece::Hole { inner, .. } => Some(format!("{{{inner}}}")),
                        Piece::Text(_) => None,
                    })
                    .collect();
                Some(format!(
                    "`{raw}` holds {} holes in one segment; separate them with `#`: `{}`",
                    holes.len(),
                    holes.join("#")
                ))
            }
            _ => Some(format!(
                "`{raw}` is not a hole: a hole is `{{field}}` or `{{field:width}}` and fills a whole segment"
            )),
        };
        let reported = shape.is_some();
        if let Some(message) = shape {
            report(message);
        }
        // `id}` lost its `{`: a hole, not text.
        let stray = matches!(pieces.as_slice(), [Piece::Text(_)]);
        for piece in pieces {
            let (inner, is_hole) = match piece {
                Piece::Text(text) => (text.trim_matches(['{', '}']), stray),
                Piece::Hole { inner, .. } => (inner, true),
            };
            if is_hole {
                segments.push(Segment::Hole(hole(cx, inner, span, &text, reported)));
            } else if !inner.is_empty() {
                segments.push(Segment::Literal(inner.to_owned()));
            }
        }
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

enum Piece<'a> {
    Text(&'a str),
    Hole { inner: &'a str, closed: bool },
}

/// A segment as text and `{…}` runs; `None` for plain literal text.
fn pieces(raw: &str) -> Option<Vec<Piece<'_>>> {
    if !raw.contains(['{', '}']) {
        return None;
    }
    let mut out = Vec::new();
    let mut rest = raw;
    while !rest.is_empty() {
        match rest.find('{') {
            Some(0) => match rest.find('}') {
                Some(end) => {
                    out.push(Piece::Hole {
                        inner: &rest[1..end],
                        closed: true,
                    });
                    rest = &rest[end + 1..];
                }
                None => {
                    out.push(Piece::Hole {
                        inner: &rest[1..],
                        closed: false,
                    });
                    rest = "";
                }
            },
            Some(at) => {
                out.push(Piece::Text(&rest[..at]));
                rest = &rest[at..];
            }
            None => {
                out.push(Piece::Text(rest));
                rest = "";
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

/// A field fills at most one segment of a template: later repeats are
/// reported and dropped.
fn dedup_holes(cx: &Ctxt, segments: &mut Vec<Segment>) {
    let mut seen: Vec<String> = Vec::new();
    segments.retain(|segment| {
        let Segment::Hole(hole) = segment else { return true };
        if seen.contains(&hole.name) {
            if !hole.reported {
                cx.error_at(
                    hole.span,
                    format!(
                        "hole `{{{}}}` appears twice in one key template; each field fills at most one segment",
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
