//! Table definitions: key attribute names, generic overloadable indexes,
//! their projections, and how the table is billed.
//!
//! A single-table design names its key attributes generically (`PK`, `SK`,
//! `GSI1PK`, …) because every entity type stores its own meaning in them.
//! The *shape* of the table is therefore a compile-time constant, declared
//! once with [`table!`](crate::table!), while the table's *name* is a runtime
//! value given to [`Db::new`](crate::db::Db::new) (it differs per stage, per test).
//!
//! The shape is also what every deploy artefact is made from (the
//! CreateTable input that [`create_table_if_missing`](crate::db::Db::create_table_if_missing)
//! sends, and, with the feature `model`, CloudFormation, Terraform and
//! NoSQL Workbench definitions), so what tests create is what production
//! deploys.

mod check;
mod declare;
pub(crate) mod sdk;
mod typing;

pub use check::validate_table_name;
pub use typing::Typing;

/// The key attributes of the table or of one index.
///
/// ```
/// use ddb_entity::{KeySchema, QueryIndex, Table};
///
/// ddb_entity::table! {
///     pub struct App {
///         partition_key: "PK",
///         sort_key: "SK",
///         indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } },
///     }
/// }
///
/// assert_eq!(App::SCHEMA.primary, KeySchema { partition_key: "PK", sort_key: Some("SK") });
/// assert_eq!(<Gsi1 as QueryIndex>::KEYS.partition_key, "GSI1PK");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeySchema {
    /// The partition (HASH) key attribute, e.g. `"PK"`.
    pub partition_key: &'static str,
    /// The sort (RANGE) key attribute, e.g. `"SK"`, if the index has one.
    pub sort_key: Option<&'static str>,
}

/// Which attributes DynamoDB copies into a secondary index besides the
/// keys (the table's and the index's, always projected).
///
/// A query of an index returns only what it projects: reading whole
/// entities from an index needs [`All`](Projection::All). An index that
/// serves a pattern reading a few attributes (a projection query) costs
/// less storage and write capacity with [`Include`](Projection::Include)
/// or [`KeysOnly`](Projection::KeysOnly).
///
/// ```
/// use ddb_entity::Projection;
///
/// assert_eq!(Projection::All.as_str(), "ALL");
/// assert_eq!(Projection::Include(&["total_cents"]).non_key_attributes(), ["total_cents"]);
/// assert!(Projection::KeysOnly.non_key_attributes().is_empty());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Projection {
    /// Every attribute (the default): a query returns whole items.
    #[default]
    All,
    /// The table's and the index's key attributes only.
    KeysOnly,
    /// The keys and these attributes.
    Include(&'static [&'static str]),
}

impl Projection {
    /// DynamoDB's name for it: `ALL`, `KEYS_ONLY` or `INCLUDE`.
    ///
    /// See [`Table`'s example](Table#example).
    pub const fn as_str(&self) -> &'static str {
        match self {
            Projection::All => "ALL",
            Projection::KeysOnly => "KEYS_ONLY",
            Projection::Include(_) => "INCLUDE",
        }
    }

    /// The attributes an `INCLUDE` projection names (none otherwise).
    ///
    /// See [`Table`'s example](Table#example).
    pub const fn non_key_attributes(&self) -> &'static [&'static str] {
        match self {
            Projection::Include(attributes) => attributes,
            Projection::All | Projection::KeysOnly => &[],
        }
    }
}

/// Provisioned read and write capacity units per second: DynamoDB's
/// `ProvisionedThroughput` (what [`Capacity`](crate::capacity::Capacity) meters is
/// the capacity requests consume).
///
/// ```
/// let capacity = ddb_entity::Throughput { read: 10, write: 5 };
/// assert!(capacity.write < capacity.read);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Throughput {
    /// Read capacity units.
    pub read: u64,
    /// Write capacity units.
    pub write: u64,
}

/// How the table is billed: per request, or by provisioned capacity.
///
/// ```
/// use ddb_entity::{Billing, Throughput};
///
/// assert_eq!(Billing::OnDemand.as_str(), "PAY_PER_REQUEST");
/// let provisioned = Billing::Provisioned(Throughput { read: 10, write: 10 });
/// assert_eq!(provisioned.capacity(), Some(Throughput { read: 10, write: 10 }));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Billing {
    /// On-demand capacity (`PAY_PER_REQUEST`, the default).
    #[default]
    OnDemand,
    /// Provisioned capacity (`PROVISIONED`): the table's, and every global
    /// index's that does not declare its own.
    Provisioned(Throughput),
}

impl Billing {
    /// DynamoDB's name for it: `PAY_PER_REQUEST` or `PROVISIONED`.
    ///
    /// See [`Table`'s example](Table#example).
    pub const fn as_str(&self) -> &'static str {
        match self {
            Billing::OnDemand => "PAY_PER_REQUEST",
            Billing::Provisioned(_) => "PROVISIONED",
        }
    }

    /// The table's provisioned capacity, `None` on demand.
    ///
    /// See [`Table`'s example](Table#example).
    pub const fn capacity(&self) -> Option<Throughput> {
        match self {
            Billing::OnDemand => None,
            Billing::Provisioned(capacity) => Some(*capacity),
        }
    }
}

/// Whether a secondary index is global or local.
///
/// ```
/// use ddb_entity::{Index, IndexKind};
///
/// ddb_entity::table! {
///     pub struct App {
///         partition_key: "PK",
///         sort_key: "SK",
///         indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } },
///         local_indexes: { pub ByTotal = "ByTotal" { sort_key: "total" } },
///     }
/// }
///
/// assert_eq!(<Gsi1 as Index>::SCHEMA.kind, IndexKind::Global);
/// assert_eq!(<ByTotal as Index>::SCHEMA.kind, IndexKind::Local);
/// assert_eq!(<ByTotal as Index>::SCHEMA.keys.partition_key, "PK", "the table's");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IndexKind {
    /// A global secondary index: its own partition key, its own capacity,
    /// eventually consistent.
    Global,
    /// A local secondary index: the table's partition key with another
    /// sort key, created with the table only. A table with one caps every
    /// item collection (the items of one partition key) at 10 GB.
    Local,
}

/// A secondary index: its name, key attributes, projection and capacity.
///
/// ```
/// use ddb_entity::{Index, Projection, Table, Throughput};
///
/// ddb_entity::table! {
///     pub struct App {
///         partition_key: "PK",
///         sort_key: "SK",
///         billing: provisioned { read: 10, write: 10 },
///         indexes: {
///             pub Gsi1 = "GSI1" {
///                 partition_key: "GSI1PK",
///                 sort_key: "GSI1SK",
///                 projection: include["total_cents"],
///                 capacity: { read: 5, write: 10 },
///             },
///         },
///     }
/// }
///
/// let gsi1 = <Gsi1 as Index>::SCHEMA;
/// assert_eq!((gsi1.name, gsi1.keys.sort_key), ("GSI1", Some("GSI1SK")));
/// assert_eq!(gsi1.projection, Projection::Include(&["total_cents"]));
/// assert_eq!(gsi1.capacity, Some(Throughput { read: 5, write: 10 }));
/// assert_eq!(App::SCHEMA.indexes, [gsi1]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IndexSchema {
    /// The index name, e.g. `"GSI1"`.
    pub name: &'static str,
    /// The index's key attributes, e.g. `GSI1PK` / `GSI1SK`. A local
    /// index's partition key is the table's.
    pub keys: KeySchema,
    /// Global or local.
    pub kind: IndexKind,
    /// What the index holds besides the keys (default `ALL`).
    pub projection: Projection,
    /// The capacity a global index of a provisioned table declares for
    /// itself; `None` means the table's (see [`TableSchema::index_capacity`]).
    pub capacity: Option<Throughput>,
}

/// The scalar type of a key attribute that holds an entity's field as it
/// is (not a string key the library encodes): how CreateTable defines it.
///
/// ```
/// use ddb_entity::{KeyAttributeType, MultiKeyIndex};
///
/// ddb_entity::table! {
///     pub struct App {
///         partition_key: "PK",
///         sort_key: "SK",
///         multi_key_indexes: {
///             pub ByRound = "ByRound" { partition_key: ["tournament": S], sort_key: ["round": N] },
///         },
///     }
/// }
///
/// let types: Vec<KeyAttributeType> = <ByRound as MultiKeyIndex>::SCHEMA.attributes().map(|a| a.ty).collect();
/// assert_eq!(types, [KeyAttributeType::S, KeyAttributeType::N]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyAttributeType {
    /// A string (`S`).
    S,
    /// A number (`N`): integers and floats, compared as numbers.
    N,
    /// Binary (`B`).
    B,
}

impl KeyAttributeType {
    /// The type letter DynamoDB uses: `"S"`, `"N"` or `"B"`.
    ///
    /// ```
    /// assert_eq!(ddb_entity::KeyAttributeType::N.as_str(), "N");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            KeyAttributeType::S => "S",
            KeyAttributeType::N => "N",
            KeyAttributeType::B => "B",
        }
    }
}

/// One attribute of a multi-attribute index key: its name (an entity
/// field's stored name) and scalar type.
///
/// ```
/// use ddb_entity::{KeyAttribute, KeyAttributeType, MultiKeyIndex};
///
/// ddb_entity::table! {
///     pub struct App {
///         partition_key: "PK",
///         sort_key: "SK",
///         multi_key_indexes: {
///             pub ByRound = "ByRound" { partition_key: ["tournament": S], sort_key: ["round": N] },
///         },
///     }
/// }
///
/// let round = <ByRound as MultiKeyIndex>::SCHEMA.sort_key[0];
/// assert_eq!(round, KeyAttribute { name: "round", ty: KeyAttributeType::N });
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyAttribute {
    /// The attribute name, e.g. `"tournament"`.
    pub name: &'static str,
    /// Its scalar type.
    pub ty: KeyAttributeType,
}

/// A global secondary index whose partition and sort keys are each made
/// of up to four attributes (DynamoDB, November 2025), each an entity
/// field in its native type: no key string to build, and an item is in
/// the index exactly when it has every one of them. Declared in the
/// `multi_key_indexes: { … }` block of [`table!`](crate::table!); queried
/// with [`Db::query_multi`](crate::db::Db::query_multi). Every attribute is
/// projected (`ALL`), and on a provisioned table the index has the
/// table's capacity.
///
/// ```
/// use ddb_entity::{MultiKeyIndex, Table};
///
/// ddb_entity::table! {
///     pub struct App {
///         partition_key: "PK",
///         sort_key: "SK",
///         multi_key_indexes: {
///             /// A tournament's matches by round, then by court.
///             pub ByRound = "ByRound" {
///                 partition_key: ["tournament": S],
///                 sort_key: ["round": N, "court": S],
///             },
///         },
///     }
/// }
///
/// let by_round = <ByRound as MultiKeyIndex>::SCHEMA;
/// assert_eq!(by_round.name, "ByRound");
/// let sort: Vec<&str> = by_round.sort_key.iter().map(|a| a.name).collect();
/// assert_eq!(sort, ["round", "court"]);
/// assert_eq!(App::SCHEMA.multi_key_indexes, [by_round]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MultiKeyIndexSchema {
    /// The index name.
    pub name: &'static str,
    /// The partition key's attributes, in order: a query gives each one.
    pub partition_key: &'static [KeyAttribute],
    /// The sort key's attributes, in order: a query's conditions on them
    /// go left to right (empty: no sort key).
    pub sort_key: &'static [KeyAttribute],
}

impl MultiKeyIndexSchema {
    /// The attributes in key order: the partition's, then the sort key's.
    ///
    /// See [`Table`'s example](Table#example).
    pub fn attributes(&self) -> impl Iterator<Item = &'static KeyAttribute> + use<> {
        self.partition_key.iter().chain(self.sort_key.iter())
    }
}

/// The shape of a single table: primary key, type attribute, indexes and
/// billing.
///
/// Declare it with [`table!`](crate::table!) rather than by hand.
///
/// ```
/// use ddb_entity::{Billing, Table};
///
/// ddb_entity::table! {
///     pub struct App {
///         partition_key: "PK",
///         sort_key: "SK",
///         type_attribute: "type",
///         ttl_attribute: "expires_at",
///     }
/// }
///
/// let schema = App::SCHEMA;
/// assert_eq!(schema.type_attribute, "type");
/// assert_eq!(schema.ttl_attribute, Some("expires_at"));
/// assert_eq!(schema.billing, Billing::OnDemand);
/// assert!(schema.indexes.is_empty());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TableSchema {
    /// The primary key. A single table of several entity types has a sort
    /// key: it is what lets one partition hold an item collection. A table
    /// without one (a session store keyed by its token alone) holds one item
    /// per partition key.
    pub primary: KeySchema,
    /// The attribute naming each item's entity type, e.g. `"_type"`.
    pub type_attribute: &'static str,
    /// How an item's entity type is known: by the type attribute (the
    /// default), by which entity's key templates its keys match (a table
    /// designed by hand, adopted as it is), or by both.
    pub typing: Typing,
    /// The table's time-to-live attribute, if it has one: a number of
    /// seconds since the Unix epoch after which DynamoDB deletes the item
    /// (within a few days). Reads hide items past it that are still there.
    pub ttl_attribute: Option<&'static str>,
    /// The reserved attribute holding the write token of the last write
    /// that needed one (default `"_wt"`): a short random string per call,
    /// never part of an entity's body. It is how a write resent after a
    /// lost answer recognises that the item stored is its own (see the
    /// crate docs, "Retries and exactly-once writes").
    ///
    /// An update also keeps the tokens of the item's
    /// [`TOKEN_HISTORY`](Self::TOKEN_HISTORY)` - 1` writes before it, in
    /// `_wt1`, `_wt2`, `_wt3` (this name with the slot's digit): a late
    /// attempt of an earlier write is recognised after later writes too.
    /// The footprint is fixed: at most four tokens of up to 36 characters.
    pub token_attribute: &'static str,
    /// Whether writes that need one store a write token in
    /// [`token_attribute`](Self::token_attribute) (declared with
    /// `write_tokens` in [`table!`](crate::table!); by default on, but off
    /// on a table typed by key, whose items stay byte for byte as other
    /// code writes them). Without tokens a write resent after a lost
    /// answer cannot recognise its own effect: see
    /// [`Typing::default_write_tokens`].
    pub write_tokens: bool,
    /// The character that joins the segments of the table's keys
    /// (declared with `delimiter` in [`table!`](crate::table!); default
    /// `#`). One of [`key::KEY_DELIMITERS`](crate::key::KEY_DELIMITERS);
    /// every entity's templates are checked against it at compile time.
    pub delimiter: char,
    /// How the table is billed (default on demand).
    pub billing: Billing,
    /// The global secondary indexes, usually overloaded (`GSI1`, `GSI2`, …).
    pub indexes: &'static [IndexSchema],
    /// The local secondary indexes: the table's partition key with another
    /// sort key attribute, which entities store as a field of their body.
    pub local_indexes: &'static [IndexSchema],
    /// The global secondary indexes keyed by several of the entities' own
    /// attributes (see [`MultiKeyIndexSchema`]).
    pub multi_key_indexes: &'static [MultiKeyIndexSchema],
}

impl TableSchema {
    /// How many write tokens an item keeps: the last write's in
    /// [`token_attribute`](Self::token_attribute) and the three before it
    /// in its numbered slots.
    ///
    /// ```
    /// assert_eq!(ddb_entity::TableSchema::TOKEN_HISTORY, 4);
    /// ```
    pub const TOKEN_HISTORY: usize = 4;

    /// The attribute of the write-token slot `slot` (0 is the newest):
    /// [`token_attribute`](Self::token_attribute), then its name with the
    /// slot's digit.
    pub(crate) fn token_slot(&self, slot: usize) -> std::borrow::Cow<'static, str> {
        match slot {
            0 => self.token_attribute.into(),
            n => format!("{}{n}", self.token_attribute).into(),
        }
    }

    /// Whether `name` is one of the write-token slots: the library's, never
    /// an entity's field.
    pub(crate) fn is_token_attribute(&self, name: &str) -> bool {
        name.strip_prefix(self.token_attribute).is_some_and(|rest| {
            rest.is_empty()
                || (rest.len() == 1
                    && rest
                        .parse::<usize>()
                        .is_ok_and(|n| (1..Self::TOKEN_HISTORY).contains(&n)))
        })
    }

    /// The index named `name`, global or local, if the table declares it.
    ///
    /// ```
    /// ddb_entity::table! {
    ///     /// The app's table.
    ///     pub struct App {
    ///         partition_key: "PK",
    ///         sort_key: "SK",
    ///         indexes: {
    ///             /// Orders by id.
    ///             pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
    ///         },
    ///         local_indexes: {
    ///             /// A customer's items by total.
    ///             pub ByTotal = "ByTotal" { sort_key: "total_key" },
    ///         },
    ///     }
    /// }
    /// use ddb_entity::{IndexKind, Table};
    /// assert_eq!(App::SCHEMA.index("GSI1").unwrap().keys.partition_key, "GSI1PK");
    /// assert_eq!(App::SCHEMA.index("ByTotal").unwrap().kind, IndexKind::Local);
    /// assert_eq!(App::SCHEMA.index("ByTotal").unwrap().keys.partition_key, "PK");
    /// assert!(App::SCHEMA.index("GSI9").is_none());
    /// ```
    pub fn index(&self, name: &str) -> Option<&IndexSchema> {
        self.all_indexes().find(|index| index.name == name)
    }

    /// Every secondary index: the global ones, then the local ones.
    ///
    /// See [`Table`'s example](Table#example).
    pub fn all_indexes(&self) -> impl Iterator<Item = &IndexSchema> {
        self.indexes.iter().chain(self.local_indexes)
    }

    /// The capacity of a global index of a provisioned table: its own, or
    /// else the table's. `None` for a local index (it shares the table's)
    /// and for an on-demand table.
    ///
    /// ```
    /// ddb_entity::table! {
    ///     /// A provisioned table.
    ///     pub struct App {
    ///         partition_key: "PK",
    ///         sort_key: "SK",
    ///         billing: provisioned { read: 20, write: 10 },
    ///         indexes: {
    ///             /// Reads little.
    ///             pub Gsi1 = "GSI1" { partition_key: "GSI1PK", capacity: { read: 5, write: 10 } },
    ///             /// As the table.
    ///             pub Gsi2 = "GSI2" { partition_key: "GSI2PK" },
    ///         },
    ///     }
    /// }
    /// use ddb_entity::{Index, Table, Throughput};
    /// assert_eq!(App::SCHEMA.index_capacity(&Gsi1::SCHEMA), Some(Throughput { read: 5, write: 10 }));
    /// assert_eq!(App::SCHEMA.index_capacity(&Gsi2::SCHEMA), Some(Throughput { read: 20, write: 10 }));
    /// ```
    pub fn index_capacity(&self, index: &IndexSchema) -> Option<Throughput> {
        match (index.kind, self.billing) {
            (IndexKind::Global, Billing::Provisioned(table)) => {
                Some(index.capacity.unwrap_or(table))
            }
            _ => None,
        }
    }

    /// Every distinct attribute of the multi-attribute indexes
    /// ([`multi_key_indexes`](Self::multi_key_indexes)) with its type, in
    /// declaration order: the typed `AttributeDefinitions` a CreateTable
    /// request adds to the string [`key_attributes`](Self::key_attributes).
    ///
    /// ```
    /// ddb_entity::table! {
    ///     /// Scores of a tournament.
    ///     pub struct Games {
    ///         partition_key: "PK",
    ///         sort_key: "SK",
    ///         multi_key_indexes: {
    ///             /// Per tournament, by round.
    ///             pub ByRound = "ByRound" { partition_key: ["tournament": S], sort_key: ["round": N] },
    ///             /// Per tournament.
    ///             pub ByTournament = "ByTournament" { partition_key: ["tournament": S] },
    ///         },
    ///     }
    /// }
    /// use ddb_entity::{KeyAttributeType, Table};
    /// let attributes = Games::SCHEMA.multi_key_attributes();
    /// assert_eq!(attributes.len(), 2);
    /// assert_eq!(attributes[1].ty, KeyAttributeType::N);
    /// ```
    pub fn multi_key_attributes(&self) -> Vec<KeyAttribute> {
        let mut distinct: Vec<KeyAttribute> = Vec::new();
        for attribute in self.multi_key_indexes.iter().flat_map(|i| i.attributes()) {
            if !distinct.iter().any(|a| a.name == attribute.name) {
                distinct.push(*attribute);
            }
        }
        distinct
    }

    /// Every distinct key attribute of the table and its indexes, in
    /// declaration order (table, global indexes, local indexes): the
    /// `AttributeDefinitions` of a CreateTable request.
    ///
    /// See [`Table`'s example](Table#example).
    pub fn key_attributes(&self) -> Vec<&'static str> {
        let all = std::iter::once(self.primary)
            .chain(self.all_indexes().map(|index| index.keys))
            .flat_map(|keys| std::iter::once(keys.partition_key).chain(keys.sort_key));
        let mut distinct = Vec::new();
        for name in all {
            if !distinct.contains(&name) {
                distinct.push(name);
            }
        }
        distinct
    }
}

/// A table shape, implemented by [`table!`](crate::table!).
///
/// # Example
///
/// A table's declaration read back through its schema and its indexes'
/// traits (the schema types' fields and methods link here):
///
/// ```
/// use ddb_entity::{
///     Index, IndexKind, KeyAttributeType, MultiKeyIndex, Primary, Projection, QueryIndex, Table,
/// };
///
/// ddb_entity::table! {
///     /// Orders, by id through GSI1, by total locally, by round through a multi-key index.
///     pub struct App {
///         partition_key: "PK",
///         sort_key: "SK",
///         indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } },
///         local_indexes: {
///             /// By total, keys only.
///             pub ByTotal = "ByTotal" { sort_key: "total", projection: keys_only },
///         },
///         multi_key_indexes: {
///             /// Per tournament, by round.
///             pub ByRound = "ByRound" { partition_key: ["tournament": S], sort_key: ["round": N] },
///         },
///     }
/// }
///
/// let schema = App::SCHEMA;
/// assert_eq!((schema.primary.partition_key, schema.primary.sort_key), ("PK", Some("SK")));
/// let names: Vec<_> = schema.all_indexes().map(|index| index.name).collect();
/// assert_eq!(names, ["GSI1", "ByTotal"]); // global ones, then local ones
/// assert_eq!(schema.key_attributes(), ["PK", "SK", "GSI1PK", "GSI1SK", "total"]);
///
/// let gsi = <Gsi1 as Index>::SCHEMA;
/// assert_eq!((gsi.kind, gsi.projection.as_str(), gsi.capacity), (IndexKind::Global, "ALL", None));
/// let local = <ByTotal as Index>::SCHEMA;
/// assert_eq!((local.kind, local.projection), (IndexKind::Local, Projection::KeysOnly));
/// assert!(local.projection.non_key_attributes().is_empty());
///
/// let multi = <ByRound as MultiKeyIndex>::SCHEMA;
/// let attributes: Vec<_> = multi.attributes().map(|a| (a.name, a.ty.as_str())).collect();
/// assert_eq!(attributes, [("tournament", "S"), ("round", "N")]);
/// assert_eq!(multi.sort_key[0].ty, KeyAttributeType::N);
///
/// // What a query reads: the table (`Primary`) or an index.
/// assert_eq!(<Primary<App> as QueryIndex>::INDEX_NAME, None);
/// assert_eq!(<Gsi1 as QueryIndex>::INDEX_NAME, Some("GSI1"));
/// assert_eq!(<Gsi1 as QueryIndex>::KEYS.sort_key, Some("GSI1SK"));
/// fn table_of<I: QueryIndex>() -> &'static str { <I::Table as Table>::SCHEMA.primary.partition_key }
/// assert_eq!(table_of::<Gsi1>(), "PK");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a table declared with `table!`",
    label = "not a table",
    note = "`table = …` names the struct of a `ddb_entity::table! {{ pub struct App {{ … }} }}` declaration; an index declared inside one is named by `index = …`"
)]
pub trait Table: 'static {
    /// The key attributes, type attribute and indexes.
    ///
    /// See [`Table`'s example](Table#example).
    const SCHEMA: TableSchema;
}

/// A secondary index of table [`Index::Table`], implemented by
/// [`table!`](crate::table!). Entities name a global one to fill its key
/// attributes; a local one ([`LocalIndex`]) they fill with a field.
///
/// ```
/// use ddb_entity::{Index, Table};
///
/// ddb_entity::table! {
///     pub struct App {
///         partition_key: "PK",
///         sort_key: "SK",
///         indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } },
///     }
/// }
///
/// /// The name of any index of `App`.
/// fn name_of<I: Index<Table = App>>() -> &'static str { I::SCHEMA.name }
/// assert_eq!(name_of::<Gsi1>(), "GSI1");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an index declared with `table!`",
    label = "not an index",
    note = "declare it in the `indexes: {{ … }}` block of your `table!` definition"
)]
pub trait Index: 'static {
    /// The table the index belongs to.
    ///
    /// See [`Table`'s example](Table#example).
    type Table: Table;
    /// The index's name, key attributes, projection and capacity.
    ///
    /// See [`Table`'s example](Table#example).
    const SCHEMA: IndexSchema;
}

/// A global secondary index keyed by several attributes of the entities
/// themselves, implemented by [`table!`](crate::table!) (its
/// `multi_key_indexes: { … }` block). Queried with
/// [`Db::query_multi`](crate::db::Db::query_multi).
///
/// ```
/// use ddb_entity::MultiKeyIndex;
///
/// ddb_entity::table! {
///     pub struct App {
///         partition_key: "PK",
///         sort_key: "SK",
///         multi_key_indexes: {
///             pub ByRound = "ByRound" { partition_key: ["tournament": S], sort_key: ["round": N] },
///         },
///     }
/// }
///
/// fn partition_attributes<I: MultiKeyIndex>() -> Vec<&'static str> {
///     I::SCHEMA.partition_key.iter().map(|a| a.name).collect()
/// }
/// assert_eq!(partition_attributes::<ByRound>(), ["tournament"]);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a multi-attribute index declared with `table!`",
    label = "not a multi-attribute index",
    note = "declare it in the `multi_key_indexes: {{ … }}` block of your `table!` definition"
)]
pub trait MultiKeyIndex: 'static {
    /// The table the index belongs to.
    ///
    /// See [`Table`'s example](Table#example).
    type Table: Table;
    /// The index's name and key attributes.
    ///
    /// See [`Table`'s example](Table#example).
    const SCHEMA: MultiKeyIndexSchema;
}

/// A local secondary index, declared in the `local_indexes` block of
/// [`table!`](crate::table!): the table's partition key with another sort
/// key attribute, which an entity fills with a field of that name (a
/// string, as every key attribute the library declares). A partition of
/// the table is a partition of its local indexes:
///
/// ```
/// use ddb_entity::{Entity, Partition};
/// use serde::{Deserialize, Serialize};
///
/// ddb_entity::table! {
///     /// Orders under their customer, also by status.
///     pub struct App {
///         partition_key: "PK",
///         sort_key: "SK",
///         local_indexes: {
///             /// A customer's orders by status.
///             pub ByStatus = "ByStatus" { sort_key: "status" },
///         },
///     }
/// }
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}")]
/// struct Order { customer_id: u64, order_id: u64, status: String }
///
/// let by_status: Partition<ByStatus> = Order::partition(42)?.local();
/// assert_eq!(by_status.as_str(), "CUST#42");
/// # Ok::<(), ddb_entity::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a local index declared with `table!`",
    label = "not a local index",
    note = "declare it in the `local_indexes: {{ … }}` block of your `table!` definition"
)]
pub trait LocalIndex: Index {}

/// Something a Query can run on: the table's primary key ([`Primary`]) or
/// one of its secondary indexes. Key values ([`Partition`](crate::entity::Partition),
/// [`SortKey`](crate::entity::SortKey)) are typed by it, so a partition of one index
/// can never be sent to another.
///
/// ```
/// use ddb_entity::{Primary, QueryIndex};
///
/// ddb_entity::table! {
///     pub struct App {
///         partition_key: "PK",
///         sort_key: "SK",
///         indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } },
///     }
/// }
///
/// /// What a Query of `I` names in its request.
/// fn reads<I: QueryIndex>() -> (Option<&'static str>, &'static str) {
///     (I::INDEX_NAME, I::KEYS.partition_key)
/// }
/// assert_eq!(reads::<Primary<App>>(), (None, "PK"));
/// assert_eq!(reads::<Gsi1>(), (Some("GSI1"), "GSI1PK"));
/// ```
pub trait QueryIndex: 'static {
    /// The table.
    ///
    /// See [`Table`'s example](Table#example).
    type Table: Table;
    /// The index name to send, `None` for the table itself.
    ///
    /// See [`Table`'s example](Table#example).
    const INDEX_NAME: Option<&'static str>;
    /// The key attributes.
    ///
    /// See [`Table`'s example](Table#example).
    const KEYS: KeySchema;
}

/// A [`QueryIndex`] with a sort key: only a query on one takes sort-key
/// conditions (`sk_eq`, `sk_between`, …), so a condition on an index
/// without a sort key does not compile. Implemented by [`table!`](crate::table!).
///
/// ```
/// use ddb_entity::{QueryIndex, SortedIndex, SortedTable, Table};
///
/// ddb_entity::table! {
///     /// Sorted, with a sorted index.
///     pub struct App {
///         partition_key: "PK",
///         sort_key: "SK",
///         indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } },
///     }
/// }
///
/// fn sort_key_of<I: SortedIndex>() -> &'static str {
///     I::KEYS.sort_key.expect("a sorted index has a sort key")
/// }
/// fn table_sort_key<T: SortedTable>() -> &'static str {
///     T::SCHEMA.primary.sort_key.expect("a sorted table has a sort key")
/// }
/// assert_eq!(sort_key_of::<Gsi1>(), "GSI1SK");
/// assert_eq!(table_sort_key::<App>(), "SK");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no sort key, so a query on it takes no sort-key condition",
    label = "an index without a sort key",
    note = "drop the sort-key condition, or declare a `sort_key` for the index in `table!`"
)]
pub trait SortedIndex: QueryIndex {}

/// A table whose primary key has a sort key, implemented by
/// [`table!`](crate::table!) when it declares `sort_key`: only a query on
/// such a table takes sort-key conditions.
///
/// ```
/// use ddb_entity::{QueryIndex, SortedIndex, SortedTable, Table};
///
/// ddb_entity::table! {
///     /// Sorted, with a sorted index.
///     pub struct App {
///         partition_key: "PK",
///         sort_key: "SK",
///         indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } },
///     }
/// }
///
/// fn sort_key_of<I: SortedIndex>() -> &'static str {
///     I::KEYS.sort_key.expect("a sorted index has a sort key")
/// }
/// fn table_sort_key<T: SortedTable>() -> &'static str {
///     T::SCHEMA.primary.sort_key.expect("a sorted table has a sort key")
/// }
/// assert_eq!(sort_key_of::<Gsi1>(), "GSI1SK");
/// assert_eq!(table_sort_key::<App>(), "SK");
/// ```
#[diagnostic::on_unimplemented(
    message = "table `{Self}` has no sort key, so a query on it takes no sort-key condition",
    label = "a table without a sort key",
    note = "a partition of a table without a sort key holds one item: drop the sort-key condition, or declare `sort_key` in `table!`"
)]
pub trait SortedTable: Table {}

/// The table's own primary key, as a [`QueryIndex`].
///
/// ```
/// use ddb_entity::{Primary, QueryIndex};
/// ddb_entity::table! {
///     /// The app's table.
///     pub struct App { partition_key: "PK", sort_key: "SK" }
/// }
/// assert_eq!(<Primary<App> as QueryIndex>::INDEX_NAME, None);
/// assert_eq!(<Primary<App> as QueryIndex>::KEYS.partition_key, "PK");
/// ```
pub struct Primary<T>(std::marker::PhantomData<fn() -> T>);

impl<T: Table> QueryIndex for Primary<T> {
    type Table = T;
    const INDEX_NAME: Option<&'static str> = None;
    const KEYS: KeySchema = T::SCHEMA.primary;
}

impl<T: SortedTable> SortedIndex for Primary<T> {}

impl<I: Index> QueryIndex for I {
    type Table = I::Table;
    const INDEX_NAME: Option<&'static str> = Some(I::SCHEMA.name);
    const KEYS: KeySchema = I::SCHEMA.keys;
}
