use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    pub struct Sessions {
        partition_key: "session_token",
        indexes: { pub UserIndex = "UserIndex" { partition_key: "username" } },
    }
}

// A raw key attribute is stored as a string: a number is no string.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = Sessions, pk = session_token, type = "NUMBERED")]
pub struct Numbered {
    pub session_token: u64,
}

// The field must be stored under the key attribute's name.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = Sessions, pk = token, type = "RENAMED")]
#[entity(index = UserIndex, pk = user)]
pub struct Renamed {
    pub token: String,
    #[serde(rename = "username")]
    pub user: String,
}

// A sort key is a template, which keeps the order.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = Sessions, pk = session_token, sk = created, type = "SORTED")]
pub struct RawSortKey {
    pub session_token: String,
    pub created: String,
}

// No literal anywhere: its type is its name, `untyped` (no error).
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = Sessions, pk = session_token)]
pub struct Untyped {
    pub session_token: String,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<Sessions>::new(ddb_entity::sdk::Client::from_conf(config), "sessions");
    let a = Numbered { session_token: 1 };
    let b = Renamed { token: "t".into(), user: "u".into() };
    let c = RawSortKey { session_token: "t".into(), created: "c".into() };
    let d = Untyped { session_token: "t".into() };
    let _ = async move {
        db.put(&a).await?;
        db.put(&b).await?;
        db.put(&c).await?;
        db.put(&d).await?;
        let _: Option<Numbered> = db.get(Numbered::key("1")?).await?;
        let _: Vec<Renamed> = db.query(Renamed::user_index_partition("u")?).all().await?;
        let _: Option<Untyped> = db.get(Untyped::key("t")?).await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
