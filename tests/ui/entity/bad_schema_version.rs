use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

#[derive(Serialize, Deserialize)]
pub struct V1 {
    pub id: u64,
}

#[derive(Serialize, Deserialize)]
pub struct V2 {
    pub id: u64,
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "A#{id}", sk = "A", schema_version = 0)]
pub struct FromZero {
    pub id: u64,
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "B#{id}", sk = "B", upcast = [V1])]
pub struct UpcastWithoutVersion {
    pub id: u64,
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "C#{id}", sk = "C", schema_version = 2, upcast = [V1, V2])]
pub struct LongerChainThanVersions {
    pub id: u64,
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "D#{id}", sk = "D", schema_version = "3", upcast = V1)]
pub struct NotANumberNorAList {
    pub id: u64,
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "E#{id}", sk = "E", schema_version = 3, upcast = [V1, V2])]
pub struct MissingConversion {
    pub id: u64,
}

impl From<V1> for V2 {
    fn from(v: V1) -> Self {
        V2 { id: v.id }
    }
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let _ = async move {
        db.put(&FromZero { id: 1 }).await?;
        db.put(&UpcastWithoutVersion { id: 1 }).await?;
        db.put(&LongerChainThanVersions { id: 1 }).await?;
        db.put(&NotANumberNorAList { id: 1 }).await?;
        db.put(&MissingConversion { id: 1 }).await?;
        let _: Option<FromZero> = db.get(FromZero::key(1)?).await?;
        let _: Option<UpcastWithoutVersion> = db.get(UpcastWithoutVersion::key(1)?).await?;
        let _: Option<LongerChainThanVersions> = db.get(LongerChainThanVersions::key(1)?).await?;
        let _: Option<NotANumberNorAList> = db.get(NotANumberNorAList::key(1)?).await?;
        let _: Option<MissingConversion> = db.get(MissingConversion::key(1)?).await?;
        let _: Vec<MissingConversion> = db.query(MissingConversion::partition(1)?).all().await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
