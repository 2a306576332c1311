#![doc = include_str!("../README.md")]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod db;
mod entity;
mod error;
pub mod key;
#[cfg(feature = "local")]
#[cfg_attr(docsrs, doc(cfg(feature = "local")))]
pub mod local;
mod op;
mod table;

#[doc(hidden)]
pub mod __private;

pub use db::Db;
pub use entity::{Entity, IndexEntry, IndexKey, Item, Key, KeyArg, Partition, SortKey};
pub use error::{Error, Result};
pub use op::{CreateTable, Provisioned};
pub use table::{
    Index, IndexSchema, KeySchema, Primary, QueryIndex, Table, TableSchema, validate_table_name,
};

/// `#[derive(Entity)]`: see [`Entity`] and the crate docs.
pub use ddb_entity_derive::Entity;
/// `#[derive(KeyPart)]` for unit enums: see [`key::KeyPart`].
pub use ddb_entity_derive::KeyPart;

/// The crate's own name for the `aws-sdk-dynamodb` crate it is built on, so
/// users and generated code name the same version.
pub use aws_sdk_dynamodb as sdk;
