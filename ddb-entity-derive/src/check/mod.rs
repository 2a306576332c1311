//! The rules that span a derive's attributes, templates and fields, one
//! file per derive. They read the [`ast`](crate::ast) and record errors;
//! they build nothing, and `expand` runs only when they found none.

mod collection;
mod entity;
mod key_part;
mod unordered;

pub(crate) use collection::collection;
pub(crate) use entity::entity;
pub(crate) use key_part::key_part;
