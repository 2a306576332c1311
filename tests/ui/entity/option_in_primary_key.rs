use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "TICKET#{id}", sk = "OPEN#{open_since}")]
pub struct Ticket {
    pub id: u64,
    pub open_since: Option<u32>,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let ticket = Ticket { id: 1, open_since: Some(2) };
    let _ = async move {
        db.put(&ticket).await?;
        let _: Option<Ticket> = db.get(Ticket::key(1, 2)?).await?;
        let _: Vec<Ticket> = db.query(Ticket::partition(1)?).sk_begins_with(Ticket::sk().open_since(2)).all().await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
