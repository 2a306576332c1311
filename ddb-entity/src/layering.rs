//! The layering check: every `crate::` path in the runtime's code — `use`
//! lines and inline paths alike — names a room at or below its own in
//! docs/architecture.md's table of rooms. A path to a room above fails
//! this test with the file, the line and both rooms.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Each room's rank, bottom first, read from the architecture table: its
/// first column names the rooms of a row (`` `key/` ``, `` `db.rs` ``).
fn ranks(architecture: &str) -> HashMap<String, usize> {
    let mut ranks = HashMap::new();
    let table = architecture
        .split("## The runtime's rooms, bottom to top")
        .nth(1)
        .expect("docs/architecture.md has the rooms' table");
    let rows = table
        .lines()
        .skip_while(|line| !line.starts_with("| room"))
        .skip(2)
        .take_while(|line| line.starts_with('|'));
    for (rank, row) in rows.enumerate() {
        let first = row.split('|').nth(1).unwrap_or_default();
        for room in first.split('`').skip(1).step_by(2) {
            let name = room
                .trim_end_matches('/')
                .trim_end_matches(".rs")
                .to_owned();
            ranks.insert(name, rank);
        }
    }
    ranks
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("the source tree is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The rooms `line` names through `crate::`, comments left out (doc links
/// are prose).
fn named_rooms(line: &str) -> Vec<&str> {
    let code = line.split("//").next().unwrap_or_default();
    code.match_indices("crate::")
        .filter(|(at, _)| {
            // `$crate::` in exported macros names public paths.
            !code[..*at].ends_with('$')
        })
        .map(|(at, _)| {
            let rest = &code[at + "crate::".len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .filter(|room| !room.is_empty())
        .collect()
}

/// Where `source` (relative to `src/`) sits: its top-level module.
fn room_of(source: &Path) -> String {
    let first = source
        .components()
        .next()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .unwrap_or_default();
    first.trim_end_matches(".rs").to_owned()
}

/// The upward imports of the tree at `src`, as messages.
fn upward_imports(src: &Path, ranks: &HashMap<String, usize>) -> Vec<String> {
    let mut files = Vec::new();
    sources(src, &mut files);
    files.sort();
    let mut found = Vec::new();
    for file in files {
        let relative = file.strip_prefix(src).expect("under src");
        let room = room_of(relative);
        // The crate root and what generated code calls sit on top.
        if matches!(room.as_str(), "lib" | "__private" | "layering") {
            continue;
        }
        let Some(&own) = ranks.get(&room) else {
            found.push(format!(
                "{}: room `{room}` is not in docs/architecture.md's table of rooms",
                relative.display()
            ));
            continue;
        };
        // Unit tests may use any room: a test module is not a dependency.
        if relative.file_name().is_some_and(|name| name == "tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("a readable source");
        let code = match text.find("#[cfg(test)]\nmod tests") {
            Some(at) => &text[..at],
            None => &text,
        };
        for (number, line) in code.lines().enumerate() {
            for named in named_rooms(line) {
                match ranks.get(named) {
                    Some(&rank) if rank > own => found.push(format!(
                        "{}:{}: `{room}` uses `crate::{named}`, a room above it in docs/architecture.md",
                        relative.display(),
                        number + 1
                    )),
                    Some(_) => {}
                    None => found.push(format!(
                        "{}:{}: `crate::{named}` is not in docs/architecture.md's table of rooms",
                        relative.display(),
                        number + 1
                    )),
                }
            }
        }
    }
    found
}

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn architecture() -> String {
    std::fs::read_to_string(manifest().join("../docs/architecture.md"))
        .expect("docs/architecture.md is readable")
}

#[test]
fn no_module_imports_a_room_above_its_own() {
    let ranks = ranks(&architecture());
    let upward = upward_imports(&manifest().join("src"), &ranks);
    assert!(
        upward.is_empty(),
        "imports running up:\n{}",
        upward.join("\n")
    );
}

#[test]
fn a_planted_upward_import_is_caught_in_a_use_line_and_inline() {
    let ranks = ranks(&architecture());
    let planted = std::env::temp_dir().join(format!("ddb-layering-{}", std::process::id()));
    let key = planted.join("key");
    std::fs::create_dir_all(&key).unwrap();
    std::fs::write(
        key.join("mod.rs"),
        "use crate::error::Result;\n// crate::read in a comment is prose\nfn f() { crate::write::update(); }\n",
    )
    .unwrap();
    let upward = upward_imports(&planted, &ranks);
    std::fs::remove_dir_all(&planted).unwrap();
    assert_eq!(upward.len(), 2, "{upward:#?}");
    assert!(
        upward[0].contains("key/mod.rs:1: `key` uses `crate::error`"),
        "{upward:#?}"
    );
    assert!(
        upward[1].contains("key/mod.rs:3: `key` uses `crate::write`"),
        "{upward:#?}"
    );
}
