//! Reads the names every built-in variant file gives (`variants/*.json`: its id, and its title,
//! description and `based_on` where it gives them) when the crate is built, into a table the
//! crate includes (`src/builtin.rs`, `HEADERS`): a start lists the built-ins from it, and reads
//! a built-in's file only when a game needs its rules. A file that is not a JSON object with a
//! string id stops the build, naming the file.

use std::error::Error;
use std::fmt::Write;
use std::path::Path;

use serde_json::Value;

fn main() -> Result<(), Box<dyn Error>> {
    println!("cargo::rerun-if-changed=variants");
    let mut files: Vec<_> = std::fs::read_dir("variants")?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut table = String::from("&[\n");
    for path in &files {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .ok_or_else(|| format!("{}: a name that is not UTF-8", path.display()))?;
        let file: Value = serde_json::from_str(&std::fs::read_to_string(path)?)
            .map_err(|e| format!("variants/{name}: {e}"))?;
        let field = |key: &str| file.get(key).and_then(Value::as_str);
        let id = field("id").ok_or_else(|| format!("variants/{name}: no id"))?;
        writeln!(
            table,
            "    ({name:?}, Header {{ id: {id:?}, title: {:?}, description: {:?}, based_on: {:?} }}),",
            field("title"),
            field("description"),
            field("based_on"),
        )?;
    }
    table.push(']');
    let out = std::env::var("OUT_DIR")?;
    std::fs::write(Path::new(&out).join("headers.rs"), table)?;
    Ok(())
}
