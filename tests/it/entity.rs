//! `#[derive(Entity)]`: exact keys and items for the seed models, and
//! entities written through the SDK and read back.

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{TimeZone, Utc};
use ddb_entity::key::{KeyError, StrPrefix, Year, YearMonth};
use ddb_entity::{Entity, Index, Partition, Primary, SortKey};

use crate::model::*;
use crate::support::{App, Gsi1, Gsi2, app_table};

fn s(item: &ddb_entity::Item, name: &str) -> Option<String> {
    item.get(name).and_then(|v| v.as_s().ok()).cloned()
}

fn order() -> CustomerOrder {
    CustomerOrder {
        customer_id: 42,
        order_id: 9931,
        placed: date(2026, 3, 14),
        total_cents: 12_999,
    }
}

#[test]
fn types_are_the_struct_names_in_snake_case() {
    // Not the sort keys' literals: `User` and `Customer` both write
    // `PROFILE`, seed 003's `Order` and seed 000's `CustomerOrder` both
    // `ORDER#…`, and each is its own type.
    assert_eq!(
        TYPES,
        [
            "user",
            "order",
            "order_item",
            "customer",
            "address",
            "customer_order",
            "ticket"
        ]
    );
}

#[test]
fn keys_follow_the_templates_exactly() {
    let key = CustomerOrder::key(42, date(2026, 3, 14), 9931).unwrap();
    assert_eq!(key.partition(), "CUST#42");
    assert_eq!(key.sort(), "ORDER#2026-03-14#00000000000000009931");
    assert_eq!(order().primary_key().unwrap(), key);

    let address = Address::key(42, 1).unwrap();
    assert_eq!(address.sort(), "ADDR#001");

    let user = User::key("ada@example.com").unwrap();
    assert_eq!(user.partition(), "USER#ada@example.com");
    assert_eq!(user.sort(), "PROFILE");

    assert_eq!(
        Customer::partition(42).unwrap(),
        CustomerOrder::partition(42).unwrap(),
        "entities of one collection share the partition"
    );
}

#[test]
fn a_string_hole_cannot_forge_a_delimiter() {
    let key = User::key("evil#PROFILE").unwrap();
    assert_eq!(key.partition(), "USER#evil$cPROFILE");
    assert_ne!(key.partition(), User::key("evil").unwrap().partition());
}

#[test]
fn sort_key_builders_cut_only_from_the_left() {
    let all: SortKey<Primary<App>> = CustomerOrder::sk().into();
    assert_eq!(all.value().unwrap(), "ORDER#");
    assert!(!all.is_whole());

    let day: SortKey<Primary<App>> = CustomerOrder::sk().placed(date(2026, 3, 14)).into();
    assert_eq!(day.value().unwrap(), "ORDER#2026-03-14#");

    let month = CustomerOrder::sk().placed_prefix(YearMonth(2026, 3));
    assert_eq!(month.value().unwrap(), "ORDER#2026-03");
    let year = CustomerOrder::sk().placed_prefix(Year(2026));
    assert_eq!(year.value().unwrap(), "ORDER#2026");

    let whole = CustomerOrder::sk().placed(date(2026, 3, 14)).order_id(9931);
    assert!(whole.is_whole());
    assert_eq!(
        whole.value().unwrap(),
        order().primary_key().unwrap().sort()
    );

    // The upper bound of a month includes its last order of the last day.
    let last_of_month = CustomerOrder::key(42, date(2026, 3, 31), u64::MAX).unwrap();
    assert!(last_of_month.sort() <= month.upper_bound().unwrap().as_str());
    let next_month = CustomerOrder::key(42, date(2026, 4, 1), 0).unwrap();
    assert!(next_month.sort() > month.upper_bound().unwrap().as_str());

    // A string hole cut inside the component.
    let items = OrderItem::sk().sku_prefix(StrPrefix("SKU-1"));
    assert_eq!(items.value().unwrap(), "ITEM#SKU-1");
}

#[test]
fn index_builders_are_typed_by_index() {
    let by_id: Partition<Gsi1> = CustomerOrder::gsi1_partition(9931).unwrap();
    assert_eq!(by_id.as_str(), "ORDER#9931");
    let sk: SortKey<Gsi1> = CustomerOrder::gsi1_sk().customer_id(42);
    assert_eq!(sk.value().unwrap(), "CUST#00000000000000000042");
    let open: Partition<Gsi2> = Ticket::gsi2_partition(date(2026, 1, 2)).unwrap();
    assert_eq!(open.as_str(), "OPEN#2026-01-02");
}

#[test]
fn the_item_is_the_serde_body_plus_keys_and_type() {
    let item = order().to_item().unwrap();
    assert_eq!(s(&item, "PK").unwrap(), "CUST#42");
    assert_eq!(
        s(&item, "SK").unwrap(),
        "ORDER#2026-03-14#00000000000000009931"
    );
    assert_eq!(s(&item, "_type").unwrap(), "customer_order");
    assert_eq!(s(&item, "GSI1PK").unwrap(), "ORDER#9931");
    assert_eq!(s(&item, "GSI1SK").unwrap(), "CUST#00000000000000000042");
    assert_eq!(item["total_cents"], AttributeValue::N("12999".into()));
    assert!(
        !item.contains_key("GSI2PK"),
        "not an index this entity fills"
    );
    assert_eq!(CustomerOrder::from_item(item).unwrap(), order());
}

#[test]
fn a_none_option_keeps_the_item_out_of_a_sparse_index() {
    let open = Ticket {
        customer_id: 42,
        ticket_id: 7,
        subject: "late parcel".into(),
        open_since: Some(date(2026, 3, 1)),
    };
    let item = open.to_item().unwrap();
    assert_eq!(s(&item, "GSI2PK").unwrap(), "OPEN#2026-03-01");
    assert_eq!(s(&item, "GSI2SK").unwrap(), "TICKET#0000000007");

    let closed = Ticket {
        open_since: None,
        ..open
    };
    let entries = closed.index_entries().unwrap();
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0].index, <Gsi2 as Index>::SCHEMA);
    assert_eq!(entries[0].key, None);
    let item = closed.to_item().unwrap();
    assert!(!item.contains_key("GSI2PK") && !item.contains_key("GSI2SK"));
}

#[test]
fn encoding_errors_surface_before_any_request() {
    // A declared width of 3 cannot hold 1000.
    let err = Address::key(42, 1000).unwrap_err();
    assert!(
        matches!(err.key_error(), Some(KeyError::WidthOverflow { .. })),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "invalid key: `seq` of an `Address` cannot be written into a key: 1000 has 4 digits but the key width is 3: declare a wider width (changing it re-keys stored items)"
    );
    let address = Address {
        customer_id: 1,
        seq: 1000,
        city: "Lyon".into(),
    };
    assert!(address.to_item().unwrap_err().is_key());

    // An empty partition key is refused: DynamoDB rejects empty key strings.
    ddb_entity::table! {
        /// A table for an entity whose partition is one bare hole.
        struct Bare { partition_key: "PK", sort_key: "SK" }
    }
    #[derive(ddb_entity::Entity, serde::Serialize, serde::Deserialize)]
    #[entity(table = Bare, pk = "{name}", sk = "NAME")]
    struct Named {
        name: String,
    }
    let err = Named::key("").unwrap_err();
    assert_eq!(err.key_error(), Some(&KeyError::EmptyKey));
    assert!(
        err.to_string().starts_with("invalid key of a `Named`: "),
        "{err}"
    );
    let err = Named::partition("").unwrap_err();
    assert_eq!(err.key_error(), Some(&KeyError::EmptyKey));
}

#[test]
fn decoding_another_type_or_a_broken_item_is_a_typed_error() {
    let customer = Customer {
        customer_id: 42,
        name: "Ada".into(),
    };
    let err = CustomerOrder::from_item(customer.to_item().unwrap()).unwrap_err();
    assert_eq!(err.kind(), ddb_entity::ErrorKind::WrongType, "{err:?}");
    assert!(
        err.to_string().contains(r#"expected "customer_order""#),
        "{err}"
    );

    let mut item = order().to_item().unwrap();
    item.remove("total_cents");
    let err = CustomerOrder::from_item(item).unwrap_err();
    assert!(
        err.kind() == ddb_entity::ErrorKind::Decode && err.entity() == Some("CustomerOrder"),
        "{err:?}"
    );
    assert_eq!(err.field(), Some("total_cents"), "{err}");
    assert!(
        err.to_string().contains("`total_cents` of `CustomerOrder`"),
        "the error names the field: {err}"
    );
}

#[test]
fn a_field_named_like_a_key_attribute_is_refused() {
    #[derive(ddb_entity::Entity, serde::Serialize, serde::Deserialize)]
    #[entity(table = App, pk = "CLASH#{id}", sk = "CLASH")]
    struct Clash {
        id: u32,
        #[serde(rename = "GSI1PK")]
        shadow: String,
    }
    let err = Clash {
        id: 1,
        shadow: "x".into(),
    }
    .to_item()
    .unwrap_err();
    assert_eq!(err.kind(), ddb_entity::ErrorKind::AttributeClash, "{err:?}");
    assert!(err.to_string().contains("serialised as `GSI1PK`"), "{err}");
}

#[test]
fn key_part_enums_encode_their_name() {
    use ddb_entity::key::{self, DecodeKeyPart};
    assert_eq!(key::encode(&OrderStatus::Open).unwrap(), "OPEN");
    assert_eq!(
        OrderStatus::decode_key("SHIPPED").unwrap(),
        OrderStatus::Shipped
    );
    let err = OrderStatus::decode_key("00-OPEN").unwrap_err();
    assert!(err.to_string().contains("`OPEN`, `SHIPPED`"), "{err}");
}

#[tokio::test]
async fn entities_written_through_the_sdk_read_back_equal() {
    let (_dynamo, db) = app_table().await;
    let placed_at = Utc.with_ymd_and_hms(2026, 3, 14, 9, 31, 0).unwrap();
    let written = Order {
        email: "ada@example.com".into(),
        order_id: "ORD-12345".into(),
        placed_at,
        status: OrderStatus::Shipped,
        total_cents: 12_999,
    };
    db.client()
        .put_item()
        .table_name(db.table_name())
        .set_item(Some(written.to_item().unwrap()))
        .send()
        .await
        .unwrap();

    let key = Order::key("ada@example.com", placed_at, "ORD-12345").unwrap();
    let read = db
        .client()
        .get_item()
        .table_name(db.table_name())
        .set_key(Some(key.to_attributes()))
        .consistent_read(true)
        .send()
        .await
        .unwrap();
    let item = read.item.expect("the item is there");
    assert_eq!(Order::from_item(item).unwrap(), written);
}

#[tokio::test]
async fn a_sparse_index_holds_only_the_items_with_the_option_set() {
    let (_dynamo, db) = app_table().await;
    let users = [
        ("ada@example.com", Some(date(2026, 1, 5))),
        ("bob@example.com", None),
        ("cy@example.com", Some(date(2026, 1, 5))),
    ];
    for (email, active_since) in users {
        let user = User {
            email: email.into(),
            name: email.split('@').next().unwrap().into(),
            active_since,
        };
        db.client()
            .put_item()
            .table_name(db.table_name())
            .set_item(Some(user.to_item().unwrap()))
            .send()
            .await
            .unwrap();
    }

    let partition = User::gsi2_partition(date(2026, 1, 5)).unwrap();
    let active = db
        .client()
        .query()
        .table_name(db.table_name())
        .index_name(<Gsi2 as Index>::SCHEMA.name)
        .key_condition_expression("#pk = :pk")
        .expression_attribute_names("#pk", "GSI2PK")
        .expression_attribute_values(":pk", AttributeValue::S(partition.into_string()))
        .send()
        .await
        .unwrap();
    let emails: Vec<String> = active
        .items()
        .iter()
        .map(|item| User::from_item(item.clone()).unwrap().email)
        .collect();
    assert_eq!(emails, ["ada@example.com", "cy@example.com"]);
}
