use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "A#{id}", sk = "A", version = "revision")]
pub struct UnknownField {
    pub id: u64,
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "B#{id}", sk = "B", version = "id")]
pub struct KeyField {
    pub id: u64,
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "C#{id}", sk = "C", version = "version")]
pub struct NotAnInteger {
    pub id: u64,
    pub version: String,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let a = UnknownField { id: 1 };
    let b = KeyField { id: 1 };
    let c = NotAnInteger { id: 1, version: String::new() };
    let _ = async move {
        db.put(&a).await?;
        db.put(&b).await?;
        db.put(&c).await?;
        let _: Option<UnknownField> = db.get(UnknownField::key(1)?).await?;
        let _: Option<KeyField> = db.get(KeyField::key(1)?).await?;
        let _: Option<NotAnInteger> = db.get(NotAnInteger::key(1)?).await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
