//! What a generated key builder accepts for a hole of type `T`.

use std::borrow::Cow;
use std::rc::Rc;
use std::sync::Arc;

use crate::key::{DecodeKeyPart, KeyError, KeyPart};

/// A value accepted where a key builder asks for a `T`: `T` itself, a
/// reference to it, and for string-like fields a `&str`. Every accepted
/// value encodes exactly as the `T` it stands for
/// ([`encode_as`](Self::encode_as)), so the argument types of generated
/// builders stay strict (a `u64` hole takes no `String`) without forcing
/// allocations at the call site.
///
/// `T` itself is accepted whether or not `T` is a [`KeyPart`]: that a
/// field's type has a key encoding is checked once, where the template
/// names the field, so a builder's call never reports it again.
///
/// # Example
///
/// ```
/// use ddb_entity::KeyArg;
///
/// fn takes<A: KeyArg<String>>(_: A) {}
/// takes("by-ref");
/// takes(String::from("owned"));
/// takes(&String::from("borrowed"));
///
/// fn takes_u64<A: KeyArg<u64>>(_: A) {}
/// takes_u64(42);
/// takes_u64(&42u64);
///
/// let mut key = String::new();
/// KeyArg::<String>::encode_as(&"a#b", &mut key)?;
/// assert_eq!(key, ddb_entity::key::encode(&String::from("a#b"))?);
/// # Ok::<(), ddb_entity::key::KeyError>(())
/// ```
///
/// ```compile_fail
/// fn takes_u64<A: ddb_entity::KeyArg<u64>>(_: A) {}
/// takes_u64("42"); // a string is not a u64 hole's value
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot fill a key hole of type `{T}`",
    label = "expected a `{T}` (or a reference to one)",
    note = "a key builder takes the field's own type, so keys cannot be built from the wrong kind of value"
)]
pub trait KeyArg<T: ?Sized> {
    /// Appends the key encoding of the `T` this value stands for: the
    /// bytes [`KeyPart::encode_key`] of that `T` writes.
    ///
    /// See [`KeyArg`'s example](KeyArg#example).
    fn encode_as(&self, out: &mut String) -> Result<(), KeyError>
    where
        T: KeyPart;

    /// Appends the partition-key encoding of that `T`
    /// ([`KeyPart::encode_partition`]: plain decimals for integers).
    ///
    /// ```
    /// use ddb_entity::KeyArg;
    ///
    /// let (mut partition, mut sort) = (String::new(), String::new());
    /// KeyArg::<u64>::encode_partition_as(&42u64, &mut partition)?;
    /// KeyArg::<u64>::encode_as(&42u64, &mut sort)?;
    /// assert_eq!(partition, "42", "a partition key is matched for equality only");
    /// assert_eq!(sort, "00000000000000000042", "a sort key sorts by width");
    /// # Ok::<(), ddb_entity::key::KeyError>(())
    /// ```
    fn encode_partition_as(&self, out: &mut String) -> Result<(), KeyError>
    where
        T: KeyPart,
    {
        self.encode_as(out)
    }
}

impl<T: ?Sized> KeyArg<T> for T {
    fn encode_as(&self, out: &mut String) -> Result<(), KeyError>
    where
        T: KeyPart,
    {
        self.encode_key(out)
    }

    fn encode_partition_as(&self, out: &mut String) -> Result<(), KeyError>
    where
        T: KeyPart,
    {
        self.encode_partition(out)
    }
}

impl<T: ?Sized> KeyArg<T> for &T {
    fn encode_as(&self, out: &mut String) -> Result<(), KeyError>
    where
        T: KeyPart,
    {
        (**self).encode_key(out)
    }

    fn encode_partition_as(&self, out: &mut String) -> Result<(), KeyError>
    where
        T: KeyPart,
    {
        (**self).encode_partition(out)
    }
}

// The owned string types encode as the `str` they hold (their `KeyPart`
// impls delegate to it), so a borrowed `str` stands for any of them.
macro_rules! str_args {
    ($($owned:ty),*) => {$(
        impl KeyArg<$owned> for &str {
            fn encode_as(&self, out: &mut String) -> Result<(), KeyError> {
                str::encode_key(self, out)
            }
        }
        impl KeyArg<$owned> for &String {
            fn encode_as(&self, out: &mut String) -> Result<(), KeyError> {
                str::encode_key(self, out)
            }
        }
    )*};
}
str_args!(Box<str>, Arc<str>, Rc<str>, Cow<'static, str>);

macro_rules! owned_str_args {
    ($($arg:ty),*) => {$(
        impl KeyArg<String> for $arg {
            fn encode_as(&self, out: &mut String) -> Result<(), KeyError> {
                str::encode_key(self, out)
            }
        }
    )*};
}
owned_str_args!(&str, Box<str>, Cow<'_, str>);

/// A field that can be a *raw* key attribute (`#[entity(pk = field)]`): the
/// field is the key attribute itself, stored once, as the DynamoDB string
/// (`S`) serde writes for it. Only string types are: a key attribute is a
/// string in every table this library declares, and a number or a binary
/// value has no string form the stored key could be compared with. For any
/// other type, use a template (`pk = "{field}"`), which keeps the order.
///
/// # Example
///
/// ```
/// use ddb_entity::RawKey;
///
/// assert_eq!(String::from("tok-1").raw_key(), "tok-1");
/// assert_eq!("tok-1".raw_key(), "tok-1");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a raw key attribute",
    label = "a raw key attribute is this field itself, stored as a DynamoDB string",
    note = "use a `String` field, or a template such as pk = \"USER#{{field}}\" (numbers are zero-padded there, so they sort)"
)]
pub trait RawKey {
    /// The string stored as the key attribute: what serde writes.
    ///
    /// See [`RawKey`'s example](RawKey#example).
    fn raw_key(&self) -> &str;
}

impl RawKey for str {
    fn raw_key(&self) -> &str {
        self
    }
}

impl RawKey for String {
    fn raw_key(&self) -> &str {
        self
    }
}

impl RawKey for Box<str> {
    fn raw_key(&self) -> &str {
        self
    }
}

impl RawKey for Arc<str> {
    fn raw_key(&self) -> &str {
        self
    }
}

impl RawKey for Rc<str> {
    fn raw_key(&self) -> &str {
        self
    }
}

impl RawKey for Cow<'_, str> {
    fn raw_key(&self) -> &str {
        self
    }
}

impl<T: RawKey + ?Sized> RawKey for &T {
    fn raw_key(&self) -> &str {
        (**self).raw_key()
    }
}

// What generated code writes a hole's argument through (reached as
// `__private::key_arg` and `__private::PartitionPart`).

/// A key builder's argument for a hole of type `T`, as the key part it
/// stands for. Generated builders take `impl KeyArg<T>`, which holds for
/// `T` itself even when `T` has no key encoding; the encoding is asked of
/// `T` only here, in the builder's body, where the derive names `T` through
/// its checked alias. A hole type without an encoding is so reported once,
/// at the template, and never again at a call.
#[doc(hidden)]
pub struct KeyArgPart<'a, T: ?Sized, A: ?Sized> {
    arg: &'a A,
    hole: std::marker::PhantomData<fn(&T)>,
}

/// `arg` as a key part of the hole type `T`.
#[doc(hidden)]
pub fn key_arg<T: ?Sized, A: KeyArg<T> + ?Sized>(arg: &A) -> KeyArgPart<'_, T, A> {
    KeyArgPart {
        arg,
        hole: std::marker::PhantomData,
    }
}

impl<T: KeyPart + ?Sized, A: KeyArg<T> + ?Sized> KeyPart for KeyArgPart<'_, T, A> {
    const NOT_AN_ENTITY_FIELD: Option<&'static str> = T::NOT_AN_ENTITY_FIELD;
    const FIXED_LEN: Option<usize> = T::FIXED_LEN;
    const PREFIX_FREE: bool = T::PREFIX_FREE;
    const CARDINALITY: crate::key::Cardinality = T::CARDINALITY;
    const ORDERED: bool = T::ORDERED;

    fn encode_key(&self, out: &mut String) -> Result<(), KeyError> {
        self.arg.encode_as(out)
    }

    fn encode_partition(&self, out: &mut String) -> Result<(), KeyError> {
        self.arg.encode_partition_as(out)
    }
}

/// A partition-key hole that ends its segment and declares no width: its
/// value written by [`KeyPart::encode_partition`] (plain decimals for
/// integers) and read by [`DecodeKeyPart::decode_partition`]. Generated
/// code wraps such holes; the type's other promises but order hold.
#[doc(hidden)]
pub struct PartitionPart<T>(pub T);

impl<T: KeyPart> KeyPart for PartitionPart<T> {
    const NOT_AN_ENTITY_FIELD: Option<&'static str> = T::NOT_AN_ENTITY_FIELD;
    // A plain decimal's length varies; no length is promised.
    const FIXED_LEN: Option<usize> = None;
    const PREFIX_FREE: bool = false;
    const CARDINALITY: crate::key::Cardinality = T::CARDINALITY;
    const ORDERED: bool = false;

    fn encode_key(&self, out: &mut String) -> Result<(), KeyError> {
        self.0.encode_partition(out)
    }
}

impl<T: DecodeKeyPart> DecodeKeyPart for PartitionPart<T> {
    fn decode_key(component: &str) -> Result<Self, KeyError> {
        T::decode_partition(component).map(PartitionPart)
    }
}
