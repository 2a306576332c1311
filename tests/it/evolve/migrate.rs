//! Seed 003's multi-table model (users, orders, order items in three
//! tables) migrated into the single table: verified item by item, stopped
//! and resumed, read through dual reads while it runs.

use std::collections::HashMap;
use std::time::Instant;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, AttributeValue, BillingMode, KeySchemaElement, KeyType, PutRequest,
    ScalarAttributeType, WriteRequest,
};
use ddb_entity::evolve::{DualRead, Found, Writes, legacy_get};
use ddb_entity::local::LocalDynamo;
use ddb_entity::{Collection, Db, Entity};
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};

use crate::support::{App, Gsi1};

/// The single-table model.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "USER#{user_id}", sk = "PROFILE")]
pub struct User {
    pub user_id: u64,
    pub email: String,
    pub name: String,
}

#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "USER#{user_id}", sk = "ORDER#{placed}#{order_id}")]
#[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "USER#{user_id}")]
pub struct Order {
    pub user_id: u64,
    pub order_id: String,
    pub placed: String,
    pub total_cents: i64,
}

#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "ORDER#{order_id}", sk = "ITEM#{sku}")]
pub struct OrderItem {
    pub order_id: String,
    pub sku: String,
    pub quantity: u32,
}

/// A user's partition: the profile and the orders, one Query.
#[derive(Collection, Debug)]
pub struct UserView {
    pub user: Option<User>,
    pub orders: Vec<Order>,
}

/// The legacy tables' rows, as they were.
#[derive(Deserialize, Debug)]
pub struct LegacyUser {
    pub user_id: u64,
    pub email: String,
    pub first: String,
    pub last: String,
}

#[derive(Deserialize, Debug)]
pub struct LegacyOrder {
    pub order_id: String,
    pub user_id: u64,
    pub placed_at: String,
    pub total: f64,
}

#[derive(Deserialize, Debug)]
pub struct LegacyOrderItem {
    pub order_id: String,
    pub sku: String,
    pub qty: u32,
}

pub fn map_user(old: LegacyUser, out: &mut Writes<App>) -> ddb_entity::Result<()> {
    out.put(&User {
        user_id: old.user_id,
        email: old.email,
        name: format!("{} {}", old.first, old.last),
    })
}

pub fn map_order(old: LegacyOrder, out: &mut Writes<App>) -> ddb_entity::Result<()> {
    out.put(&Order {
        user_id: old.user_id,
        order_id: old.order_id,
        placed: old.placed_at,
        total_cents: (old.total * 100.0).round() as i64,
    })
}

pub fn map_item(old: LegacyOrderItem, out: &mut Writes<App>) -> ddb_entity::Result<()> {
    out.put(&OrderItem {
        order_id: old.order_id,
        sku: old.sku,
        quantity: old.qty,
    })
}

/// The legacy tables' names.
pub struct Legacy {
    pub users: String,
    pub orders: String,
    pub items: String,
}

async fn create_legacy_table(client: &Client, name: &str, keys: &[(&str, ScalarAttributeType)]) {
    let mut request = client
        .create_table()
        .table_name(name)
        .billing_mode(BillingMode::PayPerRequest);
    for (i, (key, kind)) in keys.iter().enumerate() {
        request = request
            .attribute_definitions(
                AttributeDefinition::builder()
                    .attribute_name(*key)
                    .attribute_type(kind.clone())
                    .build()
                    .unwrap(),
            )
            .key_schema(
                KeySchemaElement::builder()
                    .attribute_name(*key)
                    .key_type(if i == 0 {
                        KeyType::Hash
                    } else {
                        KeyType::Range
                    })
                    .build()
                    .unwrap(),
            );
    }
    request.send().await.expect("legacy table is created");
}

async fn write_all(client: &Client, table: &str, items: Vec<HashMap<String, AttributeValue>>) {
    for chunk in items.chunks(25) {
        let mut pending: Vec<WriteRequest> = chunk
            .iter()
            .map(|item| {
                WriteRequest::builder()
                    .put_request(
                        PutRequest::builder()
                            .set_item(Some(item.clone()))
                            .build()
                            .unwrap(),
                    )
                    .build()
            })
            .collect();
        while !pending.is_empty() {
            let out = client
                .batch_write_item()
                .request_items(table, pending)
                .send()
                .await
                .expect("legacy batch");
            pending = out
                .unprocessed_items
                .and_then(|mut u| u.remove(table))
                .unwrap_or_default();
        }
    }
}

fn n(v: impl ToString) -> AttributeValue {
    AttributeValue::N(v.to_string())
}

fn s(v: impl Into<String>) -> AttributeValue {
    AttributeValue::S(v.into())
}

pub fn order_id(user: u64, k: u64) -> String {
    format!("o-{user}-{k}")
}

/// `users` users with 3 orders each, 3 items per order: the three legacy
/// tables of seed 003, keyed as a relational model would key them.
pub async fn legacy_dataset(dynamo: &LocalDynamo, users: u64) -> Legacy {
    let client = dynamo.client();
    let legacy = Legacy {
        users: dynamo.unique_table_name("users"),
        orders: dynamo.unique_table_name("orders"),
        items: dynamo.unique_table_name("order-items"),
    };
    create_legacy_table(
        &client,
        &legacy.users,
        &[("user_id", ScalarAttributeType::N)],
    )
    .await;
    create_legacy_table(
        &client,
        &legacy.orders,
        &[("order_id", ScalarAttributeType::S)],
    )
    .await;
    create_legacy_table(
        &client,
        &legacy.items,
        &[
            ("order_id", ScalarAttributeType::S),
            ("sku", ScalarAttributeType::S),
        ],
    )
    .await;
    let mut user_rows = Vec::new();
    let mut order_rows = Vec::new();
    let mut item_rows = Vec::new();
    for user in 0..users {
        user_rows.push(HashMap::from([
            ("user_id".to_owned(), n(user)),
            ("email".to_owned(), s(format!("u{user}@example.com"))),
            ("first".to_owned(), s(format!("First{user}"))),
            ("last".to_owned(), s("Last")),
            // A column the new model drops.
            ("legacy_flags".to_owned(), n(7)),
        ]));
        for k in 0..3 {
            let order = order_id(user, k);
            order_rows.push(HashMap::from([
                ("order_id".to_owned(), s(order.clone())),
                ("user_id".to_owned(), n(user)),
                ("placed_at".to_owned(), s(format!("2026-03-{:02}", 10 + k))),
                ("total".to_owned(), n(format!("{}.{:02}", user + k, k * 7))),
            ]));
            for sku in 0..3 {
                item_rows.push(HashMap::from([
                    ("order_id".to_owned(), s(order.clone())),
                    ("sku".to_owned(), s(format!("SKU-{sku}"))),
                    ("qty".to_owned(), n(sku + 1)),
                ]));
            }
        }
    }
    write_all(&client, &legacy.users, user_rows).await;
    write_all(&client, &legacy.orders, order_rows).await;
    write_all(&client, &legacy.items, item_rows).await;
    legacy
}

async fn single_table(dynamo: &LocalDynamo) -> Db<App> {
    let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("single"));
    db.create_table_if_missing().await.unwrap();
    db
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_generated_legacy_dataset_migrates_resumes_and_verifies_item_by_item() {
    const USERS: u64 = 120;
    let dynamo = LocalDynamo::start().await.expect("local DynamoDB starts");
    let legacy = legacy_dataset(&dynamo, USERS).await;
    let db = single_table(&dynamo).await;
    let started = Instant::now();

    // Users: killed after two pages, resumed from the checkpoint.
    let users = db
        .migrate_from(&legacy.users, map_user)
        .segments(3)
        .page_size(20);
    let mut saved = None;
    let mut first_written = 0;
    {
        let mut events = Box::pin(users.events());
        for _ in 0..2 {
            let event = events.next().await.unwrap().unwrap();
            first_written = event.totals.written;
            saved = Some(event.checkpoint.to_string());
        }
    }
    let resumed = db
        .migrate_from(&legacy.users, map_user)
        .page_size(20)
        .resume(saved.unwrap().parse().unwrap())
        .await
        .unwrap();
    assert!(first_written > 0 && first_written < USERS);
    // Pages written after the checkpoint were redone as `existing`.
    assert!(resumed.written + first_written <= USERS);
    let orders = db
        .migrate_from(&legacy.orders, map_order)
        .segments(4)
        .await
        .unwrap();
    let items = db
        .migrate_from(&legacy.items, map_item)
        .segments(4)
        .await
        .unwrap();
    let elapsed = started.elapsed();
    assert_eq!((orders.read, orders.written), (USERS * 3, USERS * 3));
    assert_eq!((items.read, items.written), (USERS * 9, USERS * 9));

    // Verified item by item: every new item read back and compared.
    let report = users.verify(1).await.unwrap();
    assert!(report.is_complete(), "{:?}", report.mismatches);
    assert_eq!((report.legacy_items, report.checked), (USERS, USERS));
    assert_eq!(report.expected["User"], USERS);
    let report = db
        .migrate_from(&legacy.orders, map_order)
        .verify(1)
        .await
        .unwrap();
    assert!(report.is_complete(), "{:?}", report.mismatches);
    assert_eq!(report.expected["Order"], USERS * 3);
    let report = db
        .migrate_from(&legacy.items, map_item)
        .verify(1)
        .await
        .unwrap();
    assert!(report.is_complete(), "{:?}", report.mismatches);
    assert_eq!(report.checked, USERS * 9);
    // Counts: the single table holds exactly what the mapping makes.
    assert_eq!(db.scan().count().await.unwrap() as u64, USERS * 13);

    // The access patterns the model was for: one Query per user view, an
    // order by id through the index.
    let view: UserView = db
        .query(User::partition(42).unwrap())
        .collect()
        .await
        .unwrap();
    assert_eq!(view.user.unwrap().name, "First42 Last");
    assert_eq!(view.orders.len(), 3);
    let by_id: Vec<Order> = db
        .query(Order::gsi1_partition(order_id(42, 1)).unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(by_id[0].total_cents, 4307);

    // Idempotent: a rerun writes nothing.
    let again = db.migrate_from(&legacy.orders, map_order).await.unwrap();
    assert_eq!((again.written, again.existing), (0, USERS * 3));

    // The verification is not vacuous: a changed and a lost item are named.
    db.put(&User {
        user_id: 5,
        email: "changed@example.com".into(),
        name: "First5 Last".into(),
    })
    .await
    .unwrap();
    db.delete(User::key(6).unwrap()).await.unwrap();
    let report = db
        .migrate_from(&legacy.users, map_user)
        .verify(1)
        .await
        .unwrap();
    let mut found: Vec<_> = report
        .mismatches
        .iter()
        .map(|m| (m.key.0.clone(), m.attribute.clone()))
        .collect();
    found.sort();
    assert_eq!(
        found,
        [
            (
                User::key(5).unwrap().partition().to_owned(),
                Some("email".to_owned())
            ),
            (User::key(6).unwrap().partition().to_owned(), None),
        ]
    );
    eprintln!(
        "figures: migration of {} legacy items (3 tables) into {} single-table items: {elapsed:?}, users killed after 2 pages and resumed ({} redone as existing), retries {}",
        USERS * 13,
        USERS * 13,
        resumed.existing,
        resumed.retries + orders.retries + items.retries
    );
}

#[tokio::test]
async fn dual_reads_fall_back_exactly_for_items_not_yet_migrated() {
    const USERS: u64 = 60;
    let dynamo = LocalDynamo::start().await.expect("local DynamoDB starts");
    let legacy = legacy_dataset(&dynamo, USERS).await;
    let db = single_table(&dynamo).await;
    // Half a migration: stopped after one page of each of two segments.
    {
        let migration = db
            .migrate_from(&legacy.users, map_user)
            .segments(2)
            .page_size(10);
        let mut events = Box::pin(migration.events());
        events.next().await.unwrap().unwrap();
        events.next().await.unwrap().unwrap();
    }
    // The write path has flipped: user 59 changes in the single table only.
    let client = dynamo.client();
    let legacy_user = |id: u64| {
        let client = client.clone();
        let table = legacy.users.clone();
        async move {
            let key = HashMap::from([("user_id".to_owned(), n(id))]);
            let old: Option<LegacyUser> = legacy_get(&client, &table, key).await?;
            Ok(old.map(|old| User {
                user_id: old.user_id,
                email: old.email,
                name: format!("{} {}", old.first, old.last),
            }))
        }
    };
    let reads = DualRead::new(&db, "users");
    let flipped = match reads
        .get(User::key(59).unwrap(), || legacy_user(59))
        .await
        .unwrap()
    {
        Some(found) => User {
            name: "Renamed".into(),
            ..found.into_inner()
        },
        None => panic!("user 59 exists in one store"),
    };
    db.put(&flipped).await.unwrap();

    let migrated: Vec<u64> = db
        .scan()
        .all::<User>()
        .await
        .unwrap()
        .iter()
        .map(|u| u.user_id)
        .collect();
    let reads = DualRead::new(&db, "users");
    for id in 0..USERS + 5 {
        let found = reads
            .get(User::key(id).unwrap(), || legacy_user(id))
            .await
            .unwrap();
        match found {
            Some(Found::New(user)) => assert!(migrated.contains(&id), "user {id}: {user:?}"),
            Some(Found::Legacy(user)) => {
                assert!(!migrated.contains(&id) && id < USERS, "user {id}");
                assert_eq!(user.email, format!("u{id}@example.com"));
            }
            None => assert!(id >= USERS, "user {id} is in neither store"),
        }
    }
    let stats = reads.stats();
    let not_migrated = USERS - migrated.len() as u64;
    assert_eq!(stats.fallbacks, not_migrated + 5);
    assert_eq!(stats.legacy_hits, not_migrated);
    assert_eq!(stats.misses, 5);
    assert_eq!(stats.new_hits, migrated.len() as u64);

    // The migration finishes without overwriting what the new write path wrote.
    db.migrate_from(&legacy.users, map_user).await.unwrap();
    let user = db.get(User::key(59).unwrap()).await.unwrap().unwrap();
    assert_eq!(user.name, "Renamed");
    let reads = DualRead::new(&db, "users");
    for id in 0..USERS {
        let found = reads
            .get(User::key(id).unwrap(), || legacy_user(id))
            .await
            .unwrap();
        assert!(matches!(found, Some(Found::New(_))));
    }
    assert_eq!(reads.stats().fallbacks, 0);
    eprintln!(
        "figures: dual reads with {} of {USERS} users migrated: {} fallbacks ({} legacy hits, {} misses)",
        migrated.len(),
        stats.fallbacks,
        stats.legacy_hits,
        stats.misses
    );
}

#[tokio::test]
async fn a_legacy_item_of_another_shape_stops_the_migration_and_is_named() {
    let dynamo = LocalDynamo::start().await.expect("local DynamoDB starts");
    let legacy = legacy_dataset(&dynamo, 3).await;
    // A row someone wrote by hand: no `last` name.
    dynamo
        .client()
        .put_item()
        .table_name(&legacy.users)
        .item("user_id", n(99))
        .item("email", s("odd@example.com"))
        .item("first", s("Odd"))
        .send()
        .await
        .unwrap();
    let db = single_table(&dynamo).await;
    let err = db
        .migrate_from(&legacy.users, map_user)
        .segments(1)
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ddb_entity::ErrorKind::Decode);
    let message = err.to_string();
    assert!(
        message.contains("user_id=99") && message.contains("last"),
        "{message}"
    );
    assert!(message.contains("make the legacy type accept"), "{message}");
}

/// One rule for both jobs: a resumed migration keeps its checkpoint's
/// segmentation, and asking for another is refused before any request.
#[tokio::test]
async fn a_resumed_migration_with_another_segmentation_is_refused() {
    let dynamo = LocalDynamo::start().await.expect("local DynamoDB starts");
    let legacy = legacy_dataset(&dynamo, 4).await;
    let db = single_table(&dynamo).await;
    let err = db
        .migrate_from(&legacy.users, map_user)
        .segments(3)
        .resume(ddb_entity::evolve::Checkpoint::start(2))
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ddb_entity::ErrorKind::InvalidExpression);
    assert!(err.to_string().contains("in 2 segments"), "{err}");
    let done = db
        .migrate_from(&legacy.users, map_user)
        .segments(2)
        .resume("ckpt1;2;D,D".parse().unwrap())
        .await
        .unwrap();
    assert_eq!(done.written, 0);
}
