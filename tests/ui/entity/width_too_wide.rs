use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{id}", sk = "ADDR#{seq:4}")]
pub struct Address {
    pub id: u64,
    pub seq: u8,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let address = Address { id: 1, seq: 2 };
    let _ = async move {
        db.put(&address).await?;
        let _: Option<Address> = db.get(Address::key(1, 2)?).await?;
        let _: Vec<Address> = db.query(Address::partition(1)?).sk_begins_with(Address::sk().seq(2)).all().await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
