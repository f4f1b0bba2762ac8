//! Keys: this frame's key presses, and the shell's commands they stand for.
//!
//! Moves (arrows, digits) belong to the views; the commands here are the same in every game.

use egui::{Key, Modifiers};

/// A key pressed this frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyPress {
    /// The key.
    pub key: Key,
    /// Shift, Ctrl... held with it.
    pub modifiers: Modifiers,
    /// The key is held down and this press is the system's auto-repeat.
    pub repeat: bool,
}

impl KeyPress {
    /// Whether Ctrl, Alt or Command is held: such a key is never a move.
    pub fn has_command_modifier(self) -> bool {
        let m = self.modifiers;
        m.ctrl || m.alt || m.command || m.mac_cmd
    }
}

/// A command the shell understands, from a key or a button.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    /// Back to the launcher.
    Back,
    /// A new game (asks first when a game is in progress).
    NewGame,
    /// Take back the last move.
    Undo,
    /// Play again the last move taken back.
    Redo,
    /// Show or hide "How to play".
    ToggleHelp,
    /// System, light, dark theme.
    ToggleTheme,
    /// Show the best move.
    Hint,
    /// Let the AI play, or stop it.
    ToggleAutoplay,
    /// The game's statistics.
    Statistics,
    /// Watch the game in progress from its start.
    Replay,
    /// Show the game's code, to share it.
    ShowCode,
    /// Start today's daily game of this game (asks first when a game is in progress).
    DailyGame,
}

impl Command {
    /// Whether the player takes the game back from the AI by giving this command. Help, theme
    /// and the game's code change nothing in the game; autoplay's own toggle decides for
    /// itself.
    pub fn takes_over(self) -> bool {
        !matches!(
            self,
            Command::ToggleHelp
                | Command::ToggleTheme
                | Command::ToggleAutoplay
                | Command::ShowCode
        )
    }
}

/// The key presses of this frame, in order.
pub fn read_keys(ctx: &egui::Context) -> Vec<KeyPress> {
    ctx.input(|i| i.events.iter().filter_map(key_press_of).collect())
}

/// The key press of an input event, if it is one.
pub fn key_press_of(event: &egui::Event) -> Option<KeyPress> {
    match event {
        egui::Event::Key {
            key,
            pressed: true,
            modifiers,
            repeat,
            ..
        } => Some(KeyPress {
            key: *key,
            modifiers: *modifiers,
            repeat: *repeat,
        }),
        _ => None,
    }
}

/// Hands this frame's input to the screen shown, keeping back what belongs to the next: the
/// events `held` back from the last frame come first, then this frame's; the frame keeps them
/// up to the first key that `changes_screen` (a card's number, Escape, Statistics...) and the
/// text that key typed, and the rest are held back for the next frame, which comes at once and
/// draws the screen that key opened. So keys pressed with, or while, a screen changes reach the
/// new screen, in order. Call it first in a frame, before anything reads the input.
pub fn hand_over(
    ctx: &egui::Context,
    held: &mut Vec<egui::Event>,
    changes_screen: impl Fn(KeyPress) -> bool,
) {
    ctx.input_mut(|i| cut_events(&mut i.events, held, changes_screen));
    if !held.is_empty() {
        ctx.request_repaint();
    }
}

/// The cut of [`hand_over`], on a frame's `events`: the events `held` back come first, the
/// frame keeps them up to the first key that `changes_screen` (and the text it typed), and the
/// rest go back to `held`. The window calls it on the raw input, before egui reads it
/// ([`crate::TileboxApp`]'s `raw_input_hook`), so that egui's own keys (Tab's focus move) wait
/// too; [`hand_over`] calls it inside the frame where no hook runs (the test harness).
pub fn cut_events(
    events: &mut Vec<egui::Event>,
    held: &mut Vec<egui::Event>,
    changes_screen: impl Fn(KeyPress) -> bool,
) {
    let mut all = std::mem::take(held);
    all.append(events);
    let mut cut = all
        .iter()
        .position(|e| key_press_of(e).is_some_and(&changes_screen))
        .map_or(all.len(), |at| at + 1);
    // The text the key typed stays with it: it is not typed into the next screen.
    while matches!(all.get(cut), Some(egui::Event::Text(_))) {
        cut += 1;
    }
    *held = all.split_off(cut);
    *events = all;
}

/// The shell's command for a key, if it is one. `plain_h_hints`: the game has no move on H, so
/// H without Shift asks for a hint too.
///
/// A held key repeats undo and redo, as in an editor; the other commands toggle or open
/// something, so only the first press of a held key counts.
pub fn command_of(k: KeyPress, plain_h_hints: bool) -> Option<Command> {
    let m = k.modifiers;
    let ctrl = m.ctrl || m.command || m.mac_cmd;
    let command = match k.key {
        Key::Escape => Command::Back,
        Key::Z if ctrl && m.shift => Command::Redo,
        Key::Z if ctrl => Command::Undo,
        Key::Y if ctrl => Command::Redo,
        Key::U if m.shift && !ctrl => Command::Redo,
        Key::U if !ctrl => Command::Undo,
        Key::N if !ctrl => Command::NewGame,
        Key::F1 => Command::ToggleHelp,
        Key::T if !ctrl => Command::ToggleTheme,
        Key::H if m.shift && !ctrl => Command::Hint,
        Key::H if plain_h_hints && m.is_none() => Command::Hint,
        Key::A if m.shift && !ctrl => Command::ToggleAutoplay,
        Key::S if m.shift && !ctrl => Command::Statistics,
        Key::R if m.shift && !ctrl => Command::Replay,
        Key::C if m.shift && !ctrl => Command::ShowCode,
        Key::D if m.shift && !ctrl => Command::DailyGame,
        _ => return None,
    };
    let repeats = matches!(command, Command::Undo | Command::Redo);
    (repeats || !k.repeat).then_some(command)
}

/// The digit 1 to 9 of a key, if it is one.
pub fn digit_of(key: Key) -> Option<u8> {
    Some(match key {
        Key::Num1 => 1,
        Key::Num2 => 2,
        Key::Num3 => 3,
        Key::Num4 => 4,
        Key::Num5 => 5,
        Key::Num6 => 6,
        Key::Num7 => 7,
        Key::Num8 => 8,
        Key::Num9 => 9,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(key: Key, modifiers: Modifiers) -> KeyPress {
        KeyPress {
            key,
            modifiers,
            repeat: false,
        }
    }

    #[test]
    fn undo_and_redo_have_their_editor_keys_and_u() {
        let none = Modifiers::NONE;
        assert_eq!(
            command_of(press(Key::Z, Modifiers::CTRL), false),
            Some(Command::Undo)
        );
        assert_eq!(
            command_of(press(Key::Z, Modifiers::CTRL | Modifiers::SHIFT), false),
            Some(Command::Redo)
        );
        assert_eq!(
            command_of(press(Key::Y, Modifiers::CTRL), false),
            Some(Command::Redo)
        );
        assert_eq!(command_of(press(Key::U, none), false), Some(Command::Undo));
        assert_eq!(
            command_of(press(Key::U, Modifiers::SHIFT), false),
            Some(Command::Redo)
        );
    }

    #[test]
    fn plain_h_is_a_hint_only_where_h_is_not_a_move() {
        assert_eq!(command_of(press(Key::H, Modifiers::NONE), false), None);
        assert_eq!(
            command_of(press(Key::H, Modifiers::NONE), true),
            Some(Command::Hint)
        );
        assert_eq!(
            command_of(press(Key::H, Modifiers::SHIFT), false),
            Some(Command::Hint)
        );
        // Ctrl+H is nothing.
        assert_eq!(command_of(press(Key::H, Modifiers::CTRL), true), None);
    }

    #[test]
    fn a_held_key_repeats_undo_but_not_toggles() {
        let held = |key, modifiers| KeyPress {
            key,
            modifiers,
            repeat: true,
        };
        assert_eq!(
            command_of(held(Key::U, Modifiers::NONE), false),
            Some(Command::Undo)
        );
        for (key, modifiers) in [
            (Key::T, Modifiers::NONE),
            (Key::F1, Modifiers::NONE),
            (Key::A, Modifiers::SHIFT),
            (Key::H, Modifiers::SHIFT),
            (Key::N, Modifiers::NONE),
            (Key::Escape, Modifiers::NONE),
            (Key::S, Modifiers::SHIFT),
            (Key::R, Modifiers::SHIFT),
            (Key::C, Modifiers::SHIFT),
            (Key::D, Modifiers::SHIFT),
        ] {
            assert!(command_of(press(key, modifiers), false).is_some());
            assert_eq!(command_of(held(key, modifiers), false), None, "{key:?}");
        }
    }

    #[test]
    fn statistics_and_replay_are_shifted_so_s_stays_a_move() {
        assert_eq!(
            command_of(press(Key::S, Modifiers::SHIFT), false),
            Some(Command::Statistics)
        );
        assert_eq!(
            command_of(press(Key::R, Modifiers::SHIFT), false),
            Some(Command::Replay)
        );
        assert_eq!(command_of(press(Key::S, Modifiers::NONE), false), None);
        assert_eq!(command_of(press(Key::R, Modifiers::NONE), false), None);
    }

    #[test]
    fn the_code_and_the_daily_game_are_shifted_so_d_stays_a_move() {
        assert_eq!(
            command_of(press(Key::C, Modifiers::SHIFT), false),
            Some(Command::ShowCode)
        );
        assert_eq!(
            command_of(press(Key::D, Modifiers::SHIFT), false),
            Some(Command::DailyGame)
        );
        assert_eq!(command_of(press(Key::D, Modifiers::NONE), false), None);
        assert_eq!(command_of(press(Key::C, Modifiers::NONE), false), None);
        assert_eq!(command_of(press(Key::D, Modifiers::CTRL), false), None);
    }

    fn key(key: Key) -> egui::Event {
        egui::Event::Key {
            key,
            physical_key: None,
            pressed: true,
            repeat: false,
            modifiers: Modifiers::NONE,
        }
    }

    /// A frame's input: `events`.
    fn frame(ctx: &egui::Context, events: Vec<egui::Event>) {
        ctx.input_mut(|i| i.events = events);
    }

    #[test]
    fn the_events_after_a_key_that_changes_the_screen_wait_for_the_next_frame_in_order() {
        let ctx = egui::Context::default();
        let changes = |k: KeyPress| digit_of(k.key).is_some();
        let mut held = Vec::new();
        let typed = vec![
            key(Key::ArrowRight),
            key(Key::Num2),
            egui::Event::Text("2".to_string()),
            key(Key::ArrowLeft),
            key(Key::Num3),
            key(Key::ArrowUp),
        ];
        frame(&ctx, typed.clone());
        hand_over(&ctx, &mut held, changes);
        // The key that changes the screen, with the text it typed, ends the frame's input.
        assert_eq!(ctx.input(|i| i.events.clone()), typed[..3]);
        assert_eq!(held, typed[3..]);
        assert_eq!(read_keys(&ctx).len(), 2);

        // The next frame takes them first, up to the next such key, before its own.
        frame(&ctx, vec![key(Key::ArrowDown)]);
        hand_over(&ctx, &mut held, changes);
        assert_eq!(ctx.input(|i| i.events.clone()), typed[3..5]);
        assert_eq!(held, vec![typed[5].clone(), key(Key::ArrowDown)]);

        frame(&ctx, Vec::new());
        hand_over(&ctx, &mut held, changes);
        assert_eq!(
            ctx.input(|i| i.events.clone()),
            vec![typed[5].clone(), key(Key::ArrowDown)]
        );
        assert!(held.is_empty());
    }

    #[test]
    fn digits() {
        assert_eq!(digit_of(Key::Num1), Some(1));
        assert_eq!(digit_of(Key::Num9), Some(9));
        assert_eq!(digit_of(Key::Num0), None);
        assert_eq!(digit_of(Key::A), None);
    }
}
