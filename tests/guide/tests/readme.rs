//! The README's guide shows this project's files as they are: each is one
//! of its code blocks, verbatim, so the guide cannot drift from code that
//! builds and passes.

#[test]
fn the_readme_shows_these_files() {
    let readme = include_str!("../../../README.md");
    for (path, file) in [
        ("src/lib.rs", include_str!("../src/lib.rs")),
        ("tests/shop.rs", include_str!("shop.rs")),
    ] {
        assert!(
            file.starts_with(&format!("// {path}\n")),
            "tests/guide/{path}: first line `// {path}`"
        );
        let block = format!("```rust,ignore\n{file}```");
        assert!(
            readme.contains(&block),
            "README.md has no ```rust,ignore block of tests/guide/{path} as it is now \
             (its first line `// {path}`): copy the file into the README"
        );
    }
}

/// The crate page (the README) lists every feature of `ddb-entity`'s
/// manifest, and no other, in its "Feature flags" table.
#[test]
fn the_readme_lists_every_feature() {
    let manifest = include_str!("../../../ddb-entity/Cargo.toml");
    let section = manifest
        .split("\n[features]\n")
        .nth(1)
        .expect("ddb-entity/Cargo.toml has a [features] table");
    let section = section.split("\n[").next().unwrap();
    let mut declared: Vec<&str> = section
        .lines()
        .filter(|line| !line.starts_with('#') && line.contains(" = "))
        .map(|line| line.split(" = ").next().unwrap().trim())
        .filter(|name| *name != "default")
        .collect();

    let readme = include_str!("../../../README.md");
    let table = readme
        .split("\n## Feature flags\n")
        .nth(1)
        .expect("README.md has a `## Feature flags` section");
    let table = table.split("\n## ").next().unwrap();
    let mut listed: Vec<&str> = table
        .lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .map(|rest| rest.split('`').next().unwrap())
        .collect();

    declared.sort_unstable();
    listed.sort_unstable();
    assert!(
        declared.len() >= 10,
        "features read from the manifest: {declared:?}"
    );
    assert_eq!(
        listed, declared,
        "README.md's Feature flags table and ddb-entity/Cargo.toml's [features] differ"
    );
}
