//! Hints and autoplay without blocking the window: searches run on a worker thread.
//!
//! The UI asks with [`Advisor::ask`] (a copy of the position travels to the worker, with the
//! entry's assistant, whose player the worker keeps) and collects the
//! answer with [`Advisor::poll`] on a later frame; the worker wakes the UI when it is done. Only
//! the newest question is answered: one asked before it is dropped, so a hint never arrives for
//! a board the player has already left.

use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};
use std::time::Duration;

use std::collections::HashMap;
use std::sync::Arc;

use tilebox_core::{AssistError, DynAssistant, DynPlayer, DynSession, Position};

/// How long a hint thinks: longer than autoplay's moves, since the player waits for one only.
pub const HINT_TIME: Duration = Duration::from_millis(250);

/// How fast autoplay plays; kept in `settings.json` as `"slow"`, `"normal"` or `"fast"`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
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

/// A question in flight: its number, whose player answers it, the position, the budget, and
/// whom to wake.
struct Request {
    ticket: u64,
    /// The entry asked about: the worker keeps one player per entry.
    entry: String,
    assistant: Arc<dyn DynAssistant>,
    position: Position,
    budget: Duration,
    wake: Option<egui::Context>,
}

/// What the worker found: the best move in its text form (`None`: no legal move), or why it
/// could not search.
pub type Answer = Result<Option<String>, AssistError>;

/// The worker's answer to the question with this number.
type Reply = (u64, Answer);

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

    /// Asks `assistant` for the best move in `session`'s position, thinking for `time`.
    /// Returns false when the worker is not running.
    pub fn ask(
        &mut self,
        assistant: &Arc<dyn DynAssistant>,
        session: &dyn DynSession,
        time: Duration,
        wake: Option<egui::Context>,
    ) -> bool {
        let Some(requests) = &self.requests else {
            return false;
        };
        self.asked += 1;
        let request = Request {
            ticket: self.asked,
            entry: session.info().id.clone(),
            assistant: Arc::clone(assistant),
            position: session.position(),
            budget: time,
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

    /// The answer to the newest question, once it is ready.
    pub fn poll(&mut self) -> Option<Answer> {
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

/// The worker: answers the newest request waiting, until the app drops its end. It keeps one
/// player per entry, since a player may keep what it learns (the AI's tables).
fn work(inbox: &Receiver<Request>, outbox: &Sender<Reply>) {
    let mut players: HashMap<String, Box<dyn DynPlayer>> = HashMap::new();
    while let Ok(mut request) = inbox.recv() {
        // Skip to the newest question: older ones are for boards the player has left.
        while let Ok(newer) = inbox.try_recv() {
            request = newer;
        }
        let player = players
            .entry(request.entry.clone())
            .or_insert_with(|| request.assistant.player());
        let answer = player.best_move(&request.position, request.budget);
        if outbox.send((request.ticket, answer)).is_err() {
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

    fn wait(advisor: &mut Advisor) -> Answer {
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
    fn answers_with_a_legal_move_for_every_entry_with_an_assistant() {
        let mut advisor = Advisor::new();
        let registry = registry();
        let mut asked = 0;
        for entry in registry.entries() {
            let Some(assistant) = entry.assistant() else {
                continue;
            };
            let session = entry.new_session(3).unwrap();
            assert!(advisor.ask(&assistant, session.as_ref(), Duration::from_millis(5), None));
            assert!(advisor.busy());
            let best = wait(&mut advisor).unwrap().expect("a move");
            assert!(
                session.legal_moves().contains(&best),
                "{}: {best}",
                entry.id()
            );
            assert!(!advisor.busy());
            asked += 1;
        }
        assert!(asked > 0, "no entry has an assistant");
    }

    #[test]
    fn only_the_newest_question_is_answered() {
        let mut advisor = Advisor::new();
        let registry = registry();
        let entry = registry
            .entries()
            .iter()
            .find(|e| e.assistant().is_some_and(|a| a.autoplays()))
            .unwrap();
        let assistant = entry.assistant().unwrap();
        let session = entry.new_session(1).unwrap();
        advisor.ask(
            &assistant,
            session.as_ref(),
            Duration::from_millis(30),
            None,
        );
        advisor.ask(&assistant, session.as_ref(), Duration::from_millis(1), None);
        wait(&mut advisor).unwrap();
        // Nothing more comes for the first question.
        std::thread::sleep(Duration::from_millis(60));
        assert!(advisor.poll().is_none());
        advisor.ask(&assistant, session.as_ref(), Duration::from_millis(1), None);
        advisor.cancel();
        std::thread::sleep(Duration::from_millis(60));
        assert!(advisor.poll().is_none());
    }
}
