use ddb_entity::{Db, Entity, KeyPart};
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

#[derive(KeyPart, Serialize, Deserialize)]
pub enum WithData {
    Open(u32),
    Closed,
}

#[derive(KeyPart, Serialize, Deserialize)]
pub enum BadNames {
    #[key(rename = "in progress")]
    InProgress,
    #[key(rename = "DONE")]
    Done,
    #[key(rename = "DONE")]
    Finished,
    #[key(name = "X")]
    Other,
}

#[derive(KeyPart, Serialize, Deserialize)]
pub struct NotAnEnum;

// The broken key parts, used in keys.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "TASK#{id}", sk = "TASK#{state}#{status}#{other}")]
pub struct Task {
    pub id: u64,
    pub state: WithData,
    pub status: BadNames,
    pub other: NotAnEnum,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let task = Task { id: 1, state: WithData::Closed, status: BadNames::Done, other: NotAnEnum };
    let _ = async move {
        db.put(&task).await?;
        let _: Option<Task> = db
            .get(Task::key(1, WithData::Closed, BadNames::Done, NotAnEnum)?)
            .await?;
        let _: Vec<Task> = db
            .query(Task::partition(1)?)
            .sk_begins_with(Task::sk().state(WithData::Open(1)).status(BadNames::Finished))
            .all()
            .await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
