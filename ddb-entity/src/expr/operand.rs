//! What a condition can say about a field or a path: comparisons, `IN`,
//! existence, `begins_with`, `contains`, `size` and `attribute_type`, each
//! taking values of the field's own type.

use std::collections::{BTreeMap, HashMap};
use std::marker::PhantomData;

use aws_sdk_dynamodb::types::AttributeValue;
use serde::Serialize;

use super::{Condition, Node, OrderedValue, attribute_value};
use crate::entity::{AttrPath, Field, FieldPath, InBody};
use crate::item::{Set, SetElement};

/// The conditions on a field's (or a path's) stored value, written once
/// for both.
macro_rules! comparisons {
    ([$($generics:tt)*] $target:ty, [$($bound:tt)*], $path:ident => $attr:expr) => {
        impl<$($generics)*> $target {
            fn compare(self, op: &'static str, value: T) -> Condition<E> {
                let $path = self;
                Node::Compare($attr, op, attribute_value(&value)).into()
            }

            /// `= value` (`None`: not stored).
            ///
            /// See [the examples](crate::Condition#examples).
            pub fn equals(self, value: T) -> Condition<E>
            where
                $($bound)* {
                self.compare("=", value)
            }

            /// `<> value` (`None`: stored).
            ///
            /// See [the examples](crate::Condition#examples).
            pub fn not_equals(self, value: T) -> Condition<E>
            where
                $($bound)* {
                self.compare("<>", value)
            }

            /// `< value`, in the value's order: only for a type whose stored
            /// form sorts as its values do ([`OrderedValue`]).
            ///
            /// See [the examples](crate::Condition#examples).
            pub fn lt(self, value: T) -> Condition<E>
            where
                T: OrderedValue,
                $($bound)* {
                self.compare("<", value)
            }

            /// `<= value`, in the value's order: only for a type whose stored
            /// form sorts as its values do ([`OrderedValue`]).
            ///
            /// See [the examples](crate::Condition#examples).
            pub fn le(self, value: T) -> Condition<E>
            where
                T: OrderedValue,
                $($bound)* {
                self.compare("<=", value)
            }

            /// `> value`, in the value's order: only for a type whose stored
            /// form sorts as its values do ([`OrderedValue`]).
            ///
            /// See [the examples](crate::Condition#examples).
            pub fn gt(self, value: T) -> Condition<E>
            where
                T: OrderedValue,
                $($bound)* {
                self.compare(">", value)
            }

            /// `>= value`, in the value's order: only for a type whose stored
            /// form sorts as its values do ([`OrderedValue`]).
            ///
            /// See [the examples](crate::Condition#examples).
            pub fn ge(self, value: T) -> Condition<E>
            where
                T: OrderedValue,
                $($bound)* {
                self.compare(">=", value)
            }

            /// `low <= value <= high`, in the value's order ([`OrderedValue`]).
            ///
            /// See [the examples](crate::Condition#examples).
            pub fn between(self, low: T, high: T) -> Condition<E>
            where
                T: OrderedValue,
                $($bound)* {
                let $path = self;
                let bounds =
                    attribute_value(&low).and_then(|low| Ok((low, attribute_value(&high)?)));
                Node::Between($attr, bounds).into()
            }

            /// Equal to one of `values` (`IN`; DynamoDB takes 1 to 100, more
            /// or none is refused before sending).
            ///
            /// See [the examples](crate::Condition#examples).
            pub fn is_in(self, values: impl IntoIterator<Item = T>) -> Condition<E>
            where
                $($bound)* {
                let $path = self;
                let values = values.into_iter().map(|v| attribute_value(&v)).collect();
                Node::In($attr, values).into()
            }

            /// The attribute is stored (for an `Option`: it is `Some`).
            ///
            /// See [the examples](crate::Condition#examples).
            pub fn exists(self) -> Condition<E>
            where
                $($bound)* {
                let $path = self;
                Node::Exists($attr, true).into()
            }

            /// The attribute is not stored.
            ///
            /// See [the examples](crate::Condition#examples).
            pub fn not_exists(self) -> Condition<E>
            where
                $($bound)* {
                let $path = self;
                Node::Exists($attr, false).into()
            }

            /// The stored attribute is of DynamoDB type `kind`
            /// (`attribute_type`): for data written by other code, or a
            /// field whose type changed.
            ///
            /// See [the examples](crate::Condition#examples).
            pub fn has_type(self, kind: AttributeType) -> Condition<E>
            where
                $($bound)* {
                let $path = self;
                Node::Type($attr, kind).into()
            }
        }
    };
}

comparisons!([E, T: Serialize, R] Field<E, T, R>, [R: InBody], field => AttrPath::top(field.attribute()));
comparisons!([E, T: Serialize] FieldPath<E, T>, [], path => path.path);

/// Conditions only strings, sets, lists and maps have.
macro_rules! collections {
    ($target:ident, $path:ident => $attr:expr) => {
        impl<E, R> $target<E, String, R> {
            /// The stored string starts with `prefix`.
            ///
            /// See [the examples](crate::Condition#examples).
            pub fn begins_with(self, prefix: &str) -> Condition<E>
            where
                R: InBody,
            {
                let $path = self;
                Node::BeginsWith($attr, prefix.to_owned()).into()
            }

            /// The stored string contains `part`.
            ///
            /// See [the examples](crate::Condition#examples).
            pub fn contains(self, part: &str) -> Condition<E>
            where
                R: InBody,
            {
                let $path = self;
                Node::Contains($attr, Ok(AttributeValue::S(part.to_owned()))).into()
            }

            /// The stored string's length in bytes (UTF-8).
            ///
            /// See [the examples](crate::Condition#examples).
            pub fn size(self) -> SizeOf<E>
            where
                R: InBody,
            {
                let $path = self;
                SizeOf::new($attr)
            }
        }

        impl<E, T: SetElement + Serialize, R> $target<E, Set<T>, R> {
            /// The stored set holds `element`.
            ///
            /// See [the examples](crate::Condition#examples).
            pub fn contains(self, element: T) -> Condition<E>
            where
                R: InBody,
            {
                let $path = self;
                Node::Contains($attr, attribute_value(&element)).into()
            }

            /// The number of elements of the stored set.
            ///
            /// See [the examples](crate::Condition#examples).
            pub fn size(self) -> SizeOf<E>
            where
                R: InBody,
            {
                let $path = self;
                SizeOf::new($attr)
            }
        }

        impl<E, T: Serialize, R> $target<E, Vec<T>, R> {
            /// The stored list holds an element equal to `element`.
            ///
            /// See [the examples](crate::Condition#examples).
            pub fn contains(self, element: T) -> Condition<E>
            where
                R: InBody,
            {
                let $path = self;
                Node::Contains($attr, attribute_value(&element)).into()
            }

            /// The number of elements of the stored list.
            ///
            /// See [the examples](crate::Condition#examples).
            pub fn size(self) -> SizeOf<E>
            where
                R: InBody,
            {
                let $path = self;
                SizeOf::new($attr)
            }
        }

        impl<E, K, V, S, R> $target<E, HashMap<K, V, S>, R> {
            /// The number of entries of the stored map.
            ///
            /// See [the examples](crate::Condition#examples).
            pub fn size(self) -> SizeOf<E>
            where
                R: InBody,
            {
                let $path = self;
                SizeOf::new($attr)
            }
        }

        impl<E, K, V, R> $target<E, BTreeMap<K, V>, R> {
            /// The number of entries of the stored map.
            ///
            /// See [the examples](crate::Condition#examples).
            pub fn size(self) -> SizeOf<E>
            where
                R: InBody,
            {
                let $path = self;
                SizeOf::new($attr)
            }
        }
    };
}

collections!(Field, field => AttrPath::top(field.attribute()));

// Paths: the same conditions as fields of these types.
impl<E> FieldPath<E, String> {
    /// The stored string starts with `prefix`.
    ///
    /// See [the examples](crate::Condition#examples).
    pub fn begins_with(self, prefix: &str) -> Condition<E> {
        Node::BeginsWith(self.path, prefix.to_owned()).into()
    }

    /// The stored string contains `part`.
    ///
    /// See [the examples](crate::Condition#examples).
    pub fn contains(self, part: &str) -> Condition<E> {
        let part = AttributeValue::S(part.to_owned());
        Node::Contains(self.path, Ok(part)).into()
    }

    /// The stored string's length in bytes (UTF-8).
    ///
    /// See [the examples](crate::Condition#examples).
    pub fn size(self) -> SizeOf<E> {
        SizeOf::new(self.path)
    }
}

impl<E, T: SetElement + Serialize> FieldPath<E, Set<T>> {
    /// The stored set holds `element`.
    ///
    /// See [the examples](crate::Condition#examples).
    pub fn contains(self, element: T) -> Condition<E> {
        Node::Contains(self.path, attribute_value(&element)).into()
    }

    /// The number of elements of the stored set.
    ///
    /// See [the examples](crate::Condition#examples).
    pub fn size(self) -> SizeOf<E> {
        SizeOf::new(self.path)
    }
}

impl<E, T: Serialize> FieldPath<E, Vec<T>> {
    /// The stored list holds an element equal to `element`.
    ///
    /// See [the examples](crate::Condition#examples).
    pub fn contains(self, element: T) -> Condition<E> {
        Node::Contains(self.path, attribute_value(&element)).into()
    }

    /// The number of elements of the stored list.
    ///
    /// See [the examples](crate::Condition#examples).
    pub fn size(self) -> SizeOf<E> {
        SizeOf::new(self.path)
    }
}

impl<E, K, V, S> FieldPath<E, HashMap<K, V, S>> {
    /// The number of entries of the stored map.
    ///
    /// See [the examples](crate::Condition#examples).
    pub fn size(self) -> SizeOf<E> {
        SizeOf::new(self.path)
    }
}

impl<E, K, V> FieldPath<E, BTreeMap<K, V>> {
    /// The number of entries of the stored map.
    ///
    /// See [the examples](crate::Condition#examples).
    pub fn size(self) -> SizeOf<E> {
        SizeOf::new(self.path)
    }
}

/// The size of a stored string (bytes), set, list or map (elements), to
/// compare (`size(…)` in DynamoDB): `Order::fields().tags.size().gt(3)`.
/// A missing attribute has no size: every comparison is false.
///
/// ```
/// # use ddb_entity::{Entity, Set};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "POST#{id}", sk = "POST")]
/// struct Post { id: u64, title: String, tags: Set<String>, lines: Vec<String> }
///
/// let f = Post::fields();
/// let short_and_tagged = f.title.size().le(80).and(f.tags.size().between(1, 10));
/// let _long = !short_and_tagged.and(f.lines.size().lt(1_000));
/// ```
#[must_use = "a size does nothing until it is compared"]
pub struct SizeOf<E> {
    path: AttrPath,
    entity: PhantomData<fn() -> E>,
}

impl<E> SizeOf<E> {
    fn new(path: AttrPath) -> Self {
        SizeOf {
            path,
            entity: PhantomData,
        }
    }

    fn compare(self, op: &'static str, size: u64) -> Condition<E> {
        Node::Size(self.path, op, size).into()
    }

    /// `size = n`.
    ///
    /// See [the examples](crate::Condition#examples).
    pub fn equals(self, n: u64) -> Condition<E> {
        self.compare("=", n)
    }

    /// `size <> n`.
    ///
    /// See [the examples](crate::Condition#examples).
    pub fn not_equals(self, n: u64) -> Condition<E> {
        self.compare("<>", n)
    }

    /// `size < n`.
    ///
    /// See [the examples](crate::Condition#examples).
    pub fn lt(self, n: u64) -> Condition<E> {
        self.compare("<", n)
    }

    /// `size <= n`.
    ///
    /// See [the examples](crate::Condition#examples).
    pub fn le(self, n: u64) -> Condition<E> {
        self.compare("<=", n)
    }

    /// `size > n`.
    ///
    /// See [the examples](crate::Condition#examples).
    pub fn gt(self, n: u64) -> Condition<E> {
        self.compare(">", n)
    }

    /// `size >= n`.
    ///
    /// See [the examples](crate::Condition#examples).
    pub fn ge(self, n: u64) -> Condition<E> {
        self.compare(">=", n)
    }

    /// `low <= size <= high`.
    ///
    /// See [the examples](crate::Condition#examples).
    pub fn between(self, low: u64, high: u64) -> Condition<E> {
        Node::SizeBetween(self.path, low, high).into()
    }
}

impl<E> std::fmt::Debug for SizeOf<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SizeOf({})", self.path)
    }
}

/// A DynamoDB attribute type, for [`Field::has_type`] (`attribute_type`).
/// Named by DynamoDB's codes (a variant named `String` would make rustc
/// spell `std::string::String` out in every error message of a crate that
/// uses this one).
///
/// ```
/// # use ddb_entity::{AttributeType, Entity};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "POST#{id}", sk = "POST")]
/// struct Post { id: u64, score: f64 }
///
/// // Items other code wrote with the score as a string:
/// let _legacy = Post::fields().score.has_type(AttributeType::S);
/// assert_eq!(AttributeType::Ss.code(), "SS");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AttributeType {
    /// `S`: a string.
    S,
    /// `N`: a number.
    N,
    /// `B`: binary.
    B,
    /// `BOOL`: a boolean.
    Bool,
    /// `NULL`.
    Null,
    /// `L`: a list.
    L,
    /// `M`: a map.
    M,
    /// `SS`: a string set.
    Ss,
    /// `NS`: a number set.
    Ns,
    /// `BS`: a binary set.
    Bs,
}

impl AttributeType {
    /// The type's code, as DynamoDB spells it (`"S"`, `"SS"`, …).
    ///
    /// See [the examples](crate::Condition#examples).
    pub fn code(self) -> &'static str {
        match self {
            AttributeType::S => "S",
            AttributeType::N => "N",
            AttributeType::B => "B",
            AttributeType::Bool => "BOOL",
            AttributeType::Null => "NULL",
            AttributeType::L => "L",
            AttributeType::M => "M",
            AttributeType::Ss => "SS",
            AttributeType::Ns => "NS",
            AttributeType::Bs => "BS",
        }
    }
}
