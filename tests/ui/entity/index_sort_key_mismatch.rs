use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    pub struct App {
        partition_key: "PK",
        sort_key: "SK",
        indexes: {
            pub ByEmail = "ByEmail" { partition_key: "EMAIL" },
            pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
        },
    }
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "USER#{id}", sk = "PROFILE")]
#[entity(index = ByEmail, pk = "{email}", sk = "USER#{id}")]
#[entity(index = Gsi1, pk = "USER#{id}")]
pub struct User {
    pub id: u64,
    pub email: String,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let user = User { id: 1, email: "a@b".into() };
    let _ = async move {
        db.put(&user).await?;
        let _: Option<User> = db.get(User::key(1)?).await?;
        let _: Vec<User> = db.query(User::by_email_partition("a@b")?).all().await?;
        let _: Vec<User> = db.query(User::gsi1_partition(1)?).all().await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
