use ddb_entity::key::StrPrefix;
use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

#[derive(Serialize, Deserialize)]
pub struct Money {
    pub cents: i64,
}

// The mistake is the declaration's: `Money` has no key encoding, so it has
// no cuts either; cutting it reports nothing more.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{id}", sk = "BALANCE#{balance}")]
pub struct Balance {
    pub id: u64,
    pub balance: Money,
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{id}", sk = "ORDER#{placed}#{order_id}")]
pub struct Order {
    pub id: u64,
    pub placed: String,
    pub order_id: u64,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let _ = async move {
        let _: Vec<Balance> = db
            .query(Balance::partition(1)?)
            .sk_begins_with(Balance::sk().balance_prefix(StrPrefix("1")))
            .all()
            .await?;
        // A sound declaration, a wrong cut: a string is cut by a
        // `StrPrefix`, not by a `&str`.
        let _: Vec<Order> = db
            .query(Order::partition(1)?)
            .sk_begins_with(Order::sk().placed_prefix("2026"))
            .all()
            .await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
