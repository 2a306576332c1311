use ddb_entity::{Collection, Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
pub struct Customer {
    pub id: u64,
}

#[derive(Collection)]
pub struct Nothing {}

#[derive(Collection)]
pub enum Never {}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let _ = async move {
        let _: Nothing = db.query(Customer::partition(1)?).collect().await?;
        let _: Vec<Never> = db.query(Customer::partition(1)?).all().await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
