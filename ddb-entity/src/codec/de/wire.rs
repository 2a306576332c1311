//! DynamoDB's JSON wire format (`{"S": "…"}`, `{"N": "…"}`, `{"B":
//! "base64"}`, `SS`/`NS`/`BS`, `L`, `M`, `BOOL`, `NULL`) as a [`Source`]:
//! what a response body says, read by the same rules as an SDK
//! `AttributeValue` — the one `Deserializer` of [`Value`](super::Value)
//! over a [`Wire`] value instead of an SDK one.
//!
//! A body is parsed by serde_json into [`Wire`] values whose strings,
//! numbers and map keys are borrowed from the body wherever they have no
//! escapes (a `&str` or `Cow<str>` field then borrows from the body, a
//! `String` field copies once); an escaped one is unescaped once, into a
//! string that is then moved into the value. Binaries are decoded from
//! base64 as the SDK decodes them, and moved. An attribute type this
//! version does not know reads as the SDK reads it: a value of unknown
//! type, refused by every rule.

use std::borrow::Cow;
use std::fmt;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::forward_to_deserialize_any;

use super::owned::ByteBuf;
use super::{KeyText, Result, Shape, Source, check_number, check_numbers};
use crate::codec::error::DecodeError;
use crate::item::Item;

/// One attribute value as the wire carries it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Wire<'de> {
    S(Cow<'de, str>),
    N(Cow<'de, str>),
    B(Vec<u8>),
    Bool(bool),
    Null(bool),
    Ss(Vec<Cow<'de, str>>),
    Ns(Vec<Cow<'de, str>>),
    Bs(Vec<Vec<u8>>),
    L(Vec<Wire<'de>>),
    M(Entries<'de>),
    /// A type this version does not know (the SDK's `Unknown`).
    Unknown,
}

/// A map's (or an item's) attributes in the body's order.
pub(crate) type Entries<'de> = Vec<(Cow<'de, str>, Wire<'de>)>;

mod fast;

/// Parses one item (`{"name": {"S": "…"}, …}`) of DynamoDB JSON: the
/// common item by a reader of its own ([`fast`]), any other by serde_json.
pub(crate) fn parse_item(json: &str) -> Result<Entries<'_>> {
    if let Some(entries) = fast::parse_item(json) {
        return Ok(entries);
    }
    let mut de = serde_json::Deserializer::from_str(json);
    let item = WireItem::deserialize(&mut de).and_then(|item| de.end().map(|()| item));
    item.map(|item| item.0)
        .map_err(|err| DecodeError::text(format!("not an item in DynamoDB's JSON format: {err}")))
}

/// Serde's view of an item: its attributes, in order.
pub(crate) struct WireItem<'de>(pub(crate) Entries<'de>);

impl<'de> Deserialize<'de> for WireItem<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(EntriesVisitor).map(WireItem)
    }
}

struct EntriesVisitor;

impl<'de> Visitor<'de> for EntriesVisitor {
    type Value = Entries<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map of attribute values")
    }

    #[inline]
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entries<'de>, A::Error> {
        let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(8));
        while let Some(Text(name)) = map.next_key()? {
            entries.push((name, map.next_value()?));
        }
        Ok(entries)
    }
}

/// A string, borrowed from the body when it has no escapes.
pub(crate) struct Text<'de>(pub(crate) Cow<'de, str>);

impl<'de> Deserialize<'de> for Text<'de> {
    #[inline]
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            #[inline]
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Borrowed(s)))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(s.to_owned())))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(s)))
            }
        }
        d.deserialize_str(V)
    }
}

/// A binary: base64 decoded as the SDK decodes it.
struct Base64(Vec<u8>);

impl<'de> Deserialize<'de> for Base64 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let Text(text) = Text::deserialize(d)?;
        aws_smithy_types::base64::decode(text.as_ref())
            .map(Base64)
            .map_err(|err| de::Error::custom(format!("a binary that is not base64: {err}")))
    }
}

/// A set's members, of one kind.
struct Members<T>(Vec<T>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Members<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Members<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Members<T>, A::Error> {
                let mut members = Vec::with_capacity(seq.size_hint().unwrap_or(4));
                while let Some(member) = seq.next_element()? {
                    members.push(member);
                }
                Ok(Members(members))
            }
        }
        d.deserialize_seq(V(std::marker::PhantomData))
    }
}

/// An attribute value's type, the one key of its object.
enum Tag {
    S,
    N,
    B,
    Bool,
    Null,
    Ss,
    Ns,
    Bs,
    L,
    M,
    Other,
}

impl<'de> Deserialize<'de> for Tag {
    #[inline]
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Tag;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an attribute type")
            }
            #[inline]
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Tag, E> {
                Ok(match s {
                    "S" => Tag::S,
                    "N" => Tag::N,
                    "B" => Tag::B,
                    "BOOL" => Tag::Bool,
                    "NULL" => Tag::Null,
                    "SS" => Tag::Ss,
                    "NS" => Tag::Ns,
                    "BS" => Tag::Bs,
                    "L" => Tag::L,
                    "M" => Tag::M,
                    _ => Tag::Other,
                })
            }
        }
        d.deserialize_identifier(V)
    }
}

impl<'de> Deserialize<'de> for Wire<'de> {
    #[inline]
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(WireVisitor)
    }
}

struct WireVisitor;

impl<'de> Visitor<'de> for WireVisitor {
    type Value = Wire<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an attribute value (an object with one key, its type)")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Wire<'de>, A::Error> {
        let Some(tag) = map.next_key::<Tag>()? else {
            return Err(de::Error::custom("an attribute value without a type"));
        };
        let value = match tag {
            Tag::S => Wire::S(map.next_value::<Text<'de>>()?.0),
            Tag::N => Wire::N(map.next_value::<Text<'de>>()?.0),
            Tag::B => Wire::B(map.next_value::<Base64>()?.0),
            Tag::Bool => Wire::Bool(map.next_value()?),
            Tag::Null => Wire::Null(map.next_value()?),
            Tag::Ss => Wire::Ss(texts(map.next_value::<Members<Text<'de>>>()?)),
            Tag::Ns => Wire::Ns(texts(map.next_value::<Members<Text<'de>>>()?)),
            Tag::Bs => Wire::Bs(
                map.next_value::<Members<Base64>>()?
                    .0
                    .into_iter()
                    .map(|b| b.0)
                    .collect(),
            ),
            Tag::L => Wire::L(map.next_value::<Members<Wire<'de>>>()?.0),
            Tag::M => Wire::M(map.next_value::<WireItem<'de>>()?.0),
            Tag::Other => {
                map.next_value::<IgnoredAny>()?;
                Wire::Unknown
            }
        };
        if map.next_key::<IgnoredAny>()?.is_some() {
            return Err(de::Error::custom(
                "an attribute value with more than one type",
            ));
        }
        Ok(value)
    }
}

fn texts(members: Members<Text<'_>>) -> Vec<Cow<'_, str>> {
    members.0.into_iter().map(|text| text.0).collect()
}

/// What serde_dynamo checks of an ignored value ([`super::check_ignored`]),
/// of a wire value.
fn check_ignored(value: &Wire<'_>) -> Result<()> {
    match value {
        Wire::S(_) | Wire::B(_) | Wire::Bool(_) | Wire::Null(true) | Wire::Ss(_) | Wire::Bs(_) => {
            Ok(())
        }
        Wire::N(text) => check_number(text),
        Wire::Ns(set) => check_numbers(set.iter().map(|text| &**text)),
        Wire::L(list) => list
            .iter()
            .enumerate()
            .try_for_each(|(i, value)| check_ignored(value).map_err(|e| e.at_index(i))),
        Wire::M(map) => map
            .iter()
            .try_for_each(|(key, value)| check_ignored(value).map_err(|e| e.at_key(key))),
        other => Err(shape(other).expected("a DynamoDB value")),
    }
}

#[inline]
fn shape<'a>(value: &'a Wire<'_>) -> Shape<'a> {
    match value {
        Wire::S(s) => Shape::S(s),
        Wire::N(n) => Shape::N(n),
        Wire::B(_) => Shape::B,
        Wire::Bool(b) => Shape::Bool(*b),
        Wire::Null(n) => Shape::Null(*n),
        Wire::M(_) => Shape::M,
        Wire::L(_) => Shape::L,
        Wire::Ss(_) => Shape::Ss,
        Wire::Ns(_) => Shape::Ns,
        Wire::Bs(_) => Shape::Bs,
        Wire::Unknown => Shape::Unknown,
    }
}

/// A wire value is read as an owned SDK value is ([`super::owned`]):
/// strings and binaries are taken out of it; a string still borrowed from
/// the body is lent for the body's lifetime.
impl<'de> Source<'de> for &mut Wire<'de> {
    #[inline]
    fn shape(&self) -> Shape<'_> {
        shape(self)
    }

    #[inline]
    fn numbers(&self) -> Option<impl ExactSizeIterator<Item = &str>> {
        match &**self {
            Wire::Ns(set) => Some(set.iter().map(|text| &**text)),
            _ => None,
        }
    }

    fn check_ignored(&self) -> Result<()> {
        check_ignored(self)
    }

    #[inline]
    fn string(self) -> Result<impl de::Deserializer<'de, Error = DecodeError>, Self> {
        match self {
            Wire::S(s) => Ok(Str(std::mem::take(s))),
            other => Err(other),
        }
    }

    #[inline]
    fn blob(self) -> Result<impl de::Deserializer<'de, Error = DecodeError>, Self> {
        match self {
            Wire::B(b) => Ok(ByteBuf(std::mem::take(b))),
            other => Err(other),
        }
    }

    #[inline]
    fn text(self) -> Result<impl KeyText<'de>, Self> {
        match self {
            Wire::S(s) => Ok(Key(s)),
            other => Err(other),
        }
    }

    #[inline]
    fn elements(self) -> Result<impl ExactSizeIterator<Item = Self>, Self> {
        match self {
            Wire::L(list) => Ok(list.iter_mut()),
            other => Err(other),
        }
    }

    #[inline]
    fn entries(self) -> Result<impl ExactSizeIterator<Item = (impl KeyText<'de>, Self)>, Self> {
        match self {
            Wire::M(map) => Ok(map.iter_mut().map(|(key, value)| (Key(key), value))),
            other => Err(other),
        }
    }

    #[inline]
    fn strings(
        self,
    ) -> Result<impl ExactSizeIterator<Item = impl de::Deserializer<'de, Error = DecodeError>>, Self>
    {
        match self {
            Wire::Ss(set) => Ok(set.iter_mut().map(|s| Str(std::mem::take(s)))),
            other => Err(other),
        }
    }

    #[inline]
    fn blobs(
        self,
    ) -> Result<impl ExactSizeIterator<Item = impl de::Deserializer<'de, Error = DecodeError>>, Self>
    {
        match self {
            Wire::Bs(set) => Ok(set.iter_mut().map(|b| ByteBuf(std::mem::take(b)))),
            other => Err(other),
        }
    }
}

/// A string taken out of a wire value: lent for the body's lifetime when
/// borrowed from it, moved when unescaped.
struct Str<'de>(Cow<'de, str>);

impl<'de> de::Deserializer<'de> for Str<'de> {
    type Error = DecodeError;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            Cow::Borrowed(s) => visitor.visit_borrowed_str(s),
            Cow::Owned(s) => visitor.visit_string(s),
        }
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// A map key (or an enum's variant name) of a wire value: lent for the
/// body's lifetime when borrowed from it, for the call otherwise.
#[derive(Clone, Copy)]
pub(super) struct Key<'a, 'de>(pub(super) &'a Cow<'de, str>);

impl<'de> KeyText<'de> for Key<'_, 'de> {
    fn as_str(&self) -> &str {
        self.0
    }

    #[inline]
    fn visit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            Cow::Borrowed(s) => visitor.visit_borrowed_str(s),
            Cow::Owned(s) => visitor.visit_str(s),
        }
    }

    fn visit_enum<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            Cow::Borrowed(s) => {
                visitor.visit_enum(de::value::BorrowedStrDeserializer::<DecodeError>::new(s))
            }
            Cow::Owned(s) => visitor.visit_enum(de::value::StrDeserializer::<DecodeError>::new(s)),
        }
    }
}

/// The top-level attribute `name` of the item `json` (already checked to
/// be JSON), the others skipped without being built: how a page reads the
/// one attribute it needs of an item before the item is handed out (its
/// time to live, its sort key for a merge of several partitions).
pub(crate) fn skim<'de>(json: &'de str, name: &str) -> Option<Wire<'de>> {
    struct Skim<'n>(&'n str);
    impl<'de> Visitor<'de> for Skim<'_> {
        type Value = Option<Wire<'de>>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an item")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut found = None;
            while let Some(Text(key)) = map.next_key()? {
                if key == self.0 {
                    found = Some(map.next_value::<Wire<'de>>()?);
                } else {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            Ok(found)
        }
    }
    let mut de = serde_json::Deserializer::from_str(json);
    de.deserialize_map(Skim(name)).ok().flatten()
}

impl Wire<'_> {
    /// The value as the SDK holds it; `None` when it holds a type this
    /// version does not know (the SDK's `Unknown`, which cannot be built).
    pub(crate) fn to_attribute_value(&self) -> Option<AttributeValue> {
        Some(match self {
            Wire::S(s) => AttributeValue::S(s.clone().into_owned()),
            Wire::N(n) => AttributeValue::N(n.clone().into_owned()),
            Wire::B(b) => AttributeValue::B(Blob::new(b.clone())),
            Wire::Bool(b) => AttributeValue::Bool(*b),
            Wire::Null(n) => AttributeValue::Null(*n),
            Wire::Ss(set) => AttributeValue::Ss(set.iter().map(|s| s.to_string()).collect()),
            Wire::Ns(set) => AttributeValue::Ns(set.iter().map(|s| s.to_string()).collect()),
            Wire::Bs(set) => AttributeValue::Bs(set.iter().map(|b| Blob::new(b.clone())).collect()),
            Wire::L(list) => AttributeValue::L(
                list.iter()
                    .map(Wire::to_attribute_value)
                    .collect::<Option<_>>()?,
            ),
            Wire::M(map) => AttributeValue::M(to_item(map)?),
            Wire::Unknown => return None,
        })
    }

    /// An SDK value as a wire value (owned), read by the same rules.
    pub(crate) fn from_attribute_value(value: AttributeValue) -> Wire<'static> {
        match value {
            AttributeValue::S(s) => Wire::S(Cow::Owned(s)),
            AttributeValue::N(n) => Wire::N(Cow::Owned(n)),
            AttributeValue::B(b) => Wire::B(b.into_inner()),
            AttributeValue::Bool(b) => Wire::Bool(b),
            AttributeValue::Null(n) => Wire::Null(n),
            AttributeValue::Ss(set) => Wire::Ss(set.into_iter().map(Cow::Owned).collect()),
            AttributeValue::Ns(set) => Wire::Ns(set.into_iter().map(Cow::Owned).collect()),
            AttributeValue::Bs(set) => Wire::Bs(set.into_iter().map(Blob::into_inner).collect()),
            AttributeValue::L(list) => {
                Wire::L(list.into_iter().map(Wire::from_attribute_value).collect())
            }
            AttributeValue::M(map) => Wire::M(
                map.into_iter()
                    .map(|(name, value)| (Cow::Owned(name), Wire::from_attribute_value(value)))
                    .collect(),
            ),
            _ => Wire::Unknown,
        }
    }

    /// The string, where the value is one.
    pub(crate) fn as_s(&self) -> Option<&str> {
        match self {
            Wire::S(s) => Some(s),
            _ => None,
        }
    }
}

/// An item's (or a map's) attributes as the SDK holds them (`None`: a type
/// this version does not know, somewhere in it).
pub(crate) fn to_item(entries: &Entries<'_>) -> Option<Item> {
    entries
        .iter()
        .map(|(name, value)| Some((name.to_string(), value.to_attribute_value()?)))
        .collect()
}

/// One item of a typed read's response, parsed once from the response's
/// bytes: its attributes in the body's order, strings borrowed from the
/// bytes. Routing, stored-key verification and the body's decode all read
/// this one tree. `found_by` is the index whose keys the item was found
/// by (`None`: the table's only), as `keep_keys_found_by` marks an SDK
/// item. Hidden: what `#[derive(Collection)]`'s generated code is handed.
#[doc(hidden)]
pub struct ItemTree<'de> {
    pub(crate) entries: Entries<'de>,
    pub(crate) found_by: Option<&'static str>,
}

impl<'de> ItemTree<'de> {
    /// The string value of the top-level attribute `name`.
    pub(crate) fn string(&self, name: &str) -> Option<&str> {
        self.entries
            .iter()
            .find_map(|(key, value)| (key == name).then_some(value))
            .and_then(Wire::as_s)
    }

    /// The whole item as the SDK holds it; an attribute of a type this
    /// version does not know (which the SDK holds as a value no code can
    /// build) is left out.
    pub(crate) fn to_item_lossy(&self) -> Item {
        self.entries
            .iter()
            .filter_map(|(name, value)| Some((name.to_string(), value.to_attribute_value()?)))
            .collect()
    }
}

/// Random values in DynamoDB's JSON, for the property tests of what reads
/// it: every attribute type, nested, strings of any text (quotes,
/// backslashes, brackets, unicode), and some values that are no attribute
/// value at all.
#[cfg(test)]
pub(crate) fn arbitrary_value() -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
    use proptest::prelude::*;
    let text = r#"[\\"{}\[\]a-z :,]{0,12}|\PC{0,12}"#;
    let leaf = prop_oneof![
        text.prop_map(|s| serde_json::json!({ "S": s })),
        any::<i64>().prop_map(|n| serde_json::json!({ "N": n.to_string() })),
        any::<bool>().prop_map(|b| serde_json::json!({ "BOOL": b })),
        any::<bool>().prop_map(|b| serde_json::json!({ "NULL": b })),
        proptest::collection::vec(text, 0..3).prop_map(|s| serde_json::json!({ "SS": s })),
        proptest::collection::vec(any::<u8>().prop_map(|n| n.to_string()), 0..3)
            .prop_map(|s| serde_json::json!({ "NS": s })),
        "[A-Za-z0-9+/=]{0,9}".prop_map(|s| serde_json::json!({ "B": s })),
        proptest::collection::vec("[A-Za-z0-9+/]{4}", 0..3)
            .prop_map(|s| serde_json::json!({ "BS": s })),
        Just(serde_json::json!({ "X": {"a": [1, null]} })),
        Just(serde_json::json!({})),
        Just(serde_json::json!({ "S": "a", "N": "1" })),
        Just(serde_json::json!({ "S": 1 })),
        Just(serde_json::json!("S")),
    ];
    leaf.prop_recursive(4, 32, 4, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4)
                .prop_map(|l| serde_json::json!({ "L": l })),
            proptest::collection::vec((text, inner), 0..4).prop_map(|m| {
                serde_json::json!({ "M": serde_json::Value::Object(m.into_iter().collect()) })
            }),
        ]
    })
}
