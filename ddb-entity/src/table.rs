//! Table definitions: key attribute names and generic, overloadable indexes.
//!
//! A single-table design names its key attributes generically (`PK`, `SK`,
//! `GSI1PK`, …) because every entity type stores its own meaning in them.
//! The *shape* of the table is therefore a compile-time constant, declared
//! once with [`table!`](crate::table!), while the table's *name* is a runtime
//! value given to [`Db::new`](crate::Db::new) (it differs per stage, per test).

use crate::error::{Repr, Result};

/// The key attributes of the table or of one index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeySchema {
    /// The partition (HASH) key attribute, e.g. `"PK"`.
    pub partition_key: &'static str,
    /// The sort (RANGE) key attribute, e.g. `"SK"`, if the index has one.
    pub sort_key: Option<&'static str>,
}

/// A global secondary index: its name and key attributes. Every attribute is
/// projected (`ALL`), so a query on the index returns whole entities.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IndexSchema {
    /// The index name, e.g. `"GSI1"`.
    pub name: &'static str,
    /// The index's key attributes, e.g. `GSI1PK` / `GSI1SK`.
    pub keys: KeySchema,
}

/// The scalar type of a key attribute that holds an entity's field as it
/// is (not a string key the library encodes): how CreateTable defines it.
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
/// with [`Db::query_multi`](crate::Db::query_multi). Every attribute is
/// projected (`ALL`).
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
    pub fn attributes(&self) -> impl Iterator<Item = &'static KeyAttribute> + use<> {
        self.partition_key.iter().chain(self.sort_key.iter())
    }
}

/// The shape of a single table: primary key, type attribute and indexes.
///
/// Declare it with [`table!`](crate::table!) rather than by hand.
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
    /// overwritten by each such write (so it never grows), never part of an
    /// entity's body. It is how a write resent after a lost answer
    /// recognises that the item stored is its own (see the crate docs,
    /// "Retries and exactly-once writes").
    pub token_attribute: &'static str,
    /// The global secondary indexes, usually overloaded (`GSI1`, `GSI2`, …).
    pub indexes: &'static [IndexSchema],
    /// The global secondary indexes keyed by several of the entities' own
    /// attributes (see [`MultiKeyIndexSchema`]).
    pub multi_key_indexes: &'static [MultiKeyIndexSchema],
}

/// How the items of a table say which entity they are, declared with
/// `typed_by` in [`table!`](crate::table!).
///
/// A table written by this library from the start stores a type attribute
/// on every item ([`Typing::Attribute`]). A table designed by hand and
/// written by other code usually has none: its keys are its types
/// (`PK=USER#…`, `SK=ORDER#…`). Declaring [`Typing::Key`] adopts such a
/// table as it is: reads recognise an entity by a full parse of its stored
/// keys against the entity's templates, collections route each item to the
/// one member whose templates its keys match, and writes add no type
/// attribute.
///
/// ```
/// use ddb_entity::{Table, Typing};
/// ddb_entity::table! {
///     /// A table designed by hand, with no type attribute.
///     pub struct Legacy { partition_key: "PK", sort_key: "SK", typed_by: Key }
/// }
/// assert_eq!(Legacy::SCHEMA.typing, Typing::Key);
/// assert!(!Legacy::SCHEMA.typing.writes_type_attribute());
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Typing {
    /// Every item stores its entity type in the table's type attribute;
    /// reads and collections go by it.
    #[default]
    Attribute,
    /// Items carry no type attribute: an item is the entity whose key
    /// templates its stored keys parse against. Writes add no type
    /// attribute, and every typed read parses the stored keys.
    Key,
    /// Items written by this library store the type attribute, items
    /// written by other code may not: an item with a type attribute goes
    /// by it, one without by its keys. For a table being adopted while
    /// other writers still run.
    KeyAndAttribute,
}

impl Typing {
    /// Whether writes store the type attribute.
    pub const fn writes_type_attribute(self) -> bool {
        !matches!(self, Typing::Key)
    }

    /// Whether an item without a type attribute is recognised by its keys.
    pub const fn reads_keys(self) -> bool {
        !matches!(self, Typing::Attribute)
    }
}

impl TableSchema {
    /// The index named `name`, if the table declares it.
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
    ///     }
    /// }
    /// use ddb_entity::Table;
    /// assert_eq!(App::SCHEMA.index("GSI1").unwrap().keys.partition_key, "GSI1PK");
    /// assert!(App::SCHEMA.index("GSI9").is_none());
    /// ```
    pub fn index(&self, name: &str) -> Option<&IndexSchema> {
        self.indexes.iter().find(|index| index.name == name)
    }

    /// Every distinct key attribute of the table and its indexes, in
    /// declaration order: the `AttributeDefinitions` of a CreateTable request.
    pub fn key_attributes(&self) -> Vec<&'static str> {
        let all = std::iter::once(self.primary)
            .chain(self.indexes.iter().map(|index| index.keys))
            .flat_map(|keys| std::iter::once(keys.partition_key).chain(keys.sort_key));
        let mut distinct = Vec::new();
        for name in all {
            if !distinct.contains(&name) {
                distinct.push(name);
            }
        }
        distinct
    }

    /// Checks what DynamoDB would reject, so a bad declaration fails with a
    /// clear message ([`ErrorKind::InvalidSchema`](crate::ErrorKind::InvalidSchema))
    /// instead of a `ValidationException`.
    pub fn validate(&self) -> Result<()> {
        self.check()
            .map_err(|detail| Repr::InvalidSchema { detail }.into())
    }

    /// A multi-attribute index: 1 to 4 partition and 0 to 4 sort
    /// attributes, each named once, none of them an attribute the library
    /// owns (its string keys, the type, the TTL, the write token), and
    /// each of one type wherever another index names it.
    fn check_multi_key(&self, index: &MultiKeyIndexSchema) -> std::result::Result<(), String> {
        let name = index.name;
        if !(1..=4).contains(&index.partition_key.len()) || index.sort_key.len() > 4 {
            return Err(format!(
                "index `{name}` has {} partition and {} sort attributes; DynamoDB takes 1 to 4 and 0 to 4",
                index.partition_key.len(),
                index.sort_key.len()
            ));
        }
        let mut seen: Vec<&str> = Vec::new();
        for attribute in index.attributes() {
            let attr = attribute.name;
            if attr.is_empty() {
                return Err(format!("index `{name}` has an empty attribute name"));
            }
            if seen.contains(&attr) {
                return Err(format!("index `{name}` names `{attr}` twice"));
            }
            seen.push(attr);
            let owned = self.key_attributes().contains(&attr)
                || attr == self.type_attribute
                || attr == self.token_attribute
                || self.ttl_attribute == Some(attr);
            if owned {
                return Err(format!(
                    "index `{name}` is keyed by `{attr}`, an attribute the library writes (a string key, the type, the TTL or the write token); key it by entity fields"
                ));
            }
            let other = self
                .multi_key_indexes
                .iter()
                .flat_map(|i| i.attributes())
                .find(|a| a.name == attr && a.ty != attribute.ty);
            if let Some(other) = other {
                return Err(format!(
                    "`{attr}` is declared `{}` in index `{name}` and `{}` in another; an attribute has one type",
                    attribute.ty.as_str(),
                    other.ty.as_str()
                ));
            }
        }
        Ok(())
    }

    fn check(&self) -> std::result::Result<(), String> {
        let mut index_names: Vec<&str> = Vec::new();
        let names = self
            .indexes
            .iter()
            .map(|i| i.name)
            .chain(self.multi_key_indexes.iter().map(|i| i.name));
        for name in names {
            if name.len() < 3 || name.len() > 255 {
                return Err(format!(
                    "index name `{name}` must be 3 to 255 characters long"
                ));
            }
            if index_names.contains(&name) {
                return Err(format!("index `{name}` is declared twice"));
            }
            index_names.push(name);
        }
        let count = self.indexes.len() + self.multi_key_indexes.len();
        if count > 20 {
            return Err(format!(
                "{count} global secondary indexes declared; DynamoDB allows 20 by default"
            ));
        }
        for index in self.multi_key_indexes {
            self.check_multi_key(index)?;
        }
        let keys = std::iter::once(self.primary).chain(self.indexes.iter().map(|i| i.keys));
        for key in keys {
            if Some(key.partition_key) == key.sort_key {
                return Err(format!(
                    "`{}` is both the partition and the sort key of one index",
                    key.partition_key
                ));
            }
        }
        for name in self.key_attributes() {
            if name.is_empty() {
                return Err("a key attribute name is empty".into());
            }
            if name == self.type_attribute {
                return Err(format!(
                    "the type attribute `{name}` is also a key attribute; give it its own name"
                ));
            }
        }
        if let Some(ttl) = self.ttl_attribute
            && (ttl.is_empty()
                || self.key_attributes().contains(&ttl)
                || ttl == self.type_attribute)
        {
            return Err(format!(
                "the TTL attribute `{ttl}` must be a non-empty name of its own, not a key or the type attribute"
            ));
        }
        if self.type_attribute.is_empty() {
            return Err("the type attribute name is empty".into());
        }
        let token = self.token_attribute;
        if token.is_empty()
            || self.key_attributes().contains(&token)
            || token == self.type_attribute
            || self.ttl_attribute == Some(token)
        {
            return Err(format!(
                "the write-token attribute `{token}` must be a non-empty name of its own, not a key, the type or the TTL attribute"
            ));
        }
        Ok(())
    }
}

/// Checks a table name against DynamoDB's rules (3 to 255 characters of
/// `a-z A-Z 0-9 _ - .`), so a bad name fails before any request. Some
/// emulators accept names that DynamoDB refuses; this keeps them honest.
///
/// ```
/// assert!(ddb_entity::validate_table_name("app-prod_v2.1").is_ok());
/// let err = ddb_entity::validate_table_name("my table").unwrap_err();
/// assert_eq!(err.kind(), ddb_entity::ErrorKind::InvalidSchema);
/// ```
pub fn validate_table_name(name: &str) -> Result<()> {
    table_name_problem(name).map_or(Ok(()), |detail| Err(Repr::InvalidSchema { detail }.into()))
}

fn table_name_problem(name: &str) -> Option<String> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.');
    if !(3..=255).contains(&name.len()) {
        return Some(format!(
            "table name `{name}` has {} characters; DynamoDB needs 3 to 255",
            name.len()
        ));
    }
    let bad = name.chars().find(|&c| !allowed(c))?;
    Some(format!(
        "table name `{name}` contains {bad:?}; DynamoDB allows only a-z, A-Z, 0-9, `_`, `-` and `.`"
    ))
}

/// A table shape, implemented by [`table!`](crate::table!).
pub trait Table: 'static {
    /// The key attributes, type attribute and indexes.
    const SCHEMA: TableSchema;
}

/// A global secondary index of table [`Index::Table`], implemented by
/// [`table!`](crate::table!). Entities name it to fill its key attributes.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an index declared with `table!`",
    label = "not an index",
    note = "declare it in the `indexes: {{ … }}` block of your `table!` definition"
)]
pub trait Index: 'static {
    /// The table the index belongs to.
    type Table: Table;
    /// The index's name and key attributes.
    const SCHEMA: IndexSchema;
}

/// A global secondary index keyed by several attributes of the entities
/// themselves, implemented by [`table!`](crate::table!) (its
/// `multi_key_indexes: { … }` block). Queried with
/// [`Db::query_multi`](crate::Db::query_multi).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a multi-attribute index declared with `table!`",
    label = "not a multi-attribute index",
    note = "declare it in the `multi_key_indexes: {{ … }}` block of your `table!` definition"
)]
pub trait MultiKeyIndex: 'static {
    /// The table the index belongs to.
    type Table: Table;
    /// The index's name and key attributes.
    const SCHEMA: MultiKeyIndexSchema;
}

/// Something a Query can run on: the table's primary key ([`Primary`]) or
/// one of its global secondary indexes. Key values ([`Partition`](crate::Partition),
/// [`SortKey`](crate::SortKey)) are typed by it, so a partition of one index
/// can never be sent to another.
pub trait QueryIndex: 'static {
    /// The table.
    type Table: Table;
    /// The index name to send, `None` for the table itself.
    const INDEX_NAME: Option<&'static str>;
    /// The key attributes.
    const KEYS: KeySchema;
}

/// A [`QueryIndex`] with a sort key: only a query on one takes sort-key
/// conditions (`sk_eq`, `sk_between`, …), so a condition on an index
/// without a sort key does not compile. Implemented by [`table!`](crate::table!).
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no sort key, so a query on it takes no sort-key condition",
    label = "an index without a sort key",
    note = "drop the sort-key condition, or declare a `sort_key` for the index in `table!`"
)]
pub trait SortedIndex: QueryIndex {}

/// A table whose primary key has a sort key, implemented by
/// [`table!`](crate::table!) when it declares `sort_key`: only a query on
/// such a table takes sort-key conditions.
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

/// Declares a single table's shape: a unit struct implementing [`Table`] and
/// one unit struct per global secondary index implementing [`Index`].
///
/// `type_attribute` is optional (default `"_type"`), and so are
/// `ttl_attribute` (the table's time-to-live attribute: epoch seconds),
/// `token_attribute` (the reserved attribute of write tokens, default
/// `"_wt"`; see [`TableSchema::token_attribute`]), `typed_by` (`Attribute`,
/// the default, `Key` or `KeyAndAttribute`: see [`Typing`]), the table's `sort_key`
/// and each index's. A table without a sort key holds
/// one item per partition key (a session store keyed by its token), and a
/// query on it takes no sort-key condition:
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
///     /// The e-commerce table of the seed lessons.
///     pub struct App {
///         partition_key: "PK",
///         sort_key: "SK",
///         type_attribute: "_type",
///         ttl_attribute: "expires_at",
///         token_attribute: "_wt",
///         indexes: {
///             /// Overloaded: orders by id, products by SKU, …
///             pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
///             /// Sparse: only items that have `GSI2PK` are in it.
///             pub Gsi2 = "GSI2" { partition_key: "GSI2PK", sort_key: "GSI2SK" },
///         },
///     }
/// }
///
/// use ddb_entity::{Index, Table};
/// assert_eq!(App::SCHEMA.primary.partition_key, "PK");
/// assert_eq!(App::SCHEMA.indexes.len(), 2);
/// assert_eq!(<Gsi2 as Index>::SCHEMA.keys.sort_key, Some("GSI2SK"));
/// ```
///
/// `multi_key_indexes` declares global indexes whose partition key is 1 to
/// 4 and sort key 0 to 4 of the entities' own attributes, each with its
/// type (`S`, `N` or `B`): see [`MultiKeyIndexSchema`] and
/// [`Db::query_multi`](crate::Db::query_multi).
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
            $(, indexes: {
                $(
                    $(#[$index_meta:meta])*
                    $index_vis:vis $index:ident = $index_name:literal {
                        partition_key: $index_pk:literal
                        $(, sort_key: $index_sk:literal)?
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
                indexes: &[$($(<$index as $crate::Index>::SCHEMA),*)?],
                multi_key_indexes: &[$($(<$multi as $crate::MultiKeyIndex>::SCHEMA),*)?],
            };
        }

        $(
            // Only a table declared with a sort key takes sort-key conditions.
            const _: &str = $sk;
            impl $crate::SortedTable for $table {}
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
                };
            }

            $(
                // Only an index declared with a sort key takes sort-key conditions.
                const _: &str = $index_sk;
                impl $crate::SortedIndex for $index {}
            )?
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
