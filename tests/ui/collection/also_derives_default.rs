use ddb_entity::{Collection, Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
pub struct Customer {
    pub id: u64,
}

// #[derive(Collection)] writes the Default impl itself.
#[derive(Collection, Default)]
pub struct View {
    pub customer: Option<Customer>,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let _ = async move {
        let _: View = db.query(Customer::partition(1)?).collect().await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
