//! The codec's errors: where in the item the bad value sits, and what was
//! wrong with it.
//!
//! The path is collected on the way *out*: a failing value knows nothing of
//! where it sits, and each map or list it was inside adds its key or index
//! as the error passes up. Decoding that succeeds never builds a path.

use std::fmt;

use aws_sdk_dynamodb::types::AttributeValue;

/// One step from an item down to a value.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    /// An attribute or map key.
    Key(String),
    /// A list (or set) position.
    Index(usize),
}

/// The steps to a value, innermost first (the order they are learnt in).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Path(Vec<Segment>);

impl Path {
    fn render(&self) -> String {
        let mut out = String::new();
        for segment in self.0.iter().rev() {
            match segment {
                Segment::Key(key) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(key);
                }
                Segment::Index(index) => {
                    out.push('[');
                    out.push_str(&index.to_string());
                    out.push(']');
                }
            }
        }
        out
    }
}

/// What an item (or attribute value) held that the Rust type could not
/// take: a value of another DynamoDB type, a number out of the type's
/// range, a missing field, and where it sits.
///
/// [`Display`](fmt::Display) prints `path: message`, e.g.
/// `lines[3].sku: expected a string, found a number`.
///
/// # Example
///
/// ```
/// use std::collections::HashMap;
/// use aws_sdk_dynamodb::types::AttributeValue;
/// use serde::Deserialize;
///
/// #[derive(Deserialize, Debug)]
/// struct Line { sku: String }
/// #[derive(Deserialize, Debug)]
/// struct Order { lines: Vec<Line> }
///
/// let line = |sku: AttributeValue| AttributeValue::M(HashMap::from([("sku".to_owned(), sku)]));
/// let item = HashMap::from([(
///     "lines".to_owned(),
///     AttributeValue::L(vec![line(AttributeValue::S("A-1".into())), line(AttributeValue::N("7".into()))]),
/// )]);
/// let err = ddb_entity::codec::from_item::<Order>(item).unwrap_err();
/// assert_eq!(err.path(), "lines[1].sku");
/// assert_eq!(err.message(), "expected a string, found a number");
/// assert_eq!(err.to_string(), "lines[1].sku: expected a string, found a number");
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct DecodeError(Box<Inner>);

/// What an entity (or value) held that has no DynamoDB representation in
/// the serde_dynamo mapping: a 128-bit integer, a map key that is not a
/// string, a `string_set` that is not a list of strings; and where it sits.
///
/// [`Display`](fmt::Display) prints `path: message`.
///
/// # Example
///
/// ```
/// use std::collections::BTreeMap;
/// use ddb_entity::codec;
///
/// #[derive(serde::Serialize)]
/// struct Ledger { totals: BTreeMap<String, u128> }
///
/// let ledger = Ledger { totals: BTreeMap::from([("eur".to_owned(), 1)]) };
/// let err = codec::to_item(&ledger).unwrap_err();
/// assert_eq!(err.path(), "totals.eur");
/// assert!(err.message().contains("128"), "{err}");
/// assert_eq!(err.to_string(), format!("totals.eur: {}", err.message()));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct EncodeError(Box<Inner>);

#[derive(Debug, Clone, PartialEq, Eq)]
struct Inner {
    path: Path,
    message: Message,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Message {
    /// A value of another DynamoDB type than the Rust type reads.
    Expected {
        expected: &'static str,
        found: &'static str,
    },
    /// Anything else, serde's own messages included.
    Text(String),
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Message::Expected { expected, found } => {
                write!(f, "expected {expected}, found {found}")
            }
            Message::Text(text) => f.write_str(text),
        }
    }
}

macro_rules! common {
    ($name:ident) => {
        impl $name {
            fn new(message: Message) -> Self {
                Self(Box::new(Inner {
                    path: Path::default(),
                    message,
                }))
            }

            pub(crate) fn text(message: impl Into<String>) -> Self {
                Self::new(Message::Text(message.into()))
            }

            /// Where the bad value sits: attribute names and map keys
            /// joined by `.`, list positions in brackets (`lines[3].sku`);
            /// empty when it is the item (or value) itself.
            ///
            /// See [`DecodeError`'s example](DecodeError#example) and
            /// [`EncodeError`'s](EncodeError#example).
            pub fn path(&self) -> String {
                self.0.path.render()
            }

            /// What was wrong, without the path (`expected a number, found
            /// a string`).
            ///
            /// See [`DecodeError`'s example](DecodeError#example) and
            /// [`EncodeError`'s](EncodeError#example).
            pub fn message(&self) -> String {
                self.0.message.to_string()
            }

            /// Records that the error happened under attribute or map key
            /// `key`.
            #[cold]
            pub(crate) fn at_key(mut self, key: &str) -> Self {
                self.0.path.0.push(Segment::Key(key.to_owned()));
                self
            }

            /// Records that the error happened at list position `index`.
            #[cold]
            pub(crate) fn at_index(mut self, index: usize) -> Self {
                self.0.path.0.push(Segment::Index(index));
                self
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                if self.0.path.0.is_empty() {
                    write!(f, "{}", self.0.message)
                } else {
                    write!(f, "{}: {}", self.0.path.render(), self.0.message)
                }
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("path", &self.0.path.render())
                    .field("message", &self.0.message.to_string())
                    .finish()
            }
        }

        impl std::error::Error for $name {}
    };
}

common!(DecodeError);
common!(EncodeError);

impl DecodeError {
    /// A value of another DynamoDB type (`found`) than the one `expected`
    /// ("a number", "a string", …).
    #[cold]
    pub(crate) fn expected_found(expected: &'static str, found: &'static str) -> Self {
        Self::new(Message::Expected { expected, found })
    }
}

impl serde::de::Error for DecodeError {
    #[cold]
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Self::text(msg.to_string())
    }

    /// The error is about the field itself, so the path names it:
    /// `address.zip: no such attribute`.
    #[cold]
    fn missing_field(field: &'static str) -> Self {
        Self::text("no such attribute").at_key(field)
    }
}

impl serde::ser::Error for EncodeError {
    #[cold]
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Self::text(msg.to_string())
    }
}

/// An attribute value's DynamoDB type, for "found …".
pub(crate) fn describe(value: &AttributeValue) -> &'static str {
    super::de::shape_of(value).describe()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_renders_keys_and_indexes_outermost_first() {
        let err = DecodeError::expected_found("a number", describe(&AttributeValue::S("x".into())))
            .at_key("sku")
            .at_index(3)
            .at_key("lines");
        assert_eq!(err.path(), "lines[3].sku");
        assert_eq!(
            err.to_string(),
            "lines[3].sku: expected a number, found a string"
        );
        let top = DecodeError::text("missing field `id`");
        assert_eq!(top.path(), "");
        assert_eq!(top.to_string(), "missing field `id`");
        let nested = EncodeError::text("bad")
            .at_index(0)
            .at_index(2)
            .at_key("grid");
        assert_eq!(nested.to_string(), "grid[2][0]: bad");
    }
}
