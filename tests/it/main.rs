//! The integration suite: one test binary (each binary links the whole AWS
//! SDK again), talking over HTTP with the real `aws-sdk-dynamodb` client to
//! the embedded DynamoDB, or to the server named by `DDB_ENDPOINT` (moto in
//! the CI cross-check).

mod batch;
mod collection;
mod conditions;
mod entity;
mod faults;
mod keys;
mod model;
mod ops;
mod query;
mod support;
mod table;
mod timestamps;
mod transact;
mod ttl;
mod update;
