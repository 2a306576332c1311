use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "A#{id}", sk = "A", created_at = "created")]
pub struct UnknownField {
    pub id: u64,
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "B#{id}", sk = "B", updated_at = "updated")]
pub struct NotATimestamp {
    pub id: u64,
    pub updated: String,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let a = UnknownField { id: 1 };
    let b = NotATimestamp { id: 1, updated: String::new() };
    let _ = async move {
        db.put(&a).await?;
        db.put(&b).await?;
        let _: Option<UnknownField> = db.get(UnknownField::key(1)?).await?;
        let _: Option<NotATimestamp> = db.get(NotATimestamp::key(1)?).await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
