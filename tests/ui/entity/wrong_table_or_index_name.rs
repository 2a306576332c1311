use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    pub struct App {
        partition_key: "PK",
        sort_key: "SK",
        indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } },
    }
}

// A misspelt table.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = Ap, pk = "A#{id}", sk = "A")]
pub struct UnknownTable {
    pub id: u64,
}

// A misspelt index.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "B#{id}", sk = "B")]
#[entity(index = Gsi2, pk = "X#{id}", sk = "Y#{id}")]
pub struct UnknownIndex {
    pub id: u64,
}

// An index where the table goes.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = Gsi1, pk = "C#{id}", sk = "C")]
pub struct IndexAsTable {
    pub id: u64,
}

// The table where an index goes.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "D#{id}", sk = "D")]
#[entity(index = App, pk = "X#{id}", sk = "Y#{id}")]
pub struct TableAsIndex {
    pub id: u64,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let _ = async move {
        db.put(&UnknownTable { id: 1 }).await?;
        let _: Option<UnknownTable> = db.get(UnknownTable::key(1)?).await?;
        let _: Vec<UnknownTable> = db
            .query(UnknownTable::partition(1)?)
            .sk_begins_with(UnknownTable::sk())
            .all()
            .await?;
        db.put(&UnknownIndex { id: 1 }).await?;
        let _: Vec<UnknownIndex> = db
            .query(UnknownIndex::gsi2_partition(1)?)
            .sk_begins_with(UnknownIndex::gsi2_sk().id(1))
            .all()
            .await?;
        db.put(&IndexAsTable { id: 1 }).await?;
        let _: Option<IndexAsTable> = db.get(IndexAsTable::key(1)?).await?;
        let _: Vec<IndexAsTable> = db.query(IndexAsTable::partition(1)?).all().await?;
        db.put(&TableAsIndex { id: 1 }).await?;
        let _: Vec<TableAsIndex> = db
            .query(TableAsIndex::app_partition(1)?)
            .sk_begins_with(TableAsIndex::app_sk().id(1))
            .all()
            .await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
