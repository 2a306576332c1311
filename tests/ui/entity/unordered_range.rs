use ddb_entity::key::Unordered;
use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK", typed_by: Key } }

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "ORDER#{order}", sk = "LINE#{line}")]
pub struct Line {
    pub order: String,
    pub line: Unordered<u32>,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let _ = async move {
        // Lines after the 3rd: as text `LINE#10` sorts before `LINE#3`, so
        // no range is built from an unordered hole.
        let _: Vec<Line> = db
            .query(Line::partition("o-1")?)
            .sk_gt(Line::sk().line(Unordered(3)))
            .collect()
            .await?;
        // Nor a prefix: `LINE#1` would find `LINE#12`.
        let _: Vec<Line> = db
            .query(Line::partition("o-1")?)
            .sk_begins_with(Line::sk().line(Unordered(1)))
            .collect()
            .await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
