//! Every deploy definition of both models, as committed golden files, each
//! parsed back and checked against the one CreateTable input it renders.

use aws_sdk_dynamodb::types::{BillingMode, ProjectionType};
use ddb_entity::Table;
use ddb_entity::model::Model;
use expect_test::expect_file;
use serde_json::{Value, json};

use super::{ledger, shop};

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|err| panic!("not JSON ({err}):\n{text}"))
}

/// The key schema of a CreateTable-shaped JSON object, as (name, type).
fn keys(value: &Value) -> Vec<(String, String)> {
    value
        .as_array()
        .expect("a key schema")
        .iter()
        .map(|k| {
            (
                k["AttributeName"].as_str().unwrap().to_owned(),
                k["KeyType"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn seed_003_definitions() {
    let model = shop::model();
    let cli = model.aws_cli_json().unwrap();
    expect_file!["golden/app_data.cli.json"].assert_eq(&cli);
    expect_file!["golden/app_data.cloudformation.json"]
        .assert_eq(&model.cloudformation_json().unwrap());
    expect_file!["golden/app_data.tf"].assert_eq(&model.terraform_hcl().unwrap());
    expect_file!["golden/app_data.tf.json"].assert_eq(&model.terraform_json().unwrap());
    expect_file!["golden/app_data.workbench.json"]
        .assert_eq(&model.workbench_json("Mar 14, 2026, 09:30 AM").unwrap());
    assert_eq!(model.aws_cli_ttl_json().unwrap(), None, "no TTL declared");
}

#[test]
fn ledger_definitions() {
    let model = ledger::model();
    expect_file!["golden/ledger.cli.json"].assert_eq(&model.aws_cli_json().unwrap());
    expect_file!["golden/ledger.ttl.json"].assert_eq(&model.aws_cli_ttl_json().unwrap().unwrap());
    expect_file!["golden/ledger.cloudformation.json"]
        .assert_eq(&model.cloudformation_json().unwrap());
    expect_file!["golden/ledger.tf"].assert_eq(&model.terraform_hcl().unwrap());
    expect_file!["golden/ledger.tf.json"].assert_eq(&model.terraform_json().unwrap());
    expect_file!["golden/ledger.workbench.json"]
        .assert_eq(&model.workbench_json("Mar 14, 2026, 09:30 AM").unwrap());
}

/// Each artefact states the same table as the SDK input it is made from:
/// keys, indexes, projections, billing and capacity.
fn same_table<T: Table>(model: &Model<T>) {
    let input = model.create_table_input().unwrap();
    let cli = parse(&model.aws_cli_json().unwrap());
    let cfn = parse(&model.cloudformation_json().unwrap());
    let tf = parse(&model.terraform_json().unwrap());
    let resources = cfn["Resources"].as_object().unwrap();
    assert_eq!(resources.len(), 1);
    let (_, table) = resources.iter().next().unwrap();
    assert_eq!(table["Type"], "AWS::DynamoDB::Table");
    let cfn = &table["Properties"];

    // The CLI input and the CloudFormation properties share CreateTable's
    // member names.
    for member in [
        "AttributeDefinitions",
        "KeySchema",
        "GlobalSecondaryIndexes",
        "LocalSecondaryIndexes",
        "BillingMode",
        "ProvisionedThroughput",
    ] {
        assert_eq!(cli.get(member), cfn.get(member), "{member}");
    }
    assert_eq!(cli["TableName"], model.table_name());
    let declared: Vec<(String, String)> = input
        .key_schema()
        .iter()
        .map(|k| {
            (
                k.attribute_name().to_owned(),
                k.key_type().as_str().to_owned(),
            )
        })
        .collect();
    assert_eq!(keys(&cli["KeySchema"]), declared);

    let tf = tf["resource"]["aws_dynamodb_table"].as_object().unwrap();
    let tf = tf.values().next().unwrap();
    assert_eq!(tf["name"], model.table_name());
    assert_eq!(tf["hash_key"], declared[0].0);
    assert_eq!(tf["billing_mode"], input.billing_mode().unwrap().as_str());
    let gsis = tf
        .get("global_secondary_index")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    assert_eq!(gsis.len(), input.global_secondary_indexes().len());
    for (tf, sdk) in gsis.iter().zip(input.global_secondary_indexes()) {
        assert_eq!(tf["name"], sdk.index_name());
        let projection = sdk.projection().unwrap();
        assert_eq!(
            tf["projection_type"],
            projection.projection_type().unwrap().as_str()
        );
        if let Some(capacity) = sdk.provisioned_throughput() {
            assert_eq!(tf["write_capacity"], json!(capacity.write_capacity_units()));
        }
    }
    let attributes: Vec<&str> = tf["attribute"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    assert_eq!(attributes, T::SCHEMA.key_attributes());
}

#[test]
fn every_definition_states_the_same_table() {
    same_table(&shop::model());
    same_table(&ledger::model());

    let ledger = ledger::model().create_table_input().unwrap();
    assert_eq!(ledger.billing_mode(), Some(&BillingMode::Provisioned));
    let by_status = &ledger.global_secondary_indexes()[0];
    let projection = by_status.projection().unwrap();
    assert_eq!(projection.projection_type(), Some(&ProjectionType::Include));
    assert_eq!(projection.non_key_attributes(), ["amount_cents", "status"]);
    assert_eq!(
        by_status
            .provisioned_throughput()
            .map(|c| (c.read_capacity_units(), c.write_capacity_units())),
        Some((5, 10))
    );
    // An index without its own capacity has the table's.
    let by_id = &ledger.global_secondary_indexes()[1];
    assert_eq!(
        by_id
            .provisioned_throughput()
            .map(|c| (c.read_capacity_units(), c.write_capacity_units())),
        Some((10, 10))
    );
    assert_eq!(ledger.local_secondary_indexes().len(), 1);
}

#[test]
fn the_workbench_model_has_one_facet_per_entity() {
    let model = shop::model();
    let workbench = parse(&model.workbench_json("Mar 14, 2026, 09:30 AM").unwrap());
    assert_eq!(workbench["ModelMetadata"]["Version"], "3.0");
    let table = &workbench["DataModel"][0];
    let facets: Vec<&str> = table["TableFacets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["FacetName"].as_str().unwrap())
        .collect();
    let entities: Vec<&str> = model.entities().iter().map(|e| e.entity).collect();
    assert_eq!(facets, entities);
    // Every attribute a facet or an index names is defined by the table.
    let defined: Vec<&str> = table["NonKeyAttributes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["AttributeName"].as_str().unwrap())
        .chain(["PK", "SK"])
        .collect();
    for facet in table["TableFacets"].as_array().unwrap() {
        for attribute in facet["NonKeyAttributes"].as_array().unwrap() {
            assert!(
                defined.contains(&attribute.as_str().unwrap()),
                "{attribute}"
            );
        }
    }
    for index in table["GlobalSecondaryIndexes"].as_array().unwrap() {
        let name = index["KeyAttributes"]["PartitionKey"]["AttributeName"]
            .as_str()
            .unwrap();
        assert!(defined.contains(&name), "{name}");
    }
    let order = &table["TableFacets"][1];
    assert_eq!(
        order["KeyAttributeAlias"]["SortKeyAlias"],
        "ORDER#{placed_at}#{order_id}"
    );
}
