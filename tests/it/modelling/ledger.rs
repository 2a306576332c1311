//! A second model, for what seed 003 does not use: provisioned capacity
//! (the table's and an index's own), `INCLUDE` and `KEYS_ONLY`
//! projections, a local index, time to live, numbers padded to a width.

use std::time::Duration;

use chrono::NaiveDate;
use ddb_entity::model::{AccessPattern, Lint, Model};
use ddb_entity::op::Query;
use ddb_entity::{Db, Entity, KeyPart, Primary, Result};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    /// Accounts and their invoices, billed by capacity.
    pub struct Ledger {
        partition_key: "PK",
        sort_key: "SK",
        ttl_attribute: "expires_at",
        billing: provisioned { read: 10, write: 10 },
        indexes: {
            /// An account's invoices by status; read for two attributes.
            pub ByStatus = "ByStatus" {
                partition_key: "GSI1PK",
                sort_key: "GSI1SK",
                projection: include["amount_cents", "status"],
                capacity: { read: 5, write: 10 },
            },
            /// Where an invoice is, by its number alone.
            pub ById = "ById" { partition_key: "GSI2PK", projection: keys_only },
        },
        local_indexes: {
            /// An account's items by the `due` attribute.
            pub ByDue = "ByDue" { sort_key: "due" },
        },
    }
}

/// Open, then paid.
#[derive(KeyPart, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum InvoiceStatus {
    Open,
    Paid,
}

/// `ACCOUNT#{account_id}` / `PROFILE`.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = Ledger, pk = "ACCOUNT#{account_id}", sk = "PROFILE")]
pub struct Account {
    pub account_id: u32,
    pub name: String,
}

/// Under its account; by status and by number; `due` (ISO date) fills the
/// local index.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = Ledger, pk = "ACCOUNT#{account_id}", sk = "INVOICE#{invoice_id:8}")]
#[entity(index = ByStatus, pk = "STATUS#{status}#{account_id}", sk = "{issued}")]
#[entity(index = ById, pk = "INVOICE#{invoice_id:8}")]
pub struct Invoice {
    pub account_id: u32,
    pub invoice_id: u32,
    pub status: InvoiceStatus,
    pub issued: NaiveDate,
    pub due: String,
    pub amount_cents: i64,
    /// Archived invoices expire (epoch seconds).
    pub expires_at: Option<u64>,
}

/// An account's invoices, soonest due first.
pub fn invoices_by_due(db: &Db<Ledger>, account_id: u32) -> Result<Query<'_, ByDue>> {
    Ok(db.query(Invoice::partition(account_id)?.local::<ByDue>()))
}

/// The amounts and statuses of an account's open invoices.
pub fn open_amounts(db: &Db<Ledger>, account_id: u32) -> Result<Query<'_, ByStatus>> {
    Ok(db
        .query(Invoice::by_status_partition(
            InvoiceStatus::Open,
            account_id,
        )?)
        .projection(["amount_cents", "status"]))
}

/// The key of an invoice by its number (then a GetItem).
pub fn invoice_key(db: &Db<Ledger>, invoice_id: u32) -> Result<Query<'_, ById>> {
    Ok(db
        .query(Invoice::by_id_partition(invoice_id)?)
        .projection(Vec::new()))
}

/// An account with its invoices.
pub fn account_view(db: &Db<Ledger>, account_id: u32) -> Result<Query<'_, Primary<Ledger>>> {
    Ok(db.query(Account::partition(account_id)?))
}

/// The ledger's model.
pub fn model() -> Model<Ledger> {
    Model::<Ledger>::new("ledger")
        .entity::<Account>()
        .entity::<Invoice>()
        .pattern(AccessPattern::get("Account by id", |db| {
            Ok(db.get(Account::key(7)?))
        }))
        .pattern(
            AccessPattern::query("An account and its invoices", |db| account_view(db, 7))
                .returns::<AccountView>()
                .expect_items(500)
                .latency(Duration::from_millis(30)),
        )
        .pattern(
            AccessPattern::query("Invoices of an account by due date", |db| {
                invoices_by_due(db, 7)
            })
            .returns::<Vec<Invoice>>(),
        )
        .pattern(AccessPattern::query("Open amounts of an account", |db| {
            open_amounts(db, 7)
        }))
        .pattern(AccessPattern::query("Where an invoice is", |db| {
            invoice_key(db, 1234)
        }))
        .allow(
            Lint::LocalIndexCollectionLimit,
            "ByDue",
            "an account issues a few thousand invoices a year, archived after two",
        )
}

/// Everything under `ACCOUNT#{account_id}`.
#[derive(ddb_entity::Collection, Debug)]
pub struct AccountView {
    pub account: Option<Account>,
    pub invoices: Vec<Invoice>,
}
