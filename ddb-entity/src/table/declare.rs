//! `table!`: a table's shape declared once, as types.

/// Declares a single table's shape: a unit struct implementing
/// [`Table`](crate::table::Table), one unit struct per global secondary index
/// implementing [`Index`](crate::table::Index), and one per local secondary index
/// implementing [`LocalIndex`](crate::table::LocalIndex).
///
/// Everything but `partition_key` is optional; the entries come in any
/// order, each at most once:
///
/// | entry | default | what it is |
/// | --- | --- | --- |
/// | `partition_key: "PK"` | required | the partition key attribute |
/// | `sort_key: "SK"` | none | the sort key attribute; a table without one holds one item per partition key |
/// | `type_attribute: "_type"` | `"_type"` | the attribute naming each item's entity type |
/// | `ttl_attribute: "expires_at"` | none | the time-to-live attribute (epoch seconds) |
/// | `token_attribute: "_wt"` | `"_wt"` | the reserved attribute of write tokens (see [`TableSchema::token_attribute`](crate::table::TableSchema::token_attribute)) |
/// | `typed_by: Key` | `Attribute` | how items say their entity: `Attribute`, `Key` (a table designed by hand, no type attribute) or `KeyAndAttribute` (see [`Typing`](crate::table::Typing)) |
/// | `delimiter: '\|'` | `'#'` | the character that joins key segments, for a table designed by hand (see [`key::KEY_DELIMITERS`](crate::key::KEY_DELIMITERS)); every entity's templates are checked against it at compile time |
/// | `write_tokens: false` | `true`, but `false` with `typed_by: Key` | whether writes store write tokens, which make a resent write apply once (see [`Typing::default_write_tokens`](crate::table::Typing::default_write_tokens) for what is lost without) |
/// | `billing: on_demand` or `billing: provisioned { read: 20, write: 10 }` | `on_demand` | how the table is billed |
/// | `indexes: { … }` | none | global secondary indexes, each `Type = "Name" { partition_key: "…", sort_key: "…", projection: …, capacity: { read: …, write: … } }` (all but `partition_key` optional, in any order) |
/// | `local_indexes: { … }` | none | local secondary indexes, each `Type = "Name" { sort_key: "…", projection: … }` |
/// | `multi_key_indexes: { … }` | none | global indexes keyed by 1 to 4 partition and 0 to 4 sort attributes of the entities themselves, each `Type = "Name" { partition_key: ["a": S, …], sort_key: ["b": N, …] }` (types `S`, `N`, `B`; see [`MultiKeyIndexSchema`](crate::table::MultiKeyIndexSchema) and [`Db::query_multi`](crate::db::Db::query_multi)) |
///
/// A projection is `all` (the default: a query of the index returns whole
/// entities), `keys_only`, or `include["attribute", …]`. A global index of
/// a provisioned table has the table's capacity unless it declares its
/// own. A table without a sort key holds one item per partition key (a
/// session store keyed by its token), and a query on it takes no sort-key
/// condition:
///
/// ```
/// ddb_entity::table! {
///     /// Sessions, keyed by their token alone.
///     pub struct Sessions {
///         partition_key: "session_token",
///         indexes: {
///             /// Every session of a user.
///             pub UserIndex = "UserIndex" { partition_key: "username" },
///         },
///     }
/// }
/// use ddb_entity::Table;
/// assert_eq!(Sessions::SCHEMA.primary.sort_key, None);
/// ```
///
/// ```
/// ddb_entity::table! {
///     /// An e-commerce table.
///     pub struct App {
///         partition_key: "PK",
///         sort_key: "SK",
///         type_attribute: "_type",
///         ttl_attribute: "expires_at",
///         token_attribute: "_wt",
///         billing: provisioned { read: 20, write: 10 },
///         indexes: {
///             /// Overloaded: orders by id, products by SKU, …
///             pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
///             /// Sparse: only items that have `GSI2PK` are in it; read for
///             /// two attributes only, written as often as the table.
///             pub Gsi2 = "GSI2" {
///                 partition_key: "GSI2PK",
///                 sort_key: "GSI2SK",
///                 projection: include["status", "total_cents"],
///                 capacity: { read: 5, write: 10 },
///             },
///         },
///         local_indexes: {
///             /// A customer's items by the `placed` attribute.
///             pub ByPlaced = "ByPlaced" { sort_key: "placed", projection: keys_only },
///         },
///     }
/// }
///
/// use ddb_entity::{Billing, Index, Projection, Table, Throughput};
/// assert_eq!(App::SCHEMA.primary.partition_key, "PK");
/// assert_eq!(App::SCHEMA.indexes.len(), 2);
/// assert_eq!(<Gsi2 as Index>::SCHEMA.keys.sort_key, Some("GSI2SK"));
/// assert_eq!(<Gsi2 as Index>::SCHEMA.projection, Projection::Include(&["status", "total_cents"]));
/// assert_eq!(App::SCHEMA.billing, Billing::Provisioned(Throughput { read: 20, write: 10 }));
/// assert_eq!(<ByPlaced as Index>::SCHEMA.keys.partition_key, "PK");
/// ```
///
/// `multi_key_indexes` declares global indexes whose partition key is 1 to
/// 4 and sort key 0 to 4 of the entities' own attributes, each with its
/// type (`S`, `N` or `B`): see [`MultiKeyIndexSchema`](crate::table::MultiKeyIndexSchema) and
/// [`Db::query_multi`](crate::db::Db::query_multi).
///
/// ```
/// ddb_entity::table! {
///     /// Scores of a tournament.
///     pub struct Games {
///         partition_key: "PK",
///         sort_key: "SK",
///         multi_key_indexes: {
///             /// Per tournament and region, by round then score.
///             pub ByRound = "ByRound" {
///                 partition_key: ["tournament": S, "region": S],
///                 sort_key: ["round": N, "score": N],
///             },
///         },
///     }
/// }
/// use ddb_entity::{KeyAttributeType, MultiKeyIndex, Table};
/// let index = <ByRound as MultiKeyIndex>::SCHEMA;
/// assert_eq!(index.partition_key.len(), 2);
/// assert_eq!(index.sort_key[1].name, "score");
/// assert_eq!(index.sort_key[1].ty, KeyAttributeType::N);
/// assert!(Games::SCHEMA.validate().is_ok());
/// ```
///
/// A table designed by hand may join its key segments with another
/// character than `#` (`TENANT|acme`): declare it with `delimiter`, and
/// write the entities' templates with it. The declaration is the one
/// truth: a template of such a table that joins segments with `#` is a
/// compile error at the template, saying how to write it.
///
/// ```
/// use ddb_entity::{Entity, Table};
/// use serde::{Deserialize, Serialize};
///
/// ddb_entity::table! {
///     /// Another service's table: `TENANT|acme`, `EVENT|0000000007|e-1`.
///     pub struct Events { partition_key: "pk", sort_key: "sk", typed_by: Key, delimiter: '|' }
/// }
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = Events, type = "EVENT", pk = "TENANT|{tenant}", sk = "EVENT|{seq}|{id}")]
/// struct Event { tenant: String, seq: u32, id: String }
///
/// assert_eq!(Events::SCHEMA.delimiter, '|');
/// let key = Event::key("acme", 7, "e|1")?; // the last hole takes the rest
/// assert_eq!((key.partition(), key.sort()), ("TENANT|acme", "EVENT|0000000007|e|1"));
/// # Ok::<(), ddb_entity::Error>(())
/// ```
///
/// ```compile_fail
/// # use ddb_entity::Entity;
/// # use serde::{Deserialize, Serialize};
/// ddb_entity::table! { pub struct Events { partition_key: "pk", sort_key: "sk", typed_by: Key, delimiter: '|' } }
/// // error: table `Events` joins its key segments with `|` (its `delimiter` in
/// // `table!`), and this template joins them with `#`: write "TENANT|{tenant}"
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = Events, pk = "TENANT#{tenant}", sk = "EVENT")]
/// struct Event { tenant: String }
/// ```
///
/// Every delimiter but `#` sorts above some bytes of a string (`|` is 0x7C,
/// above every letter: `"a|…"` would sort after `"ab|…"`), so a string
/// hole cannot be followed by more of such a key — it must be the last —
/// while fixed-length holes (integers, dates, ids) can:
///
/// ```compile_fail
/// # use ddb_entity::Entity;
/// # use serde::{Deserialize, Serialize};
/// ddb_entity::table! { pub struct Events { partition_key: "pk", sort_key: "sk", typed_by: Key, delimiter: '|' } }
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = Events, type = "EVENT", pk = "TENANT|{tenant}", sk = "EVENT|{id}|{seq}")]
/// struct Event { tenant: String, seq: u32, id: String }
/// ```
///
/// A delimiter is one of [`key::KEY_DELIMITERS`](crate::key::KEY_DELIMITERS):
///
/// ```compile_fail
/// ddb_entity::table! { pub struct Dashed { partition_key: "pk", sort_key: "sk", delimiter: '-' } }
/// ```
///
/// The order of the entries is free, in the table, its indexes and a
/// capacity:
///
/// ```
/// ddb_entity::table! {
///     pub struct Legacy {
///         delimiter: ':',
///         write_tokens: false,
///         sort_key: "sk",
///         partition_key: "pk",
///         billing: provisioned { write: 10, read: 20 },
///         indexes: { pub ByOwner = "ByOwner" { sort_key: "at", partition_key: "owner" } },
///     }
/// }
/// use ddb_entity::{Index, Table};
/// assert_eq!(Legacy::SCHEMA.primary.partition_key, "pk");
/// assert_eq!((Legacy::SCHEMA.delimiter, Legacy::SCHEMA.write_tokens), (':', false));
/// assert_eq!(<ByOwner as Index>::SCHEMA.keys.sort_key, Some("at"));
/// ```
///
/// Each mistake is one compile error at the token written, saying what to
/// write: a misspelt entry (`sort_kye: "SK"`: did you mean `sort_key`?),
/// an entry given twice, a misspelt projection, billing or typing:
///
/// ```compile_fail
/// ddb_entity::table! {
///     pub struct App {
///         partition_key: "PK",
///         indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", projection: keys } },
///     }
/// }
/// ```
///
/// ```compile_fail
/// ddb_entity::table! { pub struct App { partition_key: "PK", sort_kye: "SK" } }
/// ```
#[macro_export]
macro_rules! table {
    ($($declaration:tt)*) => {
        $crate::__table! { [$crate] $($declaration)* }
    };
}

#[cfg(test)]
mod tests {
    use crate::Table;

    /// `table!` checks `delimiter` itself (to report at the literal), with
    /// its own copy of [`KEY_DELIMITERS`](crate::key::KEY_DELIMITERS): a
    /// table declares each of them, and they are the whole list.
    #[test]
    fn table_accepts_every_key_delimiter() {
        macro_rules! tables {
            ($($table:ident $delimiter:literal),*) => {{
                $(crate::table! { struct $table { partition_key: "PK", delimiter: $delimiter } })*
                [$($table::SCHEMA.delimiter),*]
            }};
        }
        let declared = tables!(A '#', B '|', C ':', D '_', E '/', F '~', G ';', H ',');
        assert_eq!(declared, crate::key::KEY_DELIMITERS);
    }
}
