//! `tilebox [game-id]`: the Tilebox desktop app.

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let registry = tilebox_games::registry();
    let games = registry.ids().join(", ");
    let args: Vec<_> = std::env::args_os().skip(1).collect();
    let game = match args.as_slice() {
        [] => None,
        [arg] => match arg.to_str() {
            Some("-h" | "--help") => {
                let _ = writeln!(
                    std::io::stdout(),
                    "usage: tilebox [game-id]\ngames: {games}"
                );
                return ExitCode::SUCCESS;
            }
            // A named game, or a combination of options the launcher offers.
            Some(id)
                if registry.get(id).is_some()
                    || registry.combinations().iter().any(|e| e.id() == id) =>
            {
                Some(id.to_string())
            }
            _ => {
                let shown = arg.to_string_lossy();
                return usage_error(&format!(
                    "unknown game '{}'; the games are: {games}",
                    shown.escape_debug()
                ));
            }
        },
        _ => {
            return usage_error(&format!(
                "expected one game id at most; the games are: {games}"
            ));
        }
    };

    let (data_dir, fallback) = match tilebox::default_data_dir() {
        Some(dir) => (dir, None),
        None => {
            let dir = std::env::temp_dir().join("tilebox");
            let text = format!(
                "This system names no data directory, so scores and games are kept in {}, \
                 which it may clear.",
                dir.display()
            );
            (dir, Some(text))
        }
    };
    // One writer per data directory: a second copy says so and writes nothing.
    let (lock, unusable) = match tilebox::lock::DataDirLock::acquire(&data_dir) {
        Ok(lock) => (Some(lock), None),
        Err(tilebox::lock::LockError::Held(dir)) => return already_running(dir),
        Err(e @ tilebox::lock::LockError::Unusable(_)) => (None, Some(e.to_string())),
    };
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Tilebox")
            .with_app_id("tilebox")
            .with_inner_size([600.0, 760.0])
            .with_min_inner_size([380.0, 480.0]),
        ..Default::default()
    };
    let result = eframe::run_native(
        "Tilebox",
        options,
        Box::new(move |_cc| {
            let mut app = tilebox::TileboxApp::new(data_dir, game.as_deref());
            if let Some(text) = fallback {
                app.notify(text);
            }
            if let Some(text) = unusable {
                app.notify(text);
            }
            Ok(Box::new(app))
        }),
    );
    drop(lock);
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "tilebox: cannot open the window: {e}");
            ExitCode::FAILURE
        }
    }
}

/// A second copy on a data directory another copy holds: a small window says so, and closing
/// it exits with status 0. Nothing is read or written.
fn already_running(dir: std::path::PathBuf) -> ExitCode {
    let window = tilebox::refusal::AlreadyRunning::new(&dir);
    let _ = writeln!(
        std::io::stderr(),
        "tilebox: {}",
        window.text().replace("\n\n", " ")
    );
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Tilebox is already running")
            .with_app_id("tilebox")
            .with_inner_size([460.0, 190.0])
            .with_resizable(false),
        ..Default::default()
    };
    match eframe::run_native(
        "Tilebox is already running",
        options,
        Box::new(move |_cc| Ok(Box::new(window))),
    ) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "tilebox: cannot open the window: {e}");
            ExitCode::FAILURE
        }
    }
}

/// A bad argument: one line on stderr, status 2.
fn usage_error(text: &str) -> ExitCode {
    let _ = writeln!(std::io::stderr(), "tilebox: {text}");
    ExitCode::from(2)
}
