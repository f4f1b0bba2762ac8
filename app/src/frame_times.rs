//! What each frame costs, written to the program's log (stderr) when `TILEBOX_FRAME_TIMES` is
//! set (to anything but `0`): a way to measure the window's speed on a machine as it is.
//!
//! One line a frame, written when the next one begins (only then is its whole cost known):
//!
//! ```text
//! frame 41 at 3.412 s: app 2.1 ms in 2 passes, frame 38.7 ms, next 41.0 ms later, keys ArrowLeft, a move played
//! key ArrowLeft: its move on screen within 41.0 ms (frame 41)
//! ```
//!
//! "app" is the CPU time of the app's own code ([`crate::TileboxApp::show`], every pass of the
//! frame); "frame" is eframe's measure of the frame (`Frame::info().cpu_usage`: the app, egui's
//! layout and tessellation, the renderer's drawing and the hand-over of the picture, without
//! any wait for the screen's refresh, vsync); "next … later" is when the next frame began,
//! counted from this one's start: with the wait for the screen, and any time the window slept
//! waiting for input. A frame in which the player's key played a move draws the board after it
//! (a second pass: `request_discard`), and the move's animation asks for the next frame at once,
//! so the next frame begins as soon as the picture is on screen: the second line is the time from
//! the start of the key's frame, which follows the key at once in a window that was waiting for
//! input, to the screen showing its move.

use std::time::Duration;
use web_time::Instant;

/// The environment variable that turns the log on.
pub const ENV: &str = "TILEBOX_FRAME_TIMES";

/// The frame log: the frame in progress, and the one before until its lines are written.
#[derive(Debug)]
pub struct FrameTimes {
    origin: Instant,
    /// The frame in progress (counted from 1), if one began.
    current: Option<Frame>,
    /// The frame before, ended when the current one began: its lines are written at the
    /// current one's first pass, where eframe's measure of it is known.
    ended: Option<(Frame, Instant)>,
    /// The current frame's first pass has not begun yet.
    fresh: bool,
}

/// What a frame did.
#[derive(Debug)]
struct Frame {
    number: u64,
    began: Instant,
    /// The app's CPU time in the frame, and its passes.
    app: Duration,
    passes: u32,
    /// The keys pressed in the frame.
    keys: Vec<String>,
    /// A move was played in the frame.
    moved: bool,
}

impl FrameTimes {
    /// The log, if [`ENV`] asks for it.
    pub fn from_env() -> Option<Self> {
        std::env::var_os(ENV)
            .filter(|v| !v.is_empty() && v != "0")
            .map(|_| Self::new(Instant::now()))
    }

    /// A log whose times are counted from `origin`.
    pub fn new(origin: Instant) -> Self {
        Self {
            origin,
            current: None,
            ended: None,
            fresh: false,
        }
    }

    /// A frame begins at `now` (the window's hook, before egui reads `raw`'s events).
    pub fn begin(&mut self, now: Instant, raw: &egui::RawInput) {
        let number = self.current.as_ref().map_or(1, |f| f.number + 1);
        self.ended = self.current.take().map(|f| (f, now));
        self.current = Some(Frame {
            number,
            began: now,
            app: Duration::ZERO,
            passes: 0,
            keys: raw
                .events
                .iter()
                .filter_map(crate::input::key_press_of)
                .map(|k| format!("{:?}", k.key))
                .collect(),
            moved: false,
        });
        self.fresh = true;
    }

    /// A pass of the frame begins: on the frame's first pass, the lines of the frame before,
    /// whose cost eframe measured as `cost_before` seconds.
    pub fn pass_begins(&mut self, cost_before: Option<f32>) -> Vec<String> {
        if !std::mem::take(&mut self.fresh) {
            return Vec::new();
        }
        self.ended
            .take()
            .map(|(frame, next)| frame.lines(self.origin, next, cost_before))
            .unwrap_or_default()
    }

    /// A pass ended, having taken `app` of the app's time; `moved`: a move was played in it.
    pub fn pass_ends(&mut self, app: Duration, moved: bool) {
        if let Some(f) = self.current.as_mut() {
            f.app += app;
            f.passes += 1;
            f.moved |= moved;
        }
    }
}

impl Frame {
    /// The lines of this frame, the next having begun at `next`.
    fn lines(&self, origin: Instant, next: Instant, cost: Option<f32>) -> Vec<String> {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let later = ms(next.saturating_duration_since(self.began));
        let mut line = format!(
            "frame {} at {:.3} s: app {:.1} ms in {} pass{}",
            self.number,
            self.began.saturating_duration_since(origin).as_secs_f64(),
            ms(self.app),
            self.passes,
            if self.passes == 1 { "" } else { "es" }
        );
        if let Some(cost) = cost {
            line += &format!(", frame {:.1} ms", f64::from(cost) * 1000.0);
        }
        line += &format!(", next {later:.1} ms later");
        if !self.keys.is_empty() {
            line += &format!(", keys {}", self.keys.join(" "));
        }
        if self.moved {
            line += ", a move played";
        }
        let mut lines = vec![line];
        if self.moved && !self.keys.is_empty() {
            lines.push(format!(
                "key {}: its move on screen within {later:.1} ms (frame {})",
                self.keys.join(" "),
                self.number
            ));
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(key: egui::Key) -> egui::Event {
        egui::Event::Key {
            key,
            physical_key: None,
            pressed: true,
            repeat: false,
            modifiers: egui::Modifiers::NONE,
        }
    }

    #[test]
    fn a_frame_is_told_when_the_next_begins_with_its_key_and_the_time_its_move_took() {
        let t0 = Instant::now();
        let ms = Duration::from_millis;
        let mut log = FrameTimes::new(t0);
        // Frame 1: a key, a move played in the first of two passes.
        let raw = egui::RawInput {
            events: vec![key(egui::Key::ArrowLeft)],
            ..Default::default()
        };
        log.begin(t0 + ms(500), &raw);
        assert!(
            log.pass_begins(None).is_empty(),
            "nothing before the first frame"
        );
        log.pass_ends(ms(2), true);
        assert!(
            log.pass_begins(None).is_empty(),
            "a second pass says nothing"
        );
        log.pass_ends(ms(1), false);
        // Frame 2 begins 60 ms later; eframe measured frame 1 at 40 ms.
        log.begin(t0 + ms(560), &egui::RawInput::default());
        assert_eq!(
            log.pass_begins(Some(0.040)),
            vec![
                "frame 1 at 0.500 s: app 3.0 ms in 2 passes, frame 40.0 ms, next 60.0 ms \
                 later, keys ArrowLeft, a move played"
                    .to_string(),
                "key ArrowLeft: its move on screen within 60.0 ms (frame 1)".to_string(),
            ]
        );
        // Frame 2 had no key: one line, no answer.
        log.pass_ends(ms(1), false);
        log.begin(t0 + ms(600), &egui::RawInput::default());
        assert_eq!(
            log.pass_begins(Some(0.020)),
            vec![
                "frame 2 at 0.560 s: app 1.0 ms in 1 pass, frame 20.0 ms, next 40.0 ms later"
                    .to_string()
            ]
        );
    }
}
