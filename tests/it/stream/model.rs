//! A shop's table for the stream tests: customers (with a binary avatar),
//! orders (also in an overloaded index) and expiring sessions under
//! `CUST#{id}`, and the enum of all three.

use ddb_entity::{Collection, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    /// One table, items that expire, one overloaded index.
    pub struct Shop {
        partition_key: "PK",
        sort_key: "SK",
        ttl_attribute: "expires_at",
        indexes: {
            /// An order by its id.
            pub ByOrder = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
        },
    }
}

/// Bytes stored as a DynamoDB binary (`B`), not as a list of numbers.
#[derive(Debug, Clone, PartialEq)]
pub struct Bytes(pub Vec<u8>);

impl Serialize for Bytes {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(&self.0)
    }
}

impl<'de> Deserialize<'de> for Bytes {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Bytes;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("bytes")
            }
            fn visit_bytes<E: serde::de::Error>(self, bytes: &[u8]) -> Result<Bytes, E> {
                Ok(Bytes(bytes.to_vec()))
            }
            fn visit_byte_buf<E: serde::de::Error>(self, bytes: Vec<u8>) -> Result<Bytes, E> {
                Ok(Bytes(bytes))
            }
        }
        deserializer.deserialize_byte_buf(Visitor)
    }
}

#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = Shop, pk = "CUST#{customer_id}", sk = "PROFILE")]
pub struct Customer {
    pub customer_id: u64,
    pub name: String,
    pub avatar: Option<Bytes>,
}

#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = Shop, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}")]
#[entity(index = ByOrder, pk = "ORDER#{order_id}", sk = "CUST#{customer_id}")]
pub struct Order {
    pub customer_id: u64,
    pub order_id: u64,
    pub total_cents: i64,
}

#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = Shop, pk = "CUST#{customer_id}", sk = "SESSION#{id}")]
pub struct Session {
    pub customer_id: u64,
    pub id: u32,
    /// Epoch seconds.
    pub expires_at: Option<u64>,
}

/// Any item of the shop's table.
#[derive(Collection, Debug, Clone, PartialEq)]
pub enum ShopItem {
    Customer(Customer),
    Order(Order),
    Session(Session),
}
