//! A refactoring into one table: a multi-table model (users, orders and order
//! items in three tables) moved into one single table, with dual reads
//! while it runs and the write path flipped in the order that loses
//! nothing.
//!
//! Runs against the embedded DynamoDB (nothing to install), or against the
//! server named by `DDB_ENDPOINT`:
//!
//! ```sh
//! cargo run --example migrate --features evolve
//! ```
//!
//! 1. The legacy tables exist, keyed as a relational model keys them.
//! 2. Reads go through `DualRead`: the single table first, the legacy
//!    table when the item is not there yet (every fallback is a `tracing`
//!    event and a count).
//! 3. The write path flips: new writes go to the single table only.
//! 4. The migration copies each legacy table, writing an item only where
//!    the single table has none (so the flipped writes win), resumable
//!    from a checkpoint, then verifies counts and reads every item back.
//! 5. The fallbacks stop: the legacy tables can be retired.

use std::collections::HashMap;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, AttributeValue, BillingMode, KeySchemaElement, KeyType,
    ScalarAttributeType,
};
use ddb_entity::evolve::{DualRead, Found, MigrationTotals, Writes, legacy_get};
use ddb_entity::local::LocalDynamo;
use ddb_entity::{Collection, Db, Entity};
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};

type Error = Box<dyn std::error::Error + Send + Sync>;

ddb_entity::table! {
    /// The single table.
    pub struct Shop {
        partition_key: "PK",
        sort_key: "SK",
        indexes: {
            /// An order by its id.
            pub ById = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
        },
    }
}

#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = Shop, pk = "USER#{user_id}", sk = "PROFILE")]
struct User {
    user_id: u64,
    email: String,
    name: String,
}

#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = Shop, pk = "USER#{user_id}", sk = "ORDER#{placed}#{order_id}")]
#[entity(index = ById, pk = "ORDER#{order_id}", sk = "ORDER")]
struct Order {
    user_id: u64,
    order_id: String,
    placed: String,
    total_cents: i64,
}

#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = Shop, pk = "ORDER#{order_id}", sk = "ITEM#{sku}")]
struct OrderItem {
    order_id: String,
    sku: String,
    quantity: u32,
}

/// "A user and their orders": one Query in the single table, where the
/// legacy model needed two tables.
#[derive(Collection, Debug)]
struct UserView {
    user: Option<User>,
    orders: Vec<Order>,
}

/// The legacy rows.
#[derive(Deserialize)]
struct LegacyUser {
    user_id: u64,
    email: String,
    first: String,
    last: String,
}

#[derive(Deserialize)]
struct LegacyOrder {
    order_id: String,
    user_id: u64,
    placed_at: String,
    total: f64,
}

#[derive(Deserialize)]
struct LegacyOrderItem {
    order_id: String,
    sku: String,
    qty: u32,
}

fn user_of(old: LegacyUser) -> User {
    User {
        user_id: old.user_id,
        email: old.email,
        name: format!("{} {}", old.first, old.last),
    }
}

fn map_user(old: LegacyUser, out: &mut Writes<Shop>) -> ddb_entity::Result<()> {
    out.put(&user_of(old))
}

fn map_order(old: LegacyOrder, out: &mut Writes<Shop>) -> ddb_entity::Result<()> {
    out.put(&Order {
        user_id: old.user_id,
        order_id: old.order_id,
        placed: old.placed_at,
        total_cents: (old.total * 100.0).round() as i64,
    })
}

fn map_item(old: LegacyOrderItem, out: &mut Writes<Shop>) -> ddb_entity::Result<()> {
    out.put(&OrderItem {
        order_id: old.order_id,
        sku: old.sku,
        quantity: old.qty,
    })
}

const USERS: u64 = 200;

async fn legacy_table(
    client: &Client,
    name: &str,
    keys: &[(&str, ScalarAttributeType)],
) -> Result<(), Error> {
    let mut request = client
        .create_table()
        .table_name(name)
        .billing_mode(BillingMode::PayPerRequest);
    for (i, (key, kind)) in keys.iter().enumerate() {
        let key_type = if i == 0 {
            KeyType::Hash
        } else {
            KeyType::Range
        };
        request = request
            .attribute_definitions(
                AttributeDefinition::builder()
                    .attribute_name(*key)
                    .attribute_type(kind.clone())
                    .build()?,
            )
            .key_schema(
                KeySchemaElement::builder()
                    .attribute_name(*key)
                    .key_type(key_type)
                    .build()?,
            );
    }
    request.send().await?;
    Ok(())
}

async fn put_raw(
    client: &Client,
    table: &str,
    item: Vec<(&str, AttributeValue)>,
) -> Result<(), Error> {
    let item: HashMap<String, AttributeValue> =
        item.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
    client
        .put_item()
        .table_name(table)
        .set_item(Some(item))
        .send()
        .await?;
    Ok(())
}

fn report(table: &str, totals: MigrationTotals) {
    println!(
        "  {table:<12} {:>5} read, {:>5} written, {:>5} already there, {} retries",
        totals.read, totals.written, totals.existing, totals.retries
    );
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Error> {
    let dynamo = LocalDynamo::start().await?;
    let client = dynamo.client();
    let (users, orders, items) = (
        dynamo.unique_table_name("users"),
        dynamo.unique_table_name("orders"),
        dynamo.unique_table_name("order-items"),
    );

    // 1. The legacy model.
    let n = |v: u64| AttributeValue::N(v.to_string());
    let s = |v: String| AttributeValue::S(v);
    legacy_table(&client, &users, &[("user_id", ScalarAttributeType::N)]).await?;
    legacy_table(&client, &orders, &[("order_id", ScalarAttributeType::S)]).await?;
    legacy_table(
        &client,
        &items,
        &[
            ("order_id", ScalarAttributeType::S),
            ("sku", ScalarAttributeType::S),
        ],
    )
    .await?;
    for user in 0..USERS {
        put_raw(
            &client,
            &users,
            vec![
                ("user_id", n(user)),
                ("email", s(format!("u{user}@example.com"))),
                ("first", s(format!("First{user}"))),
                ("last", s("Last".into())),
            ],
        )
        .await?;
        for k in 0..2 {
            let order = format!("o-{user}-{k}");
            put_raw(
                &client,
                &orders,
                vec![
                    ("order_id", s(order.clone())),
                    ("user_id", n(user)),
                    ("placed_at", s(format!("2026-03-{:02}", 10 + k))),
                    ("total", AttributeValue::N(format!("{user}.{k}5"))),
                ],
            )
            .await?;
            for sku in 0..2 {
                put_raw(
                    &client,
                    &items,
                    vec![
                        ("order_id", s(order.clone())),
                        ("sku", s(format!("SKU-{sku}"))),
                        ("qty", n(sku + 1)),
                    ],
                )
                .await?;
            }
        }
    }
    println!(
        "legacy: {USERS} users, {} orders, {} order items in three tables",
        USERS * 2,
        USERS * 4
    );

    let db = Db::<Shop>::new(client.clone(), dynamo.unique_table_name("shop"));
    db.create_table_if_missing().await?;

    // 2. Dual reads: the single table first, the legacy table second.
    let legacy_user = |id: u64| {
        let (client, users) = (client.clone(), users.clone());
        async move {
            let key = HashMap::from([("user_id".to_owned(), AttributeValue::N(id.to_string()))]);
            let old: Option<LegacyUser> = legacy_get(&client, &users, key).await?;
            Ok(old.map(user_of))
        }
    };
    let reads = DualRead::new(&db, "shop-to-single-table");

    // 3. The write path flips: user 7 renamed, written to the single table.
    let user7 = reads
        .get(User::key(7)?, || legacy_user(7))
        .await?
        .ok_or("user 7 exists")?;
    println!(
        "user 7 read from the {} store",
        if user7.is_legacy() { "legacy" } else { "new" }
    );
    db.put(&User {
        name: "Ada Lovelace".into(),
        ..user7.into_inner()
    })
    .await?;

    // 4. The migration: users stopped after two pages and resumed (a
    // crash), then orders and items.
    println!("migrating:");
    let mut checkpoint = None;
    {
        let job = db.migrate_from(&users, map_user).segments(4).page_size(25);
        let mut events = Box::pin(job.events());
        for _ in 0..2 {
            if let Some(event) = events.next().await {
                checkpoint = Some(event?.checkpoint);
            }
        }
    }
    let mut job = db.migrate_from(&users, map_user).page_size(25);
    if let Some(checkpoint) = checkpoint {
        job = job.resume(checkpoint);
    }
    report("users", job.run().await?);
    let order_job = db.migrate_from(&orders, map_order);
    report("orders", order_job.run().await?);
    let item_job = db.migrate_from(&items, map_item);
    report("order items", item_job.run().await?);

    println!("verifying (counts, and every item read back):");
    for (table, verified) in [
        ("users", db.migrate_from(&users, map_user).verify(1).await?),
        ("orders", order_job.verify(1).await?),
        ("order items", item_job.verify(1).await?),
    ] {
        println!(
            "  {table:<12} {:>5} legacy items, {:?} expected, {} checked, mismatches: {:?}",
            verified.legacy_items, verified.expected, verified.checked, verified.mismatches
        );
    }

    println!("  (user 7 differs on purpose: the new write path renamed it after the flip)");

    // The flipped write was not overwritten by its legacy copy.
    let ada = db.get(User::key(7)?).await?.ok_or("user 7")?;
    println!("user 7 after the migration: {}", ada.name);
    assert_eq!(ada.name, "Ada Lovelace");

    // 5. No more fallbacks; the new access patterns work.
    let reads = DualRead::new(&db, "shop-to-single-table");
    for id in 0..USERS {
        if let Some(Found::Legacy(_)) = reads.get(User::key(id)?, || legacy_user(id)).await? {
            println!("user {id} still falls back");
        }
    }
    println!("dual reads after the migration: {:?}", reads.stats());
    let view: UserView = db.query(User::partition(42)?).collect().await?;
    println!(
        "user 42 and their orders in one Query: {} with {} orders",
        view.user.map(|u| u.name).unwrap_or_default(),
        view.orders.len()
    );
    let order: Vec<Order> = db.query(Order::by_id_partition("o-42-1")?).all().await?;
    println!(
        "order o-42-1 by id: {:?}",
        order.first().map(|o| o.total_cents)
    );
    Ok(())
}
