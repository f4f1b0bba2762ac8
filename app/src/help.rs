//! The "How to play" text of each game, and the controls every game shares.

/// The controls every game shares.
pub const COMMON_CONTROLS: &str = "N: new game (asks first when a game is in progress: Y yes, N or Escape no)\n\
Ctrl+Z or U: undo    Ctrl+Y or Shift+U: redo (without limit)\n\
Escape: back to the games (the game is kept)\n\
F1: show or hide this panel    T: light / dark / system theme";

/// The controls of the AI, in the games that have them.
pub fn assist_controls(id: &str) -> Option<&'static str> {
    match id {
        "2048" | "threes" => Some(
            "Shift+H: hint (the best move, as an arrow on the board)    \
Shift+A: autoplay on or off (speed: the menu beside it)",
        ),
        "strike9" => Some(
            "H or Shift+H: hint (the best tiles to shut, from the exact odds); the line under the \
tiles gives your chance of shutting the box with best play, and what your last move gave up",
        ),
        _ => None,
    }
}

/// How to play game `id`, in a few lines; a generic text for games without one.
pub fn how_to_play(id: &str) -> &'static str {
    match id {
        "2048" => {
            "Slide all tiles with the arrow keys, WASD or hjkl, or drag (swipe) on the board. \
Two tiles of the same number that meet merge into their sum, and the sum is added to your score. \
After every move a 2 or a 4 appears. Make a 2048 tile to win, then keep going if you like; the \
game ends when no move is left."
        }
        "threes" => {
            "Slide the cards with the arrow keys, WASD or hjkl, or drag (swipe) on the board. \
Cards move one step at most. A 1 and a 2 make a 3; from 3 up, two equal cards make their double. \
A new card comes in from the edge you slid away from: the next one is shown above the board \
(\"+\" is a bonus card, worth 6 or more). The game ends when no move is left; the score counts \
every card of 3 and up."
        }
        "strike9" => {
            "Shut the box! Two dice are rolled for you. Shut open tiles whose numbers add up to \
exactly the total of the dice: click the tiles or press their numbers 1 to 9; click a chosen tile \
again to take it back. Tiles that would go over the total are greyed out. The tiles shut as soon \
as your choice makes the total, and the dice roll again. The game ends when no open tiles make \
the roll; shut all nine to win."
        }
        _ => "Pick one of the moves listed under the board. The game's own rules decide the rest.",
    }
}
