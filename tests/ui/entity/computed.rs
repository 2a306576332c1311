use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    pub struct App {
        partition_key: "PK",
        sort_key: "SK",
        indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } },
    }
}

fn upper(name: &String) -> String {
    name.to_uppercase()
}

fn always(_: &u64) -> bool {
    true
}

// The primary key must read back into fields: no computed value there.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "USER#{shout}", sk = "USER")]
#[entity(computed = shout: String = upper(name))]
#[entity(index = Gsi1, pk = "NAME#{shout}", sk = "USER")]
pub struct InPrimary {
    pub name: String,
}

// A computed value reads fields, and has a name of its own.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "USER#{id}", sk = "USER")]
#[entity(computed = name: String = upper(nickname))]
#[entity(computed = loud: String = upper(nick))]
#[entity(index = Gsi1, pk = "NAME#{name}", sk = "{loud}")]
pub struct BadInputs {
    pub id: u64,
    pub name: String,
    pub nickname: String,
}

// Declared and never used; a predicate reading no field.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "USER#{id}", sk = "USER")]
#[entity(computed = unused: String = upper(name))]
#[entity(index = Gsi1, pk = "ALL", sk = "{id}", when = always(idd))]
pub struct Unused {
    pub id: u64,
    pub name: String,
}

// Not a call of fields.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "USER#{id}", sk = "USER", when = always(id))]
#[entity(computed = shout = upper(name))]
#[entity(index = Gsi1, pk = "ALL", sk = "{id}", when = id > 3)]
pub struct Malformed {
    pub id: u64,
    pub name: String,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let a = InPrimary { name: "a".into() };
    let b = BadInputs { id: 1, name: "b".into(), nickname: "n".into() };
    let c = Unused { id: 1, name: "c".into() };
    let d = Malformed { id: 1, name: "d".into() };
    let _ = async move {
        db.put(&a).await?;
        db.put(&b).await?;
        db.put(&c).await?;
        db.put(&d).await?;
        let _: Vec<BadInputs> = db.query(BadInputs::gsi1_partition("N")?).all().await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
