// tests/shop.rs
use chrono::NaiveDate;
use ddb_entity::Entity;
use ddb_entity::local::LocalDynamo;
use shop::*;

#[tokio::test]
async fn the_customer_page() -> Result<(), Box<dyn std::error::Error>> {
    // An embedded DynamoDB on a loopback port, gone when `dynamo` drops.
    let dynamo = LocalDynamo::start().await?;
    let db = shop(dynamo.client(), "shop", [7; 32]);
    db.create_table_if_missing().await?;

    let ada = Customer {
        customer_id: 42,
        name: "Ada".into(),
        version: 0,
    };
    db.create(&ada).await?;
    let day = |d| NaiveDate::from_ymd_opt(2026, 3, d).unwrap();
    for (order_id, placed) in [(1, day(1)), (2, day(2)), (3, day(3))] {
        place(
            &db,
            &Order {
                customer_id: 42,
                order_id,
                placed,
                total_cents: 1299,
            },
        )
        .await?;
    }

    // What is stored: the keys and the type as a whiteboard design
    // writes them, and the other fields as serde writes them.
    let item = Order {
        customer_id: 42,
        order_id: 9931,
        placed: NaiveDate::from_ymd_opt(2026, 3, 14).unwrap(),
        total_cents: 12999,
    }
    .to_item()?;
    let text = |name: &str| item[name].as_s().unwrap().as_str();
    assert_eq!(
        (text("PK"), text("SK")),
        ("CUST#42", "ORDER#2026-03-14#0000009931")
    );
    // An index's sort key is a sort key: its number is padded to sort.
    assert_eq!(text("GSI1PK"), "ORDER#9931");
    assert_eq!(text("GSI1SK"), "CUST#00000000000000000042");
    assert_eq!(text("type"), "order");
    assert_eq!(item["total_cents"].as_n().unwrap(), "12999");
    let mut names: Vec<&str> = item.keys().map(String::as_str).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        ["GSI1PK", "GSI1SK", "PK", "SK", "total_cents", "type"]
    );

    // A composite view: the profile and every order, one request.
    let page = customer_page(&db, 42).await?;
    assert_eq!(page.customer.as_ref().map(|c| c.name.as_str()), Some("Ada"));
    assert_eq!(page.orders.len(), 3);

    // Paging: the cursor is opaque to the client and tied to this listing.
    let (first, next) = orders(&db, 42, None).await?;
    assert_eq!(first.iter().map(|o| o.order_id).collect::<Vec<_>>(), [3, 2]);
    let (rest, last) = orders(&db, 42, next.as_deref()).await?;
    assert_eq!((rest[0].order_id, last), (1, None));
    let forged = orders(&db, 42, Some("s1.AAAA")).await.unwrap_err();
    assert_eq!(forged.kind(), ddb_entity::ErrorKind::InvalidCursor);

    // An update over the version read; a second one over the same is a conflict.
    let renamed = rename(&db, 42, 1, "Ada L.").await?;
    assert_eq!(renamed.version, 2);
    assert!(
        rename(&db, 42, 1, "Ada B.")
            .await
            .unwrap_err()
            .is_version_conflict()
    );

    // A transaction: no order for a customer who does not exist.
    let orphan = Order {
        customer_id: 7,
        order_id: 9,
        placed: day(4),
        total_cents: 1,
    };
    assert!(
        place(&db, &orphan)
            .await
            .unwrap_err()
            .is_transaction_canceled()
    );
    Ok(())
}
