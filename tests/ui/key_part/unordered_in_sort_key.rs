use ddb_entity::{Db, Entity, KeyPart};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    pub struct App {
        partition_key: "PK",
        sort_key: "SK",
        indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } },
    }
}

// Stored as names, `Open` and `Closed`, which sort as `Closed` < `Open`:
// fine in a partition key, where keys are only matched; a sort-key hole
// would let a range compare them out of declaration order.
#[derive(KeyPart, Serialize, Deserialize, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    Open,
    Closed,
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "TICKET#{id}", sk = "TICKET#{status}")]
#[entity(index = Gsi1, pk = "STATUS#{status}", sk = "TICKET#{id}")]
pub struct Ticket {
    pub id: u64,
    pub status: Status,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let _ = async move {
        let _: Vec<Ticket> = db
            .query(Ticket::partition(1)?)
            .sk_gt(Ticket::sk().status(Status::Open))
            .all()
            .await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
