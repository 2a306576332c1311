use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    pub struct App {
        partition_key: "PK",
        sort_key: "SK",
        local_indexes: { pub ByStatus = "ByStatus" { sort_key: "status" } },
    }
}

// A local index keeps the table's partition key: it is filled by a field,
// not by `index = …` templates.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{id}", sk = "ORDER#{order}")]
#[entity(index = ByStatus, pk = "CUST#{id}", sk = "{status}")]
pub struct Order {
    pub id: u64,
    pub order: u64,
    pub status: String,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let order = Order { id: 1, order: 2, status: "open".into() };
    let _ = async move {
        db.put(&order).await?;
        let _: Option<Order> = db.get(Order::key(1, 2)?).await?;
        let _: Vec<Order> = db
            .query(Order::by_status_partition(1)?)
            .sk_begins_with(Order::by_status_sk().status("open"))
            .all()
            .await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
