//! What the score table has been told of one game, so that each game counts once as played and
//! once as won, whatever undo, redo and restarts of the app do in between, and the win is
//! announced once. A [`Tally`] is kept with the game's save.

use serde::{Deserialize, Serialize};
use tilebox_core::Status;

use crate::scores::GameStats;

/// The counts one game has made in the score table, and whether its win was seen.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// The game has been counted in `played`.
    #[serde(default)]
    pub played: bool,
    /// The game has been counted in `won`.
    #[serde(default)]
    pub won: bool,
    /// The player has seen the win and chose to keep going.
    #[serde(default)]
    pub win_seen: bool,
}

impl Tally {
    /// The tally of a game found at `status` with no tally of its own (a save written before
    /// tallies were kept): whatever it reached is taken as counted already, and a win the game
    /// went on from as seen.
    pub fn assumed(status: Status) -> Self {
        Self {
            played: status.over,
            won: status.won,
            win_seen: status.won && !status.over,
        }
    }

    /// Brings `stats` up to date with the game now at `status` and `score`: a new best, and the
    /// game's first end and first win. Returns whether `stats` changed.
    ///
    /// `lower_is_better`: the game's score is better lower (golf); its best is then the lowest
    /// score of a finished game (`stats.lowest`), and a game still going sets no best.
    pub fn record(
        &mut self,
        status: Status,
        score: u64,
        lower_is_better: bool,
        stats: &mut GameStats,
    ) -> bool {
        let mut changed = false;
        if lower_is_better {
            if status.over && stats.lowest.is_none_or(|lowest| score < lowest) {
                stats.lowest = Some(score);
                changed = true;
            }
        } else if score > stats.best {
            stats.best = score;
            changed = true;
        }
        if status.won && !self.won {
            stats.won += 1;
            self.won = true;
            changed = true;
        }
        if status.over && !self.played {
            stats.played += 1;
            self.played = true;
            changed = true;
        }
        changed
    }

    /// The game is given up for a new one. `moved`: a move was ever made in it (played, or
    /// played and taken back). Counts it as played unless it was already. Returns whether
    /// `stats` changed.
    pub fn abandon(&mut self, moved: bool, stats: &mut GameStats) -> bool {
        if moved && !self.played {
            stats.played += 1;
            self.played = true;
            true
        } else {
            false
        }
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
        assert!(!tally.record(PLAYING, 0, false, &mut stats));
        assert!(tally.record(OVER, 40, false, &mut stats));
        // Undo, then the same last move again; and a reload of the same tally.
        assert!(!tally.record(PLAYING, 36, false, &mut stats));
        assert!(!tally.record(OVER, 40, false, &mut stats));
        let mut reloaded: Tally =
            serde_json::from_str(&serde_json::to_string(&tally).unwrap()).unwrap();
        assert!(!reloaded.record(OVER, 40, false, &mut stats));
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
        assert!(tally.record(WON, 20_000, false, &mut stats));
        assert!(tally.announces_win(WON));
        tally.win_seen = true;
        assert!(!tally.announces_win(WON));
        assert!(!tally.record(WON, 20_000, false, &mut stats));
        let won_and_over = Status {
            won: true,
            over: true,
        };
        assert!(tally.record(won_and_over, 20_500, false, &mut stats));
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
        assert!(!Tally::default().record(PLAYING, 60, false, &mut stats));
        assert_eq!(stats.best, 100);
    }

    #[test]
    fn a_lower_is_better_best_is_the_lowest_finished_score() {
        let mut stats = GameStats::default();
        let mut tally = Tally::default();
        // A running score sets nothing: the game is not finished.
        assert!(!tally.record(PLAYING, 3, true, &mut stats));
        assert_eq!(stats.lowest, None);
        assert!(tally.record(OVER, 12, true, &mut stats));
        assert_eq!((stats.lowest, stats.played, stats.best), (Some(12), 1, 0));
        // A later game: higher is not better, lower is.
        let mut next = Tally::default();
        assert!(next.record(OVER, 20, true, &mut stats));
        assert_eq!(stats.lowest, Some(12));
        let mut third = Tally::default();
        assert!(!third.record(PLAYING, 0, true, &mut stats));
        let shut = Status {
            won: true,
            over: true,
        };
        assert!(third.record(shut, 0, true, &mut stats));
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
}
