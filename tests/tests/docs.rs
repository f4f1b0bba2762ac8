//! The manual: the README is a front page and the manual is in `docs/`, so every link between
//! them must lead somewhere. A link to a file must name one that is there, and a link to a
//! heading (`app.md#statistics-and-replays`) must name a heading of that file.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The pages of the manual: the README and every Markdown file of `docs/`.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md")];
    for entry in std::fs::read_dir(root().join("docs")).expect("docs/") {
        let path = entry.expect("an entry of docs/").path();
        if path.extension().is_some_and(|e| e == "md") {
            pages.push(path);
        }
    }
    pages.sort();
    pages
}

/// The targets of a page's Markdown links `[text](target)`, but for web addresses.
fn links(text: &str) -> Vec<String> {
    text.split("](")
        .skip(1)
        .filter_map(|rest| rest.split_once(')').map(|(target, _)| target.to_string()))
        .filter(|target| !target.starts_with("http"))
        .collect()
}

/// A heading's anchor as GitHub makes it: lower case, spaces to dashes, only letters, digits,
/// dashes and underscores kept.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(text: &str) -> Vec<String> {
    text.lines()
        .filter(|line| line.starts_with('#'))
        .map(|line| anchor(line.trim_start_matches('#')))
        .collect()
}

#[test]
fn every_link_of_the_manual_leads_somewhere() {
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("a page of the manual");
        let folder = page.parent().expect("a page's folder");
        for target in links(&text) {
            let (file, heading) = target.split_once('#').unwrap_or((&target, ""));
            let file = if file.is_empty() {
                page.clone()
            } else {
                folder.join(file)
            };
            assert!(
                file.exists(),
                "{}: the link {target} leads nowhere",
                page.display()
            );
            if !heading.is_empty() {
                let there = std::fs::read_to_string(&file).expect("the page linked");
                assert!(
                    anchors(&there).iter().any(|a| a == heading),
                    "{}: {target}: no such heading",
                    page.display()
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked} links found");
}

#[test]
fn the_readme_is_a_front_page_with_the_set_up_and_the_way_on() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    assert!(
        readme.lines().count() <= 150,
        "the README is a manual again"
    );
    for needed in [
        "cargo run --release",
        "cargo test --workspace",
        "docs/app.md",
        "docs/cli.md",
        "docs/data.md",
        "docs/own-variants.md",
        "docs/compendium.md",
        "docs/learning.md",
        "docs/speed.md",
    ] {
        assert!(readme.contains(needed), "the README does not name {needed}");
    }
}

#[test]
fn anchors_are_made_as_github_makes_them() {
    assert_eq!(anchor(" Statistics and replays"), "statistics-and-replays");
    assert_eq!(anchor("The app: `tilebox`"), "the-app-tilebox");
}
