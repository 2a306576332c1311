//! Every derive error, compiled and compared with its reviewed message
//! (`tests/ui/**/*.stderr`). The warning-free pass cases are a test target
//! of their own (`pass/main.rs`, see Cargo.toml), so trybuild only checks
//! and never builds.
//! Regenerate after an intended change with `TRYBUILD=overwrite` and review
//! the diff.

#[test]
fn derive_messages() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("entity/*.rs");
    cases.compile_fail("key_part/*.rs");
    cases.compile_fail("collection/*.rs");
    cases.compile_fail("table/*.rs");
}
