//! Hints and autoplay without blocking the window: searches run on a worker thread, or, where
//! there are no threads (a page), one search at a time on the frame ([`WorkMode`]).
//!
//! The UI asks with [`Advisor::ask`] (a copy of the position travels to the worker, with the
//! entry's assistant, whose player the worker keeps) and collects the
//! answer with [`Advisor::poll`] on a later frame; the worker wakes the UI when it is done. Only
//! the newest question is answered: one asked before it is dropped, so a hint never arrives for
//! a board the player has already left. On the frame, [`Advisor::poll`] does one step of the
//! same worker (one answer) and [`Advisor::streamed`] as many moves of a stream as fit in
//! [`FRAME_SLICE`], before they look at what came.

use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};
use std::time::Duration;

use std::collections::HashMap;
use std::sync::Arc;

use crate::work_mode::WorkMode;

use tilebox_core::{AssistError, DynAssistant, DynPlayer, DynSession, Entry, Position, SavedGame};

/// The name a player gives its evaluation when it is the game's trained network
/// ([`tilebox_core::DynPlayer::evaluation`]).
pub const TRAINED: &str = tilebox_games::NETWORK;

/// How long a hint thinks: longer than autoplay's moves, since the player waits for one only.
pub const HINT_TIME: Duration = Duration::from_millis(250);

/// The most an autoplay move thinks on the frame ([`WorkMode::Frame`]): a frame at 60 a second
/// lasts 16.7 ms, and this leaves the rest of it to draw, so that autoplay's frames stay smooth
/// at every speed and Fast plays a move each frame (up to its 50 a second). Hints keep their
/// [`HINT_TIME`].
pub const FRAME_MOVE_TIME: Duration = Duration::from_millis(8);

/// The most of a frame autoplay's moves take on the frame: as many moves as fit in it
/// ([`FRAME_MOVE_TIME`] each), so that where drawing a frame is slow (a browser without a GPU
/// draws one in 40 to 80 ms), Fast still plays 20 moves a second and more.
pub const FRAME_SLICE: Duration = Duration::from_millis(25);

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

/// Autoplay asked of the worker: play on from a game, on a copy of its own.
struct StreamRequest {
    ticket: u64,
    /// The game as it stands, entry, seed and moves: the worker loads its own copy, whose
    /// generator is the game's, so its moves are those the game would draw.
    entry: Entry,
    saved: SavedGame,
    assistant: Arc<dyn DynAssistant>,
    budget: Duration,
    /// How many moves it may play before it waits for more leave ([`Message::Allow`]).
    allowed: usize,
    wake: Option<egui::Context>,
}

/// What the window tells the worker.
enum Message {
    /// A question: the best move in one position (a hint).
    Ask(Request),
    /// Autoplay from a game: moves one after the other, each sent as soon as it is found.
    Stream(StreamRequest),
    /// The stream with this ticket may play this many moves in all.
    Allow { ticket: u64, upto: usize },
    /// Stop the stream or the question in hand: the window no longer wants it.
    Cancel,
}

/// What the worker found: the best move in its text form (`None`: no legal move), or why it
/// could not search.
pub type Answer = Result<Option<String>, AssistError>;

/// What the worker sends back, with the ticket it is for.
enum Event {
    /// The answer to a question.
    /// The answer to a question, and the evaluation the player used
    /// ([`tilebox_core::DynPlayer::evaluation`]).
    Answer(Answer, Option<&'static str>),
    /// The next move of a stream.
    Move(String),
    /// A stream's end: the game is over or has no move (`Ok`), or the player could not play it.
    End(Result<(), AssistError>),
}

/// The worker's message about the question or stream with this number.
type Reply = (u64, Event);

/// What a stream of autoplay's moves brought since it was last asked ([`Advisor::streamed`]).
#[derive(Debug, Default)]
pub struct Streamed {
    /// The moves, in order, each following the one before from the position the stream
    /// started at.
    pub moves: Vec<String>,
    /// The stream's end, once it has come (after every move it sent).
    pub end: Option<Result<(), AssistError>>,
}

/// What the window waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pending {
    /// The answer to the question with this ticket.
    Answer(u64),
    /// The moves of the stream with this ticket, until its end.
    Stream(u64),
}

/// The way to the worker.
enum Link {
    /// Its thread: messages go there, replies come back.
    Thread {
        requests: Sender<Message>,
        replies: Receiver<Reply>,
    },
    /// On the frame: the worker itself, stepped by [`Advisor::poll`] and [`Advisor::streamed`].
    Frame(Box<Worker>),
}

/// The AI, on its own thread or on the frame.
pub struct Advisor {
    /// `None` once the worker has stopped (or its thread was refused).
    link: Option<Link>,
    /// The newest ticket given; answers to older ones are dropped.
    asked: u64,
    /// The newest question or stream still without its answer or end.
    pending: Option<Pending>,
    /// The stream's moves and end received and not yet taken.
    streamed: Streamed,
    /// The evaluation used for the last answer taken.
    evaluation: Option<&'static str>,
}

impl Default for Advisor {
    fn default() -> Self {
        Self::new()
    }
}

impl Advisor {
    /// Starts the worker in this build's mode ([`WorkMode::native`]).
    pub fn new() -> Self {
        Self::in_mode(WorkMode::native())
    }

    /// The worker on the frame's thread, as in a page: what the desktop's tests run too.
    pub fn on_frame() -> Self {
        Self::in_mode(WorkMode::Frame)
    }

    /// Starts the worker in `mode`. Should the system refuse a thread, hints are off and
    /// [`Advisor::ask`] says so by returning false.
    pub fn in_mode(mode: WorkMode) -> Self {
        let link = match mode {
            WorkMode::Frame => Some(Link::Frame(Box::default())),
            WorkMode::Threads => {
                let (requests, inbox) = channel::<Message>();
                let (outbox, replies) = channel::<Reply>();
                let started = std::thread::Builder::new()
                    .name("tilebox-ai".into())
                    .spawn(move || work(&inbox, &outbox))
                    .is_ok();
                started.then_some(Link::Thread { requests, replies })
            }
        };
        Self {
            link,
            asked: 0,
            pending: None,
            streamed: Streamed::default(),
            evaluation: None,
        }
    }

    /// Sends `message` to the worker; false (and the worker counted as stopped) if it is gone.
    /// On the frame, the worker takes it at once, and the window is woken for its next step.
    fn send(&mut self, message: Message) -> bool {
        match &mut self.link {
            None => false,
            Some(Link::Frame(worker)) => {
                worker.take(message);
                worker.wake();
                true
            }
            Some(Link::Thread { requests, .. }) => {
                if requests.send(message).is_err() {
                    self.link = None;
                    self.pending = None;
                    return false;
                }
                true
            }
        }
    }

    /// The time an autoplay move may think: `time`, at most [`FRAME_MOVE_TIME`] on the frame.
    fn move_time(&self, time: Duration) -> Duration {
        match self.link {
            Some(Link::Frame(_)) => time.min(FRAME_MOVE_TIME),
            _ => time,
        }
    }

    /// Asks `assistant` for the best move in `session`'s position, thinking for `time`.
    /// Returns false when the worker is not running. A stream in progress stops.
    pub fn ask(
        &mut self,
        assistant: &Arc<dyn DynAssistant>,
        session: &dyn DynSession,
        time: Duration,
        wake: Option<egui::Context>,
    ) -> bool {
        self.asked += 1;
        self.streamed = Streamed::default();
        let request = Request {
            ticket: self.asked,
            entry: session.info().id.clone(),
            assistant: Arc::clone(assistant),
            position: session.position(),
            budget: time,
            wake,
        };
        if !self.send(Message::Ask(request)) {
            return false;
        }
        self.pending = Some(Pending::Answer(self.asked));
        true
    }

    /// Starts autoplay's stream from `session`'s position: the worker plays on, on a copy of
    /// its own, thinking for `time` a move, and sends each move as soon as it has it
    /// ([`Advisor::streamed`]); it plays `ahead` moves, then waits for leave to play more
    /// ([`Advisor::allow`]). Returns false when the worker is not running. A question or
    /// stream in progress stops.
    pub fn stream(
        &mut self,
        assistant: &Arc<dyn DynAssistant>,
        session: &dyn DynSession,
        time: Duration,
        ahead: usize,
        wake: Option<egui::Context>,
    ) -> bool {
        self.asked += 1;
        self.streamed = Streamed::default();
        let request = StreamRequest {
            ticket: self.asked,
            entry: session.entry().clone(),
            saved: session.save(),
            assistant: Arc::clone(assistant),
            budget: self.move_time(time),
            allowed: ahead,
            wake,
        };
        if !self.send(Message::Stream(request)) {
            return false;
        }
        self.pending = Some(Pending::Stream(self.asked));
        true
    }

    /// Lets the stream in progress play `upto` moves in all (counted from its start).
    pub fn allow(&mut self, upto: usize) {
        if let Some(Pending::Stream(ticket)) = self.pending {
            self.send(Message::Allow { ticket, upto });
        }
    }

    /// Whether the worker is there to answer. Its thread stops only if the system refused to
    /// start it or it died; on the frame, it is always there.
    pub fn is_running(&self) -> bool {
        self.link.is_some()
    }

    /// Whether an answer is still being worked out, or a stream is still playing.
    pub fn busy(&self) -> bool {
        self.pending.is_some()
    }

    /// Forgets the question or stream in flight: its answer or moves, when they come, are
    /// dropped, and the worker stops working on it.
    pub fn cancel(&mut self) {
        if self.pending.take().is_some() {
            self.send(Message::Cancel);
        }
        self.streamed = Streamed::default();
    }

    /// Takes what the worker sent since the last call, keeping what is for the question or
    /// stream in flight. On the frame, the worker does one step first.
    fn receive(&mut self) -> Option<Answer> {
        let mut stepped = match &mut self.link {
            Some(Link::Frame(worker)) => worker.step().map(|(reply, wake)| {
                // The next frame takes the next step, or shows this one.
                if let Some(ctx) = wake {
                    ctx.request_repaint();
                }
                reply
            }),
            _ => None,
        };
        loop {
            let (ticket, event) = match &self.link {
                None => return None,
                Some(Link::Frame(_)) => stepped.take()?,
                Some(Link::Thread { replies, .. }) => match replies.try_recv() {
                    Ok(reply) => reply,
                    Err(TryRecvError::Empty) => return None,
                    Err(TryRecvError::Disconnected) => {
                        self.link = None;
                        self.pending = None;
                        return None;
                    }
                },
            };
            match (self.pending, event) {
                (Some(Pending::Answer(t)), Event::Answer(best, evaluation)) if t == ticket => {
                    self.pending = None;
                    self.evaluation = evaluation;
                    return Some(best);
                }
                (Some(Pending::Stream(t)), Event::Move(mv)) if t == ticket => {
                    self.streamed.moves.push(mv);
                }
                (Some(Pending::Stream(t)), Event::End(end)) if t == ticket => {
                    self.pending = None;
                    self.streamed.end = Some(end);
                }
                _ => {}
            }
        }
    }

    /// The evaluation the player used for the last answer [`Advisor::poll`] gave: [`TRAINED`]
    /// when the game's trained network played.
    pub fn evaluation(&self) -> Option<&'static str> {
        self.evaluation
    }

    /// The answer to the newest question, once it is ready.
    pub fn poll(&mut self) -> Option<Answer> {
        self.receive()
    }

    /// The moves of the stream in progress that came since the last call, in order, and its
    /// end once it came. On the frame, the worker plays as many moves as fit in
    /// [`FRAME_SLICE`].
    pub fn streamed(&mut self) -> Streamed {
        let start = web_time::Instant::now();
        loop {
            let before = self.streamed.moves.len();
            self.receive();
            let on_frame = matches!(self.link, Some(Link::Frame(_)));
            let moved = self.streamed.moves.len() > before;
            let room = start.elapsed() + FRAME_MOVE_TIME <= FRAME_SLICE;
            if !on_frame || !moved || self.streamed.end.is_some() || !room {
                break;
            }
        }
        std::mem::take(&mut self.streamed)
    }
}

/// A stream the worker is playing.
struct Job {
    request: StreamRequest,
    /// The worker's own copy of the game, loaded when the first move is wanted.
    session: Option<Box<dyn DynSession>>,
    /// How many moves it has sent.
    played: usize,
}

impl Job {
    /// Whether it may play a move now (else it waits for leave or a new message).
    fn may_play(&self) -> bool {
        self.played < self.request.allowed
    }
}

/// The worker: answers the newest question, or plays the newest stream. It keeps one player
/// per entry, since a player may keep what it learns (the AI's tables). Its thread's loop
/// ([`work`]) and the frame ([`Advisor::poll`]) run the same steps.
#[derive(Default)]
struct Worker {
    players: HashMap<String, Box<dyn DynPlayer>>,
    /// The newest question, not yet answered.
    question: Option<Request>,
    /// The newest stream, until its end.
    job: Option<Job>,
}

impl Worker {
    /// Takes a message: a question or stream replaces any older one (it is for a board the
    /// player left).
    fn take(&mut self, message: Message) {
        match message {
            Message::Ask(request) => {
                self.question = Some(request);
                self.job = None;
            }
            Message::Stream(request) => {
                self.question = None;
                self.job = Some(Job {
                    request,
                    session: None,
                    played: 0,
                });
            }
            Message::Allow { ticket, upto } => {
                if let Some(job) = self.job.as_mut().filter(|j| j.request.ticket == ticket) {
                    job.request.allowed = job.request.allowed.max(upto);
                }
            }
            Message::Cancel => {
                self.question = None;
                self.job = None;
            }
        }
    }

    /// Whether it has a step to take now (else it waits for leave or a new message).
    fn has_work(&self) -> bool {
        self.question.is_some() || self.job.as_ref().is_some_and(Job::may_play)
    }

    /// Wakes the window of the work in hand, if it has a step to take.
    fn wake(&self) {
        if !self.has_work() {
            return;
        }
        let wake = match (&self.question, &self.job) {
            (Some(question), _) => question.wake.as_ref(),
            (None, Some(job)) => job.request.wake.as_ref(),
            (None, None) => None,
        };
        if let Some(ctx) = wake {
            ctx.request_repaint();
        }
    }

    /// One step, at most one search: the question's answer, or the stream's next move; and the
    /// window to wake once it has the reply.
    fn step(&mut self) -> Option<(Reply, Option<egui::Context>)> {
        if let Some(request) = self.question.take() {
            let player = self
                .players
                .entry(request.entry.clone())
                .or_insert_with(|| request.assistant.player());
            let answer = player.best_move(&request.position, request.budget);
            let evaluation = player.evaluation();
            let reply = (request.ticket, Event::Answer(answer, evaluation));
            return Some((reply, request.wake));
        }
        let current = self.job.as_mut().filter(|j| j.may_play())?;
        let (event, ended) = play_one(current, &mut self.players);
        let reply = (current.request.ticket, event);
        let wake = current.request.wake.clone();
        if ended {
            self.job = None;
        }
        Some((reply, wake))
    }
}

/// The worker's thread, until the app drops its end: while a stream may play, messages are
/// looked at between its moves; else it sleeps until one comes.
fn work(inbox: &Receiver<Message>, outbox: &Sender<Reply>) {
    let mut worker = Worker::default();
    loop {
        let first = if worker.has_work() {
            match inbox.try_recv() {
                Ok(message) => Some(message),
                Err(TryRecvError::Empty) => None,
                Err(TryRecvError::Disconnected) => return,
            }
        } else {
            match inbox.recv() {
                Ok(message) => Some(message),
                Err(_) => return,
            }
        };
        // Skip to the newest question or stream: older ones are for boards the player left.
        for message in first.into_iter().chain(inbox.try_iter()) {
            worker.take(message);
        }
        if let Some((reply, wake)) = worker.step() {
            if outbox.send(reply).is_err() {
                return;
            }
            if let Some(ctx) = wake {
                ctx.request_repaint();
            }
        }
    }
}

/// The stream's next move, played on the worker's copy of the game; true with its end.
fn play_one(job: &mut Job, players: &mut HashMap<String, Box<dyn DynPlayer>>) -> (Event, bool) {
    let request = &job.request;
    let session = match &mut job.session {
        Some(session) => session,
        slot @ None => match request.entry.load(&request.saved) {
            Ok(session) => slot.insert(session),
            Err(e) => {
                let why = format!("the game could not be copied for the AI: {e}");
                return (Event::End(Err(AssistError::CannotPlay(why))), true);
            }
        },
    };
    if session.status().over {
        return (Event::End(Ok(())), true);
    }
    let player = players
        .entry(request.entry.id().to_string())
        .or_insert_with(|| request.assistant.player());
    match player.best_move(&session.position(), request.budget) {
        Ok(Some(mv)) => match session.play_text(&mv) {
            Ok(_) => {
                job.played += 1;
                (Event::Move(mv), false)
            }
            Err(e) => {
                let why = format!("the AI chose a move the game refused: {e}");
                (Event::End(Err(AssistError::CannotPlay(why))), true)
            }
        },
        Ok(None) => (Event::End(Ok(())), true),
        Err(e) => (Event::End(Err(e)), true),
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;
    use crate::store::settings::Speed;
    use tilebox_games::registry;

    /// Runs `test` on a worker thread and on the frame.
    fn in_both_modes(test: impl Fn(Advisor)) {
        test(Advisor::in_mode(WorkMode::Threads));
        test(Advisor::on_frame());
    }

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
        in_both_modes(answers_with_a_legal_move);
    }

    fn answers_with_a_legal_move(mut advisor: Advisor) {
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
        in_both_modes(only_the_newest_answered);
    }

    fn only_the_newest_answered(mut advisor: Advisor) {
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

    #[test]
    fn a_stream_plays_legal_moves_as_far_as_it_is_allowed() {
        in_both_modes(streams);
    }

    fn streams(mut advisor: Advisor) {
        let registry = registry();
        let entry = registry.get("2048").unwrap();
        let assistant = entry.assistant().unwrap();
        let session = entry.new_session(7).unwrap();
        let time = Duration::from_millis(2);
        assert!(advisor.stream(&assistant, session.as_ref(), time, 3, None));
        let mut copy = entry.new_session(7).unwrap();
        let mut moves = Vec::new();
        let start = Instant::now();
        while moves.len() < 3 {
            assert!(start.elapsed() < Duration::from_secs(20), "no moves");
            let streamed = advisor.streamed();
            assert!(streamed.end.is_none(), "{:?}", streamed.end);
            moves.extend(streamed.moves);
            std::thread::sleep(Duration::from_millis(1));
        }
        // No more than allowed, until it is allowed more.
        std::thread::sleep(Duration::from_millis(30));
        moves.extend(advisor.streamed().moves);
        assert_eq!(moves.len(), 3);
        advisor.allow(5);
        while moves.len() < 5 {
            assert!(start.elapsed() < Duration::from_secs(20), "no more moves");
            moves.extend(advisor.streamed().moves);
            std::thread::sleep(Duration::from_millis(1));
        }
        for mv in &moves {
            assert!(copy.play_text(mv).is_ok(), "{mv}");
        }
        assert!(advisor.busy());
        advisor.cancel();
        assert!(!advisor.busy());
    }

    #[test]
    fn on_the_frame_each_call_plays_the_moves_that_fit_its_slice_and_moves_think_briefly() {
        let mut advisor = Advisor::on_frame();
        let registry = registry();
        let entry = registry.get("2048").unwrap();
        let assistant = entry.assistant().unwrap();
        let session = entry.new_session(7).unwrap();
        assert!(advisor.stream(&assistant, session.as_ref(), Speed::Slow.think(), 10, None));
        let start = Instant::now();
        let mut played = 0;
        // As many moves a call as fit in the slice (one at least), never past those allowed.
        while played < 10 {
            let streamed = advisor.streamed();
            assert!(!streamed.moves.is_empty());
            played += streamed.moves.len();
        }
        assert_eq!(played, 10);
        assert!(advisor.streamed().moves.is_empty());
        // Ten moves at Slow's 150 ms would take 1.5 s: on the frame each thinks 8 ms at most.
        assert!(
            start.elapsed() < Duration::from_millis(10 * 150),
            "{:?}",
            start.elapsed()
        );
        // A hint keeps its time; and nothing comes before the call that answers it.
        assert!(advisor.ask(&assistant, session.as_ref(), Duration::from_millis(5), None));
        assert!(advisor.busy());
        let best = advisor
            .poll()
            .expect("answered in one call")
            .unwrap()
            .unwrap();
        assert!(session.legal_moves().contains(&best));
        assert!(!advisor.busy());
        assert!(advisor.poll().is_none());
    }
}
