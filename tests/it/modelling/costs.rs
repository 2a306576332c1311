//! Patterns that are more than one Query: a shard fan-out, a Query per
//! partition, a Scan. The report counts their requests and gives each the
//! usual answer as a finding; a sparse index scanned is that answer.

use ddb_entity::model::{AccessPattern, Lint, Model, Report, Requests, Severity};
use ddb_entity::op::Query;
use ddb_entity::{Db, Entity, Primary};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    /// Orders by status on a sharded index; open tickets on a sparse one;
    /// customers' orders on the table.
    pub struct Shop {
        partition_key: "PK",
        sort_key: "SK",
        indexes: {
            pub ByStatus = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
            pub Open = "GSI2" { partition_key: "GSI2PK", sort_key: "GSI2SK" },
        },
    }
}

/// "All orders with status X", spread over 8 shards.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = Shop, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}")]
#[entity(index = ByStatus, pk = "STATUS#{status}#{shard(order_id) % 8}", sk = "{order_id}")]
pub struct Order {
    pub customer_id: u64,
    pub order_id: u64,
    pub status: String,
}

/// In `Open` only while open.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = Shop, pk = "TICKET#{ticket_id}", sk = "TICKET")]
#[entity(index = Open, pk = "OPEN#{opened}", sk = "{ticket_id}")]
pub struct Ticket {
    pub ticket_id: u64,
    pub opened: Option<u32>,
}

/// Every item in `Open`, not only open ones: the index is not sparse.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = Shop, pk = "NOTE#{note_id}", sk = "NOTE")]
#[entity(index = Open, pk = "NOTE", sk = "{note_id}", allow_hot = "a handful of notes")]
pub struct Note {
    pub note_id: u64,
}

fn model() -> Model<Shop> {
    Model::<Shop>::new("shop")
        .entity::<Order>()
        .entity::<Ticket>()
}

fn findings(report: &Report, lint: Lint) -> Vec<(String, String)> {
    report
        .of_lint(lint)
        .map(|f| (f.subject.clone(), f.message.clone()))
        .collect()
}

#[test]
fn a_sharded_partition_is_a_fan_out_of_a_query_per_shard() {
    let report = model()
        .pattern(
            AccessPattern::query("Open orders", |db| {
                Ok(db.query(Order::by_status_partition("open")?))
            })
            .returns::<Vec<Order>>(),
        )
        .report();
    let row = &report.patterns[0];
    assert_eq!(
        (row.operation.as_str(), row.index.as_str()),
        ("Query", "GSI1")
    );
    assert_eq!(
        row.requests,
        Requests::Queries {
            partitions: 1,
            shards: 8
        }
    );
    assert_eq!(row.requests.minimum(), Some(8));
    assert_eq!(row.reads, ["Order"], "the shards hold orders");
    assert!(row.ok, "a fan-out works: a warning, not an error");
    assert!(
        report
            .access_patterns_markdown()
            .contains("| Open orders | Query | GSI1 | 8: a Query per shard | `GSI1PK = STATUS#{status}#{shard(order_id) % 8}` |"),
        "{report}"
    );
    let fan_out = findings(&report, Lint::PatternFanOut);
    assert_eq!(fan_out.len(), 1, "{report}");
    assert_eq!(fan_out[0].0, "Open orders");
    assert!(
        fan_out[0].1.starts_with(
            "its partition key `STATUS#{status}#{shard(order_id) % 8}` is sharded: every call reads all 8 shards, 8 Queries"
        ),
        "{}",
        fan_out[0].1
    );
    assert!(fan_out[0].1.contains("Accept it"), "{}", fan_out[0].1);
    assert_eq!(Lint::PatternFanOut.severity(), Severity::Warning);

    // Accepting the fan-out is saying why.
    let accepted = model()
        .pattern(
            AccessPattern::query("Open orders", |db| {
                Ok(db.query(Order::by_status_partition("open")?))
            })
            .returns::<Vec<Order>>(),
        )
        .allow(
            Lint::PatternFanOut,
            "Open orders",
            "the status board reads it once a minute",
        )
        .allow(Lint::UnusedIndex, "GSI2", "not this test's")
        .report();
    accepted.assert_clean();
}

#[test]
fn one_shard_of_a_sharded_partition_is_one_query() {
    let report = model()
        .pattern(
            AccessPattern::query("Open orders of shard 3", |db| {
                Ok(db.query(Order::by_status_partition("open")?.shard(3).unwrap()))
            })
            .returns::<Vec<Order>>(),
        )
        .report();
    let row = &report.patterns[0];
    assert_eq!(row.requests, Requests::One);
    assert_eq!(row.reads, ["Order"]);
    assert_eq!(findings(&report, Lint::PatternFanOut), []);
    assert_eq!(findings(&report, Lint::PatternReadsNothing), []);
}

/// The customers of one account, a Query each.
fn orders_of_account(db: &Db<Shop>) -> ddb_entity::Result<Vec<Query<'_, Primary<Shop>>>> {
    [7, 8, 9]
        .into_iter()
        .map(|customer| Ok(db.query(Order::partition(customer)?)))
        .collect()
}

#[test]
fn a_query_per_partition_counts_each_and_advises_grouping_them() {
    let report = model()
        .pattern(
            AccessPattern::queries("Orders of an account", orders_of_account)
                .returns::<Vec<Order>>(),
        )
        .allow(Lint::UnusedIndex, "GSI1", "not this test's")
        .allow(Lint::UnusedIndex, "GSI2", "not this test's")
        .report();
    let row = &report.patterns[0];
    assert_eq!(
        row.requests,
        Requests::Queries {
            partitions: 3,
            shards: 1
        }
    );
    assert_eq!(row.reads, ["Order"]);
    assert_eq!(row.key_condition, "PK = CUST#{customer_id}");
    let partitions = findings(&report, Lint::PatternPartitions);
    assert_eq!(partitions.len(), 1, "{report}");
    assert!(
        partitions[0]
            .1
            .starts_with("reads 3 partitions, a Query each: 3 requests on every call"),
        "{}",
        partitions[0].1
    );
    assert!(
        partitions[0]
            .1
            .contains("an index whose partition key groups them")
    );
    // Each Query is checked as one: a type the partitions never hold is
    // an error, reported once however many Queries share it.
    let wrong = model()
        .pattern(
            AccessPattern::queries("Tickets of an account", orders_of_account)
                .returns::<Vec<Ticket>>(),
        )
        .report();
    assert_eq!(wrong.of_lint(Lint::PatternMissesType).count(), 1, "{wrong}");
    assert!(!wrong.patterns[0].ok);

    // Production reads up to 40 customers; shards multiply.
    let sharded = model()
        .pattern(
            AccessPattern::queries("Orders of two statuses", |db| {
                Ok(vec![
                    db.query(Order::by_status_partition("open")?),
                    db.query(Order::by_status_partition("paid")?),
                ])
            })
            .expect_partitions(4),
        )
        .report();
    assert_eq!(
        sharded.patterns[0].requests,
        Requests::Queries {
            partitions: 4,
            shards: 8
        }
    );
    assert_eq!(
        sharded.patterns[0].requests.to_string(),
        "32: a Query per shard of 4 partitions"
    );
    assert_eq!(sharded.of_lint(Lint::PatternFanOut).count(), 1);
    assert_eq!(sharded.of_lint(Lint::PatternPartitions).count(), 1);
}

#[test]
fn a_pattern_of_no_query_is_an_error_of_its_request() {
    let report = model()
        .pattern(AccessPattern::queries("Nothing", |_db: &Db<Shop>| {
            Ok(Vec::<Query<'_, Primary<Shop>>>::new())
        }))
        .report();
    let errors: Vec<String> = report.errors().map(|f| f.to_string()).collect();
    assert_eq!(
        errors,
        [
            "error[pattern-request] Nothing: its request could not be built: it builds no Query: build one per partition of the sample"
        ]
    );
    assert!(!report.patterns[0].ok);
}

#[test]
fn a_scan_of_the_table_reads_every_type_and_is_a_finding_with_the_sparse_index_advice() {
    let report = model()
        .pattern(
            AccessPattern::scan("Every open ticket", |db| Ok(db.scan())).returns::<Vec<Ticket>>(),
        )
        .allow(Lint::UnusedIndex, "GSI1", "not this test's")
        .allow(Lint::UnusedIndex, "GSI2", "not this test's")
        .report();
    let row = &report.patterns[0];
    assert_eq!(
        (row.operation.as_str(), row.index.as_str()),
        ("Scan", "table")
    );
    assert_eq!(row.requests, Requests::Scan);
    assert_eq!(row.requests.to_string(), "1 per MB read");
    assert_eq!(row.requests.minimum(), None);
    assert_eq!(row.reads, ["Order", "Ticket"]);
    assert!(row.ok);
    let scans = findings(&report, Lint::PatternScan);
    assert_eq!(scans.len(), 1, "{report}");
    assert!(
        scans[0].1.starts_with(
            "a Scan reads every item of the table (Order, Ticket), one request per MB"
        ),
        "{}",
        scans[0].1
    );
    assert!(scans[0].1.contains("a sparse index"), "{}", scans[0].1);
    assert!(
        report
            .access_patterns_markdown()
            .contains("| Every open ticket | Scan | table | 1 per MB read | `(every item)` | Order, Ticket | Ticket |"),
        "{report}"
    );
}

#[test]
fn a_scan_of_a_sparse_index_is_the_answer_and_uses_the_index() {
    let report = model()
        .pattern(
            AccessPattern::scan("Open tickets", |db| Ok(db.scan_index::<Open>()))
                .returns::<Vec<Ticket>>(),
        )
        .allow(Lint::UnusedIndex, "GSI1", "not this test's")
        .report();
    assert!(report.is_clean(), "{report}");
    assert_eq!(report.patterns[0].index, "GSI2");
    assert_eq!(report.patterns[0].reads, ["Ticket"]);
    assert_eq!(
        report
            .of_lint(Lint::UnusedIndex)
            .filter(|f| f.subject == "GSI2")
            .count(),
        0
    );

    // An entity in the index with every item makes it more than the
    // pattern wants: make it sparse for that one.
    let crowded = model()
        .entity::<Note>()
        .pattern(
            AccessPattern::scan("Open tickets", |db| Ok(db.scan_index::<Open>()))
                .returns::<Vec<Ticket>>(),
        )
        .allow(Lint::UnusedIndex, "GSI1", "not this test's")
        .report();
    let scans = findings(&crowded, Lint::PatternScan);
    assert_eq!(scans.len(), 1, "{crowded}");
    assert!(
        scans[0]
            .1
            .starts_with("a Scan reads every item of index GSI2 (Note)"),
        "{}",
        scans[0].1
    );
    assert!(
        scans[0].1.contains("make GSI2 sparse for them"),
        "{}",
        scans[0].1
    );
}

#[test]
fn a_scan_returning_a_type_the_index_never_holds_is_an_error() {
    let report = model()
        .pattern(
            AccessPattern::scan("Orders from the ticket index", |db| {
                Ok(db.scan_index::<Open>())
            })
            .returns::<Vec<Order>>(),
        )
        .report();
    let errors: Vec<String> = report.errors().map(|f| f.message.clone()).collect();
    assert_eq!(errors.len(), 1, "{report}");
    assert!(
        errors[0].starts_with("returns `Order`, whose type `")
            && errors[0].ends_with("` has no items in index GSI2"),
        "{}",
        errors[0]
    );
    assert!(!report.patterns[0].ok);
}
