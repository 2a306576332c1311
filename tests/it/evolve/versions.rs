//! Schema versions: three shapes of an order in one table, read through
//! the upcast chain, written at the newest, rewritten eagerly by a
//! backfill; an update never mixes shapes.

use ddb_entity::local::LocalDynamo;
use ddb_entity::{Db, Entity, ErrorKind};
use serde::{Deserialize, Serialize};

use super::backfill::raw_items;

ddb_entity::table! {
    /// The shop's table.
    pub struct Shop { partition_key: "PK", sort_key: "SK" }
}

/// Version 1, before versions were declared: a total in float dollars.
mod v1 {
    use super::*;

    #[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
    #[entity(table = Shop, pk = "ORDER#{id}", sk = "ORDER")]
    pub struct Order {
        pub id: u32,
        pub total: f64,
        pub customer: String,
    }
}

/// Version 2: cents, and the customer's name split off into a contact.
mod v2 {
    use super::*;

    #[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
    #[entity(table = Shop, pk = "ORDER#{id}", sk = "ORDER", schema_version = 2, upcast = [v1::Order])]
    pub struct Order {
        pub id: u32,
        pub total_cents: i64,
        pub contact: String,
    }

    impl From<v1::Order> for Order {
        fn from(old: v1::Order) -> Self {
            Order {
                id: old.id,
                total_cents: (old.total * 100.0).round() as i64,
                contact: old.customer,
            }
        }
    }
}

/// Version 3, today's: a currency, and the contact as a list of lines.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(
    table = Shop,
    pk = "ORDER#{id}",
    sk = "ORDER",
    schema_version = 3,
    upcast = [v1::Order, v2::Order]
)]
pub struct Order {
    pub id: u32,
    pub total_cents: i64,
    pub currency: String,
    pub contact_lines: Vec<String>,
}

impl From<v2::Order> for Order {
    fn from(old: v2::Order) -> Self {
        Order {
            id: old.id,
            total_cents: old.total_cents,
            currency: "EUR".to_owned(),
            contact_lines: vec![old.contact],
        }
    }
}

/// Today's order reading only versions 2 and 3.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = Shop, type = "order", pk = "ORDER#{id}", sk = "ORDER", schema_version = 3, upcast = [_, v2::Order])]
pub struct ShortChainOrder {
    pub id: u32,
    pub total_cents: i64,
    pub currency: String,
    pub contact_lines: Vec<String>,
}

impl From<v2::Order> for ShortChainOrder {
    fn from(old: v2::Order) -> Self {
        let Order {
            id,
            total_cents,
            currency,
            contact_lines,
        } = Order::from(old);
        ShortChainOrder {
            id,
            total_cents,
            currency,
            contact_lines,
        }
    }
}

fn expected(id: u32, cents: i64, contact: &str) -> Order {
    Order {
        id,
        total_cents: cents,
        currency: "EUR".to_owned(),
        contact_lines: vec![contact.to_owned()],
    }
}

async fn shop() -> (LocalDynamo, Db<Shop>) {
    let dynamo = LocalDynamo::start().await.expect("local DynamoDB starts");
    let db = Db::<Shop>::new(dynamo.client(), dynamo.unique_table_name("versions"));
    db.create_table_if_missing().await.unwrap();
    (dynamo, db)
}

#[tokio::test]
async fn three_versions_read_through_the_upcast_chain_and_write_the_newest() {
    let (_dynamo, db) = shop().await;
    db.put(&v1::Order {
        id: 1,
        total: 12.5,
        customer: "Ada".into(),
    })
    .await
    .unwrap();
    db.put(&v2::Order {
        id: 2,
        total_cents: 990,
        contact: "Grace".into(),
    })
    .await
    .unwrap();
    let today = expected(3, 100, "Linus");
    db.put(&today).await.unwrap();

    // Version 1 items carry no version; version 2 and 3 items carry theirs.
    let items = raw_items(db.client(), db.table_name()).await;
    let version = |id: u32| {
        let key = Order::key(id).unwrap();
        items[&(key.partition().to_owned(), key.sort().to_owned())]
            .get("_sv")
            .map(|v| v.as_n().unwrap().clone())
    };
    assert_eq!(
        [version(1), version(2), version(3)],
        [None, Some("2".into()), Some("3".into())]
    );

    // Every read path upcasts: get, scan.
    assert_eq!(
        db.get(Order::key(1).unwrap()).await.unwrap(),
        Some(expected(1, 1250, "Ada"))
    );
    assert_eq!(
        db.get(Order::key(2).unwrap()).await.unwrap(),
        Some(expected(2, 990, "Grace"))
    );
    assert_eq!(
        db.get(Order::key(3).unwrap()).await.unwrap(),
        Some(today.clone())
    );
    let mut all: Vec<Order> = db.scan().all().await.unwrap();
    all.sort_by_key(|o| o.id);
    assert_eq!(
        all,
        [
            expected(1, 1250, "Ada"),
            expected(2, 990, "Grace"),
            today.clone()
        ]
    );

    // An older build cannot read a newer item, and says why.
    let err = db.get(v2::Order::key(3).unwrap()).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Decode);
    assert!(err.to_string().contains("newer than this build"), "{err}");
    // A chain that stops short names the version it cannot read.
    let err = db.get(ShortChainOrder::key(1).unwrap()).await.unwrap_err();
    assert!(err.to_string().contains("schema version 1"), "{err}");
    assert_eq!(
        db.get(ShortChainOrder::key(2).unwrap())
            .await
            .unwrap()
            .map(|o| o.total_cents),
        Some(990)
    );

    // An update of an old item would mix shapes: refused, and explained.
    let err = db
        .update(Order::key(1).unwrap())
        .set(Order::fields().currency, "USD".to_owned())
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::StaleSchema);
    assert!(err.to_string().contains("schema version 1"), "{err}");
    // An update of a current one goes through.
    let updated = db
        .update(Order::key(3).unwrap())
        .set(Order::fields().currency, "USD".to_owned())
        .await
        .unwrap();
    assert_eq!(updated.currency, "USD");
    // Read, then put: stored at the newest version.
    let old = db.get(Order::key(2).unwrap()).await.unwrap().unwrap();
    db.put(&old).await.unwrap();
    let items = raw_items(db.client(), db.table_name()).await;
    let key = Order::key(2).unwrap();
    let item = &items[&(key.partition().to_owned(), key.sort().to_owned())];
    assert_eq!(item["_sv"].as_n().unwrap(), "3");
    assert!(
        !item.contains_key("contact"),
        "the old shape's attribute is gone"
    );
}

#[tokio::test]
async fn a_backfill_rewrites_old_versions_eagerly() {
    let (_dynamo, db) = shop().await;
    let mut batch = db.batch_write();
    for id in 0..300u32 {
        batch = match id % 3 {
            0 => batch.put(&v1::Order {
                id,
                total: f64::from(id) / 4.0,
                customer: format!("c{id}"),
            }),
            1 => batch.put(&v2::Order {
                id,
                total_cents: i64::from(id) * 25,
                contact: format!("c{id}"),
            }),
            _ => batch.put(&expected(id, i64::from(id) * 25, &format!("c{id}"))),
        };
    }
    batch.await.unwrap();
    let totals = db.backfill::<Order>().segments(2).await.unwrap();
    assert_eq!((totals.updated, totals.skipped), (200, 100));
    let items = raw_items(db.client(), db.table_name()).await;
    assert_eq!(items.len(), 300);
    for item in items.values() {
        assert_eq!(item["_sv"].as_n().unwrap(), "3");
        assert!(
            !item.contains_key("total")
                && !item.contains_key("contact")
                && !item.contains_key("customer")
        );
        let order = Order::from_item(item.clone()).unwrap();
        assert_eq!(
            order,
            expected(
                order.id,
                i64::from(order.id) * 25,
                &format!("c{}", order.id)
            )
        );
    }
    // Now every item takes updates.
    db.update(Order::key(0).unwrap())
        .set(Order::fields().currency, "USD".to_owned())
        .await
        .unwrap();
}
