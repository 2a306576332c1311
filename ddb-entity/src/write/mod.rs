//! Single-item writes: put and create (PutItem), delete (DeleteItem) and
//! update (UpdateItem), each conditioned on what it must not overwrite.

mod attempts;
pub(crate) mod delete;
pub(crate) mod failure;
pub(crate) mod preview;
pub(crate) mod put;
pub(crate) mod token;
pub(crate) mod update;

pub(crate) use attempts::Attempts;
pub use delete::{Delete, DeleteReturningOld};
pub use put::{Put, PutReturningNew, PutReturningOld};
pub use update::{Update, UpdateReturningOld};
