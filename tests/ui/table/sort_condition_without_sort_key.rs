use ddb_entity::{Db, Entity, Primary, SortRange};
use serde::{Deserialize, Serialize};

// A table without a sort key holds one item per partition key.
ddb_entity::table! { pub struct Counters { partition_key: "PK" } }

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = Counters, pk = "COUNTER#{name}")]
pub struct Counter {
    pub name: String,
    pub value: u64,
}

async fn some(db: &Db<Counters>, range: SortRange<Primary<Counters>>) -> ddb_entity::Result<()> {
    let _: Vec<Counter> = db
        .query(Counter::partition("a")?)
        .sk_range(range)
        .all()
        .await?;
    Ok(())
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<Counters>::new(ddb_entity::sdk::Client::from_conf(config), "counters");
    let _ = async move {
        let _: Option<Counter> = db.get(Counter::key("a")?).await?;
        Ok::<(), ddb_entity::Error>(())
    };
    let _ = some;
}
