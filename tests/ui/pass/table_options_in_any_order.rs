//! `table!` takes its options in any order, in the table, its indexes and a
//! capacity, and declares the same schema as in the documented order,
//! without a warning next to names that shadow the prelude.
#![deny(warnings, missing_docs)]

use ddb_entity::{Index, MultiKeyIndex, Table};

/// Shadows the prelude: generated code must use absolute paths.
#[allow(dead_code)]
struct Option;
/// Shadows the prelude.
#[allow(dead_code)]
struct Some;

ddb_entity::table! {
    /// In the documented order.
    pub struct Ordered {
        partition_key: "PK",
        sort_key: "SK",
        type_attribute: "kind",
        ttl_attribute: "expires",
        token_attribute: "_tok",
        typed_by: KeyAndAttribute,
        write_tokens: false,
        delimiter: '|',
        billing: provisioned { read: 20, write: 10 },
        indexes: {
            /// A global index.
            pub OrderedGsi = "GSI1" {
                partition_key: "GSI1PK",
                sort_key: "GSI1SK",
                projection: include["a", "b"],
                capacity: { read: 5, write: 6 },
            },
        },
        local_indexes: {
            /// A local index.
            pub OrderedLsi = "LSI1" { sort_key: "placed", projection: keys_only },
        },
        multi_key_indexes: {
            /// A multi-key index.
            pub OrderedMulti = "ByRound" {
                partition_key: ["tournament": S],
                sort_key: ["round": N, "score": N],
            },
        },
    }
}

ddb_entity::table! {
    /// The same options, in another order.
    pub struct Shuffled {
        multi_key_indexes: {
            /// A multi-key index.
            pub ShuffledMulti = "ByRound" {
                sort_key: ["round": N, "score": N],
                partition_key: ["tournament": S],
            },
        },
        delimiter: '|',
        write_tokens: false,
        billing: provisioned { write: 10, read: 20 },
        local_indexes: {
            /// A local index.
            pub ShuffledLsi = "LSI1" { projection: keys_only, sort_key: "placed" },
        },
        typed_by: KeyAndAttribute,
        indexes: {
            /// A global index.
            pub ShuffledGsi = "GSI1" {
                capacity: { write: 6, read: 5 },
                projection: include["a", "b"],
                sort_key: "GSI1SK",
                partition_key: "GSI1PK",
            },
        },
        token_attribute: "_tok",
        ttl_attribute: "expires",
        type_attribute: "kind",
        sort_key: "SK",
        partition_key: "PK",
    }
}

pub fn main() -> Result<(), ddb_entity::Error> {
    assert_eq!(Ordered::SCHEMA, Shuffled::SCHEMA);
    assert_eq!(
        <OrderedGsi as Index>::SCHEMA,
        <ShuffledGsi as Index>::SCHEMA
    );
    assert_eq!(
        <OrderedLsi as Index>::SCHEMA,
        <ShuffledLsi as Index>::SCHEMA
    );
    assert_eq!(
        <OrderedMulti as MultiKeyIndex>::SCHEMA,
        <ShuffledMulti as MultiKeyIndex>::SCHEMA
    );
    assert!(Ordered::SCHEMA.validate().is_ok());
    Ok(())
}
