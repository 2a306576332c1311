//! A small JSON value and its pretty printer: the deploy artefacts keep
//! their members in the order AWS documents them, and the runtime needs no
//! JSON library for that.

use std::fmt::Write;

/// A JSON value whose objects keep their members in insertion order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Json {
    Bool(bool),
    Number(u64),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

/// `{ "k": v, … }` from pairs.
pub(crate) fn object<K: Into<String>>(members: impl IntoIterator<Item = (K, Json)>) -> Json {
    Json::Object(members.into_iter().map(|(k, v)| (k.into(), v)).collect())
}

/// A JSON string.
pub(crate) fn string(value: impl Into<String>) -> Json {
    Json::String(value.into())
}

/// An array of strings.
pub(crate) fn strings<S: Into<String>>(values: impl IntoIterator<Item = S>) -> Json {
    Json::Array(values.into_iter().map(|v| string(v)).collect())
}

impl Json {
    /// Adds a member to an object (no-op on anything else).
    pub(crate) fn push(&mut self, key: impl Into<String>, value: Json) {
        if let Json::Object(members) = self {
            members.push((key.into(), value));
        }
    }

    /// Two-space indented text, one member or element per line, as
    /// `serde_json::to_string_pretty` writes it; empty arrays and objects
    /// as `[]` and `{}`.
    pub(crate) fn pretty(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, 0);
        out.push('\n');
        out
    }

    fn write(&self, out: &mut String, depth: usize) {
        let indent = |out: &mut String, depth: usize| {
            for _ in 0..depth {
                out.push_str("  ");
            }
        };
        match self {
            Json::Bool(value) => out.push_str(if *value { "true" } else { "false" }),
            Json::Number(value) => {
                let _ = write!(out, "{value}");
            }
            Json::String(value) => write_string(out, value),
            Json::Array(items) if items.is_empty() => out.push_str("[]"),
            Json::Object(members) if members.is_empty() => out.push_str("{}"),
            Json::Array(items) => {
                out.push_str("[\n");
                for (i, item) in items.iter().enumerate() {
                    indent(out, depth + 1);
                    item.write(out, depth + 1);
                    out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
                }
                indent(out, depth);
                out.push(']');
            }
            Json::Object(members) => {
                out.push_str("{\n");
                for (i, (key, value)) in members.iter().enumerate() {
                    indent(out, depth + 1);
                    write_string(out, key);
                    out.push_str(": ");
                    value.write(out, depth + 1);
                    out.push_str(if i + 1 < members.len() { ",\n" } else { "\n" });
                }
                indent(out, depth);
                out.push('}');
            }
        }
    }
}

/// A JSON string literal: quotes, backslashes and control characters
/// escaped; everything else as it is (UTF-8).
pub(crate) fn write_string(out: &mut String, value: &str) {
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pretty_prints_like_serde_json() {
        let value = object([
            ("Name", string("a\"b\\c\n\u{1}é")),
            ("Empty", Json::Array(Vec::new())),
            (
                "List",
                Json::Array(vec![Json::Number(1), Json::Bool(false)]),
            ),
            ("Nested", object([("K", string("v"))])),
        ]);
        let expected = r#"{
  "Name": "a\"b\\c\n\u0001é",
  "Empty": [],
  "List": [
    1,
    false
  ],
  "Nested": {
    "K": "v"
  }
}
"#;
        assert_eq!(value.pretty(), expected);
    }
}
