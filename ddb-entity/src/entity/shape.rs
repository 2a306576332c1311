//! An entity's key templates, indexes and fields as data: what
//! `#[derive(Entity)]` read from the struct, kept for the model (its
//! access-pattern checks, lints, deploy artefacts and key-layout
//! snapshots) and for anything else that needs to reason about keys
//! without building one.
//!
//! The template description mirrors the derive's own IR: a template is
//! *segments* joined by `#`, a segment is *pieces* written side by side,
//! literal text or `{field}` holes.

use super::Entity;
use crate::key::Cardinality;
use crate::table::IndexSchema;

/// An entity with a description of its keys and fields, implemented by
/// `#[derive(Entity)]`. A hand-written entity implements it by stating its
/// templates the same way (see [`EntityShape`]).
///
/// ```
/// use ddb_entity::Entity;
/// use ddb_entity::shape::{Described, Piece};
/// use serde::{Deserialize, Serialize};
///
/// ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{placed}#{order_id:6}")]
/// struct Order { customer_id: u64, order_id: u32, placed: String, total_cents: i64 }
///
/// let shape = Order::shape();
/// assert_eq!(shape.type_tag, "ORDER");
/// assert_eq!(shape.pk.source, "CUST#{customer_id}");
/// let sk = shape.sk.as_ref().unwrap();
/// assert_eq!(sk.segments.len(), 3);
/// let Piece::Hole(order_id) = &sk.segments[2][0] else { unreachable!() };
/// assert_eq!((order_id.field, order_id.width, order_id.fixed_len), ("order_id", Some(6), Some(6)));
/// assert_eq!(shape.fields.iter().map(|f| f.attribute).collect::<Vec<_>>(),
///            ["customer_id", "order_id", "placed", "total_cents"]);
/// ```
pub trait Described: Entity {
    /// The entity's templates, indexes and stored fields.
    fn shape() -> EntityShape;
}

/// What an entity writes: its type, primary-key templates, the indexes it
/// fills and the fields serde stores.
///
/// Built by `#[derive(Entity)]` (through [`Described`]); its fields are
/// public so that a hand-written entity can state the same.
///
/// ```
/// # use ddb_entity::{Entity, shape::Described};
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
/// let shape = Order::shape();
/// assert_eq!((shape.rust_name, shape.type_tag), ("Order", "ORDER"));
/// assert_eq!(shape.pk.source, "CUST#{customer_id}");
/// assert_eq!(shape.indexes.len(), 1);
/// assert!(!shape.flattened);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntityShape {
    /// The Rust type's name, e.g. `Order`.
    pub rust_name: &'static str,
    /// The value of the type attribute ([`Entity::TYPE_TAG`]).
    pub type_tag: &'static str,
    /// The partition key template of the table.
    pub pk: TemplateShape,
    /// The sort key template of the table, if the table has a sort key.
    pub sk: Option<TemplateShape>,
    /// The global indexes the entity fills, in declaration order.
    pub indexes: Vec<IndexShape>,
    /// The fields serde stores under their own attribute.
    pub fields: Vec<FieldShape>,
    /// Whether some field is `#[serde(flatten)]`ed: the entity then
    /// stores attributes this description does not name.
    pub flattened: bool,
}

impl EntityShape {
    /// The stored field whose attribute is `attribute`.
    ///
    /// ```
    /// # use ddb_entity::{Entity, shape::Described};
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
    /// let shape = Order::shape();
    /// assert_eq!(shape.field("total").unwrap().name, "total_cents");
    /// assert!(shape.field("total_cents").is_none(), "by attribute, after rename");
    /// ```
    pub fn field(&self, attribute: &str) -> Option<&FieldShape> {
        self.fields.iter().find(|f| f.attribute == attribute)
    }

    /// The index named `name` that the entity fills.
    ///
    /// ```
    /// # use ddb_entity::{Entity, shape::Described};
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
    /// let shape = Order::shape();
    /// assert_eq!(shape.index("GSI1").unwrap().pk.source, "OPEN#{open_since}");
    /// assert!(shape.index("GSI2").is_none());
    /// ```
    pub fn index(&self, name: &str) -> Option<&IndexShape> {
        self.indexes.iter().find(|i| i.index.name == name)
    }
}

/// One global index an entity fills.
///
/// ```
/// # use ddb_entity::{Entity, shape::Described};
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
/// let gsi1 = &Order::shape().indexes[0];
/// assert_eq!(gsi1.index.name, "GSI1");
/// assert_eq!(gsi1.sk.as_ref().unwrap().source, "{order_id:6}");
/// assert_eq!(gsi1.when, None);
/// assert!(gsi1.is_sparse(), "open_since is an Option");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexShape {
    /// The index, as `table!` declares it.
    pub index: IndexSchema,
    /// The index partition key template.
    pub pk: TemplateShape,
    /// The index sort key template, when the index has a sort key.
    pub sk: Option<TemplateShape>,
    /// The `when = predicate(…)` membership condition, as written.
    pub when: Option<&'static str>,
}

impl IndexShape {
    /// Whether some items of the entity are absent from the index: a hole
    /// of an `Option` field (`None` writes no index key) or a `when`
    /// predicate.
    ///
    /// ```
    /// # use ddb_entity::{Entity, shape::Described};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "TICKET#{id}", sk = "TICKET")]
    /// #[entity(index = Gsi1, pk = "OPEN#{open_since}", sk = "{id}")]
    /// struct Ticket { id: u64, open_since: Option<u32> }
    ///
    /// let shape = Ticket::shape();
    /// assert!(shape.index("GSI1").unwrap().is_sparse());
    /// assert_eq!(shape.field("open_since").unwrap().ty, "Option<u32>");
    /// ```
    pub fn is_sparse(&self) -> bool {
        self.when.is_some()
            || std::iter::once(&self.pk)
                .chain(&self.sk)
                .flat_map(TemplateShape::holes)
                .any(|hole| hole.optional)
    }
}

/// A key template: `#`-joined segments of pieces.
///
/// ```
/// # use ddb_entity::{Entity, shape::Described};
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
/// let sk = Order::shape().sk.unwrap();
/// assert_eq!(sk.source, "ORDER#{order_id:6}");
/// assert!(!sk.raw);
/// assert_eq!(sk.segments.len(), 2);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateShape {
    /// The template as written, e.g. `ORDER#{placed}#{order_id:6}`.
    pub source: &'static str,
    /// `pk = field`: the one hole is the key attribute itself, stored as
    /// it is (any string, `#` included), not encoded.
    pub raw: bool,
    /// The segments, joined by `#` in every key. An empty first segment is
    /// a leading `#`.
    pub segments: Vec<Vec<Piece>>,
}

impl TemplateShape {
    /// Every hole, in key order.
    ///
    /// ```
    /// # use ddb_entity::{Entity, shape::Described};
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
    /// let pk = Order::shape().pk;
    /// assert_eq!(pk.holes().map(|h| h.field).collect::<Vec<_>>(), ["customer_id"]);
    /// ```
    pub fn holes(&self) -> impl Iterator<Item = &HoleShape> {
        self.segments
            .iter()
            .flatten()
            .filter_map(|piece| match piece {
                Piece::Hole(hole) => Some(hole),
                Piece::Literal(_) | Piece::Shard { .. } => None,
            })
    }

    /// Whether the template has a hole for `field`.
    ///
    /// ```
    /// # use ddb_entity::{Entity, shape::Described};
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
    /// let pk = Order::shape().pk;
    /// assert!(pk.has_hole("customer_id"));
    /// assert!(!pk.has_hole("order_id"));
    /// ```
    pub fn has_hole(&self, field: &str) -> bool {
        self.holes().any(|hole| hole.field == field)
    }

    /// The shard count, for a partition key spread over shards.
    pub fn shards(&self) -> Option<u16> {
        self.segments
            .iter()
            .flatten()
            .find_map(|piece| match piece {
                Piece::Shard { count } => Some(*count),
                _ => None,
            })
    }

    /// The literal text every key of the template starts with: up to the
    /// first hole (`ORDER#` for `ORDER#{placed}`), the whole key for a
    /// template without holes.
    ///
    /// ```
    /// # use ddb_entity::{Entity, shape::Described};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "CUST#{id}", sk = "#ORDER#{placed}#{order_id}")]
    /// struct Order { id: u64, placed: u32, order_id: u64 }
    ///
    /// let sk = Order::shape().sk.unwrap();
    /// assert_eq!(sk.literal_prefix(), "#ORDER#");
    /// assert!(sk.has_hole("placed"));
    /// assert_eq!(sk.holes().map(|h| h.field).collect::<Vec<_>>(), ["placed", "order_id"]);
    /// ```
    pub fn literal_prefix(&self) -> String {
        let mut out = String::new();
        for (i, segment) in self.segments.iter().enumerate() {
            if i > 0 {
                out.push('#');
            }
            for piece in segment {
                match piece {
                    Piece::Literal(text) => out.push_str(text),
                    Piece::Hole(_) | Piece::Shard { .. } => return out,
                }
            }
        }
        out
    }
}

/// One piece of a segment.
///
/// ```
/// use ddb_entity::shape::Piece;
/// # use ddb_entity::{Entity, shape::Described};
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
/// let sk = Order::shape().sk.unwrap();
/// assert_eq!(sk.segments[0], [Piece::Literal("ORDER")]);
/// assert!(matches!(&sk.segments[1][0], Piece::Hole(hole) if hole.field == "order_id"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    /// Literal text, e.g. `ORDER`.
    Literal(&'static str),
    /// A `{field}` hole.
    Hole(HoleShape),
    /// A `{shard(…) % count}` segment: the partition's shard, `00/16` to
    /// `15/16` ([`layout`](crate::layout) describes it further).
    Shard {
        /// How many shards the partition is spread over.
        count: u16,
    },
}

/// A `{field}` or `{field:width}` hole.
///
/// ```
/// use ddb_entity::key::Cardinality;
/// # use ddb_entity::{Entity, shape::Described};
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
/// let shape = Order::shape();
/// let customer_id = shape.pk.holes().next().unwrap();
/// assert_eq!((customer_id.ty, customer_id.width, customer_id.fixed_len), ("u64", None, Some(20)));
/// assert_eq!(customer_id.cardinality, Cardinality::Unbounded);
/// let open_since = shape.indexes[0].pk.holes().next().unwrap();
/// assert_eq!(open_since.ty, "u32");
/// assert!(open_since.optional && !open_since.computed);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HoleShape {
    /// The field (or computed value) it names.
    pub field: &'static str,
    /// The key part type as written, e.g. `NaiveDate` (the `T` of an
    /// `Option<T>` field).
    pub ty: &'static str,
    /// The declared width, `{field:6}`.
    pub width: Option<usize>,
    /// The byte length of every encoding, when it is fixed (the width, or
    /// [`KeyPart::FIXED_LEN`](crate::key::KeyPart::FIXED_LEN)).
    pub fixed_len: Option<usize>,
    /// How many values it can take ([`KeyPart::CARDINALITY`](crate::key::KeyPart::CARDINALITY)).
    pub cardinality: Cardinality,
    /// The field is an `Option`: `None` keeps the item out of the index.
    pub optional: bool,
    /// A computed value (`computed = …`), not a field.
    pub computed: bool,
}

/// A field serde stores under its own attribute.
///
/// ```
/// # use ddb_entity::{Entity, shape::Described};
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
/// let total = Order::shape().fields.into_iter().find(|f| f.name == "total_cents").unwrap();
/// assert_eq!((total.attribute, total.ty, total.optional), ("total", "i64", false));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldShape {
    /// The field's name.
    pub name: &'static str,
    /// The attribute serde stores it under (after `rename`).
    pub attribute: &'static str,
    /// Its type as written, e.g. `Option<NaiveDate>`.
    pub ty: &'static str,
    /// The field is an `Option` (it may be absent, or `NULL`).
    pub optional: bool,
}
