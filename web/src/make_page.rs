//! `tilebox-page <app.wasm> <folder>`: makes the page's folder from the app built for wasm32
//! (`tools/web/build.sh` runs it): the WebAssembly bound to JavaScript by wasm-bindgen's library
//! (the version in Cargo.lock, so it always matches the app's), `index.html`, and the same
//! WebAssembly as a script, for the page opened from the disk (file://), where a browser
//! refuses to fetch it. On wasm32 it is not built.

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    use std::io::Write as _;
    let args: Vec<_> = std::env::args_os().skip(1).collect();
    let [wasm, folder] = args.as_slice() else {
        let _ = writeln!(std::io::stderr(), "usage: tilebox-page <app.wasm> <folder>");
        return std::process::ExitCode::from(2);
    };
    match make(wasm.as_ref(), folder.as_ref()) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "tilebox-page: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}

/// The page: `index.html` beside it all.
#[cfg(not(target_arch = "wasm32"))]
const INDEX: &str = include_str!("../index.html");

/// The name the generated files start with.
#[cfg(not(target_arch = "wasm32"))]
const STEM: &str = "tilebox_web";

#[cfg(not(target_arch = "wasm32"))]
fn make(wasm: &std::path::Path, folder: &std::path::Path) -> anyhow::Result<()> {
    use anyhow::Context as _;
    use base64::Engine as _;
    std::fs::create_dir_all(folder).with_context(|| format!("{}", folder.display()))?;
    wasm_bindgen_cli_support::Bindgen::new()
        .input_path(wasm)
        .out_name(STEM)
        .no_modules(true)?
        .typescript(false)
        .generate(folder)
        .with_context(|| format!("binding {}", wasm.display()))?;
    let bound = folder.join(format!("{STEM}_bg.wasm"));
    let bytes = std::fs::read(&bound).with_context(|| format!("{}", bound.display()))?;
    let script = format!(
        "window.TILEBOX_WASM = \"{}\";\n",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    );
    let inline = folder.join(format!("{STEM}_bg.wasm.js"));
    std::fs::write(&inline, script).with_context(|| format!("{}", inline.display()))?;
    let index = folder.join("index.html");
    std::fs::write(&index, INDEX).with_context(|| format!("{}", index.display()))?;
    Ok(())
}
