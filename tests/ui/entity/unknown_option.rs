use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

// `verison` for `version`: the error is on the name, with the near option.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}", verison = "version")]
pub struct Order {
    pub customer_id: u64,
    pub order_id: u64,
    pub version: u64,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let order = Order { customer_id: 1, order_id: 2, version: 0 };
    let _ = async move {
        db.put(&order).await?;
        let _: Option<Order> = db.get(Order::key(1, 2)?).await?;
        let _: Vec<Order> = db
            .query(Order::partition(1)?)
            .sk_begins_with(Order::sk().order_id(2))
            .all()
            .await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
