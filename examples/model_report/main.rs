//! The whole report of an e-commerce model: the table and its entities, the
//! access-pattern table generated from code with every pattern checked,
//! the lints, the deploy definitions (AWS CLI, CloudFormation, Terraform,
//! NoSQL Workbench), the key layout, a per-user IAM policy, and the drift
//! of a live table created on the embedded DynamoDB.
//!
//! ```sh
//! cargo run --example model_report --features model
//! ```

mod shop;

use chrono::{TimeZone, Utc};
use ddb_entity::Db;
use ddb_entity::local::LocalDynamo;
use shop::{App, Order, OrderItem, User, UserStatus};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let model = shop::model();
    let report = model.report();
    println!("{report}");

    section("AWS CLI: aws dynamodb create-table --cli-input-json file://app_data.json");
    println!("{}", model.aws_cli_json()?);
    section("CloudFormation / SAM");
    println!("{}", model.cloudformation_json()?);
    section("Terraform");
    println!("{}", model.terraform_hcl()?);
    section("NoSQL Workbench data model");
    println!("{}", model.workbench_json("Mar 14, 2026, 09:30 AM")?);

    section("Key layout (commit it; a diff is a migration)");
    let placed_at = Utc.with_ymd_and_hms(2026, 3, 14, 9, 31, 0).unwrap();
    let layout = model
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
        .render()?;
    println!("{layout}");

    section("IAM: a principal confined to one user's partitions");
    let policy = model
        .tenant_policy("email")
        .table_arn("arn:aws:dynamodb:eu-west-1:123456789012:table/app_data")
        .variable("${aws:PrincipalTag/email}")
        .render()?;
    println!("{}", policy.json);
    for uncovered in &policy.uncovered {
        println!("not confined: {uncovered}");
    }

    section("Drift of a live table (embedded DynamoDB)");
    let dynamo = LocalDynamo::start().await?;
    let name = dynamo.unique_table_name("app_data");
    let db = Db::<App>::new(dynamo.client(), name.clone());
    db.create_table_if_missing().await?;
    println!("{}", db.drift().await?);
    // Then every pattern's query runs on it for real.
    db.put(&User {
        email: "alice@example.com".into(),
        name: "Alice".into(),
        status: UserStatus::Active,
    })
    .await?;
    let active: Vec<User> = shop::users_in_status(&db, UserStatus::Active)?
        .all()
        .await?;
    let orders: Vec<Order> = shop::orders_of_user(&db, "alice@example.com")?
        .all()
        .await?;
    println!(
        "users in status active: {}; orders of alice: {}",
        active.len(),
        orders.len()
    );
    Ok(())
}

fn section(title: &str) {
    println!("\n## {title}\n");
}
