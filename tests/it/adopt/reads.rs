//! Typed gets, queries and collections over the hand-written table return
//! what the hand-written data holds, with no type attribute anywhere.

use ddb_entity::key::Unordered;
use ddb_entity::{Entity, ErrorKind, UnknownItems};

use super::legacy::*;

#[tokio::test]
async fn a_get_reads_a_hand_written_item() {
    let (_dynamo, db) = legacy_table().await;
    put_raw(&db, hand::dataset()).await;

    let user = db
        .get(User::key("alice@example.com").unwrap())
        .await
        .unwrap();
    assert_eq!(user, Some(alice()));
    let order_key = Order::key("bob@example.com", at(2, 12), "ORD-3").unwrap();
    assert_eq!(order_key.sort(), "ORDER#2026-03-02T12:00:00Z#ORD-3");
    let bob_order = db.get(order_key).await.unwrap();
    assert_eq!(
        bob_order,
        Some(order("bob@example.com", at(2, 12), "ORD-3", 7.0, "open"))
    );
    let line = db
        .get(OrderLine::key("alice@example.com", at(1, 9), "ORD-1", Unordered(10)).unwrap())
        .await
        .unwrap();
    assert_eq!(
        line,
        Some(super::legacy::line(at(1, 9), "ORD-1", 10, "fragile"))
    );
    assert_eq!(
        db.get(User::key("carol@example.com").unwrap())
            .await
            .unwrap(),
        None
    );
}

#[tokio::test]
async fn one_query_serves_the_user_with_orders_and_lines_told_apart() {
    let (_dynamo, db) = legacy_table().await;
    put_raw(&db, hand::dataset()).await;

    let view: UserView = db
        .query(User::partition("alice@example.com").unwrap())
        .on_unknown(UnknownItems::Error)
        .collect()
        .await
        .unwrap();
    assert_eq!(view.profile, Some(alice()));
    // `ORDER#ts#id` and `ORDER#ts#id#LINE#n` share their leading literal:
    // the full parse sends each to its own member.
    assert_eq!(
        view.orders,
        vec![
            order("alice@example.com", at(1, 9), "ORD-1", 129.99, "shipped"),
            order("alice@example.com", at(14, 18), "ORD-2", 15.5, "open"),
        ]
    );
    // Unpadded: `LINE#10` sorts before `LINE#2`, as stored.
    assert_eq!(
        view.lines,
        vec![
            line(at(1, 9), "ORD-1", 10, "fragile"),
            line(at(1, 9), "ORD-1", 2, "gift wrap"),
        ]
    );
}

#[tokio::test]
async fn typed_queries_by_range_and_by_index() {
    let (_dynamo, db) = legacy_table().await;
    put_raw(&db, hand::dataset()).await;

    // Orders placed from March 10th: an ISO timestamp range, newest first.
    let recent: Vec<Order> = db
        .query(User::partition("alice@example.com").unwrap())
        .sk_between(
            Order::sk().placed_at(at(10, 0)),
            Order::sk().placed_at(at(31, 0)),
        )
        .reverse(true)
        .collect()
        .await
        .unwrap();
    assert_eq!(
        recent,
        vec![order(
            "alice@example.com",
            at(14, 18),
            "ORD-2",
            15.5,
            "open"
        )]
    );

    // Every order of Alice: the lines inside the order key space are
    // another entity's, skipped by the typed query, never decoded as orders.
    let orders: Vec<Order> = db
        .query(User::partition("alice@example.com").unwrap())
        .sk_begins_with(Order::sk())
        .collect()
        .await
        .unwrap();
    assert_eq!(orders.len(), 2);

    // Lines of one order: the prefix before the unordered hole.
    let lines: Vec<OrderLine> = db
        .query(User::partition("alice@example.com").unwrap())
        .sk_begins_with(OrderLine::sk().placed_at(at(1, 9)).order_id("ORD-1"))
        .collect()
        .await
        .unwrap();
    assert_eq!(lines.len(), 2);

    // An order by its id (GSI1), and the active users (sparse GSI2).
    let by_id: Vec<Order> = db
        .query(Order::by_order_partition("ORD-3").unwrap())
        .collect()
        .await
        .unwrap();
    assert_eq!(
        by_id,
        vec![order("bob@example.com", at(2, 12), "ORD-3", 7.0, "open")]
    );
    let active: Vec<User> = db
        .query(User::by_status_partition().unwrap())
        .collect()
        .await
        .unwrap();
    assert_eq!(active, vec![alice()]);

    // The items of an order: another partition, another entity.
    let items: Vec<OrderItem> = db
        .query(OrderItem::partition("ORD-1").unwrap())
        .collect()
        .await
        .unwrap();
    assert_eq!(
        items
            .iter()
            .map(|i| (i.sku.as_str(), i.qty))
            .collect::<Vec<_>>(),
        vec![("SKU-A", 2), ("SKU-B", 1)]
    );
}

#[tokio::test]
async fn foreign_items_are_never_decoded() {
    let (_dynamo, db) = legacy_table().await;
    put_raw(&db, hand::dataset()).await;
    // Keys another writer got wrong: another case, a padded line number,
    // an offset instead of `Z`, another delimiter.
    let mut foreign = vec![
        hand::order(
            "alice@example.com",
            "2026-03-05T10:00:00+00:00",
            "ORD-9",
            "1",
            "open",
        ),
        hand::line("alice@example.com", "2026-03-01T09:00:00Z", "ORD-1", 3, "x"),
    ];
    let padded = foreign[1]["SK"]
        .as_s()
        .unwrap()
        .replace("LINE#3", "LINE#003");
    foreign[1].insert(
        "SK".into(),
        aws_sdk_dynamodb::types::AttributeValue::S(padded),
    );
    let mut lower = hand::user("alice@example.com", "Alice", "active");
    lower.insert(
        "SK".into(),
        aws_sdk_dynamodb::types::AttributeValue::S("profile".into()),
    );
    foreign.push(lower);
    put_raw(&db, foreign).await;

    // Skipped (with a warning) by default: the view is the hand-written data.
    let view: UserView = db
        .query(User::partition("alice@example.com").unwrap())
        .collect()
        .await
        .unwrap();
    assert_eq!(view.orders.len(), 2);
    assert_eq!(view.lines.len(), 2);
    assert_eq!(view.profile, Some(alice()));

    // Refused when asked to.
    let err = db
        .query(User::partition("alice@example.com").unwrap())
        .on_unknown(UnknownItems::Error)
        .collect::<UserView>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnknownType);
    assert!(
        err.to_string()
            .contains("matches none of the key templates"),
        "{err}"
    );

    // A foreign item handed to a typed decode names the templates.
    let stored = raw_item(&db, "USER#alice@example.com", "profile")
        .await
        .unwrap();
    let err = User::from_item(stored).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::WrongType);
    assert!(
        err.to_string()
            .contains("pk \"USER#{email}\" / sk \"PROFILE\""),
        "{err}"
    );
}

/// Two members whose templates only values tell apart: `{label}` can be
/// `PROFILE`. Not decidable at compile time; an item both parse is an
/// error naming both, never a guess.
#[tokio::test]
async fn an_item_two_members_match_is_an_error_naming_both() {
    #[derive(Entity, serde::Serialize, serde::Deserialize, Debug)]
    #[entity(table = Legacy, type = "LABEL", pk = "USER#{email}", sk = "{label}")]
    struct Label {
        email: String,
        label: String,
    }

    #[derive(ddb_entity::Collection, Debug)]
    struct Overlapping {
        profile: Option<User>,
        labels: Vec<Label>,
    }

    let (_dynamo, db) = legacy_table().await;
    put_raw(
        &db,
        vec![hand::user("alice@example.com", "Alice", "active")],
    )
    .await;
    let err = db
        .query(User::partition("alice@example.com").unwrap())
        .collect::<Overlapping>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::AmbiguousKey);
    let message = err.to_string();
    assert!(
        message.contains("`User` (pk \"USER#{email}\" / sk \"PROFILE\")"),
        "{message}"
    );
    assert!(
        message.contains("`Label` (pk \"USER#{email}\" / sk \"{label}\")"),
        "{message}"
    );
    assert!(message.contains("SK=PROFILE"), "{message}");
}

/// `first` and `one` ask for only what they miss (no filter: nothing is
/// left out on the server, not even under `UnknownItems::Filter`, which a
/// table typed by key cannot send) until a response held items of other
/// types, then for whole pages: the order lines inside the orders' key
/// range cost pages, not one request each (issue 24).
#[tokio::test]
async fn first_and_one_read_no_more_than_they_need_among_foreign_items() {
    let (_dynamo, db, log) = logged_legacy_table().await;
    let partition = || User::partition("alice@example.com").unwrap();

    // The first item of the range is an order: one request, of one item.
    let first: Option<Order> = db
        .query(partition())
        .sk_begins_with(Order::sk())
        .first()
        .await
        .unwrap();
    assert_eq!(first.map(|o| o.order_id), Some("ORD-1".to_owned()));
    assert_eq!(log.count("Query"), 1);
    assert_eq!(log.bodies("Query")[0]["Limit"], 1);

    // Newest first, the profile is the first item: one request.
    log.clear();
    let user: Option<User> = db
        .query(partition())
        .reverse(true)
        .on_unknown(UnknownItems::Filter)
        .first()
        .await
        .unwrap();
    assert_eq!(user, Some(alice()));
    assert_eq!(log.count("Query"), 1);
    assert!(log.bodies("Query")[0].get("FilterExpression").is_none());

    // Oldest first, the profile comes after the orders and lines: one
    // item, an order skipped, then one whole page (4 requests before).
    log.clear();
    let user: Option<User> = db.query(partition()).first().await.unwrap();
    assert_eq!(user, Some(alice()));
    assert_eq!(log.count("Query"), 2);
    assert_eq!(log.bodies("Query")[0]["Limit"], 1);
    assert!(log.bodies("Query")[1].get("Limit").is_none());

    // `one` reads two items (the order, a line), then the rest of the
    // range in one page, where the second order is.
    log.clear();
    let err = db
        .query(partition())
        .sk_begins_with(Order::sk())
        .one::<Order>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::MoreThanOne);
    assert_eq!(log.count("Query"), 2);
    assert_eq!(log.bodies("Query")[0]["Limit"], 2);
    assert!(log.bodies("Query")[1].get("Limit").is_none());
}
