use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
ddb_entity::table! {
    pub struct Other {
        partition_key: "PK",
        sort_key: "SK",
        indexes: { pub OtherGsi = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } },
    }
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
#[entity(index = OtherGsi, pk = "X#{id}", sk = "Y#{id}")]
pub struct Customer {
    pub id: u64,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let customer = Customer { id: 1 };
    let _ = async move {
        db.put(&customer).await?;
        let _: Option<Customer> = db.get(Customer::key(1)?).await?;
        let _: Vec<Customer> = db.query(Customer::other_gsi_partition(1)?).all().await?;
        let _: Vec<Customer> = db
            .query(Customer::other_gsi_partition(1)?)
            .sk_begins_with(Customer::other_gsi_sk().id(1))
            .all()
            .await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
