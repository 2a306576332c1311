//! Mixed item collections: one Query, several entity types, demultiplexed.
//!
//! Items are told apart by the table's type attribute, which every entity
//! writes with its [`Entity::TYPE_TAG`] — the struct's name in snake case
//! (`order` for `Order`) or its declared `type = "…"`. Matching that attribute exactly,
//! rather than matching sort-key prefixes, works the same on every index
//! (an index's sort key need not start with the type) and cannot confuse
//! `ORDER` with `ORDER#ITEM`: two member types with one `TYPE_TAG` are refused
//! when the collection is declared.
//!
//! A table typed by key ([`Typing::Key`](crate::table::Typing::Key), a table designed
//! by hand) has no type attribute: each item goes to the one member whose
//! key templates its stored keys parse against ([`Member::key_matches`]): the
//! leading literal, then every hole and nothing left over, so
//! `ORDER#{placed}#{id}` and `ORDER#{placed}#{id}#LINE#{n}` are told apart.
//! Members whose templates are the same text but for the holes' names are
//! refused when the collection is declared; an item whose keys two members
//! parse (templates that overlap in ways only values decide, such as a
//! string hole beside a literal) fails with
//! [`ErrorKind::AmbiguousKey`](crate::error::ErrorKind::AmbiguousKey), naming both.

use crate::codec::ItemTree;
use crate::entity::verify::item_at;
use crate::entity::{Entity, EntityHooks};
use crate::error::{ItemAt, Repr, Result};
use crate::item::{self, Item, stored_keys};
use crate::layout::{EntityLayout, Piece, TemplateLayout};
use crate::table::{Table, TableSchema, Typing};

/// One entity type a collection holds, as routing by key needs it.
///
/// # Example
///
/// ```
/// use ddb_entity::{Entity, Member};
/// use serde::{Deserialize, Serialize};
///
/// ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK", typed_by: Key } }
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "USER#{email}", sk = "PROFILE")]
/// struct User { email: String }
///
/// const USER: Member = Member::of::<User>();
/// assert_eq!(USER.entity, "User");
/// assert_eq!(USER.templates, ("USER#{email}", Some("PROFILE")));
/// assert!(USER.key_matches("USER#ann@example.com", Some("PROFILE")));
/// assert!(!USER.key_matches("user#ann@example.com", Some("PROFILE"))); // another case
/// assert!(!USER.key_matches("USER#ann@example.com", Some("PROFILE#2")));
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Member {
    /// The Rust type's name ([`Entity::RUST_NAME`]).
    pub entity: &'static str,
    /// Its [`Entity::TYPE_TAG`], by which the collection stores it.
    pub type_tag: &'static str,
    /// Its primary key templates (partition, sort) as written.
    pub templates: (&'static str, Option<&'static str>),
    matches: fn(&str, Option<&str>) -> bool,
    layout: &'static EntityLayout,
}

impl Member {
    /// The member for entity `E`.
    ///
    /// See [the example](Member#example).
    pub const fn of<E: Entity>() -> Self {
        Member {
            entity: E::RUST_NAME,
            type_tag: E::TYPE_TAG,
            templates: E::LAYOUT.key_templates(),
            matches: <E as EntityHooks>::key_matches,
            layout: E::LAYOUT,
        }
    }

    /// Its keys as data ([`Entity::LAYOUT`]): raw key attributes included,
    /// which the templates' text does not tell from literals.
    pub(crate) fn layout(&self) -> &'static EntityLayout {
        self.layout
    }

    /// Whether stored key values (partition, sort) parse as this entity's
    /// primary key.
    ///
    /// See [the example](Member#example).
    pub fn key_matches(&self, partition: &str, sort: Option<&str>) -> bool {
        (self.matches)(partition, sort)
    }
}

/// A typed view of one Query's items: a struct of `Option<E>`/`Vec<E>`
/// fields (`#[derive(Collection)]`), or a `Vec` of a [`CollectionItem`].
///
/// # Example
///
/// What the derive declares, and items from elsewhere demultiplexed as a
/// query would:
///
/// ```
/// use ddb_entity::{Collection, Entity, Error, Table, UnknownItems};
/// use serde::{Deserialize, Serialize};
///
/// ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
///
/// #[derive(Entity, Serialize, Deserialize, Debug)]
/// #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// struct Customer { id: u64, name: String }
///
/// #[derive(Entity, Serialize, Deserialize, Debug)]
/// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}")]
/// struct Order { customer_id: u64, order_id: u64 }
///
/// #[derive(Collection, Debug)]
/// struct CustomerView { customer: Option<Customer>, orders: Vec<Order> }
///
/// assert_eq!(CustomerView::NAME, "CustomerView");
/// assert_eq!(CustomerView::TYPES, ["customer", "order"]);
/// assert_eq!(CustomerView::MEMBERS.len(), 2);
/// assert_eq!(<CustomerView as Collection>::Table::SCHEMA.primary.partition_key, "PK");
///
/// let items = [
///     Customer { id: 1, name: "Ada".into() }.to_item()?,
///     Order { customer_id: 1, order_id: 7 }.to_item()?,
/// ];
/// let view = CustomerView::from_items(items.clone(), UnknownItems::Error)?;
/// assert_eq!(view.customer.unwrap().name, "Ada");
/// assert_eq!(view.orders.len(), 1);
///
/// // One item at a time: `false` for a type no member holds.
/// let mut orders: Vec<Order> = Vec::new();
/// assert!(orders.push_item("order", items[1].clone())?);
/// assert!(!orders.push_item("customer", items[0].clone())?);
/// # Ok::<(), Error>(())
/// ```
pub trait Collection: Default + Send {
    /// The table its members live in.
    ///
    /// See [the example](Collection#example).
    type Table: Table;

    /// The collection's name, for errors.
    ///
    /// See [the example](Collection#example).
    const NAME: &'static str;

    /// The entity types it holds (their [`Entity::TYPE_TAG`]s).
    ///
    /// See [the example](Collection#example).
    const TYPES: &'static [&'static str];

    /// The entity types it holds, as routing by key needs them (on a table
    /// typed by key). `#[derive(Collection)]` lists every member; a
    /// hand-written collection that leaves it empty holds no item of such
    /// a table.
    ///
    /// See [the example](Collection#example).
    const MEMBERS: &'static [Member] = &[];

    /// Adds one item whose type attribute is `entity_type`, keeping the
    /// order items arrive in (the sort-key order). `Ok(false)` when no
    /// member has that type: the caller applies its [`UnknownItems`] policy.
    /// A typed read hands a hand-written collection every item whole, as
    /// DynamoDB returned it (`#[derive(Collection)]` decodes its members
    /// from the response's bytes instead: see the reads guide).
    ///
    /// See [the example](Collection#example).
    fn push_item(&mut self, entity_type: &str, item: Item) -> Result<bool>;

    /// Whether a typed read hands this collection its items parsed from
    /// the response's bytes ([`push_tree`](Collection::push_tree)) rather
    /// than as SDK items ([`push_item`](Collection::push_item)).
    /// `#[derive(Collection)]` and `Vec<E>` of an entity say `true`; a
    /// hand-written collection keeps the default, `false`, and receives
    /// every item whole in `push_item`.
    #[doc(hidden)]
    const READS_BYTES: bool = false;

    /// Adds one item parsed from a response's bytes, whose type (routed by
    /// its type attribute, or by its keys) is `entity_type`. By default
    /// the item as the SDK would hold it, to `push_item`.
    #[doc(hidden)]
    fn push_tree(&mut self, entity_type: &str, tree: ItemTree<'_>) -> Result<bool> {
        self.push_item(entity_type, sdk_item::<Self::Table>(&tree))
    }

    /// Demultiplexes items obtained elsewhere (a stream record, a raw SDK
    /// call) exactly as a query does, with the given [`UnknownItems`] policy.
    ///
    /// See [the example](Collection#example).
    fn from_items(items: impl IntoIterator<Item = Item>, policy: UnknownItems) -> Result<Self>
    where
        Self: Sized,
    {
        let mut collection = Self::default();
        for item in items {
            demultiplex(&mut collection, item, policy)?;
        }
        Ok(collection)
    }
}

/// One item of a mixed stream: an enum of one-field variants
/// (`#[derive(Collection)]` on the enum), or any single [`Entity`].
///
/// # Example
///
/// ```
/// use ddb_entity::{Collection, CollectionItem, Entity, Error};
/// use serde::{Deserialize, Serialize};
///
/// ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
///
/// #[derive(Entity, Serialize, Deserialize, Debug)]
/// #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// struct Customer { id: u64 }
///
/// #[derive(Entity, Serialize, Deserialize, Debug)]
/// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}")]
/// struct Order { customer_id: u64, order_id: u64 }
///
/// #[derive(Collection, Debug)]
/// enum Change { Customer(Customer), Order(Order) }
///
/// assert_eq!((Change::NAME, Change::TYPES), ("Change", &["customer", "order"][..]));
/// assert_eq!(Change::MEMBERS[1].entity, "Order");
/// // Any entity is a CollectionItem of its own type.
/// assert_eq!(<Order as CollectionItem>::TYPES, ["order"]);
///
/// let item = Order { customer_id: 1, order_id: 7 }.to_item()?;
/// let change = Change::from_typed_item("order", item.clone())?;
/// assert!(matches!(change, Some(Change::Order(o)) if o.order_id == 7));
/// assert!(Change::from_typed_item("invoice", item)?.is_none());
/// # Ok::<(), Error>(())
/// ```
pub trait CollectionItem: Sized + Send {
    /// The table its variants live in.
    ///
    /// See [the example](CollectionItem#example).
    type Table: Table;

    /// The item type's name, for errors.
    ///
    /// See [the example](CollectionItem#example).
    const NAME: &'static str;

    /// The entity types it can be.
    ///
    /// See [the example](CollectionItem#example).
    const TYPES: &'static [&'static str];

    /// The entity types it can be, for routing by key (see
    /// [`Collection::MEMBERS`]).
    ///
    /// See [the example](CollectionItem#example).
    const MEMBERS: &'static [Member] = &[];

    /// Decodes an item of type `entity_type`; `Ok(None)` when no variant
    /// has that type.
    ///
    /// See [the example](CollectionItem#example).
    fn from_typed_item(entity_type: &str, item: Item) -> Result<Option<Self>>;

    /// Whether it decodes items parsed from a response's bytes
    /// ([`Collection::READS_BYTES`]).
    #[doc(hidden)]
    const READS_BYTES: bool = false;

    /// [`from_typed_item`](CollectionItem::from_typed_item) of an item
    /// parsed from a response's bytes. By default the item as the SDK
    /// would hold it, to `from_typed_item`.
    #[doc(hidden)]
    fn from_typed_tree(entity_type: &str, tree: ItemTree<'_>) -> Result<Option<Self>> {
        Self::from_typed_item(entity_type, sdk_item::<Self::Table>(&tree))
    }
}

/// An item parsed from a response's bytes as the SDK would hold it,
/// index keys it was not found by set aside as a typed read sets them
/// aside on the SDK's items.
fn sdk_item<T: Table>(tree: &ItemTree<'_>) -> Item {
    let mut item = tree.to_item_lossy();
    crate::entity::verify::keep_keys_found_by(&mut item, &T::SCHEMA, tree.found_by);
    item
}

impl<E: Entity + Send> CollectionItem for E {
    type Table = E::Table;
    const NAME: &'static str = E::RUST_NAME;
    const TYPES: &'static [&'static str] = &[E::TYPE_TAG];
    const MEMBERS: &'static [Member] = &[Member::of::<E>()];

    fn from_typed_item(entity_type: &str, item: Item) -> Result<Option<Self>> {
        if entity_type == E::TYPE_TAG {
            E::from_item(item).map(Some)
        } else {
            Ok(None)
        }
    }

    const READS_BYTES: bool = true;

    fn from_typed_tree(entity_type: &str, tree: ItemTree<'_>) -> Result<Option<Self>> {
        if entity_type == E::TYPE_TAG {
            crate::entity::convert::from_tree(tree).map(Some)
        } else {
            Ok(None)
        }
    }
}

impl<T: CollectionItem> Collection for Vec<T> {
    type Table = T::Table;
    const NAME: &'static str = T::NAME;
    const TYPES: &'static [&'static str] = T::TYPES;
    const MEMBERS: &'static [Member] = T::MEMBERS;

    fn push_item(&mut self, entity_type: &str, item: Item) -> Result<bool> {
        match T::from_typed_item(entity_type, item)? {
            Some(value) => {
                self.push(value);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    const READS_BYTES: bool = T::READS_BYTES;

    fn push_tree(&mut self, entity_type: &str, tree: ItemTree<'_>) -> Result<bool> {
        match T::from_typed_tree(entity_type, tree)? {
            Some(value) => {
                self.push(value);
                Ok(true)
            }
            None => Ok(false),
        }
    }
}

/// What a query does with an item whose entity type the collection does not
/// hold (another entity type sharing the partition, or an item written by
/// another tool).
///
/// ```
/// use ddb_entity::{Collection, Entity, UnknownItems};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// # #[derive(Entity, Serialize, Deserialize, Debug)]
/// # #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// # struct Customer { id: u64 }
/// # #[derive(Entity, Serialize, Deserialize, Debug)]
/// # #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}")]
/// # struct Order { customer_id: u64, order_id: u64 }
///
/// let items = vec![
///     Customer { id: 1 }.to_item()?,
///     Order { customer_id: 1, order_id: 7 }.to_item()?,
/// ];
/// // Orders only: the customer's profile is skipped, or refused.
/// let orders = Vec::<Order>::from_items(items.clone(), UnknownItems::Skip)?;
/// assert_eq!(orders.len(), 1);
/// let refused = Vec::<Order>::from_items(items, UnknownItems::Error).unwrap_err();
/// assert_eq!(refused.kind(), ddb_entity::ErrorKind::UnknownType);
/// assert_eq!(UnknownItems::default(), UnknownItems::Skip);
/// # Ok::<(), ddb_entity::Error>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum UnknownItems {
    /// Skip it, with a `tracing` warning naming its type (not its values).
    #[default]
    Skip,
    /// Fail the query with [`ErrorKind::UnknownType`](crate::error::ErrorKind::UnknownType).
    Error,
    /// Ask DynamoDB to return only items of the collection's types (a
    /// filter on the type attribute): items of other types, and items
    /// without one, are still read — and count towards `limit` and the
    /// read capacity, as every filtered item does — but never returned.
    /// What a [`Scan`](crate::read::Scan) does unless told otherwise: in a
    /// single table, every entity type is in it.
    Filter,
}

/// An item being routed, whichever way it is held: an SDK [`Item`], or an
/// [`ItemTree`] parsed from a response's bytes. [`demultiplex`] is written
/// once over it.
pub(crate) trait Routed: Sized {
    /// The type attribute's string.
    fn tag(&self, schema: &TableSchema) -> Option<&str>;

    /// The stored primary key strings.
    fn keys(&self, schema: &TableSchema) -> (Option<&str>, Option<&str>);

    /// Where the item is stored, for messages.
    fn at(&self, schema: &TableSchema) -> ItemAt {
        let (partition, sort) = self.keys(schema);
        ItemAt {
            partition: (schema.primary.partition_key, partition.map(str::to_owned)),
            sort: schema
                .primary
                .sort_key
                .map(|name| (name, sort.map(str::to_owned))),
        }
    }

    /// Hands the item, of type `known`, to `collection`.
    fn push<C: Collection>(self, collection: &mut C, known: &'static str) -> Result<bool>;
}

impl Routed for Item {
    fn tag(&self, schema: &TableSchema) -> Option<&str> {
        item::type_tag(self, schema)
    }

    fn keys(&self, schema: &TableSchema) -> (Option<&str>, Option<&str>) {
        stored_keys(self, schema)
    }

    fn at(&self, schema: &TableSchema) -> ItemAt {
        item_at(self, schema)
    }

    fn push<C: Collection>(self, collection: &mut C, known: &'static str) -> Result<bool> {
        collection.push_item(known, self)
    }
}

impl Routed for ItemTree<'_> {
    fn tag(&self, schema: &TableSchema) -> Option<&str> {
        self.string(schema.type_attribute)
    }

    fn keys(&self, schema: &TableSchema) -> (Option<&str>, Option<&str>) {
        (
            self.string(schema.primary.partition_key),
            schema.primary.sort_key.and_then(|name| self.string(name)),
        )
    }

    fn push<C: Collection>(self, collection: &mut C, known: &'static str) -> Result<bool> {
        collection.push_tree(known, self)
    }
}

/// Routes one item into `collection`: by its type attribute, or on a
/// table typed by key by the member whose templates its keys parse
/// against. An item with no (string) type attribute on a table typed by
/// attribute is always an error: it is not ours to guess.
pub(crate) fn demultiplex<C: Collection>(
    collection: &mut C,
    item: impl Routed,
    policy: UnknownItems,
) -> Result<bool> {
    let schema = C::Table::SCHEMA;
    let unknown = |at: ItemAt, found| Repr::UnknownType {
        collection: C::NAME,
        found,
        at,
        type_attribute: schema.type_attribute,
    };
    let apply_policy = |unknown: Repr, entity_type: &str| match policy {
        UnknownItems::Skip => {
            tracing::warn!(
                collection = C::NAME,
                entity_type,
                "skipping an item of a type the collection does not hold"
            );
            Ok(false)
        }
        // The server was asked not to return it: it did anyway.
        UnknownItems::Error | UnknownItems::Filter => Err(unknown.into()),
    };
    let tag = match schema.typing {
        Typing::Key => None,
        _ => item.tag(&schema),
    };
    let known = match tag {
        Some(tag) => {
            // A type no member holds is decided here, while the item is at
            // hand for the message. A member's type is named by its
            // `&'static str`: no copy of the attribute per item (the item
            // moves into `push_item`).
            let Some(&known) = C::TYPES.iter().find(|known| **known == tag) else {
                let found = tag.to_owned();
                return apply_policy(unknown(item.at(&schema), Some(found.clone())), &found);
            };
            known
        }
        None if schema.typing.reads_keys() => {
            match member_by_key(C::NAME, C::MEMBERS, &item, &schema)? {
                Some(member) => member.type_tag,
                // Asked for the collection's items only, on a table with no
                // type attribute to filter on: what the server could not
                // leave out is left out here.
                None if policy == UnknownItems::Filter => return Ok(false),
                None => {
                    let unmatched = Repr::UnmatchedKey {
                        collection: C::NAME,
                        at: item.at(&schema),
                    };
                    return apply_policy(unmatched, "(keys match no member's templates)");
                }
            }
        }
        None => return Err(unknown(item.at(&schema), None).into()),
    };
    if item.push(collection, known)? {
        return Ok(true);
    }
    // A hand-written collection whose `TYPES` and `push_item` disagree:
    // the same policy, without the key (the item went to `push_item`).
    apply_policy(
        unknown(item_at(&Item::new(), &schema), Some(known.to_owned())),
        known,
    )
}

/// The one member of `members` whose key templates `item`'s stored keys
/// parse against; `None` when none does, an error naming both when two do.
pub(crate) fn member_by_key(
    collection: &'static str,
    members: &'static [Member],
    item: &impl Routed,
    schema: &TableSchema,
) -> Result<Option<&'static Member>> {
    let (partition, sort) = item.keys(schema);
    let Some(partition) = partition else {
        return Ok(None);
    };
    let mut matching = members.iter().filter(|m| m.key_matches(partition, sort));
    let Some(first) = matching.next() else {
        return Ok(None);
    };
    if let Some(second) = matching.next() {
        return Err(Repr::AmbiguousKey {
            collection,
            at: item.at(schema),
            first: (first.entity, first.templates),
            second: (second.entity, second.templates),
        }
        .into());
    }
    Ok(Some(first))
}

/// Decodes one item as whichever member of `T` its type attribute names
/// (on a table typed by key, whose templates its keys parse against),
/// through the very routing a query uses ([`demultiplex`] into a one-item
/// `Vec`), so a stream record and a query result are told apart alike. An
/// item of a type `T` does not hold, or of no type, or whose keys match no
/// member's templates, is
/// [`ErrorKind::UnknownType`](crate::error::ErrorKind::UnknownType): the caller
/// has no collection to leave it out of.
#[cfg(any(feature = "lambda", feature = "streams"))]
pub(crate) fn decode_one<T: CollectionItem>(item: Item) -> Result<T> {
    let schema = T::Table::SCHEMA;
    let at = item_at(&item, &schema);
    let found = item::type_tag(&item, &schema).map(str::to_owned);
    let mut one: Vec<T> = Vec::with_capacity(1);
    demultiplex(&mut one, item, UnknownItems::Error)?;
    // Under `UnknownItems::Error`, `demultiplex` either pushed the item or
    // failed; an empty `Vec` here would be a `CollectionItem` that declined
    // a type it lists, reported as the query reports it.
    one.pop().ok_or_else(|| {
        Repr::UnknownType {
            collection: T::NAME,
            found,
            at,
            type_attribute: schema.type_attribute,
        }
        .into()
    })
}

/// Whether two members of a collection share an entity type, checked at
/// compile time by `#[derive(Collection)]`.
#[doc(hidden)]
pub const fn has_duplicate_type(types: &[&str]) -> bool {
    let mut i = 0;
    while i < types.len() {
        let mut j = i + 1;
        while j < types.len() {
            if str_eq(types[i], types[j]) {
                return true;
            }
            j += 1;
        }
        i += 1;
    }
    false
}

/// Whether two entities' primary keys are the same templates but for the
/// names (and widths) of their holes: on a table typed by key, their items
/// could not be told apart. A raw key attribute (`pk = token`) is one
/// hole: it makes any string. Read from [`Entity::LAYOUT`], not the
/// templates' text, where a raw key reads as a literal (its field's name).
/// Checked at compile time by `#[derive(Collection)]` for members of a
/// table typed by key.
#[doc(hidden)]
pub const fn same_key_shape(a: &EntityLayout, b: &EntityLayout) -> bool {
    let (Some(a), Some(b)) = (a.keys.first(), b.keys.first()) else {
        // A hand-written entity states no templates.
        return false;
    };
    if a.index.is_some() || b.index.is_some() || a.partition.segments.is_empty() {
        return false;
    }
    if !same_template(&a.partition, &b.partition) {
        return false;
    }
    match (&a.sort, &b.sort) {
        (Some(x), Some(y)) => same_template(x, y),
        (None, None) => true,
        _ => false,
    }
}

/// Piece by piece: literals equal, a hole (or a shard) against a hole.
const fn same_template(a: &TemplateLayout, b: &TemplateLayout) -> bool {
    if a.raw || b.raw {
        // Any string against a template made of one hole: the same keys.
        return one_hole(a) && one_hole(b);
    }
    if a.segments.len() != b.segments.len() {
        return false;
    }
    let mut s = 0;
    while s < a.segments.len() {
        let (x, y) = (a.segments[s], b.segments[s]);
        if x.len() != y.len() {
            return false;
        }
        let mut p = 0;
        while p < x.len() {
            let same = match (&x[p], &y[p]) {
                (Piece::Literal(l), Piece::Literal(r)) => str_eq(l, r),
                (Piece::Hole(_), Piece::Hole(_)) | (Piece::Shard(_), Piece::Shard(_)) => true,
                _ => false,
            };
            if !same {
                return false;
            }
            p += 1;
        }
        s += 1;
    }
    true
}

/// A raw key, or a template that is one hole and nothing else.
const fn one_hole(template: &TemplateLayout) -> bool {
    template.raw
        || (template.segments.len() == 1
            && template.segments[0].len() == 1
            && matches!(template.segments[0][0], Piece::Hole(_)))
}

pub(crate) const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}
