use ddb_entity::{Db, Entity, KeyPart};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

// Keys sort as the variants are declared; the derived `Ord` sorts by
// discriminant. Here they would disagree.
#[derive(KeyPart, Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
#[key(format = "position")]
pub enum Priority {
    Low = 10,
    High = 30,
    Medium = 20,
}

// A discriminant the derive cannot read cannot be checked.
const BASE: isize = 1;

#[derive(KeyPart, Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    One = BASE,
    Two,
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "TASK#{id}", sk = "TASK#{priority}#{level}")]
pub struct Task {
    pub id: u64,
    pub priority: Priority,
    pub level: Level,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let task = Task { id: 1, priority: Priority::High, level: Level::One };
    let _ = async move {
        db.put(&task).await?;
        let _: Option<Task> = db.get(Task::key(1, Priority::Low, Level::Two)?).await?;
        let _: Vec<Task> = db
            .query(Task::partition(1)?)
            .sk_begins_with(Task::sk().priority(Priority::Medium))
            .all()
            .await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
