// A delimiter that cannot join key segments is one error at the literal,
// saying which can; the table is still declared, so its entities and uses
// report nothing more.
use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    pub struct Dashed { partition_key: "pk", sort_key: "sk", typed_by: Key, delimiter: '-' }
}

ddb_entity::table! {
    pub struct Quoted { partition_key: "pk", delimiter: "|" }
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = Dashed, type = "EVENT", pk = "TENANT#{tenant}", sk = "EVENT#{id}")]
pub struct Event {
    pub tenant: String,
    pub id: String,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<Dashed>::new(ddb_entity::sdk::Client::from_conf(config), "events");
    let _ = async move {
        let _: Vec<Event> = db.query(Event::partition("acme")?).collect().await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
