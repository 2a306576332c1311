use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    pub struct App {
        partition_key: "PK",
        sort_key: "SK",
        indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } },
    }
}

// Bytes are no key part.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "BLOB#{digest}", sk = "BLOB")]
pub struct Blob {
    pub digest: Vec<u8>,
}

// A sparse index hole is `Option<T>`; `Option<Option<T>>` is no key part.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "TICKET#{id}", sk = "TICKET")]
#[entity(index = Gsi1, pk = "OPEN#{open_since}", sk = "TICKET#{id}")]
pub struct Ticket {
    pub id: u64,
    pub open_since: Option<Option<u32>>,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let blob = Blob { digest: vec![1, 2] };
    let ticket = Ticket { id: 1, open_since: None };
    let _ = async move {
        db.put(&blob).await?;
        db.put(&ticket).await?;
        let _: Option<Blob> = db.get(Blob::key(vec![1u8, 2])?).await?;
        let _: Option<Ticket> = db.get(Ticket::key(1)?).await?;
        let _: Vec<Ticket> = db.query(Ticket::gsi1_partition(7u32)?).all().await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
