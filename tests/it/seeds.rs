//! The seed lessons' items, written by hand exactly as the seeds show them
//! (raw PutItem, no key-field copies), against the library's declarations
//! of the same entities: a `put` of the same values stores the identical
//! attribute map, typed reads and the seeds' queries return the values, and
//! a typed update changes only the fields it names.
//!
//! Seed 003 (`app_data`): `PK=USER#alice@example.com`,
//! `SK=ORDER#1750000000#ORD-12345`, `"type": "order"`, `order_total`
//! 129.99, and the index it adds, `GSI1PK=ORDER#<order_id>`,
//! `GSI1SK=USER#<email>`. Seed 000: `PK=CUST#42` with sort keys `PROFILE`,
//! `ADDR#1`, `ORDER#2026-03-14#9931`, one Query returning the customer and
//! their orders.

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::NaiveDate;
use ddb_entity::key::{UnixSeconds, Unordered};
use ddb_entity::local::LocalDynamo;
use ddb_entity::{Collection, Db, Entity, Item};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    /// Seed 003's `app_data`: the type in `type`, no write tokens (the
    /// items are kept exactly as the seed writes them).
    pub struct AppData {
        partition_key: "PK",
        sort_key: "SK",
        type_attribute: "type",
        write_tokens: false,
        indexes: {
            /// Orders by id.
            pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
        },
    }
}

/// Seed 003's order: the timestamp in the sort key as Unix seconds
/// (`key::UnixSeconds`: 10 digits, order-preserving until the year 2286).
/// Its type, `order`, is the struct's name: nothing to declare.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = AppData, pk = "USER#{email}", sk = "ORDER#{placed}#{order_id}")]
#[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "USER#{email}")]
struct Order {
    email: String,
    placed: UnixSeconds,
    order_id: String,
    order_total: f64,
    status: String,
    ship_address: String,
}

/// Seed 003's `1750000000`.
fn placed() -> UnixSeconds {
    UnixSeconds::from_count(1_750_000_000).unwrap()
}

ddb_entity::table! {
    /// Seed 000's single table.
    pub struct Shop {
        partition_key: "PK",
        sort_key: "SK",
        type_attribute: "type",
        write_tokens: false,
    }
}

/// `PK=CUST#42`, `SK=PROFILE`.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = Shop, pk = "CUST#{customer_id}", sk = "PROFILE")]
struct Customer {
    customer_id: u64,
    name: String,
}

/// `SK=ADDR#1`: the seed's number unpadded, so not ordered (addresses are
/// never read by range).
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = Shop, pk = "CUST#{customer_id}", sk = "ADDR#{seq}")]
struct Address {
    customer_id: u64,
    seq: Unordered<u32>,
    city: String,
}

/// `SK=ORDER#2026-03-14#9931`: cut by year, month, day; the id's width is
/// written, so ids sort within a day.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = Shop, type = "order", pk = "CUST#{customer_id}", sk = "ORDER#{placed}#{order_id:4}")]
struct ShopOrder {
    customer_id: u64,
    placed: NaiveDate,
    order_id: u32,
    total: f64,
}

/// "One Query on PK=CUST#42 returns the customer and their orders."
#[derive(Collection, Debug)]
struct CustomerPage {
    customer: Option<Customer>,
    addresses: Vec<Address>,
    orders: Vec<ShopOrder>,
}

fn s(value: &str) -> AttributeValue {
    AttributeValue::S(value.to_owned())
}

fn n(value: &str) -> AttributeValue {
    AttributeValue::N(value.to_owned())
}

fn item(pairs: &[(&str, AttributeValue)]) -> Item {
    pairs
        .iter()
        .map(|(name, value)| ((*name).to_owned(), value.clone()))
        .collect()
}

/// Seed 003's order item, as the seed prints it, with the GSI1 keys the
/// seed adds for "fetch a single order".
fn seed_003_order() -> Item {
    item(&[
        ("PK", s("USER#alice@example.com")),
        ("SK", s("ORDER#1750000000#ORD-12345")),
        ("type", s("order")),
        ("order_total", n("129.99")),
        ("status", s("shipped")),
        ("ship_address", s("123 Main St")),
        ("GSI1PK", s("ORDER#ORD-12345")),
        ("GSI1SK", s("USER#alice@example.com")),
    ])
}

fn alice_order() -> Order {
    Order {
        email: "alice@example.com".into(),
        placed: placed(),
        order_id: "ORD-12345".into(),
        order_total: 129.99,
        status: "shipped".into(),
        ship_address: "123 Main St".into(),
    }
}

fn seed_000_items() -> Vec<Item> {
    vec![
        item(&[
            ("PK", s("CUST#42")),
            ("SK", s("PROFILE")),
            ("type", s("customer")),
            ("name", s("Ada")),
        ]),
        item(&[
            ("PK", s("CUST#42")),
            ("SK", s("ADDR#1")),
            ("type", s("address")),
            ("city", s("London")),
        ]),
        item(&[
            ("PK", s("CUST#42")),
            ("SK", s("ORDER#2026-03-14#9931")),
            ("type", s("order")),
            ("total", n("129.99")),
        ]),
    ]
}

fn date(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

fn customer() -> Customer {
    Customer {
        customer_id: 42,
        name: "Ada".into(),
    }
}

fn address() -> Address {
    Address {
        customer_id: 42,
        seq: Unordered(1),
        city: "London".into(),
    }
}

fn shop_order() -> ShopOrder {
    ShopOrder {
        customer_id: 42,
        placed: date(2026, 3, 14),
        order_id: 9931,
        total: 129.99,
    }
}

async fn raw_put<T: ddb_entity::Table>(db: &Db<T>, item: Item) {
    db.client()
        .put_item()
        .table_name(db.table_name())
        .set_item(Some(item))
        .send()
        .await
        .expect("PutItem succeeds");
}

async fn raw_get<T: ddb_entity::Table>(db: &Db<T>, pk: &str, sk: &str) -> Item {
    db.client()
        .get_item()
        .table_name(db.table_name())
        .key("PK", s(pk))
        .key("SK", s(sk))
        .consistent_read(true)
        .send()
        .await
        .expect("GetItem succeeds")
        .item
        .expect("the item exists")
}

async fn table<T: ddb_entity::Table>(dynamo: &LocalDynamo, name: &str) -> Db<T> {
    let db = Db::<T>::new(dynamo.client(), dynamo.unique_table_name(name));
    db.create_table_if_missing()
        .send()
        .await
        .expect("table is created");
    db
}

#[test]
fn the_library_writes_the_seeds_items_byte_for_byte() {
    assert_eq!(alice_order().to_item().unwrap(), seed_003_order());
    let [profile, addr, order] = <[Item; 3]>::try_from(seed_000_items()).unwrap();
    assert_eq!(customer().to_item().unwrap(), profile);
    assert_eq!(address().to_item().unwrap(), addr);
    assert_eq!(shop_order().to_item().unwrap(), order);
    assert_eq!(
        Order::key("alice@example.com", placed(), "ORD-12345")
            .unwrap()
            .sort(),
        "ORDER#1750000000#ORD-12345"
    );
    assert_eq!(Customer::partition(42u64).unwrap().as_str(), "CUST#42");
}

#[tokio::test]
async fn seed_003_items_written_by_hand_are_read_queried_and_updated_by_typed_calls() {
    let dynamo = LocalDynamo::start().await.expect("a server");
    let db = table::<AppData>(&dynamo, "seed003").await;
    raw_put(&db, seed_003_order()).await;
    let (pk, sk) = ("USER#alice@example.com", "ORDER#1750000000#ORD-12345");

    // A get by the full key: the key fields come from the key.
    let key = Order::key("alice@example.com", placed(), "ORD-12345").unwrap();
    assert_eq!(db.get(key.clone()).await.unwrap(), Some(alice_order()));

    // The seed's query: every order of Alice, by the SK prefix.
    let orders: Vec<Order> = db
        .query(Order::partition("alice@example.com").unwrap())
        .sk_begins_with(Order::sk())
        .all()
        .await
        .unwrap();
    assert_eq!(orders, [alice_order()]);

    // "Fetch a single order" through GSI1 by its id.
    let by_id: Vec<Order> = db
        .query(Order::gsi1_partition("ORD-12345").unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(by_id, [alice_order()]);

    // A put of the same value changes no byte.
    db.put(&alice_order()).await.unwrap();
    assert_eq!(raw_get(&db, pk, sk).await, seed_003_order());

    // A typed update changes only the field it names.
    let updated = db
        .update(key.clone())
        .set(Order::fields().status, "delivered".to_owned())
        .await
        .unwrap();
    assert_eq!(updated.status, "delivered");
    let mut expected = seed_003_order();
    expected.insert("status".into(), s("delivered"));
    assert_eq!(raw_get(&db, pk, sk).await, expected);

    // An upsert (which could create the item, so names every body field)
    // adds no copy of a key field.
    let f = Order::fields();
    db.upsert(key)
        .set(f.order_total, 129.99)
        .set(f.status, "delivered".to_owned())
        .set(f.ship_address, "123 Main St".to_owned())
        .await
        .unwrap();
    assert_eq!(raw_get(&db, pk, sk).await, expected);
}

#[tokio::test]
async fn seed_000_items_written_by_hand_come_back_in_one_query() {
    let dynamo = LocalDynamo::start().await.expect("a server");
    let db = table::<Shop>(&dynamo, "seed000").await;
    for item in seed_000_items() {
        raw_put(&db, item).await;
    }

    // "One Query on PK=CUST#42 then returns the customer and their orders."
    let page: CustomerPage = db
        .query(Customer::partition(42u64).unwrap())
        .collect()
        .await
        .unwrap();
    assert_eq!(page.customer, Some(customer()));
    assert_eq!(page.addresses, [address()]);
    assert_eq!(page.orders, [shop_order()]);

    // The composite sort key cut by year, month and day.
    let by_year: Vec<ShopOrder> = db
        .query(ShopOrder::partition(42u64).unwrap())
        .sk_begins_with(ShopOrder::sk().placed_prefix(ddb_entity::key::Year(2026)))
        .all()
        .await
        .unwrap();
    assert_eq!(by_year, [shop_order()]);
    let by_day: Vec<ShopOrder> = db
        .query(ShopOrder::partition(42u64).unwrap())
        .sk_begins_with(ShopOrder::sk().placed(date(2026, 3, 14)))
        .all()
        .await
        .unwrap();
    assert_eq!(by_day, [shop_order()]);

    // Puts of the same values store the same items.
    db.put(&customer()).await.unwrap();
    db.put(&address()).await.unwrap();
    db.put(&shop_order()).await.unwrap();
    let [profile, addr, order] = <[Item; 3]>::try_from(seed_000_items()).unwrap();
    assert_eq!(raw_get(&db, "CUST#42", "PROFILE").await, profile);
    assert_eq!(raw_get(&db, "CUST#42", "ADDR#1").await, addr);
    assert_eq!(
        raw_get(&db, "CUST#42", "ORDER#2026-03-14#9931").await,
        order
    );

    // A typed update of the profile changes only the name.
    let updated = db
        .update(Customer::key(42u64).unwrap())
        .set(Customer::fields().name, "Ada L.".to_owned())
        .await
        .unwrap();
    assert_eq!(updated.name, "Ada L.");
    let mut expected = profile;
    expected.insert("name".into(), s("Ada L."));
    assert_eq!(raw_get(&db, "CUST#42", "PROFILE").await, expected);
}

/// Seed 000's "customer plus their last ten orders".
#[derive(Collection, Debug)]
struct Recent {
    customer: Option<Customer>,
    orders: Vec<ShopOrder>,
}

#[tokio::test]
async fn seed_000s_customer_plus_their_last_ten_orders_is_one_query() {
    let dynamo = LocalDynamo::start().await.expect("a server");
    let (client, log) = crate::support::logged_client(&dynamo);
    let db = Db::<Shop>::new(client, dynamo.unique_table_name("seed000"));
    db.create_table_if_missing().await.unwrap();
    for item in seed_000_items() {
        raw_put(&db, item).await;
    }
    // Fourteen more orders, one a day in April.
    for day in 1..=14 {
        db.put(&ShopOrder {
            placed: date(2026, 4, day),
            order_id: day,
            ..shop_order()
        })
        .await
        .unwrap();
    }
    let recent = || {
        db.query(Customer::partition(42u64).unwrap())
            .sk_span(Customer::sk(), ShopOrder::sk())
            .reverse(true)
            .limit(11)
    };
    log.clear();
    let view: Recent = recent().collect().await.unwrap();
    assert_eq!(log.operations(), ["Query"], "one contiguous read");
    assert_eq!(view.customer, Some(customer()));
    let days: Vec<u32> = view.orders.iter().map(|o| o.order_id).collect();
    assert_eq!(days, (5..=14).rev().collect::<Vec<_>>(), "the ten newest");
    let sent = &log.bodies("Query")[0];
    assert_eq!(sent["Limit"], 11);
    assert_eq!(sent["ScanIndexForward"], false);
    let condition = sent["KeyConditionExpression"].as_str().unwrap();
    assert!(condition.contains("BETWEEN"), "{condition}");

    // Another program's item inside the range is read past, never counted:
    // still the customer and ten orders (one more request to make up for
    // it).
    raw_put(
        &db,
        item(&[
            ("PK", s("CUST#42")),
            ("SK", s("PAYMENT#1")),
            ("type", s("payment")),
        ]),
    )
    .await;
    log.clear();
    let view: Recent = recent().collect().await.unwrap();
    assert_eq!(view.customer, Some(customer()));
    assert_eq!(view.orders.len(), 10);
    assert!(log.count("Query") <= 2, "{:?}", log.operations());

    // The classic open range now reaches the profile only: into the
    // collection it is refused before any request, naming the member it
    // cannot return and the call to use; alone, it reads the profile.
    log.clear();
    let err = db
        .query(Customer::partition(42u64).unwrap())
        .sk_le(Customer::sk())
        .reverse(true)
        .limit(11)
        .collect::<Recent>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ddb_entity::ErrorKind::InvalidExpression);
    let message = err.to_string();
    assert!(
        message.contains("ShopOrder") && message.contains("sk_span"),
        "{message}"
    );
    assert!(log.operations().is_empty());
    let alone: Vec<Customer> = db
        .query(Customer::partition(42u64).unwrap())
        .sk_le(Customer::sk())
        .reverse(true)
        .all()
        .await
        .unwrap();
    assert_eq!(alone, [customer()]);
}
