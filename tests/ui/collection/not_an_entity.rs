use ddb_entity::{Collection, Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
pub struct Customer {
    pub id: u64,
}

#[derive(Collection)]
pub struct View {
    pub customer: Option<Customer>,
    pub notes: Vec<String>,
}

#[derive(Collection)]
pub enum Item {
    Customer(Customer),
    Count(u32),
}

// The first member names the collection's table: reported once, not once
// per member.
#[derive(Collection)]
pub struct FirstIsNot {
    pub notes: Vec<String>,
    pub customer: Option<Customer>,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let _ = async move {
        let _: View = db.query(Customer::partition(1)?).collect().await?;
        let _: Vec<Item> = db.query(Customer::partition(1)?).all().await?;
        let _: FirstIsNot = db.query(Customer::partition(1)?).collect().await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
