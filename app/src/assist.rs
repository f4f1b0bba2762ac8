//! Hints and autoplay, as the shell drives them: what was asked of the [`Advisor`], for which
//! position, and when autoplay asks for its next move. Every entry whose kind has an assistant
//! gets them (see [`tilebox_core::Entry::assistant`]); the answer is a move in its text form,
//! which the view shows as a hint or the shell plays.

use std::time::Duration;

use tilebox_core::AssistError;

use crate::advisor::{self, Advisor, Speed};
use crate::app::GameSlot;

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
        let Some(assistant) = slot.entry.assistant() else {
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
        } else if slot.entry.assistant().is_some_and(|a| a.autoplays()) {
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
    /// to play, if one came for the position on the board.
    pub fn drive(
        &mut self,
        ctx: &egui::Context,
        index: usize,
        slots: &mut [GameSlot],
        now: f64,
    ) -> Option<String> {
        let autoplay_move = self.take_answer(slots);
        if autoplay_move.is_some() {
            ctx.request_repaint();
            return autoplay_move;
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
        let Some(assistant) = slot.entry.assistant() else {
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
    /// one on the board: a hint goes to the view, autoplay's move is returned. Tells the
    /// player if the AI's thread has stopped or cannot play the board.
    fn take_answer(&mut self, slots: &mut [GameSlot]) -> Option<String> {
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
            (Ok(Some(mv)), false) => Some(mv),
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
