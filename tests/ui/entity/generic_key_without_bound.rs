use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

// `Id` fills a hole but is not declared a key part.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "TENANT#{id}", sk = "TENANT")]
pub struct Tenant<Id> {
    pub id: Id,
    pub name: String,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let tenant = Tenant { id: 1u64, name: "a".into() };
    let _ = async move {
        db.put(&tenant).await?;
        let _: Option<Tenant<u64>> = db.get(Tenant::<u64>::key(1)?).await?;
        let _: Vec<Tenant<u64>> = db.query(Tenant::<u64>::partition(1)?).all().await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
