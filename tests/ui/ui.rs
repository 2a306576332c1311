//! Every derive error, compiled and compared with its reviewed message
//! (`tests/ui/**/*.stderr`), and generated code compiled warning-free.
//! Regenerate after an intended change with `TRYBUILD=overwrite` and review
//! the diff.

#[test]
fn derive_messages() {
    let cases = trybuild::TestCases::new();
    cases.pass("pass/*.rs");
    cases.compile_fail("entity/*.rs");
    cases.compile_fail("key_part/*.rs");
    cases.compile_fail("collection/*.rs");
}
