//! The definition on a real server: the SDK sends exactly the AWS CLI
//! input the model renders; that input, sent as it is, creates a table
//! `create_table_if_missing` accepts and `drift` finds as declared; and
//! on that table every declared access pattern's request is served.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::interceptors::BeforeTransmitInterceptorContextMut;
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::error::BoxError;
use aws_sdk_dynamodb::types::AttributeValue;
use aws_smithy_types::body::SdkBody;
use chrono::{NaiveDate, TimeZone, Utc};
use ddb_entity::local::LocalDynamo;
use ddb_entity::model::Model;
use ddb_entity::op::{ReadOperation, ReadPlan, SortCondition};
use ddb_entity::{Db, Item, Table};
use serde_json::Value;

use super::ledger::{self, Account, Invoice, InvoiceStatus, Ledger};
use super::shop::{self, App, Order, OrderItem, User, UserStatus};

/// An interceptor on CreateTable: records the body the SDK serialised,
/// and, when given one, sends another body instead.
#[derive(Debug, Clone, Default)]
struct CreateTableBody {
    sent: Arc<Mutex<Option<Value>>>,
    replacement: Option<String>,
}

impl Intercept for CreateTableBody {
    fn name(&self) -> &'static str {
        "CreateTableBody"
    }

    // Before signing: the body is part of the signature.
    fn modify_before_signing(
        &self,
        context: &mut BeforeTransmitInterceptorContextMut<'_>,
        _: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let request = context.request_mut();
        let target = request.headers().get("x-amz-target").unwrap_or_default();
        if !target.ends_with(".CreateTable") {
            return Ok(());
        }
        let bytes = request.body().bytes().ok_or("the body is in memory")?;
        *self.sent.lock().unwrap() = Some(serde_json::from_slice(bytes)?);
        if let Some(replacement) = &self.replacement {
            request
                .headers_mut()
                .insert("content-length", replacement.len().to_string());
            *request.body_mut() = SdkBody::from(replacement.clone());
        }
        Ok(())
    }
}

fn client(dynamo: &LocalDynamo, interceptor: CreateTableBody) -> Client {
    Client::from_conf(dynamo.config_builder().interceptor(interceptor).build())
}

/// What the SDK sends for `create_table_if_missing` is the CLI input.
async fn sdk_sends_the_cli_input<T: Table>(model: Model<T>) {
    let dynamo = LocalDynamo::start().await.unwrap();
    let name = dynamo.unique_table_name("cli");
    let model = model.with_table_name(name.clone());
    let interceptor = CreateTableBody::default();
    let db = Db::<T>::new(client(&dynamo, interceptor.clone()), name);
    db.create_table_if_missing().await.unwrap();
    let sent = interceptor
        .sent
        .lock()
        .unwrap()
        .take()
        .expect("CreateTable was sent");
    let cli: Value = serde_json::from_str(&model.aws_cli_json().unwrap()).unwrap();
    assert_eq!(
        sent, cli,
        "the SDK's serialisation of the input is the CLI JSON"
    );
    let drift = db.drift().await.unwrap();
    assert!(drift.is_empty(), "{drift}");
}

#[tokio::test]
async fn the_sdk_sends_exactly_the_cli_input() {
    sdk_sends_the_cli_input(shop::model()).await;
    sdk_sends_the_cli_input(ledger::model()).await;
}

/// Creates the table from the CLI input, sent as it is; checks it as
/// `create_table_if_missing` and `drift` do; returns a handle on it.
async fn create_from_cli_json<T: Table>(dynamo: &LocalDynamo, model: Model<T>) -> Db<T> {
    let name = dynamo.unique_table_name("cli-json");
    let model = model.with_table_name(name.clone());
    let interceptor = CreateTableBody {
        replacement: Some(model.aws_cli_json().unwrap()),
        ..CreateTableBody::default()
    };
    client(dynamo, interceptor)
        .create_table()
        .table_name(&name)
        .send()
        .await
        .expect("the CLI input creates the table");
    let db = Db::<T>::new(dynamo.client(), name);
    // Finds it, checks it against the declaration, waits until ACTIVE and
    // turns time to live on (which CreateTable cannot).
    assert_eq!(
        db.create_table_if_missing().await.unwrap(),
        ddb_entity::op::Provisioned::AlreadyExisted
    );
    let drift = db.drift().await.unwrap();
    assert!(drift.is_empty(), "{drift}");
    db
}

/// Runs a pattern's plan with the raw SDK: the request the pattern
/// declares, on the table the definition created.
async fn run(db_client: &Client, table: &str, plan: &ReadPlan) -> Vec<Item> {
    let s = |v: &str| AttributeValue::S(v.to_owned());
    let sort_key = plan.keys.sort_key;
    match plan.operation {
        ReadOperation::GetItem => {
            let mut key = HashMap::from([(plan.keys.partition_key.to_owned(), s(&plan.partition))]);
            if let (Some(name), SortCondition::Equal(value)) = (sort_key, &plan.sort) {
                key.insert(name.to_owned(), s(value));
            }
            let got = db_client
                .get_item()
                .table_name(table)
                .set_key(Some(key))
                .send()
                .await
                .unwrap();
            got.item.into_iter().collect()
        }
        _ => {
            let mut condition = "#pk = :pk".to_owned();
            let mut query = db_client
                .query()
                .table_name(table)
                .set_index_name(plan.index.map(str::to_owned))
                .expression_attribute_names("#pk", plan.keys.partition_key)
                .expression_attribute_values(":pk", s(&plan.partition))
                .scan_index_forward(!plan.reverse);
            let clause = match &plan.sort {
                SortCondition::All => None,
                SortCondition::Equal(v) => Some(("#sk = :a", v.clone(), None)),
                SortCondition::BeginsWith(v) => Some(("begins_with(#sk, :a)", v.clone(), None)),
                SortCondition::AtLeast(v) => Some(("#sk >= :a", v.clone(), None)),
                SortCondition::AtMost(v) => Some(("#sk <= :a", v.clone(), None)),
                SortCondition::Between(low, high) => {
                    Some(("#sk BETWEEN :a AND :b", low.clone(), Some(high.clone())))
                }
                other => panic!("not sent: {other:?}"),
            };
            if let Some((clause, a, b)) = clause {
                condition.push_str(" AND ");
                condition.push_str(clause);
                query = query
                    .expression_attribute_names("#sk", sort_key.unwrap())
                    .expression_attribute_values(":a", s(&a));
                if let Some(b) = b {
                    query = query.expression_attribute_values(":b", s(&b));
                }
            }
            let page = query
                .key_condition_expression(condition)
                .send()
                .await
                .unwrap();
            page.items.unwrap_or_default()
        }
    }
}

fn types(items: &[Item]) -> Vec<&str> {
    items
        .iter()
        .map(|item| item["_type"].as_s().map(String::as_str).unwrap_or("?"))
        .collect()
}

#[tokio::test]
async fn seed_003_from_the_cli_input_serves_every_pattern() {
    let dynamo = LocalDynamo::start().await.unwrap();
    let db = create_from_cli_json(&dynamo, shop::model()).await;
    let placed = |day: u32| Utc.with_ymd_and_hms(2026, 3, day, 9, 0, 0).unwrap();
    db.put(&User {
        email: "alice@example.com".into(),
        name: "Alice".into(),
        status: UserStatus::Active,
    })
    .await
    .unwrap();
    db.put(&User {
        email: "bob@example.com".into(),
        name: "Bob".into(),
        status: UserStatus::Closed,
    })
    .await
    .unwrap();
    for (day, id) in [(14, "ORD-12345"), (15, "ORD-12346")] {
        db.put(&Order {
            email: "alice@example.com".into(),
            order_id: id.into(),
            placed_at: placed(day),
            total_cents: 12999,
            status: "shipped".into(),
        })
        .await
        .unwrap();
    }
    for sku in ["SKU-1", "SKU 2#blue"] {
        db.put(&OrderItem {
            order_id: "ORD-12345".into(),
            sku: sku.into(),
            quantity: 1,
        })
        .await
        .unwrap();
    }

    // The typed queries the service runs.
    let alice = shop::user_by_email(&db, "alice@example.com")
        .unwrap()
        .await
        .unwrap();
    assert_eq!(alice.map(|u| u.name).as_deref(), Some("Alice"));
    let orders: Vec<Order> = shop::orders_of_user(&db, "alice@example.com")
        .unwrap()
        .all()
        .await
        .unwrap();
    assert_eq!(
        orders
            .iter()
            .map(|o| o.order_id.as_str())
            .collect::<Vec<_>>(),
        ["ORD-12346", "ORD-12345"],
        "newest first"
    );
    let by_id: Vec<Order> = shop::order_by_id(&db, "ORD-12345")
        .unwrap()
        .all()
        .await
        .unwrap();
    assert_eq!(by_id.len(), 1, "GSI1 finds an order by its id");
    let items: Vec<OrderItem> = shop::items_of_order(&db, "ORD-12345")
        .unwrap()
        .all()
        .await
        .unwrap();
    assert_eq!(items.len(), 2);
    let active: Vec<User> = shop::users_in_status(&db, UserStatus::Active)
        .unwrap()
        .all()
        .await
        .unwrap();
    assert_eq!(
        active.iter().map(|u| u.email.as_str()).collect::<Vec<_>>(),
        ["alice@example.com"]
    );

    // And the model's own plans, sent raw: each reads what the report says.
    let model = shop::model();
    let report = model.report();
    for (row, plan) in report.patterns.iter().zip(&shop_plans()) {
        let items = run(db.client(), db.table_name(), plan).await;
        assert!(!items.is_empty(), "{}: {plan}", row.name);
        let expected: Vec<&str> = row
            .reads
            .iter()
            .map(|name| model.entity_layout(name).unwrap().type_tag)
            .collect();
        for found in types(&items) {
            assert!(expected.contains(&found), "{}: read a {found}", row.name);
        }
    }
}

/// The plans of seed 003's patterns, with the model's sample values.
fn shop_plans() -> Vec<ReadPlan> {
    let config = aws_sdk_dynamodb::Config::builder()
        .behavior_version(aws_sdk_dynamodb::config::BehaviorVersion::latest())
        .build();
    let db = Db::<App>::new(Client::from_conf(config), "plans");
    vec![
        shop::user_by_email(&db, "alice@example.com")
            .unwrap()
            .plan(),
        shop::orders_of_user(&db, "alice@example.com")
            .unwrap()
            .plan()
            .unwrap(),
        shop::order_by_id(&db, "ORD-12345").unwrap().plan().unwrap(),
        shop::items_of_order(&db, "ORD-12345")
            .unwrap()
            .plan()
            .unwrap(),
        shop::users_in_status(&db, UserStatus::Active)
            .unwrap()
            .plan()
            .unwrap(),
    ]
}

#[tokio::test]
async fn the_ledger_from_the_cli_input_serves_every_pattern() {
    let dynamo = LocalDynamo::start().await.unwrap();
    let db = create_from_cli_json(&dynamo, ledger::model()).await;
    db.put(&Account {
        account_id: 7,
        name: "Acme".into(),
    })
    .await
    .unwrap();
    let issued = NaiveDate::from_ymd_opt(2026, 3, 1).unwrap();
    for (invoice_id, due, status) in [
        (1234, "2026-04-30", InvoiceStatus::Open),
        (1235, "2026-04-01", InvoiceStatus::Open),
        (1236, "2026-03-15", InvoiceStatus::Paid),
    ] {
        db.put(&Invoice {
            account_id: 7,
            invoice_id,
            status,
            issued,
            due: due.into(),
            amount_cents: 1000,
            expires_at: None,
        })
        .await
        .unwrap();
    }
    // The local index sorts an account's invoices by `due`.
    let by_due: Vec<Invoice> = ledger::invoices_by_due(&db, 7)
        .unwrap()
        .all()
        .await
        .unwrap();
    assert_eq!(
        by_due.iter().map(|i| i.invoice_id).collect::<Vec<_>>(),
        [1236, 1235, 1234]
    );
    let view: ledger::AccountView = ledger::account_view(&db, 7)
        .unwrap()
        .collect()
        .await
        .unwrap();
    assert!(view.account.is_some());
    assert_eq!(view.invoices.len(), 3);

    // The INCLUDE index holds the open invoices' amounts and statuses, and
    // nothing else of them.
    let config = aws_sdk_dynamodb::Config::builder()
        .behavior_version(aws_sdk_dynamodb::config::BehaviorVersion::latest())
        .build();
    let offline = Db::<Ledger>::new(Client::from_conf(config), "plans");
    let open = run(
        db.client(),
        db.table_name(),
        &ledger::open_amounts(&offline, 7).unwrap().plan().unwrap(),
    )
    .await;
    assert_eq!(open.len(), 2);
    assert!(
        open.iter()
            .all(|item| item.contains_key("amount_cents") && !item.contains_key("due"))
    );
    // The KEYS_ONLY index says where an invoice is.
    let found = run(
        db.client(),
        db.table_name(),
        &ledger::invoice_key(&offline, 1234).unwrap().plan().unwrap(),
    )
    .await;
    assert_eq!(found.len(), 1);
    assert_eq!(found[0]["SK"].as_s().unwrap(), "INVOICE#00001234");
    assert!(!found[0].contains_key("amount_cents"), "keys only");
}
