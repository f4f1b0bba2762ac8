//! Hints and autoplay, as the shell drives them: what was asked of the [`Advisor`], for which
//! position, and when autoplay asks for its next move.

use std::time::Duration;

use crate::advisor::{self, Advisor, Speed};
use crate::app::GameSlot;
use crate::views::ViewState;

/// What the player is told when the AI has no move for a board the rules still play on (a
/// board larger than 4×4, or a tile too large for the AI's 4-bit cells).
pub const NO_ADVICE: &str = "The AI cannot play this board (it knows 4×4 boards, with tiles up to 32768 in 2048 and 12288 in Threes).";
/// What the player is told when the AI's thread has stopped.
pub const AI_STOPPED: &str =
    "The AI has stopped: hints and autoplay are off until Tilebox restarts.";

/// The question in flight to the [`Advisor`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Asked {
    /// The game asked about.
    index: usize,
    /// That game's [`GameSlot::generation`] when asked: an answer for another position is
    /// dropped.
    generation: u64,
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

impl Assist {
    /// Whether the AI is thinking about a hint or an autoplay move.
    pub fn thinking(&self) -> bool {
        self.asked.is_some()
    }

    /// Whether the AI is thinking about a hint for game `index`.
    pub fn thinking_of_hint(&self, index: usize) -> bool {
        self.asked.is_some_and(|a| a.index == index && a.hint)
    }

    /// Shows the best move in game `index`: at once for Strike 9 (the exact table), after a
    /// search on the advisor's thread for the sliding games.
    pub fn hint(&mut self, ctx: &egui::Context, index: usize, slot: &mut GameSlot) {
        let Some(session) = slot.session.as_deref() else {
            return;
        };
        if session.status().over {
            slot.message = Some("The game is over: no hint to give.".to_string());
            return;
        }
        if let ViewState::Strike9(view) = &mut slot.view {
            view.show_hint(session);
            slot.message = None;
        } else if self
            .advisor
            .ask(session, advisor::HINT_TIME, Some(ctx.clone()))
        {
            self.asked = Some(Asked {
                index,
                generation: slot.generation,
                hint: true,
            });
        } else {
            slot.message = Some(if Advisor::plays(session) {
                AI_STOPPED.to_string()
            } else {
                format!("No hints for {}.", slot.entry.info.title)
            });
        }
    }

    /// Turns autoplay in game `index` on, or off.
    pub fn toggle_autoplay(&mut self, index: usize, slot: &mut GameSlot) {
        if slot.autoplay {
            self.stop(index, slot);
        } else if slot.session.as_deref().is_some_and(Advisor::plays) {
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
    /// `index` (the one shown) when its time has come.
    pub fn drive(&mut self, ctx: &egui::Context, index: usize, slots: &mut [GameSlot], now: f64) {
        self.take_answer(ctx, slots);
        let Some(slot) = slots.get_mut(index) else {
            return;
        };
        if !slot.autoplay || self.asked.is_some() {
            return;
        }
        let Some(session) = slot.session.as_deref() else {
            return;
        };
        let status = session.status();
        if status.over {
            slot.autoplay = false;
            return;
        }
        if slot.tally.announces_win(status) || slot.confirm_new {
            // Wait for the player's answer to the win or the question.
            return;
        }
        let ViewState::Sliding(view) = &slot.view else {
            return;
        };
        if let Some(pause) = self.speed.pause() {
            if view.busy(now) {
                // The pause runs from the end of the move's animation.
                self.next_auto_at = now + pause;
                return;
            }
            if now < self.next_auto_at {
                ctx.request_repaint_after(Duration::from_secs_f64(self.next_auto_at - now));
                return;
            }
        }
        if self
            .advisor
            .ask(session, self.speed.think(), Some(ctx.clone()))
        {
            self.asked = Some(Asked {
                index,
                generation: slot.generation,
                hint: false,
            });
        } else {
            slot.autoplay = false;
            slot.message = Some(AI_STOPPED.to_string());
        }
    }

    /// Applies the answer to the question in flight, if it came and its position is still the
    /// one on the board; tells the player if the AI's thread has stopped.
    fn take_answer(&mut self, ctx: &egui::Context, slots: &mut [GameSlot]) {
        let Some(asked) = self.asked else {
            return;
        };
        let answer = self.advisor.poll();
        let Some(slot) = slots.get_mut(asked.index) else {
            self.asked = None;
            return;
        };
        let Some(answer) = answer else {
            if !self.advisor.is_running() {
                self.asked = None;
                slot.autoplay = false;
                slot.message = Some(AI_STOPPED.to_string());
            }
            return;
        };
        self.asked = None;
        if slot.generation != asked.generation {
            return;
        }
        let ViewState::Sliding(view) = &mut slot.view else {
            return;
        };
        match (answer, asked.hint) {
            (Some(dir), true) => view.set_hint(dir),
            (Some(dir), false) => {
                view.queue(dir);
                ctx.request_repaint();
            }
            (None, _) => {
                slot.autoplay = false;
                slot.message = Some(NO_ADVICE.to_string());
            }
        }
    }
}
