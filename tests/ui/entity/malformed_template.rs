use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{id}", sk = "ORDER#{id")]
pub struct MixedAndUnclosed {
    pub id: u64,
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "", sk = "A##B")]
pub struct EmptyTemplateAndSegment {
    pub id: u64,
}

// Only the start may be empty: a leading `#`, before other segments.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "#", sk = "A#")]
pub struct EmptyAtTheEnd {
    pub id: u64,
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "ID#{id}#{id}", sk = "X#{a}{b}#{n:0}")]
pub struct RepeatedHoleTwoHolesBadWidth {
    pub id: u64,
    pub a: u64,
    pub b: u64,
    pub n: u64,
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "T#{r#type}", sk = "X")]
pub struct RawIdentifier {
    pub r#type: u64,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let a = MixedAndUnclosed { id: 1 };
    let b = EmptyTemplateAndSegment { id: 1 };
    let c = RepeatedHoleTwoHolesBadWidth { id: 1, a: 2, b: 3, n: 4 };
    let d = RawIdentifier { r#type: 1 };
    let e = EmptyAtTheEnd { id: 1 };
    let _ = async move {
        db.put(&a).await?;
        db.put(&b).await?;
        db.put(&c).await?;
        db.put(&d).await?;
        db.put(&e).await?;
        let _: Option<MixedAndUnclosed> = db.get(MixedAndUnclosed::key(1)?).await?;
        let _: Option<EmptyTemplateAndSegment> = db.get(EmptyTemplateAndSegment::key()?).await?;
        let _: Option<RepeatedHoleTwoHolesBadWidth> = db.get(RepeatedHoleTwoHolesBadWidth::key(1, 2, 3, 4)?).await?;
        let _: Option<RawIdentifier> = db.get(RawIdentifier::key(1)?).await?;
        let _: Option<EmptyAtTheEnd> = db.get(EmptyAtTheEnd::key()?).await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
