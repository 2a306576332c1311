// A misspelt option of the table, of an index or of a capacity is one
// error at the name, with a did-you-mean; the table is still declared with
// the option it is near, so its uses report nothing more.
use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    pub struct App {
        partition_key: "PK",
        sort_kye: "SK",
        billing: provisioned { read: 5, wrte: 5 },
        indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", projecton: keys_only } },
    }
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
#[entity(index = Gsi1, pk = "NAME#{name}")]
pub struct Customer {
    pub id: u64,
    pub name: String,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let _ = async move {
        let _: Vec<Customer> = db
            .query(Customer::partition(1)?)
            .sk_begins_with(Customer::sk())
            .collect()
            .await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
