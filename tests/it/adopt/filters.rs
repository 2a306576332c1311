//! A filter on one entity of a read that returns several, on the table
//! typed by key: sent as "not this entity (by its keys), or the
//! condition" where the keys tell the members apart, refused before any
//! request where they cannot — never sent to drop the other members' items.

use ddb_entity::{ErrorKind, UnknownItems};

use super::legacy::*;

fn tally(items: &[Everything]) -> [usize; 4] {
    let mut counts = [0; 4];
    for item in items {
        counts[match item {
            Everything::User(_) => 0,
            Everything::Order(_) => 1,
            Everything::OrderLine(_) => 2,
            Everything::OrderItem(_) => 3,
        }] += 1;
    }
    counts
}

/// `User`'s keys (`USER#…` / `PROFILE`) and `OrderItem`'s (`ORDER#…` /
/// `ITEM#…`) begin unlike every other member's: the filter applies to
/// their items only. Orders carry a `status` too: a filter applied to
/// every item would have dropped all of them.
#[tokio::test]
async fn a_filter_on_a_member_whose_keys_tell_it_apart_leaves_the_others_alone() {
    let (_dynamo, db, log) = logged_legacy_table().await;
    let active = User::fields().status.equals("active".to_owned());
    let everything: Vec<Everything> = db
        .scan()
        .filter(active.clone())
        .on_unknown(UnknownItems::Error)
        .collect()
        .await
        .unwrap();
    assert_eq!(tally(&everything), [1, 3, 2, 2]);
    let users: Vec<&User> = everything
        .iter()
        .filter_map(|item| match item {
            Everything::User(user) => Some(user),
            _ => None,
        })
        .collect();
    assert_eq!(users, [&alice()]);
    let sent = &log.bodies("Scan")[0];
    let filter = sent["FilterExpression"].as_str().unwrap();
    assert!(filter.contains("begins_with("), "{sent}");
    assert!(
        sent["ExpressionAttributeValues"]
            .as_object()
            .unwrap()
            .values()
            .any(|value| value["S"] == "PROFILE"),
        "{sent}"
    );

    // Two filters, parallel segments: the items of an order that are
    // bought twice, the active users, everything else as it is.
    let everything: Vec<Everything> = db
        .scan()
        .segments(3)
        .filter(active)
        .filter(OrderItem::fields().qty.ge(2))
        .collect()
        .await
        .unwrap();
    assert_eq!(tally(&everything), [1, 3, 2, 1]);
}

/// `Order`'s sort key `ORDER#{placed_at}#{order_id}` begins every
/// `OrderLine`'s too: no key test tells an order from its lines, so the
/// filter is refused before any request, naming both.
#[tokio::test]
async fn a_filter_on_a_member_whose_keys_another_shares_is_refused() {
    let (_dynamo, db, log) = logged_legacy_table().await;
    let open = Order::fields().status.equals("open".to_owned());
    let err = db
        .scan()
        .filter(open.clone())
        .collect::<Vec<Everything>>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::AmbiguousFilter, "{err}");
    let message = err.to_string();
    assert!(message.contains("`OrderLine`"), "{message}");
    assert!(
        message.contains("\"ORDER#{placed_at}#{order_id}#LINE#{line}\""),
        "{message}"
    );
    assert!(message.contains("Read `Order` alone"), "{message}");
    assert!(log.operations().is_empty(), "{:?}", log.operations());

    // What it says to do: the orders alone, their lines never decoded as
    // orders.
    let mut orders: Vec<Order> = db.scan().filter(open).collect().await.unwrap();
    orders.sort_by(|a, b| a.order_id.cmp(&b.order_id));
    let ids: Vec<&str> = orders.iter().map(|o| o.order_id.as_str()).collect();
    assert_eq!(ids, ["ORD-2", "ORD-3"]);
}

/// A Query of the table is keyed by `PK` and `SK`, which its filter cannot
/// name: nothing on the server can tell the user from her orders, so a
/// filter in a collection query is refused before sending; one member's
/// query takes it.
#[tokio::test]
async fn a_collection_query_of_the_table_refuses_a_filter_on_one_member() {
    let (_dynamo, db, log) = logged_legacy_table().await;
    let shipped = Order::fields().status.equals("shipped".to_owned());
    let err = db
        .query(User::partition("alice@example.com").unwrap())
        .filter(shipped.clone())
        .collect::<UserView>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::AmbiguousFilter, "{err}");
    assert!(err.to_string().contains("`PK`, `SK`"), "{err}");
    let err = db
        .query(User::partition("alice@example.com").unwrap())
        .filter(shipped.clone())
        .first::<Everything>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::AmbiguousFilter, "{err}");
    assert!(log.operations().is_empty(), "{:?}", log.operations());

    let shipped_orders: Vec<Order> = db
        .query(User::partition("alice@example.com").unwrap())
        .sk_begins_with(Order::sk())
        .filter(shipped)
        .collect()
        .await
        .unwrap();
    assert_eq!(
        shipped_orders,
        [order(
            "alice@example.com",
            at(1, 9),
            "ORD-1",
            129.99,
            "shipped"
        )]
    );
}

ddb_entity::table! {
    /// Tickets and tasks, typed by key, both in an index of open work; the
    /// inverted index is keyed by the table's own keys, swapped.
    pub struct Work {
        partition_key: "PK",
        sort_key: "SK",
        typed_by: Key,
        indexes: {
            /// Open work by status: `STATUS#open`.
            pub ByStatus = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
            /// The table's keys swapped.
            pub Inverted = "Inverted" { partition_key: "SK", sort_key: "PK" },
        },
    }
}

#[derive(ddb_entity::Entity, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
// The inverted index writes `PK` with its sort template, in the sort
// key's fixed width: the table key declares that width too.
#[entity(table = Work, pk = "TICKET#{id:10}", sk = "TICKET")]
#[entity(index = ByStatus, pk = "STATUS#{status}", sk = "{id}")]
#[entity(index = Inverted, pk = "TICKET", sk = "TICKET#{id}")]
struct Ticket {
    id: u32,
    status: String,
    priority: u32,
}

#[derive(ddb_entity::Entity, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
#[entity(table = Work, pk = "TASK#{id:10}", sk = "TASK")]
#[entity(index = ByStatus, pk = "STATUS#{status}", sk = "{id}")]
#[entity(index = Inverted, pk = "TASK", sk = "TASK#{id}")]
struct Task {
    id: u32,
    status: String,
    priority: u32,
}

#[derive(ddb_entity::Collection, Debug)]
struct OpenWork {
    tickets: Vec<Ticket>,
    tasks: Vec<Task>,
}

/// On an index, the table's keys are not the Query's: "not a ticket" is
/// `NOT (begins_with(PK, "TICKET#") AND SK = "TICKET")`, and the tasks,
/// whose priority the filter would have dropped, all come back. Where the
/// index is keyed by the table's keys, the filter is refused.
#[tokio::test]
async fn an_index_query_filters_one_member_by_the_table_keys() {
    let dynamo = ddb_entity::local::LocalDynamo::start().await.unwrap();
    let db = ddb_entity::Db::<Work>::new(dynamo.client(), dynamo.unique_table_name("work"));
    db.create_table_if_missing().send().await.unwrap();
    for id in 1..=4 {
        let status = "open".to_owned();
        db.put(&Ticket {
            id,
            status: status.clone(),
            priority: id,
        })
        .await
        .unwrap();
        db.put(&Task {
            id,
            status,
            priority: id,
        })
        .await
        .unwrap();
    }
    let urgent = Ticket::fields().priority.ge(3);
    let open: OpenWork = db
        .query(Ticket::by_status_partition("open").unwrap())
        .filter(urgent.clone())
        .collect()
        .await
        .unwrap();
    let tickets: Vec<u32> = open.tickets.iter().map(|t| t.id).collect();
    assert_eq!(tickets, [3, 4]);
    assert_eq!(open.tasks.len(), 4, "every task, whatever its priority");

    let err = db
        .query(Ticket::inverted_partition().unwrap())
        .filter(urgent)
        .collect::<OpenWork>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::AmbiguousFilter, "{err}");
    assert!(err.to_string().contains("`SK`, `PK`"), "{err}");
}

ddb_entity::table! {
    /// A hand-made hash-only table: sessions keyed by their raw token,
    /// counters by a templated key, no type attribute.
    pub struct Tokens { partition_key: "PK", typed_by: Key }
}

/// Its key attribute is the token itself: any string, `COUNTER#…` too.
#[derive(ddb_entity::Entity, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
#[entity(table = Tokens, pk = token, type = "SESSION")]
struct RawSession {
    #[serde(rename = "PK")]
    token: String,
    username: String,
}

#[derive(ddb_entity::Entity, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
#[entity(table = Tokens, pk = "COUNTER#{name}")]
struct NamedCounter {
    name: String,
    value: u64,
}

#[derive(ddb_entity::Collection, Debug)]
enum TokenItem {
    Session(RawSession),
    Counter(NamedCounter),
}

/// A raw key can be any string: no key test tells a raw-keyed member from
/// another, so a filter on either is refused before any request. (Read as
/// the literal key "token", the session's test was `PK = "token"`, which no
/// session passes: the filter was sent and dropped nothing.)
#[tokio::test]
async fn a_filter_beside_a_raw_keyed_member_is_refused() {
    let dynamo = ddb_entity::local::LocalDynamo::start().await.unwrap();
    let db = ddb_entity::Db::<Tokens>::new(dynamo.client(), dynamo.unique_table_name("tokens"));
    db.create_table_if_missing().send().await.unwrap();
    for (token, username) in [("t-1", "ann"), ("t-2", "bob")] {
        db.put(&RawSession {
            token: token.into(),
            username: username.into(),
        })
        .await
        .unwrap();
    }
    let ann = RawSession::fields().username.equals("ann".to_owned());
    let err = db
        .scan()
        .filter(ann.clone())
        .collect::<Vec<TokenItem>>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::AmbiguousFilter, "{err}");
    assert!(err.to_string().contains("`NamedCounter`"), "{err}");
    let counted = NamedCounter::fields().value.gt(1);
    let err = db
        .scan()
        .filter(counted)
        .collect::<Vec<TokenItem>>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::AmbiguousFilter, "{err}");

    // Unfiltered, each item is told by its keys: two sessions.
    let mut tokens: Vec<String> = db
        .scan()
        .collect::<Vec<TokenItem>>()
        .await
        .unwrap()
        .into_iter()
        .map(|item| match item {
            TokenItem::Session(session) => session.token,
            TokenItem::Counter(counter) => counter.name,
        })
        .collect();
    tokens.sort();
    assert_eq!(tokens, ["t-1", "t-2"]);

    // Alone, the sessions take the filter.
    let sessions: Vec<RawSession> = db.scan().filter(ann).collect().await.unwrap();
    assert_eq!(
        sessions,
        [RawSession {
            token: "t-1".into(),
            username: "ann".into()
        }]
    );
}
