use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    pub struct App {
        partition_key: "PK",
        sort_key: "SK",
        indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } },
    }
}
ddb_entity::table! { pub struct Other { partition_key: "PK", sort_key: "SK" } }

// A sound declaration: each mistake below is a use, reported at that use.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
#[entity(index = Gsi1, pk = "X#{id}", sk = "Y#{id}")]
pub struct Customer {
    pub id: u64,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<Other>::new(ddb_entity::sdk::Client::from_conf(config), "other");
    let _ = async move {
        let _: Vec<Customer> = db.query(Customer::gsi1_partition(1)?).all().await?;
        let _: Vec<Customer> = db.query(Customer::partition(1)?).all().await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
