//! Query filters, counts, `first` and `one`: DynamoDB's semantics exposed
//! (a filter runs after the read, `limit` counts items read, the scanned
//! count is reported), and the request count of each.

use ddb_entity::op::Page;
use ddb_entity::{Db, Entity, ErrorKind, UnknownItems};
use futures_util::TryStreamExt;
use serde::{Deserialize, Serialize};

use crate::model::{Customer, CustomerOrder, CustomerView, date};
use crate::support::{App, logged_app_table};

/// Customer 42 with ten orders, totals 100, 200, …, 1000 (oldest first).
async fn seed(db: &Db<App>) {
    db.put(&Customer {
        customer_id: 42,
        name: "Ada".into(),
    })
    .await
    .unwrap();
    for i in 1..=10u32 {
        db.put(&CustomerOrder {
            customer_id: 42,
            order_id: u64::from(i),
            placed: date(2026, 3, i),
            total_cents: i64::from(i) * 100,
        })
        .await
        .unwrap();
    }
}

fn orders(db: &Db<App>) -> ddb_entity::op::Query<'_, ddb_entity::Primary<App>> {
    db.query(CustomerOrder::partition(42u64).unwrap())
        .sk_begins_with(CustomerOrder::sk())
}

fn ids(orders: &[CustomerOrder]) -> Vec<u64> {
    orders.iter().map(|o| o.order_id).collect()
}

#[tokio::test]
async fn a_filter_drops_items_after_the_read_and_limit_counts_what_matches() {
    let (_dynamo, db, log) = logged_app_table().await;
    seed(&db).await;
    let f = CustomerOrder::fields();
    log.clear();

    let big: Vec<CustomerOrder> = orders(&db)
        .filter(f.total_cents.ge(800))
        .all()
        .await
        .unwrap();
    assert_eq!(ids(&big), [8, 9, 10]);
    assert_eq!(log.operations(), ["Query"]);

    // `limit` counts the items that match (issue 24), not the items read,
    // and the cursor resumes right after the last item returned.
    let page: Page<Vec<CustomerOrder>> = orders(&db)
        .filter(f.total_cents.ge(400))
        .limit(4)
        .page()
        .await
        .unwrap();
    assert_eq!(ids(&page.items), [4, 5, 6, 7]);
    assert_eq!(page.scanned_count, 10, "one whole page read");
    let rest: Vec<CustomerOrder> = orders(&db)
        .filter(f.total_cents.ge(400))
        .after(page.cursor.expect("more to read"))
        .all()
        .await
        .unwrap();
    assert_eq!(ids(&rest), [8, 9, 10]);

    // A page of a size is filled, reading on past what the filter drops:
    // one page of the one match, four requests of three items.
    log.clear();
    let pages: Vec<Page<Vec<CustomerOrder>>> = orders(&db)
        .filter(f.total_cents.equals(900))
        .page_size(3)
        .pages()
        .try_collect()
        .await
        .unwrap();
    let per_page: Vec<(usize, usize)> = pages
        .iter()
        .map(|p| (p.items.len(), p.scanned_count))
        .collect();
    assert_eq!(per_page, [(1, 10)]);
    assert_eq!(log.count("Query"), 4);

    // Several filters all hold; conditions of every kind work.
    log.clear();
    let some: Vec<CustomerOrder> = orders(&db)
        .filter(f.total_cents.between(200, 700))
        // `order_id` is stored in the key only: its IN is on the total (id × 100).
        .filter(
            f.total_cents
                .is_in([200, 500, 900])
                .or(f.total_cents.equals(300)),
        )
        .all()
        .await
        .unwrap();
    assert_eq!(ids(&some), [2, 3, 5]);
    assert_eq!(log.count("Query"), 1);
}

#[tokio::test]
async fn a_filter_on_one_entity_type_leaves_the_others_of_a_collection_alone() {
    let (_dynamo, db, log) = logged_app_table().await;
    seed(&db).await;
    log.clear();
    let view: CustomerView = db
        .query(Customer::partition(42).unwrap())
        .filter(CustomerOrder::fields().total_cents.lt(300))
        .collect()
        .await
        .unwrap();
    assert_eq!(view.customer.unwrap().name, "Ada", "not an order: kept");
    assert_eq!(ids(&view.orders), [1, 2]);
    assert_eq!(log.operations(), ["Query"]);

    // Asked to, DynamoDB returns only the collection's types.
    let orders: Vec<CustomerOrder> = db
        .query(Customer::partition(42).unwrap())
        .on_unknown(UnknownItems::Filter)
        .all()
        .await
        .unwrap();
    assert_eq!(orders.len(), 10);
}

/// Reads the same items as `CustomerOrder`, naming a key attribute as a
/// field (an entity can be declared over what others wrote).
#[derive(Entity, Serialize, Deserialize, Debug)]
#[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{placed}#{order_id}")]
struct OrderByIndex {
    customer_id: u64,
    order_id: u64,
    placed: chrono::NaiveDate,
    #[serde(rename = "GSI1PK")]
    index_key: Option<String>,
}

#[tokio::test]
async fn a_filter_on_a_key_attribute_or_a_value_dynamodb_cannot_hold_is_refused_before_sending() {
    let (_dynamo, db, log) = logged_app_table().await;
    let err = db
        .query(CustomerOrder::partition(42u64).unwrap())
        .filter(
            OrderByIndex::fields()
                .index_key
                .equals(Some("ORDER#1".into())),
        )
        .all::<CustomerOrder>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidExpression, "{err:?}");
    assert!(
        err.to_string().contains("`GSI1PK`, a key attribute"),
        "{err}"
    );
    // The same on the index whose key it is.
    let err = db
        .query(CustomerOrder::gsi1_partition(1u64).unwrap())
        .filter(OrderByIndex::fields().index_key.exists())
        .count()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidExpression, "{err:?}");
    let err = db
        .query(CustomerOrder::partition(42u64).unwrap())
        .filter(CustomerOrder::fields().total_cents.is_in([]))
        .first::<CustomerOrder>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidExpression, "{err:?}");
    assert!(log.operations().is_empty(), "{:?}", log.operations());
}

#[derive(Entity, Serialize, Deserialize, Debug)]
#[entity(table = App, pk = "SENSOR#{id}", sk = "READING#{at}")]
struct Reading {
    id: u32,
    at: u32,
    celsius: f64,
}

#[tokio::test]
async fn a_filter_value_dynamodb_cannot_store_is_refused_before_sending() {
    let (_dynamo, db, log) = logged_app_table().await;
    let err = db
        .query(Reading::partition(1u32).unwrap())
        .filter(Reading::fields().celsius.gt(f64::NAN))
        .all::<Reading>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidNumber, "{err:?}");
    assert!(log.operations().is_empty());
}

#[tokio::test]
async fn count_returns_the_number_across_pages_within_the_limit() {
    let (_dynamo, db, log) = logged_app_table().await;
    seed(&db).await;
    let f = CustomerOrder::fields();
    log.clear();
    assert_eq!(orders(&db).count().await.unwrap(), 10);
    assert_eq!(log.operations(), ["Query"]);

    log.clear();
    assert_eq!(orders(&db).page_size(3).count().await.unwrap(), 10);
    assert_eq!(log.count("Query"), 4, "across pages");

    log.clear();
    assert_eq!(orders(&db).limit(4).count().await.unwrap(), 4);
    assert_eq!(log.count("Query"), 1);
    // With a filter, the limit counts items that match (as `all()`): 8
    // match, the limit is 4.
    assert_eq!(
        orders(&db)
            .filter(f.total_cents.ge(300))
            .limit(4)
            .count()
            .await
            .unwrap(),
        4
    );
    assert_eq!(
        orders(&db)
            .filter(f.total_cents.ge(300))
            .count()
            .await
            .unwrap(),
        8
    );
    // The whole partition: the customer too.
    assert_eq!(
        db.query(Customer::partition(42).unwrap())
            .count()
            .await
            .unwrap(),
        11
    );
}

#[tokio::test]
async fn first_reads_one_item_or_the_pages_up_to_the_first_match() {
    let (_dynamo, db, log) = logged_app_table().await;
    seed(&db).await;
    let f = CustomerOrder::fields();
    log.clear();

    let first: Option<CustomerOrder> = orders(&db).first().await.unwrap();
    assert_eq!(first.map(|o| o.order_id), Some(1));
    assert_eq!(log.operations(), ["Query"], "Limit=1: one request");
    let last: Option<CustomerOrder> = orders(&db).reverse(true).first().await.unwrap();
    assert_eq!(last.map(|o| o.order_id), Some(10));

    // The first match is on the third page: every page up to it is read,
    // none after.
    log.clear();
    let first: Option<CustomerOrder> = orders(&db)
        .filter(f.total_cents.ge(700))
        .page_size(3)
        .first()
        .await
        .unwrap();
    assert_eq!(first.map(|o| o.order_id), Some(7));
    assert_eq!(log.count("Query"), 3);

    // No match at all.
    let none: Option<CustomerOrder> = orders(&db)
        .filter(f.total_cents.gt(5_000))
        .first()
        .await
        .unwrap();
    assert!(none.is_none());

    // `ORDER#…` sorts before `PROFILE`: newest first, the profile comes
    // first.
    let profile: Option<Customer> = db
        .query(Customer::partition(42).unwrap())
        .reverse(true)
        .first()
        .await
        .unwrap();
    assert_eq!(profile.map(|c| c.name).as_deref(), Some("Ada"));
}

#[tokio::test]
async fn one_finds_the_unique_item_and_refuses_a_second_match_even_pages_later() {
    let (_dynamo, db, log) = logged_app_table().await;
    seed(&db).await;
    let f = CustomerOrder::fields();
    log.clear();

    // A unique lookup on an index: order 7 by id.
    let order: Option<CustomerOrder> = db
        .query(CustomerOrder::gsi1_partition(7u64).unwrap())
        .one()
        .await
        .unwrap();
    assert_eq!(order.map(|o| o.total_cents), Some(700));
    assert_eq!(log.operations(), ["Query"]);
    let none: Option<CustomerOrder> = db
        .query(CustomerOrder::gsi1_partition(77u64).unwrap())
        .one()
        .await
        .unwrap();
    assert!(none.is_none());

    // Two matches, pages apart: the second is found, and it is an error.
    log.clear();
    let err = orders(&db)
        .filter(f.total_cents.is_in([200, 900]))
        .page_size(3)
        .one::<CustomerOrder>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::MoreThanOne, "{err:?}");
    assert!(err.to_string().contains("not unique"), "{err}");
    assert_eq!(log.count("Query"), 3, "read until the second match");

    // Two orders share an id on the index: not unique.
    db.put(&CustomerOrder {
        customer_id: 43,
        order_id: 7,
        placed: date(2026, 4, 1),
        total_cents: 1,
    })
    .await
    .unwrap();
    let err = db
        .query(CustomerOrder::gsi1_partition(7u64).unwrap())
        .one::<CustomerOrder>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::MoreThanOne);
}
