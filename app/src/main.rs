//! `tilebox [game-id]`: the Tilebox desktop app. `tilebox --version` prints its version,
//! `tilebox --help` the usage and the game ids.

use std::io::Write;
use std::process::ExitCode;

use tilebox::store::storage::Storage;
use tilebox::store::writer::Writer;

fn main() -> ExitCode {
    // The catalogue with the player's variant files (`<data dir>/variants`), so that `tilebox
    // <id>` opens one of them too; each file refused is a notice in the launcher.
    let variants_home =
        tilebox::default_data_dir().unwrap_or_else(|| std::env::temp_dir().join("tilebox"));
    let (registry, refused, players) = tilebox::store::variants::player_registry(&variants_home);
    // Not freed entry by entry when the process ends without a window (`--version`, `--help`, a
    // bad argument): the memory goes with the process. The window's app takes it over.
    let registry = std::mem::ManuallyDrop::new(registry);
    let games = || registry.ids().join(", ");
    let args: Vec<_> = std::env::args_os().skip(1).collect();
    let game = match args.as_slice() {
        [] => None,
        [arg] => match arg.to_str() {
            Some("-h" | "--help") => {
                let _ = writeln!(
                    std::io::stdout(),
                    "usage: tilebox [game-id]\n       tilebox --version\ngames: {}",
                    games()
                );
                return ExitCode::SUCCESS;
            }
            Some("-V" | "--version") => {
                let _ = writeln!(std::io::stdout(), "tilebox {}", env!("CARGO_PKG_VERSION"));
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
                    "unknown game '{}'; the games are: {}",
                    shown.escape_debug(),
                    games()
                ));
            }
        },
        _ => {
            return usage_error(&format!(
                "expected one game id at most; the games are: {}",
                games()
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
    let (lock, storage) = match tilebox::store::lock::DataDirLock::acquire(&data_dir) {
        Ok(lock) => (Some(lock), Storage::new(&data_dir)),
        Err(tilebox::store::lock::LockError::Held(dir)) => return already_running(dir),
        // Said once in the launcher; nothing is read or written there.
        Err(e @ tilebox::store::lock::LockError::Unusable(_)) => {
            (None, Storage::unusable(&data_dir, e.to_string()))
        }
    };
    let writer = Writer::start(storage);
    let app_writer = writer.clone();
    // A built-in's file is read when something first needs it (a start reads 2048's alone):
    // read the others now, on a thread of their own, so that the window never waits for one
    // (the Compendium's catalogue shows a sample board of each of its 63 modes at once).
    let _ = std::thread::Builder::new()
        .name("built-ins".into())
        .spawn(|| {
            for builtin in tilebox_sliding::builtins() {
                builtin.variant();
            }
        });
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Tilebox")
            .with_app_id("tilebox")
            .with_inner_size([600.0, 760.0])
            .with_min_inner_size([360.0, 480.0]),
        // The app's colours are flat: nothing to dither, and without a GPU the noise added to
        // each pixel cost a third of a frame's time (docs/speed.md).
        dithering: false,
        ..Default::default()
    };
    let result = eframe::run_native(
        "Tilebox",
        options,
        Box::new(move |_cc| {
            let registry = std::mem::ManuallyDrop::into_inner(registry);
            let mut app = tilebox::TileboxApp::with_writer(registry, app_writer, game.as_deref());
            app.share_players(players);
            app.log_frame_times(tilebox::work::frame_times::FrameTimes::from_env());
            if let Some(text) = fallback {
                app.notify(text);
            }
            for notice in refused {
                app.notify(notice);
            }
            Ok(Box::new(app))
        }),
    );
    // The window waited for pending writes when it was closed; what is still not written
    // after one more bounded wait is said here, as the window is gone.
    // Quit without them: at once, since the writer thread may be stuck in the kernel.
    writer.flush(tilebox::app::QUIT_WAIT);
    let unsaved = writer.unsaved();
    if !unsaved.is_empty() {
        let _ = writeln!(
            std::io::stderr(),
            "tilebox: could not be saved before quitting (the disk did not answer, or is full): \
             {}",
            unsaved.join(", ")
        );
    }
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
    let window = tilebox::ui::refusal::AlreadyRunning::new(&dir);
    let _ = writeln!(
        std::io::stderr(),
        "tilebox: {}",
        window.text().replace("\n\n", " ")
    );
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Tilebox is already running")
            .with_app_id("tilebox")
            .with_inner_size(tilebox::ui::refusal::WINDOW_SIZE)
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
