use ddb_entity::key::Unordered;
use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    pub struct App {
        partition_key: "PK",
        sort_key: "SK",
        typed_by: Key,
        indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } },
    }
}

// An unpadded number before another hole: a prefix through it would cut
// `LINE#1` out of `LINE#12`.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "ORDER#{order}", sk = "LINE#{line}#{sku}")]
#[entity(index = Gsi1, pk = "SKU#{sku}", sk = "{line}#ORDER#{order}")]
pub struct Line {
    pub order: String,
    pub line: Unordered<u32>,
    pub sku: String,
}

// In a partition key it may stand anywhere: nothing sorts there.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "SHELF#{shelf}#{aisle}", sk = "BIN#{bin}")]
pub struct Bin {
    pub shelf: Unordered<u16>,
    pub aisle: Unordered<u16>,
    pub bin: Unordered<u32>,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let line = Line { order: "o-1".into(), line: Unordered(1), sku: "s-1".into() };
    let _ = async move {
        db.put(&line).await?;
        let _: Option<Line> = db.get(Line::key("o-1", Unordered(1), "s-1")?).await?;
        let _: Vec<Line> = db
            .query(Line::partition("o-1")?)
            .sk_begins_with(Line::sk().line(Unordered(1)))
            .all()
            .await?;
        let _: Vec<Line> = db.query(Line::gsi1_partition("s-1")?).all().await?;
        let _: Option<Bin> = db.get(Bin::key(Unordered(1), Unordered(2), Unordered(3))?).await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
