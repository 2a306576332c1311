//! The integration suite: one test binary (each binary links the whole AWS
//! SDK again), talking over HTTP with the real `aws-sdk-dynamodb` client to
//! the embedded DynamoDB, or to the server named by `DDB_ENDPOINT` (moto in
//! the CI cross-check).

mod adopt;
mod applied_decode;
mod batch;
mod bytes;
mod codec;
mod collection;
mod computed;
mod conditions;
mod counters;
mod engine;
mod entity;
mod evolve;
mod exact;
mod exactly_once;
mod expressions;
mod faults;
mod filters;
mod guards;
mod hash_only;
mod keys;
mod late_attempts;
mod late_random;
mod matrix;
mod misconfig;
mod model;
mod modelling;
mod multi_key;
mod ops;
mod ordered_bodies;
mod predicates;
mod projection;
mod query;
mod ranges;
mod returns;
mod scan;
mod sealed_cursors;
mod seeds;
mod shards;
mod stream;
mod support;
mod table;
mod templates;
mod timestamps;
mod transact;
mod transact_get;
mod ttl;
mod update;
mod upsert;
mod verify;
mod write_preview;
mod write_requests;
