//! Document paths: typed ways into the maps and lists an entity's fields
//! hold (`addresses.home`, `lines[3].qty`), each name a placeholder.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::marker::PhantomData;

use super::{Field, Stored};

/// A place inside a stored field of entity `E` holding a `T`: an entry of
/// a map field, an element of a list field, and so on down. Made from a
/// field with [`Field::key`] (maps) and [`Field::at`] (lists), and from a
/// path the same way:
///
/// # Example
///
/// ```
/// use std::collections::{BTreeMap, HashMap};
/// use ddb_entity::Entity;
/// use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
///
/// #[derive(Serialize, Deserialize)]
/// struct Address { city: String }
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
/// struct Customer {
///     id: u64,
///     addresses: HashMap<String, Address>,
///     visits: Vec<Vec<u32>>,
///     limits: BTreeMap<String, HashMap<String, BTreeMap<String, u32>>>,
/// }
///
/// let f = Customer::fields();
/// let home = f.addresses.key("home");      // addresses.#home: an Address
/// let day = f.visits.at(3).at(0);          // visits[3][0]: a u32
/// assert_eq!(home.to_string(), "addresses.home");
/// assert_eq!(day.to_string(), "visits[3][0]");
/// assert_eq!((home.field_name(), day.field_name()), ("addresses", "visits"));
/// // Maps of either kind, inside each other.
/// let cap = f.limits.key("eu").key("api").key("burst");
/// assert_eq!(cap.to_string(), "limits.eu.api.burst");
/// ```
///
/// An update sets or removes what is there
/// ([`Update::set_at`](crate::write::Update::set_at),
/// [`remove_at`](crate::write::Update::remove_at),
/// [`add_at`](crate::write::Update::add_at)) and a condition compares it, as
/// with a field. Every name along the path is sent as a placeholder, so a
/// map key may be a reserved word or contain `.`, `[` or `#`. Paths start
/// only from fields in no key template, so an update through one never
/// moves a key.
pub struct FieldPath<E, T> {
    pub(crate) path: AttrPath,
    field: &'static str,
    types: PhantomData<fn() -> (E, T)>,
}

/// The untyped part of a path: the top-level attribute and the steps
/// below it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AttrPath {
    pub(crate) attribute: &'static str,
    pub(crate) steps: Vec<Step>,
}

/// One step into a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Step {
    /// An entry of a map (or a member of a struct).
    Key(String),
    /// An element of a list.
    Index(usize),
}

impl AttrPath {
    pub(crate) fn top(attribute: &'static str) -> Self {
        AttrPath {
            attribute,
            steps: Vec::new(),
        }
    }

    /// Whether this is a top-level attribute.
    pub(crate) fn is_top(&self) -> bool {
        self.steps.is_empty()
    }

    /// Whether one path is the other or lies inside it (DynamoDB refuses
    /// an update naming two such paths).
    pub(crate) fn overlaps(&self, other: &AttrPath) -> bool {
        self.attribute == other.attribute
            && self.steps.iter().zip(&other.steps).all(|(a, b)| a == b)
    }
}

/// `addresses.home`, `visits[3][0]`: for messages (no placeholders).
impl fmt::Display for AttrPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.attribute)?;
        for step in &self.steps {
            match step {
                Step::Key(key) => write!(f, ".{key}")?,
                Step::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}

impl<E, T> FieldPath<E, T> {
    fn step<U>(self, step: Step) -> FieldPath<E, U> {
        let mut path = self.path;
        path.steps.push(step);
        FieldPath {
            path,
            field: self.field,
            types: PhantomData,
        }
    }

    /// The Rust name of the field the path starts from.
    ///
    /// See [`FieldPath`'s example](FieldPath#example).
    pub fn field_name(&self) -> &'static str {
        self.field
    }
}

impl<E, T> FieldPath<E, T> {
    /// The top-level path of a field (crate-private: a public one would let
    /// an update through a path change a key field).
    pub(crate) fn of<R>(field: Field<E, T, R>) -> Self {
        FieldPath {
            path: AttrPath::top(field.attribute()),
            field: field.name(),
            types: PhantomData,
        }
    }
}

impl<E, T> Clone for FieldPath<E, T> {
    fn clone(&self) -> Self {
        FieldPath {
            path: self.path.clone(),
            field: self.field,
            types: PhantomData,
        }
    }
}

impl<E, T> fmt::Debug for FieldPath<E, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("FieldPath")
            .field(&self.path.to_string())
            .finish()
    }
}

impl<E, T> fmt::Display for FieldPath<E, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.path, f)
    }
}

impl<E, K, V, S> Field<E, HashMap<K, V, S>, Stored> {
    /// The entry `key` of this map field.
    ///
    /// See [`FieldPath`'s example](FieldPath#example).
    pub fn key(self, key: impl Into<String>) -> FieldPath<E, V> {
        FieldPath::of(self).step(Step::Key(key.into()))
    }
}

impl<E, K, V, S> FieldPath<E, HashMap<K, V, S>> {
    /// The entry `key` of this map.
    ///
    /// See [`FieldPath`'s example](FieldPath#example).
    pub fn key(self, key: impl Into<String>) -> FieldPath<E, V> {
        self.step(Step::Key(key.into()))
    }
}

impl<E, K, V> Field<E, BTreeMap<K, V>, Stored> {
    /// The entry `key` of this map field.
    ///
    /// See [`FieldPath`'s example](FieldPath#example).
    pub fn key(self, key: impl Into<String>) -> FieldPath<E, V> {
        FieldPath::of(self).step(Step::Key(key.into()))
    }
}

impl<E, K, V> FieldPath<E, BTreeMap<K, V>> {
    /// The entry `key` of this map.
    ///
    /// See [`FieldPath`'s example](FieldPath#example).
    pub fn key(self, key: impl Into<String>) -> FieldPath<E, V> {
        self.step(Step::Key(key.into()))
    }
}

impl<E, T> Field<E, Vec<T>, Stored> {
    /// The element at `index` of this list field.
    ///
    /// See [`FieldPath`'s example](FieldPath#example).
    pub fn at(self, index: usize) -> FieldPath<E, T> {
        FieldPath::of(self).step(Step::Index(index))
    }
}

impl<E, T> FieldPath<E, Vec<T>> {
    /// The element at `index` of this list.
    ///
    /// See [`FieldPath`'s example](FieldPath#example).
    pub fn at(self, index: usize) -> FieldPath<E, T> {
        self.step(Step::Index(index))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_overlap_when_one_is_inside_the_other() {
        let top = AttrPath::top("a");
        let mut inner = AttrPath::top("a");
        inner.steps.push(Step::Key("x".into()));
        let mut sibling = AttrPath::top("a");
        sibling.steps.push(Step::Key("y".into()));
        assert!(top.overlaps(&inner) && inner.overlaps(&top));
        assert!(!inner.overlaps(&sibling));
        assert!(!top.overlaps(&AttrPath::top("b")));
    }
}
