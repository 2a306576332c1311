//! What generated code calls. Not public API: no semver promise.
//!
//! Generated code reaches the runtime through the public API and this
//! module only; it never constructs an [`Error`](crate::error::Error) itself (the
//! helpers below do), so errors stay free to change.

pub use serde;

mod checks;
pub use checks::{ConstMessage, assert_sorts, delimiter_mismatch, followed_hole};

pub use crate::codec::ItemTree;
pub use crate::collection::{has_duplicate_type, same_key_shape};

/// Decodes an item of a typed read's response, parsed from its bytes and
/// routed to `E` (what `#[derive(Collection)]`'s `push_tree` calls).
pub fn from_tree<E: crate::entity::Entity>(tree: ItemTree<'_>) -> crate::error::Result<E> {
    crate::entity::convert::from_tree(tree)
}
pub use crate::entity::{
    Changes, EntityHooks, InARange, IndexChange, KeyArgPart, KeyWriter, Lookup, PartitionPart,
    RangeBound, ShardInputs, SortKeyBuilder, Stamp, StoredBody, key_arg,
};
pub use crate::key::{DecodeKeyPart, KeyBuf, KeyError, KeyPart, Padded, PaddedInt, PrefixOf};

pub use crate::codec::KeyFieldValue;
pub use aws_sdk_dynamodb::types::AttributeValue;
pub use std::string::String;
pub use std::time::SystemTime;
pub use std::vec::Vec;

/// Short names for generated code (`__p::Some`, `__p::str`): a derive
/// cannot rely on the prelude (a user's type may shadow it) and writes
/// them through this module.
pub use core::option::Option::{self, None, Some};
pub use core::primitive::{bool, str, u64, usize};
pub use core::result::Result::{Err, Ok};

use crate::entity::RawKey;
use crate::error::{Error, Repr};
use crate::layout::{EntityLayout, NO_KEY};
use crate::table::{Index, IndexKind, Table, Typing};

/// The identity on types, reached through an array whose length holds a
/// check: generated code names a key type as
/// `Checked<T, { check::<T>() }>` (each check a const fn returning 0),
/// which is `T` when the check passes and an error type, reported once,
/// when it fails.
pub trait KeyType<T: ?Sized> {
    /// `T`.
    type Checked: ?Sized;
}

impl<T: ?Sized> KeyType<T> for [(); 0] {
    type Checked = T;
}

/// `T`, once the check `CHECK` (a const fn call returning 0) passed: see
/// [`KeyType`].
pub type Checked<T, const CHECK: usize> = <[(); CHECK] as KeyType<T>>::Checked;

/// `value` as its checked key type (see [`KeyType`]).
pub fn checked<T: ?Sized>(value: &T) -> &T {
    value
}

/// `EntityHooks::key_matches` of a derived entity: whether stored key
/// values parse with its key reader `read` (the sort value `""` for an
/// entity without a sort key). An item without a sort value never parses
/// as an entity with a sort key.
pub fn key_matches<T>(
    partition: &str,
    sort: Option<&str>,
    read: fn(&str, &str) -> Result<T, KeyError>,
) -> bool {
    sort.is_some_and(|sort| read(partition, sort).is_ok())
}

/// `Debug` of a derived entity's `{Entity}Fields` struct (`name`): each
/// stored field of `layout`, written as its [`Field`](crate::Field) writes
/// itself: what `#[derive(Debug)]` writes, without a body per entity.
pub fn debug_fields(
    f: &mut std::fmt::Formatter<'_>,
    name: &str,
    layout: &EntityLayout,
) -> std::fmt::Result {
    let mut out = f.debug_struct(name);
    for field in layout.fields {
        out.field(
            field.name,
            &crate::Field::<(), (), ()>::new(field.name, field.attribute),
        );
    }
    out.finish()
}

/// An update changes a field of `index`'s key template without the
/// template's other field `field`.
pub fn missing_key_field(entity: &'static str, index: &'static str, field: &'static str) -> Error {
    Repr::MissingKeyField {
        entity,
        index,
        field,
    }
    .into()
}

/// A collection's `Option<E>` field met a second `E`.
pub fn more_than_one(collection: &'static str, entity: &'static str) -> Error {
    Repr::MoreThanOne { collection, entity }.into()
}

/// A primary-key field's value as its entity's body stores it (an
/// integer kept as the integer, for a read to hand it to the field as is).
pub fn key_field_value<T: serde::Serialize + ?Sized>(
    entity: &'static str,
    value: &T,
) -> Result<KeyFieldValue, Error> {
    KeyFieldValue::of(value).map_err(|source| {
        Repr::Encode {
            entity,
            source: Box::new(source),
        }
        .into()
    })
}

/// The list `key_fields` fills, room for `capacity` fields: the one the
/// last read on this thread handed back once decoded, if any (a read
/// restores key fields for every item it decodes).
pub fn key_fields_buffer(capacity: usize) -> Vec<(&'static str, KeyFieldValue)> {
    crate::entity::spare_key_fields(capacity)
}

/// `EntityHooks::key_field_is` of a derived entity: whether its
/// primary-key field at `position` (in `key_fields`' order, `fields` the
/// entity's own) is `value`, as read back from its stored key.
pub fn key_field_is(fields: &[&dyn KeyFieldIs], position: usize, value: &KeyFieldValue) -> bool {
    fields.get(position).is_some_and(|field| field.is(value))
}

/// A primary-key field of a decoded value, to compare with the value its
/// stored key was read back as (see [`key_field_is`]).
pub trait KeyFieldIs {
    /// Whether the field is `value`; only for a key type whose parse is
    /// canonical ([`KeyPart::CANONICAL`]): then it proves the field's part
    /// of the stored key. Always false for any other type.
    fn is(&self, value: &KeyFieldValue) -> bool;
}

impl<K: KeyPart + serde::Serialize> KeyFieldIs for K {
    fn is(&self, value: &KeyFieldValue) -> bool {
        // Integers compared as such, without the derived comparison's call.
        K::CANONICAL
            && match (KeyFieldValue::of(self), value) {
                (Ok(KeyFieldValue::U64(field)), KeyFieldValue::U64(value)) => field == *value,
                (Ok(KeyFieldValue::I64(field)), KeyFieldValue::I64(value)) => field == *value,
                (Ok(field), value) => field == *value,
                (Err(_), _) => false,
            }
    }
}

/// Compile-time check that an index's table (`Self`) is the entity's
/// (`T`). A plain identity, not a bound on the index's associated type, so
/// that a mismatch is a missing impl and reads as this message.
#[diagnostic::on_unimplemented(
    message = "this index is declared in table `{Self}`, but the entity is stored in table `{T}`",
    label = "an index of `{Self}`, not of `{T}`",
    note = "only the entity's own table's indexes hold its items: name an index from `indexes: {{ … }}` of `{T}`'s `table!`, declare this index there, or set the entity's `table = …` to `{Self}`"
)]
pub trait IndexOfTable<T> {}

impl<T> IndexOfTable<T> for T {}

/// Compile-time check that an entity's `table = …` names a table: 0, the
/// length of its checked alias's array (see [`KeyType`]).
pub const fn assert_table<T: Table>() -> usize {
    0
}

/// Compile-time check that an index belongs to the entity's table; named so
/// the error reads well. 0, the length of its checked alias's array.
pub const fn index_of_table<I: Index, T: Table>() -> usize
where
    I::Table: IndexOfTable<T>,
{
    0
}

/// Compile-time check that an entity's `index = …` names a global index:
/// a local index keeps the table's partition key and is filled by a field.
pub const fn assert_global_index<I: Index>() {
    if let IndexKind::Local = I::SCHEMA.kind {
        panic!(
            "`index = …` fills a global index; this is a local index: store its sort key as a field named like the index's sort key attribute, and query it with `Entity::partition(…)?.local()`"
        );
    }
}

/// Whether the index declares a sort key, for a const assertion.
pub const fn index_has_sort_key<I: Index>() -> bool {
    I::SCHEMA.keys.sort_key.is_some()
}

/// Whether the table declares a sort key, for a const assertion.
pub const fn table_has_sort_key<T: Table>() -> bool {
    T::SCHEMA.primary.sort_key.is_some()
}

/// Whether two attribute names are the same, for a const assertion.
pub const fn same_name(a: &str, b: &str) -> bool {
    crate::collection::str_eq(a, b)
}

/// A field type that can be a raw key attribute: a string, that the key
/// can be read back into.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a raw key attribute",
    label = "a raw key attribute is this field itself, stored as a DynamoDB string",
    note = "use a `String` field, or a template such as pk = \"USER#{{field}}\" (numbers are zero-padded there, so they sort)"
)]
pub trait RawKeyField: RawKey + From<String> {}

impl RawKeyField for String {}
impl RawKeyField for Box<str> {}
impl RawKeyField for std::sync::Arc<str> {}
impl RawKeyField for std::rc::Rc<str> {}

/// Compile-time check that a raw key field (`pk = field`) is a string that
/// its key can be read back into.
pub const fn assert_raw_key<T: RawKeyField>() {}

/// Compile-time check that a hole's type is a key part an entity field can
/// have, reported at the hole: `u128`/`i128` encode, but the item body
/// cannot hold them ([`KeyPart::NOT_AN_ENTITY_FIELD`]). 0, the length of
/// its checked alias's array.
pub const fn assert_key_part<T: KeyPart + ?Sized>() -> usize {
    if let Some(why) = T::NOT_AN_ENTITY_FIELD {
        panic!("{}", why);
    }
    0
}

/// Compile-time check that a collection member's table (`Self`) is the
/// collection's table (its first member's, `T`).
#[diagnostic::on_unimplemented(
    message = "this collection member is an entity of table `{Self}`, but the collection's first member is an entity of table `{T}`",
    label = "an entity of `{Self}`, not `{T}`",
    note = "a collection is filled by one Query on one table: make every member an entity of the same table, or split the collection"
)]
pub trait SameTable<T> {}

impl<T> SameTable<T> for T {}

/// `const _: () = same_table::<<E as Entity>::Table, <First as Entity>::Table>();`
/// A member that is no entity is reported by the projection alone, the same
/// diagnostic as in the collection's impl, so rustc reports it once.
pub const fn same_table<M: SameTable<T>, T>() {}

/// Integer types that can hold an optimistic-locking version.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot hold an entity version",
    label = "the version field must be a `u64` or `u32`",
    note = "declare the field named in #[entity(version = \"…\")] as `u64`"
)]
pub trait VersionNumber: Copy {
    /// The version as a `u64`.
    fn to_u64(self) -> u64;
}

impl VersionNumber for u64 {
    fn to_u64(self) -> u64 {
        self
    }
}

impl VersionNumber for u32 {
    fn to_u64(self) -> u64 {
        u64::from(self)
    }
}

/// The body of an item stored at a schema version the entity cannot read:
/// newer than its own (written by newer code), or older than its upcast
/// chain reaches.
pub fn unknown_schema_version(
    entity: &'static str,
    found: u64,
    oldest: u64,
    current: u64,
) -> crate::codec::DecodeError {
    let what = if found > current {
        format!(
            "it is stored at schema version {found}, newer than this build of `{entity}` (version {current}): it was written by newer code; deploy that code here too"
        )
    } else {
        format!(
            "it is stored at schema version {found}, but `{entity}` reads versions {oldest} to {current}: add the shape of version {found} to `upcast = [...]` in its place (the list starts at version 1; `_` marks a version not read), with a `From` conversion to the next, or rewrite old items with a backfill while an older build can still read them"
        )
    };
    crate::codec::DecodeError::text(what)
}

/// Whether table `T` is typed by key alone (`typed_by: Key`): its
/// collections' members must have templates that tell their keys apart.
pub const fn typed_by_key<T: Table>() -> bool {
    matches!(T::SCHEMA.typing, Typing::Key)
}

/// The layout of an entity whose derive failed (its error is reported at
/// the attribute): described, with one empty key, so using the type in a
/// model adds no error of its own.
pub const BROKEN_LAYOUT: &EntityLayout = &EntityLayout::new("", "", &[NO_KEY], &[], false);

/// `LAYOUT`'s pieces, as generated code writes them: short, and reading a
/// hole's fixed length and cardinality off its key part `P`.
pub mod layout {
    use crate::key::{Cardinality, KeyPart};
    use crate::layout::{FieldLayout, FieldRole, HoleLayout, KeyLayout, Piece, TemplateLayout};
    use crate::shard::ShardSpec;
    use crate::table::IndexSchema;

    /// Literal text of a segment.
    pub const fn lit(text: &'static str) -> Piece {
        Piece::Literal(text)
    }

    /// A hole whose values are written by the key part `P` (the hole's
    /// type, padded to `width` or as a partition part).
    pub const fn hole<P: KeyPart + ?Sized>(
        field: &'static str,
        type_name: &'static str,
        width: Option<u8>,
        optional: bool,
        computed: bool,
    ) -> Piece {
        Piece::Hole(HoleLayout::new(
            field,
            type_name,
            width,
            P::FIXED_LEN,
            P::CARDINALITY,
            optional,
            computed,
        ))
    }

    /// The hole of a raw key attribute (`pk = field`): any string, stored
    /// as it is.
    pub const fn raw_hole(field: &'static str, type_name: &'static str, optional: bool) -> Piece {
        Piece::Hole(HoleLayout::new(
            field,
            type_name,
            None,
            None,
            Cardinality::Unbounded,
            optional,
            false,
        ))
    }

    /// The shard segment.
    pub const fn shard(spec: ShardSpec) -> Piece {
        Piece::Shard(spec)
    }

    /// A template as written, and its segments.
    pub const fn template(
        source: &'static str,
        raw: bool,
        segments: &'static [&'static [Piece]],
    ) -> TemplateLayout {
        TemplateLayout::new(source, raw, segments)
    }

    /// The primary key's layout.
    pub const fn primary(
        partition: TemplateLayout,
        sort: Option<TemplateLayout>,
        allow_hot: Option<&'static str>,
    ) -> KeyLayout {
        KeyLayout::new(None, partition, sort, false, None, allow_hot)
    }

    /// An index key's layout.
    pub const fn index(
        index: IndexSchema,
        partition: TemplateLayout,
        sort: Option<TemplateLayout>,
        sparse: bool,
        when: Option<&'static str>,
        allow_hot: Option<&'static str>,
    ) -> KeyLayout {
        KeyLayout::new(Some(index), partition, sort, sparse, when, allow_hot)
    }

    /// A stored field.
    pub const fn field(
        name: &'static str,
        attribute: &'static str,
        type_name: &'static str,
        optional: bool,
    ) -> FieldLayout {
        FieldLayout::new(name, attribute, type_name, optional)
    }

    /// A primary-key field the body stores too (`key_fields =
    /// "key_and_body"`).
    pub const fn key_field(
        name: &'static str,
        attribute: &'static str,
        type_name: &'static str,
        optional: bool,
    ) -> FieldLayout {
        field(name, attribute, type_name, optional).with_role(FieldRole::KeyField)
    }

    /// A primary-key field stored in the key only (the default).
    pub const fn key_only(
        name: &'static str,
        attribute: &'static str,
        type_name: &'static str,
        optional: bool,
    ) -> FieldLayout {
        field(name, attribute, type_name, optional).with_role(FieldRole::KeyOnly)
    }

    /// The optimistic-locking version.
    pub const fn version(
        name: &'static str,
        attribute: &'static str,
        type_name: &'static str,
        optional: bool,
    ) -> FieldLayout {
        field(name, attribute, type_name, optional).with_role(FieldRole::Version)
    }
}
