use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

#[derive(Serialize, Deserialize)]
pub struct V1 {
    pub id: u64,
}

#[derive(Serialize, Deserialize)]
pub struct V2 {
    pub id: u64,
}

// Version 2's shape forgotten: version 2's items would be read as V1.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "A#{id}", sk = "A", schema_version = 3, upcast = [V1])]
pub struct Forgotten {
    pub id: u64,
}

impl From<V1> for Forgotten {
    fn from(v: V1) -> Self {
        Forgotten { id: v.id }
    }
}

// `_` marks the oldest versions no longer read, never one in the chain.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "B#{id}", sk = "B", schema_version = 3, upcast = [V1, _])]
pub struct SkippedInTheMiddle {
    pub id: u64,
}

impl From<V1> for SkippedInTheMiddle {
    fn from(v: V1) -> Self {
        SkippedInTheMiddle { id: v.id }
    }
}

// Right: version 1 is no longer stored, version 2 is read through V2.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "C#{id}", sk = "C", schema_version = 3, upcast = [_, V2])]
pub struct Dropped {
    pub id: u64,
}

impl From<V2> for Dropped {
    fn from(v: V2) -> Self {
        Dropped { id: v.id }
    }
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let _ = async move {
        db.put(&Forgotten { id: 1 }).await?;
        db.put(&SkippedInTheMiddle { id: 1 }).await?;
        db.put(&Dropped { id: 1 }).await?;
        let _: Option<Forgotten> = db.get(Forgotten::key(1)?).await?;
        let _: Option<SkippedInTheMiddle> = db.get(SkippedInTheMiddle::key(1)?).await?;
        let _: Option<Dropped> = db.get(Dropped::key(1)?).await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
