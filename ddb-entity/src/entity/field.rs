//! Typed handles on an entity's fields, for updates.

use std::fmt;
use std::marker::PhantomData;

/// A field of entity `E` holding a `T`, as `E::fields().name` hands it out:
/// what [`Update`](crate::Update) sets, removes or adds to, so an update can
/// only name fields that exist, with values of their type.
pub struct Field<E, T> {
    name: &'static str,
    attribute: &'static str,
    role: KeyRole,
    types: PhantomData<fn() -> (E, T)>,
}

/// Whether a field takes part in a key template.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyRole {
    /// In no template.
    None,
    /// In the primary key: changing it would move the item.
    Primary,
    /// In an index template only: its key attributes follow it.
    Index,
}

impl<E, T> Field<E, T> {
    /// Generated code's constructor.
    #[doc(hidden)]
    pub const fn new(name: &'static str, attribute: &'static str, role: KeyRole) -> Self {
        Field {
            name,
            attribute,
            role,
            types: PhantomData,
        }
    }

    /// The Rust field name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The attribute it is stored under (its serde name).
    pub fn attribute(&self) -> &'static str {
        self.attribute
    }

    pub(crate) fn role(&self) -> KeyRole {
        self.role
    }
}

impl<E, T> Clone for Field<E, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E, T> Copy for Field<E, T> {}

impl<E, T> fmt::Debug for Field<E, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Field")
            .field("name", &self.name)
            .field("attribute", &self.attribute)
            .finish()
    }
}
