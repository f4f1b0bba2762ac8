//! Hints and autoplay, as the shell drives them: what was asked of the [`Advisor`], for which
//! position, and which of autoplay's moves are due. Every game whose kind has an assistant
//! that plays its params gets them (see [`tilebox_core::DynSession::assistant`]: the game's own
//! params, which a save may carry, not the entry's preset); the answer is a move in its text
//! form, which the view shows as a hint or the shell plays.
//!
//! Autoplay is paced by the clock, not by frames: the worker plays ahead on a copy of the game
//! and streams its moves ([`Advisor::stream`]); each frame, [`Assist::drive`] hands the shell
//! every move due by the frame's time ([`Pace`]), in order, so a slow frame plays several. The
//! moves are for the position the stream started from: when the game on the board is no longer
//! the one they follow (an undo, a new game, a move of the player's), they are dropped.

use std::collections::VecDeque;
use std::time::Duration;

use tilebox_core::{AssistError, DynSession};

use crate::slot::GameSlot;
use crate::store::settings::Speed;
use crate::ui::input::Command;
use crate::work::advisor::{self, Advisor};
use crate::work::pace::Pace;

/// What the player is told when the AI's thread has stopped.
pub const AI_STOPPED: &str =
    "The AI has stopped: hints and autoplay are off until Tilebox restarts.";

/// Whether `command` stops autoplay: any that takes the game back from the AI
/// ([`Command::takes_over`]), and autoplay's own toggle. Autoplay's moves due in the frame of
/// such a command are not played.
pub fn stops_autoplay(command: Command) -> bool {
    command.takes_over() || command == Command::ToggleAutoplay
}

/// The hint asked of the [`Advisor`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Asked {
    /// The game asked about.
    index: usize,
    /// That game's session revision when asked: an answer for another position is dropped.
    revision: u64,
}

/// Where the game on the board must be for the stream's next move to follow.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Follows {
    /// The session at this revision (where the stream started, or last checked).
    Revision(u64),
    /// The session after the moves handed to the shell: this many moves, the last this one.
    Played { count: usize, last: String },
}

/// Autoplay's moves in one game, as the worker streams them.
#[derive(Debug)]
struct Stream {
    /// The game played.
    index: usize,
    /// The position the next move follows.
    follows: Follows,
    /// Moves come and not yet due, in order.
    queue: VecDeque<String>,
    /// The stream's end, once it came: after the queue, autoplay stops.
    end: Option<Result<(), AssistError>>,
    /// How many moves came, and the most the worker may play.
    received: usize,
    allowed: usize,
    /// When the next move is due.
    pace: Pace,
}

impl Stream {
    /// Whether the game on the board is where the stream's next move follows; once checked
    /// after moves were handed out, the session's revision is what is checked next.
    fn still_follows(&mut self, session: &dyn DynSession) -> bool {
        let follows = match &self.follows {
            Follows::Revision(r) => *r == session.revision(),
            Follows::Played { count, last } => {
                session.move_count() == *count && session.last_move().as_ref() == Some(last)
            }
        };
        if follows {
            self.follows = Follows::Revision(session.revision());
        }
        follows
    }
}

/// Hints and autoplay for every game.
#[derive(Default)]
pub struct Assist {
    /// The AI, on its own thread.
    advisor: Advisor,
    /// The hint the advisor is working on.
    asked: Option<Asked>,
    /// Autoplay's stream, while autoplay is on in the game shown.
    stream: Option<Stream>,
    /// Autoplay's speed.
    pub speed: Speed,
}

/// An assistant's refusal as a sentence for the player.
fn sentence(e: &AssistError) -> String {
    format!("{}.", crate::ui::capitalized(&e.to_string()))
}

impl Assist {
    /// Hints and autoplay with the AI working in `mode` ([`Advisor::in_mode`]).
    pub fn in_mode(mode: crate::work_mode::WorkMode) -> Self {
        Self {
            advisor: Advisor::in_mode(mode),
            asked: None,
            stream: None,
            speed: Speed::default(),
        }
    }

    /// Whether the AI is thinking about a hint, or playing autoplay's moves.
    pub fn thinking(&self) -> bool {
        self.asked.is_some() || self.stream.is_some()
    }

    /// How many of autoplay's moves came from the AI and are not yet due.
    pub fn ahead(&self) -> usize {
        self.stream.as_ref().map_or(0, |s| s.queue.len())
    }

    /// Whether the AI is thinking about a hint for game `index`.
    pub fn thinking_of_hint(&self, index: usize) -> bool {
        self.asked.is_some_and(|a| a.index == index)
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
        // A hint replaces autoplay's stream at the worker.
        self.stream = None;
        if self
            .advisor
            .ask(&assistant, session, advisor::HINT_TIME, Some(ctx.clone()))
        {
            slot.message = None;
            self.asked = Some(Asked {
                index,
                revision: session.revision(),
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
        }
    }

    /// Stops autoplay in game `index` and drops any answer or move on its way for it.
    pub fn stop(&mut self, index: usize, slot: &mut GameSlot) {
        slot.autoplay = false;
        let hint = self.asked.is_some_and(|a| a.index == index);
        let stream = self.stream.as_ref().is_some_and(|s| s.index == index);
        if hint || stream {
            self.asked = None;
            self.stream = None;
            self.advisor.cancel();
        }
    }

    /// Drops autoplay's stream (its moves no longer follow the game, or another game is
    /// shown): the worker stops, and autoplay starts a new one if it is still on.
    fn drop_stream(&mut self) {
        if self.stream.take().is_some() {
            self.advisor.cancel();
        }
    }

    /// Takes the advisor's answer or moves, if any came, and returns autoplay's moves due at
    /// `now` in game `index` (the one shown), in order, for the shell to play one after the
    /// other; starts autoplay's stream when autoplay is on and none is running. Moves for
    /// another game, or that no longer follow the game on the board, are dropped (a game whose
    /// autoplay is on asks again when it is shown).
    pub fn drive(
        &mut self,
        ctx: &egui::Context,
        index: usize,
        slots: &mut [GameSlot],
        now: f64,
    ) -> Vec<String> {
        self.take_hint(ctx, slots);
        if self.stream.as_ref().is_some_and(|s| s.index != index) {
            self.drop_stream();
        }
        let Some(slot) = slots.get_mut(index) else {
            return Vec::new();
        };
        if !slot.autoplay || self.asked.is_some() {
            return Vec::new();
        }
        let Some(session) = slot.session.as_deref() else {
            return Vec::new();
        };
        let status = session.status();
        let count = session.move_count();
        if status.over {
            slot.autoplay = false;
            self.drop_stream();
            return Vec::new();
        }
        if self
            .stream
            .as_mut()
            .is_some_and(|s| !s.still_follows(session))
        {
            self.drop_stream();
        }
        if self.stream.is_none() {
            // Its moves come on later frames (the worker wakes the window with each).
            self.start_stream(ctx, index, slot);
            return Vec::new();
        }
        let Some(stream) = self.stream.as_mut() else {
            return Vec::new();
        };
        let streamed = self.advisor.streamed();
        stream.received += streamed.moves.len();
        stream.queue.extend(streamed.moves);
        if streamed.end.is_some() {
            stream.end = streamed.end;
        }
        if slot.tally.announces_win(status) || slot.confirm_new {
            // Wait for the player's answer to the win or the question; then the next move
            // comes at once, and the rest at their pace from there.
            stream.pace = Pace::now();
            return Vec::new();
        }
        let interval = self.speed.interval();
        let due = stream.pace.take(interval, now, stream.queue.len());
        let moves: Vec<String> = stream.queue.drain(..due).collect();
        if let Some(last) = moves.last() {
            stream.follows = Follows::Played {
                count: count + moves.len(),
                last: last.clone(),
            };
        }
        // The worker may play two seconds' moves ahead of the board.
        let wanted = stream.received - stream.queue.len() + self.speed.ahead();
        if wanted > stream.allowed {
            stream.allowed = wanted;
            self.advisor.allow(wanted);
        }
        if !stream.queue.is_empty() {
            if let Some(wait) = stream.pace.wait(now) {
                // The next move is due later: the window wakes for it (the worker wakes it
                // for a move still to come).
                ctx.request_repaint_after(Duration::from_secs_f64(wait));
            }
        } else if moves.is_empty() {
            // Every move of the stream is played (and the message of its end is not wiped by
            // a move played after it).
            if let Some(end) = stream.end.take() {
                self.stream = None;
                slot.autoplay = false;
                if let Err(e) = end {
                    slot.message = Some(sentence(&e));
                }
            } else if !self.advisor.is_running() {
                self.stream = None;
                slot.autoplay = false;
                slot.message = Some(AI_STOPPED.to_string());
            }
        }
        moves
    }

    /// Starts autoplay's stream in game `index`, or turns autoplay off (with the reason) when
    /// it cannot.
    fn start_stream(&mut self, ctx: &egui::Context, index: usize, slot: &mut GameSlot) {
        let Some(session) = slot.session.as_deref() else {
            return;
        };
        let Some(assistant) = session.assistant().filter(|a| a.autoplays()) else {
            slot.autoplay = false;
            return;
        };
        let ahead = self.speed.ahead();
        if !self.advisor.stream(
            &assistant,
            session,
            self.speed.think(),
            ahead,
            Some(ctx.clone()),
        ) {
            slot.autoplay = false;
            slot.message = Some(AI_STOPPED.to_string());
            return;
        }
        self.stream = Some(Stream {
            index,
            follows: Follows::Revision(session.revision()),
            queue: VecDeque::new(),
            end: None,
            received: 0,
            allowed: ahead,
            pace: Pace::now(),
        });
    }

    /// Shows the hint asked for, if it came and its position is still the one on the board.
    /// Tells the player if the AI's thread has stopped or cannot play the board.
    fn take_hint(&mut self, ctx: &egui::Context, slots: &mut [GameSlot]) {
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
                slot.message = Some(AI_STOPPED.to_string());
            }
            return;
        };
        self.asked = None;
        ctx.request_repaint();
        let current = slot.session.as_deref().map(|s| s.revision());
        if current != Some(asked.revision) {
            return;
        }
        match answer {
            Ok(Some(mv)) => {
                let trained = self.advisor.evaluation() == Some(advisor::TRAINED);
                slot.view.show_hint(&mv, trained);
            }
            Ok(None) => {}
            Err(e) => slot.message = Some(sentence(&e)),
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
    use crate::store::tally::Tally;
    use crate::work_mode::WorkMode;

    /// Steps `drive` with game `shown` on the screen until `done` holds of the assist and the
    /// moves it returned; returns those moves.
    fn drive_until(
        assist: &mut Assist,
        shown: usize,
        slots: &mut [GameSlot],
        done: impl FnMut(&Assist, &[String]) -> bool,
    ) -> Vec<String> {
        drive_until_at(assist, shown, slots, 0.0, done)
    }

    /// [`drive_until`] with the clock standing at `now`.
    fn drive_until_at(
        assist: &mut Assist,
        shown: usize,
        slots: &mut [GameSlot],
        now: f64,
        mut done: impl FnMut(&Assist, &[String]) -> bool,
    ) -> Vec<String> {
        let ctx = egui::Context::default();
        let start = Instant::now();
        let mut given = Vec::new();
        loop {
            given.extend(assist.drive(&ctx, shown, slots, now));
            if done(assist, &given) {
                return given;
            }
            assert!(start.elapsed() < Duration::from_secs(30), "no answer");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// `n` slots of the coached toy, each a game its player plays to the end.
    fn toy_slots(n: usize) -> Vec<GameSlot> {
        let registry = toy::with_toy_front_end(Registry::new(), ToyCoach);
        let entry = registry.get("toy").unwrap();
        let seed = (0..1000)
            .find(|&s| {
                let n = Session::<Toy>::with_seed(s).unwrap().state().pebbles_left();
                (4..=ToyCoach::MAX_PEBBLES).contains(&n)
            })
            .unwrap();
        (0..n)
            .map(|_| {
                let session = entry.new_session(seed).unwrap();
                GameSlot::new(entry.clone(), Some((session, Tally::default())))
            })
            .collect()
    }

    /// Plays `moves` in game 0, as the shell does.
    fn play(slots: &mut [GameSlot], moves: &[String]) {
        let session = slots[0].session.as_deref_mut().unwrap();
        for mv in moves {
            assert!(session.play_text(mv).unwrap() > 0, "{mv}");
        }
    }

    /// Autoplay at Fast in the first of `slots`, its first move played and the rest of the game
    /// played ahead by the AI: none of it is due while the clock stands still.
    fn played_ahead(slots: &mut [GameSlot], mode: WorkMode) -> Assist {
        slots[0].autoplay = true;
        let mut assist = Assist {
            speed: Speed::Fast,
            ..Assist::in_mode(mode)
        };
        // The first move is due as soon as it comes; the clock standing still, no other.
        let first = drive_until(&mut assist, 0, slots, |_, g| !g.is_empty());
        assert_eq!(first.len(), 1);
        play(slots, &first);
        let more = drive_until(&mut assist, 0, slots, |a, _| {
            a.stream.as_ref().is_some_and(|s| s.end.is_some())
        });
        assert!(more.is_empty(), "{more:?}");
        assert!(assist.ahead() >= 2, "{}", assist.ahead());
        assert!(assist.thinking());
        assist
    }

    /// Runs `test` with the AI on a thread of its own and on the frame (as in a page).
    fn in_both_modes(test: impl Fn(WorkMode)) {
        test(WorkMode::Threads);
        test(WorkMode::Frame);
    }

    #[test]
    fn a_slow_frame_hands_out_every_move_due_in_order() {
        in_both_modes(slow_frame);
    }

    fn slow_frame(mode: WorkMode) {
        let mut slots = toy_slots(1);
        let mut assist = played_ahead(&mut slots, mode);
        let ahead = assist.ahead();
        // A frame a second later: every move, in order, to the end of the game.
        let rest = assist.drive(&egui::Context::default(), 0, &mut slots, 1.0);
        assert_eq!(rest.len(), ahead);
        play(&mut slots, &rest);
        assert!(slots[0].session.as_deref().unwrap().status().over);
        // Then autoplay stops, its game over.
        assert!(
            assist
                .drive(&egui::Context::default(), 0, &mut slots, 2.0)
                .is_empty()
        );
        assert!(!slots[0].autoplay);
        assert!(!assist.thinking());
    }

    #[test]
    fn moves_played_ahead_are_dropped_when_the_game_changes() {
        in_both_modes(dropped_when_changed);
    }

    fn dropped_when_changed(mode: WorkMode) {
        let mut slots = toy_slots(1);
        let mut assist = played_ahead(&mut slots, mode);
        assert!(slots[0].session.as_deref_mut().unwrap().undo());
        let given = assist.drive(&egui::Context::default(), 0, &mut slots, 1.0);
        assert!(given.is_empty(), "{given:?}");
        assert_eq!(assist.ahead(), 0);
        // Autoplay goes on from the game as it now is: its first move is the AI's first.
        let again = drive_until_at(&mut assist, 0, &mut slots, 1.0, |_, g| !g.is_empty());
        assert_eq!(again.len(), 1);
        let legal = slots[0].session.as_deref().unwrap().legal_moves();
        assert!(legal.contains(&again[0]), "{again:?} of {legal:?}");
    }

    #[test]
    fn autoplays_move_is_returned_only_while_its_game_is_shown() {
        in_both_modes(only_while_shown);
    }

    fn only_while_shown(mode: WorkMode) {
        let mut slots = toy_slots(2);
        slots[0].autoplay = true;
        let mut assist = Assist::in_mode(mode);

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
