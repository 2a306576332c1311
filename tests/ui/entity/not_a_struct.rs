use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "X#{0}", sk = "Y")]
pub struct Tuple(pub u64);

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "X", sk = "Y")]
pub enum Kind {
    A,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let tuple = Tuple(1);
    let kind = Kind::A;
    let _ = async move {
        db.put(&tuple).await?;
        db.put(&kind).await?;
        let _: Option<Tuple> = db.get(Tuple::key(1)?).await?;
        let _: Option<Kind> = db.get(Kind::key()?).await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
