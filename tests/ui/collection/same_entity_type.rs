use ddb_entity::{Collection, Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

// `Customer`'s type is its name, `customer`; `User` declares the same:
// an item could be either. (Two sort keys that are both "PROFILE" are
// no collision: the types are the struct names.)
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{id}", sk = "PROFILE")]
pub struct Customer {
    pub id: u64,
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, type = "customer", pk = "USER#{email}", sk = "PROFILE")]
pub struct User {
    pub email: String,
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{id}", sk = "ORDER#{order_id}")]
pub struct Order {
    pub id: u64,
    pub order_id: u64,
}

#[derive(Collection)]
pub struct View {
    pub customer: Option<Customer>,
    pub orders: Vec<Order>,
    pub user: Option<User>,
}

#[derive(Collection)]
pub enum Item {
    Customer(Customer),
    User(User),
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let _ = async move {
        let _: View = db.query(Customer::partition(1)?).collect().await?;
        let _: Vec<Item> = db.query(Customer::partition(1)?).all().await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
