//! The statistics of one entry, computed from its history ([`Record`]s, oldest first): pure
//! functions, drawn by the statistics screen.
//!
//! The rules of honest records hold here too: the figures shown first count only unassisted
//! games; assisted games have figures of their own (their own best, shown beside), and so do
//! the daily games. Where a lower score is better (Strike 9's golf) the best is the lowest
//! score of a game that reached its end, as in the score table: an abandoned game sets no best.

use crate::store::record::Record;

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
    /// The figures of no game.
    pub const EMPTY: Figures = Figures {
        played: 0,
        won: 0,
        best: None,
        mean: None,
        median: None,
        current_streak: 0,
        longest_streak: 0,
    };

    /// The figures of `records`, in the order they were played.
    pub fn of<'a>(records: impl IntoIterator<Item = &'a Record>, lower_is_better: bool) -> Self {
        let mut set = Set::EMPTY;
        for (index, record) in records.into_iter().enumerate() {
            set.add(index, record, lower_is_better, false);
        }
        set.finish(true);
        set.figures
    }

    /// The share of games won, 0 to 1; none when no game was played.
    pub fn win_rate(&self) -> Option<f64> {
        (self.played > 0).then(|| self.won as f64 / self.played as f64)
    }
}

/// One set of games as they come: its figures, and what works them out a game at a time.
#[derive(Debug, Clone, PartialEq)]
struct Set {
    figures: Figures,
    /// The sum of the scores.
    sum: u128,
    /// The scores, in order once [`Set::finish`] has run (for the median).
    scores: Vec<u64>,
    /// The index of the first game with the best score.
    best_at: Option<usize>,
}

impl Set {
    const EMPTY: Set = Set {
        figures: Figures::EMPTY,
        sum: 0,
        scores: Vec::new(),
        best_at: None,
    };

    /// Adds game `index`, `record`; `in_order`: its score is put in its place among the scores
    /// (one game added to a set already finished), else at the end (a set built at once, then
    /// sorted by [`Set::finish`]).
    fn add(&mut self, index: usize, record: &Record, lower_is_better: bool, in_order: bool) {
        let f = &mut self.figures;
        f.played += 1;
        self.sum += u128::from(record.score);
        if in_order {
            let at = self.scores.partition_point(|&s| s <= record.score);
            self.scores.insert(at, record.score);
        } else {
            self.scores.push(record.score);
        }
        if record.won {
            f.won += 1;
            f.current_streak += 1;
            f.longest_streak = f.longest_streak.max(f.current_streak);
        } else {
            f.current_streak = 0;
        }
        if let Some(better) = better_score(record, f.best, lower_is_better) {
            f.best = Some(better);
            self.best_at = Some(index);
        }
    }

    /// Works out the mean and median; `sort`: the scores are sorted first.
    fn finish(&mut self, sort: bool) {
        if sort {
            self.scores.sort_unstable();
        }
        let scores = &self.scores;
        let (Some(&min), Some(&max)) = (scores.first(), scores.last()) else {
            return;
        };
        let f = &mut self.figures;
        // Rounding to floating point never takes the mean outside the scores.
        f.mean = Some((self.sum as f64 / scores.len() as f64).clamp(min as f64, max as f64));
        let mid = scores.len() / 2;
        f.median = if scores.len() % 2 == 1 {
            scores.get(mid).map(|&s| s as f64)
        } else {
            // Halves added, so that two big scores never overflow.
            match (scores.get(mid - 1), scores.get(mid)) {
                (Some(&a), Some(&b)) => Some(a as f64 / 2.0 + b as f64 / 2.0),
                _ => None,
            }
        };
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

    /// What one bar of it counts, for its value `value`, which a tile shows as `tile`.
    pub fn bar_name(self, value: u64, tile: &str) -> String {
        match self {
            Measure::TopTile => format!("highest tile {tile}"),
            Measure::TilesLeft if value == 1 => "1 tile left".to_string(),
            Measure::TilesLeft => format!("{value} tiles left"),
        }
    }

    /// The measure `record` names, if any.
    fn named_by(record: &Record) -> Option<Measure> {
        if record.top_tile.is_some() {
            Some(Measure::TopTile)
        } else {
            record.tiles_left.map(|_| Measure::TilesLeft)
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

impl Point {
    /// Game `index` of a history, `record`.
    fn of(index: usize, record: &Record) -> Point {
        Point {
            index,
            ended: tilebox_core::date::parse_rfc3339(&record.ended),
            score: record.score,
            won: record.won,
            assisted: record.assisted,
            daily: record.daily.is_some(),
        }
    }

    /// The kind of game it is on the chart.
    pub fn kind(&self) -> Kind {
        if self.daily {
            Kind::Daily
        } else if self.assisted {
            Kind::Assisted
        } else {
            Kind::Unassisted
        }
    }
}

/// The kinds of game the chart of scores marks apart, each with a mark of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Played without undo, hints or autoplay (and not a daily game).
    Unassisted,
    /// With undo, a hint or autoplay (and not a daily game).
    Assisted,
    /// A daily game, assisted or not.
    Daily,
}

impl Kind {
    /// Every kind, in the order of [`Bin::spans`].
    pub const ALL: [Kind; 3] = [Kind::Unassisted, Kind::Assisted, Kind::Daily];
}

/// Games next to each other taken together on the chart of scores, where a point per game would
/// overlap: how many, from which, their mean, and the lowest and highest score of each kind.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bin {
    /// The index in the history of its first game.
    pub first: usize,
    /// How many games it holds.
    pub count: usize,
    /// The sum of their scores.
    pub sum: u128,
    /// The lowest and highest score of each kind of game in it, in the order of [`Kind::ALL`].
    pub spans: [Option<(u64, u64)>; 3],
}

impl Bin {
    /// The mean score of its games.
    pub fn mean(&self) -> f64 {
        self.sum as f64 / self.count.max(1) as f64
    }

    fn add(&mut self, point: &Point) {
        self.count += 1;
        self.sum += u128::from(point.score);
        let kind = Kind::ALL
            .iter()
            .position(|&k| k == point.kind())
            .unwrap_or(0);
        if let Some(span) = self.spans.get_mut(kind) {
            let (lo, hi) = span.unwrap_or((point.score, point.score));
            *span = Some((lo.min(point.score), hi.max(point.score)));
        }
    }

    fn merged(self, next: Bin) -> Bin {
        let mut spans = self.spans;
        for (span, other) in spans.iter_mut().zip(next.spans) {
            *span = match (*span, other) {
                (Some((a, b)), Some((c, d))) => Some((a.min(c), b.max(d))),
                (a, b) => a.or(b),
            };
        }
        Bin {
            first: self.first,
            count: self.count + next.count,
            sum: self.sum + next.sum,
            spans,
        }
    }
}

/// The most bins a chart shows: a history's bins hold twice as many games each once it has
/// more, so there are between half as many and this many.
pub const MAX_BINS: usize = 120;

/// A run of games in bins of equal size (the last one filling), at most [`MAX_BINS`], kept up
/// as games are added: a game is added to the last bin, and when the bins are all full, pairs
/// of them are merged.
#[derive(Debug, Clone, PartialEq)]
pub struct Bins {
    size: usize,
    bins: Vec<Bin>,
}

impl Bins {
    /// No game.
    pub const EMPTY: Bins = Bins {
        size: 1,
        bins: Vec::new(),
    };

    /// The bins of `points`.
    pub fn of<'a>(points: impl IntoIterator<Item = &'a Point>) -> Bins {
        let mut bins = Bins::EMPTY;
        for point in points {
            bins.push(point);
        }
        bins
    }

    /// Adds a game after the others.
    pub fn push(&mut self, point: &Point) {
        let full = self.bins.last().is_none_or(|b| b.count >= self.size);
        if full && self.bins.len() >= MAX_BINS {
            self.halve();
        }
        let full = self.bins.last().is_none_or(|b| b.count >= self.size);
        if full {
            self.bins.push(Bin {
                first: point.index,
                count: 0,
                sum: 0,
                spans: [None; 3],
            });
        }
        if let Some(last) = self.bins.last_mut() {
            last.add(point);
        }
    }

    /// Merges the bins by pairs: half as many, each holding twice as many games.
    fn halve(&mut self) {
        let mut merged = Vec::with_capacity(self.bins.len().div_ceil(2));
        for pair in self.bins.chunks(2) {
            merged.push(match pair {
                [a, b] => a.merged(*b),
                [a] => *a,
                _ => continue,
            });
        }
        self.bins = merged;
        self.size *= 2;
    }

    /// These bins, merged by pairs until there are at most `most` (at least one).
    pub fn within(mut self, most: usize) -> Bins {
        while self.bins.len() > most.max(1) {
            self.halve();
        }
        self
    }

    /// The bins, oldest games first.
    pub fn bins(&self) -> &[Bin] {
        &self.bins
    }

    /// How many games a full bin holds.
    pub fn size(&self) -> usize {
        self.size
    }
}

/// How many games the chart of scores shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Range {
    /// The last 100.
    Last100,
    /// The last 1,000.
    Last1000,
    /// Every game.
    #[default]
    All,
}

impl Range {
    /// Every range, in the order the screen offers them.
    pub const ALL: [Range; 3] = [Range::Last100, Range::Last1000, Range::All];

    /// The label of its button.
    pub fn label(self) -> &'static str {
        match self {
            Range::Last100 => "Last 100 games",
            Range::Last1000 => "Last 1,000 games",
            Range::All => "All games",
        }
    }

    /// The indices of the games it takes of a history of `len` games.
    pub fn of(self, len: usize) -> std::ops::Range<usize> {
        let last = match self {
            Range::Last100 => 100,
            Range::Last1000 => 1000,
            Range::All => len,
        };
        len.saturating_sub(last)..len
    }
}

/// The most games the chart of scores shows one point each, however wide; more are shown in
/// bins.
pub const MAX_POINTS: usize = 150;

/// The room a point of the chart of scores takes, in points of the screen: its mark's width
/// (a radius of 3.5), so that marks this far apart do not overlap.
pub const POINT_SPACING: f32 = 7.0;

/// The most points (games, or bins) a chart `width` points wide shows without their marks
/// overlapping: one every [`POINT_SPACING`], at most [`MAX_POINTS`], at least one.
pub fn max_points(width: f32) -> usize {
    let fit = (width.max(0.0) / POINT_SPACING).floor();
    // A float to a count: saturating, NaN as 0.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let fit = fit as usize;
    fit.clamp(1, MAX_POINTS)
}

/// What the chart of scores draws for a range of games.
#[derive(Debug, Clone, PartialEq)]
pub enum Chart {
    /// A point per game.
    Games(Vec<Point>),
    /// Bins of games.
    Bins(Bins),
}

/// Everything the statistics screen shows of one entry's history, worked out once for the
/// history read and then one game at a time ([`Stats::push`]).
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
    /// Every game in bins, for the chart of them all.
    pub bins: Bins,
    lower_is_better: bool,
    /// The unassisted, assisted, daily and daily assisted games.
    sets: [Set; 4],
}

impl Stats {
    /// The statistics of no game.
    pub const EMPTY: Stats = Stats {
        unassisted: Figures::EMPTY,
        assisted: Figures::EMPTY,
        daily: Figures::EMPTY,
        daily_assisted: Figures::EMPTY,
        series: Vec::new(),
        best_game: None,
        histogram: None,
        bins: Bins::EMPTY,
        lower_is_better: false,
        sets: [Set::EMPTY, Set::EMPTY, Set::EMPTY, Set::EMPTY],
    };

    /// The statistics of `records` (oldest first), of a game whose score is better lower if
    /// `lower_is_better`.
    pub fn of(records: &[Record], lower_is_better: bool) -> Self {
        let mut stats = Stats {
            lower_is_better,
            ..Stats::EMPTY
        };
        for record in records {
            stats.add(record, false);
        }
        stats.finish(true);
        stats
    }

    /// Adds a game after the others (the figures stay as [`Stats::of`] would give them).
    pub fn push(&mut self, record: &Record) {
        self.add(record, true);
        self.finish(false);
    }

    /// Which of the sets a game goes to.
    fn set_of(record: &Record) -> [bool; 4] {
        let daily = record.daily.is_some();
        [
            !record.assisted,
            record.assisted,
            daily && !record.assisted,
            daily && record.assisted,
        ]
    }

    fn add(&mut self, record: &Record, in_order: bool) {
        let index = self.series.len();
        for (set, belongs) in self.sets.iter_mut().zip(Self::set_of(record)) {
            if belongs {
                set.add(index, record, self.lower_is_better, in_order);
            }
        }
        let point = Point::of(index, record);
        self.bins.push(&point);
        self.series.push(point);
        if self.histogram.is_none() {
            self.histogram = Measure::named_by(record).map(|m| (m, Vec::new()));
        }
        if let Some((measure, counts)) = &mut self.histogram {
            count(counts, measure.of(record));
        }
    }

    fn finish(&mut self, sort: bool) {
        for set in &mut self.sets {
            set.finish(sort);
        }
        let [u, a, d, da] = &self.sets;
        self.unassisted = u.figures;
        self.assisted = a.figures;
        self.daily = d.figures;
        self.daily_assisted = da.figures;
        self.best_game = u.best_at.or(a.best_at);
    }

    /// What the chart of scores, `width` points wide, draws of the games in `range`: a point
    /// each, or bins where points would overlap (more than [`max_points`] of the width), no
    /// more bins than that. Costs at most the last 1,000 games, whatever the history's length
    /// (every game's bins are kept up as games are added).
    pub fn chart(&self, range: Range, width: f32) -> Chart {
        let most = max_points(width);
        let games = range.of(self.series.len());
        if games.len() <= most {
            Chart::Games(self.series.get(games).unwrap_or_default().to_vec())
        } else if range == Range::All {
            Chart::Bins(self.bins.clone().within(most))
        } else {
            Chart::Bins(Bins::of(self.series.get(games).unwrap_or_default()).within(most))
        }
    }

    /// The histogram of the games of `records` (this history's) in `range`.
    pub fn histogram_of(
        &self,
        records: &[Record],
        range: Range,
    ) -> Option<(Measure, Vec<(u64, u64)>)> {
        let games = range.of(records.len());
        if range == Range::All || games.len() == records.len() {
            return self.histogram.clone();
        }
        let (measure, _) = self.histogram.as_ref()?;
        let mut counts = Vec::new();
        for record in records.get(games).unwrap_or_default() {
            count(&mut counts, measure.of(record));
        }
        Some((*measure, counts))
    }
}

/// Counts `value`, if any, in `counts` (by value, in order).
fn count(counts: &mut Vec<(u64, u64)>, value: Option<u64>) {
    let Some(value) = value else {
        return;
    };
    match counts.binary_search_by_key(&value, |&(v, _)| v) {
        Ok(at) => {
            if let Some((_, n)) = counts.get_mut(at) {
                *n += 1;
            }
        }
        Err(at) => counts.insert(at, (value, 1)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn record(score: u64, won: bool, over: bool, assisted: bool) -> Record {
        Record {
            format: crate::store::record::HISTORY_FORMAT,
            game: "2048".into(),
            params: None,
            seed: 1,
            moves: crate::store::record::Moves::from(vec!["L"]),
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
        assert_eq!(Measure::TilesLeft.bar_name(1, "1"), "1 tile left");
        assert_eq!(Measure::TopTile.bar_name(4, "-2"), "highest tile -2");
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

        /// The statistics worked out a game at a time are those of the whole history at once.
        #[test]
        fn adding_games_one_at_a_time_gives_the_statistics_of_them_all(
            first in proptest::collection::vec(arb_record(), 0..30),
            then in proptest::collection::vec(arb_record(), 0..30),
            lower in any::<bool>(),
        ) {
            let mut stats = Stats::of(&first, lower);
            for r in &then {
                stats.push(r);
            }
            let all: Vec<Record> = first.iter().chain(&then).cloned().collect();
            prop_assert_eq!(stats, Stats::of(&all, lower));
        }

        /// Bins hold every game once, in order, at most [`MAX_BINS`] of them, all of one size
        /// but the last, with the mean and spans of their games.
        #[test]
        fn bins_hold_every_game_once(
            scores in proptest::collection::vec((0u64..10_000, any::<bool>(), any::<bool>()), 0..2000),
        ) {
            let points: Vec<Point> = scores
                .iter()
                .enumerate()
                .map(|(index, &(score, assisted, daily))| Point {
                    index, ended: None, score, won: false, assisted, daily,
                })
                .collect();
            let bins = Bins::of(&points);
            prop_assert!(bins.bins().len() <= MAX_BINS);
            prop_assert!(points.len() <= MAX_POINTS || bins.bins().len() > MAX_BINS / 4);
            let mut next = 0;
            for (i, bin) in bins.bins().iter().enumerate() {
                prop_assert_eq!(bin.first, next);
                let last = i + 1 == bins.bins().len();
                prop_assert!(bin.count == bins.size() || (last && bin.count <= bins.size() && bin.count > 0));
                let games = &points[bin.first..bin.first + bin.count];
                let sum: u128 = games.iter().map(|p| u128::from(p.score)).sum();
                prop_assert_eq!(bin.sum, sum);
                for (k, kind) in Kind::ALL.iter().enumerate() {
                    let of: Vec<u64> = games.iter().filter(|p| p.kind() == *kind).map(|p| p.score).collect();
                    let span = of.iter().min().zip(of.iter().max()).map(|(a, b)| (*a, *b));
                    prop_assert_eq!(bin.spans[k], span);
                }
                next += bin.count;
            }
            prop_assert_eq!(next, points.len());
        }
    }

    /// A plot wide enough for every point the chart shows.
    const WIDE: f32 = 1600.0;

    #[test]
    fn the_plots_width_chooses_between_points_and_bins() {
        assert_eq!(max_points(360.0), 51);
        assert_eq!(max_points(1600.0), MAX_POINTS);
        assert_eq!(max_points(0.0), 1);
        assert_eq!(max_points(f32::NAN), 1);
        let games: Vec<Record> = (0..5000u64)
            .map(|i| record(i, false, true, i.is_multiple_of(10)))
            .collect();
        let stats = Stats::of(&games, false);
        // The last 100 games: a point each where 100 fit, bins at 360 points.
        assert!(matches!(stats.chart(Range::Last100, 700.0), Chart::Games(p) if p.len() == 100));
        for width in [360.0, 699.0] {
            let most = max_points(width);
            for range in Range::ALL {
                let Chart::Bins(bins) = stats.chart(range, width) else {
                    panic!("{range:?} at {width} is binned")
                };
                assert!(bins.bins().len() <= most, "{range:?} at {width}");
                assert!(bins.bins().len() > most / 2, "{range:?} at {width}");
                // Points of the width apart: no two marks overlap.
                assert!(width / bins.bins().len() as f32 >= POINT_SPACING);
                let count: usize = bins.bins().iter().map(|b| b.count).sum();
                assert_eq!(count, range.of(games.len()).len());
            }
        }
        // 51 games fit at 360 points, 52 do not.
        let few = Stats::of(&games[..51], false);
        assert!(matches!(few.chart(Range::All, 360.0), Chart::Games(_)));
        let more = Stats::of(&games[..52], false);
        assert!(matches!(more.chart(Range::All, 360.0), Chart::Bins(_)));
    }

    #[test]
    fn a_chart_draws_a_point_per_game_or_bins_and_never_more_than_a_few_hundred() {
        let games: Vec<Record> = (0..5000u64)
            .map(|i| Record {
                daily: i.is_multiple_of(7).then(|| "2026-11-23".to_string()),
                top_tile: Some(1 << (i % 12)),
                ..record(i, false, true, i.is_multiple_of(10))
            })
            .collect();
        let stats = Stats::of(&games, false);
        let Chart::Games(last) = stats.chart(Range::Last100, WIDE) else {
            panic!("the last 100 games are points")
        };
        assert_eq!(last.first().map(|p| p.index), Some(4900));
        assert_eq!(last.len(), 100);
        for range in [Range::Last1000, Range::All] {
            let Chart::Bins(bins) = stats.chart(range, WIDE) else {
                panic!("{range:?} is binned")
            };
            let count: usize = bins.bins().iter().map(|b| b.count).sum();
            assert_eq!(count, range.of(games.len()).len());
            assert!(bins.bins().len() <= MAX_BINS);
            // Daily and assisted games keep their marks in the bins.
            // (A span holds 8 games or more: a daily game in each.)
            assert!(
                bins.bins()
                    .iter()
                    .all(|b| b.spans[0].is_some() && b.spans[2].is_some())
            );
            assert!(bins.bins().iter().any(|b| b.spans[1].is_some()));
        }
        let Some((Measure::TopTile, last)) = stats.histogram_of(&games, Range::Last100) else {
            panic!("no histogram")
        };
        assert_eq!(last.iter().map(|&(_, n)| n).sum::<u64>(), 100);
        assert_eq!(stats.histogram_of(&games, Range::All), stats.histogram);
        let few = Stats::of(&games[..40], false);
        assert_eq!(
            few.chart(Range::All, WIDE),
            Chart::Games(few.series.clone())
        );
    }
}
