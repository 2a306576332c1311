use ddb_entity::{Collection, Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
pub struct Customer {
    pub id: u64,
}

#[derive(Collection)]
pub struct Tuple(Option<Customer>);

#[derive(Collection)]
pub struct Unit;

#[derive(Collection)]
pub union Union {
    customer: std::mem::ManuallyDrop<Option<Customer>>,
}

#[derive(Collection)]
pub struct Generic<T> {
    pub customer: Option<Customer>,
    pub extra: Vec<T>,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let _ = async move {
        let _: Tuple = db.query(Customer::partition(1)?).collect().await?;
        let _: Unit = db.query(Customer::partition(1)?).collect().await?;
        let _: Generic<u8> = db.query(Customer::partition(1)?).collect().await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
