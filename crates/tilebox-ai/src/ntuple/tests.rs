//! Tests of the network, its training and its file.

use std::io::Write;

use tilebox_core::{GameRng, Puzzle};
use tilebox_sliding::{Sliding, Variant, builtin_variant};

use super::file::{Cause, FORMAT, RunState, load_player, load_training, save};
use super::train::{
    Flow, MIN_STRETCH, Method, Mover, Recent, Rule, TrainOptions, play_game, train,
};
use super::*;

fn variant(id: &str) -> Variant {
    builtin_variant(id).unwrap()
}

/// Mean score of `games` games of `variant` played by uniformly random legal moves.
fn random_mean(variant: &Variant, games: u64) -> f64 {
    let mut rng = GameRng::from_seed(99);
    let mut total = 0u64;
    for seed in 0..games {
        let mut state = Sliding::new_game(variant, 1_000_000 + seed).unwrap();
        loop {
            let legal = Sliding::legal_moves(&state);
            if legal.is_empty() {
                break;
            }
            state = Sliding::apply(&state, &legal[rng.index(legal.len())]).unwrap();
        }
        total += state.score();
    }
    total as f64 / games as f64
}

/// Trains `games` games of `variant` on a fresh small network; the network and the figures
/// of the last 500 games.
fn trained(variant: &Variant, games: u64, seed: u64) -> (Network, Recent) {
    let network = Network::new(&Layout::small(variant.preview), 0.0);
    let mut recent = Recent::new(500);
    let options = TrainOptions {
        seed,
        ..TrainOptions::default()
    };
    let done = train(&network, variant, &options, 0, games, |game, _| {
        recent.push(game);
        Flow::Continue
    });
    assert_eq!(done, games);
    (network, recent)
}

#[test]
fn a_small_network_learns_2048_far_beyond_random_play() {
    let v = variant("2048");
    let random = random_mean(&v, 300);
    let (_, recent) = trained(&v, 2000, 7);
    let learned = recent.mean_score();
    assert!(
        learned > 5.0 * random,
        "learned {learned:.0}, random {random:.0}"
    );
}

#[test]
fn layouts_out_of_bounds_are_refused() {
    assert_eq!(Layout::new(vec![], false), Err(LayoutError::TupleCount(0)));
    assert_eq!(
        Layout::new(vec![vec![0, 1, 2, 3, 4, 5, 6]], false),
        Err(LayoutError::TupleLength(7))
    );
    assert_eq!(
        Layout::new(vec![vec![0, 16]], false),
        Err(LayoutError::BadCell(0))
    );
    assert_eq!(
        Layout::new(vec![vec![1, 1]], false),
        Err(LayoutError::BadCell(0))
    );
    assert_eq!(
        Layout::new(vec![vec![0, 1, 2, 3, 4, 5]; 11], false),
        Err(LayoutError::TooBig(11 << 24))
    );
    for stages in [
        vec![],
        vec![1],
        vec![0, 14, 14],
        vec![0, 16],
        vec![0, 1, 2, 3, 4],
    ] {
        assert_eq!(
            Layout::small(false).with_stages(stages.clone()),
            Err(LayoutError::BadStages(stages))
        );
    }
    let standard = Layout::standard(true);
    assert_eq!(Layout::new(standard.tuples().to_vec(), true), Ok(standard));
}

/// One thread and one seed: N games, then N more resumed from the file, make the file that
/// 2N games at once make, byte for byte.
#[test]
fn training_resumed_from_its_file_equals_training_at_once() {
    let v = variant("2048");
    let dir = tempfile::tempdir().unwrap();
    let options = TrainOptions {
        seed: 11,
        ..TrainOptions::default()
    };
    let layout = Layout::small(false);
    let run =
        |network: &Network, from, to| train(network, &v, &options, from, to, |_, _| Flow::Continue);

    let at_once = Network::new(&layout, 0.0);
    assert_eq!(run(&at_once, 0, 40), 40);
    let whole = dir.path().join("whole.weights");
    let state = RunState {
        seed: 11,
        games: 40,
        moves: 0,
        method: Method::Restarts,
        rule: Rule::Td0,
    };
    save(&whole, &v, &at_once, &state).unwrap();

    let first = Network::new(&layout, 0.0);
    assert_eq!(run(&first, 0, 20), 20);
    let split = dir.path().join("split.weights");
    save(
        &split,
        &v,
        &first,
        &RunState {
            seed: 11,
            games: 20,
            moves: 0,
            method: Method::Restarts,
            rule: Rule::Td0,
        },
    )
    .unwrap();
    let (again, stood) = load_training(&split, &v).unwrap();
    assert_eq!(stood.games, 20);
    assert_eq!(run(&again, stood.games, 40), 40);
    save(&split, &v, &again, &state).unwrap();

    assert_eq!(
        std::fs::read(&whole).unwrap(),
        std::fs::read(&split).unwrap()
    );
    // And a different seed learns something else.
    let other = Network::new(&layout, 0.0);
    train(
        &other,
        &v,
        &TrainOptions {
            seed: 12,
            ..options
        },
        0,
        40,
        |_, _| Flow::Continue,
    );
    assert!(other.weights().zip(at_once.weights()).any(|(a, b)| a != b));
}

#[test]
fn the_weights_file_reads_back_what_was_written() {
    let v = variant("threes");
    let (network, _) = trained(&v, 30, 3);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("players").join("threes.weights");
    let run = RunState {
        seed: 3,
        games: 30,
        moves: 1234,
        method: Method::FromStart,
        rule: Rule::Td0,
    };
    save(&path, &v, &network, &run).unwrap();
    let (back, stood) = load_training(&path, &v).unwrap();
    assert_eq!(stood, run);
    let restarts = RunState {
        method: Method::Restarts,
        ..run
    };
    save(&path, &v, &network, &restarts).unwrap();
    assert_eq!(load_training(&path, &v).unwrap().1, restarts);
    assert_eq!(back.layout(), network.layout());
    assert!(back.weights().eq(network.weights()));
    assert!(network.weights().any(|w| w != 0.0), "it learned something");
    // The player's 16-bit copy is within a rounding step of every value.
    let player = load_player(&path, &v).unwrap();
    let max = network.weights().fold(0f32, |m, w| m.max(w.abs()));
    let step = max / 32767.0;
    let mut rng = GameRng::from_seed(5);
    for _ in 0..200 {
        let board = u64::from(rng.below(u32::MAX)) << 32 | u64::from(rng.below(u32::MAX));
        let p = rng.below(16) as u8;
        let exact = network.value(board, p);
        let near = player.value(board, p);
        let bound = step * network.layout().feature_count() as f32;
        assert!((exact - near).abs() <= bound, "{exact} {near}");
    }
    assert_eq!(player.weight_bytes(), 2 * network.layout().weight_count());
}

/// The standard network a player holds, in two stages, fits 320 MiB; a layout of more weights
/// than that is refused.
#[test]
fn the_standard_player_in_two_stages_holds_at_most_320_mib() {
    for preview in [false, true] {
        let layout = Layout::standard(preview).staged();
        assert_eq!(layout.stages().len(), 2);
        let bytes = 2 * layout.weight_count();
        assert!(bytes <= 320 << 20, "{bytes}");
    }
    let three = Layout::standard(false).with_stages(vec![0, 12, 14]);
    assert!(matches!(three, Err(LayoutError::TooBig(_))), "{three:?}");
}

/// A good file of 2048's small network (weights 0.5) in a folder of its own: the variant, the
/// network, the folder, the file and its bytes.
fn good_file() -> (
    Variant,
    Network,
    tempfile::TempDir,
    std::path::PathBuf,
    Vec<u8>,
) {
    let v = variant("2048");
    let network = Network::new(&Layout::small(false), 0.5);
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("2048.weights");
    save(&good, &v, &network, &RunState::default()).unwrap();
    let bytes = std::fs::read(&good).unwrap();
    (v, network, dir, good, bytes)
}

#[test]
fn bad_weights_files_are_refused_each_with_its_cause() {
    let (v, network, dir, good, bytes) = good_file();
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.path().join(name);
        std::fs::File::create(&path)
            .unwrap()
            .write_all(bytes)
            .unwrap();
        path
    };
    let refusal = |path: &std::path::Path, v: &Variant| {
        let err = load_player(path, v).unwrap_err();
        let line = err.to_string();
        assert!(line.starts_with(&path.display().to_string()), "{line}");
        assert!(!line.contains('\n'), "{line}");
        // The trainer refuses it alike.
        assert_eq!(load_training(path, v).unwrap_err().to_string(), line);
        err.cause
    };
    for cut in [0, 5, 20, bytes.len() / 2, bytes.len() - 1] {
        let path = write("short.weights", &bytes[..cut]);
        assert!(
            matches!(refusal(&path, &v), Cause::Short(_)),
            "cut at {cut}"
        );
    }
    let mut corrupt = bytes.clone();
    corrupt[bytes.len() / 2] ^= 1;
    let path = write("corrupt.weights", &corrupt);
    assert!(matches!(refusal(&path, &v), Cause::Corrupt));
    let mut longer = bytes.clone();
    longer.push(0);
    let longer = write("longer.weights", &longer);
    assert!(matches!(refusal(&longer, &v), Cause::Corrupt));

    let mut newer = bytes.clone();
    newer[8..12].copy_from_slice(&(FORMAT + 1).to_le_bytes());
    let path = write("newer.weights", &newer);
    assert!(matches!(refusal(&path, &v), Cause::Newer(n) if n == FORMAT + 1));

    // The training method's byte comes just before the rule's, the largest weight, the count
    // and the weights.
    let weights = network.layout().weight_count();
    let method_at = bytes.len() - 8 - 4 * weights - 8 - 4 - 2;
    assert_eq!(bytes[method_at], Method::default().byte());
    let mut unknown = bytes.clone();
    unknown[method_at] = 9;
    let path = write("method.weights", &unknown);
    assert!(
        matches!(refusal(&path, &v), Cause::Corrupt),
        "the method is under the checksum"
    );
    // A newer release's method, whole: its network plays, but its training cannot go on here.
    let path = write("method.weights", &with_checksum(unknown));
    assert!(load_player(&path, &v).is_ok());
    assert_eq!(
        super::file::check(&path, &v).unwrap().method,
        Method::Newer(9)
    );
    let err = load_training(&path, &v).unwrap_err();
    assert!(matches!(err.cause, Cause::NewerMethod(9)), "{err}");
    assert!(
        err.to_string()
            .ends_with("trained by method 9, newer than this build can go on with"),
        "{err}"
    );
    let mut zero = bytes.clone();
    zero[8..12].copy_from_slice(&0u32.to_le_bytes());
    let path = write("zero.weights", &with_checksum(zero));
    assert!(matches!(refusal(&path, &v), Cause::NotWeights));

    let path = write("junk.weights", b"{\"not\": \"weights\"}");
    assert!(matches!(refusal(&path, &v), Cause::NotWeights));

    assert!(matches!(
        refusal(&good, &variant("2584")),
        Cause::OtherVariant { .. }
    ));
    let mut changed = v.clone();
    changed.spawn = variant("2584").spawn;
    assert!(matches!(refusal(&good, &changed), Cause::OtherRules(_)));
    // The id, names and goal are not the rules.
    let mut renamed = v.clone();
    renamed.title = "Another title".into();
    renamed.win = tilebox_sliding::variant::Win::one(4096);
    assert!(load_player(&good, &renamed).is_ok());

    let missing = load_player(&dir.path().join("none.weights"), &v).unwrap_err();
    assert!(missing.is_missing());
    assert!(!load_player(&path, &v).unwrap_err().is_missing());
}

/// A search one ply deep with the learned evaluation values each move as training does: the
/// points it earns plus the network's value of the board it leaves, with the state's preview.
#[test]
fn a_one_ply_search_values_moves_as_training_does() {
    for id in ["2048", "threes", "2584"] {
        let v = variant(id);
        let (network, _) = trained(&v, 20, 1);
        let player = std::sync::Arc::new(PlayNetwork::quantize(&network));
        let mut sliding = crate::SlidingPlayer::new();
        let mut state = Sliding::new_game(&v, 8).unwrap();
        for _ in 0..30 {
            let advice = sliding
                .advise_learned(&state, &crate::Limits::fixed_depth(1), &player)
                .unwrap();
            for &(dir, value) in &advice.values {
                let slide = state.rules().slide(state.board(), dir);
                let after = pack(&slide.board).unwrap();
                let expected = slide.gained as f32 + player.value(after, preview_class(&state));
                assert!(
                    (value as f32 - expected).abs() <= 1e-3 * expected.abs().max(1.0),
                    "{id}: {dir:?} {value} {expected}"
                );
            }
            assert!(Sliding::legal_moves(&state).contains(&advice.best));
            state = Sliding::apply(&state, &advice.best).unwrap();
        }
    }
}

/// Deeper and timed searches with the learned evaluation play legal moves to the end of a
/// game, and a network of the wrong side is never used.
#[test]
fn the_learned_player_plays_legal_moves_to_the_end() {
    let v = variant("2048");
    let (network, _) = trained(&v, 20, 2);
    let player = std::sync::Arc::new(PlayNetwork::quantize(&network));
    let mut sliding = crate::SlidingPlayer::new();
    let mut state = Sliding::new_game(&v, 3).unwrap();
    let limits = crate::Limits::per_move(std::time::Duration::from_millis(1));
    let mut moves = 0;
    while let Some(advice) = sliding.advise_learned(&state, &limits, &player) {
        assert!(Sliding::legal_moves(&state).contains(&advice.best));
        state = Sliding::apply(&state, &advice.best).unwrap();
        moves += 1;
    }
    assert!(Sliding::legal_moves(&state).is_empty());
    assert!(moves > 50, "{moves}");
    // On a 5×5 board the search falls back to the heuristic, and still plays.
    let big = Sliding::new_game(&variant("2048-5x5"), 3).unwrap();
    let advice = sliding.advise_learned(&big, &crate::Limits::fixed_depth(2), &player);
    assert!(Sliding::legal_moves(&big).contains(&advice.unwrap().best));
}

/// With two threads the games are shared out and every one is counted once; the network learns
/// (not reproducibly: the threads update it without locks).
#[test]
fn two_threads_play_every_game_once_and_learn() {
    let v = variant("2048");
    let network = Network::new(&Layout::small(false), 0.0);
    let options = TrainOptions {
        seed: 4,
        threads: 2,
        ..TrainOptions::default()
    };
    let mut seen = Vec::new();
    let mut counts = Vec::new();
    let done = train(&network, &v, &options, 10, 60, |game, done| {
        seen.push(game.index);
        counts.push(done);
        Flow::Continue
    });
    assert_eq!(done, 60);
    seen.sort();
    assert_eq!(seen, (10..60).collect::<Vec<u64>>());
    assert_eq!(counts, (11..=60).collect::<Vec<u64>>());
    assert!(network.weights().any(|w| w != 0.0));
    // Asked to stop, it stops once the games under way end (a thread may have begun its next
    // game before it sees the stop, and on bitboards a game of the small network takes a
    // fraction of a millisecond: a few tens of games on a busy machine, far from the thousand
    // asked).
    let mut calls = 0;
    let done = train(&network, &v, &options, 0, 1000, |_, _| {
        calls += 1;
        Flow::Stop
    });
    assert_eq!(done, calls);
    assert!(done <= 100, "{done}");
}

/// FNV-1a 64 of `bytes`.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// `bytes` with their last 8 bytes replaced by the checksum of the rest, as a writer makes it.
fn with_checksum(mut bytes: Vec<u8>) -> Vec<u8> {
    let end = bytes.len() - 8;
    let sum = fnv(&bytes[..end]);
    bytes[end..].copy_from_slice(&sum.to_le_bytes());
    bytes
}

/// A file of format 1 (before the training method was kept: no method byte) as that release
/// wrote it, made from one of format 3 learned by TD(0) in one stage as `docs/weights.md` says
/// they differ: no rule byte, no stages (the 3 bytes after the tuples, which start at byte 28
/// of a file of 2048), no method byte.
fn as_format_1(bytes: &[u8], layout: &Layout) -> Vec<u8> {
    let weights = layout.weight_count();
    let rule_at = bytes.len() - 8 - 4 * weights - 8 - 4 - 1;
    assert_eq!(bytes[rule_at], Rule::Td0.byte());
    let mut old = bytes.to_vec();
    old.drain(rule_at - 1..=rule_at);
    let stages_at = 28 + layout.tuples().iter().map(|t| 1 + t.len()).sum::<usize>();
    assert_eq!(
        old[stages_at..stages_at + 3],
        [1, 0, 1],
        "one stage from 0, begun"
    );
    old.drain(stages_at..stages_at + 3);
    old[8..12].copy_from_slice(&1u32.to_le_bytes());
    with_checksum(old)
}

/// A file of format 1 loads as a run that plays each game once from its start, as that
/// release trained, and resuming it goes on so: 20 games, saved in format 1, then 20 more,
/// make the weights of 40 games at once.
#[test]
fn a_format_1_file_resumes_as_its_release_trained() {
    let v = variant("2048");
    let dir = tempfile::tempdir().unwrap();
    let layout = Layout::small(false);
    let options = TrainOptions {
        seed: 5,
        method: Method::FromStart,
        ..TrainOptions::default()
    };
    let at_once = Network::new(&layout, 0.0);
    train(&at_once, &v, &options, 0, 40, |_, _| Flow::Continue);

    let first = Network::new(&layout, 0.0);
    train(&first, &v, &options, 0, 20, |_, _| Flow::Continue);
    let path = dir.path().join("2048.weights");
    let state = RunState {
        seed: 5,
        games: 20,
        moves: 77,
        method: Method::FromStart,
        rule: Rule::Td0,
    };
    save(&path, &v, &first, &state).unwrap();
    let old = as_format_1(&std::fs::read(&path).unwrap(), &layout);
    std::fs::write(&path, &old).unwrap();
    assert_eq!(u32::from_le_bytes(old[8..12].try_into().unwrap()), 1);

    let (_, stood) = load_training(&path, &v).unwrap();
    assert_eq!(stood, state, "format 1 is a run from the start");
    assert!(load_player(&path, &v).is_ok());
    // Resumed as a run is, by the method in its file.
    let mut run = super::run::Run::open(&path, &v, 0, &Layout::standard(false)).unwrap();
    run.train(1, super::run::Target::Games(40), |_| Flow::Continue, |_| {})
        .unwrap();
    assert!(run.network().weights().eq(at_once.weights()));
    drop(run);
    let (_, saved) = load_training(&path, &v).unwrap();
    assert_eq!((saved.method, saved.games), (Method::FromStart, 40));
    // And these are the weights the release before (33c860a) trained: `tilebox-cli train 2048
    // --network small --seed 5 --games 40` there made a file whose weights' FNV-1a 64 is this.
    let bytes: Vec<u8> = at_once.weights().flat_map(f32::to_le_bytes).collect();
    assert_eq!(fnv(&bytes), 0xba31_37a7_0831_95e6);
    // Trained with restarts instead, the same games learn something else.
    let restarted = Network::new(&layout, 0.0);
    let restarts = TrainOptions {
        method: Method::Restarts,
        ..options
    };
    train(&restarted, &v, &restarts, 0, 40, |_, _| Flow::Continue);
    assert!(restarted.weights().ne(at_once.weights()));
}

/// With restarts a game is learned from again, from the middle of its stretches: more moves,
/// while its score and win are those of its first play, the same as without restarts.
#[test]
fn a_restarted_game_learns_more_moves_and_keeps_its_first_score() {
    for id in ["2048", "threes"] {
        let v = variant(id);
        let layout = Layout::small(v.preview);
        let mut mover = Mover::new(&v).unwrap();
        let mut total = [0u64; 2];
        for index in 0..20 {
            let mut game = |method| {
                let network = Network::new(&layout, 0.0);
                let options = TrainOptions {
                    seed: 3,
                    method,
                    ..TrainOptions::default()
                };
                play_game(&network, &v, &options, index, &mut mover).unwrap()
            };
            let once = game(Method::FromStart);
            let again = game(Method::Restarts);
            assert_eq!((again.score, again.won), (once.score, once.won), "{id}");
            // A stretch long enough is played again from its middle, where moves are left.
            if once.moves as usize >= MIN_STRETCH {
                assert!(again.moves > once.moves, "{id} game {index}");
            } else {
                assert_eq!(again.moves, once.moves, "{id} game {index}");
            }
            total[0] += once.moves;
            total[1] += again.moves;
        }
        assert!(total[1] > total[0], "{id}: {total:?}");
    }
}

/// A weight that is NaN or infinite, in a file whose checksum matches, is refused naming it:
/// no run writes one, and it would play and learn nonsense.
#[test]
fn a_weight_that_is_not_finite_is_refused_even_with_a_good_checksum() {
    let (v, network, dir, _, bytes) = good_file();
    let weights = network.layout().weight_count();
    let first = bytes.len() - 8 - 4 * weights;
    for (at, value, index) in [
        (first + 4 * 6, f32::NAN, 7),
        (first, f32::INFINITY, 1),
        (first + 4 * (weights - 1), f32::NEG_INFINITY, weights as u64),
        // The largest weight's size, before the count.
        (first - 8 - 4, f32::NAN, 0),
    ] {
        let mut bad = bytes.clone();
        bad[at..at + 4].copy_from_slice(&value.to_le_bytes());
        let path = dir.path().join("bad.weights");
        std::fs::write(&path, with_checksum(bad)).unwrap();
        let err = load_player(&path, &v).unwrap_err();
        assert!(
            matches!(err.cause, Cause::NotFinite(i) if i == index),
            "{err}"
        );
        assert!(err.to_string().contains("is not a finite number"), "{err}");
        assert!(load_training(&path, &v).is_err());
    }
}

/// A run whose file counts 2^64 - 1 moves goes on without its count wrapping to a few.
#[test]
fn a_run_at_the_most_moves_does_not_wrap() {
    let v = variant("2048");
    let layout = Layout::small(false);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("2048.weights");
    let state = RunState {
        seed: 1,
        games: 3,
        moves: u64::MAX - 1,
        method: Method::default(),
        rule: Rule::Td0,
    };
    save(&path, &v, &Network::new(&layout, 0.0), &state).unwrap();
    let mut run = super::run::Run::open(&path, &v, 1, &layout).unwrap();
    let end = run
        .train(1, super::run::Target::Games(4), |_| Flow::Continue, |_| {})
        .unwrap();
    assert_eq!(run.state().games, 4);
    assert_eq!(run.state().moves, u64::MAX);
    assert_eq!(end.moves(), u64::MAX);
    let (_, saved) = load_training(&path, &v).unwrap();
    assert_eq!(saved.moves, u64::MAX);
}

/// A save's failure is told under the name it is of: a folder where the temporary file goes,
/// a file where the players folder goes.
#[test]
fn a_save_names_the_temporary_file_or_the_folder_at_fault() {
    let v = variant("2048");
    let network = Network::new(&Layout::small(false), 0.0);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("players").join("2048.weights");
    let tmp = super::file::temp_path(&path);
    std::fs::create_dir_all(&tmp).unwrap();
    let err = save(&path, &v, &network, &RunState::default()).unwrap_err();
    assert_eq!(err.path, tmp);
    assert_eq!(
        err.to_string(),
        format!("{}: it is a folder, not a file", tmp.display())
    );
    assert!(tmp.is_dir(), "the folder is left alone");
    let file = dir.path().join("file");
    std::fs::write(&file, "").unwrap();
    let err = save(
        &file.join("2048.weights"),
        &v,
        &network,
        &RunState::default(),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("{}: it is a file, not a folder", file.display())
    );
}

/// The fixture of format 2: `tilebox-ai/src/ntuple/fixtures/format-2.weights`, written by the
/// release before format 3 (dbdcea8) for 2048: two 2-tuples, 30 games of seed 5 with restarts.
fn format_2_fixture() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ntuple/fixtures/format-2.weights")
}

/// A file of the release before (format 2) plays, and its run goes on as it began: TD(0), one
/// stage; saved again in format 3.
#[test]
fn a_format_2_file_plays_and_trains_on_by_td0_in_one_stage() {
    let v = variant("2048");
    let fixture = format_2_fixture();
    let bytes = std::fs::read(&fixture).unwrap();
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 2);
    let (network, run) = load_training(&fixture, &v).unwrap();
    assert_eq!(
        (run.seed, run.games, run.method, run.rule),
        (5, 30, Method::Restarts, Rule::Td0)
    );
    assert_eq!(network.layout().stages(), [0]);
    assert!(!network.coheres());
    assert!(network.weights().any(|w| w != 0.0), "it was trained");
    // The player holds what the trainer reads, rounded alike.
    let player = load_player(&fixture, &v).unwrap();
    let rounded = PlayNetwork::quantize(&network);
    for board in [
        0u64,
        0x0123_4567_89ab_cdef,
        0x1000_0200_0030_0004,
        0x2113_0a21,
    ] {
        assert_eq!(player.value(board, 0), rounded.value(board, 0), "{board:x}");
    }
    // Resumed: TD(0) in one stage, as it began, saved in format 3.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("2048.weights");
    std::fs::write(&path, &bytes).unwrap();
    let mut resumed = super::run::Run::open(&path, &v, 0, &Layout::standard(false)).unwrap();
    resumed
        .train(1, super::run::Target::Games(32), |_| Flow::Continue, |_| {})
        .unwrap();
    drop(resumed);
    let saved = std::fs::read(&path).unwrap();
    assert_eq!(u32::from_le_bytes(saved[8..12].try_into().unwrap()), FORMAT);
    let (again, run) = load_training(&path, &v).unwrap();
    assert_eq!((run.games, run.rule), (32, Rule::Td0));
    assert_eq!(again.layout().stages(), [0]);
    assert!(!again.coheres());
    assert!(again.weights().ne(network.weights()), "it learned on");
}

/// One step of temporal coherence on the standard network, by the fast path's features, by
/// any layout's and by the network's own, against a plain computation weight by weight: each
/// weight moves by the step times `|E| / A` (1 while `A` is 0), then `E` gains the step and
/// `A` its size; a weight picked twice is updated twice, in order.
#[test]
fn a_tc_step_is_the_reference_one() {
    use super::fast::{AnyLayout, Features, Standard};
    use std::sync::atomic::{AtomicU64, Ordering};
    let layout = Layout::standard(false).staged();
    // A board with a repeated pattern (some features pick one weight twice), and a board of
    // the second stage (a 16384, rank 14).
    for board in [
        0x2113_0a21_5b00_1c02u64,
        0x1111_1111_2222_2222,
        0x0e21_0300_0100_0002,
    ] {
        let compiled = Compiled::new(&layout);
        let mut at = [0u32; crate::network::MAX_FEATURES];
        let n = compiled.indices_into(board, 0, &mut at);
        let at = &at[..n];
        // Weights and accumulators that differ, where the board reads them.
        let fresh = || {
            let network = Network::new(&layout, 0.0).with_begun(2);
            let count = layout.weight_count();
            let accumulators: Vec<AtomicU64> = (0..count).map(|_| AtomicU64::new(0)).collect();
            for (k, &i) in at.iter().enumerate() {
                let w = 0.25 * k as f32 - 3.0;
                network.cells()[i as usize].store(w.to_bits(), Ordering::Relaxed);
                let (e, a) = match k % 3 {
                    0 => (0.0f32, 0.0f32),
                    1 => (-2.0, 4.0),
                    _ => (3.0, 5.0),
                };
                accumulators[i as usize].store(
                    u64::from(e.to_bits()) | u64::from(a.to_bits()) << 32,
                    Ordering::Relaxed,
                );
            }
            network.with_accumulators(accumulators).unwrap()
        };
        let read = |network: &Network, i: u32| {
            let w = f32::from_bits(network.cells()[i as usize].load(Ordering::Relaxed));
            let c = network.coherence().unwrap()[i as usize].load(Ordering::Relaxed);
            (
                w,
                f32::from_bits(c as u32),
                f32::from_bits((c >> 32) as u32),
            )
        };
        let delta = 0.37f32;
        // The plain computation.
        let before = fresh();
        let mut expected: Vec<(u32, (f32, f32, f32))> = Vec::new();
        for &i in at {
            let slot = match expected.iter().position(|e| e.0 == i) {
                Some(p) => p,
                None => {
                    expected.push((i, read(&before, i)));
                    expected.len() - 1
                }
            };
            let (w, e, a) = expected[slot].1;
            let rate = if a > 0.0 { e.abs() / a } else { 1.0 };
            expected[slot].1 = (w + delta * rate, e + delta, a + delta.abs());
        }
        let by_network = fresh();
        by_network.adjust(board, 0, delta);
        let by_any = fresh();
        let any = AnyLayout::of(&by_any);
        any.adjust(&any.indices(board), delta);
        let by_standard = fresh();
        let standard = Standard::of(&by_standard).unwrap();
        standard.adjust(&standard.indices(board), delta);
        for network in [&by_network, &by_any, &by_standard] {
            for &(i, (w, e, a)) in &expected {
                let got = read(network, i);
                assert_eq!(
                    (got.0.to_bits(), got.1.to_bits(), got.2.to_bits()),
                    (w.to_bits(), e.to_bits(), a.to_bits()),
                    "{board:016x} weight {i}"
                );
            }
        }
        // And the values are the stage's sums.
        assert_eq!(
            standard.value(&standard.indices(board)),
            by_standard.value(board, 0)
        );
    }
}

/// The second stage is the boards whose largest tile is the ladder's 14th: 16384 in 2048,
/// 6144 in Threes. It begins as a copy of the first when training first values one of its
/// boards, and learns apart from it after.
#[test]
fn the_second_stage_starts_at_the_ladders_14th_tile() {
    use tilebox_sliding::Rules;
    for (id, tile) in [("2048", 16384), ("threes", 6144)] {
        let rules = Rules::new(&variant(id)).unwrap();
        assert_eq!(rules.value(u16::from(SECOND_STAGE)), tile, "{id}");
    }
    let layout = Layout::small(false).staged();
    assert_eq!(layout.stages(), [0, SECOND_STAGE]);
    assert_eq!(
        layout.weight_count(),
        2 * Layout::small(false).weight_count()
    );
    let low = 0x0000_0000_00d0_0321u64; // an 8192 (rank 13)
    let high = 0x0000_0000_00e0_0321u64; // a 16384 (rank 14)
    let top = 0x0000_0000_00f0_0321u64; // a 32768 (rank 15)
    assert_eq!([low, high, top].map(|b| layout.stage_of(b)), [0, 1, 1]);
    let network = Network::new(&layout, 0.0).coherent();
    network.adjust(low, 0, 1.0);
    network.adjust(0x0000_0000_00e0_0000, 0, 1.0);
    assert_eq!(
        network.begun(),
        1,
        "no board of the second stage valued yet"
    );
    let stage_weights = layout.stage_weight_count();
    let first = || {
        let first: Vec<f32> = network.weights().take(stage_weights).collect();
        Network::from_weights(&Layout::small(false), first).unwrap()
    };
    let as_first = first().value(high, 0);
    assert!(as_first != 0.0);
    assert_eq!(
        network.value(high, 0),
        as_first,
        "begun as a copy of the first"
    );
    assert_eq!(network.begun(), 2);
    network.adjust(high, 0, 5.0);
    assert_eq!(
        first().value(high, 0),
        as_first,
        "the first stage is left alone"
    );
    assert!(network.value(high, 0) > as_first);
    // A player of a run whose second stage was not begun values its boards by the first.
    let unbegun = Network::new(&layout, 0.0).coherent();
    unbegun.adjust(high & 0xFFFF, 0, 2.0);
    let player = PlayNetwork::quantize(&unbegun);
    assert_eq!(unbegun.begun(), 1);
    assert!(player.value(high, 0) != 0.0);
    let first: Vec<f32> = unbegun.weights().take(stage_weights).collect();
    let first =
        PlayNetwork::quantize(&Network::from_weights(&Layout::small(false), first).unwrap());
    assert_eq!(player.value(high, 0), first.value(high, 0));
}

/// A network learning by temporal coherence in two stages goes through its file whole: the
/// weights, the accumulators and the stages begun; and a run of it resumed from its file makes
/// the file a run at once makes, byte for byte.
#[test]
fn a_tc_run_in_two_stages_resumes_from_its_file_exactly() {
    let v = variant("2048");
    let dir = tempfile::tempdir().unwrap();
    let (whole, split) = (
        dir.path().join("whole.weights"),
        dir.path().join("split.weights"),
    );
    let layout = Layout::small(false);
    let at_once = super::run::Run::open(&whole, &v, 4, &layout).unwrap();
    let mut at_once = at_once;
    at_once
        .train(1, super::run::Target::Games(30), |_| Flow::Continue, |_| {})
        .unwrap();
    let mut first = super::run::Run::open(&split, &v, 4, &layout).unwrap();
    first
        .train(1, super::run::Target::Games(15), |_| Flow::Continue, |_| {})
        .unwrap();
    drop(first);
    let (network, run) = load_training(&split, &v).unwrap();
    assert_eq!(run.rule, Rule::Coherence);
    assert!(network.coheres());
    assert_eq!(network.layout().stages(), [0, SECOND_STAGE]);
    assert!(
        network.accumulators().unwrap().any(|(_, a)| a > 0.0),
        "the accumulators were kept"
    );
    let mut second = super::run::Run::open(&split, &v, 4, &layout).unwrap();
    second
        .train(1, super::run::Target::Games(30), |_| Flow::Continue, |_| {})
        .unwrap();
    drop((second, at_once));
    assert_eq!(
        std::fs::read(&whole).unwrap(),
        std::fs::read(&split).unwrap()
    );
    // The player reads the weights only, both stages: 2 bytes a weight.
    let player = load_player(&whole, &v).unwrap();
    assert_eq!(
        player.weight_bytes(),
        2 * layout.clone().staged().weight_count()
    );
    assert_eq!(super::file::check(&whole, &v).unwrap().games, 30);
    // A newer release's rule: its network plays, its training cannot go on here.
    let mut bytes = std::fs::read(&whole).unwrap();
    let weights = layout.staged().weight_count();
    let rule_at = bytes.len() - 8 - 8 * weights - 8 - 4 * weights - 8 - 4 - 1;
    assert_eq!(bytes[rule_at], Rule::Coherence.byte());
    bytes[rule_at] = 7;
    let end = bytes.len() - 8 * weights - 8;
    let mut head = with_checksum(bytes[..end].to_vec());
    head.extend_from_slice(&bytes[end..]);
    let newer = dir.path().join("newer.weights");
    std::fs::write(&newer, &head).unwrap();
    assert!(load_player(&newer, &v).is_ok());
    let err = load_training(&newer, &v).unwrap_err();
    assert!(matches!(err.cause, Cause::NewerRule(7)), "{err}");
    // Corrupt accumulators are refused by training, not by the player.
    let mut bad = std::fs::read(&whole).unwrap();
    let at = bad.len() - 8 - 4;
    bad[at] ^= 1;
    let corrupt = dir.path().join("corrupt.weights");
    std::fs::write(&corrupt, &bad).unwrap();
    assert!(load_player(&corrupt, &v).is_ok());
    assert!(matches!(
        load_training(&corrupt, &v).unwrap_err().cause,
        Cause::Corrupt
    ));
}

/// Learning by temporal coherence in two stages, the default, also learns 2048 far beyond
/// random play in seconds.
#[test]
fn a_small_network_learns_2048_by_tc_far_beyond_random_play() {
    let v = variant("2048");
    let random = random_mean(&v, 300);
    let network = Rule::Coherence.network(&Layout::small(false));
    let mut recent = Recent::new(500);
    let options = TrainOptions {
        seed: 7,
        rate: Rule::Coherence.rate(),
        ..TrainOptions::default()
    };
    train(&network, &v, &options, 0, 2000, |game, _| {
        recent.push(game);
        Flow::Continue
    });
    let learned = recent.mean_score();
    assert!(
        learned > 5.0 * random,
        "learned {learned:.0}, random {random:.0}"
    );
}

/// Games played on bitboards and on the engine learn the same weights by temporal coherence
/// in two stages, bit for bit: in 2048, and in a 2048 that spawns 16384s and 32768s, whose
/// games begin the second stage at once and are handed over to the engine's path.
#[test]
fn the_fast_path_learns_by_tc_in_stages_as_the_engine_does() {
    let big = crate::testing::big_spawning_2048();
    for (v, games) in [(variant("2048"), 8), (big, 4)] {
        let options = TrainOptions {
            seed: 3,
            rate: Rule::Coherence.rate(),
            ..TrainOptions::default()
        };
        let fast = Rule::Coherence.network(&Layout::small(false));
        let engine = Rule::Coherence.network(&Layout::small(false));
        let mut on_bits = Mover::new(&v).unwrap();
        let mut on_engine = Mover::engine_only(&v).unwrap();
        for index in 0..games {
            let a = play_game(&fast, &v, &options, index, &mut on_bits).unwrap();
            let b = play_game(&engine, &v, &options, index, &mut on_engine).unwrap();
            assert_eq!(a, b, "{} game {index}", v.id);
            assert!(
                fast.weights()
                    .map(f32::to_bits)
                    .eq(engine.weights().map(f32::to_bits))
            );
            assert!(
                fast.accumulators()
                    .unwrap()
                    .map(|(e, a)| (e.to_bits(), a.to_bits()))
                    .eq(engine
                        .accumulators()
                        .unwrap()
                        .map(|(e, a)| (e.to_bits(), a.to_bits())))
            );
        }
        assert_eq!(fast.begun(), engine.begun());
        if v.id == "big" {
            assert_eq!(fast.begun(), 2, "its games reach the second stage");
        }
    }
}

/// The bitboard searches' valuation of the standard network reads each board in its own
/// stage, as the player's own valuation does, bit for bit: boards of the first stage and of
/// the second (a 16384), in a network whose stages hold different weights.
#[test]
fn the_searches_value_a_staged_network_as_the_player_does() {
    let layout = Layout::standard(false).staged();
    let network = Network::new(&layout, 0.0);
    let low = 0x2113_0a21_5b00_1c02u64;
    let high = 0x0e21_0300_0100_0002u64;
    network.adjust(low, 0, 3.0);
    // Training values a board before it steps it: that begins its stage.
    network.value(high, 0);
    network.adjust(high, 0, -2.0);
    network.adjust(low ^ 0x10, 0, 0.5);
    assert_eq!(network.begun(), 2, "the 16384 began the second stage");
    let player = PlayNetwork::quantize(&network);
    let search = crate::search::NetworkValue::new(&player, super::fast::standard_indices);
    for board in [low, high, low ^ 0x10, high ^ 0x10, 0] {
        assert_eq!(
            search.value(board, 0).to_bits(),
            player.value(board, 0).to_bits(),
            "{board:016x}"
        );
    }
    assert!(search.value(high, 0) < 0.0 && search.value(low, 0) > 0.0);
}

/// The generic search with a network (a 4×4 variant the bitboard searches do not play) deepens
/// by whole moves: every answer comes from a depth of 1, 3, 5 … plies, never from one that
/// stops at the game's answer, and it is a legal move.
#[test]
fn the_generic_search_with_a_network_deepens_by_whole_moves() {
    use crate::generic::{GenericEngine, Grid, Learned, SlidingModel};
    use crate::sliding::VariantModel;
    let v = variant("2048");
    let (network, _) = trained(&v, 20, 2);
    let network = std::sync::Arc::new(PlayNetwork::quantize(&network));
    let mut engine = GenericEngine::new();
    let mut state = Sliding::new_game(&v, 5).unwrap();
    // Time enough for any depth: the search goes as deep as the limit and the board allow,
    // whole moves at a time (a ply at a time it would end on an even depth).
    let limits = crate::Limits {
        time: Some(std::time::Duration::from_secs(30)),
        max_depth: 4,
        min_probability: 0.0,
    };
    let mut searched = 0;
    for _ in 0..30 {
        let model = VariantModel::of_state(&state);
        let grid = Grid::from_board_by(state.board(), |r| model.grid_rank(r));
        let learned = Learned {
            network: std::sync::Arc::clone(&network),
            first: 0,
            later: 0,
        };
        let Some(advice) = engine.advise_learned(&model, &grid, &limits, &learned) else {
            break;
        };
        assert!(Sliding::legal_moves(&state).contains(&advice.best));
        if advice.values.len() > 1 {
            assert_eq!(advice.depth % 2, 1, "{advice:?}");
            searched += 1;
        }
        state = Sliding::apply(&state, &advice.best).unwrap();
    }
    assert!(searched > 10, "{searched}");
}
