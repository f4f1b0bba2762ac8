//! The catalogue of games Tilebox ships: each game kind with its front end (how to play, its
//! colours, its assistant), and the entries the hosts list.
//!
//! Hosts (the app, the CLI) take their games from [`registry`] and nowhere else. Adding a preset
//! of a kind is one `.preset` line below; adding a game kind is its crate plus one `.kind` (or
//! `.with`, for the plain front end) line.

mod sliding;
mod strike9;
mod threes;
mod twenty48;

use tilebox_core::Registry;
use tilebox_sliding::{Game2048, Game2048Params, Threes};
use tilebox_strike9::Strike9;

pub use strike9::Strike9FrontEnd;
pub use threes::ThreesFrontEnd;
pub use twenty48::Twenty48FrontEnd;

/// Every game, in the order the launcher and `tilebox-cli list` show them.
pub fn registry() -> Registry {
    register(Registry::new())
}

/// `registry` with every game Tilebox ships added after what it holds (a test adds a kind of
/// its own to the real catalogue this way).
#[rustfmt::skip]
pub fn register(registry: Registry) -> Registry {
    registry
        .kind::<Game2048>(Twenty48FrontEnd)
        .preset::<Game2048>("2048-3x3", "2048 (3×3)", "A tight 3×3 board: make 512 to win.", Game2048Params { side: 3, win: 512 })
        .preset::<Game2048>("2048-5x5", "2048 (5×5)", "2048 on a roomier 5×5 board.", Game2048Params::with_side(5))
        .preset::<Game2048>("2048-6x6", "2048 (6×6)", "2048 on a 6×6 board: long games, big tiles.", Game2048Params::with_side(6))
        .preset::<Game2048>("2048-8x8", "2048 (8×8)", "2048 on a vast 8×8 board.", Game2048Params::with_side(8))
        .kind::<Threes>(ThreesFrontEnd)
        .kind::<Strike9>(Strike9FrontEnd)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_2048_sizes_are_presets_grouped_under_2048() {
        let registry = registry();
        let groups = registry.groups();
        let titles: Vec<&str> = groups.iter().map(|(title, _)| *title).collect();
        assert_eq!(titles, ["2048", "Threes", "Strike 9"]);
        let sizes: Vec<(String, usize, u64)> = groups[0]
            .1
            .iter()
            .map(|&i| {
                let entry = &registry.entries()[i];
                let params = entry.params::<Game2048>().expect("a 2048 entry");
                (entry.id().to_string(), params.side, params.win)
            })
            .collect();
        let expected = [
            ("2048", 4, 2048),
            ("2048-3x3", 3, 512),
            ("2048-5x5", 5, 2048),
            ("2048-6x6", 6, 2048),
            ("2048-8x8", 8, 2048),
        ];
        assert_eq!(sizes.len(), expected.len());
        for ((id, side, win), (eid, eside, ewin)) in sizes.iter().zip(expected) {
            assert_eq!((id.as_str(), *side, *win), (eid, eside, ewin));
            let game = registry.get(id).unwrap().new_session(1).unwrap();
            assert_eq!(game.state_json()["board"].as_array().unwrap().len(), *side);
        }
    }
}
