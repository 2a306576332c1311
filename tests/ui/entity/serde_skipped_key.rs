use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
pub struct Customer {
    #[serde(skip)]
    pub id: u64,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let customer = Customer { id: 1 };
    let _ = async move {
        db.put(&customer).await?;
        let _: Option<Customer> = db.get(Customer::key(1)?).await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
