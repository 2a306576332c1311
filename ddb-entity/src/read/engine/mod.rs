//! The read engine below every read builder: [`page::send`] sends one
//! page of any source (a partition, a shard, a multi-attribute index, a
//! scan segment) and does once what every page needs; [`run::Run`] reads
//! a source's lanes and merges them; [`finish`] holds the finishing
//! methods, written once for every source.

pub(crate) mod bounded;
pub(crate) mod finish;
pub(crate) mod found;
pub(crate) mod page;
pub(crate) mod run;
pub(crate) mod seam;
pub(crate) mod single;
mod split;

pub(crate) use page::{Operation, Rendered, Target};
// The jobs' segment reader sends its pages itself, through `page::send`.
#[cfg(feature = "evolve")]
pub(crate) use page::{Items, Request, Totals};
