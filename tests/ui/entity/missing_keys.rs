use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

#[derive(Entity, Serialize, Deserialize)]
#[entity(pk = "CUST#{id}", sk = "PROFILE")]
pub struct NoTable {
    pub id: u64,
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App)]
pub struct NoKeys {
    pub id: u64,
}

// A sort key that starts with a hole: its type is its name,
// `no_type_prefix` (no error).
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{id}", sk = "{id}")]
pub struct NoTypePrefix {
    pub id: u64,
}

// The table has a sort key: so has each of its entities.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{id}")]
pub struct NoSortKey {
    pub id: u64,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let a = NoTable { id: 1 };
    let b = NoKeys { id: 1 };
    let c = NoTypePrefix { id: 1 };
    let d = NoSortKey { id: 1 };
    let _ = async move {
        db.put(&a).await?;
        db.put(&b).await?;
        db.put(&c).await?;
        db.put(&d).await?;
        let _: Option<NoSortKey> = db.get(NoSortKey::key(1)?).await?;
        let _: Option<NoTable> = db.get(NoTable::key(1)?).await?;
        let _: Vec<NoTable> = db.query(NoTable::partition(1)?).all().await?;
        let _: Option<NoTypePrefix> = db.get(NoTypePrefix::key(1)?).await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
