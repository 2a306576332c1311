//! Tenant isolation: the `dynamodb:LeadingKeys` policy of a tenant, from
//! the partition templates, and the templates that cannot be confined.

use ddb_entity::Entity;
use ddb_entity::model::Model;
use expect_test::expect_file;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::shop;

ddb_entity::table! {
    /// A table shared by tenants.
    pub struct Saas {
        partition_key: "PK",
        sort_key: "SK",
        indexes: {
            pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
            pub Gsi2 = "GSI2" { partition_key: "GSI2PK", sort_key: "GSI2SK" },
        },
        local_indexes: { pub ByName = "ByName" { sort_key: "name" } },
    }
}

/// `TENANT#{tenant}` leads every key of the tenant.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = Saas, pk = "TENANT#{tenant}", sk = "PROFILE")]
pub struct Tenant {
    pub tenant: String,
    pub name: String,
}

/// Projects of a tenant; by status within the tenant on GSI1.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = Saas, pk = "TENANT#{tenant}", sk = "PROJECT#{project}")]
#[entity(index = Gsi1, pk = "TENANT#{tenant}#STATUS", sk = "{status}#{project}")]
pub struct Project {
    pub tenant: String,
    pub project: u32,
    pub status: String,
    pub name: String,
}

/// A shared catalogue, and a region-first index: neither leads with the
/// tenant.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = Saas, pk = "CATALOG#{sku}", sk = "CATALOG")]
#[entity(index = Gsi2, pk = "REGION#{region}#{tenant}", sk = "{sku}")]
pub struct Listing {
    pub sku: String,
    pub region: String,
    pub tenant: String,
}

fn model() -> Model<Saas> {
    Model::<Saas>::new("saas")
        .entity::<Tenant>()
        .entity::<Project>()
        .entity::<Listing>()
}

fn arn() -> &'static str {
    "arn:aws:dynamodb:eu-west-1:123456789012:table/saas"
}

#[test]
fn a_tenant_is_confined_to_the_partitions_that_lead_with_it() {
    let policy = model()
        .tenant_policy("tenant")
        .table_arn(arn())
        .tenant("acme*co")
        .render()
        .unwrap();
    expect_file!["golden/saas.acme.iam.json"].assert_eq(&policy.json);
    let json: Value = serde_json::from_str(&policy.json).unwrap();
    assert_eq!(json["Version"], "2012-10-17");
    let statements = json["Statement"].as_array().unwrap();
    let resources: Vec<&str> = statements
        .iter()
        .map(|s| s["Resource"][0].as_str().unwrap())
        .collect();
    assert_eq!(
        resources,
        [
            arn().to_owned(),
            format!("{}/index/GSI1", arn()),
            format!("{}/index/ByName", arn()),
        ]
    );
    // A `*` in the tenant's id is a literal, not a wildcard.
    assert_eq!(
        statements[0]["Condition"]["ForAllValues:StringLike"]["dynamodb:LeadingKeys"],
        serde_json::json!(["TENANT#acme${*}co"])
    );
    assert_eq!(
        statements[1]["Condition"]["ForAllValues:StringLike"]["dynamodb:LeadingKeys"],
        serde_json::json!(["TENANT#acme${*}co#*"])
    );
    // Indexes are queried, never written through.
    assert_eq!(
        statements[1]["Action"],
        serde_json::json!(["dynamodb:Query"])
    );
    // No Scan anywhere: `ForAllValues` would hold for its empty key set.
    assert!(!policy.json.contains("Scan"));
    assert_eq!(
        policy.uncovered,
        [
            "`Listing` on the table: partition `CATALOG#{sku}` does not name the tenant `{tenant}`; its partitions are not allowed",
            "`Listing` on index GSI2: partition `REGION#{region}#{tenant}` does not lead with the tenant: `{region}` comes before `{tenant}`; its partitions are not allowed",
        ]
    );
}

#[test]
fn a_policy_variable_serves_every_tenant() {
    let policy = model()
        .tenant_policy("tenant")
        .table_arn(arn())
        .variable("${aws:PrincipalTag/tenant}")
        .read_only(true)
        .render()
        .unwrap();
    let json: Value = serde_json::from_str(&policy.json).unwrap();
    let table = &json["Statement"][0];
    assert_eq!(
        table["Action"],
        serde_json::json!([
            "dynamodb:GetItem",
            "dynamodb:BatchGetItem",
            "dynamodb:Query"
        ])
    );
    assert_eq!(
        table["Condition"]["ForAllValues:StringLike"]["dynamodb:LeadingKeys"],
        serde_json::json!(["TENANT#${aws:PrincipalTag/tenant}"])
    );
}

#[test]
fn seed_003_confines_a_user_to_their_own_partition() {
    let policy = shop::model()
        .tenant_policy("email")
        .table_arn("arn:aws:dynamodb:eu-west-1:123456789012:table/app_data")
        .variable("${aws:PrincipalTag/email}")
        .render()
        .unwrap();
    expect_file!["golden/app_data.iam.json"].assert_eq(&policy.json);
    assert_eq!(
        policy.leading_keys,
        [(
            "the table".to_owned(),
            vec!["USER#${aws:PrincipalTag/email}".to_owned()]
        )]
    );
    // Items and the two indexes cannot be confined to a user.
    assert_eq!(policy.uncovered.len(), 3, "{:?}", policy.uncovered);
}

#[test]
fn without_a_leading_tenant_there_is_no_policy() {
    let err = Model::<Saas>::new("saas")
        .entity::<Listing>()
        .tenant_policy("tenant")
        .tenant("acme")
        .render()
        .unwrap_err();
    assert_eq!(err.kind(), ddb_entity::ErrorKind::InvalidSchema);
    assert!(
        err.to_string()
            .contains("no partition template leads with `{tenant}`"),
        "{err}"
    );
    let err = model().tenant_policy("tenant").render().unwrap_err();
    assert!(err.to_string().contains("needs the tenant"), "{err}");
}
