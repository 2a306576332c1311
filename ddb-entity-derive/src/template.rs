//! Key templates: `"ORDER#{placed}#{order_id:6}"`, parsed at compile time.

use proc_macro2::Span;
use syn::LitStr;

use crate::ctxt::Ctxt;

/// Widest integer key part: u128/i128 have 39 digits.
const MAX_WIDTH: usize = 39;

/// A parsed template: its segments, and the literal for spans.
#[derive(Clone)]
pub(crate) struct Template {
    pub(crate) segments: Vec<Segment>,
    pub(crate) lit: LitStr,
}

#[derive(Clone)]
pub(crate) enum Segment {
    /// Literal text, e.g. `ORDER`.
    Literal(String),
    /// A `{field}` or `{field:width}` hole.
    Hole(Hole),
}

#[derive(Clone)]
pub(crate) struct Hole {
    pub(crate) field: String,
    pub(crate) width: Option<usize>,
    /// Inside the literal where the compiler supports it, else the literal.
    pub(crate) span: Span,
}

impl Template {
    /// The template as written, for generated docs.
    pub(crate) fn source(&self) -> String {
        self.lit.value()
    }
}

/// Parses `lit`, recording every problem in `cx`; `None` if there was one.
pub(crate) fn parse(cx: &Ctxt, lit: &LitStr) -> Option<Template> {
    let text = lit.value();
    if text.is_empty() {
        cx.error(
            lit,
            "empty key template: DynamoDB keys cannot be empty; write literal segments and `{field}` holes joined by `#`, e.g. \"CUST#{customer_id}\"",
        );
        return None;
    }
    if let Some(at) = text.find("{r#") {
        let name: String = text[at + 3..].chars().take_while(|c| *c != '}').collect();
        cx.error(
            lit,
            format!("`#` joins segments, so a hole cannot spell a raw identifier: write `{{{name}}}` for the field `r#{name}`"),
        );
        return None;
    }
    let mut segments = Vec::new();
    let mut ok = true;
    let mut offset = 0;
    for raw in text.split('#') {
        let span = subspan(lit, offset, raw.len());
        offset += raw.len() + 1;
        match parse_segment(raw, span) {
            Ok(segment) => segments.push(segment),
            Err(message) => {
                cx.error_at(span, format!("{message} (in key template \"{text}\")"));
                ok = false;
            }
        }
    }
    let mut seen: Vec<&str> = Vec::new();
    for segment in &segments {
        if let Segment::Hole(hole) = segment {
            if seen.contains(&hole.field.as_str()) {
                cx.error_at(
                    hole.span,
                    format!(
                        "hole `{{{}}}` appears twice in one key template; each field fills at most one segment",
                        hole.field
                    ),
                );
                ok = false;
            }
            seen.push(&hole.field);
        }
    }
    ok.then(|| Template {
        segments,
        lit: lit.clone(),
    })
}

fn parse_segment(raw: &str, span: Span) -> Result<Segment, String> {
    if raw.is_empty() {
        return Err(
            "empty segment: segments are joined by a single `#`, with none at the start or end"
                .into(),
        );
    }
    let Some(inner) = raw.strip_prefix('{') else {
        if raw.contains('{') || raw.contains('}') {
            return Err(format!(
                "`{raw}` mixes literal text and a hole; a hole fills a whole segment: write e.g. `ORDER#{{id}}`, not `ORDER{{id}}`"
            ));
        }
        return Ok(Segment::Literal(raw.to_owned()));
    };
    let Some(inner) = inner.strip_suffix('}') else {
        return Err(format!(
            "`{raw}` is not a hole: a hole is `{{field}}` or `{{field:width}}` and fills a whole segment"
        ));
    };
    if inner.contains('{') || inner.contains('}') {
        return Err(format!(
            "`{raw}` holds more than one hole; separate holes with `#`: `{{a}}#{{b}}`"
        ));
    }
    let (field, width) = match inner.split_once(':') {
        None => (inner, None),
        Some((field, width)) => match width.parse::<usize>() {
            Ok(width) if (1..=MAX_WIDTH).contains(&width) => (field, Some(width)),
            _ => {
                return Err(format!(
                    "`{width}` is not a key width: write a number of digits from 1 to {MAX_WIDTH}, e.g. `{{{field}:6}}`"
                ));
            }
        },
    };
    let field = field.trim();
    // Keywords are allowed: `{type}` names the field `r#type`.
    let is_identifier = field
        .chars()
        .next()
        .is_some_and(|c| c == '_' || c.is_alphabetic())
        && field.chars().all(|c| c == '_' || c.is_alphanumeric());
    if !is_identifier {
        return Err(format!(
            "`{{{field}}}` does not name a field: a hole is `{{field}}` with the name of one of the struct's fields"
        ));
    }
    Ok(Segment::Hole(Hole {
        field: field.to_owned(),
        width,
        span,
    }))
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
