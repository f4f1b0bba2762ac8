//! The seam between games and hosts, held true: the hosts never name a game, and the lines
//! ARCHITECTURE.md quotes as "what adding a game takes" are the real ones.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

/// The workspace's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The Rust files under `dir`, recursively.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// The code of a source file without its tests and comments: everything from the first
/// `#[cfg(test)]` on is cut, and so are comment lines (a doc comment may show a file's format).
fn code_of(text: &str) -> String {
    let code = text.find("#[cfg(test)]").map_or(text, |i| &text[..i]);
    code.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The files of modules declared test-only (`#[cfg(test)]` then `mod name;`) in `text`, a
/// file of `dir`.
fn test_modules(dir: &Path, text: &str) -> Vec<PathBuf> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    lines
        .windows(2)
        .filter(|w| w[0] == "#[cfg(test)]")
        .filter_map(|w| w[1].strip_prefix("mod ")?.strip_suffix(';'))
        .map(|name| dir.join(format!("{name}.rs")))
        .collect()
}

#[test]
fn no_game_id_appears_in_the_hosts_code_outside_tests() {
    let registry = tilebox_games::registry();
    let hosts = ["app/src", "crates/tilebox-cli/src"];
    let mut checked = 0;
    for host in hosts {
        let files = rust_files(&root().join(host));
        let mut tests_only = Vec::new();
        for file in &files {
            let text = std::fs::read_to_string(file).unwrap();
            tests_only.extend(test_modules(file.parent().unwrap(), &text));
        }
        for file in files.iter().filter(|f| !tests_only.contains(f)) {
            let text = std::fs::read_to_string(file).unwrap();
            let code = code_of(&text);
            for id in registry.ids() {
                let quoted = format!("\"{id}\"");
                assert!(
                    !code.contains(&quoted),
                    "{} names the game {quoted}: ask the registry instead",
                    file.display()
                );
            }
            checked += 1;
        }
    }
    assert!(
        checked > 10,
        "only {checked} files found: are the paths right?"
    );
}

#[test]
fn every_line_architecture_md_quotes_is_in_the_file_it_names() {
    let doc = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let mut quoted = 0;
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        let Some(file) = line.strip_prefix("```rust file=") else {
            continue;
        };
        let source = std::fs::read_to_string(root().join(file.trim()))
            .unwrap_or_else(|e| panic!("ARCHITECTURE.md names {file}: {e}"));
        for code in lines.by_ref().take_while(|l| !l.starts_with("```")) {
            assert!(
                source.lines().any(|l| l.trim() == code.trim()),
                "ARCHITECTURE.md quotes a line that is not in {file}:\n{code}"
            );
            quoted += 1;
        }
    }
    assert!(quoted >= 4, "only {quoted} quoted lines found");
}

/// `tilebox-cli slide` takes an entry's rule set from
/// `tilebox_sliding::rules_of`, which must know every kind whose games have a sliding board.
#[test]
fn every_entry_with_a_sliding_board_has_a_rule_set() {
    let registry = tilebox_games::registry();
    let mut sliding = 0;
    for entry in registry.entries() {
        let game = entry.new_session(1).unwrap();
        let has_board = game.state_json().get("board").is_some();
        assert_eq!(
            tilebox_sliding::rules_of(entry).is_some(),
            has_board,
            "{}",
            entry.id()
        );
        sliding += usize::from(has_board);
    }
    assert!(sliding > 0);
}
