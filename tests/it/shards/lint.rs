//! The hot-partition lint over entity layouts: what it flags (a literal,
//! a date, few values), what it leaves (sharded keys, keys of many
//! values), and what `allow_hot` silences with its reason. Pure: no server.

use chrono::NaiveDate;
use ddb_entity::lint::{HOT_PARTITION_FIX, HotReason, hot_partitions};

use super::*;
use crate::model::{Customer, CustomerOrder, Order, Ticket, User};

#[derive(
    ddb_entity::KeyPart, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord,
)]
pub enum DeviceKind {
    Phone,
    Tablet,
    Watch,
}

/// Every way to be hot at once.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "DEVICE#{kind}", sk = "{serial}", type = "DEVICE")]
#[entity(index = Gsi1, pk = "DAY#{day}", sk = "{serial}")]
#[entity(index = Gsi2, pk = "ACTIVE#{active}#{region:2}", sk = "{serial}")]
pub struct Device {
    pub kind: DeviceKind,
    pub serial: String,
    pub day: NaiveDate,
    pub active: bool,
    pub region: u8,
}

/// Hot by design, and saying why.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "CONFIG", sk = "{name}", type = "CONFIG", allow_hot = "read once at start-up, written by hand")]
pub struct Setting {
    pub name: String,
}

#[test]
fn the_lint_flags_literal_date_and_few_valued_partition_keys_with_the_seed_fix() {
    let lint = hot_partitions(&[
        Device::LAYOUT,
        Setting::LAYOUT,
        StatusOrder::LAYOUT,
        Event::LAYOUT,
    ]);
    let findings: Vec<_> = lint.findings().collect();
    assert_eq!(findings.len(), 3, "{lint}");
    let at = |index: Option<&str>| {
        findings
            .iter()
            .find(|f| f.index == index)
            .unwrap_or_else(|| panic!("a finding for {index:?}: {lint}"))
    };
    let table = at(None);
    assert_eq!((table.entity, table.template), ("Device", "DEVICE#{kind}"));
    assert_eq!(
        table.reason,
        HotReason::FewValues {
            at_most: 3,
            fields: vec!["kind"]
        }
    );
    // The shard it suggests uses the primary key's field of many values.
    assert_eq!(table.suggestion, "DEVICE#{kind}#{shard(serial) % 16}");
    let by_day = at(Some("GSI1"));
    assert_eq!(by_day.template, "DAY#{day}");
    assert_eq!(
        by_day.reason,
        HotReason::Calendar {
            fields: vec!["day"]
        }
    );
    let active = at(Some("GSI2"));
    // `bool` and a 2-digit number: 200 partitions at most.
    assert_eq!(
        active.reason,
        HotReason::FewValues {
            at_most: 200,
            fields: vec!["active", "region"]
        }
    );
    for finding in &findings {
        assert_eq!(finding.fix, HOT_PARTITION_FIX);
        assert!(finding.allowed.is_none());
    }
    // Allowed with its reason, and then not a finding.
    let allowed: Vec<_> = lint.allowed().collect();
    assert_eq!(allowed.len(), 1);
    assert_eq!(allowed[0].entity, "Setting");
    assert_eq!(allowed[0].reason, HotReason::Literal);
    assert_eq!(
        allowed[0].allowed,
        Some("read once at start-up, written by hand")
    );

    let report = lint.to_string();
    assert!(
        report.contains("Device: the partition key `DAY#{day}` of index `GSI1` is keyed by a date"),
        "{report}"
    );
    assert!(
        report.contains("write sharding with a calculated suffix"),
        "{report}"
    );
    assert!(
        report.contains("(allowed: read once at start-up, written by hand)"),
        "{report}"
    );
    assert!(!lint.is_empty());
}

#[test]
fn sharded_keys_and_keys_of_many_values_pass() {
    let lint = hot_partitions(&[
        StatusOrder::LAYOUT,
        StatusReturn::LAYOUT,
        Event::LAYOUT,
        Setting::LAYOUT,
    ]);
    assert!(lint.is_empty(), "{lint}");
    // The seed models: users by the date they became active (GSI2) and
    // open tickets by the day they opened are date-keyed partitions.
    let lint = hot_partitions(&[
        User::LAYOUT,
        Order::LAYOUT,
        Customer::LAYOUT,
        CustomerOrder::LAYOUT,
        Ticket::LAYOUT,
    ]);
    let flagged: Vec<(&str, Option<&str>)> = lint.findings().map(|f| (f.entity, f.index)).collect();
    assert_eq!(
        flagged,
        [("User", Some("GSI2")), ("Ticket", Some("GSI2"))],
        "{lint}"
    );
}

#[test]
fn the_layout_describes_the_shard_for_models_of_the_table() {
    let by_status = &StatusOrder::LAYOUT.keys[1];
    assert_eq!(by_status.index_name(), Some("GSI1"));
    let shard = by_status.partition.shard().unwrap();
    assert_eq!((shard.count(), shard.by()), (16, &["order_id"][..]));
    let event = StatusOrder8::LAYOUT.keys[1].partition.shard().unwrap();
    // A change of count is a change of layout (and of every key).
    assert_ne!(shard, event);
    let primary = Event::LAYOUT.primary().unwrap();
    assert_eq!(primary.partition.source, "DAY#{day}#{shard(event_id) % 8}");
    assert_eq!(primary.partition.shard().unwrap().count(), 8);
}
