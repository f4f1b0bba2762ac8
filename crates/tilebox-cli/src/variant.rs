//! `tilebox-cli variant show <id>` and `tilebox-cli variant check <file>`: a sliding variant's
//! complete description, and a variant file checked as the loader checks a player's files.
//!
//! The binary's registry is [`registry_with_variants`] over the player's folder
//! ([`variants_dir`]), so both commands see the player's variants as well as the built-ins.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Subcommand;
use tilebox_ai::ntuple::players::Players;
use tilebox_core::Registry;
use tilebox_sliding::{Refusal, Sliding, Variant, VariantError, check_file_with_id};

use crate::error::{CliError, VariantCliError};

/// The player's variants folder below the data directory: `<data dir>/tilebox/variants`.
pub const VARIANTS_FOLDER: &str = "variants";

/// `variant`'s own commands.
#[derive(Debug, Subcommand)]
pub enum VariantCommand {
    /// Print a sliding variant's complete description as one line of JSON: every field, with
    /// `based_on` resolved (what `variant check` accepts).
    Show {
        /// Id of a sliding variant, built in or the player's (see `list`).
        id: String,
    },
    /// Check a variant file as the loader checks a player's files: print its id, or exit with
    /// status 2 and the one-line refusal naming the file and the field. An id that is taken is
    /// accepted only when the file describes exactly the variant registered under it.
    Check {
        /// The file to check.
        file: PathBuf,
    },
}

/// The player's variants folder in the data directory `data_dir` (`dirs::data_dir()`, as the
/// app's): `<data dir>/tilebox/variants`.
pub fn variants_dir(data_dir: &Path) -> PathBuf {
    data_dir.join("tilebox").join(VARIANTS_FOLDER)
}

/// The registry of the binary: the catalogue with the player's variants of the app's data
/// directory (`dirs::data_dir()`, or the temporary directory on a system that names none, as
/// the app does), its sliding players using the networks trained in its `players` folder
/// (`train`), and the variant files refused.
pub fn player_registry() -> (Registry, Vec<Refusal>) {
    let data_dir = data_dir();
    let players = Players::new(&Players::dir_of(&data_dir));
    tilebox_games::registry_with_players(&variants_dir(&data_dir), Arc::new(players))
}

/// The data directory, the app's: `dirs::data_dir()`, or the temporary directory on a system
/// that names none.
pub fn data_dir() -> PathBuf {
    dirs::data_dir().unwrap_or_else(std::env::temp_dir)
}

/// The sliding variants of `registry`, in its order.
fn sliding_variants(registry: &Registry) -> Vec<&Variant> {
    registry
        .entries()
        .iter()
        .filter_map(|e| e.params::<Sliding>())
        .collect()
}

/// The ids of the sliding entries of `registry`, comma-separated, known without reading a
/// built-in's file.
fn known(registry: &Registry) -> String {
    registry
        .entries()
        .iter()
        .filter(|e| e.is::<Sliding>())
        .map(|e| e.id())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Runs `variant show` or `variant check` on the games of `registry`.
pub fn run(
    registry: &Registry,
    command: VariantCommand,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    match command {
        VariantCommand::Show { id } => {
            let variant = show(registry, &id)?;
            writeln!(out, "{}", variant.to_json())?;
        }
        VariantCommand::Check { file } => {
            let variant = check(registry, &file)?;
            writeln!(out, "{}", variant.id)?;
        }
    }
    Ok(())
}

/// The variant of the entry `id`, refused unless it is a sliding one.
fn show<'r>(registry: &'r Registry, id: &str) -> Result<&'r Variant, VariantCliError> {
    let entry = registry.get(id).ok_or_else(|| VariantCliError::Unknown {
        id: id.to_string(),
        known: known(registry),
    })?;
    entry
        .params::<Sliding>()
        .ok_or_else(|| VariantCliError::NotSliding {
            id: id.to_string(),
            known: known(registry),
        })
}

/// Checks the file at `path` as the loader would: its `based_on` may name any sliding variant
/// of `registry`. Its id may be one that is taken only when the file resolves to exactly the
/// variant registered under it (so what `variant show` prints checks); otherwise a taken id is
/// refused first, as the loader refuses it, whatever else the file holds.
pub fn check(registry: &Registry, path: &Path) -> Result<Variant, VariantCliError> {
    let registered: Vec<Variant> = sliding_variants(registry).into_iter().cloned().collect();
    // Read once: the id comes with the check (a pipe, `/dev/stdin`, cannot be read again).
    let (id_given, checked) = check_file_with_id(path, &registered);
    if let Ok(v) = &checked
        && registered.contains(v)
    {
        return checked.map_err(VariantCliError::Refused);
    }
    let id = match &checked {
        Ok(v) => Some(v.id.clone()),
        Err(_) => id_given,
    };
    match id {
        Some(id) if registered.iter().any(|v| v.id == id) => {
            let file = path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            Err(VariantCliError::Refused(Refusal {
                file,
                error: VariantError::field(
                    "id",
                    format!(
                        "{} is taken (the file is not that variant: `tilebox-cli variant show {id}` prints it)",
                        tilebox_core::json_words::quote(&id)
                    ),
                ),
            }))
        }
        _ => checked.map_err(VariantCliError::Refused),
    }
}
