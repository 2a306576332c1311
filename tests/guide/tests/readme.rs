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
