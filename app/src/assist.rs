//! Hints and autoplay, as the shell drives them: what was asked of the [`Advisor`], for which
//! position, and when autoplay asks for its next move. Every game whose kind has an assistant
//! that plays its params gets them (see [`tilebox_core::DynSession::assistant`]: the game's own
//! params, which a save may carry, not the entry's preset); the answer is a move in its text
//! form, which the view shows as a hint or the shell plays.

use std::time::Duration;

use tilebox_core::AssistError;

use crate::advisor::{self, Advisor, Speed};
use crate::slot::GameSlot;

/// What the player is told when the AI's thread has stopped.
pub const AI_STOPPED: &str =
    "The AI has stopped: hints and autoplay are off until Tilebox restarts.";

/// The question in flight to the [`Advisor`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Asked {
    /// The game asked about.
    index: usize,
    /// That game's session revision when asked: an answer for another position is dropped.
    revision: u64,
    /// A hint to show (else a move for autoplay).
    hint: bool,
}

/// Hints and autoplay for every game.
pub struct Assist {
    /// The AI, on its own thread.
    advisor: Advisor,
    /// What the advisor is working on.
    asked: Option<Asked>,
    /// Autoplay's speed.
    pub speed: Speed,
    /// When autoplay may ask for its next move (app time, seconds).
    next_auto_at: f64,
}

impl Default for Assist {
    fn default() -> Self {
        Self {
            advisor: Advisor::new(),
            asked: None,
            speed: Speed::default(),
            next_auto_at: 0.0,
        }
    }
}

/// An assistant's refusal as a sentence for the player.
fn sentence(e: &AssistError) -> String {
    let text = e.to_string();
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => format!("{}{}.", first.to_uppercase(), chars.as_str()),
        None => text,
    }
}

impl Assist {
    /// Whether the AI is thinking about a hint or an autoplay move.
    pub fn thinking(&self) -> bool {
        self.asked.is_some()
    }

    /// Whether the AI is thinking about a hint for game `index`.
    pub fn thinking_of_hint(&self, index: usize) -> bool {
        self.asked.is_some_and(|a| a.index == index && a.hint)
    }

    /// Asks for the best move in game `index`, shown by its view when it comes.
    pub fn hint(&mut self, ctx: &egui::Context, index: usize, slot: &mut GameSlot) {
        let Some(session) = slot.session.as_deref() else {
            return;
        };
        if session.status().over {
            slot.message = Some("The game is over: no hint to give.".to_string());
            return;
        }
        let Some(assistant) = session.assistant() else {
            slot.message = Some(format!("No hints for {}.", slot.entry.title()));
            return;
        };
        if self
            .advisor
            .ask(&assistant, session, advisor::HINT_TIME, Some(ctx.clone()))
        {
            slot.message = None;
            self.asked = Some(Asked {
                index,
                revision: session.revision(),
                hint: true,
            });
        } else {
            slot.message = Some(AI_STOPPED.to_string());
        }
    }

    /// Turns autoplay in game `index` on, or off.
    pub fn toggle_autoplay(&mut self, index: usize, slot: &mut GameSlot) {
        if slot.autoplay {
            self.stop(index, slot);
        } else if slot
            .session
            .as_deref()
            .and_then(|s| s.assistant())
            .is_some_and(|a| a.autoplays())
        {
            slot.autoplay = true;
            slot.message = None;
            self.next_auto_at = 0.0;
        }
    }

    /// Stops autoplay in game `index` and drops any answer on its way for it.
    pub fn stop(&mut self, index: usize, slot: &mut GameSlot) {
        slot.autoplay = false;
        if self.asked.is_some_and(|a| a.index == index) {
            self.asked = None;
            self.advisor.cancel();
        }
    }

    /// Takes the advisor's answer, if one came, and asks for autoplay's next move in game
    /// `index` (the one shown) when its time has come. Returns autoplay's move for the shell
    /// to play, if one came for the position on the board of game `index`; a move for another
    /// game is dropped (that game asks again when it is shown).
    pub fn drive(
        &mut self,
        ctx: &egui::Context,
        index: usize,
        slots: &mut [GameSlot],
        now: f64,
    ) -> Option<String> {
        if let Some((asked, mv)) = self.take_answer(slots) {
            ctx.request_repaint();
            if asked == index {
                return Some(mv);
            }
        }
        let slot = slots.get_mut(index)?;
        if !slot.autoplay || self.asked.is_some() {
            return None;
        }
        let session = slot.session.as_deref()?;
        let status = session.status();
        if status.over {
            slot.autoplay = false;
            return None;
        }
        if slot.tally.announces_win(status) || slot.confirm_new {
            // Wait for the player's answer to the win or the question.
            return None;
        }
        if let Some(pause) = self.speed.pause() {
            if slot.view.busy(now) {
                // The pause runs from the end of the move's animation.
                self.next_auto_at = now + pause;
                return None;
            }
            if now < self.next_auto_at {
                ctx.request_repaint_after(Duration::from_secs_f64(self.next_auto_at - now));
                return None;
            }
        }
        let Some(assistant) = session.assistant().filter(|a| a.autoplays()) else {
            slot.autoplay = false;
            return None;
        };
        if self
            .advisor
            .ask(&assistant, session, self.speed.think(), Some(ctx.clone()))
        {
            self.asked = Some(Asked {
                index,
                revision: session.revision(),
                hint: false,
            });
        } else {
            slot.autoplay = false;
            slot.message = Some(AI_STOPPED.to_string());
        }
        None
    }

    /// Applies the answer to the question in flight, if it came and its position is still the
    /// one on the board: a hint goes to the view, autoplay's move is returned with the index
    /// of its game. Tells the player if the AI's thread has stopped or cannot play the board.
    fn take_answer(&mut self, slots: &mut [GameSlot]) -> Option<(usize, String)> {
        let asked = self.asked?;
        let answer = self.advisor.poll();
        let Some(slot) = slots.get_mut(asked.index) else {
            self.asked = None;
            return None;
        };
        let Some(answer) = answer else {
            if !self.advisor.is_running() {
                self.asked = None;
                slot.autoplay = false;
                slot.message = Some(AI_STOPPED.to_string());
            }
            return None;
        };
        self.asked = None;
        let current = slot.session.as_deref().map(|s| s.revision());
        if current != Some(asked.revision) {
            return None;
        }
        match (answer, asked.hint) {
            (Ok(Some(mv)), true) => {
                slot.view.show_hint(&mv);
                None
            }
            (Ok(Some(mv)), false) => Some((asked.index, mv)),
            (Ok(None), _) => {
                slot.autoplay = false;
                None
            }
            (Err(e), _) => {
                slot.autoplay = false;
                slot.message = Some(sentence(&e));
                None
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use std::time::Instant;

    use tilebox_core::{Registry, Session};
    use tilebox_tests::toy::{self, Toy, ToyCoach};

    use super::*;
    use crate::tally::Tally;

    /// Steps `drive` with game `shown` on the screen until `done` holds of the assist and the
    /// moves it returned; returns those moves.
    fn drive_until(
        assist: &mut Assist,
        shown: usize,
        slots: &mut [GameSlot],
        mut done: impl FnMut(&Assist, &[String]) -> bool,
    ) -> Vec<String> {
        let ctx = egui::Context::default();
        let start = Instant::now();
        let mut given = Vec::new();
        loop {
            given.extend(assist.drive(&ctx, shown, slots, 0.0));
            if done(assist, &given) {
                return given;
            }
            assert!(start.elapsed() < Duration::from_secs(30), "no answer");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn autoplays_move_is_returned_only_while_its_game_is_shown() {
        let registry = toy::with_toy_front_end(Registry::new(), ToyCoach);
        let entry = registry.get("toy").unwrap();
        let seed = (0..1000)
            .find(|&s| {
                let n = Session::<Toy>::with_seed(s).unwrap().state().pebbles_left();
                n <= ToyCoach::MAX_PEBBLES
            })
            .unwrap();
        let mut slots: Vec<GameSlot> = (0..2)
            .map(|_| {
                let session = entry.new_session(seed).unwrap();
                GameSlot::new(entry.clone(), Some((session, Tally::default())))
            })
            .collect();
        slots[0].autoplay = true;
        let mut assist = Assist::default();

        // Game 0 is shown: autoplay asks for its move.
        let given = drive_until(&mut assist, 0, &mut slots, |a, _| a.thinking());
        assert!(given.is_empty());
        // Game 1 is shown when the answer comes: the move is game 0's, not returned for 1.
        let given = drive_until(&mut assist, 1, &mut slots, |a, _| !a.thinking());
        assert!(given.is_empty(), "{given:?}");
        // Game 0 shown again: it asks again, and its move is returned.
        let given = drive_until(&mut assist, 0, &mut slots, |_, g| !g.is_empty());
        let legal = slots[0].session.as_deref().unwrap().legal_moves();
        assert_eq!(given.len(), 1);
        assert!(legal.contains(&given[0]), "{given:?} of {legal:?}");
    }
}
