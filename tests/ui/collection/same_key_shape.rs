use ddb_entity::{Collection, Db, Entity};
use serde::{Deserialize, Serialize};

// Typed by key: the keys are the only type there is.
ddb_entity::table! { pub struct Legacy { partition_key: "PK", sort_key: "SK", typed_by: Key } }

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = Legacy, pk = "USER#{email}", sk = "ORDER#{placed}#{id}")]
pub struct Order {
    pub email: String,
    pub placed: u32,
    pub id: String,
}

// The same templates but for the holes' names: no key tells them apart.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = Legacy, type = "RETURN", pk = "USER#{user}", sk = "ORDER#{day}#{return_id}")]
pub struct Return {
    pub user: String,
    pub day: u32,
    pub return_id: String,
}

#[derive(Collection)]
pub struct History {
    pub orders: Vec<Order>,
    pub returns: Vec<Return>,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<Legacy>::new(ddb_entity::sdk::Client::from_conf(config), "legacy");
    let _ = async move {
        let _: History = db.query(Order::partition("a@b")?).collect().await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
