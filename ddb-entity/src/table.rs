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

    fn check(&self) -> std::result::Result<(), String> {
        let mut index_names: Vec<&str> = Vec::new();
        for index in self.indexes {
            if index.name.len() < 3 || index.name.len() > 255 {
                return Err(format!(
                    "index name `{}` must be 3 to 255 characters long",
                    index.name
                ));
            }
            if index_names.contains(&index.name) {
                return Err(format!("index `{}` is declared twice", index.name));
            }
            index_names.push(index.name);
        }
        if self.indexes.len() > 20 {
            return Err(format!(
                "{} global secondary indexes declared; DynamoDB allows 20 by default",
                self.indexes.len()
            ));
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
    };
}
