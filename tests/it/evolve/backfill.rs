//! A new index on a live table, backfilled while writers race it; stopped
//! midway and resumed; an index template changed and re-keyed.

use std::collections::HashMap;
use std::time::Instant;

use aws_sdk_dynamodb::types::AttributeValue;
use ddb_entity::evolve::{Checkpoint, IndexAdded};
use ddb_entity::local::LocalDynamo;
use ddb_entity::{Db, Entity, Item};
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    /// The table as it was deployed: no index.
    pub struct Before { partition_key: "PK", sort_key: "SK" }
}

ddb_entity::table! {
    /// The table with the index a new access pattern needs.
    pub struct After {
        partition_key: "PK",
        sort_key: "SK",
        indexes: {
            /// Users by city.
            pub ByCity = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
        },
    }
}

/// Yesterday's user: in no index. Every declaration here is one stored
/// type, `user`, whatever its Rust name.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = Before, type = "user", pk = "USER#{id}", sk = "PROFILE")]
pub struct OldUser {
    pub id: u32,
    pub city: String,
    pub visits: u64,
}

/// Today's user: found by city.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = After, pk = "USER#{id}", sk = "PROFILE")]
#[entity(index = ByCity, pk = "CITY#{city}", sk = "USER#{id}")]
pub struct User {
    pub id: u32,
    pub city: String,
    pub visits: u64,
}

/// Tomorrow's: the index template changed (towns, not cities).
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = After, type = "user", pk = "USER#{id}", sk = "PROFILE")]
#[entity(index = ByCity, pk = "TOWN#{city}", sk = "{id}")]
pub struct RekeyedUser {
    pub id: u32,
    pub city: String,
    pub visits: u64,
}

const CITIES: [&str; 5] = ["Lisbon", "Oslo", "Quito", "Lagos", "Perth"];

fn city(id: u32) -> String {
    CITIES[id as usize % CITIES.len()].to_owned()
}

/// `count` users written by yesterday's code, and the handle of today's.
pub async fn deployed(dynamo: &LocalDynamo, count: u32) -> (Db<Before>, Db<After>) {
    let name = dynamo.unique_table_name("evolve");
    let old = Db::<Before>::new(dynamo.client(), name.clone());
    old.create_table_if_missing()
        .await
        .expect("table is created");
    let mut batch = old.batch_write();
    for id in 0..count {
        batch = batch.put(&OldUser {
            id,
            city: city(id),
            visits: 0,
        });
    }
    batch.await.expect("old users are written");
    (old, Db::<After>::new(dynamo.client(), name))
}

/// Every item of the table, raw, by (PK, SK).
pub async fn raw_items(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
) -> HashMap<(String, String), Item> {
    let mut items = HashMap::new();
    let mut start = None;
    loop {
        let page = client
            .scan()
            .table_name(table)
            .consistent_read(true)
            .set_exclusive_start_key(start)
            .send()
            .await
            .expect("Scan succeeds");
        for item in page.items.unwrap_or_default() {
            let s = |n: &str| {
                item.get(n)
                    .and_then(|v| v.as_s().ok())
                    .cloned()
                    .unwrap_or_default()
            };
            items.insert((s("PK"), s("SK")), item);
        }
        match page.last_evaluated_key {
            Some(key) if !key.is_empty() => start = Some(key),
            _ => return items,
        }
    }
}

fn s(value: &str) -> AttributeValue {
    AttributeValue::S(value.to_owned())
}

/// Items another tool wrote in the same table: another type, and no type.
async fn foreign_items(db: &Db<After>) -> Vec<Item> {
    let items = vec![
        HashMap::from([
            ("PK".to_owned(), s("USER#0000000007")),
            ("SK".to_owned(), s("AUDIT#1")),
            ("_type".to_owned(), s("AUDIT")),
            ("city".to_owned(), s("Oslo")),
        ]),
        HashMap::from([
            ("PK".to_owned(), s("EXPORT#1")),
            ("SK".to_owned(), s("PROFILE")),
            ("id".to_owned(), AttributeValue::N("1".into())),
        ]),
    ];
    for item in &items {
        db.client()
            .put_item()
            .table_name(db.table_name())
            .set_item(Some(item.clone()))
            .send()
            .await
            .expect("foreign item is written");
    }
    items
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backfill_racing_writers_loses_no_write_and_indexes_every_item() {
    racing_writers(Sending::One).await;
}

/// The same race with 10 updates per TransactWriteItems: an item changed
/// since its read cancels its group, is re-read and rewritten alone, and
/// the rest of the group is sent again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_grouped_backfill_racing_writers_loses_no_write_and_indexes_every_item() {
    if std::env::var_os("DDB_ENDPOINT").is_some() {
        // Skipped on moto: moto 5.2.5 copies the whole table when a
        // TransactWriteItems begins and puts the copy back when it is
        // cancelled, erasing every write other clients made in between
        // (acknowledged ones included: 4 of 300 concurrent PutItems lost
        // beside 92 cancelled transactions, see docs/exactly-once.md). A
        // cancelled group of this race erases another group's update.
        eprintln!("skipped: moto's cancelled transactions undo other clients' writes");
        return;
    }
    racing_writers(Sending::Group(10)).await;
}

/// The same race with 25 updates per BatchExecuteStatement: each PartiQL
/// UPDATE carries its own "unchanged since read" WHERE clause, so a
/// changed item's statement alone is refused (re-read, rewritten alone)
/// and the others apply.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backfill_of_statements_racing_writers_loses_no_write_and_indexes_every_item() {
    if std::env::var_os("DDB_ENDPOINT").is_some() {
        // moto 5.2.5's PartiQL reports an UPDATE whose WHERE clause is
        // false as applied (it applies nothing), and answers a REMOVE with
        // HTTP 500: statements cannot be proven there.
        eprintln!("skipped: moto's PartiQL ignores a false WHERE clause");
        return;
    }
    racing_writers(Sending::Statements(25)).await;
}

/// How the backfill under test sends its updates.
#[derive(Debug, Clone, Copy)]
enum Sending {
    One,
    Group(usize),
    Statements(usize),
}

async fn racing_writers(sending: Sending) {
    const USERS: u32 = 2000;
    let dynamo = LocalDynamo::start().await.expect("local DynamoDB starts");
    let (_old, db) = deployed(&dynamo, USERS).await;
    let foreign = foreign_items(&db).await;
    // One user already written by today's code: indexed from the start.
    db.put(&User {
        id: USERS,
        city: city(USERS),
        visits: 0,
    })
    .await
    .unwrap();

    assert_eq!(db.add_index::<ByCity>().await.unwrap(), IndexAdded::Created);

    // Writers with today's code, racing the backfill over disjoint users:
    // counters (a lost increment shows), moves to another city (a stale
    // index key shows), deletions (an item brought back shows).
    let counter = {
        let db = db.clone();
        tokio::spawn(async move {
            let mut increments: HashMap<u32, u64> = HashMap::new();
            for round in 0..6u32 {
                for id in (round * 7..600).step_by(37) {
                    db.update(User::key(id).unwrap())
                        .add(User::fields().visits, 1)
                        .await
                        .expect("increment");
                    *increments.entry(id).or_default() += 1;
                }
            }
            increments
        })
    };
    let mover = {
        let db = db.clone();
        tokio::spawn(async move {
            let mut moved = HashMap::new();
            for id in (600..1400).step_by(9) {
                let user = User {
                    id,
                    city: "Moved".to_owned(),
                    visits: 0,
                };
                db.put(&user).await.expect("move");
                moved.insert(id, user);
            }
            moved
        })
    };
    let deleter = {
        let db = db.clone();
        tokio::spawn(async move {
            let mut deleted = Vec::new();
            for id in (1400..USERS).step_by(11) {
                db.delete(User::key(id).unwrap()).await.expect("delete");
                deleted.push(id);
            }
            deleted
        })
    };

    let started = Instant::now();
    let backfill = db.backfill::<User>().segments(4).page_size(100).writes(8);
    let backfill = match sending {
        Sending::One => backfill,
        Sending::Group(n) => backfill.group(n),
        Sending::Statements(n) => backfill.statements(n),
    };
    let totals = backfill.await.expect("the backfill finishes");
    let elapsed = started.elapsed();
    let increments = counter.await.unwrap();
    let moved = mover.await.unwrap();
    let deleted = deleter.await.unwrap();

    // Every user is indexed with the keys its current value makes, and
    // holds every write made to it.
    let items = raw_items(db.client(), db.table_name()).await;
    let mut users = 0;
    for id in 0..=USERS {
        let key = User::key(id).unwrap();
        let (pk, sk) = (key.partition().to_owned(), key.sort().to_owned());
        let Some(item) = items.get(&(pk, sk)) else {
            assert!(deleted.contains(&id), "user {id} is missing");
            continue;
        };
        assert!(!deleted.contains(&id), "deleted user {id} came back");
        users += 1;
        let user =
            User::from_item(item.clone()).expect("a stored user decodes with its index keys");
        let expected_city = moved.get(&id).map_or_else(|| city(id), |u| u.city.clone());
        assert_eq!(user.city, expected_city, "user {id}");
        let expected_visits = if moved.contains_key(&id) {
            0
        } else {
            increments.get(&id).copied().unwrap_or(0)
        };
        assert_eq!(
            user.visits, expected_visits,
            "user {id}: an increment was lost"
        );
        assert_eq!(
            item.get("GSI1PK")
                .and_then(|v| v.as_s().ok())
                .map(String::as_str),
            Some(format!("CITY#{}", user.city).as_str()),
            "user {id} is indexed"
        );
    }
    // Foreign items are untouched, byte for byte.
    for item in &foreign {
        let key = (
            item["PK"].as_s().unwrap().clone(),
            item["SK"].as_s().unwrap().clone(),
        );
        assert_eq!(items.get(&key), Some(item));
    }
    assert_eq!(items.len(), users + foreign.len());
    // The index answers the new access pattern.
    let lisbon: Vec<User> = db
        .query(User::by_city_partition("Lisbon").unwrap())
        .all()
        .await
        .unwrap();
    let expected = (0..=USERS)
        .filter(|id| !deleted.contains(id) && !moved.contains_key(id) && city(*id) == "Lisbon")
        .count();
    assert_eq!(lisbon.len(), expected);

    assert_eq!(totals.updated + totals.skipped + totals.gone, totals.read);
    assert!(totals.updated <= u64::from(USERS));
    eprintln!(
        "figures: backfill of {USERS} users ({sending:?}) racing 3 writers: {elapsed:?}, {} pages, {} read, {} updated, {} skipped, {} gone, {} retries",
        totals.pages, totals.read, totals.updated, totals.skipped, totals.gone, totals.retries
    );
    // A second run finds nothing to do.
    let again = db.backfill::<User>().await.unwrap();
    assert_eq!((again.updated, again.gone), (0, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backfill_stopped_midway_resumes_to_the_same_result_without_duplicates() {
    const USERS: u32 = 1500;
    let dynamo = LocalDynamo::start().await.expect("local DynamoDB starts");
    let (_old, db) = deployed(&dynamo, USERS).await;
    db.add_index::<ByCity>().await.unwrap();

    // Run 1: killed after five pages (the stream dropped with writes of
    // other pages in flight: a crash between writes and checkpoint).
    let mut saved: Option<String> = None;
    let mut first_updated = 0;
    {
        let mut events = Box::pin(db.backfill::<User>().segments(4).page_size(50).events());
        for _ in 0..5 {
            let event = events.next().await.unwrap().unwrap();
            first_updated = event.totals.updated;
            saved = Some(event.checkpoint.to_string());
        }
    }
    let checkpoint: Checkpoint = saved.unwrap().parse().unwrap();
    assert!(!checkpoint.is_done());
    // A write cancelled on the client may already be on the wire: the
    // server still applies it, a moment after the stream was dropped.
    // Count once those late writes have landed (two equal counts in a
    // row), or the second run would find done what the count missed.
    let indexed_before = settled_index_count(&db).await;
    assert!(indexed_before >= first_updated as usize);
    assert!(
        indexed_before < USERS as usize,
        "the first run stopped midway"
    );

    // Run 2: from the checkpoint, with the same segmentation.
    let mut resumptions = 0;
    let mut events = Box::pin(
        db.backfill::<User>()
            .resume(checkpoint)
            .page_size(50)
            .events(),
    );
    let mut last = None;
    while let Some(event) = events.next().await {
        resumptions += 1;
        last = Some(event.unwrap());
    }
    let last = last.unwrap();
    assert!(last.checkpoint.is_done());
    // What the first run wrote after its checkpoint is found done, and
    // nothing is written twice.
    assert_eq!(
        indexed_before as u64 + last.totals.updated,
        u64::from(USERS)
    );

    let items = raw_items(db.client(), db.table_name()).await;
    assert_eq!(items.len(), USERS as usize);
    for id in 0..USERS {
        let key = User::key(id).unwrap();
        let item = &items[&(key.partition().to_owned(), key.sort().to_owned())];
        assert_eq!(
            User::from_item(item.clone()).unwrap(),
            User {
                id,
                city: city(id),
                visits: 0
            }
        );
        assert!(item.contains_key("GSI1PK"));
    }
    eprintln!(
        "figures: {USERS} users, killed after 5 pages ({indexed_before} indexed), resumed: {resumptions} more pages, {} updated, {} skipped",
        last.totals.updated, last.totals.skipped
    );
}

/// How many items carry the new index key, once no late write changes it.
async fn settled_index_count(db: &Db<After>) -> usize {
    let mut last = usize::MAX;
    loop {
        let items = raw_items(db.client(), db.table_name()).await;
        let count = items.values().filter(|i| i.contains_key("GSI1PK")).count();
        if count == last {
            return count;
        }
        last = count;
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

#[tokio::test]
async fn a_changed_index_template_is_rekeyed_by_the_same_machinery() {
    let dynamo = LocalDynamo::start().await.expect("local DynamoDB starts");
    let (_old, db) = deployed(&dynamo, 300).await;
    db.add_index::<ByCity>().await.unwrap();
    assert_eq!(db.backfill::<User>().await.unwrap().updated, 300);

    let totals = db.backfill::<RekeyedUser>().segments(3).await.unwrap();
    assert_eq!((totals.updated, totals.skipped), (300, 0));
    let oslo: Vec<RekeyedUser> = db
        .query(RekeyedUser::by_city_partition("Oslo").unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(oslo.len(), 60);
    let stale: Vec<User> = db
        .query(User::by_city_partition("Oslo").unwrap())
        .all()
        .await
        .unwrap();
    assert!(stale.is_empty(), "no item keeps the old index key");
}

#[tokio::test]
async fn a_bad_checkpoint_or_segmentation_is_refused_before_any_request() {
    let dynamo = LocalDynamo::start().await.expect("local DynamoDB starts");
    let (_old, db) = deployed(&dynamo, 1).await;
    let err = db
        .backfill::<User>()
        .resume(Checkpoint::start(4))
        .segments(3)
        .await
        .unwrap_err();
    // The user's mistake, said as one: the resumed job keeps its
    // checkpoint's segmentation (not a "cursor from another query").
    assert_eq!(err.kind(), ddb_entity::ErrorKind::InvalidExpression);
    let text = err.to_string();
    assert!(text.contains("in 4 segments"), "{text}");
    assert!(
        text.contains("keeps its checkpoint's segmentation"),
        "{text}"
    );
    assert!(!text.contains("cursor"), "{text}");
    // The checkpoint's own number, or none, is the same job.
    let same = db
        .backfill::<User>()
        .segments(2)
        .resume("ckpt1;2;D,D".parse().unwrap())
        .await
        .unwrap();
    assert_eq!(same.pages, 0);
    let too_many = db.backfill::<User>().segments(1_000_001).await.unwrap_err();
    assert_eq!(too_many.kind(), ddb_entity::ErrorKind::InvalidExpression);
    assert!("ckpt1;2;S,Xnope".parse::<Checkpoint>().is_err());
    let done = db
        .backfill::<User>()
        .resume("ckpt1;2;D,D".parse().unwrap())
        .await
        .unwrap();
    assert_eq!(done.pages, 0);
}

/// The city index written sharded (write sharding, seed 000: a calculated
/// suffix spreads a hot partition): four shards…
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = After, type = "user", pk = "USER#{id}", sk = "PROFILE")]
#[entity(computed = shard: u8 = Self::shard_of(id))]
#[entity(index = ByCity, pk = "CITY#{city}#{shard}", sk = "USER#{id}")]
pub struct FourShards {
    pub id: u32,
    pub city: String,
    pub visits: u64,
}

impl FourShards {
    fn shard_of(id: &u32) -> u8 {
        (id % 4) as u8
    }
}

/// …then eight.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = After, type = "user", pk = "USER#{id}", sk = "PROFILE")]
#[entity(computed = shard: u8 = Self::shard_of(id))]
#[entity(index = ByCity, pk = "CITY#{city}#{shard}", sk = "USER#{id}")]
pub struct EightShards {
    pub id: u32,
    pub city: String,
    pub visits: u64,
}

impl EightShards {
    fn shard_of(id: &u32) -> u8 {
        (id % 8) as u8
    }
}

#[tokio::test]
async fn a_shard_count_change_is_rekeyed_by_the_same_machinery() {
    let dynamo = LocalDynamo::start().await.expect("local DynamoDB starts");
    let (_old, db) = deployed(&dynamo, 400).await;
    db.add_index::<ByCity>().await.unwrap();
    assert_eq!(db.backfill::<FourShards>().await.unwrap().updated, 400);
    // Going from 4 to 8 shards moves the users whose shard changes (id % 8
    // >= 4): half of them; the others already hold their key.
    let totals = db.backfill::<EightShards>().segments(3).await.unwrap();
    assert_eq!((totals.updated, totals.skipped), (200, 200));
    let mut oslo = 0;
    for shard in 0..8u8 {
        let users: Vec<EightShards> = db
            .query(EightShards::by_city_partition("Oslo", shard).unwrap())
            .all()
            .await
            .unwrap();
        assert!(users.iter().all(|u| u.id % 8 == u32::from(shard)));
        oslo += users.len();
    }
    assert_eq!(
        oslo, 80,
        "every Oslo user is in exactly one of the 8 shards"
    );
}
