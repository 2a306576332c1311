use ddb_entity::{Collection, Db, Entity};
use serde::{Deserialize, Serialize};

// A hand-made hash-only table typed by key, keyed by raw strings.
ddb_entity::table! { pub struct Tokens { partition_key: "PK", typed_by: Key } }

// The key attribute is the token itself: any string.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = Tokens, pk = token, type = "SESSION")]
pub struct Session {
    #[serde(rename = "PK")]
    pub token: String,
    pub username: String,
}

// Also any string, under another field's name: no key tells them apart.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = Tokens, pk = code, type = "INVITE")]
pub struct Invite {
    #[serde(rename = "PK")]
    pub code: String,
    pub email: String,
}

#[derive(Collection)]
pub enum Token {
    Session(Session),
    Invite(Invite),
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<Tokens>::new(ddb_entity::sdk::Client::from_conf(config), "tokens");
    let _ = async move {
        let _: Vec<Token> = db.scan().collect().await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
