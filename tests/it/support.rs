//! What every integration test starts from.

use ddb_entity::Db;
use ddb_entity::local::LocalDynamo;

ddb_entity::table! {
    /// The single table of the seed lessons' e-commerce model.
    pub struct App {
        partition_key: "PK",
        sort_key: "SK",
        indexes: {
            /// Overloaded: an order by id, a product by SKU, …
            pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
            /// Sparse: only items that carry `GSI2PK`.
            pub Gsi2 = "GSI2" { partition_key: "GSI2PK", sort_key: "GSI2SK" },
        },
    }
}

/// A running server and a freshly created, uniquely named table on it. Keep
/// the `LocalDynamo` alive for the test: dropping it stops the embedded server.
pub async fn app_table() -> (LocalDynamo, Db<App>) {
    let dynamo = LocalDynamo::start().await.expect("local DynamoDB starts");
    let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("it"));
    db.create_table_if_missing()
        .send()
        .await
        .expect("table is created");
    (dynamo, db)
}
