//! Single-item writes: put and create (PutItem), delete (DeleteItem) and
//! update (UpdateItem), each conditioned on what it must not overwrite.

pub(crate) mod delete;
mod failure;
pub(crate) mod put;
pub(crate) mod update;

pub use delete::{Delete, DeleteReturningOld};
pub use put::Put;
pub use update::Update;
