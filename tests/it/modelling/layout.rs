//! Key-layout snapshots: committed, and failing review when an encoder, a
//! template or a width changes.

use chrono::{TimeZone, Utc};
use ddb_entity::model::Model;
use expect_test::{ExpectFile, expect_file};

use super::shop::{self, Order, OrderItem, User, UserStatus};
use crate::support::App;

/// Seed 003's layout: padding (the timestamp's fixed width), escaping
/// (`$`, a space, a `#`), and an absent sparse index key.
fn seed_003_layout() -> String {
    let placed_at = Utc.with_ymd_and_hms(2026, 3, 14, 9, 31, 0).unwrap();
    shop::model()
        .key_layout()
        .sample(&User {
            email: "alice@example.com".into(),
            name: "Alice".into(),
            status: UserStatus::Active,
        })
        .sample(&User {
            email: "bob$@example.com".into(),
            name: "Bob".into(),
            status: UserStatus::Closed,
        })
        .sample(&Order {
            email: "alice@example.com".into(),
            order_id: "ORD-12345".into(),
            placed_at,
            total_cents: 12999,
            status: "shipped".into(),
        })
        .sample(&OrderItem {
            order_id: "ORD-12345".into(),
            sku: "SKU 42#blue".into(),
            quantity: 2,
        })
        .render()
        .unwrap()
}

#[test]
fn seed_003_key_layout() {
    expect_file!["golden/app_data.keys.txt"].assert_eq(&seed_003_layout());
}

/// The same entity, before and after someone widened `seq`.
mod before {
    use ddb_entity::Entity;
    use serde::{Deserialize, Serialize};

    #[derive(Entity, Serialize, Deserialize)]
    #[entity(table = crate::support::App, pk = "CUST#{customer_id}", sk = "ADDR#{seq:3}")]
    pub struct Address {
        pub customer_id: u64,
        pub seq: u16,
    }
}

mod after {
    use ddb_entity::Entity;
    use serde::{Deserialize, Serialize};

    #[derive(Entity, Serialize, Deserialize)]
    #[entity(table = crate::support::App, pk = "CUST#{customer_id}", sk = "ADDR#{seq:4}")]
    pub struct Address {
        pub customer_id: u64,
        pub seq: u16,
    }
}

/// Another template for the same items: the customer id moved.
mod moved {
    use ddb_entity::Entity;
    use serde::{Deserialize, Serialize};

    #[derive(Entity, Serialize, Deserialize)]
    #[entity(table = crate::support::App, pk = "CUSTOMER#{customer_id}", sk = "ADDR#{seq:3}")]
    pub struct Address {
        pub customer_id: u64,
        pub seq: u16,
    }
}

/// Whether `layout` matches the committed snapshot (expect-test prints
/// its diff, which is what a reviewer sees, and panics), and the lines of
/// `layout` the snapshot does not have.
fn compare(snapshot: ExpectFile, layout: &str) -> (bool, Vec<String>) {
    let committed = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/modelling/golden/address.keys.txt"
    ))
    .unwrap();
    let new: Vec<String> = layout
        .lines()
        .filter(|line| !committed.lines().any(|old| old == *line))
        .map(str::to_owned)
        .collect();
    let layout = layout.to_owned();
    let matches = std::panic::catch_unwind(move || snapshot.assert_eq(&layout)).is_ok();
    (matches, new)
}

#[test]
fn a_changed_width_or_template_fails_the_snapshot() {
    let before = Model::<App>::new("app")
        .entity::<before::Address>()
        .key_layout()
        .sample(&before::Address {
            customer_id: 42,
            seq: 7,
        })
        .render()
        .unwrap();
    expect_file!["golden/address.keys.txt"].assert_eq(&before);

    let after = Model::<App>::new("app")
        .entity::<after::Address>()
        .key_layout()
        .sample(&after::Address {
            customer_id: 42,
            seq: 7,
        })
        .render()
        .unwrap();
    assert!(before.contains(r#"SK = "ADDR#007""#));
    assert!(after.contains(r#"SK = "ADDR#0007""#));
    if std::env::var_os("UPDATE_EXPECT").is_none() {
        let (matches, new) = compare(expect_file!["golden/address.keys.txt"], &after);
        assert!(!matches, "a wider width fails the snapshot");
        // "These stored items would no longer be found":
        assert_eq!(
            new,
            [
                "         SK = ADDR#{seq:4}  (seq: 4 chars)",
                r#"    table: PK = "CUST#42"  SK = "ADDR#0007""#,
            ]
        );

        let moved = Model::<App>::new("app")
            .entity::<moved::Address>()
            .key_layout()
            .sample(&moved::Address {
                customer_id: 42,
                seq: 7,
            })
            .render()
            .unwrap();
        let (matches, new) = compare(expect_file!["golden/address.keys.txt"], &moved);
        assert!(!matches, "another template fails the snapshot");
        assert!(new.iter().any(|line| line.contains("CUSTOMER#")), "{new:?}");
    }
}

#[test]
fn every_entity_needs_a_sample() {
    let err = shop::model()
        .key_layout()
        .sample(&OrderItem {
            order_id: "ORD-1".into(),
            sku: "SKU-1".into(),
            quantity: 1,
        })
        .render()
        .unwrap_err();
    assert_eq!(err.kind(), ddb_entity::ErrorKind::InvalidSchema);
    assert!(
        err.to_string().contains("no sample of User, Order"),
        "{err}"
    );
}
