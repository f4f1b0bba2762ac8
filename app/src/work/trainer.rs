//! "Train a stronger player": a 4×4 sliding game's learning player (`tilebox_ai::ntuple`),
//! trained in the background from its statistics screen.
//!
//! One thread of its own trains one game at a time, on one core (the other is left to the
//! window and the AI's searches), by the same run as `tilebox-cli train`
//! ([`tilebox_ai::ntuple::run::Run`]): the same file, `players/<id>.weights` in the data
//! directory, saved at least every minute, so stopping, quitting or a crash loses at most a
//! minute, and the next run, in the app or the CLI, resumes it. A run of the app trains to the
//! next multiple of [`MOVES_A_RUN`] moves.
//!
//! The window never waits for it: it asks by message ([`Trainer::standing`]'s look at a file,
//! [`Trainer::start`], [`Trainer::stop`]) and reads what came back each frame
//! ([`Trainer::receive`]), with no lock and no disk; what the thread says of a run carries the
//! number of the start it answers, so nothing older is taken for it. A run's first save and its
//! end tell the players folder to read the network again (not every minute's save: a read
//! costs the AI a second or two), so the game's hints and autoplay use what was learned, once
//! the network has learned from [`Trainer::plays_from`] moves.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};
use std::time::Duration;
use web_time::Instant;

pub use tilebox_ai::ntuple::NetworkSize;
use tilebox_ai::ntuple::file::{self, Cause, RunState};
use tilebox_ai::ntuple::players::Players;
use tilebox_ai::ntuple::run::{Figures, Run, Target};
use tilebox_ai::ntuple::train::Flow;
use tilebox_core::Entry;
use tilebox_sliding::{Sliding, Variant};

/// A run of the app trains to the next multiple of this many moves, and hints and autoplay use
/// a network once it has learned from this many: about two hours of one core of an AMD EPYC
/// for 2048 or Threes (a game of Threes, restarts and all, is a fifteenth of one of 2048, so a
/// count of games would leave Threes' network untrained). Each network measured with about
/// this many or fewer scored more than the built-in player on the same seeds: Threes' of 1,722
/// million moves over 100 games, 2048's of 950 million over 10 (`docs/speed.md`).
pub const MOVES_A_RUN: u64 = 1_750_000_000;

/// Whether this build trains networks: on the desktop, on a thread of its own; not in a page,
/// which has no threads ([`crate::work_mode::threads`]), so it never tries to start one there.
pub const AVAILABLE: bool = crate::work_mode::threads();

/// How often the figures of a run are sent to the window.
const SHOW_EVERY: Duration = Duration::from_millis(500);

/// The seed of a new run (`tilebox-cli train`'s default, so that either resumes the other's).
const SEED: u64 = 0;

/// Where a game's learning player stands, as its statistics screen shows it.
#[derive(Debug, Clone, PartialEq)]
pub enum Standing {
    /// Its file is being read.
    Reading,
    /// Nothing trained yet.
    Untrained,
    /// Trained as its file says, and not training now.
    Trained(RunState),
    /// Training now: its figures once a game was played, and whether a stop was asked.
    Training {
        /// The run's figures.
        figures: Option<Figures>,
        /// A stop was asked: the games under way end, then the run is saved.
        stopping: bool,
    },
    /// Training cannot go on: why, in one line (its file is refused, or cannot be saved).
    Failed(String),
}

/// The moves a run started at `done` moves trains to: the next multiple of [`MOVES_A_RUN`].
pub fn target_after(done: u64) -> u64 {
    (done / MOVES_A_RUN + 1).saturating_mul(MOVES_A_RUN)
}

/// Whether a run that stands at `moves` moves ended a run of the app rather than stopped in
/// one: a run ends with the game that reaches its multiple of [`MOVES_A_RUN`], at most a
/// thousandth of a run past it (a game of 2048, restarts and all, is under a million moves).
pub fn ended_a_run(moves: u64) -> bool {
    moves >= MOVES_A_RUN && moves % MOVES_A_RUN < MOVES_A_RUN / 1000
}

/// The variant of `entry` if its player can be trained: a 4×4 sliding game.
pub fn trainable(entry: &Entry) -> Option<&Variant> {
    entry
        .params::<Sliding>()
        .filter(|v| tilebox_ai::ntuple::trainable(v))
}

/// What the window tells the training thread.
enum Message {
    /// Read where this variant's run stands.
    Look(Variant),
    /// Train this variant (stopping the run of another first): the window's start number
    /// `serial`, which what the thread says of this run carries.
    Start(Variant, u64),
    /// Stop the run under way.
    Stop,
}

/// What the training thread says of a game: where it stands, and the start it answers (none
/// for a look at its file).
struct News {
    id: String,
    run: Option<u64>,
    standing: Standing,
}

/// The window's end of the training thread.
struct Link {
    inbox: Sender<Message>,
    outbox: Receiver<News>,
    /// Closed when the thread ends.
    ended: Receiver<()>,
}

/// The learning players of the app's games: where each stands, and the one run at a time.
pub struct Trainer {
    /// The players folder; `None` when nothing is saved (another Tilebox holds the data
    /// directory), so nothing is trained.
    dir: Option<PathBuf>,
    /// The folder the AI reads the networks from, told of a run's first save and its end.
    players: Option<Arc<Players>>,
    /// The moves a network must have learned from before hints and autoplay use it.
    plays_from: u64,
    size: NetworkSize,
    link: Option<Link>,
    /// What the thread last said of each variant, by id.
    standings: HashMap<String, Standing>,
    /// The id of the run under way, if any, and its start's number: what the thread says of
    /// that game about anything else (a look, an earlier run) is older, and dropped.
    running: Option<(String, u64)>,
    /// The number of the last start.
    starts: u64,
    /// The thread could not be started, or stopped: why.
    broken: Option<String>,
}

impl Trainer {
    /// A trainer keeping its networks in the players folder `dir` (none: nothing is trained).
    pub fn new(dir: Option<PathBuf>) -> Trainer {
        Trainer {
            dir,
            players: None,
            plays_from: MOVES_A_RUN,
            size: NetworkSize::Standard,
            link: None,
            standings: HashMap::new(),
            running: None,
            starts: 0,
            broken: None,
        }
    }

    /// Tells `players` (the AI's) of the runs' saves, so that hints use the network as it
    /// learns; and has them play with a network only once it has learned from
    /// [`Trainer::plays_from`] moves: a network trained for minutes plays worse than the
    /// built-in player.
    pub fn share(&mut self, players: Arc<Players>) {
        players.set_min_moves(self.plays_from);
        self.players = Some(players);
    }

    /// The moves a network must have learned from before hints and autoplay use it.
    pub fn plays_from(&self) -> u64 {
        self.plays_from
    }

    /// Hints and autoplay use a network once it has learned from `moves` moves.
    pub fn set_plays_from(&mut self, moves: u64) {
        self.plays_from = moves;
        if let Some(players) = &self.players {
            players.set_min_moves(moves);
        }
    }

    /// New runs train a network of `size`.
    pub fn set_size(&mut self, size: NetworkSize) {
        self.size = size;
    }

    /// Whether anything can be trained (the data directory is this Tilebox's, and this build
    /// trains: [`AVAILABLE`]).
    pub fn can_train(&self) -> bool {
        AVAILABLE && self.dir.is_some() && self.broken.is_none()
    }

    /// Why training stopped for good, if it did: the thread could not start or ended.
    pub fn broken(&self) -> Option<&str> {
        self.broken.as_deref()
    }

    /// The id of the game whose player is training now, if any.
    pub fn running(&self) -> Option<&str> {
        self.running.as_ref().map(|(id, _)| id.as_str())
    }

    /// Where `variant`'s player stands; the first time it is asked, its file's header is read
    /// (off this thread), and it is [`Standing::Reading`] until then.
    pub fn standing(&mut self, variant: &Variant) -> Standing {
        self.receive();
        if let Some(why) = &self.broken
            && !self.standings.contains_key(&variant.id)
        {
            return Standing::Failed(why.clone());
        }
        if !self.standings.contains_key(&variant.id) && self.dir.is_some() && AVAILABLE {
            self.standings.insert(variant.id.clone(), Standing::Reading);
            self.send(Message::Look(variant.clone()));
            if let Some(why) = &self.broken {
                return Standing::Failed(why.clone());
            }
        }
        self.standings
            .get(&variant.id)
            .cloned()
            .unwrap_or(Standing::Untrained)
    }

    /// Trains `variant`'s player (the run of another game stops first).
    pub fn start(&mut self, variant: &Variant) {
        if !self.can_train() {
            return;
        }
        self.standings.insert(
            variant.id.clone(),
            Standing::Training {
                figures: None,
                stopping: false,
            },
        );
        self.starts += 1;
        if let Some((other, _)) = self.running.replace((variant.id.clone(), self.starts))
            && other != variant.id
            && let Some(Standing::Training { stopping, .. }) = self.standings.get_mut(&other)
        {
            *stopping = true;
        }
        self.send(Message::Start(variant.clone(), self.starts));
    }

    /// Stops the run under way: its games under way end, and it is saved.
    pub fn stop(&mut self) {
        if let Some((id, _)) = &self.running
            && let Some(Standing::Training { stopping, .. }) = self.standings.get_mut(id)
        {
            *stopping = true;
        }
        self.send(Message::Stop);
    }

    /// Takes what the thread said since the last call (the shell does each frame, so that
    /// [`Trainer::running`] is up to date).
    pub fn receive(&mut self) {
        let Some(link) = &self.link else {
            return;
        };
        loop {
            match link.outbox.try_recv() {
                Ok(News { id, run, standing }) => {
                    if let Some((running, serial)) = &self.running
                        && *running == id
                    {
                        if run != Some(*serial) {
                            // Older than the run under way.
                            continue;
                        }
                        if !matches!(standing, Standing::Training { .. }) {
                            self.running = None;
                        }
                    }
                    self.standings.insert(id, standing);
                }
                Err(TryRecvError::Empty) => return,
                Err(TryRecvError::Disconnected) => {
                    self.thread_ended();
                    return;
                }
            }
        }
    }

    /// The thread is gone: nothing is training, and nothing more will be read.
    fn thread_ended(&mut self) {
        self.link = None;
        let why = "the training thread stopped; restart Tilebox to train".to_string();
        self.broken.get_or_insert(why);
        self.fail_waiting();
    }

    /// What waited for the thread (a file being read, a run) fails with why it broke.
    fn fail_waiting(&mut self) {
        self.running = None;
        let why = self.broken.clone().unwrap_or_default();
        for standing in self.standings.values_mut() {
            if matches!(standing, Standing::Reading | Standing::Training { .. }) {
                *standing = Standing::Failed(why.clone());
            }
        }
    }

    /// Sends `message` to the thread, starting it first if need be.
    fn send(&mut self, message: Message) {
        if self.link.is_none() && self.broken.is_none() {
            self.link = self.spawn();
            if self.link.is_none() {
                self.fail_waiting();
            }
        }
        let Some(link) = &self.link else {
            return;
        };
        if link.inbox.send(message).is_err() {
            self.thread_ended();
        }
    }

    fn spawn(&mut self) -> Option<Link> {
        if !AVAILABLE {
            return None;
        }
        let dir = self.dir.clone()?;
        let (inbox, thread_inbox) = channel();
        let (thread_outbox, outbox) = channel();
        let (ended_tx, ended) = channel::<()>();
        let worker = Worker {
            dir,
            players: self.players.clone(),
            size: self.size,
            outbox: thread_outbox,
        };
        let spawned = std::thread::Builder::new()
            .name("tilebox-trainer".into())
            .spawn(move || {
                let _ended = ended_tx;
                worker.work(&thread_inbox);
            });
        match spawned {
            Ok(_) => Some(Link {
                inbox,
                outbox,
                ended,
            }),
            Err(e) => {
                self.broken = Some(format!(
                    "a thread to train on could not be started: {}",
                    tilebox_core::files::io_words(&e)
                ));
                None
            }
        }
    }

    /// Stops the run under way and waits up to `wait` for it to be saved (the app quits).
    pub fn finish(&mut self, wait: Duration) {
        if let Some(link) = self.link.take() {
            let _ = link.inbox.send(Message::Stop);
            drop(link.inbox);
            // Closed (an error) when the thread has ended, having saved.
            let _ = link.ended.recv_timeout(wait);
        }
    }
}

/// The training thread.
struct Worker {
    dir: PathBuf,
    players: Option<Arc<Players>>,
    size: NetworkSize,
    outbox: Sender<News>,
}

impl Worker {
    /// Answers the window until it is gone.
    fn work(&self, inbox: &Receiver<Message>) {
        let mut next = inbox.recv().ok();
        while let Some(message) = next.take() {
            match message {
                Message::Look(variant) => self.look(&variant, None),
                start @ Message::Start(..) => {
                    // A stop or another start that came on its heels (while the run before it
                    // was saving) is carried out before it begins.
                    if let Some(Message::Start(variant, serial)) = self.latest(start, inbox) {
                        next = self.train(&variant, serial, inbox);
                    }
                }
                Message::Stop => {}
            }
            if next.is_none() {
                next = inbox.recv().ok();
            }
        }
    }

    /// The start to carry out of `start` and what waits in the inbox behind it: the last
    /// start, or none after a stop; each start given up is told where its game stands.
    fn latest(&self, start: Message, inbox: &Receiver<Message>) -> Option<Message> {
        let mut start = Some(start);
        while let Ok(message) = inbox.try_recv() {
            match message {
                Message::Look(variant) => self.look(&variant, None),
                Message::Stop => self.give_up(start.take()),
                later @ Message::Start(..) => self.give_up(start.replace(later)),
            }
        }
        start
    }

    /// Makes the AI read `id`'s file again at its next move.
    fn forget(&self, id: &str) {
        if let Some(players) = &self.players {
            players.forget(id);
        }
    }

    /// Tells the window where game `id` stands, as the answer to start `run` (or a look).
    fn tell(&self, id: &str, run: Option<u64>, standing: Standing) {
        // The window is gone: nothing to tell.
        let _ = self.outbox.send(News {
            id: id.to_string(),
            run,
            standing,
        });
    }

    fn path(&self, variant: &Variant) -> PathBuf {
        self.dir.join(file::file_name(&variant.id))
    }

    /// Where the run of `variant` stands, from its file, told as the answer to start `run`
    /// (a start given up before it began) or to a look.
    fn look(&self, variant: &Variant, run: Option<u64>) {
        // The whole file, checksum and all (a second or two for the standard network, on this
        // thread): what the screen says of it is what a hint will find.
        let standing = match file::check(&self.path(variant), variant) {
            Ok(state) => Standing::Trained(state),
            Err(e) if e.is_missing() => Standing::Untrained,
            Err(e) if matches!(e.cause, Cause::Open(_) | Cause::Io(_)) => {
                Standing::Failed(e.to_string())
            }
            Err(e) => Standing::Failed(format!("{e} (remove it to train afresh)")),
        };
        self.tell(&variant.id, run, standing);
    }

    /// A start that waited behind the run under way is given up: the window hears where its
    /// game stands.
    fn give_up(&self, start: Option<Message>) {
        if let Some(Message::Start(variant, serial)) = start {
            self.look(&variant, Some(serial));
        }
    }

    /// Trains `variant` until it has learned from its run's moves or is told to stop; returns
    /// the message that stopped it, if it is one to carry out next (a start of another game).
    fn train(&self, variant: &Variant, serial: u64, inbox: &Receiver<Message>) -> Option<Message> {
        let id = variant.id.as_str();
        // The start this run answers: a start of the same game again takes it over.
        let mut serial = serial;
        let layout = self.size.layout(variant.preview);
        let mut run = match Run::open(&self.path(variant), variant, SEED, &layout) {
            Ok(run) => run,
            Err(e) => {
                self.tell(id, Some(serial), Standing::Failed(e.to_string()));
                return None;
            }
        };
        let target = Target::Moves(target_after(run.state().moves));
        let mut shown: Option<Instant> = None;
        let mut stopping = false;
        let mut next = None;
        let mut saved_once = false;
        let result = run.train(
            1,
            target,
            |progress| {
                loop {
                    match inbox.try_recv() {
                        Ok(Message::Stop) => {
                            stopping = true;
                            self.give_up(next.take());
                        }
                        Ok(Message::Look(v)) => self.look(&v, None),
                        Ok(Message::Start(v, s)) if v.id == id => {
                            stopping = false;
                            serial = s;
                            self.give_up(next.take());
                        }
                        Ok(start @ Message::Start(..)) => {
                            stopping = true;
                            self.give_up(next.replace(start));
                        }
                        Err(TryRecvError::Empty) => break,
                        // The window is gone: save and end, and start nothing more.
                        Err(TryRecvError::Disconnected) => {
                            stopping = true;
                            next = None;
                            break;
                        }
                    }
                }
                if stopping || shown.is_none_or(|t| t.elapsed() >= SHOW_EVERY) {
                    shown = Some(Instant::now());
                    let figures = Some(progress.figures());
                    self.tell(id, Some(serial), Standing::Training { figures, stopping });
                }
                if stopping { Flow::Stop } else { Flow::Continue }
            },
            |_| {
                // The first save makes the file the players read (there may have been none);
                // later ones reach them when the run ends, not every minute (a read of the
                // file takes the AI a second or two).
                if !saved_once {
                    saved_once = true;
                    self.forget(id);
                }
            },
        );
        self.forget(id);
        let standing = match result {
            Ok(_) => Standing::Trained(run.state()),
            Err(e) => Standing::Failed(e.to_string()),
        };
        self.tell(id, Some(serial), standing);
        next
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_run_trains_to_the_next_multiple_of_its_moves() {
        assert_eq!(target_after(0), 1_750_000_000);
        assert_eq!(target_after(412_345_678), 1_750_000_000);
        assert_eq!(target_after(1_750_000_000), 3_500_000_000);
        assert_eq!(target_after(1_750_014_680), 3_500_000_000);
        assert_eq!(target_after(u64::MAX), u64::MAX);
    }

    #[test]
    fn a_run_ended_within_a_game_of_its_multiple() {
        assert!(!ended_a_run(0));
        // A first run stopped early.
        assert!(!ended_a_run(5_000));
        assert!(!ended_a_run(412_345_678));
        assert!(ended_a_run(1_750_000_000));
        // The game of 2048 that reached it, restarts and all.
        assert!(ended_a_run(1_750_014_680));
        assert!(ended_a_run(3_500_000_957));
        assert!(!ended_a_run(1_752_000_000));
        assert!(!ended_a_run(3_499_999_999));
    }

    /// Waits for `id` to stand as `done` says, reading the trainer's news.
    fn wait_for(
        trainer: &mut Trainer,
        variant: &Variant,
        done: impl Fn(&Standing) -> bool,
    ) -> Standing {
        let start = Instant::now();
        loop {
            let standing = trainer.standing(variant);
            if done(&standing) {
                return standing;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "stuck at {standing:?}"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn a_run_is_started_stopped_saved_and_resumed() {
        let dir = tempfile::tempdir().unwrap();
        let players = dir.path().join("players");
        let variant = tilebox_sliding::builtin_variant("2048").unwrap();
        let mut trainer = Trainer::new(Some(players.clone()));
        trainer.set_size(NetworkSize::Small);
        assert_eq!(
            wait_for(&mut trainer, &variant, |s| *s != Standing::Reading),
            Standing::Untrained
        );
        trainer.start(&variant);
        assert_eq!(trainer.running(), Some("2048"));
        let standing = wait_for(
            &mut trainer,
            &variant,
            |s| matches!(s, Standing::Training { figures: Some(f), .. } if f.games >= 20),
        );
        let Standing::Training {
            figures: Some(f),
            stopping: false,
        } = standing
        else {
            panic!("{standing:?}");
        };
        assert_eq!(f.target, Target::Moves(MOVES_A_RUN));
        trainer.stop();
        let standing = wait_for(&mut trainer, &variant, |s| {
            matches!(s, Standing::Trained(_))
        });
        let Standing::Trained(state) = standing else {
            panic!("{standing:?}");
        };
        assert!(state.games >= 20);
        assert_eq!(trainer.running(), None);
        let (saved, _) = file::read_run(&players.join("2048.weights"), &variant).unwrap();
        assert_eq!(saved, state);

        // A new trainer (the app restarted) reads where it stood, and resumes from there.
        trainer.finish(Duration::from_secs(10));
        let mut trainer = Trainer::new(Some(players.clone()));
        trainer.set_size(NetworkSize::Small);
        assert_eq!(
            wait_for(&mut trainer, &variant, |s| *s != Standing::Reading),
            Standing::Trained(state)
        );
        trainer.start(&variant);
        wait_for(
            &mut trainer,
            &variant,
            |s| matches!(s, Standing::Training { figures: Some(f), .. } if f.games >= state.games + 5),
        );
        // Quitting stops the run and saves it.
        trainer.finish(Duration::from_secs(10));
        let (after, _) = file::read_run(&players.join("2048.weights"), &variant).unwrap();
        assert!(after.games >= state.games + 5, "{after:?} after {state:?}");
    }

    #[test]
    fn a_stop_after_a_start_of_another_game_stops_both_and_leaves_nothing_training() {
        let dir = tempfile::tempdir().unwrap();
        let players = dir.path().join("players");
        let twenty48 = tilebox_sliding::builtin_variant("2048").unwrap();
        let threes = tilebox_sliding::builtin_variant("threes").unwrap();
        let mut trainer = Trainer::new(Some(players));
        trainer.set_size(NetworkSize::Small);
        trainer.start(&twenty48);
        wait_for(&mut trainer, &twenty48, |s| {
            matches!(
                s,
                Standing::Training {
                    figures: Some(_),
                    ..
                }
            )
        });
        // Threes waits behind 2048's run; the stop comes before it began.
        trainer.start(&threes);
        assert_eq!(trainer.running(), Some("threes"));
        trainer.stop();
        let s = wait_for(&mut trainer, &threes, |s| {
            !matches!(s, Standing::Training { .. })
        });
        assert_eq!(s, Standing::Untrained, "Threes never began");
        assert!(matches!(
            wait_for(&mut trainer, &twenty48, |s| matches!(
                s,
                Standing::Trained(_)
            )),
            Standing::Trained(_)
        ));
        assert_eq!(trainer.running(), None);
        // A start of the same game again while it stops takes the run over.
        trainer.start(&twenty48);
        wait_for(&mut trainer, &twenty48, |s| {
            matches!(
                s,
                Standing::Training {
                    figures: Some(_),
                    ..
                }
            )
        });
        trainer.start(&twenty48);
        trainer.stop();
        wait_for(&mut trainer, &twenty48, |s| {
            matches!(s, Standing::Trained(_))
        });
        assert_eq!(trainer.running(), None);
    }

    #[test]
    fn a_players_folder_that_cannot_be_made_is_told_at_once() {
        let dir = tempfile::tempdir().unwrap();
        // A file where the folder should be.
        let players = dir.path().join("players");
        std::fs::write(&players, b"not a folder").unwrap();
        let variant = tilebox_sliding::builtin_variant("2048").unwrap();
        let mut trainer = Trainer::new(Some(players));
        trainer.set_size(NetworkSize::Small);
        trainer.start(&variant);
        let s = wait_for(&mut trainer, &variant, |s| matches!(s, Standing::Failed(_)));
        assert!(
            matches!(&s, Standing::Failed(why) if why.starts_with("cannot save:")),
            "{s:?}"
        );
        assert_eq!(trainer.running(), None);
    }

    #[test]
    fn a_refused_file_is_told_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let players = dir.path().join("players");
        std::fs::create_dir_all(&players).unwrap();
        std::fs::write(players.join("2048.weights"), b"junk, not weights").unwrap();
        let variant = tilebox_sliding::builtin_variant("2048").unwrap();
        let mut trainer = Trainer::new(Some(players.clone()));
        let standing = wait_for(&mut trainer, &variant, |s| *s != Standing::Reading);
        let Standing::Failed(why) = standing else {
            panic!("{standing:?}");
        };
        assert!(why.contains("not a weights file"), "{why}");
        trainer.start(&variant);
        let standing = wait_for(&mut trainer, &variant, |s| matches!(s, Standing::Failed(_)));
        assert!(matches!(standing, Standing::Failed(w) if w.contains("remove it to train afresh")));
        assert_eq!(
            std::fs::read(players.join("2048.weights")).unwrap(),
            b"junk, not weights"
        );
        assert_eq!(trainer.running(), None);
    }

    #[test]
    fn nothing_is_trained_where_nothing_is_saved() {
        let variant = tilebox_sliding::builtin_variant("2048").unwrap();
        let mut trainer = Trainer::new(None);
        assert!(!trainer.can_train());
        trainer.start(&variant);
        assert_eq!(trainer.running(), None);
        assert_eq!(trainer.standing(&variant), Standing::Untrained);
    }
}
