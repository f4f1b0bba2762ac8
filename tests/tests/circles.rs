//! No import circles: in each crate, the modules under one parent (the crate's top-level modules,
//! the submodules of `ntuple`, …) use each other one way only.
//!
//! Module `a` uses its sibling `b` when `a`'s code (its file or folder, without `#[cfg(test)]`
//! items, so without its test modules and `tests.rs`) names `b`: `crate::b::…`, `super::b::…`,
//! `b` in a `use` tree (`use crate::{b, …}`, `use super::{…}`), or a name that another module
//! imports from `b` (a re-export such as `crate::Variant` is `variant`'s). A circle fails its
//! crate's test, which names the modules in it and the uses that make it.
//!
//! The source is read as text: comments and literals are skipped and paths found in the tokens
//! that are left, which is all the crates' plain style of `mod` and `use` needs.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

#[test]
fn tilebox_core() {
    no_circles("crates/tilebox-core");
}

#[test]
fn tilebox_sliding() {
    no_circles("crates/tilebox-sliding");
}

#[test]
fn tilebox_strike9() {
    no_circles("crates/tilebox-strike9");
}

#[test]
fn tilebox_ai() {
    no_circles("crates/tilebox-ai");
}

#[test]
fn tilebox_games() {
    no_circles("crates/tilebox-games");
}

#[test]
fn tilebox_cli() {
    no_circles("crates/tilebox-cli");
}

#[test]
fn app() {
    no_circles("app");
}

/// The app's layers, top first (ARCHITECTURE.md, "The app's layers"): each module of the crate
/// root uses only those below it.
const APP_LAYERS: [&str; 9] = [
    "web",
    "app",
    "screens",
    "work",
    "slot",
    "views",
    "ui",
    "store",
    "work_mode",
];

#[test]
fn the_apps_layers_use_only_the_layers_below_them() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../app/src");
    let mut tree = Tree::default();
    let lib = src.join("lib.rs");
    tree.add(Vec::new(), &lib, src.clone(), &read(&lib));
    let uses = tree.uses(&src);
    let top = uses
        .get(&Vec::new())
        .expect("the crate root's modules use each other");
    let place = |m: &str| APP_LAYERS.iter().position(|l| *l == m);
    let mut wrong = Vec::new();
    for module in tree.modules.keys().filter(|m| m.len() == 1) {
        if place(&module[0]).is_none() {
            wrong.push(format!("{} is in no layer of APP_LAYERS", module[0]));
        }
    }
    for (user, row) in top {
        for (used, written) in row {
            if let (Some(u), Some(d)) = (place(user), place(used))
                && d <= u
            {
                wrong.push(format!("{user} uses {used}, a layer above it ({written})"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The test sees the uses that hold the layers together.
    assert!(top["app"].contains_key("screens") && top["store"].contains_key("work_mode"));
}

#[test]
fn the_scan_sees_every_kind_of_use_and_skips_tests_comments_and_literals() {
    let text = r##"
        //! crate::doc
        use crate::{a::{self, X}, b as bee};
        use super::c::*;
        mod inline { pub fn f() { crate::d::g(); } }
        /* crate::comment /* nested */ */
        fn f() -> char { let _ = "crate::string"; let _ = r#"crate::raw"#; '"' }
        fn g<'a>(x: &'a u8) { super::super::e::h(); }
        #[cfg(test)]
        mod tests { use crate::t; }
        #[cfg(test)]
        use crate::t2;
    "##;
    let mut tree = Tree::default();
    tree.add(
        vec!["m".into()],
        Path::new("m.rs"),
        PathBuf::new(),
        &tokens(text),
    );
    let m = &tree.modules[&vec!["m".to_string()]];
    let named: Vec<String> = m.paths.iter().map(|(path, _)| path.join("::")).collect();
    assert_eq!(
        named,
        [
            "crate::a",
            "crate::a::X",
            "crate::b",
            "super::c",
            "super::super::e::h"
        ]
    );
    let inline = &tree.modules[&vec!["m".to_string(), "inline".to_string()]];
    assert_eq!(inline.paths[0].0.join("::"), "crate::d::g");
}

/// A module path from the crate root: `[]` is the root, `["ntuple", "run"]` is `ntuple::run`.
type ModPath = Vec<String>;

/// Parent → user → used → where it is used.
type Uses = BTreeMap<ModPath, BTreeMap<String, BTreeMap<String, String>>>;

/// A module's own code: the paths it names from inside the crate, as written, each with the name
/// a `use` binds to it, if any.
struct Module {
    file: PathBuf,
    paths: Vec<(Vec<String>, Option<String>)>,
}

/// Every module of a crate reached from its root through `mod` items outside tests.
#[derive(Default)]
struct Tree {
    modules: BTreeMap<ModPath, Module>,
}

fn no_circles(crate_dir: &str) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(crate_dir)
        .join("src");
    let mut found = Vec::new();
    let mut roots = 0;
    for root in ["lib.rs", "main.rs"] {
        let file = src.join(root);
        if file.exists() {
            roots += 1;
            let mut tree = Tree::default();
            tree.add(Vec::new(), &file, src.clone(), &read(&file));
            // A library has modules: none found would be the scan failing, not a clean crate.
            assert!(
                root == "main.rs" || tree.modules.len() > 2,
                "{crate_dir}: only {} modules found",
                tree.modules.len()
            );
            found.extend(tree.circles(&src));
        }
    }
    assert!(roots > 0, "{crate_dir}: no lib.rs or main.rs");
    assert!(
        found.is_empty(),
        "{crate_dir}: modules use each other in a circle:\n{}",
        found.join("\n")
    );
}

fn read(file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    tokens(&text)
}

impl Tree {
    /// Adds the module at `path`, whose code is `tokens` (from `file`) and whose submodules'
    /// files are in `dir`, and its submodules.
    fn add(&mut self, path: ModPath, file: &Path, dir: PathBuf, tokens: &[String]) {
        let tokens = without_tests(tokens);
        let mut own = Vec::new();
        let mut i = 0;
        while i < tokens.len() {
            if tokens[i] == "mod" && is_ident(at(&tokens, i + 1)) {
                let name = tokens[i + 1].clone();
                let child_path = [path.clone(), vec![name.clone()]].concat();
                let child_dir = dir.join(&name);
                if at(&tokens, i + 2) == "{" {
                    let end = closing(&tokens, i + 2);
                    self.add(child_path, file, child_dir, &tokens[i + 3..end]);
                    i = end + 1;
                } else {
                    let flat = dir.join(format!("{name}.rs"));
                    let child_file = if flat.exists() {
                        flat
                    } else {
                        child_dir.join("mod.rs")
                    };
                    self.add(child_path, &child_file, child_dir, &read(&child_file));
                    i += 2;
                }
            } else {
                own.push(tokens[i].clone());
                i += 1;
            }
        }
        let module = Module {
            file: file.to_path_buf(),
            paths: paths(&own),
        };
        self.modules.insert(path, module);
    }

    /// `path`, named in the module at `at`, from the crate root; `None` outside the crate.
    fn absolute(&self, at: &ModPath, path: &[String]) -> Option<ModPath> {
        let mut base = at.clone();
        let mut rest = path;
        match rest.first()?.as_str() {
            "crate" => {
                base.clear();
                rest = &rest[1..];
            }
            "self" => rest = &rest[1..],
            "super" => {
                while rest.first().is_some_and(|s| s == "super") {
                    base.pop()?;
                    rest = &rest[1..];
                }
            }
            // A path in a `use` that starts with a submodule's name; any other is another
            // crate's (`std::…`).
            first => {
                let child = [at.clone(), vec![first.to_string()]].concat();
                if !self.modules.contains_key(&child) {
                    return None;
                }
            }
        }
        Some([base, rest.to_vec()].concat())
    }

    /// Who uses whom among the siblings under each parent: parent → user → used → where it is
    /// used (the file and the path as written).
    fn uses(&self, src: &Path) -> Uses {
        // The names each `use` binds, from the crate root (`["Variant"]` is
        // `["variant", "Variant"]`).
        let mut aliases = BTreeMap::new();
        for (at, module) in &self.modules {
            for (path, bound) in &module.paths {
                if let (Some(name), Some(target)) = (bound, self.absolute(at, path)) {
                    aliases.insert([at.clone(), vec![name.clone()]].concat(), target);
                }
            }
        }
        let mut uses = Uses::new();
        for (at, module) in &self.modules {
            for (path, _) in &module.paths {
                let Some(mut target) = self.absolute(at, path) else {
                    continue;
                };
                // The path itself, then through each re-export it goes by: every hop is a use.
                for _ in 0..8 {
                    if let Some((parent, user, used)) = self.sibling_use(at, &target) {
                        let file = module.file.strip_prefix(src).unwrap_or(&module.file);
                        let written = format!("{}: {}", file.display(), path.join("::"));
                        let row = uses.entry(parent).or_default().entry(user).or_default();
                        row.entry(used).or_insert(written);
                    }
                    let Some(hop) = (1..=target.len()).find(|&n| {
                        !self.modules.contains_key(&target[..n])
                            && aliases.contains_key(&target[..n])
                    }) else {
                        break;
                    };
                    target = [aliases[&target[..hop]].clone(), target[hop..].to_vec()].concat();
                }
            }
        }
        uses
    }

    /// The circles among the siblings under each parent, one line each with its uses.
    fn circles(&self, src: &Path) -> Vec<String> {
        let mut found = Vec::new();
        for (parent, graph) in &self.uses(src) {
            let reach = |from: &str| {
                let mut seen = BTreeSet::new();
                let mut todo = vec![from.to_string()];
                while let Some(m) = todo.pop() {
                    for next in graph.get(&m).into_iter().flat_map(|row| row.keys()) {
                        if seen.insert(next.clone()) {
                            todo.push(next.clone());
                        }
                    }
                }
                seen
            };
            let mut placed = BTreeSet::new();
            for start in graph.keys() {
                let from_start = reach(start);
                if !from_start.contains(start) || placed.contains(start) {
                    continue;
                }
                let circle: BTreeSet<String> = from_start
                    .into_iter()
                    .filter(|m| reach(m).contains(start))
                    .collect();
                let under = if parent.is_empty() {
                    "the crate root".to_string()
                } else {
                    parent.join("::")
                };
                let mut line = format!("under {under}: {{{}}}", join(&circle));
                for user in &circle {
                    for (used, written) in &graph[user] {
                        if circle.contains(used) {
                            line += &format!("\n    {user} uses {used} ({written})");
                        }
                    }
                }
                found.push(line);
                placed.extend(circle);
            }
        }
        found
    }

    /// Where code in module `from` naming `to` is a use of one sibling by another: their parent,
    /// the user and the used.
    fn sibling_use(&self, from: &ModPath, to: &ModPath) -> Option<(ModPath, String, String)> {
        let common = from.iter().zip(to).take_while(|(a, b)| a == b).count();
        let (user, used) = (from.get(common)?, to.get(common)?);
        let parent = from[..common].to_vec();
        let sibling = [parent.clone(), vec![used.clone()]].concat();
        self.modules
            .contains_key(&sibling)
            .then(|| (parent, user.clone(), used.clone()))
    }
}

fn join(names: &BTreeSet<String>) -> String {
    names.iter().cloned().collect::<Vec<_>>().join(", ")
}

fn at(tokens: &[String], i: usize) -> &str {
    tokens.get(i).map_or("", String::as_str)
}

fn is_ident(token: &str) -> bool {
    token
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// The index of the bracket that closes the one at `open`.
fn closing(tokens: &[String], open: usize) -> usize {
    let mut depth = 0;
    for (i, token) in tokens.iter().enumerate().skip(open) {
        match token.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    tokens.len()
}

/// The tokens without the items under `#[cfg(test)]`: an item ends with its `;` or its block.
fn without_tests(tokens: &[String]) -> Vec<String> {
    const CFG_TEST: [&str; 7] = ["#", "[", "cfg", "(", "test", ")", "]"];
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if !CFG_TEST
            .iter()
            .enumerate()
            .all(|(k, t)| at(tokens, i + k) == *t)
        {
            out.push(tokens[i].clone());
            i += 1;
            continue;
        }
        i += CFG_TEST.len();
        let mut depth = 0;
        while let Some(token) = tokens.get(i) {
            i += 1;
            match token.as_str() {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" => depth -= 1,
                // The end of the block the item is in, not of the item.
                "}" if depth == 0 => {
                    i -= 1;
                    break;
                }
                "}" => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                ";" if depth == 0 => break,
                _ => {}
            }
        }
    }
    out
}

/// The paths code names from inside the crate: each `use` tree's paths, with the names they
/// bind, and the paths that start with `crate`, `super` or `self` elsewhere.
fn paths(tokens: &[String]) -> Vec<(Vec<String>, Option<String>)> {
    let mut found = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let anchored = matches!(tokens[i].as_str(), "crate" | "super" | "self")
            && at(tokens, i + 1) == "::"
            && (i == 0 || tokens[i - 1] != "::");
        if tokens[i] == "use" {
            i += 1;
            use_tree(tokens, &mut i, &[], &mut found);
        } else if anchored {
            let mut path = vec![tokens[i].clone()];
            while at(tokens, i + 1) == "::" && is_ident(at(tokens, i + 2)) {
                path.push(tokens[i + 2].clone());
                i += 2;
            }
            found.push((path, None));
            i += 1;
        } else {
            i += 1;
        }
    }
    found
}

/// Reads the use tree at `i` under `prefix`: `a::b`, `a::b as c`, `a::{b, c::*}`, `a::{self}`.
fn use_tree(
    tokens: &[String],
    i: &mut usize,
    prefix: &[String],
    found: &mut Vec<(Vec<String>, Option<String>)>,
) {
    let mut path = prefix.to_vec();
    if at(tokens, *i) == "::" {
        *i += 1;
    }
    while is_ident(at(tokens, *i)) && at(tokens, *i) != "as" {
        path.push(tokens[*i].clone());
        *i += 1;
        if at(tokens, *i) != "::" {
            break;
        }
        *i += 1;
    }
    match at(tokens, *i) {
        "{" => {
            *i += 1;
            while !matches!(at(tokens, *i), "}" | "") {
                let before = *i;
                use_tree(tokens, i, &path, found);
                if at(tokens, *i) == "," || *i == before {
                    *i += 1;
                }
            }
            *i += 1;
        }
        "*" => {
            found.push((path, None));
            *i += 1;
        }
        next => {
            if path.last().is_some_and(|s| s == "self") {
                path.pop();
            }
            let mut bound = path.last().cloned();
            if next == "as" {
                bound = Some(at(tokens, *i + 1).to_string()).filter(|name| name != "_");
                *i += 2;
            }
            if !path.is_empty() {
                found.push((path, bound));
            }
        }
    }
}

/// Rust source as tokens: words (names, keywords, numbers), `::` and single marks, without
/// whitespace, comments, string and character literals, and lifetimes.
fn tokens(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let c = |i: usize| chars.get(i).copied().unwrap_or('\0');
    let word_char = |ch: char| ch.is_alphanumeric() || ch == '_';
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let ch = chars[i];
        if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && c(i + 1) == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && c(i + 1) == '*' {
            let mut depth = 0;
            while i < chars.len() {
                if c(i) == '/' && c(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if c(i) == '*' && c(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if ch == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else if ch == '\'' {
            if c(i + 1) == '\\' {
                i += 3;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if c(i + 2) == '\'' {
                i += 3;
            } else {
                // A lifetime or a label.
                i += 1;
                while word_char(c(i)) {
                    i += 1;
                }
            }
        } else if word_char(ch) {
            let start = i;
            while word_char(c(i)) {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let hashes = (i..).take_while(|&k| c(k) == '#').count();
            if matches!(word.as_str(), "r" | "br" | "cr") && c(i + hashes) == '"' {
                // A raw string: it ends with a quote and as many hashes.
                i += hashes + 1;
                while i < chars.len() && !(chars[i] == '"' && (1..=hashes).all(|k| c(i + k) == '#'))
                {
                    i += 1;
                }
                i += hashes + 1;
            } else if matches!(word.as_str(), "b" | "c") && matches!(c(i), '"' | '\'') {
                // A byte or C string or byte: the literal is read next as any other.
            } else if word == "r" && hashes == 1 && word_char(c(i + 1)) {
                // A raw name, `r#type`: read next as a word.
                i += 1;
            } else {
                out.push(word);
            }
        } else if ch == ':' && c(i + 1) == ':' {
            out.push("::".to_string());
            i += 2;
        } else {
            out.push(ch.to_string());
            i += 1;
        }
    }
    out
}
