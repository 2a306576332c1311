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
//! ```

use std::fmt;

use crate::key::Cardinality;
use crate::shard::ShardSpec;
use crate::table::IndexSchema;

/// An entity's keys as data: what `#[derive(Entity)]` declared.
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
}

/// One key of an entity: the table's primary key or an index's.
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
    /// How many values the hole can write ([`KeyPart::CARDINALITY`](crate::key::KeyPart::CARDINALITY),
    /// bounded by the width).
    pub cardinality: Cardinality,
    /// The field is an `Option` (the index is sparse).
    pub optional: bool,
    /// It names a computed value (`computed = …`), not a field.
    pub computed: bool,
}

impl EntityLayout {
    /// The layout of an entity that declares no templates (implemented by
    /// hand): no keys to describe.
    pub const fn undescribed(entity: &'static str, type_tag: &'static str) -> Self {
        EntityLayout {
            entity,
            type_tag,
            keys: &[],
        }
    }

    #[doc(hidden)]
    pub const fn new(
        entity: &'static str,
        type_tag: &'static str,
        keys: &'static [KeyLayout],
    ) -> Self {
        EntityLayout {
            entity,
            type_tag,
            keys,
        }
    }

    /// The primary key's layout, `None` for an undescribed entity.
    pub fn primary(&self) -> Option<&KeyLayout> {
        self.keys.first().filter(|key| key.index.is_none())
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
    pub fn holes(&self) -> impl Iterator<Item = &HoleLayout> {
        self.segments.iter().flat_map(|segment| {
            segment.iter().filter_map(|piece| match piece {
                Piece::Hole(hole) => Some(hole),
                _ => None,
            })
        })
    }

    /// The shard declaration, when the template is sharded.
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
        cardinality: Cardinality,
        optional: bool,
        computed: bool,
    ) -> Self {
        HoleLayout {
            field,
            type_name,
            width,
            cardinality,
            optional,
            computed,
        }
    }
}

/// As written.
impl fmt::Display for TemplateLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.source)
    }
}
