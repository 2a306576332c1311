//! The struct an entity (or a collection) is derived from, read into what
//! the checks need.

use syn::{Field, GenericArgument, Ident, PathArguments, Type};

/// One named field.
pub(crate) struct KeyField<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) ty: &'a Type,
    /// `T` when the field is written `Option<T>`: it can make an index sparse.
    pub(crate) option_inner: Option<&'a Type>,
    /// Whether and under which name serde stores it.
    pub(crate) serde: crate::serde_attr::SerdeField,
}

impl<'a> KeyField<'a> {
    pub(crate) fn new(field: &'a Field) -> Option<Self> {
        Some(KeyField {
            ident: field.ident.as_ref()?,
            ty: &field.ty,
            option_inner: option_inner(&field.ty),
            serde: crate::serde_attr::field(&field.attrs),
        })
    }

    /// The field's name without a raw-identifier prefix.
    pub(crate) fn name(&self) -> String {
        let name = self.ident.to_string();
        name.strip_prefix("r#").map(str::to_owned).unwrap_or(name)
    }
}

/// `Option<T>` (also `std::option::Option<T>`, `core::option::Option<T>`)
/// recognised by its path: a derive cannot resolve types.
pub(crate) fn option_inner(ty: &Type) -> Option<&Type> {
    wrapper_inner(ty, "Option", "option", &["std", "core"])
}

/// `Vec<T>` (also `std::vec::Vec<T>`, `alloc::vec::Vec<T>`) recognised by
/// its path, like [`option_inner`].
pub(crate) fn vec_inner(ty: &Type) -> Option<&Type> {
    wrapper_inner(ty, "Vec", "vec", &["std", "alloc"])
}

/// `T` of `Name<T>` or `root::module::Name<T>` for one of `roots`.
fn wrapper_inner<'a>(ty: &'a Type, name: &str, module: &str, roots: &[&str]) -> Option<&'a Type> {
    let Type::Path(path) = ty else { return None };
    if path.qself.is_some() {
        return None;
    }
    let segments: Vec<_> = path.path.segments.iter().collect();
    let last = segments.last()?;
    let prefix_ok = match segments.len() {
        1 => true,
        3 => {
            let root = segments[0].ident.to_string();
            roots.contains(&root.as_str()) && segments[1].ident == module
        }
        _ => false,
    };
    if !prefix_ok || last.ident != name {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first() {
        Some(GenericArgument::Type(inner)) if args.args.len() == 1 => Some(inner),
        _ => None,
    }
}
