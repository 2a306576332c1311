use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

// A table designed by hand, its key segments joined with `|`.
ddb_entity::table! {
    pub struct Legacy { partition_key: "PK", sort_key: "SK", typed_by: Key, delimiter: '|' }
}

// Joined with `#`, the table's default, not its declared `|`; the same
// template written twice is one mistake, reported once.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = Legacy, pk = "TENANT#{tenant}", sk = "TENANT#{tenant}")]
pub struct Tenant {
    pub tenant: u64,
}

// A string followed by more of the key: "a|x" would sort after "ab|y".
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = Legacy, type = "EVENT", pk = "TENANT|{tenant}", sk = "EVENT|{kind}|{at}")]
pub struct Event {
    pub tenant: u64,
    pub kind: String,
    pub at: u64,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<Legacy>::new(ddb_entity::sdk::Client::from_conf(config), "legacy");
    let _ = async move {
        db.put(&Tenant { tenant: 1 }).await?;
        let _: Option<Tenant> = db.get(Tenant::key(1)?).await?;
        db.put(&Event { tenant: 1, kind: "login".into(), at: 7 }).await?;
        let _: Option<Event> = db.get(Event::key(1, "login", 7)?).await?;
        let _: Vec<Event> = db.query(Event::partition(1)?).all().await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
