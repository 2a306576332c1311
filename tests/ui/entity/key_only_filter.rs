use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

// `order_id` fills the sort key and is stored there only: an item has no
// `order_id` attribute, so a filter or condition on it is refused, with
// what to do instead.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}")]
pub struct Order {
    pub customer_id: u64,
    pub order_id: u64,
    pub total_cents: i64,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let f = Order::fields();
    let _ = async move {
        let _: Vec<Order> = db
            .query(Order::partition(1)?)
            .filter(f.order_id.gt(2).and(f.total_cents.gt(100)))
            .all()
            .await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
