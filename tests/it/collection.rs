//! `#[derive(Collection)]` without a server: items built with
//! `Entity::to_item`, pushed the way a Query pushes them (by their type
//! attribute, in sort-key order), and the demultiplexed result checked.

use aws_sdk_dynamodb::types::AttributeValue;
use ddb_entity::{Collection, CollectionItem, Entity, ErrorKind, Item, Table};

use crate::model::*;
use crate::support::App;

/// The type attribute of `item`, as a Query reads it before routing.
fn entity_type(item: &Item) -> String {
    let attribute = App::SCHEMA.type_attribute;
    item[attribute]
        .as_s()
        .expect("a string type attribute")
        .clone()
}

/// Pushes `item` into `collection` by its own type attribute.
fn push<C: Collection>(collection: &mut C, item: Item) -> ddb_entity::Result<bool> {
    let entity_type = entity_type(&item);
    collection.push_item(&entity_type, item)
}

fn customer() -> Customer {
    Customer {
        customer_id: 42,
        name: "Ada".into(),
    }
}

fn address(seq: u16, city: &str) -> Address {
    Address {
        customer_id: 42,
        seq,
        city: city.into(),
    }
}

fn order(order_id: u64, day: u32) -> CustomerOrder {
    CustomerOrder {
        customer_id: 42,
        order_id,
        placed: date(2026, 3, day),
        total_cents: 100 * order_id as i64,
    }
}

fn ticket(ticket_id: u32) -> Ticket {
    Ticket {
        customer_id: 42,
        ticket_id,
        subject: "late".into(),
        open_since: Some(date(2026, 3, 20)),
    }
}

/// The partition `CUST#42` as a Query returns it: sorted by sort key
/// (`ADDR#…` < `ORDER#…` < `PROFILE` < `TICKET#…`).
fn partition() -> Vec<Item> {
    let items = vec![
        address(1, "Lyon").to_item().unwrap(),
        address(2, "Oslo").to_item().unwrap(),
        order(7, 1).to_item().unwrap(),
        order(3, 14).to_item().unwrap(),
        order(9, 30).to_item().unwrap(),
        customer().to_item().unwrap(),
        ticket(5).to_item().unwrap(),
    ];
    let sort_key = |item: &Item| item["SK"].as_s().unwrap().clone();
    assert!(
        items.windows(2).all(|w| sort_key(&w[0]) < sort_key(&w[1])),
        "the fixture is in sort-key order"
    );
    items
}

#[test]
fn the_struct_declares_its_table_name_and_types() {
    fn table_of<C: Collection<Table = App>>() {}
    table_of::<CustomerView>();
    assert_eq!(<CustomerView as Collection>::NAME, "CustomerView");
    assert_eq!(
        <CustomerView as Collection>::TYPES,
        [
            Customer::TYPE_TAG,
            Address::TYPE_TAG,
            CustomerOrder::TYPE_TAG
        ]
    );
    assert_eq!(
        <CustomerView as Collection>::TYPES,
        ["customer", "address", "customer_order"]
    );
}

#[test]
fn default_is_empty() {
    assert_eq!(
        CustomerView::default(),
        CustomerView {
            customer: None,
            addresses: vec![],
            orders: vec![],
        }
    );
}

#[test]
fn a_partition_is_demultiplexed_into_the_struct() {
    let mut view = CustomerView::default();
    let pushed: Vec<bool> = partition()
        .into_iter()
        .map(|item| push(&mut view, item).unwrap())
        .collect();
    // The ticket is not part of the view: left to the query's policy.
    assert_eq!(pushed, [true, true, true, true, true, true, false]);
    assert_eq!(
        view,
        CustomerView {
            customer: Some(customer()),
            addresses: vec![address(1, "Lyon"), address(2, "Oslo")],
            orders: vec![order(7, 1), order(3, 14), order(9, 30)],
        }
    );
}

#[test]
fn vec_fields_keep_the_arrival_order() {
    // A reversed ("newest first") Query delivers the orders backwards; the
    // collection keeps them as they come and never re-sorts.
    let mut view = CustomerView::default();
    for item in partition().into_iter().rev() {
        push(&mut view, item).unwrap();
    }
    assert_eq!(view.orders, [order(9, 30), order(3, 14), order(7, 1)]);
    assert_eq!(view.addresses, [address(2, "Oslo"), address(1, "Lyon")]);
    assert_eq!(view.customer, Some(customer()));
}

#[test]
fn a_second_item_for_an_option_field_is_more_than_one() {
    let mut view = CustomerView::default();
    assert!(push(&mut view, customer().to_item().unwrap()).unwrap());
    let other = Customer {
        customer_id: 42,
        name: "Grace".into(),
    };
    let err = push(&mut view, other.to_item().unwrap()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::MoreThanOne, "{err:?}");
    assert_eq!(err.entity(), Some("Customer"));
    assert_eq!(
        err.to_string(),
        "`CustomerView` holds one `Customer` but the query returned more than one: make the field a Vec<Customer>"
    );
    // The first one stays.
    assert_eq!(view.customer, Some(customer()));
}

#[test]
fn an_unknown_type_is_declined_and_changes_nothing() {
    let mut view = CustomerView::default();
    push(&mut view, order(1, 1).to_item().unwrap()).unwrap();
    let before = view.clone();
    assert!(!push(&mut view, ticket(5).to_item().unwrap()).unwrap());
    assert!(
        !view
            .push_item("NOT_A_TYPE", customer().to_item().unwrap())
            .unwrap()
    );
    assert_eq!(view, before);
}

#[test]
fn an_item_is_never_decoded_as_another_type() {
    // Routed as a profile, but the item itself says it is an order: the
    // entity's own type check refuses it.
    let mut view = CustomerView::default();
    let err = view
        .push_item("customer", order(1, 1).to_item().unwrap())
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::WrongType, "{err:?}");
    assert_eq!(
        err.to_string(),
        r#"the item is not a `Customer`: its type attribute is "customer_order", expected "customer""#
    );
    assert_eq!(view, CustomerView::default());
}

#[test]
fn an_item_missing_a_field_is_a_decode_error_naming_the_entity() {
    let mut item = address(1, "Lyon").to_item().unwrap();
    item.remove("city");
    let mut view = CustomerView::default();
    let err = push(&mut view, item).unwrap_err();
    assert!(
        err.kind() == ErrorKind::Decode && err.entity() == Some("Address"),
        "{err:?}"
    );
    assert!(err.to_string().contains("`Address`"), "{err}");
    assert!(view.addresses.is_empty());

    // A wrongly typed attribute too.
    let mut item = customer().to_item().unwrap();
    item.insert("name".into(), AttributeValue::N("1".into()));
    let err = push(&mut view, item).unwrap_err();
    assert!(
        err.kind() == ErrorKind::Decode && err.entity() == Some("Customer"),
        "{err:?}"
    );
    assert_eq!(view.customer, None);
}

#[test]
fn the_enum_decodes_each_of_its_types() {
    fn table_of<C: CollectionItem<Table = App>>() {}
    table_of::<CustomerItem>();
    assert_eq!(<CustomerItem as CollectionItem>::NAME, "CustomerItem");
    assert_eq!(
        <CustomerItem as CollectionItem>::TYPES,
        ["customer", "customer_order", "ticket"]
    );

    let decode = |item: Item| CustomerItem::from_typed_item(&entity_type(&item), item);
    assert_eq!(
        decode(customer().to_item().unwrap()).unwrap(),
        Some(CustomerItem::Customer(customer()))
    );
    assert_eq!(
        decode(order(3, 14).to_item().unwrap()).unwrap(),
        Some(CustomerItem::Order(order(3, 14)))
    );
    assert_eq!(
        decode(ticket(5).to_item().unwrap()).unwrap(),
        Some(CustomerItem::Ticket(ticket(5)))
    );
    assert_eq!(decode(address(1, "Lyon").to_item().unwrap()).unwrap(), None);
    let err = CustomerItem::from_typed_item("ticket", customer().to_item().unwrap()).unwrap_err();
    assert!(
        err.kind() == ErrorKind::WrongType && err.entity() == Some("Ticket"),
        "{err:?}"
    );
}

#[test]
fn a_vec_of_the_enum_is_a_collection_in_arrival_order() {
    fn table_of<C: Collection<Table = App>>() {}
    table_of::<Vec<CustomerItem>>();
    assert_eq!(<Vec<CustomerItem> as Collection>::NAME, "CustomerItem");
    assert_eq!(
        <Vec<CustomerItem> as Collection>::TYPES,
        ["customer", "customer_order", "ticket"]
    );

    let mut items: Vec<CustomerItem> = Vec::default();
    let pushed: Vec<bool> = partition()
        .into_iter()
        .map(|item| push(&mut items, item).unwrap())
        .collect();
    // The addresses are not part of the enum.
    assert_eq!(pushed, [false, false, true, true, true, true, true]);
    assert_eq!(
        items,
        [
            CustomerItem::Order(order(7, 1)),
            CustomerItem::Order(order(3, 14)),
            CustomerItem::Order(order(9, 30)),
            CustomerItem::Customer(customer()),
            CustomerItem::Ticket(ticket(5)),
        ]
    );
}
