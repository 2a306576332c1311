//! Access patterns: which types a partition and range hold, as the
//! report states them.

use std::time::Duration;

use ddb_entity::model::{AccessPattern, Model};
use ddb_entity::op::Query;
use ddb_entity::{Db, Primary};

use crate::model::{Address, Customer, CustomerOrder, CustomerView, Ticket, date};
use crate::support::App;

fn model() -> Model<App> {
    Model::<App>::new("app")
        .entity::<Customer>()
        .entity::<Address>()
        .entity::<CustomerOrder>()
        .entity::<Ticket>()
}

/// A customer's addresses and orders, without the profile.
#[derive(ddb_entity::Collection, Debug)]
pub struct AddressesAndOrders {
    pub addresses: Vec<Address>,
    pub orders: Vec<CustomerOrder>,
}

/// The query: a range from the addresses' key space to the orders'.
fn addresses_and_orders(db: &Db<App>) -> ddb_entity::Result<Query<'_, Primary<App>>> {
    Ok(db
        .query(Customer::partition(42)?)
        .sk_between(Address::sk(), CustomerOrder::sk()))
}

#[test]
fn a_range_bounded_by_two_types_reads_both_and_only_them() {
    let view = AccessPattern::query("Addresses and orders of a customer", addresses_and_orders)
        .returns::<AddressesAndOrders>()
        .expect_items(60)
        .latency(Duration::from_millis(25));
    let report = model().pattern(view).report();
    let row = &report.patterns[0];
    // PROFILE and TICKET# sort outside ADDR#…ORDER#.
    assert_eq!(row.reads, ["Address", "CustomerOrder"]);
    assert_eq!(row.returns, Some("AddressesAndOrders"));
    let table = report.access_patterns_markdown();
    assert!(
        table.contains(r#"| Addresses and orders of a customer | Query | table | 1 | `PK = CUST#{customer_id} AND SK BETWEEN "ADDR#" AND "ORDER#"…` | Address, CustomerOrder | AddressesAndOrders | ≤ 60 | 25 ms | ok |"#),
        "{table}"
    );
    // The whole customer view from that range would never hold its
    // customer: the model says so.
    let view =
        AccessPattern::query("A customer view", addresses_and_orders).returns::<CustomerView>();
    let report = model().pattern(view).report();
    let missing: Vec<String> = report.errors().map(|f| f.message.clone()).collect();
    assert_eq!(
        missing,
        [
            "returns `CustomerView`, whose type `customer` its partition and range never hold on the table"
        ]
    );
    assert!(!report.patterns[0].ok);
}

#[test]
fn a_whole_partition_reads_every_type_under_it() {
    let everything = AccessPattern::query("A customer's partition", |db| {
        Ok(db.query(Customer::partition(42)?).reverse(true).limit(10))
    });
    let report = model().pattern(everything).report();
    assert_eq!(
        report.patterns[0].reads,
        ["Customer", "Address", "CustomerOrder", "Ticket"]
    );
    assert!(
        report.patterns[0]
            .key_condition
            .ends_with("newest first, limit 10")
    );
}

#[test]
fn a_get_reads_the_one_type_whose_template_makes_its_key() {
    let order = AccessPattern::get("One order", |db| {
        Ok(db.get(CustomerOrder::key(42, date(2026, 3, 14), 9931)?))
    });
    let report = model().pattern(order).report();
    let row = &report.patterns[0];
    assert_eq!(row.reads, ["CustomerOrder"]);
    assert_eq!(
        row.key_condition,
        "PK = CUST#{customer_id} AND SK = ORDER#{placed}#{order_id}"
    );
}

#[test]
fn a_sparse_index_holds_only_its_entity() {
    let open = AccessPattern::query("Tickets opened on a day", |db| {
        Ok(db.query(Ticket::gsi2_partition(date(2026, 3, 14))?))
    })
    .returns::<Vec<Ticket>>();
    let report = model().pattern(open).report();
    assert_eq!(report.patterns[0].index, "GSI2");
    assert_eq!(report.patterns[0].reads, ["Ticket"]);
}
