use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

fn upper(name: &String) -> String {
    name.to_uppercase()
}

// A computed value in the primary key alone: one error, at the hole (not a
// second one saying the value is in no index template).
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "USER#{shout}", sk = "USER")]
#[entity(computed = shout: String = upper(name))]
pub struct User {
    pub name: String,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let user = User { name: "a".into() };
    let _ = async move {
        db.put(&user).await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
