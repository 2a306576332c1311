use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

// A width pads integers; `region` is a string.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "STORE#{region:6}", sk = "STORE#{id}")]
pub struct Store {
    pub region: String,
    pub id: u64,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let store = Store { region: "eu".into(), id: 1 };
    let _ = async move {
        db.put(&store).await?;
        let _: Option<Store> = db.get(Store::key("eu", 1)?).await?;
        let _: Vec<Store> = db.query(Store::partition("eu")?).all().await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
