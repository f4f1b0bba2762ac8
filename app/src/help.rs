//! The controls every game shares, and those of the assistant. The rules of each game are its
//! front end's ([`tilebox_core::Entry::how_to_play`]).

/// The controls every game shares.
pub const COMMON_CONTROLS: &str = "N: new game (asks first when a game is in progress: Y yes, N or Escape no)\n\
Ctrl+Z or U: undo    Ctrl+Y or Shift+U: redo (without limit)\n\
Escape: back to the list you chose the game from (the game is kept)\n\
F1: show or hide this panel    T: light / dark / system theme\n\
Shift+S: this game's statistics    Shift+R: replay the game in progress from its start\n\
Shift+C: this game's code, to share it (Return copies it)    Shift+D: today's daily game \
(the same for everyone; asks first when a game is in progress)\n\
Ctrl+= or Ctrl++: zoom in    Ctrl+-: zoom out    Ctrl+0: the window's own zoom\n\
In a message: Return gives the answer that has the focus (Keep going; Play again; No, keep \
playing), Tab moves between the answers, Escape keeps going or goes back";

/// The controls of the assistant, in the games that have one: how a hint is asked for and
/// what it looks like (`looks`, from the view), autoplay if the assistant plays on its own, and
/// what the lines under the board tell (`commentary`, from the view), if anything.
pub fn assist_controls(
    plain_h: bool,
    looks: &str,
    autoplays: bool,
    commentary: Option<&str>,
) -> String {
    let key = if plain_h { "H or Shift+H" } else { "Shift+H" };
    let mut text = format!("{key}: hint ({looks})");
    if autoplays {
        text.push_str("    Shift+A: autoplay on or off (speed: the menu beside it)");
    }
    if let Some(commentary) = commentary {
        text.push('\n');
        text.push_str(commentary);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hint_key_and_autoplay_follow_the_game() {
        let sliding = assist_controls(false, "an arrow", true, None);
        assert!(sliding.starts_with("Shift+H: hint (an arrow)"), "{sliding}");
        assert!(sliding.contains("Shift+A"), "{sliding}");
        assert!(!sliding.contains('\n'), "{sliding}");
        let plain = assist_controls(true, "rings", false, Some("The odds are shown."));
        assert!(plain.starts_with("H or Shift+H: hint (rings)"), "{plain}");
        assert!(!plain.contains("autoplay"), "{plain}");
        assert!(plain.ends_with("\nThe odds are shown."), "{plain}");
    }
}
