//! Template shapes beyond whole segments: a leading `#` (items that sort
//! before the rest of their partition) and segments that hold literal text
//! beside a hole, or two holes (`{kind}REACTION`, `ISSUE#{number}-{comment}`).
//! Their key contract is proven in `keys::templates`; here they are stored,
//! queried, updated and read back, verified, through a real server.

use ddb_entity::{Collection, Entity, KeyPart};
use serde::{Deserialize, Serialize};

use crate::support::{App, Gsi1, app_table, logged_app_table, stored_item};

/// The Book's customer: `CUSTOMER#{username}` in its own partition.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "CUSTOMER#{username}", sk = "CUSTOMER#{username}")]
pub struct Customer {
    pub username: String,
    pub name: String,
}

/// An order sorts before its customer: `#ORDER#…` starts with `#`, below
/// every letter, so "the customer and their newest orders" is one reverse
/// Query that ends at the customer.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "CUSTOMER#{username}", sk = "#ORDER#{placed}#{order_id}")]
#[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "#ORDER#{order_id}")]
pub struct Order {
    pub username: String,
    pub placed: u32,
    pub order_id: String,
    pub total_cents: i64,
}

/// The same shape without the leading `#`: another key space.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "CUSTOMER#{username}", sk = "ORDER#{placed}#{order_id}", type = "PLAIN_ORDER")]
pub struct PlainOrder {
    pub username: String,
    pub placed: u32,
    pub order_id: String,
}

/// The view the reverse Query fills.
#[derive(Collection, Debug)]
pub struct CustomerOrders {
    pub customer: Option<Customer>,
    pub orders: Vec<Order>,
}

/// A reaction kind: a unit enum, whose names sort as declared and are
/// prefix-free (no name begins another), so literal text may follow it.
#[derive(
    KeyPart, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash,
)]
pub enum Kind {
    Heart,
    Laugh,
    ThumbsUp,
}

/// GitHub's reactions: `{kind}REACTION#{user}`, a hole and a literal in one
/// segment, with no stored helper field.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "ISSUE#{number}", sk = "{kind}REACTION#{user}", type = "REACTION")]
#[entity(index = Gsi1, pk = "USER#{user}", sk = "REACT{kind}#{number}")]
pub struct Reaction {
    pub number: u32,
    pub kind: Kind,
    pub user: String,
    pub note: String,
}

/// An issue comment, `ISSUE#{number}-{comment}`: two holes in one
/// segment, the first of a fixed length (`u16`: 5 digits). The index
/// reuses both primary-key fields, so an update reads them back out of the
/// key, segment piece by piece.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "REPO#{repo}", sk = "ISSUE#{number}-{comment}")]
#[entity(index = Gsi1, pk = "AUTHOR#{author}", sk = "C{number}-{comment}")]
pub struct Comment {
    pub repo: String,
    pub number: u16,
    pub comment: String,
    pub author: String,
}

/// A signed score followed by a literal (`i32` is prefix-free: negatives
/// all start with `-`), and a padded number followed by a hole.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "BOARD#{board}", sk = "S{score}PTS#{round:3}.{player}", type = "SCORE")]
pub struct Score {
    pub board: u8,
    pub score: i32,
    pub round: u32,
    pub player: String,
}

fn order(placed: u32, id: &str) -> Order {
    Order {
        username: "alexdebrie".into(),
        placed,
        order_id: id.into(),
        total_cents: i64::from(placed),
    }
}

#[test]
fn a_leading_hash_starts_the_key_with_the_delimiter() -> ddb_entity::Result<()> {
    let key = Order::key("alexdebrie", 20260314, "A7")?;
    assert_eq!(key.sort(), "#ORDER#0020260314#A7");
    assert_eq!(Order::TYPE_TAG, "order");
    let prefix: ddb_entity::SortKey<_> = Order::sk().into();
    assert_eq!(prefix.value()?, "#ORDER#");
    let day: ddb_entity::SortKey<_> = Order::sk().placed(20260314u32).into();
    assert_eq!(day.value()?, "#ORDER#0020260314#");
    Ok(())
}

#[test]
fn partial_segments_write_no_delimiter_inside_a_segment() -> ddb_entity::Result<()> {
    let reaction = Reaction {
        number: 7,
        kind: Kind::Laugh,
        user: "alice".into(),
        note: String::new(),
    };
    assert_eq!(reaction.primary_key()?.sort(), "LaughREACTION#alice");
    let gsi1 = &reaction.index_entries()?[0];
    let key = gsi1.key.as_ref().expect("in the index");
    assert_eq!(key.sort.as_deref(), Some("REACTLaugh#0000000007"));

    let comment = Comment::key("ddb", 42, "c-1")?;
    assert_eq!(comment.sort(), "ISSUE#00042-c-1");
    // A prefix cut inside a segment ends there, without a `#`.
    let of_issue: ddb_entity::SortKey<_> = Comment::sk().number(42u16).into();
    assert_eq!(of_issue.value()?, "ISSUE#00042-");
    let all: ddb_entity::SortKey<_> = Comment::gsi1_sk().into();
    assert_eq!(all.value()?, "C");
    let kinds: ddb_entity::SortKey<_> = Reaction::sk().into();
    assert_eq!(kinds.value()?, "");

    let score = Score::key(1, -5, 7, "bo")?;
    assert_eq!(score.sort(), "S-9999999994PTS#007.bo");
    let round: ddb_entity::SortKey<_> = Score::sk().score(-5).round(7u32).into();
    assert_eq!(round.value()?, "S-9999999994PTS#007.");
    Ok(())
}

#[tokio::test]
async fn customer_and_newest_orders_in_one_reverse_query() -> ddb_entity::Result<()> {
    let (_dynamo, db, log) = logged_app_table().await;
    db.put(&Customer {
        username: "alexdebrie".into(),
        name: "Alex".into(),
    })
    .await?;
    for (placed, id) in [(20260301, "A1"), (20260315, "A2"), (20260402, "A3")] {
        db.put(&order(placed, id)).await?;
    }
    // Another template in the partition, after the customer: not read.
    db.put(&PlainOrder {
        username: "alexdebrie".into(),
        placed: 1,
        order_id: "P".into(),
    })
    .await?;
    log.clear();

    // From the orders through the customer, newest first: the customer,
    // then the two newest orders; the plain orders after the customer are
    // outside the range.
    let view: CustomerOrders = db
        .query(Customer::partition("alexdebrie")?)
        .sk_between(Order::sk(), Customer::sk().username("alexdebrie"))
        .reverse(true)
        .limit(3)
        .collect()
        .await?;
    assert_eq!(log.count("Query"), 1);
    assert_eq!(view.customer.map(|c| c.name).as_deref(), Some("Alex"));
    let ids: Vec<&str> = view.orders.iter().map(|o| o.order_id.as_str()).collect();
    assert_eq!(ids, ["A3", "A2"]);

    // The orders' own key space: the `#ORDER#` items only.
    let orders: Vec<Order> = db
        .query(Order::partition("alexdebrie")?)
        .sk_ge(Order::sk().placed(20260315u32))
        .collect()
        .await?;
    let ids: Vec<&str> = orders.iter().map(|o| o.order_id.as_str()).collect();
    assert_eq!(ids, ["A2", "A3"]);
    let plain: Vec<PlainOrder> = db
        .query(PlainOrder::partition("alexdebrie")?)
        .sk_begins_with(PlainOrder::sk())
        .collect()
        .await?;
    assert_eq!(plain.len(), 1);

    // And by id on the index, whose sort key starts with `#` too.
    let by_id: Vec<Order> = db
        .query(Order::gsi1_partition("A2")?)
        .sk_eq(Order::gsi1_sk().order_id("A2"))
        .collect()
        .await?;
    assert_eq!(by_id, [order(20260315, "A2")]);
    Ok(())
}

/// The Book's own partition holds the customer and the orders only: no
/// condition at all, reversed, starts at the customer.
#[tokio::test]
async fn no_condition_reversed_starts_at_the_customer() -> ddb_entity::Result<()> {
    let (_dynamo, db) = app_table().await;
    db.put(&Customer {
        username: "alexdebrie".into(),
        name: "Alex".into(),
    })
    .await?;
    for (placed, id) in [(20260301, "A1"), (20260315, "A2")] {
        db.put(&order(placed, id)).await?;
    }
    let view: CustomerOrders = db
        .query(Customer::partition("alexdebrie")?)
        .reverse(true)
        .limit(2)
        .collect()
        .await?;
    assert!(view.customer.is_some());
    assert_eq!(view.orders, [order(20260315, "A2")]);
    Ok(())
}

#[tokio::test]
async fn partial_segments_store_query_update_and_verify() -> ddb_entity::Result<()> {
    let (_dynamo, db) = app_table().await;
    for (kind, user) in [
        (Kind::ThumbsUp, "carol"),
        (Kind::Heart, "bob"),
        (Kind::Laugh, "alice"),
        (Kind::Heart, "alice"),
    ] {
        db.put(&Reaction {
            number: 7,
            kind,
            user: user.into(),
            note: String::new(),
        })
        .await?;
    }
    // In kind order, then user: the enum's position sorts in the segment.
    let all: Vec<Reaction> = db.query(Reaction::partition(7u32)?).collect().await?;
    let seen: Vec<(Kind, &str)> = all.iter().map(|r| (r.kind, r.user.as_str())).collect();
    assert_eq!(
        seen,
        [
            (Kind::Heart, "alice"),
            (Kind::Heart, "bob"),
            (Kind::Laugh, "alice"),
            (Kind::ThumbsUp, "carol"),
        ]
    );
    let hearts: Vec<Reaction> = db
        .query(Reaction::partition(7u32)?)
        .sk_begins_with(Reaction::sk().kind(Kind::Heart))
        .collect()
        .await?;
    assert_eq!(hearts.len(), 2);
    let by_alice: Vec<Reaction> = db
        .query(Reaction::gsi1_partition("alice")?)
        .sk_begins_with(Reaction::gsi1_sk().kind(Kind::Laugh))
        .collect()
        .await?;
    assert_eq!(by_alice.len(), 1);

    for (number, comment) in [(3u16, "b"), (3, "a"), (12, "a"), (4, "z")] {
        db.put(&Comment {
            repo: "ddb".into(),
            number,
            comment: comment.into(),
            author: "dana".into(),
        })
        .await?;
    }
    let issue_3: Vec<Comment> = db
        .query(Comment::partition("ddb")?)
        .sk_begins_with(Comment::sk().number(3u16))
        .collect()
        .await?;
    let seen: Vec<&str> = issue_3.iter().map(|c| c.comment.as_str()).collect();
    assert_eq!(seen, ["a", "b"]);
    let after_3: Vec<Comment> = db
        .query(Comment::partition("ddb")?)
        .sk_gt(Comment::sk().number(3u16))
        .collect()
        .await?;
    let seen: Vec<u16> = after_3.iter().map(|c| c.number).collect();
    assert_eq!(seen, [4, 12], "numbers sort as numbers: 00004 < 00012");

    // The index reuses `number` and `comment`: the update reads them back
    // out of `ISSUE#00012-a` to move the index key with `author`.
    let fields = Comment::fields();
    let moved = db
        .update(Comment::key("ddb", 12, "a")?)
        .set(fields.author, "erin".to_owned())
        .await?;
    assert_eq!(moved.author, "erin");
    let stored = stored_item(&db, &Comment::key("ddb", 12, "a")?).await;
    assert_eq!(
        stored["GSI1PK"].as_s().ok().map(String::as_str),
        Some("AUTHOR#erin")
    );
    assert_eq!(
        stored["GSI1SK"].as_s().ok().map(String::as_str),
        Some("C00012-a")
    );
    let by_erin: Vec<Comment> = db.query(Comment::gsi1_partition("erin")?).collect().await?;
    assert_eq!(by_erin.len(), 1, "read through the index, its key verified");

    for (score, round, player) in [(5, 1, "a"), (-5, 2, "b"), (-40, 1, "c"), (0, 3, "d")] {
        db.put(&Score {
            board: 1,
            score,
            round,
            player: player.into(),
        })
        .await?;
    }
    let ranked: Vec<Score> = db.query(Score::partition(1u8)?).collect().await?;
    let scores: Vec<i32> = ranked.iter().map(|s| s.score).collect();
    assert_eq!(scores, [-40, -5, 0, 5]);
    let above: Vec<Score> = db
        .query(Score::partition(1u8)?)
        .sk_gt(Score::sk().score(-5))
        .collect()
        .await?;
    assert_eq!(above.len(), 2);
    Ok(())
}
