use ddb_entity::key::Unordered;
use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK", typed_by: Key } }

// Spelled through an alias, the derive cannot see that the hole does not
// sort; the key part says so, and the build stops at the hole.
type LineNumber = Unordered<u32>;

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "ORDER#{order}", sk = "LINE#{line}")]
pub struct Line {
    pub order: String,
    pub line: LineNumber,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let line = Line { order: "o-1".into(), line: Unordered(1) };
    let _ = async move {
        db.put(&line).await?;
        let _: Option<Line> = db.get(Line::key("o-1", Unordered(1))?).await?;
        let _: Vec<Line> = db
            .query(Line::partition("o-1")?)
            .sk_begins_with(Line::sk().line(Unordered(1)))
            .all()
            .await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
