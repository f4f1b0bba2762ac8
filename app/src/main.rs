//! `tilebox [game-id]`: the Tilebox desktop app.

use std::process::ExitCode;

fn main() -> ExitCode {
    let registry = tilebox_games::registry();
    let game = std::env::args().nth(1);
    if let Some(arg) = game.as_deref() {
        if arg == "-h" || arg == "--help" {
            println!(
                "usage: tilebox [game-id]\ngames: {}",
                registry.ids().join(", ")
            );
            return ExitCode::SUCCESS;
        }
        if registry.get(arg).is_none() {
            eprintln!(
                "tilebox: unknown game '{arg}'; the games are: {}",
                registry.ids().join(", ")
            );
            return ExitCode::from(2);
        }
    }
    let data_dir = tilebox::default_data_dir().unwrap_or_else(|| {
        eprintln!(
            "tilebox: no data directory found; scores and games are kept in the temporary directory"
        );
        std::env::temp_dir().join("tilebox")
    });
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
            Ok(Box::new(tilebox::TileboxApp::with_registry(
                registry,
                data_dir,
                game.as_deref(),
            )))
        }),
    );
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tilebox: cannot open the window: {e}");
            ExitCode::FAILURE
        }
    }
}
