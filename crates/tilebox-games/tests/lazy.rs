//! Listing the catalogue reads no built-in file but the standard 2048's (the sliding kind's
//! default): `tilebox-cli list` and the launcher ask every entry its names, group and whether a
//! lower score is better. A game reads its own file, and a player's file reads its base's. Its
//! own test binary, so that no other test has read a file first.

use tilebox_sliding::{Builtin, builtins};

/// The ids of the built-ins whose files have been read.
fn read() -> Vec<&'static str> {
    builtins()
        .iter()
        .filter(|b| b.is_read())
        .map(Builtin::id)
        .collect()
}

#[test]
fn listing_the_catalogue_reads_no_builtin_but_2048_and_a_game_reads_its_own() {
    let dir = std::env::temp_dir().join(format!("tilebox-games-lazy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("mine.json"),
        r#"{"format": 1, "id": "my-fib", "title": "Mine", "based_on": "2584", "side": 5}"#,
    )
    .unwrap();
    let (registry, refused) = tilebox_games::registry_with_variants(&dir);
    assert!(refused.is_empty(), "{refused:?}");
    for entry in registry.entries() {
        let _ = (entry.info(), entry.lower_is_better());
    }
    let _ = (
        registry.groups(),
        registry.renamed(),
        registry.combinations(),
    );
    assert_eq!(read(), ["2048", "2584"]);
    let game = registry.get("3125").unwrap().new_session(1).unwrap();
    assert_eq!(game.info().id, "3125");
    assert_eq!(read(), ["2048", "2584", "3125"]);
    std::fs::remove_dir_all(&dir).unwrap();
}
