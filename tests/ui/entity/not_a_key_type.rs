use ddb_entity::{Db, Entity};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    pub struct App {
        partition_key: "PK",
        sort_key: "SK",
        indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } },
    }
}

#[derive(Serialize, Deserialize)]
pub struct Money {
    pub cents: i64,
}

#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "CUST#{id}", sk = "BALANCE#{balance}")]
#[entity(index = Gsi1, pk = "BALANCE#{balance}", sk = "CUST#{id}")]
pub struct Balance {
    pub id: u64,
    pub balance: Money,
}

fn main() {
    let config = ddb_entity::sdk::Config::builder().build();
    let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
    let balance = Balance { id: 1, balance: Money { cents: 5 } };
    let _ = async move {
        db.put(&balance).await?;
        let _: Option<Balance> = db.get(Balance::key(1, Money { cents: 5 })?).await?;
        let _: Option<Balance> = db.get(Balance::key(&1u64, &Money { cents: 5 })?).await?;
        let _: Vec<Balance> = db
            .query(Balance::partition(1)?)
            .sk_begins_with(Balance::sk().balance(Money { cents: 5 }))
            .all()
            .await?;
        let _: Vec<Balance> = db
            .query(Balance::gsi1_partition(Money { cents: 5 })?)
            .sk_begins_with(Balance::gsi1_sk().id(1))
            .all()
            .await?;
        Ok::<(), ddb_entity::Error>(())
    };
}
