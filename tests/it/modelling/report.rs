//! The whole report of both models, as committed Markdown: seed 003's
//! access-pattern table generated from code.

use expect_test::expect_file;

use super::{ledger, shop};

#[test]
fn seed_003_report() {
    let report = shop::model().report();
    report.assert_clean();
    assert_eq!(report.patterns.len(), 5);
    assert!(report.patterns.iter().all(|row| row.ok), "{report}");
    // One finding, allowed with its reason.
    assert_eq!(report.findings.len(), 1, "{report}");
    assert!(report.findings[0].allowed.is_some());
    expect_file!["golden/app_data.report.md"].assert_eq(&report.markdown());
}

#[test]
fn ledger_report() {
    let report = ledger::model().report();
    report.assert_clean();
    expect_file!["golden/ledger.report.md"].assert_eq(&report.markdown());
}

#[test]
fn each_pattern_names_its_operation_index_and_the_types_it_reads() {
    let report = shop::model().report();
    let rows: Vec<String> = report
        .patterns
        .iter()
        .map(|row| format!("{} {} {}", row.operation, row.index, row.reads.join(",")))
        .collect();
    assert_eq!(
        rows,
        [
            "GetItem table User",
            "Query table Order",
            "Query GSI1 Order",
            "Query table OrderItem",
            "Query GSI2 User",
        ]
    );
    let ledger = ledger::model().report();
    let view = &ledger.patterns[1];
    assert_eq!(view.reads, ["Account", "Invoice"], "one Query, two types");
    assert_eq!(ledger.patterns[2].index, "ByDue");
}
