//! Hints and autoplay without blocking the window: searches run on a worker thread.
//!
//! The UI asks with [`Advisor::ask`] (a copy of the state travels to the worker) and collects the
//! answer with [`Advisor::poll`] on a later frame; the worker wakes the UI when it is done. Only
//! the newest question is answered: one asked before it is dropped, so a hint never arrives for
//! a board the player has already left.

use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};
use std::time::Duration;

use tilebox_ai::{Engine, Limits};
use tilebox_core::{DynSession, Session};
use tilebox_sliding::{Direction, Game2048, Threes};

/// How long a hint thinks: longer than autoplay's moves, since the player waits for one only.
pub const HINT_TIME: Duration = Duration::from_millis(250);

/// How fast autoplay plays.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Speed {
    /// About a move and a half a second, to watch and learn from.
    Slow,
    /// About three moves a second: each move's animation plays out.
    #[default]
    Normal,
    /// As fast as it thinks (20 ms a move): animations are cut short.
    Fast,
}

impl Speed {
    /// Every speed, slowest first.
    pub const ALL: [Speed; 3] = [Speed::Slow, Speed::Normal, Speed::Fast];

    /// Its name in the speed menu.
    pub fn label(self) -> &'static str {
        match self {
            Speed::Slow => "Slow",
            Speed::Normal => "Normal",
            Speed::Fast => "Fast",
        }
    }

    /// The pause after a move's animation before the next move, in seconds; `None` for no
    /// pause and no waiting for the animation.
    pub fn pause(self) -> Option<f64> {
        match self {
            Speed::Slow => Some(0.35),
            Speed::Normal => Some(0.0),
            Speed::Fast => None,
        }
    }

    /// How long each move thinks.
    pub fn think(self) -> Duration {
        match self {
            Speed::Slow => Duration::from_millis(150),
            Speed::Normal => Duration::from_millis(60),
            Speed::Fast => Duration::from_millis(20),
        }
    }
}

/// A position to search, copied out of a session.
enum Question {
    Twenty48(<Game2048 as tilebox_core::Puzzle>::State),
    Threes(<Threes as tilebox_core::Puzzle>::State),
}

impl Question {
    /// The question for the game of `session`, if the AI plays that game.
    fn of(session: &dyn DynSession) -> Option<Question> {
        let any = session.as_any();
        if let Some(s) = any.downcast_ref::<Session<Game2048>>() {
            Some(Question::Twenty48(s.state().clone()))
        } else {
            any.downcast_ref::<Session<Threes>>()
                .map(|s| Question::Threes(s.state().clone()))
        }
    }
}

/// A question in flight: its number, the position, the budget, and whom to wake.
struct Request {
    ticket: u64,
    question: Question,
    limits: Limits,
    wake: Option<egui::Context>,
}

/// The worker's answer: the question's number and the best move (`None`: no legal move).
type Reply = (u64, Option<Direction>);

/// The AI, on its own thread.
pub struct Advisor {
    requests: Option<Sender<Request>>,
    replies: Receiver<Reply>,
    /// The newest question asked; answers to older ones are dropped.
    asked: u64,
    /// The newest question still without an answer.
    pending: Option<u64>,
}

impl Default for Advisor {
    fn default() -> Self {
        Self::new()
    }
}

impl Advisor {
    /// Starts the worker. Should the system refuse a thread, hints are off and [`Advisor::ask`]
    /// says so by returning false.
    pub fn new() -> Self {
        let (requests, inbox) = channel::<Request>();
        let (outbox, replies) = channel::<Reply>();
        let started = std::thread::Builder::new()
            .name("tilebox-ai".into())
            .spawn(move || work(&inbox, &outbox))
            .is_ok();
        Self {
            requests: started.then_some(requests),
            replies,
            asked: 0,
            pending: None,
        }
    }

    /// Whether the AI plays the game of `session` (2048 and Threes).
    pub fn plays(session: &dyn DynSession) -> bool {
        Question::of(session).is_some()
    }

    /// Asks for the best move in `session`'s position, thinking for `time`. Returns false when
    /// the AI does not play this game or the worker is not running.
    pub fn ask(
        &mut self,
        session: &dyn DynSession,
        time: Duration,
        wake: Option<egui::Context>,
    ) -> bool {
        let (Some(question), Some(requests)) = (Question::of(session), &self.requests) else {
            return false;
        };
        self.asked += 1;
        let request = Request {
            ticket: self.asked,
            question,
            limits: Limits::per_move(time),
            wake,
        };
        if requests.send(request).is_err() {
            self.requests = None;
            return false;
        }
        self.pending = Some(self.asked);
        true
    }

    /// Whether the worker thread is there to answer. It stops only if the system refused to
    /// start it or it died.
    pub fn is_running(&self) -> bool {
        self.requests.is_some()
    }

    /// Whether an answer is still being worked out.
    pub fn busy(&self) -> bool {
        self.pending.is_some()
    }

    /// Forgets the question in flight: its answer, when it comes, is dropped.
    pub fn cancel(&mut self) {
        self.pending = None;
    }

    /// The answer to the newest question, once it is ready: `Some(None)` means no legal move.
    pub fn poll(&mut self) -> Option<Option<Direction>> {
        loop {
            match self.replies.try_recv() {
                Ok((ticket, best)) if Some(ticket) == self.pending => {
                    self.pending = None;
                    return Some(best);
                }
                Ok(_) => continue,
                Err(TryRecvError::Empty) => return None,
                Err(TryRecvError::Disconnected) => {
                    self.requests = None;
                    self.pending = None;
                    return None;
                }
            }
        }
    }
}

/// The worker: answers the newest request waiting, until the app drops its end.
fn work(inbox: &Receiver<Request>, outbox: &Sender<Reply>) {
    let mut engine = Engine::new();
    while let Ok(mut request) = inbox.recv() {
        // Skip to the newest question: older ones are for boards the player has left.
        while let Ok(newer) = inbox.try_recv() {
            request = newer;
        }
        let advice = match &request.question {
            Question::Twenty48(state) => engine.advise_2048(state, &request.limits),
            Question::Threes(state) => engine.advise_threes(state, &request.limits),
        };
        if outbox
            .send((request.ticket, advice.map(|a| a.best)))
            .is_err()
        {
            return;
        }
        if let Some(ctx) = request.wake {
            ctx.request_repaint();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;
    use tilebox_games::registry;

    fn wait(advisor: &mut Advisor) -> Option<Direction> {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(20) {
            if let Some(answer) = advisor.poll() {
                return answer;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        panic!("no answer from the worker");
    }

    #[test]
    fn answers_with_a_legal_move_for_2048_and_threes() {
        let mut advisor = Advisor::new();
        for id in ["2048", "threes"] {
            let session = registry().get(id).unwrap().new_session(3).unwrap();
            assert!(Advisor::plays(session.as_ref()));
            assert!(advisor.ask(session.as_ref(), Duration::from_millis(5), None));
            assert!(advisor.busy());
            let best = wait(&mut advisor).expect("a move");
            assert!(session.legal_moves().contains(&best.to_string()));
            assert!(!advisor.busy());
        }
    }

    #[test]
    fn only_the_newest_question_is_answered() {
        let mut advisor = Advisor::new();
        let session = registry().get("2048").unwrap().new_session(1).unwrap();
        advisor.ask(session.as_ref(), Duration::from_millis(30), None);
        advisor.ask(session.as_ref(), Duration::from_millis(1), None);
        wait(&mut advisor);
        // Nothing more comes for the first question.
        std::thread::sleep(Duration::from_millis(60));
        assert_eq!(advisor.poll(), None);
        advisor.ask(session.as_ref(), Duration::from_millis(1), None);
        advisor.cancel();
        std::thread::sleep(Duration::from_millis(60));
        assert_eq!(advisor.poll(), None);
    }

    #[test]
    fn does_not_play_strike9() {
        let mut advisor = Advisor::new();
        let session = registry().get("strike9").unwrap().new_session(1).unwrap();
        assert!(!Advisor::plays(session.as_ref()));
        assert!(!advisor.ask(session.as_ref(), Duration::from_millis(1), None));
    }
}
