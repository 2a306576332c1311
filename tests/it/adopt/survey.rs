//! The survey over the hand-written table: every item counted as the
//! entity it is, foreign items reported by key shape and never decoded,
//! items two members claim reported with both.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use aws_sdk_dynamodb::types::AttributeValue;
use ddb_entity::Entity;

use super::legacy::*;

fn s(value: &str) -> AttributeValue {
    AttributeValue::S(value.to_owned())
}

/// What other writers left in the table: keys in another case, another
/// delimiter, a padded line number, an offset timestamp; an order without
/// its total; an order whose GSI1 key is not the one its body makes.
fn foreign() -> Vec<ddb_entity::Item> {
    let mut lower = hand::user("carol@example.com", "Carol", "inactive");
    lower.insert("PK".into(), s("user#carol@example.com"));
    let mut piped = hand::user("dave@example.com", "Dave", "inactive");
    piped.insert("PK".into(), s("USER|dave@example.com"));
    let mut padded = hand::line("alice@example.com", "2026-03-01T09:00:00Z", "ORD-1", 3, "x");
    padded.insert("SK".into(), s("ORDER#2026-03-01T09:00:00Z#ORD-1#LINE#003"));
    let offset = hand::order(
        "bob@example.com",
        "2026-03-05T10:00:00+00:00",
        "ORD-8",
        "1",
        "open",
    );
    let mut no_total = hand::order(
        "bob@example.com",
        "2026-03-06T10:00:00Z",
        "ORD-9",
        "1",
        "open",
    );
    no_total.remove("order_total");
    let mut stale_index = hand::order(
        "bob@example.com",
        "2026-03-07T10:00:00Z",
        "ORD-10",
        "1",
        "open",
    );
    stale_index.insert("GSI1SK".into(), s("USER#someone-else@example.com"));
    vec![lower, piped, padded, offset, no_total, stale_index]
}

#[tokio::test]
async fn the_survey_counts_entities_and_reports_foreign_items_by_shape() {
    let (_dynamo, db) = legacy_table().await;
    put_raw(&db, hand::dataset()).await;
    put_raw(&db, foreign()).await;

    let pages = Arc::new(AtomicU64::new(0));
    let seen = Arc::clone(&pages);
    let report = db
        .survey::<Everything>()
        .segments(3)
        .concurrency(2)
        .page_size(2)
        .on_progress(move |progress| {
            assert_eq!(progress.segments, 3);
            seen.fetch_add(1, Ordering::Relaxed);
        })
        .await
        .unwrap();
    println!("{report}");

    assert_eq!(report.scanned, 15);
    assert!(!report.truncated);
    assert_eq!(
        report.matched,
        vec![
            ("User", 2),
            ("Order", 3),
            ("OrderLine", 2),
            ("OrderItem", 2)
        ]
    );
    assert!(
        pages.load(Ordering::Relaxed) >= 8,
        "a progress call per page"
    );

    let unmatched: Vec<(&str, u64)> = report
        .unmatched
        .iter()
        .map(|group| (group.shape.as_str(), group.count))
        .collect();
    assert_eq!(unmatched.len(), 4, "{report}");
    for shape in [
        "PK=user#{text} SK=PROFILE",
        "PK={text} SK=PROFILE",
        "PK=USER#{text} SK=ORDER#{text}#{text}#LINE#{number}",
        "PK=USER#{text} SK=ORDER#{text}#{text}",
    ] {
        assert!(unmatched.contains(&(shape, 1)), "{shape} in {report}");
    }
    let piped = report
        .unmatched
        .iter()
        .find(|group| group.shape == "PK={text} SK=PROFILE")
        .unwrap();
    assert_eq!(
        piped.samples,
        vec![(
            "USER|dave@example.com".to_owned(),
            Some("PROFILE".to_owned())
        )]
    );

    // Two orders match `Order`'s keys but are not orders as stored.
    let undecodable = &report.undecodable;
    assert_eq!(undecodable.len(), 1, "{report}");
    assert_eq!(undecodable[0].count, 2);
    assert_eq!(undecodable[0].entities, vec!["Order"]);
    assert!(report.ambiguous.is_empty());
    assert!(!report.is_clean());
    let text = report.to_string();
    assert!(text.contains("4 items match no entity"), "{text}");
    assert!(
        text.contains("2 items match one entity but do not decode"),
        "{text}"
    );
}

#[tokio::test]
async fn a_survey_reports_items_two_members_claim_and_can_stop_early() {
    #[derive(Entity, serde::Serialize, serde::Deserialize, Debug)]
    #[entity(table = Legacy, type = "LABEL", pk = "USER#{email}", sk = "{label}")]
    struct Label {
        email: String,
        label: String,
    }

    #[derive(ddb_entity::Collection)]
    #[allow(dead_code)] // counted by the survey, never read
    enum Overlapping {
        User(User),
        Label(Label),
    }

    let (_dynamo, db) = legacy_table().await;
    put_raw(&db, hand::dataset()).await;
    let report = db.survey::<Overlapping>().segments(1).await.unwrap();
    assert_eq!(report.ambiguous.len(), 1, "{report}");
    let group = &report.ambiguous[0];
    assert_eq!(group.shape, "PK=USER#{text} SK=PROFILE");
    assert_eq!(group.count, 2);
    assert_eq!(group.entities, vec!["User", "Label"]);
    assert_eq!(report.count("User"), 0, "never decoded as either");

    let report = db
        .survey::<Everything>()
        .segments(1)
        .page_size(2)
        .max_items(4)
        .await
        .unwrap();
    assert!(report.truncated);
    assert_eq!(report.scanned, 4);
}
