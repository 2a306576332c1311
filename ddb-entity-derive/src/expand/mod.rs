//! Code generation from validated models. Nothing here validates.
//!
//! Generated code names everything by absolute path (`::ddb_entity::…`,
//! `::core::…`) so a user's own `Result`, `Option` or `Vec` cannot capture
//! it, and reaches the runtime's internals only through
//! `::ddb_entity::__private`. Everything an entity or a collection
//! generates sits in one `const _: () = { … };`: its helper types (the
//! field list, the sort-key stages) take no name in the user's module, and
//! are reached through the entity (`Order::fields()`, `Order::sk()`).
//! Every trait impl is `#[automatically_derived]` (rustc rejects the
//! attribute on inherent impls, where it would mean nothing).

mod checks;
mod collection;
mod delimiter;
mod entity;
mod fields;
mod key_part;
mod keys;
mod layout;
mod matches;
mod schema;
mod update;

pub(crate) use collection::collection;
pub(crate) use entity::entity;
pub(crate) use key_part::key_part;
