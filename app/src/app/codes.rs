//! Game codes played ("Play a code"), and a code's game whose rules no game here has added to
//! the player's own.

use tilebox_core::{CodeError, GameCode, daily_seed};

use crate::screens::Screen;
use crate::screens::codes;
use crate::screens::dialogs::Dialog;
use crate::slot::{GameSlot, Start};

use super::TileboxApp;

impl TileboxApp {
    /// Plays the game of the code `text`: opens its game and starts it there (after the new-game
    /// question if a game of it is in progress). A code of today's daily game of the game it lands
    /// in (its seed that game's [`daily_seed`], however the code names the game) starts it as the
    /// daily game. A code that carries rules of its own (made with `tilebox-cli code --params`)
    /// plays in the game whose rules they are, a board or a combination of options, so that its
    /// scores and history go there and never to the entry it names. Sliding rules that no game here
    /// has open the offer to add them as a game of the player's own ([`Dialog::AddGame`]); other
    /// rules no game has are refused, as nothing could count the game honestly. Nothing starts when
    /// the code is refused.
    pub(super) fn play_code(&mut self, text: &str) -> Result<(), String> {
        let code: GameCode = text.parse().map_err(|e: CodeError| e.to_string())?;
        let unknown = || CodeError::UnknownGame(code.entry.clone()).to_string();
        let named = self.index_of(&code.entry).ok_or_else(unknown)?;
        let named_entry = &self.slots.get(named).ok_or_else(unknown)?.entry;
        // The parameters are checked before anything changes.
        let session = code.start(named_entry).map_err(|e| e.to_string())?;
        let index = match &code.params {
            None => named,
            Some(_) => {
                let (kind, params) = (named_entry.kind_type(), session.params_json());
                let rules = named_entry.rules_json(&params);
                let alike: Vec<usize> = (0..self.slots.len())
                    .filter(|&i| {
                        self.slots.get(i).is_some_and(|s| {
                            s.entry.kind_type() == kind
                                && s.entry.rules_json(&s.entry.params_json()) == rules
                        })
                    })
                    .collect();
                // A player's own game whose codes name the code's game first: the code of a
                // variant of one's own comes back to it, even where a built-in has its rules.
                let own = alike.iter().copied().find(|&i| {
                    self.slots.get(i).is_some_and(|s| {
                        self.registry
                            .code_base(s.id())
                            .is_some_and(|base| base.id() == code.entry)
                    })
                });
                let same = own.or_else(|| alike.first().copied());
                match same {
                    Some(index) => index,
                    None => {
                        // Not an id a game has, nor one whose file name a file in variants/ has.
                        let taken = |id: &str| {
                            self.registry.entry_or_combination(id).is_some()
                                || self.variant_files.contains(&format!("{id}.json"))
                        };
                        let game = crate::store::variants::code_game(named_entry, &params, taken)
                            .ok_or_else(|| {
                            "this code has rules of its own that none of the games here \
                                 has (tilebox-cli new --code plays it)"
                                .to_string()
                        })?;
                        self.dialog = Some(Dialog::AddGame {
                            game: Box::new(game),
                            seed: code.seed,
                        });
                        return Ok(());
                    }
                }
            }
        };
        // Today's daily game of the game the code lands in, whichever way the code names it
        // (a player's own variant's daily code names its built-in, with the rules that differ).
        let today = codes::today();
        let daily = self
            .slots
            .get(index)
            .is_some_and(|slot| code.seed == daily_seed(slot.id(), today))
            .then_some(today);
        self.go(Screen::Game(index));
        self.ask_start(Start {
            index,
            seed: code.seed,
            daily,
        });
        Ok(())
    }

    /// Adds the game the "Add this game?" dialog offers, `game`, to the catalogue and to the
    /// player's `variants/` folder (a new file, never written over: a write that fails is said
    /// like any other, and the game is played all the same), then plays its code's game, seed
    /// `seed`, there.
    pub(super) fn add_code_game(&mut self, game: crate::store::variants::CodeGame, seed: u64) {
        let crate::store::variants::CodeGame {
            variant,
            based_on,
            named,
            info,
            file,
        } = game;
        let id = info.id.clone();
        let title = info.title.clone();
        let bytes = crate::store::variants::variant_file_text(&variant, based_on.as_deref());
        if let Err(e) = self
            .registry
            .add_preset::<tilebox_sliding::Sliding>(info, variant)
        {
            self.notify(format!("The game could not be added: {e}."));
            return;
        }
        // Its codes name what the code named, or what that game's codes name.
        let base = self
            .registry
            .code_base(&named)
            .map_or(named, |b| b.id().to_string());
        self.registry.set_code_base(&id, &base);
        let Some(entry) = self.registry.get(&id).cloned() else {
            return;
        };
        self.store
            .create_file(&file, &format!("the rules of {title}"), bytes);
        if let Some(name) = file.rsplit('/').next() {
            self.variant_files.insert(name.to_string());
        }
        self.slots.push(GameSlot::resumed(entry, None));
        self.groups = crate::slot::groups(&self.registry, &self.slots);
        let index = self.slots.len() - 1;
        self.go(Screen::Game(index));
        self.ask_start(Start {
            index,
            seed,
            daily: None,
        });
    }

    /// Tells the app the names of the files in the player's `variants/` folder, as read at
    /// start ([`crate::store::variants::file_names`]).
    pub(crate) fn know_variant_files(&mut self, names: std::collections::BTreeSet<String>) {
        self.variant_files = names;
    }
}
