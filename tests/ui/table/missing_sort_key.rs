use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

// A single table has a sort key; this one forgot it, and its index has one.
ddb_entity::table! {
    pub struct App {
        partition_key: "PK",
        indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } },
    }
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
#[entity(index = Gsi1, pk = "EMAIL#{email}", sk = "CUST#{id}")]
pub struct Customer {
    pub id: u64,
    pub email: String,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let customer = Customer { id: 1, email: "a@b".into() };
    let _ = async move {
        db.put(&customer).await?;
        let _: Option<Customer> = db.get(Customer::key(1)?).await?;
        let _: Vec<Customer> = db
            .query(Customer::gsi1_partition("a@b")?)
            .sk_begins_with(Customer::gsi1_sk().id(1))
            .all()
            .await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
