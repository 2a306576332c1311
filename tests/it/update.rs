//! Typed updates: fields by type, index keys kept in step, sparse indexes
//! left when an `Option` becomes `None`, and every refusal before sending.

use aws_sdk_dynamodb::types::AttributeValue;
use ddb_entity::{Entity, ErrorKind};
use serde::{Deserialize, Serialize};

use crate::model::*;
use crate::support::{App, Gsi1, logged_app_table, stored_item};

/// Index overloading on GSI1 with a template of three non-key fields.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
#[entity(table = App, pk = "EMP#{employee_id}", sk = "EMPLOYEE")]
#[entity(index = Gsi1, pk = "DEPT#{department}", sk = "{level:2}#{full_name}")]
struct Employee {
    employee_id: u32,
    department: String,
    level: u8,
    full_name: String,
    /// A reserved word in DynamoDB expressions, through serde.
    #[serde(rename = "status")]
    state: String,
    salary_cents: i64,
}

fn ada() -> Employee {
    Employee {
        employee_id: 1,
        department: "FINANCE".into(),
        level: 3,
        full_name: "Ada".into(),
        state: "active".into(),
        salary_cents: 100,
    }
}

/// `Employee::fields()` prints as `#[derive(Debug)]` would print its
/// struct (the library writes it from `LAYOUT`): each field, in order, by
/// its Rust name, with its attribute after serde's renames.
#[test]
fn fields_print_as_a_derived_debug_would() {
    let f = Employee::fields();
    let derived = format!(
        "EmployeeFields {{ employee_id: {:?}, department: {:?}, level: {:?}, full_name: {:?}, state: {:?}, salary_cents: {:?} }}",
        f.employee_id, f.department, f.level, f.full_name, f.state, f.salary_cents
    );
    assert_eq!(format!("{f:?}"), derived);
    assert!(derived.contains(r#"state: Field { name: "state", attribute: "status" }"#));
}

#[tokio::test]
async fn set_and_add_change_fields_and_return_the_new_entity_in_one_request() {
    let (_dynamo, db, log) = logged_app_table().await;
    db.put(&ada()).await.unwrap();
    log.clear();

    let fields = Employee::fields();
    let updated = db
        .update(Employee::key(1u32).unwrap())
        .set(fields.state, "on leave".to_owned())
        .add(fields.salary_cents, 25)
        .await
        .unwrap();
    assert_eq!(updated.state, "on leave");
    assert_eq!(updated.salary_cents, 125);
    assert_eq!(log.operations(), ["UpdateItem"]);

    let item = stored_item(&db, &Employee::key(1u32).unwrap()).await;
    assert_eq!(item["status"], AttributeValue::S("on leave".into()));
    assert_eq!(item["salaryCents"], AttributeValue::N("125".into()));
    assert_eq!(Employee::from_item(item).unwrap(), updated);
}

#[tokio::test]
async fn changing_an_index_field_rewrites_that_index_key_in_the_same_request() {
    let (_dynamo, db, log) = logged_app_table().await;
    db.put(&ada()).await.unwrap();
    log.clear();

    let fields = Employee::fields();
    db.update(Employee::key(1u32).unwrap())
        .set(fields.department, "R&D".to_owned())
        .set(fields.level, 4)
        .set(fields.full_name, "Ada".to_owned())
        .await
        .unwrap();
    assert_eq!(log.operations(), ["UpdateItem"]);

    let item = stored_item(&db, &Employee::key(1u32).unwrap()).await;
    let expected = ddb_entity::Entity::to_item(&Employee {
        department: "R&D".into(),
        level: 4,
        ..ada()
    })
    .unwrap();
    assert_eq!(item["GSI1PK"], expected["GSI1PK"]);
    assert_eq!(item["GSI1SK"], expected["GSI1SK"]);
    assert_eq!(item["GSI1SK"], AttributeValue::S("04#Ada".into()));

    let found: Vec<Employee> = db
        .query(Employee::gsi1_partition("R&D").unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(found.len(), 1, "found by the new department");
    let old: Vec<Employee> = db
        .query(Employee::gsi1_partition("FINANCE").unwrap())
        .all()
        .await
        .unwrap();
    assert!(old.is_empty(), "gone from the old one");
}

#[tokio::test]
async fn an_update_that_cannot_recompute_a_key_is_refused_naming_the_field() {
    let (_dynamo, db, log) = logged_app_table().await;
    db.put(&ada()).await.unwrap();
    log.clear();

    let fields = Employee::fields();
    let err = db
        .update(Employee::key(1u32).unwrap())
        .set(fields.department, "R&D".to_owned())
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::MissingKeyField, "{err:?}");
    assert!(err.to_string().contains("index GSI1's key"), "{err}");
    assert!(err.to_string().contains("set `level`"), "{err}");
    assert!(log.operations().is_empty(), "refused before sending");
    // Nothing changed.
    assert_eq!(
        db.get(Employee::key(1u32).unwrap())
            .consistent_read(true)
            .await
            .unwrap(),
        Some(ada())
    );
}

#[tokio::test]
async fn updating_a_missing_item_is_not_found_and_creates_nothing() {
    let (_dynamo, db, _log) = logged_app_table().await;
    let err = db
        .update(Employee::key(404u32).unwrap())
        .set(Employee::fields().state, "x".to_owned())
        .await
        .unwrap_err();
    assert!(err.is_not_found(), "{err:?}");
    assert_eq!(
        db.get(Employee::key(404u32).unwrap())
            .consistent_read(true)
            .await
            .unwrap(),
        None
    );
}

#[tokio::test]
async fn a_ticket_closed_by_update_leaves_the_sparse_index_and_reopening_returns_it() {
    let (_dynamo, db, _log) = logged_app_table().await;
    let opened = date(2026, 3, 15);
    db.put(&Ticket {
        customer_id: 42,
        ticket_id: 7,
        subject: "late parcel".into(),
        open_since: Some(opened),
    })
    .await
    .unwrap();
    let open_on = |day| {
        db.query(Ticket::gsi2_partition(day).unwrap())
            .all::<Ticket>()
    };
    assert_eq!(open_on(opened).await.unwrap().len(), 1);

    let fields = Ticket::fields();
    let closed = db
        .update(Ticket::key(42u64, 7u32).unwrap())
        .remove(fields.open_since)
        .await
        .unwrap();
    assert_eq!(closed.open_since, None);
    assert!(
        open_on(opened).await.unwrap().is_empty(),
        "the index shrank"
    );

    // Reopening recomputes the key from the new date and the ticket id,
    // which is read back from the primary key.
    let reopened = date(2026, 4, 1);
    db.update(Ticket::key(42u64, 7u32).unwrap())
        .set(fields.open_since, Some(reopened))
        .await
        .unwrap();
    let found = open_on(reopened).await.unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].subject, "late parcel");
}

#[test]
fn fields_carry_their_stored_names() {
    let fields = Employee::fields();
    assert_eq!(fields.full_name.attribute(), "fullName");
    assert_eq!(fields.state.attribute(), "status");
    assert_eq!(fields.state.name(), "state");
    let _: ddb_entity::Partition<Gsi1> = Employee::gsi1_partition("X").unwrap();
}
