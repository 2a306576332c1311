//! `table!`: a table's shape declared once, as types.

/// Declares a single table's shape: a unit struct implementing
/// [`Table`](crate::table::Table), one unit struct per global secondary index
/// implementing [`Index`](crate::table::Index), and one per local secondary index
/// implementing [`LocalIndex`](crate::table::LocalIndex).
///
/// Everything but `partition_key` is optional, and written in this order:
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
/// | `indexes: { … }` | none | global secondary indexes, each `Type = "Name" { partition_key: "…", sort_key: "…", projection: …, capacity: { read: …, write: … } }` (all but `partition_key` optional, in that order) |
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
/// A misspelt projection or billing is a compile error saying what to
/// write:
///
/// ```compile_fail
/// ddb_entity::table! {
///     pub struct App {
///         partition_key: "PK",
///         indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", projection: keys } },
///     }
/// }
/// ```
#[macro_export]
macro_rules! table {
    (
        $(#[$meta:meta])*
        $vis:vis struct $table:ident {
            partition_key: $pk:literal
            $(, sort_key: $sk:literal)?
            $(, type_attribute: $type_attr:literal)?
            $(, ttl_attribute: $ttl_attr:literal)?
            $(, token_attribute: $token_attr:literal)?
            $(, typed_by: $typing:ident)?
            $(, write_tokens: $write_tokens:literal)?
            $(, delimiter: $delimiter:literal)?
            $(, billing: $billing:ident $({ $($billing_body:tt)* })?)?
            $(, indexes: {
                $(
                    $(#[$index_meta:meta])*
                    $index_vis:vis $index:ident = $index_name:literal {
                        partition_key: $index_pk:literal
                        $(, sort_key: $index_sk:literal)?
                        $(, projection: $projection:ident $([$($include:literal),* $(,)?])?)?
                        $(, capacity: { $($capacity:tt)* })?
                        $(,)?
                    }
                ),* $(,)?
            })?
            $(, local_indexes: {
                $(
                    $(#[$local_meta:meta])*
                    $local_vis:vis $local:ident = $local_name:literal {
                        sort_key: $local_sk:literal
                        $(, projection: $local_projection:ident $([$($local_include:literal),* $(,)?])?)?
                        $(,)?
                    }
                ),* $(,)?
            })?
            $(, multi_key_indexes: {
                $(
                    $(#[$multi_meta:meta])*
                    $multi_vis:vis $multi:ident = $multi_name:literal {
                        partition_key: [$($multi_pk:literal : $multi_pk_ty:ident),+ $(,)?]
                        $(, sort_key: [$($multi_sk:literal : $multi_sk_ty:ident),+ $(,)?])?
                        $(,)?
                    }
                ),* $(,)?
            })?
            $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
        $vis struct $table;

        impl $crate::Table for $table {
            const SCHEMA: $crate::TableSchema = $crate::TableSchema {
                primary: $crate::KeySchema {
                    partition_key: $pk,
                    sort_key: [$(::core::option::Option::Some($sk),)? ::core::option::Option::None][0],
                },
                // The first element is the caller's, when given.
                type_attribute: [$($type_attr,)? "_type"][0],
                ttl_attribute: [$(::core::option::Option::Some($ttl_attr),)? ::core::option::Option::None][0],
                token_attribute: [$($token_attr,)? "_wt"][0],
                typing: [$($crate::Typing::$typing,)? $crate::Typing::Attribute][0],
                // Declared, or else what the typing implies.
                write_tokens: [
                    $($write_tokens,)?
                    [$($crate::Typing::$typing,)? $crate::Typing::Attribute][0].default_write_tokens()
                ][0],
                delimiter: [$($delimiter,)? '#'][0],
                billing: $crate::__table_billing!($($billing $({ $($billing_body)* })?)?),
                indexes: &[$($(<$index as $crate::Index>::SCHEMA),*)?],
                local_indexes: &[$($(<$local as $crate::Index>::SCHEMA),*)?],
                multi_key_indexes: &[$($(<$multi as $crate::MultiKeyIndex>::SCHEMA),*)?],
            };
        }

        $(
            // Only a table declared with a sort key takes sort-key conditions.
            const _: &str = $sk;
            impl $crate::SortedTable for $table {}
        )?

        $(
            const _: () = ::core::assert!(
                $crate::key::is_key_delimiter($delimiter),
                "a key delimiter is one of '#', '|', ':', '_', '/', '~', ';', ',' (see ddb_entity::key::KEY_DELIMITERS): letters and digits are text, braces template syntax, `$` the string escape, and `-` `.` appear inside the library's own encodings"
            );
        )?

        $($(
            $(#[$index_meta])*
            #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
            $index_vis struct $index;

            impl $crate::Index for $index {
                type Table = $table;
                const SCHEMA: $crate::IndexSchema = $crate::IndexSchema {
                    name: $index_name,
                    keys: $crate::KeySchema {
                        partition_key: $index_pk,
                        sort_key: [$(::core::option::Option::Some($index_sk),)? ::core::option::Option::None][0],
                    },
                    kind: $crate::IndexKind::Global,
                    projection: $crate::__table_projection!($($projection $([$($include),*])?)?),
                    capacity: [$(::core::option::Option::Some($crate::__table_capacity!({ $($capacity)* })),)? ::core::option::Option::None][0],
                };
            }

            $(
                // Only an index declared with a sort key takes sort-key conditions.
                const _: &str = $index_sk;
                impl $crate::SortedIndex for $index {}
            )?
        )*)?

        $($(
            $(#[$local_meta])*
            #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
            $local_vis struct $local;

            impl $crate::Index for $local {
                type Table = $table;
                const SCHEMA: $crate::IndexSchema = $crate::IndexSchema {
                    name: $local_name,
                    keys: $crate::KeySchema {
                        partition_key: $pk,
                        sort_key: ::core::option::Option::Some($local_sk),
                    },
                    kind: $crate::IndexKind::Local,
                    projection: $crate::__table_projection!($($local_projection $([$($local_include),*])?)?),
                    capacity: ::core::option::Option::None,
                };
            }

            impl $crate::SortedIndex for $local {}
            impl $crate::LocalIndex for $local {}
        )*)?

        $($(
            $(#[$multi_meta])*
            #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
            $multi_vis struct $multi;

            impl $crate::MultiKeyIndex for $multi {
                type Table = $table;
                const SCHEMA: $crate::MultiKeyIndexSchema = $crate::MultiKeyIndexSchema {
                    name: $multi_name,
                    partition_key: &[$($crate::KeyAttribute {
                        name: $multi_pk,
                        ty: $crate::KeyAttributeType::$multi_pk_ty,
                    }),+],
                    sort_key: &[$($($crate::KeyAttribute {
                        name: $multi_sk,
                        ty: $crate::KeyAttributeType::$multi_sk_ty,
                    }),+)?],
                };
            }
        )*)?
    };
}

/// `table!`'s projections: `all`, `keys_only`, `include["a", …]`.
#[doc(hidden)]
#[macro_export]
macro_rules! __table_projection {
    () => {
        $crate::Projection::All
    };
    (all) => {
        $crate::Projection::All
    };
    (keys_only) => {
        $crate::Projection::KeysOnly
    };
    (include [$($attribute:literal),*]) => {
        $crate::Projection::Include(&[$($attribute),*])
    };
    (include) => {
        ::core::compile_error!(
            "`include` names the attributes it projects: `projection: include[\"status\", \"total_cents\"]`"
        )
    };
    ($other:ident $($rest:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "unknown projection `",
            ::core::stringify!($other),
            "`: write `all`, `keys_only` or `include[\"attribute\", …]`"
        ))
    };
}

/// `table!`'s billing: `on_demand` or `provisioned { read: …, write: … }`.
#[doc(hidden)]
#[macro_export]
macro_rules! __table_billing {
    () => {
        $crate::Billing::OnDemand
    };
    (on_demand) => {
        $crate::Billing::OnDemand
    };
    (provisioned { $($capacity:tt)* }) => {
        $crate::Billing::Provisioned($crate::__table_capacity!({ $($capacity)* }))
    };
    (provisioned) => {
        ::core::compile_error!(
            "a provisioned table states its capacity: `billing: provisioned { read: 5, write: 5 }`"
        )
    };
    ($other:ident $($rest:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "unknown billing `",
            ::core::stringify!($other),
            "`: write `on_demand` or `provisioned { read: 5, write: 5 }`"
        ))
    };
}

/// `table!`'s capacities: `{ read: 5, write: 5 }`.
#[doc(hidden)]
#[macro_export]
macro_rules! __table_capacity {
    ({ read: $read:literal, write: $write:literal $(,)? }) => {
        $crate::Throughput {
            read: $read,
            write: $write,
        }
    };
    ({ $($other:tt)* }) => {
        ::core::compile_error!(
            "a capacity is `{ read: 5, write: 5 }`: read units, then write units"
        )
    };
}
