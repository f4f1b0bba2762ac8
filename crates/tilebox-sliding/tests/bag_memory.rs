//! A game's memory grows with its moves, never with its bag: every state of a game (each one
//! kept for undo, or looked at by a search) shares the bag it draws from instead of holding a
//! copy. With a copy in each, a bag of 100,000 tiles (the most a variant may have) made a game
//! grow by 200 kB a move. Measured by the process's resident memory, so this binary holds one
//! test only.
#![cfg(target_os = "linux")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use tilebox_core::Session;
use tilebox_sliding::{Direction, Sliding, builtin_variant};

/// The process's resident memory, in kB.
fn resident_kb() -> i64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn a_games_memory_grows_with_its_moves_not_its_bag() {
    let mut variant = builtin_variant("2048").unwrap();
    variant.side = 8;
    variant.spawn.weights = None;
    variant.spawn.bag = Some([(2, 75_000), (4, 25_000)].into());
    let mut game = Session::<Sliding>::new(variant, 7).unwrap();
    let mut play = |moves: usize| {
        for i in 0..moves {
            // The first direction that moves, in a turning order: a long game.
            let moved = (0..4)
                .map(|k| Direction::ALL[(i + k) % 4])
                .any(|dir| game.play(dir).is_ok());
            assert!(moved, "the game ended after {} moves", game.moves().len());
        }
    };
    play(20);
    let before = resident_kb();
    play(300);
    let moves = resident_kb() - before;
    // 300 states of a board of 64 cells are well under a megabyte; a copy of the bag in each
    // would be 60 MB.
    assert!(moves < 8_000, "300 moves took {moves} kB");
    // A search copies the state it looks at, again and again.
    let before = resident_kb();
    let copies: Vec<_> = (0..1_000).map(|_| game.state().clone()).collect();
    let copied = resident_kb() - before;
    assert!(copied < 8_000, "1,000 copies of a state took {copied} kB");
    assert!(copies.iter().all(|c| c == game.state()));
}
