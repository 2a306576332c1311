#![doc = include_str!("../README.md")]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod db;
mod error;
pub mod key;
#[cfg(feature = "local")]
#[cfg_attr(docsrs, doc(cfg(feature = "local")))]
pub mod local;
mod op;
mod table;

pub use db::Db;
pub use error::{Error, Result};
pub use op::{CreateTable, Provisioned};
pub use table::{Index, IndexSchema, KeySchema, Table, TableSchema, validate_table_name};
