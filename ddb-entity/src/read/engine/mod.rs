//! The read engine below every read builder: [`page::send`] sends one
//! page of any source (a partition, a shard, a multi-attribute index, a
//! scan segment) and does once what every page needs.

pub(crate) mod bounded;
pub(crate) mod page;

pub(crate) use page::{Items, Operation, Rendered, Target, Totals};
