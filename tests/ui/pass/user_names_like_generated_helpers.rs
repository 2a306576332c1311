//! A user's own types named like the helpers the derive generates
//! (`{Entity}Fields`, `{Entity}Sk`, `{Entity}{Index}Sk`) live next to the
//! entity: generated helpers take no names in the user's namespace.
#![deny(warnings, missing_docs)]

use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    /// The table.
    pub struct App {
        partition_key: "PK",
        sort_key: "SK",
        indexes: {
            /// An index.
            pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
        },
    }
}

/// An order.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{placed}#{order_id}")]
#[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "CUST#{customer_id}")]
pub struct Order {
    /// Customer.
    pub customer_id: u64,
    /// Order.
    pub order_id: u64,
    /// Placed.
    pub placed: u32,
    /// Total.
    pub total: i64,
}

/// The user's own type, named like a generated field list.
pub struct OrderFields {
    /// Something of the user's.
    pub mine: u8,
}

/// The user's own type, named like a generated sort-key builder.
pub struct OrderSk;

/// The user's own type, named like a generated index sort-key builder.
pub enum OrderGsi1Sk {
    /// Something of the user's.
    Mine,
}

/// What a service does with the entity: compiles, never runs here.
async fn service(db: Db<App>, order: Order) -> Result<(), ddb_entity::Error> {
    db.put(&order).await?;
    let _: Option<Order> = db.get(Order::key(1, 3, 2)?).await?;
    let _: Vec<Order> = db
        .query(Order::partition(1)?)
        .sk_begins_with(Order::sk().placed(3))
        .all()
        .await?;
    let _: Vec<Order> = db
        .query(Order::gsi1_partition(2)?)
        .sk_eq(Order::gsi1_sk().customer_id(1))
        .all()
        .await?;
    db.update(Order::key(1, 3, 2)?)
        .set(Order::fields().total, 5)
        .await?;
    Ok(())
}

pub(crate) fn main() -> Result<(), ddb_entity::Error> {
    let _ = (OrderFields { mine: 1 }, OrderSk, OrderGsi1Sk::Mine);
    let order = Order {
        customer_id: 1,
        order_id: 2,
        placed: 3,
        total: 4,
    };
    assert_eq!(order.primary_key()?, Order::key(1, 3, 2)?);
    let _ = service;
    Ok(())
}
