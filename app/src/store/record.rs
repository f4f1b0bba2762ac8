//! One game of the history, as a line of `history/<entry-id>.jsonl` holds it ([`Record`]), and
//! its moves kept compact ([`Moves`]). The history file, its reading and its checks are
//! the `history` module's; the statistics (the `stats` module) are worked out from records.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use tilebox_core::date::Date;
use tilebox_core::{DynSession, Entry, SAVE_FORMAT, SavedGame};

use crate::store::tally::Tally;

/// The version of the history's line form written by this build: 2, where a record names its
/// parameters only when they are not its entry's. (Version 1, which the previous release wrote,
/// carries them in every record; both are read. The previous release leaves version 2's records
/// in the file, unshown, as those of a newer Tilebox.)
pub const HISTORY_FORMAT: u32 = 2;

/// The first version of the line form: every record carries its parameters in full.
pub(crate) const FIRST_FORMAT: u32 = 1;

/// One game of the history: everything needed to replay it (its entry, its parameters if they
/// are not the entry's, its seed and moves) and what it came to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The version of this form, [`HISTORY_FORMAT`] when written by this build.
    pub format: u32,
    /// The entry's id.
    pub game: String,
    /// The game's parameters, in the game's own serde form (as in saves), when they are not
    /// its entry's; none (and absent from the line) when they are. A record read with
    /// parameters that are not its entry's is not trusted ([`Mismatch::Params`]): its moves
    /// would count under rules of its own choosing.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "shared")]
    pub params: Option<Arc<serde_json::Value>>,
    /// The seed the game started from.
    pub seed: u64,
    /// The moves played, in order, in their text form (as in saves).
    pub moves: Moves,
    /// The final score.
    pub score: u64,
    /// The game was won (in 2048, reached its win and maybe went on).
    pub won: bool,
    /// The game reached its end; `false`: it was abandoned for a new game.
    pub over: bool,
    /// When the game ended or was abandoned: UTC, RFC 3339 (`2026-11-23T16:27:11Z`).
    pub ended: String,
    /// How long it was played, in milliseconds (the time its board was on screen).
    pub duration_ms: u64,
    /// The highest tile on the board at the end (sliding games).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top_tile: Option<u64>,
    /// How many tiles were left open at the end (Strike 9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tiles_left: Option<u32>,
    /// Undo, a hint or autoplay was used in the game.
    #[serde(default)]
    pub assisted: bool,
    /// The date (`YYYY-MM-DD`, UTC) whose daily game this was; absent for any other game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub daily: Option<String>,
    /// Fields a newer Tilebox wrote that this build does not know.
    #[serde(flatten)]
    pub unknown: serde_json::Map<String, serde_json::Value>,
}

impl Record {
    /// The record of the game of `session` (of entry `id`) as it stands, with what the score
    /// table counted of it (`tally`), the date of its daily game if it is one, how long its
    /// board was on screen, and when it ended (`ended`, RFC 3339).
    pub fn of(
        id: &str,
        session: &dyn DynSession,
        tally: &Tally,
        daily: Option<Date>,
        duration_ms: u64,
        ended: String,
    ) -> Record {
        let status = session.status();
        let params = session.params_json();
        Record {
            format: HISTORY_FORMAT,
            game: id.to_string(),
            params: (params != session.entry().params_json()).then(|| Arc::new(params)),
            seed: session.seed(),
            moves: Moves::from(session.save().moves),
            score: session.score(),
            won: status.won || tally.won,
            over: status.over,
            ended,
            duration_ms,
            top_tile: session.top_tile(),
            tiles_left: session.tiles_left(),
            assisted: tally.assisted,
            daily: daily.map(|d| d.to_string()),
            unknown: serde_json::Map::new(),
        }
    }

    /// What makes it one game: its seed, parameters and moves. Two records with the same
    /// (another `ended`, say: a game recorded again after a kill between its record and its
    /// save, or a line copied) are the same game, which counts once.
    pub fn game_key(&self) -> GameKey<'_> {
        GameKey {
            seed: self.seed,
            params: self.params.as_deref(),
            moves: &self.moves,
        }
    }

    /// The record as one line of its file, without the line break.
    pub fn line(&self) -> Result<Vec<u8>, serde_json::Error> {
        serde_json::to_vec(self)
    }

    /// The game, a game of `entry`, as a save with every move played, which
    /// [`tilebox_core::Entry::load`] replays to the recorded end.
    pub fn saved_game(&self, entry: &Entry) -> SavedGame {
        SavedGame {
            format: SAVE_FORMAT,
            game: self.game.clone(),
            params: self
                .params
                .as_deref()
                .cloned()
                .unwrap_or_else(|| entry.params_json()),
            seed: self.seed,
            moves: self.moves.to_vec(),
            redo: Vec::new(),
        }
    }
}

/// What makes a record one game ([`Record::game_key`]): equal keys are the same game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameKey<'a> {
    seed: u64,
    params: Option<&'a serde_json::Value>,
    moves: &'a Moves,
}

impl std::hash::Hash for GameKey<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        // Parameters have no hash; equal keys have equal seeds and moves, which is enough.
        self.seed.hash(state);
        self.moves.hash(state);
    }
}

/// A record's own parameters, written and read as plain JSON.
mod shared {
    use std::sync::Arc;

    use serde::{Deserialize as _, Deserializer, Serialize as _, Serializer};
    use serde_json::Value;

    pub fn serialize<S: Serializer>(params: &Option<Arc<Value>>, s: S) -> Result<S::Ok, S::Error> {
        params.as_deref().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Arc<Value>>, D::Error> {
        Ok(Option::<Value>::deserialize(d)?.map(Arc::new))
    }
}

/// The moves of a record in their text form, kept as one text: a move is a few bytes, not a
/// string of its own (a history of 20,000 games holds millions). Where each move ends is kept
/// only when some move is not one byte long: a sliding game's moves (`L`, `R`, `U`, `D`) are
/// their text alone, a byte a move. Written and read as a list of strings.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Moves {
    text: String,
    /// Where each move ends in `text`; empty when every move is one byte (then each byte is a
    /// move). One form for each list of moves, so equal lists are equal `Moves`.
    ends: Vec<u32>,
}

impl Moves {
    /// How many moves there are.
    pub fn len(&self) -> usize {
        if self.ends.is_empty() {
            self.text.len()
        } else {
            self.ends.len()
        }
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Each move's text, in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// The text of move `i` (from 0); empty past the last.
    fn get(&self, i: usize) -> &str {
        let (start, end) = if self.ends.is_empty() {
            (i, i.saturating_add(1))
        } else {
            let end_of = |i: usize| self.ends.get(i).map(|&end| end as usize);
            let start = i.checked_sub(1).and_then(end_of).unwrap_or(0);
            (start, end_of(i).unwrap_or(start))
        };
        self.text.get(start..end).unwrap_or("")
    }

    /// The moves as strings.
    pub fn to_vec(&self) -> Vec<String> {
        self.iter().map(str::to_string).collect()
    }

    /// Adds a move; false (and nothing added) when the moves would pass 4 GiB of text.
    fn push(&mut self, mv: &str) -> bool {
        let Ok(end) = u32::try_from(self.text.len() + mv.len()) else {
            return false;
        };
        let spelt = !self.ends.is_empty() || mv.len() != 1;
        if spelt && self.ends.is_empty() {
            // Every move so far one byte: where each ends, written out now. (`end` fits, so
            // these do.)
            self.ends.extend((1..=self.text.len()).map(|e| e as u32));
        }
        self.text.push_str(mv);
        if spelt {
            self.ends.push(end);
        }
        true
    }

    /// Lets go of the room kept for more moves.
    fn shrink_to_fit(&mut self) {
        self.text.shrink_to_fit();
        self.ends.shrink_to_fit();
    }
}

impl<S: AsRef<str>> From<Vec<S>> for Moves {
    fn from(moves: Vec<S>) -> Self {
        let mut out = Moves::default();
        for mv in &moves {
            out.push(mv.as_ref());
        }
        out.shrink_to_fit();
        out
    }
}

impl PartialEq<Vec<String>> for Moves {
    fn eq(&self, other: &Vec<String>) -> bool {
        self.len() == other.len() && self.iter().zip(other).all(|(a, b)| a == b)
    }
}

impl std::fmt::Debug for Moves {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for Moves {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Moves {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Moves;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a list of moves, each a string")
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Moves, A::Error> {
                let mut moves = Moves::default();
                while seq.next_element_seed(OneMove(&mut moves))?.is_some() {}
                moves.shrink_to_fit();
                Ok(moves)
            }
        }
        deserializer.deserialize_seq(Visitor)
    }
}

/// One move read into [`Moves`], without a string of its own.
struct OneMove<'a>(&'a mut Moves);

impl<'de> serde::de::DeserializeSeed<'de> for OneMove<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl serde::de::Visitor<'_> for OneMove<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a move, as a string")
    }

    fn visit_str<E: serde::de::Error>(self, mv: &str) -> Result<(), E> {
        if self.0.push(mv) {
            Ok(())
        } else {
            Err(E::custom("the moves are too long"))
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn moves_of_one_byte_are_kept_as_their_text_alone() {
        let sliding = Moves::from(vec!["L", "U", "R", "D", "L"]);
        assert_eq!(
            (sliding.text.as_str(), sliding.ends.capacity()),
            ("LURDL", 0)
        );
        assert_eq!(sliding.len(), 5);
        assert!(sliding.iter().eq(["L", "U", "R", "D", "L"]));
        // A longer move or an empty one, wherever it comes, and where each move ends is kept;
        // the same moves are the same `Moves` however they were made.
        for list in [
            vec!["L", "U", "4+5", "", "R"],
            vec!["", "L"],
            vec!["1d", "7"],
            vec![""],
            vec![],
        ] {
            let made = Moves::from(list.clone());
            assert_eq!(made.len(), list.len());
            assert!(made.iter().eq(list.iter().copied()));
            assert_eq!(made.is_empty(), list.is_empty());
            let read: Moves = serde_json::from_str(&serde_json::to_string(&list).unwrap()).unwrap();
            assert_eq!(read, made);
            let mut pushed = Moves::default();
            list.iter().for_each(|mv| assert!(pushed.push(mv)));
            assert_eq!(pushed, made);
        }
        assert_ne!(Moves::from(vec!["LU"]), Moves::from(vec!["L", "U"]));
    }
}
