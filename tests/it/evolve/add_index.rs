//! An index added to a live table is the one CreateTable would have made:
//! its declared projection and capacity, not a default.

use aws_sdk_dynamodb::types::ProjectionType;
use ddb_entity::Db;
use ddb_entity::evolve::IndexAdded;
use ddb_entity::local::LocalDynamo;

ddb_entity::table! {
    /// Deployed without the indexes.
    pub struct Bare { partition_key: "PK", sort_key: "SK" }
}

ddb_entity::table! {
    /// The same table with two indexes that project less than everything.
    pub struct Projected {
        partition_key: "PK",
        sort_key: "SK",
        indexes: {
            /// Keys only.
            pub Thin = "Thin" { partition_key: "THINPK", sort_key: "THINSK", projection: keys_only },
            /// Two attributes besides the keys.
            pub Some2 = "Some2" {
                partition_key: "S2PK",
                projection: include["status", "total"],
            },
        },
    }
}

#[tokio::test]
async fn an_added_index_has_its_declared_projection_and_the_table_no_drift() {
    let dynamo = LocalDynamo::start().await.expect("local DynamoDB starts");
    let name = dynamo.unique_table_name("projected");
    Db::<Bare>::new(dynamo.client(), name.clone())
        .create_table_if_missing()
        .await
        .unwrap();
    let db = Db::<Projected>::new(dynamo.client(), name.clone());
    assert_eq!(db.add_index::<Thin>().await.unwrap(), IndexAdded::Created);
    assert_eq!(db.add_index::<Some2>().await.unwrap(), IndexAdded::Created);

    let described = db
        .client()
        .describe_table()
        .table_name(&name)
        .send()
        .await
        .unwrap();
    let indexes = described.table().unwrap().global_secondary_indexes();
    let projection = |index: &str| {
        indexes
            .iter()
            .find(|i| i.index_name() == Some(index))
            .and_then(|i| i.projection())
            .cloned()
            .unwrap_or_else(|| panic!("index {index} is described"))
    };
    assert_eq!(
        projection("Thin").projection_type(),
        Some(&ProjectionType::KeysOnly)
    );
    let some = projection("Some2");
    assert_eq!(some.projection_type(), Some(&ProjectionType::Include));
    let mut attributes = some.non_key_attributes().to_vec();
    attributes.sort();
    assert_eq!(attributes, ["status", "total"]);

    // What was added is what is declared: the drift check finds nothing.
    let drift = db.drift().await.unwrap();
    assert!(drift.differences.is_empty(), "{drift:?}");
}
