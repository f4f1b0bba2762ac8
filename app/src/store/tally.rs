//! What the score table has been told of one game, so that each game counts once as played and
//! once as won, whatever undo, redo and restarts of the app do in between, and the win is
//! announced once; and whether the game is *assisted* (undo, a hint or autoplay was used in it),
//! which keeps its figures apart from the unassisted ones. A [`Tally`] is kept with the game's
//! save.
//!
//! The rules: a game counts as played when it is won, ends, or is abandoned after a move, so won
//! never exceeds played; a game with no move (an opening deal) sets no best; an assisted game's
//! score and counts go to the assisted figures (`assisted_best`, `assisted_played`, ...), never
//! to the ones shown first; a win is counted with the played it came with, so won never exceeds
//! played in either set.

use serde::{Deserialize, Serialize};
use tilebox_core::Status;

use crate::store::scores::GameStats;

/// The counts one game has made in the score table, and whether its win was seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// The game has been counted in `played` (or `assisted_played`).
    #[serde(default)]
    pub played: bool,
    /// The game has been counted in `won` (or `assisted_won`).
    #[serde(default)]
    pub won: bool,
    /// The player has seen the win and chose to keep going.
    #[serde(default)]
    pub win_seen: bool,
    /// Undo, a hint or autoplay was used in the game, or it was started again from a seed in
    /// the history (its tiles known): it stays assisted until a new game (absent, so false, in
    /// saves written before it was kept).
    #[serde(default)]
    pub assisted: bool,
    /// The game's `played` was counted among the assisted games (its win goes there too).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub played_assisted: bool,
    /// The game is in the history (its `history` file): it is recorded once, when it first
    /// ends or when it is abandoned after a move, and never again. A game undone after its end
    /// and played on to another end stays recorded once, with its first end. `None` only in a
    /// tally read from a save written before the history was kept, until [`Tally::resumed_at`]
    /// takes such a game as recorded if it is over when resumed, so resuming an old finished
    /// game does not record it (and an old game still going is recorded when it ends).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recorded: Option<bool>,
}

impl Default for Tally {
    /// The tally of a new game: nothing counted, not recorded.
    fn default() -> Self {
        Self {
            played: false,
            won: false,
            win_seen: false,
            assisted: false,
            played_assisted: false,
            recorded: Some(false),
        }
    }
}

impl Tally {
    /// The tally of a game found at `status` with no tally of its own (a save written before
    /// tallies were kept): whatever it reached is taken as counted already, and a win the game
    /// went on from as seen (its played, which the first release did not count with the win,
    /// is counted when the game is next recorded). Nothing is known of help: it is taken as
    /// unassisted.
    pub fn assumed(status: Status) -> Self {
        Self {
            played: status.over,
            won: status.won,
            win_seen: status.won && !status.over,
            recorded: Some(status.over),
            ..Self::default()
        }
    }

    /// This tally, read from the save of a game resumed at `status`: if the save is from before
    /// the history was kept, the game is taken as recorded if it is over.
    pub fn resumed_at(mut self, status: Status) -> Self {
        self.recorded.get_or_insert(status.over);
        self
    }

    /// Whether the game is in the history.
    pub fn is_recorded(&self) -> bool {
        self.recorded == Some(true)
    }

    /// The game is being recorded in the history: returns whether it was not already (then it
    /// is to be recorded now; it never is again).
    pub fn mark_recorded(&mut self) -> bool {
        self.recorded.replace(true) != Some(true)
    }

    /// Marks the game assisted (undo, a hint or autoplay was used). Returns whether it was not
    /// already.
    pub fn assist(&mut self) -> bool {
        !std::mem::replace(&mut self.assisted, true)
    }

    /// Brings `stats` up to date with the game now at `status` and `score`: a new best, and the
    /// game's first end or win (counted as played) and first win. Returns whether `stats`
    /// changed.
    ///
    /// `moved`: a move was ever made in the game (played, or played and taken back); a game
    /// without one sets no best. `lower_is_better`: the game's score is better lower (golf);
    /// its best is then the lowest score of a finished game (`stats.lowest`), and a game still
    /// going sets no best. An assisted game sets the assisted best and counts.
    pub fn record(
        &mut self,
        status: Status,
        score: u64,
        moved: bool,
        lower_is_better: bool,
        stats: &mut GameStats,
    ) -> bool {
        let mut changed = false;
        if moved {
            let (best, lowest) = if self.assisted {
                (&mut stats.assisted_best, &mut stats.assisted_lowest)
            } else {
                (&mut stats.best, &mut stats.lowest)
            };
            if lower_is_better {
                if status.over && lowest.is_none_or(|l| score < l) {
                    *lowest = Some(score);
                    changed = true;
                }
            } else if score > *best {
                *best = score;
                changed = true;
            }
        }
        if (status.won || status.over) && !self.played {
            changed |= self.count_played(stats);
        }
        if status.won && !self.won {
            if self.played_assisted {
                stats.assisted_won += 1;
            } else {
                stats.won += 1;
            }
            self.won = true;
            changed = true;
        }
        changed
    }

    /// Counts the game as played, among the assisted games if it is assisted.
    fn count_played(&mut self, stats: &mut GameStats) -> bool {
        if self.assisted {
            stats.assisted_played += 1;
        } else {
            stats.played += 1;
        }
        self.played = true;
        self.played_assisted = self.assisted;
        true
    }

    /// The game is given up for a new one. `moved`: a move was ever made in it (played, or
    /// played and taken back). Counts it as played unless it was already. Returns whether
    /// `stats` changed.
    pub fn abandon(&mut self, moved: bool, stats: &mut GameStats) -> bool {
        moved && !self.played && self.count_played(stats)
    }

    /// Whether the win is to be announced now: the game is won and the player has not yet
    /// chosen to keep going.
    pub fn announces_win(&self, status: Status) -> bool {
        status.won && !self.win_seen
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAYING: Status = Status::PLAYING;
    const WON: Status = Status {
        won: true,
        over: false,
    };
    const OVER: Status = Status {
        won: false,
        over: true,
    };

    #[test]
    fn an_end_counts_once_however_often_it_is_reached() {
        let mut stats = GameStats::default();
        let mut tally = Tally::default();
        assert!(!tally.record(PLAYING, 0, true, false, &mut stats));
        assert!(tally.record(OVER, 40, true, false, &mut stats));
        // Undo, then the same last move again; and a reload of the same tally.
        assert!(!tally.record(PLAYING, 36, true, false, &mut stats));
        assert!(!tally.record(OVER, 40, true, false, &mut stats));
        let mut reloaded: Tally =
            serde_json::from_str(&serde_json::to_string(&tally).unwrap()).unwrap();
        assert!(!reloaded.record(OVER, 40, true, false, &mut stats));
        assert!(!reloaded.abandon(true, &mut stats));
        assert_eq!(
            stats,
            GameStats {
                best: 40,
                played: 1,
                won: 0,
                lowest: None,
                ..GameStats::default()
            }
        );
    }

    #[test]
    fn a_win_counts_once_and_is_announced_until_seen() {
        let mut stats = GameStats::default();
        let mut tally = Tally::default();
        assert!(!tally.announces_win(PLAYING));
        assert!(tally.record(WON, 20_000, true, false, &mut stats));
        assert!(tally.announces_win(WON));
        tally.win_seen = true;
        assert!(!tally.announces_win(WON));
        assert!(!tally.record(WON, 20_000, true, false, &mut stats));
        let won_and_over = Status {
            won: true,
            over: true,
        };
        assert!(tally.record(won_and_over, 20_500, true, false, &mut stats));
        assert_eq!(
            stats,
            GameStats {
                best: 20_500,
                played: 1,
                won: 1,
                lowest: None,
                ..GameStats::default()
            }
        );
    }

    #[test]
    fn abandoning_counts_a_game_with_a_move_once() {
        let mut stats = GameStats::default();
        assert!(!Tally::default().abandon(false, &mut stats));
        let mut tally = Tally::default();
        assert!(tally.abandon(true, &mut stats));
        assert!(!tally.abandon(true, &mut stats));
        assert_eq!(stats.played, 1);
    }

    #[test]
    fn a_best_is_never_lowered() {
        let mut stats = GameStats {
            best: 100,
            ..GameStats::default()
        };
        assert!(!Tally::default().record(PLAYING, 60, true, false, &mut stats));
        assert_eq!(stats.best, 100);
    }

    #[test]
    fn a_lower_is_better_best_is_the_lowest_finished_score() {
        let mut stats = GameStats::default();
        let mut tally = Tally::default();
        // A running score sets nothing: the game is not finished.
        assert!(!tally.record(PLAYING, 3, true, true, &mut stats));
        assert_eq!(stats.lowest, None);
        assert!(tally.record(OVER, 12, true, true, &mut stats));
        assert_eq!((stats.lowest, stats.played, stats.best), (Some(12), 1, 0));
        // A later game: higher is not better, lower is.
        let mut next = Tally::default();
        assert!(next.record(OVER, 20, true, true, &mut stats));
        assert_eq!(stats.lowest, Some(12));
        let mut third = Tally::default();
        assert!(!third.record(PLAYING, 0, true, true, &mut stats));
        let shut = Status {
            won: true,
            over: true,
        };
        assert!(third.record(shut, 0, true, true, &mut stats));
        assert_eq!((stats.lowest, stats.played, stats.won), (Some(0), 3, 1));
    }

    #[test]
    fn an_old_save_without_a_tally_is_taken_as_counted() {
        let kept_going = Tally::assumed(WON);
        assert!(kept_going.won && kept_going.win_seen && !kept_going.played);
        // A game that ended in its win (a shut box) still shows the win.
        let t = Tally::assumed(Status {
            won: true,
            over: true,
        });
        assert!(t.played && t.won && !t.win_seen);
        assert_eq!(Tally::assumed(PLAYING), Tally::default());
    }

    #[test]
    fn a_win_in_a_game_that_goes_on_counts_as_played() {
        let mut stats = GameStats::default();
        let mut tally = Tally::default();
        assert!(tally.record(WON, 20_000, true, false, &mut stats));
        assert_eq!((stats.played, stats.won), (1, 1));
        // It goes on and ends, or is abandoned: still one game.
        let won_and_over = Status {
            won: true,
            over: true,
        };
        tally.record(won_and_over, 20_400, true, false, &mut stats);
        assert!(!tally.abandon(true, &mut stats));
        assert_eq!((stats.played, stats.won), (1, 1));
        // An old save that kept going from a win the first release counted (won 1, played 0):
        // its played is counted now.
        let mut old = GameStats {
            won: 1,
            ..GameStats::default()
        };
        let mut assumed = Tally::assumed(WON);
        assert!(assumed.record(WON, 20_000, true, false, &mut old));
        assert_eq!((old.played, old.won), (1, 1));
    }

    #[test]
    fn a_game_without_a_move_sets_no_best() {
        let mut stats = GameStats::default();
        // Threes' opening deal scores; a re-deal scores more: neither is a best.
        assert!(!Tally::default().record(PLAYING, 6, false, false, &mut stats));
        assert!(!Tally::default().abandon(false, &mut stats));
        assert!(!Tally::default().record(PLAYING, 9, false, false, &mut stats));
        assert_eq!(stats, GameStats::default());
        // Lower is better: a box over before a move sets no lowest either.
        assert!(Tally::default().record(OVER, 45, false, true, &mut stats));
        assert_eq!((stats.lowest, stats.played), (None, 1));
        // After a move, it does.
        let mut moved = Tally::default();
        assert!(moved.record(PLAYING, 12, true, false, &mut stats));
        assert_eq!(stats.best, 12);
    }

    #[test]
    fn an_assisted_game_keeps_its_own_best_and_counts() {
        let mut stats = GameStats {
            best: 100,
            ..GameStats::default()
        };
        let mut tally = Tally::default();
        assert!(!tally.record(PLAYING, 80, true, false, &mut stats));
        assert!(tally.assist());
        assert!(!tally.assist());
        // Its later score does not raise the unassisted best; it sets the assisted one.
        assert!(tally.record(WON, 400, true, false, &mut stats));
        assert_eq!((stats.best, stats.assisted_best), (100, 400));
        assert_eq!((stats.played, stats.won), (0, 0));
        assert_eq!((stats.assisted_played, stats.assisted_won), (1, 1));
        // A reload keeps it assisted (a redo changes nothing of it either).
        let mut reloaded: Tally =
            serde_json::from_str(&serde_json::to_string(&tally).unwrap()).unwrap();
        assert!(reloaded.assisted);
        assert!(!reloaded.record(WON, 400, true, false, &mut stats));
        // A new game starts unassisted.
        let mut next = Tally::default();
        assert!(!next.assisted);
        assert!(next.abandon(true, &mut stats));
        assert_eq!((stats.played, stats.assisted_played), (1, 1));
        // Lower is better: the assisted lowest is apart too.
        let mut golf = Tally::default();
        golf.assist();
        let over = Status {
            won: false,
            over: true,
        };
        assert!(golf.record(over, 5, true, true, &mut stats));
        assert_eq!((stats.lowest, stats.assisted_lowest), (None, Some(5)));
    }

    #[test]
    fn a_win_goes_where_its_played_was_counted() {
        // Ended unassisted (counted), then undone (assisted), then won: won <= played in each set.
        let mut stats = GameStats::default();
        let mut tally = Tally::default();
        tally.record(OVER, 50, true, false, &mut stats);
        tally.assist();
        tally.record(WON, 60, true, false, &mut stats);
        assert_eq!((stats.played, stats.won), (1, 1));
        assert_eq!((stats.assisted_played, stats.assisted_won), (0, 0));
    }

    #[test]
    fn a_save_without_assisted_reads_as_unassisted() {
        let tally: Tally =
            serde_json::from_str(r#"{"played":false,"won":false,"win_seen":false}"#).unwrap();
        assert_eq!(
            tally,
            Tally {
                recorded: None,
                ..Tally::default()
            }
        );
    }

    #[test]
    fn a_game_is_recorded_once_and_an_old_finished_game_counts_as_recorded() {
        let mut tally = Tally::default();
        assert!(!tally.is_recorded());
        assert!(tally.mark_recorded());
        // Undone and ended again, or reloaded: never recorded twice.
        assert!(tally.is_recorded());
        assert!(!tally.mark_recorded());
        let json = serde_json::to_string(&tally).unwrap();
        assert!(json.contains(r#""recorded":true"#), "{json}");
        let mut reloaded: Tally = serde_json::from_str::<Tally>(&json)
            .unwrap()
            .resumed_at(PLAYING);
        assert!(!reloaded.mark_recorded());
        // A new game's tally says so in its save, and a resume keeps it.
        let fresh = serde_json::to_string(&Tally::default()).unwrap();
        assert!(fresh.contains(r#""recorded":false"#), "{fresh}");
        let fresh: Tally = serde_json::from_str(&fresh).unwrap();
        assert!(!fresh.resumed_at(OVER).is_recorded());
        // A save from before the history: a game over is taken as recorded; one going on is
        // not, and is recorded when it ends.
        let old = r#"{"played":true,"won":false,"win_seen":false}"#;
        let mut old_over = serde_json::from_str::<Tally>(old).unwrap().resumed_at(OVER);
        assert!(old_over.is_recorded());
        assert!(!old_over.mark_recorded());
        let mut old_going = serde_json::from_str::<Tally>(old)
            .unwrap()
            .resumed_at(PLAYING);
        assert!(!old_going.is_recorded());
        assert!(old_going.mark_recorded());
        // No tally at all (the first release's saves): the same.
        assert!(Tally::assumed(OVER).is_recorded());
        assert!(!Tally::assumed(PLAYING).is_recorded());
    }
}
