//! The statistics of one entry, computed from its history ([`Record`]s, oldest first): pure
//! functions, drawn by `stats_view`.
//!
//! The rules of honest records hold here too: the figures shown first count only unassisted
//! games; assisted games have figures of their own (their own best, shown beside), and so do
//! the daily games. Where a lower score is better (Strike 9's golf) the best is the lowest
//! score of a game that reached its end, as in the score table: an abandoned game sets no best.

use crate::history::Record;

/// The figures of one set of games (the unassisted ones, the assisted ones, the daily ones).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Figures {
    /// Games in the set.
    pub played: u64,
    /// Games in the set that were won.
    pub won: u64,
    /// The best score: the highest, or where lower is better the lowest of a game that ended.
    pub best: Option<u64>,
    /// The mean score.
    pub mean: Option<f64>,
    /// The median score (the mean of the two middle scores when there is an even number).
    pub median: Option<f64>,
    /// Games won in a row at the end of the set (a game lost or abandoned ends a streak).
    pub current_streak: u64,
    /// The most games won in a row.
    pub longest_streak: u64,
}

impl Figures {
    /// The figures of `records`, in the order they were played.
    pub fn of<'a>(records: impl IntoIterator<Item = &'a Record>, lower_is_better: bool) -> Self {
        let mut figures = Self::default();
        let mut scores = Vec::new();
        let mut sum: u128 = 0;
        for record in records {
            figures.played += 1;
            scores.push(record.score);
            sum += u128::from(record.score);
            if record.won {
                figures.won += 1;
                figures.current_streak += 1;
                figures.longest_streak = figures.longest_streak.max(figures.current_streak);
            } else {
                figures.current_streak = 0;
            }
            if let Some(better) = better_score(record, figures.best, lower_is_better) {
                figures.best = Some(better);
            }
        }
        if !scores.is_empty() {
            scores.sort_unstable();
            let (min, max) = match (scores.first(), scores.last()) {
                (Some(&min), Some(&max)) => (min as f64, max as f64),
                _ => (0.0, 0.0),
            };
            // Rounding to floating point never takes the mean outside the scores.
            figures.mean = Some((sum as f64 / scores.len() as f64).clamp(min, max));
            let mid = scores.len() / 2;
            figures.median = if scores.len() % 2 == 1 {
                scores.get(mid).map(|&s| s as f64)
            } else {
                // Halves added, so that two big scores never overflow.
                match (scores.get(mid - 1), scores.get(mid)) {
                    (Some(&a), Some(&b)) => Some(a as f64 / 2.0 + b as f64 / 2.0),
                    _ => None,
                }
            };
        }
        figures
    }

    /// The share of games won, 0 to 1; none when no game was played.
    pub fn win_rate(&self) -> Option<f64> {
        (self.played > 0).then(|| self.won as f64 / self.played as f64)
    }
}

/// `record`'s score if it beats `best` (and can count as a best at all), else none.
fn better_score(record: &Record, best: Option<u64>, lower_is_better: bool) -> Option<u64> {
    if lower_is_better {
        (record.over && best.is_none_or(|b| record.score < b)).then_some(record.score)
    } else {
        best.is_none_or(|b| record.score > b)
            .then_some(record.score)
    }
}

/// What the chart of the highest tiles counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    /// The highest tile reached (sliding games).
    TopTile,
    /// The tiles left open at the end (Strike 9).
    TilesLeft,
}

impl Measure {
    /// What the chart of this measure is called.
    pub fn title(self) -> &'static str {
        match self {
            Measure::TopTile => "Highest tile reached",
            Measure::TilesLeft => "Tiles left at the end",
        }
    }

    /// What one bar of it counts, for its value `value`.
    pub fn bar_name(self, value: u64) -> String {
        match self {
            Measure::TopTile => format!("highest tile {value}"),
            Measure::TilesLeft if value == 1 => "1 tile left".to_string(),
            Measure::TilesLeft => format!("{value} tiles left"),
        }
    }

    fn of(self, record: &Record) -> Option<u64> {
        match self {
            Measure::TopTile => record.top_tile,
            Measure::TilesLeft => record.tiles_left.map(u64::from),
        }
    }
}

/// One game on the chart of scores.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    /// Its place in the history, from 0 (oldest first).
    pub index: usize,
    /// When it ended, in seconds since 1970 (none if its time cannot be read).
    pub ended: Option<i64>,
    /// Its score.
    pub score: u64,
    /// It was won.
    pub won: bool,
    /// It was assisted.
    pub assisted: bool,
    /// It was a daily game.
    pub daily: bool,
}

/// Everything the statistics screen shows of one entry's history.
#[derive(Debug, Clone, PartialEq)]
pub struct Stats {
    /// Unassisted games: the figures shown first.
    pub unassisted: Figures,
    /// Assisted games, with their own best.
    pub assisted: Figures,
    /// The daily games played unassisted, with their own best.
    pub daily: Figures,
    /// The daily games played with help.
    pub daily_assisted: Figures,
    /// Every game's score, oldest first.
    pub series: Vec<Point>,
    /// The index in the history of the best game: the first unassisted game with the best
    /// unassisted score, else the first assisted game with the assisted best.
    pub best_game: Option<usize>,
    /// What the histogram counts, and how many games reached each value, by value; none when no
    /// game recorded either measure.
    pub histogram: Option<(Measure, Vec<(u64, u64)>)>,
}

impl Stats {
    /// The statistics of `records` (oldest first), of a game whose score is better lower if
    /// `lower_is_better`.
    pub fn of(records: &[Record], lower_is_better: bool) -> Self {
        let unassisted = Figures::of(records.iter().filter(|r| !r.assisted), lower_is_better);
        let assisted = Figures::of(records.iter().filter(|r| r.assisted), lower_is_better);
        let daily = Figures::of(
            records.iter().filter(|r| r.daily.is_some() && !r.assisted),
            lower_is_better,
        );
        let daily_assisted = Figures::of(
            records.iter().filter(|r| r.daily.is_some() && r.assisted),
            lower_is_better,
        );
        let series = records
            .iter()
            .enumerate()
            .map(|(index, r)| Point {
                index,
                ended: tilebox_core::date::parse_rfc3339(&r.ended),
                score: r.score,
                won: r.won,
                assisted: r.assisted,
                daily: r.daily.is_some(),
            })
            .collect();
        let first_with = |assisted: bool, best: Option<u64>| {
            let best = best?;
            records.iter().position(|r| {
                r.assisted == assisted && r.score == best && (r.over || !lower_is_better)
            })
        };
        let best_game =
            first_with(false, unassisted.best).or_else(|| first_with(true, assisted.best));
        Self {
            unassisted,
            assisted,
            daily,
            daily_assisted,
            series,
            best_game,
            histogram: histogram(records),
        }
    }
}

/// How many games reached each highest tile (or left each number of tiles), by value: the
/// measure the first record that has one names.
fn histogram(records: &[Record]) -> Option<(Measure, Vec<(u64, u64)>)> {
    let measure = records.iter().find_map(|r| {
        if r.top_tile.is_some() {
            Some(Measure::TopTile)
        } else {
            r.tiles_left.map(|_| Measure::TilesLeft)
        }
    })?;
    let mut counts = std::collections::BTreeMap::<u64, u64>::new();
    for value in records.iter().filter_map(|r| measure.of(r)) {
        *counts.entry(value).or_default() += 1;
    }
    Some((measure, counts.into_iter().collect()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn record(score: u64, won: bool, over: bool, assisted: bool) -> Record {
        Record {
            format: crate::history::HISTORY_FORMAT,
            game: "2048".into(),
            params: serde_json::json!({}),
            seed: 1,
            moves: vec!["L".into()],
            score,
            won,
            over,
            ended: "2026-11-23T16:27:11Z".into(),
            duration_ms: 1000,
            top_tile: None,
            tiles_left: None,
            assisted,
            daily: None,
            unknown: serde_json::Map::new(),
        }
    }

    #[test]
    fn nothing_played_has_no_figures() {
        let stats = Stats::of(&[], false);
        assert_eq!(stats.unassisted, Figures::default());
        assert_eq!(stats.unassisted.win_rate(), None);
        assert_eq!(stats.best_game, None);
        assert_eq!(stats.histogram, None);
        assert!(stats.series.is_empty());
    }

    #[test]
    fn figures_of_a_few_games() {
        let games = [
            record(100, true, true, false),
            record(300, true, false, false),
            record(50, false, true, false),
            record(900, false, true, true),
            record(200, true, true, false),
            record(250, true, true, false),
        ];
        let stats = Stats::of(&games, false);
        let u = stats.unassisted;
        assert_eq!((u.played, u.won), (5, 4));
        assert_eq!(u.best, Some(300));
        assert_eq!(u.mean, Some(180.0));
        assert_eq!(u.median, Some(200.0));
        assert_eq!((u.current_streak, u.longest_streak), (2, 2));
        assert_eq!(u.win_rate(), Some(0.8));
        // The assisted game has its own best, and does not break the unassisted streak.
        assert_eq!(stats.assisted.best, Some(900));
        assert_eq!(stats.assisted.played, 1);
        assert_eq!(stats.best_game, Some(1));
        assert_eq!(stats.series.len(), 6);
        let ended = stats.series[3].ended.map(tilebox_core::date::rfc3339);
        assert_eq!(ended.as_deref(), Some(games[3].ended.as_str()));
    }

    #[test]
    fn an_even_median_is_the_mean_of_the_middle_two_even_for_huge_scores() {
        let games = [
            record(u64::MAX, false, true, false),
            record(u64::MAX - 1, false, true, false),
        ];
        let u = Stats::of(&games, false).unassisted;
        assert_eq!(u.median, Some(u64::MAX as f64));
        assert_eq!(u.mean, Some(u64::MAX as f64));
        let games = [record(1, false, true, false), record(4, false, true, false)];
        assert_eq!(Stats::of(&games, false).unassisted.median, Some(2.5));
    }

    #[test]
    fn where_lower_is_better_only_a_finished_game_sets_the_best() {
        let games = [
            record(30, false, true, false),
            record(2, false, false, false),
            record(12, false, true, false),
        ];
        let stats = Stats::of(&games, true);
        assert_eq!(stats.unassisted.best, Some(12));
        assert_eq!(stats.best_game, Some(2));
    }

    #[test]
    fn the_best_game_is_an_assisted_one_only_when_no_unassisted_game_counts() {
        let games = [record(10, false, true, true), record(20, false, true, true)];
        assert_eq!(Stats::of(&games, false).best_game, Some(1));
    }

    #[test]
    fn daily_games_count_apart_too() {
        let mut daily = record(500, false, true, false);
        daily.daily = Some("2026-11-23".into());
        let mut daily_helped = record(700, false, true, true);
        daily_helped.daily = Some("2026-11-22".into());
        let games = [record(800, false, true, false), daily, daily_helped];
        let stats = Stats::of(&games, false);
        assert_eq!(stats.daily.best, Some(500));
        assert_eq!(stats.daily.played, 1);
        assert_eq!(stats.daily_assisted.best, Some(700));
        assert_eq!(stats.unassisted.played, 2);
        assert!(stats.series[1].daily && !stats.series[0].daily);
    }

    #[test]
    fn the_histogram_counts_each_value() {
        let tiles = [512, 1024, 512, 2048];
        let games: Vec<Record> = tiles
            .iter()
            .map(|&t| Record {
                top_tile: Some(t),
                ..record(1, false, true, false)
            })
            .collect();
        assert_eq!(
            Stats::of(&games, false).histogram,
            Some((Measure::TopTile, vec![(512, 2), (1024, 1), (2048, 1)]))
        );
        let left = Record {
            tiles_left: Some(3),
            ..record(1, false, true, false)
        };
        assert_eq!(
            Stats::of(&[left], true).histogram,
            Some((Measure::TilesLeft, vec![(3, 1)]))
        );
        assert_eq!(Measure::TilesLeft.bar_name(1), "1 tile left");
    }

    fn arb_record() -> impl Strategy<Value = Record> {
        (
            any::<u64>(),
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
        )
            .prop_map(|(score, won, over, assisted, daily)| Record {
                daily: daily.then(|| "2026-11-23".to_string()),
                ..record(score, won, over, assisted)
            })
    }

    proptest! {
        #[test]
        fn figures_hold_together(
            games in proptest::collection::vec(arb_record(), 0..40),
            lower in any::<bool>(),
        ) {
            let stats = Stats::of(&games, lower);
            for f in [stats.unassisted, stats.assisted, stats.daily, stats.daily_assisted] {
                prop_assert!(f.won <= f.played);
                prop_assert!(f.longest_streak <= f.won);
                prop_assert!(f.current_streak <= f.longest_streak);
                if let Some(rate) = f.win_rate() {
                    prop_assert!((0.0..=1.0).contains(&rate));
                }
                prop_assert_eq!(f.mean.is_some(), f.played > 0);
                prop_assert_eq!(f.median.is_some(), f.played > 0);
            }
            prop_assert_eq!(
                stats.unassisted.played + stats.assisted.played,
                games.len() as u64
            );
            let unassisted: Vec<u64> =
                games.iter().filter(|r| !r.assisted).map(|r| r.score).collect();
            if let (Some(min), Some(max)) = (unassisted.iter().min(), unassisted.iter().max()) {
                let (min, max) = (*min as f64, *max as f64);
                let u = stats.unassisted;
                prop_assert!(u.median.is_some_and(|m| min <= m && m <= max));
                prop_assert!(u.mean.is_some_and(|m| min <= m && m <= max));
                let best = u.best;
                if lower {
                    prop_assert!(best.is_none_or(|b| b as f64 >= min));
                } else {
                    prop_assert_eq!(best.map(|b| b as f64), Some(max));
                }
            }
            if let Some(i) = stats.best_game {
                let best = &games[i];
                let figures = if best.assisted { stats.assisted } else { stats.unassisted };
                prop_assert_eq!(Some(best.score), figures.best);
                prop_assert!(!best.assisted || stats.unassisted.best.is_none());
            }
            prop_assert_eq!(stats.series.len(), games.len());
        }
    }
}
