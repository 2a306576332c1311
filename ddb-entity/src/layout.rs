//! Key layouts: an entity's key templates as data, for tools that reason
//! about a table without writing to it — the hot-partition lint
//! (`ddb_entity::lint`), a model of the table, key-layout snapshots.
//!
//! `#[derive(Entity)]` writes one [`EntityLayout`] per entity, as
//! [`Entity::LAYOUT`](crate::entity::Entity::LAYOUT): its primary key and every
//! index key it fills, each template as the pieces it was parsed into —
//! literal text, holes with their field, type, width and
//! [`Cardinality`], and the shard declaration. A change to any template
//! (a shard count too) changes the layout, so a snapshot of it shows the
//! change.
//!
//! # Example
//!
//! ```
//! use ddb_entity::Entity;
//! use ddb_entity::layout::Piece;
//! use ddb_entity::key::Cardinality;
//! use serde::{Deserialize, Serialize};
//!
//! ddb_entity::table! {
//!     pub struct App {
//!         partition_key: "PK",
//!         sort_key: "SK",
//!         indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } },
//!     }
//! }
//!
//! #[derive(ddb_entity::KeyPart, Serialize, Deserialize, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
//! enum Status { Open, Shipped }
//!
//! #[derive(Entity, Serialize, Deserialize)]
//! #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}")]
//! #[entity(index = Gsi1, pk = "STATUS#{status}#{shard(order_id) % 16}", sk = "{order_id}")]
//! struct Order { customer_id: u64, order_id: u64, status: Status }
//!
//! let layout = Order::LAYOUT;
//! assert_eq!(layout.entity, "Order");
//! let by_status = &layout.keys[1];
//! assert_eq!(by_status.index.unwrap().name, "GSI1");
//! assert_eq!(by_status.partition.source, "STATUS#{status}#{shard(order_id) % 16}");
//! let shard = by_status.partition.shard().unwrap();
//! assert_eq!((shard.count(), shard.by()), (16, &["order_id"][..]));
//! let status = by_status.partition.holes().next().unwrap();
//! assert_eq!((status.field, status.type_name), ("status", "Status"));
//! assert_eq!(status.cardinality, Cardinality::AtMost(2));
//! assert!(matches!(by_status.partition.segments[0], [Piece::Literal("STATUS")]));
//! assert!(!status.optional && !status.computed && status.width.is_none());
//!
//! // The primary key, and an entity implemented by hand.
//! assert!(layout.is_described());
//! let primary = layout.primary().unwrap();
//! assert_eq!((primary.index_name(), by_status.index_name()), (None, Some("GSI1")));
//! assert_eq!(layout.indexes().count(), 1);
//! assert!(layout.index("GSI1").is_some());
//! assert!(!by_status.sparse && by_status.when.is_none() && by_status.allow_hot.is_none());
//! let sort = primary.sort.unwrap();
//! assert_eq!((sort.source, sort.raw), ("ORDER#{order_id}", false));
//! assert!(sort.shard().is_none());
//! let by_hand = ddb_entity::layout::EntityLayout::undescribed("Legacy", "LEGACY");
//! assert!(!by_hand.is_described() && by_hand.primary().is_none());
//! ```

use std::fmt;

use crate::key::Cardinality;
use crate::shard::ShardSpec;
use crate::table::IndexSchema;

/// An entity's keys as data: what `#[derive(Entity)]` declared.
///
/// ```
/// # use ddb_entity::Entity;
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
/// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{placed:8}#{order_id}")]
/// #[entity(index = Gsi1, pk = "OPEN#{open_since}", sk = "{order_id}")] // sparse
/// struct Order { customer_id: u64, placed: u32, order_id: u64, open_since: Option<u32>, #[serde(rename = "t")] total: i64 }
///
/// let layout = Order::LAYOUT;
/// assert_eq!((layout.entity, layout.keys.len()), ("Order", 2)); // the table's key, GSI1's
/// let stored: Vec<&str> = layout.fields.iter().map(|f| f.attribute).collect();
/// assert!(stored.contains(&"t") && stored.contains(&"open_since"));
/// assert!(!layout.flattened);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct EntityLayout {
    /// The Rust type's name ([`Entity::RUST_NAME`](crate::entity::Entity::RUST_NAME)).
    pub entity: &'static str,
    /// The type attribute's value ([`Entity::TYPE_TAG`](crate::entity::Entity::TYPE_TAG)).
    pub type_tag: &'static str,
    /// The primary key first, then each index the entity fills, in the
    /// order of its `#[entity(index = …)]` attributes. Empty for an entity
    /// implemented by hand without a layout.
    pub keys: &'static [KeyLayout],
    /// The fields serde stores under their own attribute, in declaration
    /// order.
    pub fields: &'static [FieldLayout],
    /// Whether some field is `#[serde(flatten)]`ed: the entity then
    /// stores attributes [`fields`](Self::fields) does not name.
    pub flattened: bool,
}

/// One key of an entity: the table's primary key or an index's.
///
/// ```
/// # use ddb_entity::Entity;
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
/// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{placed:8}#{order_id}")]
/// #[entity(index = Gsi1, pk = "OPEN#{open_since}", sk = "{order_id}")] // sparse
/// struct Order { customer_id: u64, placed: u32, order_id: u64, open_since: Option<u32>, #[serde(rename = "t")] total: i64 }
///
/// let primary = Order::LAYOUT.primary().unwrap();
/// assert!(primary.index.is_none() && !primary.sparse);
/// let open = Order::LAYOUT.index("GSI1").unwrap();
/// assert_eq!(open.partition.source, "OPEN#{open_since}");
/// assert!(open.sparse, "an Option hole: closed orders are not in GSI1");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct KeyLayout {
    /// The index, `None` for the table's primary key.
    pub index: Option<IndexSchema>,
    /// The partition key's template.
    pub partition: TemplateLayout,
    /// The sort key's template, when the table (or index) has a sort key.
    pub sort: Option<TemplateLayout>,
    /// Whether some items are absent from the index: an `Option` hole, a
    /// computed `Option`, or a `when` predicate. Never for the primary key.
    pub sparse: bool,
    /// The index's membership predicate as written
    /// (`Ticket::is_open(status)`), if it has one.
    pub when: Option<&'static str>,
    /// `allow_hot = "…"`: the reason this partition key may be hot, which
    /// the hot-partition lint reports instead of a finding.
    pub allow_hot: Option<&'static str>,
}

/// A key template: its segments, joined by `#` in every key, each made of
/// pieces written side by side.
///
/// ```
/// # use ddb_entity::Entity;
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
/// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{placed:8}#{order_id}")]
/// #[entity(index = Gsi1, pk = "OPEN#{open_since}", sk = "{order_id}")] // sparse
/// struct Order { customer_id: u64, placed: u32, order_id: u64, open_since: Option<u32>, #[serde(rename = "t")] total: i64 }
///
/// let sk = Order::LAYOUT.primary().unwrap().sort.unwrap();
/// assert_eq!(sk.source, "ORDER#{placed:8}#{order_id}");
/// assert_eq!(sk.segments.len(), 3);
/// assert_eq!(sk.literal_prefix(), "ORDER#");
/// assert!(!sk.raw && sk.shard().is_none());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct TemplateLayout {
    /// As written: `STATUS#{status}#{shard(order_id) % 16}`, or the field's
    /// name for a raw key attribute.
    pub source: &'static str,
    /// `pk = field`: the key attribute is the field's own string, as it is.
    pub raw: bool,
    /// The segments; the first is empty for a template that starts with `#`.
    pub segments: &'static [&'static [Piece]],
}

/// One piece of a template's segment.
///
/// ```
/// # use ddb_entity::Entity;
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
/// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{placed:8}#{order_id}")]
/// #[entity(index = Gsi1, pk = "OPEN#{open_since}", sk = "{order_id}")] // sparse
/// struct Order { customer_id: u64, placed: u32, order_id: u64, open_since: Option<u32>, #[serde(rename = "t")] total: i64 }
///
/// use ddb_entity::layout::Piece;
///
/// let sk = Order::LAYOUT.primary().unwrap().sort.unwrap();
/// assert!(matches!(sk.segments[0], [Piece::Literal("ORDER")]));
/// assert!(matches!(sk.segments[1], [Piece::Hole(hole)] if hole.field == "placed"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Piece {
    /// Literal text, e.g. `ORDER`.
    Literal(&'static str),
    /// A `{field}` (or `{field:width}`) hole.
    Hole(HoleLayout),
    /// The shard segment, `{shard(order_id) % 16}`: always a whole segment,
    /// the last of a partition key.
    Shard(ShardSpec),
}

/// A hole of a template.
///
/// ```
/// # use ddb_entity::Entity;
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
/// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{placed:8}#{order_id}")]
/// #[entity(index = Gsi1, pk = "OPEN#{open_since}", sk = "{order_id}")] // sparse
/// struct Order { customer_id: u64, placed: u32, order_id: u64, open_since: Option<u32>, #[serde(rename = "t")] total: i64 }
///
/// let sk = Order::LAYOUT.primary().unwrap().sort.unwrap();
/// let placed = sk.holes().next().unwrap();
/// assert_eq!((placed.field, placed.type_name, placed.width), ("placed", "u32", Some(8)));
/// assert_eq!(placed.fixed_len, Some(8), "every key part of it is 8 characters");
/// let open = Order::LAYOUT.index("GSI1").unwrap().partition.holes().next().unwrap();
/// assert!(open.optional && !open.computed);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct HoleLayout {
    /// The field (or computed value) it names.
    pub field: &'static str,
    /// Its key type as written (`u64`, `Status`, `NaiveDate`), the `T` of
    /// an `Option<T>` field.
    pub type_name: &'static str,
    /// A declared width, `{id:6}`.
    pub width: Option<u8>,
    /// How many characters every key part of it takes, when that is fixed
    /// (a declared width, or [`KeyPart::FIXED_LEN`](crate::key::KeyPart::FIXED_LEN)):
    /// what tells templates apart by length.
    pub fixed_len: Option<usize>,
    /// How many values the hole can write ([`KeyPart::CARDINALITY`](crate::key::KeyPart::CARDINALITY),
    /// bounded by the width).
    pub cardinality: Cardinality,
    /// The field is an `Option` (the index is sparse).
    pub optional: bool,
    /// It names a computed value (`computed = …`), not a field.
    pub computed: bool,
}

/// A field an entity stores under its own attribute.
///
/// ```
/// # use ddb_entity::Entity;
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
/// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{placed:8}#{order_id}")]
/// #[entity(index = Gsi1, pk = "OPEN#{open_since}", sk = "{order_id}")] // sparse
/// struct Order { customer_id: u64, placed: u32, order_id: u64, open_since: Option<u32>, #[serde(rename = "t")] total: i64 }
///
/// let total = Order::LAYOUT.field("t").unwrap();
/// assert_eq!((total.name, total.type_name, total.optional), ("total", "i64", false));
/// assert!(Order::LAYOUT.field("open_since").unwrap().optional);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct FieldLayout {
    /// The Rust field's name.
    pub name: &'static str,
    /// The attribute it is stored under (after serde's `rename`).
    pub attribute: &'static str,
    /// Its type as written, e.g. `Option<u32>`.
    pub type_name: &'static str,
    /// Whether it is an `Option` (absent from the item when `None`).
    pub optional: bool,
    /// What the library does with it besides storing it.
    pub(crate) role: FieldRole,
}

/// What the library does with a field besides storing it, as the derive
/// declares it: where reads and writes find the primary key's fields and
/// the optimistic-locking version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FieldRole {
    /// Stored in the body, nothing more.
    Body,
    /// A primary-key field the body also stores (`key_fields =
    /// "key_and_body"`): a read restores it from the key when the body
    /// lacks it.
    KeyField,
    /// A primary-key field stored in the key only (the default): a write
    /// leaves it out of the item, an upsert does not add it, a read
    /// restores it from the key.
    KeyOnly,
    /// The optimistic-locking version.
    Version,
}

impl EntityLayout {
    /// The layout of an entity that declares no templates (implemented by
    /// hand): no keys to describe.
    ///
    /// See [the module's example](crate::layout#example).
    pub const fn undescribed(entity: &'static str, type_tag: &'static str) -> Self {
        EntityLayout {
            entity,
            type_tag,
            keys: &[],
            fields: &[],
            flattened: false,
        }
    }

    #[doc(hidden)]
    pub const fn new(
        entity: &'static str,
        type_tag: &'static str,
        keys: &'static [KeyLayout],
        fields: &'static [FieldLayout],
        flattened: bool,
    ) -> Self {
        EntityLayout {
            entity,
            type_tag,
            keys,
            fields,
            flattened,
        }
    }

    /// Whether `#[derive(Entity)]` described the entity (it has a primary
    /// key layout); one implemented by hand is [`undescribed`](Self::undescribed).
    ///
    /// See [the module's example](crate::layout#example).
    pub const fn is_described(&self) -> bool {
        !self.keys.is_empty()
    }

    /// The primary key's layout, `None` for an undescribed entity.
    ///
    /// See [the module's example](crate::layout#example).
    pub fn primary(&self) -> Option<&KeyLayout> {
        self.keys.first().filter(|key| key.index.is_none())
    }

    /// The keys of the indexes the entity fills, in declaration order.
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id:6}")]
    /// #[entity(index = Gsi1, pk = "OPEN#{open_since}", sk = "{order_id:6}")]
    /// struct Order {
    ///     customer_id: u64,
    ///     order_id: u32,
    ///     open_since: Option<u32>,
    ///     #[serde(rename = "total")]
    ///     total_cents: i64,
    /// }
    ///
    /// let layout = Order::LAYOUT;
    /// assert_eq!(layout.indexes().count(), 1);
    /// assert!(layout.indexes().all(|key| key.sparse), "an Option hole: sparse");
    /// ```
    pub fn indexes(&self) -> impl Iterator<Item = &KeyLayout> {
        self.keys.iter().filter(|key| key.index.is_some())
    }

    /// The key of the index named `name`, when the entity fills it.
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id:6}")]
    /// #[entity(index = Gsi1, pk = "OPEN#{open_since}", sk = "{order_id:6}")]
    /// struct Order {
    ///     customer_id: u64,
    ///     order_id: u32,
    ///     open_since: Option<u32>,
    ///     #[serde(rename = "total")]
    ///     total_cents: i64,
    /// }
    ///
    /// let layout = Order::LAYOUT;
    /// assert_eq!(layout.index("GSI1").unwrap().partition.source, "OPEN#{open_since}");
    /// assert!(layout.index("GSI2").is_none());
    /// ```
    pub fn index(&self, name: &str) -> Option<&KeyLayout> {
        self.indexes().find(|key| key.index_name() == Some(name))
    }

    /// The stored field whose attribute is `attribute` (after serde's
    /// `rename`).
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id:6}")]
    /// #[entity(index = Gsi1, pk = "OPEN#{open_since}", sk = "{order_id:6}")]
    /// struct Order {
    ///     customer_id: u64,
    ///     order_id: u32,
    ///     open_since: Option<u32>,
    ///     #[serde(rename = "total")]
    ///     total_cents: i64,
    /// }
    ///
    /// let layout = Order::LAYOUT;
    /// assert_eq!(layout.field("total").unwrap().name, "total_cents");
    /// assert!(layout.field("total_cents").is_none(), "by attribute, after rename");
    /// assert_eq!(layout.field("open_since").unwrap().type_name, "Option<u32>");
    /// ```
    pub fn field(&self, attribute: &str) -> Option<&FieldLayout> {
        self.fields
            .iter()
            .find(|field| field.attribute == attribute)
    }

    /// The body attributes of the primary key's fields: what a read
    /// restores from the parsed key when the item does not hold them
    /// (`entity::convert::restore_key_fields`). None for an undescribed
    /// entity.
    pub(crate) fn key_field_attributes(&self) -> impl Iterator<Item = &'static str> + use<> {
        self.fields
            .iter()
            .filter(|field| matches!(field.role, FieldRole::KeyField | FieldRole::KeyOnly))
            .map(|field| field.attribute)
    }

    /// Whether `attribute` is a primary-key field stored in the key only
    /// (the default, `#[entity(key_fields = "key_only")]`): a write leaves
    /// it out of the item, an upsert does not add it.
    pub(crate) fn is_key_only(&self, attribute: &str) -> bool {
        self.key_only_attributes()
            .any(|key_only| key_only == attribute)
    }

    /// The attributes [`is_key_only`](Self::is_key_only) holds for.
    pub(crate) fn key_only_attributes(&self) -> impl Iterator<Item = &'static str> + use<> {
        self.fields
            .iter()
            .filter(|field| field.role == FieldRole::KeyOnly)
            .map(|field| field.attribute)
    }

    /// The attribute of the optimistic-locking version, if any.
    pub(crate) fn version_attribute(&self) -> Option<&'static str> {
        self.fields
            .iter()
            .find(|field| field.role == FieldRole::Version)
            .map(|field| field.attribute)
    }

    /// The primary key's templates as written (partition, sort): `("",
    /// None)` for an undescribed entity. For messages, and for the
    /// compile-time check that two members of a collection cannot match
    /// one key.
    pub(crate) const fn key_templates(&self) -> (&'static str, Option<&'static str>) {
        match self.keys.first() {
            Some(KeyLayout {
                index: None,
                partition,
                sort,
                ..
            }) => (
                partition.source,
                match sort {
                    Some(sort) => Some(sort.source),
                    None => None,
                },
            ),
            _ => ("", None),
        }
    }

    /// Every key template of the entity: each key's partition, then its
    /// sort, the primary key's first.
    fn templates(&self) -> impl Iterator<Item = &TemplateLayout> {
        self.keys
            .iter()
            .flat_map(|key| std::iter::once(&key.partition).chain(key.sort.as_ref()))
    }

    /// Whether a key template of the entity is raw (a field that is the key
    /// attribute itself): its attribute then stays in the body.
    pub(crate) fn has_raw_key(&self) -> bool {
        self.templates().any(|template| template.raw)
    }

    /// Whether `attribute` is a raw key attribute (`pk = field`): a field
    /// of the entity that serde writes with the body, which stays in the
    /// body when an item is decoded.
    pub(crate) fn is_raw_attribute(&self, attribute: &str) -> bool {
        let raw_fields = self
            .templates()
            .filter(|template| template.raw)
            .flat_map(TemplateLayout::holes);
        raw_fields
            .filter_map(|hole| self.fields.iter().find(|field| field.name == hole.field))
            .any(|field| field.attribute == attribute)
    }
}

impl KeyLayout {
    #[doc(hidden)]
    pub const fn new(
        index: Option<IndexSchema>,
        partition: TemplateLayout,
        sort: Option<TemplateLayout>,
        sparse: bool,
        when: Option<&'static str>,
        allow_hot: Option<&'static str>,
    ) -> Self {
        KeyLayout {
            index,
            partition,
            sort,
            sparse,
            when,
            allow_hot,
        }
    }

    /// The index's name, or `None` for the table's primary key.
    ///
    /// See [the module's example](crate::layout#example).
    pub fn index_name(&self) -> Option<&'static str> {
        self.index.map(|index| index.name)
    }
}

impl TemplateLayout {
    #[doc(hidden)]
    pub const fn new(
        source: &'static str,
        raw: bool,
        segments: &'static [&'static [Piece]],
    ) -> Self {
        TemplateLayout {
            source,
            raw,
            segments,
        }
    }

    /// The holes, in key order.
    ///
    /// See [the module's example](crate::layout#example).
    pub fn holes(&self) -> impl Iterator<Item = &HoleLayout> {
        self.segments.iter().flat_map(|segment| {
            segment.iter().filter_map(|piece| match piece {
                Piece::Hole(hole) => Some(hole),
                _ => None,
            })
        })
    }

    /// Whether a hole names `field`.
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{placed}#{order_id}")]
    /// struct Order { customer_id: u64, placed: String, order_id: u32 }
    ///
    /// let sk = Order::LAYOUT.primary().unwrap().sort.unwrap();
    /// assert!(sk.has_hole("order_id") && !sk.has_hole("customer_id"));
    /// ```
    pub fn has_hole(&self, field: &str) -> bool {
        self.holes().any(|hole| hole.field == field)
    }

    /// The literal text every key of the template starts with: up to its
    /// first hole or shard, segments joined by `#`.
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{placed}#{order_id}")]
    /// struct Order { customer_id: u64, placed: String, order_id: u32 }
    ///
    /// let sk = Order::LAYOUT.primary().unwrap().sort.unwrap();
    /// assert_eq!(sk.literal_prefix(), "ORDER#");
    /// ```
    pub fn literal_prefix(&self) -> String {
        literal_prefix(self.segments)
    }

    /// The shard declaration, when the template is sharded.
    ///
    /// See [the module's example](crate::layout#example).
    pub fn shard(&self) -> Option<ShardSpec> {
        self.segments
            .iter()
            .flat_map(|segment| segment.iter())
            .find_map(|piece| match piece {
                Piece::Shard(spec) => Some(*spec),
                _ => None,
            })
    }
}

impl HoleLayout {
    #[doc(hidden)]
    pub const fn new(
        field: &'static str,
        type_name: &'static str,
        width: Option<u8>,
        fixed_len: Option<usize>,
        cardinality: Cardinality,
        optional: bool,
        computed: bool,
    ) -> Self {
        HoleLayout {
            field,
            type_name,
            width,
            fixed_len,
            cardinality,
            optional,
            computed,
        }
    }
}

/// As written.
/// A key of no template: the primary key of an entity whose layout stands
/// in for one that could not be described (a failed derive).
pub(crate) const NO_KEY: KeyLayout = KeyLayout::new(
    None,
    TemplateLayout::new("", false, &[]),
    None,
    false,
    None,
    None,
);

/// The literal text before the first hole or shard of `segments`, joined
/// by `#`.
pub(crate) fn literal_prefix(segments: &[&[Piece]]) -> String {
    let mut out = String::new();
    for (i, segment) in segments.iter().enumerate() {
        if i > 0 {
            out.push('#');
        }
        for piece in *segment {
            match piece {
                Piece::Literal(text) => out.push_str(text),
                Piece::Hole(_) | Piece::Shard(_) => return out,
            }
        }
    }
    out
}

impl FieldLayout {
    #[doc(hidden)]
    pub const fn new(
        name: &'static str,
        attribute: &'static str,
        type_name: &'static str,
        optional: bool,
    ) -> Self {
        FieldLayout {
            name,
            attribute,
            type_name,
            optional,
            role: FieldRole::Body,
        }
    }

    pub(crate) const fn with_role(mut self, role: FieldRole) -> Self {
        self.role = role;
        self
    }
}

impl fmt::Display for TemplateLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.source)
    }
}
