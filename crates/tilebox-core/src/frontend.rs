//! What a host needs of a game kind beyond its rules, written once per kind: the "How to play"
//! text, the colours of its tiles, why a game ended, test fixtures, and the assistant (hints,
//! autoplay, odds) if the kind has one. In the spirit of Simon Tatham's `struct game`: the hosts
//! (the app, the CLI) ask a game's [`crate::Entry`] for these and never look at its id.
//!
//! Nothing here draws. Colours are plain [`Rgb`] values for a front end to paint with; the
//! board view itself belongs to the host that draws it.

use std::time::Duration;

use thiserror::Error;

use crate::{Puzzle, Session};

/// A colour, as 8-bit red, green and blue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// The colour written as 0xRRGGBB.
    pub const fn hex(rgb: u32) -> Rgb {
        Rgb((rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8)
    }

    /// WCAG 2.1's relative luminance of the colour, 0 (black) to 1 (white).
    pub fn luminance(self) -> f64 {
        let channel = |v: u8| {
            let v = f64::from(v) / 255.0;
            if v <= 0.039_28 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * channel(self.0) + 0.7152 * channel(self.1) + 0.0722 * channel(self.2)
    }

    /// WCAG 2.1's contrast ratio of two colours, 1 to 21.
    pub fn contrast(self, other: Rgb) -> f64 {
        let (a, b) = (self.luminance(), other.luminance());
        (a.max(b) + 0.05) / (a.min(b) + 0.05)
    }
}

/// The colours of one tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TileColors {
    /// The tile's face.
    pub fill: Rgb,
    /// The number on it.
    pub text: Rgb,
    /// A stripe at the foot of the tile (Threes' cards), if the tile has one.
    pub accent: Option<Rgb>,
}

/// The colours of a board: its frame and its empty cells, in the light and the dark theme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BoardColors {
    /// The board behind the cells.
    pub frame: Rgb,
    /// An empty cell.
    pub empty: Rgb,
}

/// What a kind's assistant could not do.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum AssistError {
    /// The position is one the player cannot search (a tile too large for its board, say); the
    /// text says why, in a sentence.
    #[error("{0}")]
    CannotPlay(String),
    /// The position handed over belongs to another kind of game (a host's mistake).
    #[error("the position is of another game")]
    WrongGame,
}

/// A player that chooses moves in one kind of game. It may keep what it learns between
/// questions (the search tables of the sliding games' AI), so a host keeps one and asks it
/// again; it is `Send`, so it can live on a thread of its own.
pub trait Player<P: Puzzle>: Send {
    /// The best move in `state`, thinking for about `budget`: `Ok(None)` when the game has no
    /// move left, an error when this player cannot search the position.
    fn best_move(
        &mut self,
        state: &P::State,
        budget: Duration,
    ) -> Result<Option<P::Move>, AssistError>;

    /// Which evaluation its last move used, for a player that has more than one (the sliding
    /// games': `"network"`, a learned one, or `"heuristic"`); `None` by default, and before a
    /// first move.
    fn evaluation(&self) -> Option<&'static str> {
        None
    }

    /// What the player has to tell once, one line each: a file of its own it refused and why (the
    /// sliding games' network file), so that it plays as it can without it. Empty by default.
    fn warnings(&self) -> Vec<String> {
        Vec::new()
    }
}

/// Hints, autoplay and odds for one kind of game.
pub trait Assistant<P: Puzzle>: Send + Sync {
    /// Whether it plays games with these parameters (the sliding games' AI knows 4×4 boards
    /// only). A host offers hints and autoplay exactly for the entries it plays.
    fn plays(&self, params: &P::Params) -> bool {
        let _ = params;
        true
    }

    /// Whether it offers autoplay as well as hints. Strike 9's leaves every choice to the
    /// player.
    fn autoplays(&self) -> bool {
        true
    }

    /// A new player.
    fn player(&self) -> Box<dyn Player<P>>;

    /// Lines about the position, shown under the board: the odds with best play, what the
    /// last move gave up. Quick to work out (a host may call it every frame).
    fn commentary(&self, session: &Session<P>) -> Vec<String> {
        let _ = session;
        Vec::new()
    }
}

/// What playing a text on a new game must give, in a kind's [`Fixtures`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Accepted, with this many moves played.
    Played(usize),
    /// Refused at `position` (from 1), on the move written `text`, which cannot be read;
    /// `played` moves before it stay played.
    Unreadable {
        /// The position of the unreadable move.
        position: usize,
        /// The move as written.
        text: String,
        /// The moves played before it.
        played: usize,
    },
    /// The first move is read but the game refuses it with this message.
    Illegal(String),
}

impl Outcome {
    /// `text` as the only move, unreadable.
    pub fn unreadable(text: &str) -> Outcome {
        Outcome::Unreadable {
            position: 1,
            text: text.to_string(),
            played: 0,
        }
    }
}

/// Test fixtures that a kind supplies, which the shared tests run on every registered kind.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Fixtures {
    /// The seed of the standard game the nonsense is typed into.
    pub seed: u64,
    /// Texts that are not moves of this kind (as `play_text` reads them), each with what typing
    /// it into a new standard game from `seed` must give.
    pub nonsense: Vec<(String, Outcome)>,
    /// Parameters, as JSON, that the kind must accept.
    pub valid_params: Vec<serde_json::Value>,
    /// Parameters, as JSON, that the kind must refuse.
    pub invalid_params: Vec<serde_json::Value>,
}

/// One parameter a player may set in a host's menu (Strike 9's box, one-die rule, scoring): its
/// name, the field of the params' JSON object it sets, and its choices, each a label and the
/// field's value. The first choice is the standard game's.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamOption {
    /// What the menu is called ("Tiles").
    pub name: String,
    /// The field of the params' JSON object it sets (`"tiles"`).
    pub field: String,
    /// The choices: a label ("12") and the field's value (`12`).
    pub choices: Vec<(String, serde_json::Value)>,
}

/// What a host needs of a game kind beside its rules. Every method has a plain default, so a
/// new kind is playable (in the app's plain view) with [`PlainFrontEnd`] alone.
pub trait FrontEnd<P: Puzzle>: Send + Sync + 'static {
    /// How to play a game with these parameters, in a few sentences.
    fn how_to_play(&self, params: &P::Params) -> String {
        let _ = params;
        "Pick one of the moves listed under the board. The game's own rules decide the rest."
            .to_string()
    }

    /// What a tile worth `value` shows in games with these parameters: its number, or a label
    /// (a sliding variant's `-1` or `1+i`).
    fn tile_text(&self, params: &P::Params, value: u64) -> String {
        let _ = params;
        value.to_string()
    }

    /// The colours of a tile worth `value` in games with these parameters, for games with
    /// numbered tiles (a sliding variant's palette follows its ladder).
    fn tile_colors(&self, params: &P::Params, value: u64) -> TileColors {
        let _ = (params, value);
        TileColors {
            fill: Rgb::hex(0xeee4da),
            text: Rgb::hex(0x5b534b),
            accent: None,
        }
    }

    /// The colours of the board of games with these parameters, in the dark theme if `dark`.
    fn board_colors(&self, params: &P::Params, dark: bool) -> BoardColors {
        let _ = params;
        if dark {
            BoardColors {
                frame: Rgb::hex(0x4a423b),
                empty: Rgb::hex(0x5e554c),
            }
        } else {
            BoardColors {
                frame: Rgb::hex(0xbbada0),
                empty: Rgb::hex(0xcdc1b4),
            }
        }
    }

    /// Why a game that has ended ended, in a sentence; `None` for the plain "Well played." or
    /// "No move is left."
    fn end_text(&self, state: &P::State) -> Option<String> {
        let _ = state;
        None
    }

    /// The kind's assistant, if it has one.
    fn assistant(&self) -> Option<&dyn Assistant<P>> {
        None
    }

    /// The kind's test fixtures.
    fn fixtures(&self) -> Fixtures {
        Fixtures::default()
    }

    /// The parameters a player may combine freely, each combination a game of its own with its
    /// own scores ([`crate::Registry::combinations`]); none by default.
    fn options(&self) -> Vec<ParamOption> {
        Vec::new()
    }
}

/// The front end of a kind that needs nothing of its own: every default of [`FrontEnd`].
#[derive(Debug, Clone, Copy, Default)]
pub struct PlainFrontEnd;

impl<P: Puzzle> FrontEnd<P> for PlainFrontEnd {}
