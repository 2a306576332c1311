use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

// u128/i128 have a key encoding, but no item body can hold them.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "ACCOUNT#{id}", sk = "ENTRY#{amount}")]
pub struct Entry {
    pub id: u128,
    pub amount: i128,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let entry = Entry { id: 1, amount: -5 };
    let _ = async move {
        db.put(&entry).await?;
        let _: Option<Entry> = db.get(Entry::key(1u128, -5i128)?).await?;
        let _: Vec<Entry> = db
            .query(Entry::partition(1u128)?)
            .sk_begins_with(Entry::sk().amount(-5i128))
            .all()
            .await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
