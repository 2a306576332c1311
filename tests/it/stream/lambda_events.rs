//! Lambda events written by hand, as AWS documents them (and as an
//! attacker or a misconfigured trigger might send them), parsed without a
//! server: every record comes out, typed or with the reason it is not.

use ddb_entity::ErrorKind;
use ddb_entity::stream::lambda::{self, Event};
use ddb_entity::stream::{Change, ChangeKind, Origin, Record, ViewType};
use serde_json::{Value, json};

use super::model::*;

const CUST: &str = "CUST#42";
const ORDER_7: &str = "ORDER#00000000000000000007";
const ARN: &str =
    "arn:aws:dynamodb:us-east-1:123456789012:table/shop/stream/2026-03-14T09:31:00.000";

fn s(value: &str) -> Value {
    json!({ "S": value })
}

fn n(value: &str) -> Value {
    json!({ "N": value })
}

/// A record of the shop's stream, the way Lambda delivers it.
fn json_record(
    event_name: &str,
    view: &str,
    keys: Value,
    new: Option<Value>,
    old: Option<Value>,
) -> Value {
    let mut dynamodb = json!({
        "ApproximateCreationDateTime": 1_773_480_660.0,
        "Keys": keys,
        "SequenceNumber": "4421584500000000017450439091",
        "SizeBytes": 59,
        "StreamViewType": view,
    });
    if let Some(new) = new {
        dynamodb["NewImage"] = new;
    }
    if let Some(old) = old {
        dynamodb["OldImage"] = old;
    }
    json!({
        "eventID": "c81e728d9d4c2f636f067f89cc14862c",
        "eventName": event_name,
        "eventVersion": "1.1",
        "eventSource": "aws:dynamodb",
        "awsRegion": "us-east-1",
        "dynamodb": dynamodb,
        "eventSourceARN": ARN,
    })
}

fn keys(sk: &str) -> Value {
    json!({ "PK": s(CUST), "SK": s(sk) })
}

fn order_image(total: &str) -> Value {
    json!({
        "PK": s(CUST), "SK": s(ORDER_7), "_type": s("order"),
        "GSI1PK": s("ORDER#7"), "GSI1SK": s("CUST#00000000000000000042"),
        "customer_id": n("42"), "order_id": n("7"), "total_cents": n(total),
    })
}

fn customer_image() -> Value {
    json!({
        "PK": s(CUST), "SK": s("PROFILE"), "_type": s("customer"),
        "customer_id": n("42"), "name": s("Ada"),
        // Binary attributes travel base64-encoded in Lambda's JSON.
        "avatar": { "B": "iVBORw0KGgo=" },
    })
}

fn session_image() -> Value {
    json!({
        "PK": s(CUST), "SK": s("SESSION#0000000009"), "_type": s("session"),
        "customer_id": n("42"), "id": n("9"), "expires_at": n("1773480000"),
    })
}

fn parse(records: Vec<Value>) -> Vec<Record<ShopItem>> {
    let event: Event = serde_json::from_value(json!({ "Records": records })).unwrap();
    lambda::records::<ShopItem>(event)
}

fn one(record: Value) -> Record<ShopItem> {
    parse(vec![record]).pop().unwrap()
}

fn error_kind(record: &Record<ShopItem>) -> ErrorKind {
    match &record.change {
        Ok(change) => panic!("expected an error, got {change:?}"),
        Err(err) => err.kind(),
    }
}

#[test]
fn every_entity_and_every_change_kind_is_typed() {
    let ttl = {
        let mut ttl = json_record(
            "REMOVE",
            "NEW_AND_OLD_IMAGES",
            keys("SESSION#0000000009"),
            None,
            Some(session_image()),
        );
        ttl["userIdentity"] = json!({ "type": "Service", "principalId": "dynamodb.amazonaws.com" });
        ttl
    };
    let records = parse(vec![
        json_record(
            "INSERT",
            "NEW_AND_OLD_IMAGES",
            keys("PROFILE"),
            Some(customer_image()),
            None,
        ),
        json_record(
            "MODIFY",
            "NEW_AND_OLD_IMAGES",
            keys(ORDER_7),
            Some(order_image("1250")),
            Some(order_image("-1000")),
        ),
        json_record(
            "REMOVE",
            "NEW_AND_OLD_IMAGES",
            keys(ORDER_7),
            None,
            Some(order_image("1250")),
        ),
        ttl,
    ]);
    assert_eq!(records.len(), 4);

    let customer = Customer {
        customer_id: 42,
        name: "Ada".into(),
        avatar: Some(Bytes(b"\x89PNG\r\n\x1a\n".to_vec())),
    };
    let order = |total_cents| Order {
        customer_id: 42,
        order_id: 7,
        total_cents,
    };
    let changes: Vec<&Change<ShopItem>> =
        records.iter().map(|r| r.change.as_ref().unwrap()).collect();
    assert_eq!(
        changes[0],
        &Change::Insert {
            new: Some(ShopItem::Customer(customer))
        }
    );
    assert_eq!(
        changes[1],
        &Change::Modify {
            old: Some(ShopItem::Order(order(-1000))),
            new: Some(ShopItem::Order(order(1250))),
        }
    );
    assert_eq!(
        changes[2],
        &Change::Remove {
            old: Some(ShopItem::Order(order(1250)))
        }
    );
    assert!(matches!(
        changes[3],
        Change::Remove {
            old: Some(ShopItem::Session(Session { id: 9, .. }))
        }
    ));
    // A delete request and an expiry are told apart.
    assert_eq!(records[2].origin, Origin::Request);
    assert_eq!(records[3].origin, Origin::TimeToLive);

    let first = &records[0];
    assert_eq!(first.partition_key(), Some(CUST));
    assert_eq!(first.sort_key(), Some("PROFILE"));
    assert_eq!(
        first.sequence_number.as_deref(),
        Some("4421584500000000017450439091")
    );
    assert_eq!(first.view, Some(ViewType::NewAndOldImages));
    assert_eq!(first.table_name.as_deref(), Some("shop"));
    assert_eq!(
        first.approximate_creation_time,
        Some(std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_773_480_660))
    );
    // A single entity type works as `T` too.
    let event: Event = serde_json::from_value(json!({ "Records": [
        json_record("INSERT", "NEW_IMAGE", keys(ORDER_7), Some(order_image("5")), None)
    ]}))
    .unwrap();
    let only_orders = lambda::records::<Order>(event);
    assert_eq!(
        only_orders[0].change.as_ref().unwrap().new_image(),
        Some(&order(5))
    );
}

/// AWS's own sample event (the Lambda developer guide's): a table keyed by
/// a number `Id`. Not this table's: every record is reported, none dropped.
#[test]
fn the_documented_sample_event_of_another_table_is_reported_record_by_record() {
    let sample = r#"{
      "Records": [
        {
          "eventID": "c4ca4238a0b923820dcc509a6f75849b",
          "eventName": "INSERT",
          "eventVersion": "1.1",
          "eventSource": "aws:dynamodb",
          "awsRegion": "us-east-1",
          "dynamodb": {
            "Keys": { "Id": { "N": "101" } },
            "NewImage": { "Message": { "S": "New item!" }, "Id": { "N": "101" } },
            "ApproximateCreationDateTime": 1428537600,
            "SequenceNumber": "4421584500000000017450439091",
            "SizeBytes": 26,
            "StreamViewType": "NEW_AND_OLD_IMAGES"
          },
          "eventSourceARN": "arn:aws:dynamodb:us-east-1:123456789012:table/ExampleTableWithStream/stream/2015-06-27T00:48:05.899"
        },
        {
          "eventID": "c81e728d9d4c2f636f067f89cc14862c",
          "eventName": "MODIFY",
          "eventVersion": "1.1",
          "eventSource": "aws:dynamodb",
          "awsRegion": "us-east-1",
          "dynamodb": {
            "Keys": { "Id": { "N": "101" } },
            "NewImage": { "Message": { "S": "This item has changed" }, "Id": { "N": "101" } },
            "OldImage": { "Message": { "S": "New item!" }, "Id": { "N": "101" } },
            "ApproximateCreationDateTime": 1428537600,
            "SequenceNumber": "4421584500000000017450439092",
            "SizeBytes": 59,
            "StreamViewType": "NEW_AND_OLD_IMAGES"
          },
          "eventSourceARN": "arn:aws:dynamodb:us-east-1:123456789012:table/ExampleTableWithStream/stream/2015-06-27T00:48:05.899"
        },
        {
          "eventID": "eccbc87e4b5ce2fe28308fd9f2a7baf3",
          "eventName": "REMOVE",
          "eventVersion": "1.1",
          "eventSource": "aws:dynamodb",
          "awsRegion": "us-east-1",
          "dynamodb": {
            "Keys": { "Id": { "N": "101" } },
            "OldImage": { "Message": { "S": "This item has changed" }, "Id": { "N": "101" } },
            "ApproximateCreationDateTime": 1428537600,
            "SequenceNumber": "4421584500000000017450439093",
            "SizeBytes": 38,
            "StreamViewType": "NEW_AND_OLD_IMAGES"
          },
          "eventSourceARN": "arn:aws:dynamodb:us-east-1:123456789012:table/ExampleTableWithStream/stream/2015-06-27T00:48:05.899"
        }
      ]
    }"#;
    let event: Event = serde_json::from_str(sample).unwrap();
    let records = lambda::records::<ShopItem>(event);
    assert_eq!(records.len(), 3);
    for record in &records {
        assert_eq!(error_kind(record), ErrorKind::ForeignRecord);
        let message = record.change.as_ref().unwrap_err().to_string();
        assert!(
            message.contains("its key attributes are Id, this table's are PK, SK"),
            "{message}"
        );
    }
    assert_eq!(
        records[2].sequence_number.as_deref(),
        Some("4421584500000000017450439093")
    );
    assert_eq!(
        records[0].table_name.as_deref(),
        Some("ExampleTableWithStream")
    );

    // Named by its table, it is refused for that reason first.
    let event: Event = serde_json::from_str(sample).unwrap();
    let records = lambda::records_of_table::<ShopItem>(event, "shop");
    let message = records[0].change.as_ref().unwrap_err().to_string();
    assert!(
        message.contains("table `ExampleTableWithStream`, not of `shop`"),
        "{message}"
    );
}

#[test]
fn foreign_and_untyped_items_of_this_table_are_reported_with_their_key() {
    let coupon =
        json!({ "PK": s(CUST), "SK": s("COUPON#1"), "_type": s("COUPON"), "code": s("X") });
    let untyped = json!({ "PK": s(CUST), "SK": s("NOTE#1"), "text": s("by hand") });
    let records = parse(vec![
        json_record("INSERT", "NEW_IMAGE", keys("COUPON#1"), Some(coupon), None),
        json_record("INSERT", "NEW_IMAGE", keys("NOTE#1"), Some(untyped), None),
    ]);
    for (record, sk, found) in [
        (&records[0], "COUPON#1", Some("COUPON")),
        (&records[1], "NOTE#1", None),
    ] {
        assert_eq!(error_kind(record), ErrorKind::UnknownType);
        let err = record.change.as_ref().unwrap_err();
        assert_eq!(err.item_key(), Some((CUST, sk)));
        let message = err.to_string();
        match found {
            Some(found) => assert!(message.contains(&format!("type \"{found}\"")), "{message}"),
            None => assert!(message.contains("no type attribute"), "{message}"),
        }
    }
}

#[test]
fn the_type_of_one_entity_under_the_keys_of_another_is_a_key_mismatch() {
    // An `ORDER` body stored at the customer's profile key.
    let mut image = order_image("100");
    image["SK"] = s("PROFILE");
    let disguised = json_record("INSERT", "NEW_IMAGE", keys("PROFILE"), Some(image), None);
    let record = one(disguised);
    assert_eq!(error_kind(&record), ErrorKind::KeyMismatch);
    let message = record.change.unwrap_err().to_string();
    assert!(message.contains("its SK is PROFILE"), "{message}");
    assert!(message.contains(ORDER_7), "{message}");
}

#[test]
fn a_key_that_has_a_members_prefix_but_does_not_parse_is_refused() {
    // `ORDER#` like an order, but not an order's key; body of order 7.
    let mut image = order_image("100");
    image["SK"] = s("ORDER#seven");
    let record = one(json_record(
        "INSERT",
        "NEW_IMAGE",
        keys("ORDER#seven"),
        Some(image),
        None,
    ));
    assert_eq!(error_kind(&record), ErrorKind::KeyMismatch);

    // And a stale index key (the item moved, its GSI1PK did not).
    let mut image = order_image("100");
    image["GSI1PK"] = s("ORDER#8");
    let record = one(json_record(
        "INSERT",
        "NEW_IMAGE",
        keys(ORDER_7),
        Some(image),
        None,
    ));
    assert_eq!(error_kind(&record), ErrorKind::KeyMismatch);
    let message = record.change.unwrap_err().to_string();
    assert!(message.contains("GSI1PK"), "{message}");
}

#[test]
fn numbers_travel_as_strings_and_must_fit_their_field() {
    // DynamoDB JSON carries every number as a string: "-1000" is an i64.
    let record = one(json_record(
        "INSERT",
        "NEW_IMAGE",
        keys(ORDER_7),
        Some(order_image("-1000")),
        None,
    ));
    let Ok(Change::Insert {
        new: Some(ShopItem::Order(order)),
    }) = record.change
    else {
        panic!("{:?}", record.change)
    };
    assert_eq!(order.total_cents, -1000);

    // A fraction, or a number past i64, is not an `i64` field: the error
    // names the field and the item.
    for total in ["12.5", "9223372036854775808", "1e3"] {
        let record = one(json_record(
            "INSERT",
            "NEW_IMAGE",
            keys(ORDER_7),
            Some(order_image(total)),
            None,
        ));
        assert_eq!(error_kind(&record), ErrorKind::Decode, "{total}");
        let err = record.change.unwrap_err();
        assert_eq!(err.field(), Some("total_cents"), "{err}");
        assert_eq!(err.item_key(), Some((CUST, ORDER_7)));
    }

    // A string where a number belongs is a decode error too.
    let mut image = order_image("1");
    image["total_cents"] = s("1250");
    let record = one(json_record(
        "INSERT",
        "NEW_IMAGE",
        keys(ORDER_7),
        Some(image),
        None,
    ));
    assert_eq!(error_kind(&record), ErrorKind::Decode);

    // A bare JSON number where DynamoDB JSON has a string is not a stream
    // record at all: the event itself does not deserialize (before any
    // handler code runs), so nothing can be dropped silently here either.
    let mut bad = json_record(
        "INSERT",
        "NEW_IMAGE",
        keys(ORDER_7),
        Some(order_image("1")),
        None,
    );
    bad["dynamodb"]["NewImage"]["total_cents"] = json!({ "N": 1250 });
    assert!(serde_json::from_value::<Event>(json!({ "Records": [bad] })).is_err());
}

#[test]
fn binary_attributes_decode_and_bad_base64_is_refused_with_the_event() {
    let record = one(json_record(
        "INSERT",
        "NEW_IMAGE",
        keys("PROFILE"),
        Some(customer_image()),
        None,
    ));
    let Ok(Change::Insert {
        new: Some(ShopItem::Customer(customer)),
    }) = record.change
    else {
        panic!("{:?}", record.change)
    };
    assert_eq!(customer.avatar, Some(Bytes(b"\x89PNG\r\n\x1a\n".to_vec())));

    let bad = record_json_with_avatar(json!({ "B": "not base64!" }));
    assert!(serde_json::from_value::<Event>(json!({ "Records": [bad] })).is_err());

    // A binary where a string belongs: a decode error naming the field.
    let record = one(record_json_with_avatar(json!({ "S": "a string" })));
    assert_eq!(error_kind(&record), ErrorKind::Decode);
    assert_eq!(record.change.unwrap_err().field(), Some("avatar"));
}

fn record_json_with_avatar(avatar: Value) -> Value {
    let mut image = customer_image();
    image["avatar"] = avatar;
    json_record("INSERT", "NEW_IMAGE", keys("PROFILE"), Some(image), None)
}

#[test]
fn each_view_type_gives_exactly_the_images_it_captures() {
    let modify = |view| {
        one(json_record(
            "MODIFY",
            view,
            keys(ORDER_7),
            Some(order_image("2")),
            Some(order_image("1")),
        ))
        .change
        .unwrap()
    };
    let images =
        |change: Change<ShopItem>| (change.old_image().is_some(), change.new_image().is_some());
    assert_eq!(images(modify("NEW_AND_OLD_IMAGES")), (true, true));
    assert_eq!(images(modify("NEW_IMAGE")), (false, true));
    assert_eq!(images(modify("OLD_IMAGE")), (true, false));
    assert_eq!(images(modify("KEYS_ONLY")), (false, false));

    // KEYS_ONLY: no type attribute to route by, so no entity; the kind and
    // the key say which item changed.
    let record = one(json_record(
        "REMOVE",
        "KEYS_ONLY",
        keys(ORDER_7),
        None,
        None,
    ));
    assert_eq!(record.change.as_ref().unwrap().kind(), ChangeKind::Remove);
    assert_eq!(record.sort_key(), Some(ORDER_7));
    assert_eq!(record.view, Some(ViewType::KeysOnly));
}

#[test]
fn an_image_the_view_type_promises_but_the_record_lacks_is_malformed() {
    for (event, new, old) in [
        ("MODIFY", Some(order_image("2")), None),
        ("MODIFY", None, Some(order_image("1"))),
        ("INSERT", None, None),
        ("REMOVE", None, None),
    ] {
        let record = one(json_record(
            event,
            "NEW_AND_OLD_IMAGES",
            keys(ORDER_7),
            new,
            old,
        ));
        assert_eq!(error_kind(&record), ErrorKind::MalformedRecord, "{event}");
        let message = record.change.unwrap_err().to_string();
        assert!(
            message.contains("although its stream's view type NEW_AND_OLD_IMAGES captures it"),
            "{message}"
        );
    }
    // Without a view type, what is there is taken and what is not is None.
    let mut bare = json_record(
        "MODIFY",
        "NEW_IMAGE",
        keys(ORDER_7),
        Some(order_image("2")),
        None,
    );
    bare["dynamodb"]
        .as_object_mut()
        .unwrap()
        .remove("StreamViewType");
    let record = one(bare);
    assert_eq!(record.view, None);
    assert!(matches!(
        record.change,
        Ok(Change::Modify {
            old: None,
            new: Some(_)
        })
    ));
}

#[test]
fn records_that_are_not_as_dynamodb_writes_them_are_malformed() {
    // An image of another item than the record's key.
    let mut image = order_image("1");
    image["PK"] = s("CUST#43");
    let record = one(json_record(
        "INSERT",
        "NEW_IMAGE",
        keys(ORDER_7),
        Some(image),
        None,
    ));
    assert_eq!(error_kind(&record), ErrorKind::MalformedRecord);
    assert!(
        record
            .change
            .unwrap_err()
            .to_string()
            .contains("not the record's key")
    );

    // An event name DynamoDB does not use.
    let record = one(json_record(
        "UPSERT",
        "NEW_IMAGE",
        keys(ORDER_7),
        Some(order_image("1")),
        None,
    ));
    assert_eq!(error_kind(&record), ErrorKind::MalformedRecord);

    // Keys that are numbers where this table's are strings, or none.
    let record = one(json_record(
        "REMOVE",
        "KEYS_ONLY",
        json!({ "PK": n("1"), "SK": s("X") }),
        None,
        None,
    ));
    assert_eq!(error_kind(&record), ErrorKind::ForeignRecord);
    let record = one(json_record("REMOVE", "KEYS_ONLY", json!({}), None, None));
    assert_eq!(error_kind(&record), ErrorKind::ForeignRecord);
    assert!(record.change.unwrap_err().to_string().contains("no keys"));
}

#[test]
fn an_unknown_user_identity_is_kept_as_recorded() {
    let mut odd = json_record("REMOVE", "KEYS_ONLY", keys(ORDER_7), None, None);
    odd["userIdentity"] = json!({ "type": "Service", "principalId": "backup.amazonaws.com" });
    assert_eq!(
        one(odd).origin,
        Origin::Other {
            identity_type: "Service".into(),
            principal_id: "backup.amazonaws.com".into()
        }
    );
}
