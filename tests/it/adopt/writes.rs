//! Writes through the library keep the hand-written table's format: no type
//! attribute, keys and index keys byte for byte as the hand-written code
//! writes them, compared attribute by attribute with its items.

use ddb_entity::key::Unordered;
use ddb_entity::{Item, Table};

use super::legacy::*;

/// The key the hand-written `item` is stored under.
fn key_of(item: &Item) -> (String, String) {
    (
        item["PK"].as_s().unwrap().clone(),
        item["SK"].as_s().unwrap().clone(),
    )
}

#[tokio::test]
async fn a_put_writes_what_the_hand_written_code_writes() {
    let (_dynamo, db) = legacy_table().await;
    let bob = User {
        email: "bob@example.com".into(),
        name: "Bob".into(),
        status: "inactive".into(),
    };
    db.put(&alice()).await.unwrap();
    db.put(&bob).await.unwrap();
    db.put(&order(
        "alice@example.com",
        at(1, 9),
        "ORD-1",
        129.99,
        "shipped",
    ))
    .await
    .unwrap();
    db.put(&line(at(1, 9), "ORD-1", 10, "fragile"))
        .await
        .unwrap();
    db.put(&OrderItem {
        order_id: "ORD-1".into(),
        sku: "SKU-B".into(),
        qty: 1,
        price: 29.99,
    })
    .await
    .unwrap();

    let expected = [
        hand::user("alice@example.com", "Alice", "active"),
        hand::user("bob@example.com", "Bob", "inactive"),
        hand::order(
            "alice@example.com",
            "2026-03-01T09:00:00Z",
            "ORD-1",
            "129.99",
            "shipped",
        ),
        hand::line(
            "alice@example.com",
            "2026-03-01T09:00:00Z",
            "ORD-1",
            10,
            "fragile",
        ),
        hand::order_item("ORD-1", "SKU-B", 1, "29.99"),
    ];
    for hand_written in expected {
        let (pk, sk) = key_of(&hand_written);
        let stored = raw_item(&db, &pk, &sk).await.expect("the put item");
        assert_eq!(stored, hand_written, "at {pk} / {sk}");
        assert!(!stored.contains_key(Legacy::SCHEMA.type_attribute));
    }
}

/// Every hand-written item, read as its entity and put back: not one byte
/// of the table changes.
#[tokio::test]
async fn read_then_put_back_changes_no_byte() {
    let (_dynamo, db) = legacy_table().await;
    put_raw(&db, hand::dataset()).await;

    for hand_written in hand::dataset() {
        let (pk, sk) = key_of(&hand_written);
        let stored = raw_item(&db, &pk, &sk).await.unwrap();
        let view = <Vec<Everything> as ddb_entity::Collection>::from_items(
            [stored],
            ddb_entity::UnknownItems::Error,
        )
        .unwrap();
        match view.into_iter().next().unwrap() {
            Everything::User(user) => db.put(&user).await.unwrap(),
            Everything::Order(order) => db.put(&order).await.unwrap(),
            Everything::OrderLine(line) => db.put(&line).await.unwrap(),
            Everything::OrderItem(item) => db.put(&item).await.unwrap(),
        };
        let after = raw_item(&db, &pk, &sk).await.unwrap();
        assert_eq!(after, hand_written, "at {pk} / {sk}");
    }
}

/// An update moves the sparse index as the hand-written code does (an
/// inactive user has no GSI2 keys) and, the table being typed by key and
/// so without write tokens by default, adds nothing: the stored item is
/// the hand-written one byte for byte. So do an upsert, a create and the
/// puts and updates of a transaction.
#[tokio::test]
async fn writes_add_no_write_token_and_keep_the_format_byte_for_byte() {
    let (_dynamo, db) = legacy_table().await;
    put_raw(&db, hand::dataset()).await;
    const { assert!(!Legacy::SCHEMA.write_tokens) };

    let updated = db
        .update(User::key("alice@example.com").unwrap())
        .set(User::fields().status, "inactive".to_owned())
        .await
        .unwrap();
    assert_eq!(updated.status, "inactive");
    let stored = raw_item(&db, "USER#alice@example.com", "PROFILE")
        .await
        .unwrap();
    assert_eq!(stored, hand::user("alice@example.com", "Alice", "inactive"));

    // A line's note, addressed by its unpadded number.
    db.update(OrderLine::key("alice@example.com", at(1, 9), "ORD-1", Unordered(2)).unwrap())
        .set(OrderLine::fields().note, "no gift wrap".to_owned())
        .await
        .unwrap();
    let sk = "ORDER#2026-03-01T09:00:00Z#ORD-1#LINE#2";
    let stored = raw_item(&db, "USER#alice@example.com", sk).await.unwrap();
    let line = |note| {
        hand::line(
            "alice@example.com",
            "2026-03-01T09:00:00Z",
            "ORD-1",
            2,
            note,
        )
    };
    assert_eq!(stored, line("no gift wrap"));

    // A create and an upsert that creates: what the hand-written put writes.
    let carol = User {
        email: "carol@example.com".into(),
        name: "Carol".into(),
        status: "active".into(),
    };
    db.create(&carol).await.unwrap();
    assert_eq!(
        raw_item(&db, "USER#carol@example.com", "PROFILE").await,
        Some(hand::user("carol@example.com", "Carol", "active"))
    );
    let f = Order::fields();
    db.upsert(Order::key("carol@example.com", at(5, 8), "ORD-9").unwrap())
        .set(f.order_total, 3.5)
        .set(f.status, "open".to_owned())
        .await
        .unwrap();
    assert_eq!(
        raw_item(
            &db,
            "USER#carol@example.com",
            "ORDER#2026-03-05T08:00:00Z#ORD-9"
        )
        .await,
        Some(hand::order(
            "carol@example.com",
            "2026-03-05T08:00:00Z",
            "ORD-9",
            "3.5",
            "open"
        ))
    );

    // A transaction's update and create.
    let dave = User {
        email: "dave@example.com".into(),
        name: "Dave".into(),
        status: "inactive".into(),
    };
    db.transact()
        .create(&dave)
        .update(
            db.update(
                OrderLine::key("alice@example.com", at(1, 9), "ORD-1", Unordered(2)).unwrap(),
            )
            .set(OrderLine::fields().note, "wrapped".to_owned()),
        )
        .await
        .unwrap();
    assert_eq!(
        raw_item(&db, "USER#dave@example.com", "PROFILE").await,
        Some(hand::user("dave@example.com", "Dave", "inactive"))
    );
    assert_eq!(
        raw_item(&db, "USER#alice@example.com", sk).await,
        Some(line("wrapped"))
    );
}

/// A delete and a create address the hand-written items by their keys.
#[tokio::test]
async fn deletes_and_creates_address_hand_written_items() {
    let (_dynamo, db) = legacy_table().await;
    put_raw(&db, hand::dataset()).await;
    let err = db.create(&alice()).await.unwrap_err();
    assert_eq!(err.kind(), ddb_entity::ErrorKind::AlreadyExists);
    db.delete(OrderItem::key("ORD-1", "SKU-A").unwrap())
        .await
        .unwrap();
    assert_eq!(raw_item(&db, "ORDER#ORD-1", "ITEM#SKU-A").await, None);
    assert!(raw_item(&db, "ORDER#ORD-1", "ITEM#SKU-B").await.is_some());
}
