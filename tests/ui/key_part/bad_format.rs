use ddb_entity::{Db, Entity, KeyPart};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

// `format` is "name" or "position".
#[derive(KeyPart, Serialize, Deserialize, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[key(format = "positions")]
pub enum Status {
    Open,
    Closed,
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "TICKET#{status}", sk = "TICKET#{id}")]
pub struct Ticket {
    pub id: u64,
    pub status: Status,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let _ = async move {
        let _: Option<Ticket> = db.get(Ticket::key(Status::Open, 1)?).await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
