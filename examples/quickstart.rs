//! Quickstart: seed 003's e-commerce model on a real DynamoDB.
//!
//! Runs against the embedded DynamoDB (nothing to install), or against the
//! server named by `DDB_ENDPOINT`:
//!
//! ```sh
//! cargo run --example quickstart
//! ```
//!
//! It declares the single table and three entity types, creates the table,
//! writes a user with their orders, and serves the seed's access patterns,
//! printing each key it builds and each request it sends.

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{NaiveDate, TimeZone, Utc};
use ddb_entity::local::LocalDynamo;
use ddb_entity::{Db, Entity, Index, SortKey};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    /// One table for every entity type: generic key names, overloaded indexes.
    pub struct App {
        partition_key: "PK",
        sort_key: "SK",
        indexes: {
            /// Orders by id, whoever placed them.
            pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
            /// Sparse: only active users are in it.
            pub Gsi2 = "GSI2" { partition_key: "GSI2PK", sort_key: "GSI2SK" },
        },
    }
}

/// A user, found by email; in GSI2 only while active.
#[derive(Entity, Serialize, Deserialize, Debug)]
#[entity(table = App, pk = "USER#{email}", sk = "PROFILE")]
#[entity(index = Gsi2, pk = "ACTIVE#{active_since}", sk = "USER#{email}")]
struct User {
    email: String,
    name: String,
    active_since: Option<NaiveDate>,
}

/// An order, stored under its user and sorted by time; GSI1 finds it by id.
#[derive(Entity, Serialize, Deserialize, Debug)]
#[entity(table = App, pk = "USER#{email}", sk = "ORDER#{placed_at}#{order_id}")]
#[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "USER#{email}")]
struct Order {
    email: String,
    order_id: String,
    placed_at: chrono::DateTime<Utc>,
    total_cents: i64,
}

type Error = Box<dyn std::error::Error + Send + Sync>;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Error> {
    let dynamo = LocalDynamo::start().await?;
    println!(
        "DynamoDB at {} ({})",
        dynamo.endpoint(),
        if dynamo.is_embedded() {
            "embedded"
        } else {
            "DDB_ENDPOINT"
        }
    );
    let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("quickstart"));
    let created = db.create_table_if_missing().await?;
    println!("table {}: {created:?}\n", db.table_name());

    let ada = User {
        email: "ada@example.com".into(),
        name: "Ada".into(),
        active_since: NaiveDate::from_ymd_opt(2026, 1, 5),
    };
    let bob = User {
        email: "bob@example.com".into(),
        name: "Bob".into(),
        active_since: None,
    };
    let orders = [
        (3, "ORD-1001", 2_500),
        (14, "ORD-1002", 12_999),
        (21, "ORD-1003", 700),
    ]
    .map(|(day, id, total_cents)| Order {
        email: ada.email.clone(),
        order_id: id.into(),
        placed_at: Utc.with_ymd_and_hms(2026, 3, day, 9, 31, 0).unwrap(),
        total_cents,
    });

    println!("writing items (PutItem):");
    let items = [ada.to_item()?, bob.to_item()?].into_iter().chain(
        orders
            .iter()
            .map(Order::to_item)
            .collect::<Result<Vec<_>, _>>()?,
    );
    for item in items {
        println!("  PK={:<40} SK={}", s(&item, "PK"), s(&item, "SK"));
        db.client()
            .put_item()
            .table_name(db.table_name())
            .set_item(Some(item))
            .send()
            .await?;
    }

    println!("\n1. a user by email: GetItem");
    let key = User::key("ada@example.com")?;
    println!("   key PK={} SK={}", key.partition(), key.sort());
    let found = db
        .client()
        .get_item()
        .table_name(db.table_name())
        .set_key(Some(key.to_attributes()))
        .send()
        .await?;
    let user = found.item.map(User::from_item).transpose()?;
    println!("   -> {user:?}");

    println!(
        "\n2. a user's orders, newest first: Query PK = :pk AND begins_with(SK, :prefix), descending"
    );
    let partition = Order::partition("ada@example.com")?;
    let prefix: SortKey<_> = Order::sk().into();
    println!("   PK={} prefix={}", partition.as_str(), prefix.value()?);
    let page = db
        .client()
        .query()
        .table_name(db.table_name())
        .key_condition_expression("#pk = :pk AND begins_with(#sk, :prefix)")
        .expression_attribute_names("#pk", "PK")
        .expression_attribute_names("#sk", "SK")
        .expression_attribute_values(":pk", AttributeValue::S(partition.into_string()))
        .expression_attribute_values(":prefix", AttributeValue::S(prefix.into_value()?))
        .scan_index_forward(false)
        .send()
        .await?;
    for item in page.items.unwrap_or_default() {
        let order = Order::from_item(item)?;
        println!(
            "   -> {} placed {} total {}",
            order.order_id, order.placed_at, order.total_cents
        );
    }

    println!("\n3. an order by id, without its user or time: Query on GSI1");
    let by_id = Order::gsi1_partition("ORD-1002")?;
    println!("   GSI1PK={}", by_id.as_str());
    let page = db
        .client()
        .query()
        .table_name(db.table_name())
        .index_name(<Gsi1 as Index>::SCHEMA.name)
        .key_condition_expression("#pk = :pk")
        .expression_attribute_names("#pk", "GSI1PK")
        .expression_attribute_values(":pk", AttributeValue::S(by_id.into_string()))
        .send()
        .await?;
    for item in page.items.unwrap_or_default() {
        let order = Order::from_item(item)?;
        println!("   -> {} of {}", order.order_id, order.email);
    }

    println!(
        "\n4. active users: Query on the sparse GSI2 (Bob has no active_since, so he is not in it)"
    );
    let active = User::gsi2_partition(NaiveDate::from_ymd_opt(2026, 1, 5).unwrap())?;
    println!("   GSI2PK={}", active.as_str());
    let page = db
        .client()
        .query()
        .table_name(db.table_name())
        .index_name(<Gsi2 as Index>::SCHEMA.name)
        .key_condition_expression("#pk = :pk")
        .expression_attribute_names("#pk", "GSI2PK")
        .expression_attribute_values(":pk", AttributeValue::S(active.into_string()))
        .send()
        .await?;
    for item in page.items.unwrap_or_default() {
        println!("   -> {}", User::from_item(item)?.name);
    }
    Ok(())
}

fn s<'a>(item: &'a ddb_entity::Item, name: &str) -> &'a str {
    item.get(name)
        .and_then(|v| v.as_s().ok())
        .map_or("", String::as_str)
}
