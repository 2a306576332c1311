use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

// A string's encoding can start another's ("a" starts "ab"): literal text
// after it in the segment would break the order.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "USER#{user}", sk = "{name}REACTION#{id}", type = "REACTION")]
pub struct Reaction {
    pub user: u64,
    pub name: String,
    pub id: u64,
}

// A signed integer is prefix-free but not of one length (`-` on
// negatives): no key says where it ends before the next hole.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "BOARD#{board}", sk = "SCORE#{score}-{player}")]
pub struct Score {
    pub board: u64,
    pub score: i32,
    pub player: String,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let reaction = Reaction { user: 1, name: "heart".into(), id: 2 };
    let score = Score { board: 1, score: -5, player: "ann".into() };
    let _ = async move {
        db.put(&reaction).await?;
        db.put(&score).await?;
        let _: Option<Reaction> = db.get(Reaction::key(1, "heart", 2)?).await?;
        let _: Vec<Score> = db
            .query(Score::partition(1)?)
            .sk_begins_with(Score::sk().score(-5))
            .all()
            .await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
