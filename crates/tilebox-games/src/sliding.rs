//! The front end of the sliding kind, for every variant: how to play (written from the variant's
//! rules), the palettes (2048's and Threes' own, a generated one for other ladders), the AI, and
//! the fixtures.

use std::fmt::Write;
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use tilebox_ai::ntuple::players::{Found, Players};
use tilebox_ai::{Limits, SlidingPlayer};
use tilebox_core::{
    AssistError, Assistant, BoardColors, Fixtures, FrontEnd, Outcome, Player, Puzzle, Rgb,
    TileColors,
};
use tilebox_sliding::variant::{Movement, Pos, Scoring, SpawnAt};
use tilebox_sliding::{Direction, Rank, Sliding, SlidingState, Variant, builtin_variant};

/// The evaluation of a sliding game's player ([`Player::evaluation`]) when it plays with the
/// game's trained network.
pub const NETWORK: &str = "network";

/// Its evaluation when it plays with the hand-written heuristic.
pub const HEURISTIC: &str = "heuristic";

/// What the player is told when the AI cannot search a board.
pub const CANNOT_PLAY: &str = "the AI cannot play this board";

/// The front end of every sliding variant.
#[derive(Debug, Clone, Default)]
pub struct SlidingFrontEnd {
    assistant: SlidingAssistant,
}

impl SlidingFrontEnd {
    /// The front end whose assistant plays with the trained players of `players`.
    pub fn with_players(players: Arc<Players>) -> Self {
        Self {
            assistant: SlidingAssistant::with_players(players),
        }
    }
}

/// The built-in variant `id`'s ladder, for the palettes.
fn ladder_of(id: &str) -> &'static [u64] {
    tilebox_sliding::builtin_ladder(id).unwrap_or_default()
}

/// Whether `v` plays by the rules of the built-in `id` (board side, win, start and names
/// aside).
fn plays_like(v: &Variant, id: &str) -> bool {
    builtin_variant(id).is_some_and(|b| v.plays_like(&b) && v.score == b.score)
}

/// How the tiles of `v` are moved, for How to play. A drag is Threes' own where every tile
/// moves one cell at most (the tiles that would move follow it), and a swipe played when let
/// go where tiles slide to the wall, as in the original 2048, which shows no preview.
fn controls(v: &Variant) -> &'static str {
    match v.motion {
        Movement::Slide => {
            "Slide all tiles with the arrow keys, WASD or hjkl, or swipe on the board: the move is \
played when you let go."
        }
        Movement::Step => {
            "Slide all tiles with the arrow keys, WASD or hjkl, or drag them on the board: the \
tiles that would move follow the drag, and letting go past a third of a cell plays the move \
(short of that, they slide back)."
        }
    }
}

/// A list read out: "a", "a and b", "a, b and c".
fn list(items: &[String], last: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., tail] => format!("{} {last} {tail}", init.join(", ")),
    }
}

/// The first few matches of merge rule `i` on the ladder (at most three, one for a rule of
/// exact positions): the positions of its tiles in, and the ranks it makes (the tile made,
/// then any left; none for tiles that destroy one another), as the engine makes them.
fn rule_matches(
    v: &Variant,
    rules: &tilebox_sliding::Rules,
    i: usize,
) -> Vec<(Vec<usize>, Vec<Rank>)> {
    let Some(rule) = v.merges.get(i) else {
        return Vec::new();
    };
    let len = v.tiles.len();
    let mut out: Vec<(Vec<usize>, Vec<Rank>)> = Vec::new();
    if v.tiles.is_numbered() {
        return integer_matches(v, rules, rule);
    }
    for n in 1..=len {
        let pos = |p: &Pos| match *p {
            Pos::Exact(e) => e as usize,
            Pos::Rel(k) => n + k as usize,
            Pos::Int(_) => 0,
        };
        let ins: Vec<usize> = rule.tiles.iter().map(pos).collect();
        if ins.iter().any(|&p| p == 0 || p > len) {
            continue;
        }
        let Ok(ranks) = ins
            .iter()
            .map(|&p| Rank::try_from(p))
            .collect::<Result<Vec<_>, _>>()
        else {
            continue;
        };
        // Only tiles this rule takes by its own terms: at an n it leaves to another rule (n_from,
        // n_every), the slide would show that rule's merge.
        if !rule.matches(&ranks, len) {
            continue;
        }
        if let Some(made) = rule_made(rules, rule, &ranks)
            && !out.iter().any(|(i, m)| *i == ins && *m == made)
        {
            out.push((ins, made));
        }
        if rule.tiles.iter().all(|p| matches!(p, Pos::Exact(_))) || out.len() >= 3 {
            break;
        }
    }
    out
}

/// The first few matches of a rule of a range of integers (at most three): the smallest tiles
/// it takes by its own terms, trying in each place the twelve integers of the range nearest 0
/// (0 aside; 1429's -1 among them), or its first twelve when it lies far from 0; tuples of
/// smaller ones first, a few thousand at most.
fn integer_matches(
    v: &Variant,
    rules: &tilebox_sliding::Rules,
    rule: &tilebox_sliding::variant::MergeRule,
) -> Vec<(Vec<usize>, Vec<Rank>)> {
    const TRIED: usize = 12;
    const MOST_TUPLES: usize = 5_000;
    let Some([from, _]) = v.tiles.integer_range() else {
        return Vec::new();
    };
    let k = rule.tiles.len();
    let near_zero = (-(TRIED as i64)..=TRIED as i64).filter(|&i| i != 0);
    let first = (0..TRIED as i64).filter_map(|d| from.checked_add(d));
    let mut small: Vec<i64> = near_zero
        .chain(first)
        .filter(|&i| v.tiles.value_of_integer(i).is_some())
        .collect();
    small.sort_by_key(|&i| (i.abs(), i));
    small.dedup();
    small.truncate(TRIED);
    let place = |i: i64| v.tiles.value_of_integer(i).map_or(0, |p| p as usize);
    let mut out: Vec<(Vec<usize>, Vec<Rank>)> = Vec::new();
    let mut tried = 0;
    // The tuples of indices into `small` by their sum, the smallest first.
    let mut tuple = vec![0usize; k];
    for total in 0..=k * small.len().saturating_sub(1) {
        let done = compositions(&mut tuple, 0, total, small.len(), &mut |t| {
            tried += 1;
            let ins: Vec<usize> = t.iter().map(|&j| place(small[j])).collect();
            let ranks: Vec<Rank> = ins.iter().filter_map(|&p| Rank::try_from(p).ok()).collect();
            if rule.takes_integers(&ranks, &v.tiles)
                && let Some(made) = rule_made(rules, rule, &ranks)
            {
                out.push((ins, made));
            }
            out.len() >= 3 || tried >= MOST_TUPLES
        });
        if done {
            break;
        }
    }
    out
}

/// Calls `f` with every way of writing `total` as `tuple[at..]`, each part below `n`, until it
/// says stop; whether it did.
fn compositions(
    tuple: &mut [usize],
    at: usize,
    total: usize,
    n: usize,
    f: &mut impl FnMut(&[usize]) -> bool,
) -> bool {
    if at + 1 == tuple.len() {
        if total >= n {
            return false;
        }
        tuple[at] = total;
        return f(tuple);
    }
    for part in 0..n.min(total + 1) {
        tuple[at] = part;
        if compositions(tuple, at + 1, total - part, n, f) {
            return true;
        }
    }
    false
}

/// Examples of merge rule `i` on the ladder, as the board shows its tiles: "1 + 2 = 3",
/// "5 + 5 = 9 and 1", "-1 + 1 = nothing".
fn rule_examples(v: &Variant, rules: &tilebox_sliding::Rules, i: usize) -> Vec<String> {
    examples_of(v, rule_matches(v, rules, i))
}

/// [`rule_examples`] of the matches [`rule_matches`] found.
fn examples_of(v: &Variant, matches: Vec<(Vec<usize>, Vec<Rank>)>) -> Vec<String> {
    let text = |p: usize| v.tile_text(v.tiles.get(p.wrapping_sub(1)).copied().unwrap_or(0));
    let mut out: Vec<String> = Vec::new();
    for (ins, made) in matches {
        let made: Vec<String> = made.iter().map(|&r| text(usize::from(r))).collect();
        let example = format!(
            "{} = {}",
            ins.iter().map(|&p| text(p)).collect::<Vec<_>>().join(" + "),
            if made.is_empty() {
                "nothing".to_string()
            } else {
                made.join(" and ")
            }
        );
        if !out.contains(&example) {
            out.push(example);
        }
    }
    out
}

/// What `ranks` make by `rule` in the engine (2 tiles by its table; more, or a rule that leaves
/// tiles or takes whole runs, by sliding a line of them alone): the tile made, then the tiles
/// left.
fn rule_made(
    rules: &tilebox_sliding::Rules,
    rule: &tilebox_sliding::variant::MergeRule,
    ranks: &[Rank],
) -> Option<Vec<Rank>> {
    // The rules of a move on which this one holds (of every move, for most rules), whose lines
    // all move alike.
    let dir = rule.directions.first().copied().unwrap_or(Direction::Left);
    let turn = rule.on_moves.map_or(0, |[_, r]| u64::from(r));
    let rules = rules.on_move(dir, turn);
    let (k, leaves) = (rule.tiles.len(), rule.leaves.len());
    if k == 2 && leaves == 0 && !rule.run && rule.makes.is_some() && rule.spent.is_empty() {
        return rules.pair_merge(ranks[0], ranks[1]).map(|made| vec![made]);
    }
    let values: Vec<u64> = ranks.iter().map(|&r| rules.value(r)).collect();
    let side = rules.variant().side.max(k);
    let mut rows = vec![vec![0; side]; side];
    for (c, &v) in values.iter().enumerate() {
        rows[0][c] = v;
    }
    let board = rules.board_from_values(&rows).ok()?;
    let slid = rules.slide(&board, Direction::Left);
    let first = slid.board.rows().next()?;
    // The rule merged them all: the tile made and the ones it leaves (nothing, for tiles that
    // destroy one another), nothing else.
    let made: Vec<Rank> = first.iter().copied().take_while(|&r| r != 0).collect();
    (made.len() == usize::from(rule.makes.is_some()) + leaves && slid.moved).then_some(made)
}

/// The tiles a rule takes, in words: "two tiles", "three tiles in a row", "exactly two equal
/// tiles (not three or more in a row)".
fn tiles_words(rule: &tilebox_sliding::variant::MergeRule) -> &'static str {
    match (rule.tiles.len(), rule.run) {
        (2, false) => "two tiles",
        (3, false) => "three tiles in a row",
        (4, false) => "four tiles in a row",
        (_, false) => "five tiles in a row",
        (2, true) => "exactly two equal tiles (not three or more in a row)",
        (3, true) => "exactly three equal tiles in a row",
        (4, true) => "exactly four equal tiles in a row",
        (_, true) => "exactly five equal tiles in a row",
    }
}

/// A rule of a range of integers in words, its tiles named by their letters and what must hold
/// of them: "three tiles a, b, c (from the wall) with a = b and |c - a| <= 1". `None` for a
/// ladder.
fn integer_words(v: &Variant, rule: &tilebox_sliding::variant::MergeRule) -> Option<String> {
    if !v.tiles.is_numbered() {
        return None;
    }
    let k = rule.tiles.len();
    let letters: Vec<String> = tilebox_sliding::condition::LETTERS[..k.min(5)]
        .iter()
        .map(char::to_string)
        .collect();
    let mut text = format!(
        "{} {} (from the wall)",
        tiles_words(rule),
        letters.join(", ")
    );
    if !rule.when.is_empty() {
        let conds: Vec<String> = rule.when.iter().map(ToString::to_string).collect();
        let _ = write!(text, " with {}", conds.join(" and "));
        if rule.when.iter().any(|c| c.letters() & (1 << 5) != 0) {
            text.push_str(" (z is the tile behind them, 0 if none)");
        }
        if rule.when.iter().any(|c| c.expr().reads_turn()) {
            text.push_str(" (t is the number of moves played before this one)");
        }
    }
    if let Some(score) = &rule.scores {
        let made = if score.reads_made() {
            ", made being the tile made"
        } else {
            ""
        };
        let _ = write!(text, " (a merge scores {score}{made})");
    }
    Some(text)
}

/// The rules of the next move of `state`, where rules hold on some moves or directions only
/// (2592): "Move 15: three tiles in a row merge". Where the rules differ by direction, each
/// direction is named ("moving left or right, two tiles merge; moving up or down, no tiles
/// merge"), by an example where the words alone would not tell them apart (Directional Merges:
/// "moving left: 1 + 3 = 4; moving right: 1 + 1 = 2 …"); and where the rules do not change
/// from move to move, there is no "Move N: ".
/// `None` where every move has the same rules. A game with a hook's pool (DIVE) tells its seeds
/// instead: "Seeds (the tiles that spawn): 2, 3, 5". Where the variant has `shown` lines (378's
/// goal), they come first, on a line of their own: "Goal: 10 · Goals reached: 1".
pub fn this_move(state: &SlidingState) -> Option<String> {
    let shown = shown(state);
    // A hook's pool (DIVE's seeds), which changes move by move, is told next.
    let told = if state.rules().variant().hook.is_some() {
        let seeds: Vec<String> = state
            .pool()
            .into_iter()
            .map(|s| state.rules().variant().tile_text(s))
            .collect();
        Some(format!(
            "Seeds (the tiles that spawn): {}",
            seeds.join(", ")
        ))
    } else if state.rules().has_move_rules() {
        // Asked every frame: the compiled rules know at once whether any rule is of this kind.
        move_rules(state)
    } else {
        None
    };
    match (shown, told) {
        (Some(shown), Some(told)) => Some(format!("{shown}\n{told}")),
        (shown, told) => shown.or(told),
    }
}

/// What the variant's `shown` tells of the counters (378: "Goal: 10 · Goals reached: 1");
/// `None` without it.
pub fn shown(state: &SlidingState) -> Option<String> {
    let lines = state.rules().shown(&state.counters(), state.turn());
    if lines.is_empty() {
        return None;
    }
    let words: Vec<String> = lines
        .into_iter()
        .map(|(label, value)| match value {
            Some(v) => format!("{label}: {v}"),
            None => format!("{label}: –"),
        })
        .collect();
    Some(words.join(" · "))
}

/// The next move's rules in words, where they change from move to move or by direction
/// ([`this_move`]).
fn move_rules(state: &SlidingState) -> Option<String> {
    let v = state.rules().variant();
    let turn = state.turn();
    // The first example of the first of `rules` (indices into the merges) that has one.
    let first_example = |rules: &[usize]| {
        rules
            .iter()
            .find_map(|&i| rule_examples(v, state.rules(), i).into_iter().next())
    };
    // What merges on the next move toward each direction (in words, and the rules), and the
    // directions alike.
    let mut alike: Vec<(String, Vec<usize>, Vec<String>)> = Vec::new();
    for dir in Direction::ALL {
        let mut kinds: Vec<String> = Vec::new();
        let holding: Vec<usize> = (0..v.merges.len())
            .filter(|&i| v.merges[i].holds_on(dir, turn))
            .collect();
        for &i in &holding {
            let kind = tiles_words(&v.merges[i]).to_string();
            if !kinds.contains(&kind) {
                kinds.push(kind);
            }
        }
        let mut what = if kinds.is_empty() {
            "no tiles merge".to_string()
        } else {
            format!("{} merge", list(&kinds, "or"))
        };
        // Where a rule of other moves reads as one of this move's (2295's tiles merge two at
        // a time on every move, with their double on one, their quadruple on another …), an
        // example tells this move's apart: "two tiles merge: 1 + 4 = 5".
        let reads_alike_elsewhere = v.merges.iter().enumerate().any(|(i, r)| {
            r.on_moves.is_some()
                && (r.directions.is_empty() || r.directions.contains(&dir))
                && !holding.contains(&i)
                && kinds.contains(&tiles_words(r).to_string())
        });
        if reads_alike_elsewhere && let Some(e) = first_example(&holding) {
            what = format!("{what}: {e}");
        }
        match alike.iter_mut().find(|(_, rules, _)| *rules == holding) {
            Some((_, _, dirs)) => dirs.push(dir.word().to_string()),
            None => alike.push((what, holding, vec![dir.word().to_string()])),
        }
    }
    // Directions whose rules differ but read alike are told apart by an example of each
    // instead ("moving left: 1 + 3 = 4").
    let told_apart = |what: &str| alike.iter().filter(|(w, _, _)| w == what).count() < 2;
    let parts: Vec<String> = alike
        .iter()
        .map(|(what, rules, dirs)| {
            let example = (!told_apart(what)).then(|| first_example(rules)).flatten();
            match (example, alike.len()) {
                (_, 1) => what.clone(),
                (Some(e), _) => format!("moving {}: {e}", list(dirs, "or")),
                (None, _) => format!("moving {}, {what}", list(dirs, "or")),
            }
        })
        .collect();
    let text = parts.join("; ");
    if v.merges.iter().any(|r| r.on_moves.is_some()) {
        Some(format!("Move {}: {text}", turn.saturating_add(1)))
    } else {
        // The rules hold by direction alone: the same on every move.
        let mut c = text.chars();
        c.next()
            .map(|f| f.to_uppercase().chain(c).collect::<String>())
    }
}

/// When a rule holds, if not on every move: " on moves 2, 4, 6 …" (counted from 1), " when
/// moving right or down".
fn when(rule: &tilebox_sliding::variant::MergeRule) -> String {
    let mut out = String::new();
    if let Some([m, r]) = rule.on_moves {
        let moves: Vec<String> = (0..3).map(|i| (r + 1 + i * m).to_string()).collect();
        let _ = write!(out, " on moves {} …", moves.join(", "));
    }
    if !rule.directions.is_empty() {
        let words: Vec<String> = rule
            .directions
            .iter()
            .map(|d| d.word().to_string())
            .collect();
        let _ = write!(out, " when moving {}", list(&words, "or"));
    }
    out
}

/// How to play `v`, written from its rules.
pub fn how_to_play(v: &Variant) -> String {
    let side = v.side;
    let win = v.win_words();
    if plays_like(v, "2048") {
        let goal = match &win {
            Some(w) => format!(
                "Make a {w} tile to win, then keep going if you like; the game ends when no move is left."
            ),
            None => "The game ends when no move is left.".to_string(),
        };
        let controls = controls(v);
        return format!(
            "{controls} Two tiles of the same number that meet merge into their sum, and the sum is \
added to your score. After every move a 2 or a 4 appears. {goal} This board is {side}×{side}."
        );
    }
    if plays_like(v, "threes") && win.is_none() {
        return format!(
            "Slide the cards with the arrow keys, WASD or hjkl, or drag them on the board: the \
cards that would move follow the drag, and letting go past a third of a cell plays the move \
(short of that, they slide back). Cards move one step at most. A 1 and a 2 make a 3; from 3 up, two equal cards make their double. \
A new card comes in from the edge you slid away from: the next one is shown above the board \
(\"+\" is a bonus card, worth 6 or more). The game ends when no move is left; the score counts \
every card of 3 and up. This board is {side}×{side}."
        );
    }
    let mut text = String::from(controls(v));
    text.push_str(match v.motion {
        Movement::Slide => " Every tile slides as far as it can.",
        Movement::Step => " Tiles move one step at most.",
    });
    // Compiled once: the examples of every rule are slides by it.
    let compiled = tilebox_sliding::Rules::cached(v).ok();
    // A kind of rule (its words, what it makes, whether it leaves tiles), its examples shown
    // and whether more were left out.
    type Kind = (String, u8, bool);
    let mut rules: Vec<(Kind, Vec<String>, bool)> = Vec::new();
    // The tiles the rules make (their first examples), in ladder order.
    let mut made = std::collections::BTreeSet::new();
    for (i, rule) in v.merges.iter().enumerate() {
        let matches = compiled
            .as_ref()
            .map(|c| rule_matches(v, c, i))
            .unwrap_or_default();
        // What the rule makes: nothing (0), a tile that scores nothing (1), or one that scores
        // (2); rules of one kind that make different things read apart (1716's 1s joining (2,
        // x), which score nothing, and its Pascal sums; its pairs that make a tile and those
        // that destroy one another).
        let makes = match (&v.score, matches.first().and_then(|(_, m)| m.first())) {
            (_, None) => 0,
            (Scoring::Made(points), Some(&r))
                if points.get(usize::from(r).wrapping_sub(1)) == Some(&0) =>
            {
                1
            }
            _ => 2,
        };
        made.extend(
            matches
                .iter()
                .filter_map(|(_, m)| m.first().map(|&r| usize::from(r))),
        );
        let examples = examples_of(v, matches);
        // A rule of a range of integers says its conditions, with examples or without.
        if examples.is_empty() && !v.tiles.is_numbered() {
            continue;
        }
        let count = integer_words(v, rule).unwrap_or_else(|| tiles_words(rule).to_string());
        let order = match (rule.any_order, rule.tiles.len()) {
            (false, _) => "",
            (true, 2) => ", in either order",
            (true, _) => ", in any order",
        };
        // Rules written rung by rung (5040, 2592 …) read as one: the next rule of the same
        // kind adds its examples to the last one's, three at most.
        let when = when(rule);
        let comma = if order.is_empty() || when.is_empty() {
            ""
        } else {
            ","
        };
        let scoring = if makes == 1 { " (scoring nothing)" } else { "" };
        // Rules that leave tiles read apart from those that don't (Partial Absorb 270's
        // doubles and its splits: "4 + 4 = 5 and 3").
        let kind = (
            format!("{count} merge{order}{comma}{when}{scoring}"),
            makes,
            !rule.leaves.is_empty(),
        );
        match rules.last_mut() {
            Some((last, shown, more)) if *last == kind => {
                for e in examples {
                    if shown.len() < 3 {
                        shown.push(e);
                    } else {
                        *more = true;
                    }
                }
            }
            _ => rules.push((kind, examples, false)),
        }
    }
    let rules: Vec<String> = rules
        .into_iter()
        .map(|((kind, _, _), shown, more)| {
            if shown.is_empty() {
                kind
            } else if more {
                format!("{kind}: {}, …", shown.join(", "))
            } else {
                format!("{kind}: {}", list(&shown, "and"))
            }
        })
        .collect();
    if rules.is_empty() {
        text.push_str(" No tiles merge.");
    } else {
        let _ = write!(
            text,
            " Tiles merge only by these rules, tried from the wall outward: {}{}.",
            rules.join("; "),
            if v.merges
                .iter()
                .any(|r| r.tiles.iter().any(|p| matches!(p, Pos::Rel(_))))
            {
                " and so on up the ladder"
            } else {
                ""
            }
        );
    }
    // Spent cells (2378, 2000): one sentence for each kind of merge and cell.
    let mut spent: Vec<(usize, u8)> = Vec::new();
    for rule in &v.merges {
        for &p in &rule.spent {
            if !spent.contains(&(rule.tiles.len(), p)) {
                spent.push((rule.tiles.len(), p));
            }
        }
    }
    const PLACES: [&str; 5] = ["first", "second", "third", "fourth", "fifth"];
    for (k, p) in spent {
        let merge = v
            .merges
            .iter()
            .find(|r| r.tiles.len() == k && !r.spent.is_empty());
        let _ = write!(
            text,
            " After {} merge, a tile that stops where the {} of them from the wall was starts no merge that move (a tile behind it may still merge into it).",
            merge.map_or("a", |r| tiles_words(r)),
            PLACES.get(usize::from(p)).unwrap_or(&"last")
        );
    }
    text.push_str(&pipeline_words(v));
    match &v.score {
        Scoring::Merges => text.push_str(" Every tile a merge makes is added to your score."),
        Scoring::Board(_) => text.push_str(" Your score is counted on the board, tile by tile."),
        Scoring::Made(points) => {
            // The first tiles the rules make that score, with their points, and the first
            // that score nothing (1716's (2, x)).
            let worth = |r: &usize| {
                let tile = v.tiles.get(r.wrapping_sub(1))?;
                Some((v.tile_text(*tile), *points.get(r.wrapping_sub(1))?))
            };
            let shown: Vec<String> = made
                .iter()
                .filter_map(worth)
                .filter(|(_, p)| *p > 0)
                .take(3)
                .map(|(tile, p)| format!("{tile} scores {p}"))
                .collect();
            let nothing: Vec<String> = made
                .iter()
                .filter_map(worth)
                .filter(|(_, p)| *p == 0)
                .take(3)
                .map(|(tile, _)| tile)
                .collect();
            text.push_str(" Every tile a merge makes adds its points to your score");
            if !shown.is_empty() {
                let _ = write!(text, ": {} and so on", list(&shown, "and"));
            }
            if !nothing.is_empty() {
                let _ = write!(text, "; {} and the like score nothing", nothing.join(", "));
            }
            text.push('.');
        }
    }
    let tile_list = |m: &std::collections::BTreeMap<u64, u32>, total: u32, bag: bool| {
        let items: Vec<String> = m
            .iter()
            .filter(|&(_, &n)| n > 0)
            .map(|(&value, &n)| {
                let value = v.tile_text(value);
                if bag {
                    format!("{n} × {value}")
                } else {
                    format!(
                        "a {value} ({}%)",
                        (u64::from(n) * 100 + u64::from(total) / 2) / u64::from(total.max(1))
                    )
                }
            })
            .collect();
        list(&items, if bag { "and" } else { "or" })
    };
    let where_ = match v.spawn_at {
        SpawnAt::Anywhere => "in a random empty cell",
        SpawnAt::MovedEdge => "from the edge you slid away from, on a line that moved",
    };
    if v.hook.is_some()
        && let Some(w) = &v.spawn.weights
    {
        // DIVE's pool of seeds (the only hook).
        let first: Vec<String> = w.keys().map(|&t| v.tile_text(t)).collect();
        let _ = write!(
            text,
            " After every move a seed appears {where_}, each seed as likely; at first the only \
seed is {}. After every move, before the new tile, each tile's leftover (the tile with every \
seed divided out of it as often as it goes, the largest seed first) becomes a seed when it is \
above 1; then a seed that no tile is a multiple of stops being one and adds its value to your \
score, unless every seed would. The seeds are shown under the board.",
            list(&first, "and")
        );
    } else if let Some(w) = &v.spawn.weights {
        let total = w.values().sum();
        let _ = write!(
            text,
            " After every move {} appears {where_}.",
            tile_list(w, total, false)
        );
    } else if let Some(b) = &v.spawn.bag {
        let _ = write!(
            text,
            " After every move a tile comes {where_}, drawn from a bag of {}, refilled when empty.",
            tile_list(b, 0, true)
        );
        if let Some(bonus) = v.spawn.bonus {
            let _ = write!(
                text,
                " Once your highest tile is {} or more, a bonus tile (from {} up to your highest ÷ {}) now and then comes instead.",
                bonus.top_at_least, bonus.lowest, bonus.top_divided_by
            );
        }
    }
    if v.preview {
        text.push_str(" The next tile is shown above the board (\"+\" is a bonus tile).");
    }
    text.push_str(&spawn_win_words(v));
    let won_by = v
        .pipeline
        .win
        .as_ref()
        .map(|t| test_words(t, "you win when"));
    match (&win, won_by) {
        (Some(w), _) => {
            let _ = write!(
                text,
                " Make a {w} tile to win, then keep going if you like; the game ends when no move is left."
            );
        }
        (None, Some(when)) => {
            let _ = write!(
                text,
                " At the end of a move, {when}; keep going if you like: the game ends when no move is left."
            );
        }
        (None, None) => text.push_str(" The game ends when no move is left."),
    }
    let _ = write!(text, " This board is {side}×{side}.");
    text
}

/// How to play's words for the parts of the turn pipeline that change the spawn and the win
/// (format 3's `made`, `draw` and a `distinct` win); empty without them.
fn spawn_win_words(v: &Variant) -> String {
    let p = &v.pipeline;
    let mut text = String::new();
    if let Some(d) = &p.draw {
        let total = v
            .spawn
            .weights
            .as_ref()
            .map_or(0, |w| w.values().map(|&n| u64::from(n)).sum::<u64>());
        let share = u64::from(d.weight);
        let percent = (share * 100 + (total + share) / 2) / (total + share).max(1);
        let _ = write!(
            text,
            " Besides, {percent}% of the time the tile is drawn from {} to {} instead, {}.",
            d.from,
            d.to,
            draw_weight_words(v, d)
        );
    }
    for (i, e) in &p.made {
        if let Some(c) = p.counters.get(*i) {
            let _ = write!(
                text,
                " Each tile a a merge makes sets {} to {} (it starts at {}).",
                c.name, e, c.start
            );
        }
    }
    if let Some(d) = &p.distinct {
        // The first few tiles that count, by their labels.
        let shown: Vec<String> = tilebox_sliding::Rules::cached(v)
            .map(|rules| {
                let counters = rules.start_counters();
                (1..=rules.max_rank())
                    .filter(|&r| rules.counts_toward_distinct(r, &counters, 0))
                    .take(4)
                    .map(|r| v.tile_text(rules.value(r)))
                    .collect()
            })
            .unwrap_or_default();
        let _ = write!(
            text,
            " Make {} different tiles of those that count ({}, …) to win: a tile counts once it is on the board after a move; then keep going if you like.",
            d.count,
            shown.join(", ")
        );
    }
    text
}

/// How a `draw` weighs its tiles, in words: its formula when it is short enough to read; else
/// what the formula does, read off the widest draw (every counter at its greatest).
fn draw_weight_words(v: &Variant, d: &tilebox_sliding::variant::Draw) -> String {
    let each = d.each.to_string();
    if each.chars().count() <= DRAW_FORMULA_SHOWN {
        return format!("each tile a with the weight {each}");
    }
    let mut widest = v.pipeline.start();
    for (slot, c) in widest.iter_mut().zip(&v.pipeline.counters) {
        *slot = c.values[1];
    }
    // The likeliest few of the widest draw, by their labels.
    let likeliest: Vec<String> = tilebox_sliding::Rules::cached(v)
        .ok()
        .and_then(|rules| {
            let mut table = rules.draw_table(&widest)?.weights.clone();
            table.sort_by_key(|&(rank, w)| (std::cmp::Reverse(w), rank));
            Some(
                table
                    .iter()
                    .take(3)
                    .map(|&(rank, _)| v.tile_text(rules.value(rank)))
                    .collect(),
            )
        })
        .unwrap_or_default();
    if likeliest.is_empty() {
        "each tile by a weight of its own (a formula in the variant's file)".to_string()
    } else {
        format!(
            "each tile by a weight of its own (a formula in the variant's file; the likeliest are {})",
            list(&likeliest, "and")
        )
    }
}

/// The longest `draw` weight formula How to play writes out.
const DRAW_FORMULA_SHOWN: usize = 40;

/// A test of the turn pipeline in words, after `lead`: "you lose when some tile a has
/// a > tri(g)", "you win when m = 27".
fn test_words(t: &tilebox_sliding::variant::Test, lead: &str) -> String {
    if t.any {
        format!("{lead} some tile a has {}", t.cond)
    } else {
        format!("{lead} {}", t.cond)
    }
}

/// The turn pipeline in words (format 3's counters, events, one-tile rules and `lose`), in the
/// order a move runs it; empty for a variant without one.
fn pipeline_words(v: &Variant) -> String {
    let p = &v.pipeline;
    let mut text = String::new();
    if !p.counters.is_empty() {
        let counters: Vec<String> = p
            .counters
            .iter()
            .map(|c| {
                format!(
                    "{}, which starts at {} (from {} to {})",
                    c.name, c.start, c.values[0], c.values[1]
                )
            })
            .collect();
        let _ = write!(
            text,
            " The game keeps {} {}, which the rules read.",
            if counters.len() == 1 {
                "a counter"
            } else {
                "counters"
            },
            list(&counters, "and")
        );
    }
    let names = p.names();
    for e in &p.events {
        let then: Vec<String> = e
            .then
            .iter()
            .map(|(i, x)| format!("{} becomes {x}", names.get(*i).map_or("?", String::as_str)))
            .collect();
        let when = if e.each_tile {
            format!(
                "for each tile a that has {}, one by one in the order the move took them (nearest the wall first)",
                e.test.cond
            )
        } else {
            test_words(&e.test, "when").replacen("when ", "if ", 1)
        };
        let at = if e.at_once {
            "at once"
        } else {
            "at the end of the turn"
        };
        let _ = write!(
            text,
            " After a move that moved, {when}, {} {at}.",
            list(&then, "and")
        );
    }
    if !p.ticks.is_empty() {
        let ticks: Vec<String> = p
            .ticks
            .iter()
            .map(|t| {
                let when: Vec<String> = t.when.iter().map(ToString::to_string).collect();
                let when = if when.is_empty() {
                    "every tile a".to_string()
                } else {
                    format!("a tile a with {}", when.join(" and "))
                };
                match &t.makes {
                    None => format!("{when} vanishes"),
                    Some(e) => format!("{when} becomes {e}"),
                }
            })
            .collect();
        let _ = write!(
            text,
            " Then, before the new tile comes, {} (the first rule that fits a tile changes it).",
            list(&ticks, "and")
        );
    }
    if let Some(t) = &p.lose {
        let _ = write!(
            text,
            " After the new tile comes, {}: a loss outranks a win made on the same move.",
            test_words(t, "you lose when")
        );
    }
    text
}

/// The original 2048's colours, with darker numbers than the original's so that every number
/// reads at WCAG AA's 4.5:1 (see `every_built_in_tile_number_reads_at_4_5_to_1`): the
/// original's grey-brown #776e65 on 2 and 4 (3.8:1) is a darker grey-brown, and its white
/// #f9f6f2 on 8 to 2048 (1.4 to 3:1) is a near-black brown.
fn colors_2048(value: u64) -> TileColors {
    const DARK_TEXT: Rgb = Rgb::hex(0x675f57);
    const DARKER_TEXT: Rgb = Rgb::hex(0x2b2620);
    const LIGHT_TEXT: Rgb = Rgb::hex(0xf9f6f2);
    let (fill, text) = match value {
        2 => (Rgb::hex(0xeee4da), DARK_TEXT),
        4 => (Rgb::hex(0xede0c8), DARK_TEXT),
        8 => (Rgb::hex(0xf2b179), DARKER_TEXT),
        16 => (Rgb::hex(0xf59563), DARKER_TEXT),
        32 => (Rgb::hex(0xf67c5f), DARKER_TEXT),
        64 => (Rgb::hex(0xf65e3b), DARKER_TEXT),
        128 => (Rgb::hex(0xedcf72), DARKER_TEXT),
        256 => (Rgb::hex(0xedcc61), DARKER_TEXT),
        512 => (Rgb::hex(0xedc850), DARKER_TEXT),
        1024 => (Rgb::hex(0xedc53f), DARKER_TEXT),
        2048 => (Rgb::hex(0xedc22e), DARKER_TEXT),
        _ => {
            // 4096 and up: dark tiles, a different hue for each doubling.
            const BIG: [u32; 8] = [
                0x3c3a32, 0x5b3a7a, 0x2a5d8f, 0x1f7a5a, 0x8a2b4f, 0x7a5a1f, 0x2b2b6e, 0x000000,
            ];
            let step = value.max(4096).ilog2().saturating_sub(12) as usize;
            (Rgb::hex(BIG[step.min(BIG.len() - 1)]), LIGHT_TEXT)
        }
    };
    TileColors {
        fill,
        text,
        accent: None,
    }
}

/// Threes' blue, red and white cards. The blue and the red are darker than the original's
/// (#66ccff and #ff6680, 1.8:1 and 2.8:1 under white) and the red numbers from 48 up too
/// (#ff3355, 3.6:1 on white), so that every number reads at WCAG AA's 4.5:1.
fn colors_threes(value: u64) -> TileColors {
    match value {
        1 => TileColors {
            fill: Rgb::hex(0x2a7ab8),
            text: Rgb::hex(0xffffff),
            accent: Some(Rgb::hex(0x1d5a8a)),
        },
        2 => TileColors {
            fill: Rgb::hex(0xd63855),
            text: Rgb::hex(0xffffff),
            accent: Some(Rgb::hex(0xa3283f)),
        },
        _ => {
            // White cards; the number turns red from 48 up, as in Threes, and the foot of the
            // card has a colour per value so that big cards are told apart at a glance.
            const FEET: [u32; 12] = [
                0xffcc66, 0xffaa55, 0xff8844, 0xee6633, 0xcc4422, 0xaa3366, 0x884499, 0x5544aa,
                0x3366bb, 0x2288aa, 0x229977, 0x111111,
            ];
            let step = (value.max(3) / 3).ilog2() as usize;
            TileColors {
                fill: Rgb::hex(0xffffff),
                text: if value >= 48 {
                    Rgb::hex(0xd91a3d)
                } else {
                    Rgb::hex(0x222222)
                },
                accent: Some(Rgb::hex(FEET[step.min(FEET.len() - 1)])),
            }
        }
    }
}

/// A colour from hue (degrees), saturation and lightness (0 to 1).
fn hsl(h: f64, s: f64, l: f64) -> Rgb {
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let hp = (h.rem_euclid(360.0)) / 60.0;
    let x = c * (1.0 - (hp % 2.0 - 1.0).abs());
    let (r, g, b) = match hp as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = l - c / 2.0;
    let to = |v: f64| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    Rgb(to(r), to(g), to(b))
}

/// A generated palette for any ladder: tile `rank` (from 1) of `len` gets a hue of its own
/// (golden-angle steps, so neighbours differ most) and a lightness falling up the ladder in
/// three bands; the text is black or white, whichever contrasts more (always at least 4.5:1).
pub fn generated_colors(rank: usize, len: usize) -> TileColors {
    let r = rank.max(1) as f64;
    let hue = 30.0 + (r - 1.0) * 137.508;
    let band = (rank.max(1) - 1) % 3;
    let climb = (r - 1.0) / (len.max(2) as f64 - 1.0);
    let lightness = [0.82, 0.6, 0.38][band] - 0.12 * climb;
    let saturation = [0.55, 0.7, 0.65][band];
    let fill = hsl(hue, saturation, lightness);
    readable(fill)
}

/// A tile of `fill` with black or white text, whichever stands out more (always at least
/// 4.5 : 1).
fn readable(fill: Rgb) -> TileColors {
    let black = Rgb(0, 0, 0);
    let white = Rgb(0xff, 0xff, 0xff);
    let text = if fill.contrast(black) >= fill.contrast(white) {
        black
    } else {
        white
    };
    TileColors {
        fill,
        text,
        accent: None,
    }
}

/// The colours of the integer `i` in a range of integers: a hue for each power of two (1, 2 to
/// 3, 4 to 7 …), light at the start of its span and darker toward the next, the way 1762's
/// tiles shade in the Compendium; 0 and the negative numbers are greys and dark purples.
/// The text is black or white, whichever stands out more (always at least 4.5 : 1).
pub fn integer_colors(i: i64) -> TileColors {
    let m = i.unsigned_abs().max(1);
    let band = 63 - m.leading_zeros();
    let span = 1u64 << band;
    let within = (m - span) as f64 / span as f64;
    let fill = match i {
        0 => hsl(0.0, 0.0, 0.75),
        i if i < 0 => hsl(285.0 + 8.0 * f64::from(band % 4), 0.45, 0.3 - 0.1 * within),
        _ => hsl(
            30.0 + f64::from(band) * 137.508,
            [0.6, 0.7, 0.65][band as usize % 3],
            [0.78, 0.58, 0.42][band as usize % 3] - 0.14 * within,
        ),
    };
    readable(fill)
}

impl FrontEnd<Sliding> for SlidingFrontEnd {
    fn how_to_play(&self, params: &Variant) -> String {
        how_to_play(params)
    }

    fn tile_text(&self, params: &Variant, value: u64) -> String {
        params.tile_text(value)
    }

    fn tile_colors(&self, params: &Variant, value: u64) -> TileColors {
        if *params.tiles == *ladder_of("2048") {
            return colors_2048(value);
        }
        if *params.tiles == *ladder_of("threes") {
            return colors_threes(value);
        }
        if let Some(i) = params.tiles.integer(value) {
            return integer_colors(i);
        }
        let rank = params
            .rank_of(value)
            .map_or(params.tiles.len(), usize::from);
        generated_colors(rank, params.tiles.len())
    }

    fn board_colors(&self, params: &Variant, dark: bool) -> BoardColors {
        let threes = *params.tiles == *ladder_of("threes");
        match (threes, dark) {
            (true, true) => BoardColors {
                frame: Rgb::hex(0x2f4a4f),
                empty: Rgb::hex(0x3b5b60),
            },
            (true, false) => BoardColors {
                frame: Rgb::hex(0xbbd9d9),
                empty: Rgb::hex(0xcce6e6),
            },
            (false, true) => BoardColors {
                frame: Rgb::hex(0x4a423b),
                empty: Rgb::hex(0x5e554c),
            },
            (false, false) => BoardColors {
                frame: Rgb::hex(0xbbada0),
                empty: Rgb::hex(0xcdc1b4),
            },
        }
    }

    fn assistant(&self) -> Option<&dyn Assistant<Sliding>> {
        Some(&self.assistant)
    }

    fn fixtures(&self) -> Fixtures {
        let threes = builtin_variant("threes")
            .map(|v| v.to_json())
            .unwrap_or_default();
        Fixtures {
            seed: NONSENSE_SEED,
            nonsense: nonsense(),
            valid_params: vec![
                json!({}),
                json!({ "side": 2 }),
                json!({ "side": 8, "win": 8 }),
                json!({ "side": 3, "win": 512 }),
                threes,
            ],
            invalid_params: vec![
                json!({ "side": 1 }),
                json!({ "side": 9 }),
                json!({ "win": 7_777_777 }),
                json!({ "side": 4, "bonus": true }),
                json!({ "tiles": [] }),
                json!({ "format": 4 }),
                json!(null),
                json!("4x4"),
            ],
        }
    }
}

/// Hints and autoplay for every sliding variant, built in or a player's own: [`SlidingPlayer`],
/// the bitboard players where they play the variant exactly (4×4 boards whose rules are 2048's
/// or Threes', [`tilebox_ai::Bitboard::of`]), the generic expectimax everywhere else. With a
/// players folder ([`SlidingAssistant::with_players`]), a 4×4 variant whose network was trained
/// (`tilebox-cli train`) is played by the same expectimax with the network as its evaluation;
/// a network file that is refused leaves the heuristic, and the player tells why
/// ([`Player::warnings`]).
#[derive(Debug, Clone, Default)]
pub struct SlidingAssistant {
    players: Option<Arc<Players>>,
}

impl SlidingAssistant {
    /// The assistant with the trained players of `players`.
    pub fn with_players(players: Arc<Players>) -> Self {
        Self {
            players: Some(players),
        }
    }
}

impl Assistant<Sliding> for SlidingAssistant {
    /// Every variant.
    fn plays(&self, _: &Variant) -> bool {
        true
    }

    fn player(&self) -> Box<dyn Player<Sliding>> {
        Box::new(AiPlayer {
            player: SlidingPlayer::new(),
            players: self.players.clone(),
            evaluation: None,
            refused: None,
        })
    }
}

/// The AI's player: [`SlidingPlayer`], kept between questions, and the trained players (asked
/// at each move: the folder keeps what it read, and reads a network again once a training run
/// saved it).
struct AiPlayer {
    player: SlidingPlayer,
    players: Option<Arc<Players>>,
    evaluation: Option<&'static str>,
    /// A network file refused, in one line.
    refused: Option<String>,
}

impl Player<Sliding> for AiPlayer {
    fn best_move(
        &mut self,
        state: &SlidingState,
        budget: Duration,
    ) -> Result<Option<Direction>, AssistError> {
        if Sliding::legal_moves(state).is_empty() {
            return Ok(None);
        }
        let limits = Limits::per_move(budget);
        let variant = state.rules().variant();
        let found = self
            .players
            .as_ref()
            .map_or(Found::Missing, |players| players.find(variant));
        let advice = match found {
            Found::Network(network) => {
                self.evaluation = Some(NETWORK);
                self.refused = None;
                self.player.advise_learned(state, &limits, &network)
            }
            Found::Missing | Found::Learning(_) | Found::Refused(_) => {
                if let Found::Refused(why) = found {
                    self.refused = Some(why);
                }
                self.evaluation = Some(HEURISTIC);
                self.player.advise(state, &limits)
            }
        };
        match advice {
            Some(advice) => Ok(Some(advice.best)),
            None => Err(AssistError::CannotPlay(CANNOT_PLAY.to_string())),
        }
    }

    fn evaluation(&self) -> Option<&'static str> {
        self.evaluation
    }

    fn warnings(&self) -> Vec<String> {
        self.refused
            .iter()
            .map(|why| format!("{why}; playing with the heuristic"))
            .collect()
    }
}

/// Nonsense typed into a sliding game's start, and what it must give. Sliding games read every
/// character as a move (a whole direction word excepted); at seed 5 a left swipe moves tiles.
fn nonsense() -> Vec<(String, Outcome)> {
    let unreadable = Outcome::unreadable;
    vec![
        ("".into(), Outcome::Played(0)),
        (" \t ".into(), Outcome::Played(0)),
        ("?".into(), unreadable("?")),
        ("0".into(), unreadable("0")),
        ("-".into(), unreadable("-")),
        ("99".into(), unreadable("9")),
        ("1+1".into(), unreadable("1")),
        (
            "L+R".into(),
            Outcome::Unreadable {
                position: 2,
                text: "+".into(),
                played: 1,
            },
        ),
        ("left".into(), Outcome::Played(1)),
        ("\u{1F600}".into(), unreadable("\u{1F600}")),
        ("+".into(), unreadable("+")),
        ("10".into(), unreadable("1")),
    ]
}

/// The seed the nonsense is typed into.
const NONSENSE_SEED: u64 = 5;

#[cfg(test)]
mod tests {
    use tilebox_ai::Bitboard;
    use tilebox_core::Session;

    use super::*;
    use tilebox_sliding::builtin_variants;

    fn variant(id: &str) -> Variant {
        builtin_variant(id).unwrap()
    }

    #[test]
    fn big_2048_tiles_are_all_different() {
        let v = variant("2048");
        let front = SlidingFrontEnd::default();
        let fills: Vec<_> = (12..=19)
            .map(|p| front.tile_colors(&v, 1 << p).fill)
            .collect();
        for (i, a) in fills.iter().enumerate() {
            for b in &fills[i + 1..] {
                assert_ne!(a, b);
            }
        }
        assert_ne!(front.tile_colors(&v, 2048).fill, fills[0]);
    }

    #[test]
    fn big_threes_cards_have_distinct_feet() {
        let v = variant("threes");
        let feet: Vec<_> = [3, 6, 12, 24, 48, 96, 192, 384, 768, 1536, 3072, 6144]
            .iter()
            .map(|&x| SlidingFrontEnd::default().tile_colors(&v, x).accent)
            .collect();
        for (i, a) in feet.iter().enumerate() {
            for b in &feet[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }

    /// Every number on every tile of every built-in variant, up to the top of its ladder, in
    /// both themes, reads at WCAG 2.1 AA's 4.5:1 against its tile. Why 4.5:1 and not the 3:1
    /// of large text: the app draws a tile's number in the regular (not bold) proportional
    /// font at `theme::tile_font_size` (half the cell for one or two digits, 1.1 cells over the
    /// digit count beyond), so it is large text (24 px regular) only on big cells. At the
    /// app's smallest window (360 px wide, zoom 1) the board is under 330 px: an 8×8 cell is
    /// about 32 px, so a "2" is about 16 px, and even on 4×4 a "2048" is about 20 px. The
    /// number is drawn on the tile's own fill, whatever the board's colours around it.
    #[test]
    fn every_built_in_tile_number_reads_at_4_5_to_1() {
        let registry = crate::registry();
        let mut checked = 0;
        for entry in registry.entries() {
            let Some(v) = entry.params::<Sliding>() else {
                continue;
            };
            for dark in [false, true] {
                let board = entry.board_colors(dark);
                for &value in &v.tiles {
                    let tile = entry.tile_colors(value);
                    let ratio = tile.fill.contrast(tile.text);
                    assert!(
                        ratio >= 4.5,
                        "{} (dark {dark}, board {board:?}): {value} is {ratio:.2}:1 in {tile:?}",
                        entry.id()
                    );
                    checked += 1;
                }
            }
        }
        // Nine built-in entries of the sliding kind, each with its whole ladder.
        assert!(checked > 9 * 2 * 11, "{checked}");
    }

    #[test]
    fn generated_palettes_keep_every_tile_distinct_and_readable() {
        // Every built-in on a generated palette (not 2048's nor Threes'), up to the 255 tiles
        // of Directional Merges and 1716.
        let generated: Vec<Variant> = builtin_variants()
            .into_iter()
            .filter(|v| !plays_like(v, "2048") && !plays_like(v, "threes"))
            .collect();
        assert!(generated.iter().any(|v| v.tiles.len() == 255));
        for v in generated {
            let id = v.id.clone();
            if v.tiles.is_numbered() {
                // Thousands of tiles: every one readable; the integers to 64 (and -1) distinct,
                // and each power of two's span its own colour.
                let color = |i: i64| {
                    let value = v.tiles.value_of_integer(i).unwrap();
                    SlidingFrontEnd::default().tile_colors(&v, value)
                };
                for &t in v.tiles.iter() {
                    let c = SlidingFrontEnd::default().tile_colors(&v, t);
                    assert!(c.fill.contrast(c.text) >= 4.5, "{id} tile {t}: {c:?}");
                }
                let small: Vec<i64> = (-1..=64)
                    .chain((7..16).map(|k| 1 << k))
                    .filter(|&i| i != 0 && v.tiles.value_of_integer(i).is_some())
                    .collect();
                for (n, &a) in small.iter().enumerate() {
                    for &b in &small[n + 1..] {
                        assert_ne!(color(a).fill, color(b).fill, "{id}: {a} and {b}");
                    }
                }
                continue;
            }
            let colors: Vec<TileColors> = v
                .tiles
                .iter()
                .map(|&t| SlidingFrontEnd::default().tile_colors(&v, t))
                .collect();
            for (i, a) in colors.iter().enumerate() {
                assert!(a.fill.contrast(a.text) >= 4.5, "{id} tile {i}: {a:?}");
                for b in &colors[i + 1..] {
                    assert_ne!(a.fill, b.fill, "{id}");
                }
            }
        }
    }

    #[test]
    fn the_help_follows_the_variant() {
        let help = how_to_play(&variant("2048-3x3"));
        assert!(help.contains("Make a 512 tile to win"), "{help}");
        assert!(help.contains("3×3"), "{help}");
        let help = how_to_play(&variant("2584"));
        assert!(help.contains("1 + 1 = 2"), "{help}");
        assert!(help.contains("in either order"), "{help}");
        assert!(help.contains("a 1 (85%), a 2 (10%) or a 3 (5%)"), "{help}");
        assert!(help.contains("Make a 2584 tile to win"), "{help}");
        let help = how_to_play(&variant("1024"));
        assert!(
            help.contains("three tiles in a row merge: 1 + 1 + 1 = 3"),
            "{help}"
        );
        assert!(help.contains("5×5"), "{help}");
        let help = how_to_play(&variant("threes"));
        assert!(help.contains("A 1 and a 2 make a 3"), "{help}");
        let bagged = Variant {
            id: "x".into(),
            win: tilebox_sliding::variant::Win::one(48),
            ..variant("threes")
        };
        let help = how_to_play(&bagged);
        assert!(help.contains("bag of 4 × 1, 4 × 2 and 4 × 3"), "{help}");
        assert!(help.contains("bonus tile"), "{help}");
        // Format 2: merges of four, tiles left, whole runs, several wins.
        let help = how_to_play(&variant("6561"));
        assert!(
            help.contains("four tiles in a row merge: 1 + 1 + 1 + 1 = 4"),
            "{help}"
        );
        let help = how_to_play(&variant("partial-absorb-257"));
        assert!(help.contains("3 + 3 = 5 and 1"), "{help}");
        let help = how_to_play(&variant("900"));
        assert!(
            help.contains("exactly two equal tiles (not three or more in a row) merge: 1 + 1 = 2"),
            "{help}"
        );
        assert!(
            help.contains("exactly five equal tiles in a row merge: 1 + 1 + 1 + 1 + 1 = 5"),
            "{help}"
        );
        let help = how_to_play(&variant("1535-1536-1537"));
        assert!(help.contains("Make a 1535, 1536 or 1537 tile"), "{help}");
        // Labels: the tiles are written as the board shows them, with the points they score;
        // tiles that destroy one another make nothing.
        for (id, wanted) in [
            (
                "10",
                &[
                    "2 + 2 + -1 = 3",
                    "a 1 (50%) or a -1 (50%)",
                    "Make a 10 or -10 tile",
                    "adds its points to your score: 2 scores 2, -2 scores 2 and 3 scores 3",
                ][..],
            ),
            (
                "bicolor-2187",
                &["3r + 3b = 6", "Make a 2187r or 2187b tile"],
            ),
            (
                "2049",
                &[
                    "two tiles merge, in either order: -1 + 1 = nothing",
                    "3 + 3 + -1 = 5",
                    "adds its points to your score: 2 scores 2, 3 scores 1 and 5 scores 3",
                ],
            ),
            ("16-16i", &["bag of 1 × 1, 1 × i, 1 × -1 and 1 × -i"]),
            (
                "2378",
                &[
                    "three tiles in a row merge, in any order: 2 + 2 + 1 = 5",
                    "After three tiles in a row merge, a tile that stops where the third of them from the wall was starts no merge that move (a tile behind it may still merge into it).",
                ],
            ),
            (
                "2216-838",
                &[
                    "two tiles merge, in either order: 1 + 0.5 = 1.5, 1.5 + 0.75 = 2.25, 2.25 + 1.125 = 3.375, …; \
                     two tiles merge: 0.5 + 0.5 = 1, 0.75 + 0.75 = 1.5, 1.125 + 1.125 = 2.25, …; \
                     two tiles merge, in either order: 1 + ÷2 = 0.5, 1.5 + ÷2 = 0.75, 2.25 + ÷2 = 1.125, …; \
                     two tiles merge (scoring nothing): ÷2 + ÷2 = ÷2",
                    "drawn from a bag of 4 × ÷2 and 4 × 1",
                    "Make a 2216.84 tile to win",
                ],
            ),
            (
                "1716",
                &[
                    "two tiles merge (scoring nothing): 1 + 1 = 2(2|2)",
                    "two tiles merge, in either order (scoring nothing): 2(2|2) + 1 = 3(2|3), 3(2|3) + 1 = 4(2|4)",
                    "two tiles merge, in either order: 6(3|3) + 4(2|4) = 10(3|4)",
                    "two tiles merge: 3(2|3) + 3(2|3) = 6(3|3)",
                    "two tiles merge: 2(2|2) + 2(2|2) = nothing",
                    "6(3|3) scores 6, 10(3|4) scores 10 and 15(3|5) scores 15 and so on; 2(2|2), 3(2|3), 4(2|4) and the like score nothing.",
                    "Make a 1716(7|8) tile to win",
                ],
            ),
            (
                "directional-merges",
                &[
                    "two tiles merge when moving right: 1 + 1 = 2, 2 + 2 = 4, 3 + 3 = 6, …; \
                     two tiles merge, in either order, when moving down: 1 + 2 = 3, 2 + 4 = 6, 3 + 6 = 9, …; \
                     two tiles merge, in either order, when moving left: 1 + 3 = 4, 2 + 6 = 8, 3 + 9 = 12, …; \
                     two tiles merge, in either order, when moving up: 2 + 3 = 5, 4 + 6 = 10, 6 + 9 = 15, …",
                ],
            ),
            (
                "partial-absorb-377",
                &["adds its points to your score: 3 scores 3, 8 scores 9 and 13 scores 15"],
            ),
            (
                "2592",
                &[
                    "three tiles in a row merge on moves 2, 4, 6 …: 1 + 1 + 1 = 3, 2 + 2 + 2 = 6, 3 + 3 + 3 = 9, …; two tiles merge on moves 1, 3, 5 …: 1 + 1 = 2, 2 + 2 = 4, 3 + 3 = 6, ….",
                ],
            ),
            (
                "2700",
                &["two tiles merge, in either order: 1 + 2 = 3, 1 + 3 = 4, 2 + 3 = 5, …"],
            ),
            (
                "3-188-646",
                &[
                    "two tiles merge, in either order: 2 + 4 = 6, 6 + 12 = 18",
                    "three tiles in a row merge (scoring nothing): 2 + × + 2 = 4, 2 + × + 6 = 12",
                    "two tiles merge (scoring nothing): × + × = ×",
                    "6 scores 6",
                    "After every move a × (50%) or a 2 (50%) appears",
                ],
            ),
            (
                "partial-absorb-270",
                &[
                    "two tiles merge: 1 + 1 = 2, 2 + 2 = 4, 3 + 3 = 6, …",
                    "two tiles merge: 4 + 4 = 5 and 3, 12 + 12 = 15 and 9",
                    "5 scores 8",
                ],
            ),
            (
                "2496",
                &[
                    "two tiles merge: 1(1×1) + 1(1×1) = 2(1×2), 2(1×2) + 2(1×2) = 4(2×2)",
                    "two tiles merge, in either order: 2(1×2) + 4(2×2) = 6(2×3)",
                ],
            ),
            (
                "3240",
                &[
                    "three tiles in a row merge, in any order: 4 + 1 + 1 = 6, 4 + 4 + 1 = 9, 16(4²) + 4 + 4 = 24(4·6)",
                    "two tiles merge, in either order: 6 + 4 = 10, 10 + 4 = 14, 14 + 1 = 15",
                    "Make a 3240(6²·9·10), 3240(6³·15), 3240(4·9²·10) or 3240(4·6·9·15) tile to win",
                ],
            ),
            (
                "2295",
                &[
                    "two tiles merge on moves 1, 3, 5 …: 1 + 1 = 2",
                    "two tiles merge, in either order, on moves 4, 12, 20 …: 1 + 4 = 5",
                    "two tiles merge, in either order, on moves 2048, 6144, 10240 …: 1 + 2048 = 2049",
                ],
            ),
            (
                "2-4-8-wildcard-2048",
                &[
                    "4% of the time the tile is drawn from 1 to pow(2, g) - 1 instead, each tile by a weight of its own (a formula in the variant's file; the likeliest are 2, 3 and 1)",
                ],
            ),
        ] {
            let help = how_to_play(&variant(id));
            for w in wanted {
                assert!(help.contains(w), "{id}: {w:?} is not in {help}");
            }
        }
        // A draw's long weight formula is told by what it does, not written out.
        let wild = how_to_play(&variant("2-4-8-wildcard-2048"));
        assert!(!wild.contains("pow(2, 40)"), "{wild}");
        let mut short = variant("2-4-8-wildcard-2048");
        if let Some(d) = short.pipeline.draw.as_mut() {
            d.each = tilebox_sliding::condition::Expr::parse_with("g + 1 - a", &["g".to_string()])
                .unwrap();
        }
        let help = how_to_play(&short);
        assert!(
            help.contains("each tile a with the weight g + 1 - a"),
            "{help}"
        );
        // A rule for some directions says which.
        let mut sideways = variant("2048");
        sideways.format = 2;
        sideways.merges[0].directions = vec![Direction::Left, Direction::Right];
        let help = how_to_play(&sideways);
        assert!(
            help.contains("two tiles merge when moving left or right: 2 + 2 = 4"),
            "{help}"
        );
    }

    #[test]
    fn the_next_moves_rules_are_told_where_they_change() {
        let mut game = Session::<Sliding>::new(variant("2592"), 1).unwrap();
        assert_eq!(
            this_move(game.state()).as_deref(),
            Some("Move 1: two tiles merge")
        );
        let first = Sliding::legal_moves(game.state())[0];
        game.play(first).unwrap();
        assert_eq!(
            this_move(game.state()).as_deref(),
            Some("Move 2: three tiles in a row merge")
        );
        let sideways = Variant {
            format: 2,
            merges: vec![tilebox_sliding::variant::MergeRule {
                directions: vec![Direction::Left, Direction::Right],
                ..variant("2048").merges[0].clone()
            }],
            ..variant("2048")
        };
        let game = Session::<Sliding>::new(sideways, 1).unwrap();
        assert_eq!(
            this_move(game.state()).as_deref(),
            Some("Moving left or right, two tiles merge; moving up or down, no tiles merge")
        );
        // Directional Merges: each direction has a merge of two tiles of its own, told apart
        // by an example.
        assert_eq!(
            this_move(
                Session::<Sliding>::new(variant("directional-merges"), 1)
                    .unwrap()
                    .state()
            )
            .as_deref(),
            Some(
                "Moving left: 1 + 3 = 4; moving right: 1 + 1 = 2; moving up: 2 + 3 = 5; moving down: 1 + 2 = 3"
            )
        );
        // 2295: two tiles merge on every move, and an example tells which two.
        let mut game = Session::<Sliding>::new(variant("2295"), 1).unwrap();
        let mut told = Vec::new();
        for _ in 0..8 {
            told.push(this_move(game.state()).unwrap_or_default());
            let first = Sliding::legal_moves(game.state())[0];
            game.play(first).unwrap();
        }
        assert_eq!(
            told,
            [
                "Move 1: two tiles merge: 1 + 1 = 2",
                "Move 2: two tiles merge: 1 + 2 = 3",
                "Move 3: two tiles merge: 1 + 1 = 2",
                "Move 4: two tiles merge: 1 + 4 = 5",
                "Move 5: two tiles merge: 1 + 1 = 2",
                "Move 6: two tiles merge: 1 + 2 = 3",
                "Move 7: two tiles merge: 1 + 1 = 2",
                "Move 8: two tiles merge: 1 + 8 = 9",
            ]
        );
        assert_eq!(
            this_move(Session::<Sliding>::new(variant("2048"), 1).unwrap().state()),
            None
        );
    }

    /// A variant's `shown` lines tell the counters as the game goes: 378's goal starts at 6
    /// and is 10 once a 6 is made; Mod 27's modulus and 2058's maximum are told from the start.
    #[test]
    fn the_counters_shown_are_told_as_they_change() {
        let mut game = Session::<Sliding>::new(variant("378"), 1).unwrap();
        assert_eq!(
            this_move(game.state()).as_deref(),
            Some("Goal: 6 · Goals reached: 0")
        );
        let mut moves = 0;
        while game.state().counters()[0] == 3 && moves < 500 {
            let Some(&first) = Sliding::legal_moves(game.state()).first() else {
                break;
            };
            game.play(first).unwrap();
            moves += 1;
        }
        assert_eq!(
            game.state().counters()[0],
            4,
            "no goal made in {moves} moves"
        );
        assert_eq!(
            this_move(game.state()).as_deref(),
            Some("Goal: 10 · Goals reached: 1")
        );
        let game = Session::<Sliding>::new(variant("mod-27"), 1).unwrap();
        assert_eq!(this_move(game.state()).as_deref(), Some("Modulus: 3"));
        let game = Session::<Sliding>::new(variant("2058"), 1).unwrap();
        assert_eq!(
            this_move(game.state()).as_deref(),
            Some("Maximum number: 2")
        );
    }

    #[test]
    fn the_ai_plays_every_variant_the_bitboards_only_4x4_2048_and_threes() {
        for v in builtin_variants() {
            assert!(SlidingAssistant::default().plays(&v), "{}", v.id);
            let bitboards = v.side == 4 && (v.id == "2048" || v.id == "threes");
            assert_eq!(Bitboard::of(&v).is_some(), bitboards, "{}", v.id);
        }
    }

    #[test]
    fn every_built_in_variant_is_played_with_legal_moves() {
        // A tiny budget: only legality is checked here (strength is measured by `bench`).
        let assistant = SlidingAssistant::default();
        for v in builtin_variants() {
            let mut player = assistant.player();
            let mut game = Session::<Sliding>::new(v.clone(), 2).unwrap();
            for _ in 0..30 {
                let legal = Sliding::legal_moves(game.state());
                match player.best_move(game.state(), Duration::from_millis(1)) {
                    Ok(Some(dir)) => {
                        assert!(legal.contains(&dir), "{}", v.id);
                        game.play(dir).unwrap();
                    }
                    other => panic!("{}: {other:?}", v.id),
                }
            }
        }
    }

    /// A range of integers' How to play names each rule's tiles by letter with its
    /// conditions, and shows merges the engine makes of the integers nearest 0.
    #[test]
    fn how_to_play_a_range_of_integers_gives_its_conditions_and_examples() {
        let text = |id: &str| how_to_play(&tilebox_sliding::builtin_variant(id).unwrap());
        for (id, parts) in [
            (
                "1762",
                &[
                    "two tiles a, b (from the wall) with |a - b| <= 1 merge: 1 + 1 = 2, 1 + 2 = 3 and 2 + 1 = 3",
                ][..],
            ),
            (
                "1429",
                &[
                    "two tiles a, b (from the wall) with a = -b merge: -1 + 1 = nothing, 1 + -1 = nothing and -2 + 2 = nothing",
                    "three tiles in a row a, b, c (from the wall) with a >= 1 and a = b and |c| = 1 merge, in any order",
                    "1 + 1 + -1 = 1",
                ],
            ),
            (
                "1668",
                &[
                    "with a = 1 and b = 1 and z != 1 and z != 2 (z is the tile behind them, 0 if none) merge",
                ],
            ),
            (
                "locef",
                &["with a = b and c divides a merge, in any order: 1 + 1 + 1 = 3"],
            ),
            (
                "turatin",
                &[
                    "two tiles a, b (from the wall) with a >= b and b divides a and a / b divides t / 4 + 1 (t is the number of moves played before this one) (a merge scores a / b) merge, in either order",
                ],
            ),
            (
                "1825",
                &[
                    "with a = b and not 4 divides a (a merge scores |made|, made being the tile made) merge",
                ],
            ),
            (
                "1845",
                &["two tiles a, b (from the wall) with |a - b| = gcd(a, b) merge"],
            ),
        ] {
            let t = text(id);
            for part in parts {
                assert!(t.contains(part), "{id}: {part:?} in {t}");
            }
        }
        // A range far from 0 shows merges of its first integers; a rule of five tiles that no
        // small tiles meet still says its conditions, and trying them is bounded.
        use tilebox_sliding::condition::{Cond, Expr};
        let mut far = tilebox_sliding::builtin_variant("1762").unwrap();
        far.tiles = tilebox_sliding::variant::Ladder::integers(5000, 65000);
        far.spawn.weights = Some([(1, 1)].into());
        far.win = tilebox_sliding::variant::Win::NONE;
        let t = how_to_play(&far);
        assert!(
            t.contains("5000 + 5000 = 10000") || t.contains("5000 + 5001 = 10001"),
            "{t}"
        );
        let mut five = far.clone();
        five.merges[0].tiles = ["a", "b", "c", "d", "e"]
            .map(|l| tilebox_sliding::variant::Pos::Int(Expr::parse(l).unwrap()))
            .to_vec();
        five.merges[0].when = vec![Cond::parse("a = 9999").unwrap()];
        let t = how_to_play(&five);
        assert!(
            t.contains("five tiles in a row a, b, c, d, e (from the wall) with a = 9999 merge."),
            "{t}"
        );
    }
}
