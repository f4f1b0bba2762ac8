//! Steps paced by the clock, not by frames: autoplay's moves and a replay's steps.
//!
//! A [`Pace`] knows when its next step is due. Each frame asks it how many steps are due by the
//! frame's time ([`Pace::take`]), so a slow frame makes every step due since the last one, in
//! order, and a fast one makes at most one step per interval. Where the steps to make run out
//! (the AI has not answered yet) the clock does not run ahead: the next step is made as soon as
//! it comes, and the ones after it are paced from there, never in a burst to catch up. Pure:
//! the time is given, never read, so tests drive it as they like.

/// The clock of steps `interval` seconds apart.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Pace {
    /// When the next step is due (in the app's seconds); `None`: as soon as there is one.
    next: Option<f64>,
}

/// A margin for times computed by adding intervals, so that a step due at exactly `now` is
/// due despite rounding (64 steps of 1/64 s end at 1 s).
const EPSILON: f64 = 1e-9;

impl Pace {
    /// A clock whose first step is due as soon as there is one.
    pub fn now() -> Self {
        Self { next: None }
    }

    /// A clock whose first step is due at `at`.
    pub fn at(at: f64) -> Self {
        Self { next: Some(at) }
    }

    /// When the next step is due; `None` as soon as there is one.
    pub fn next(&self) -> Option<f64> {
        self.next
    }

    /// How many steps are due at `now`, of the `available` ones (at most), steps being
    /// `interval` seconds apart; the clock moves on past them. Where fewer steps are available
    /// than are due, the next is due at once when it comes, and paced from there.
    pub fn take(&mut self, interval: f64, now: f64, available: usize) -> usize {
        let (steps, next) = due(self.next, interval, now, available);
        self.next = next;
        steps
    }

    /// How long after `now` the next step is due, if it is not due yet (for the window's
    /// wake-up); `None` when it is due already or as soon as there is one.
    pub fn wait(&self, now: f64) -> Option<f64> {
        self.next.map(|next| next - now).filter(|&w| w > 0.0)
    }
}

/// The pure rule of [`Pace::take`]: with the next step due at `next` (`None`: at once), steps
/// `interval` seconds apart and `available` steps to make, how many are made at `now`, and
/// when the one after them is due.
pub fn due(next: Option<f64>, interval: f64, now: f64, available: usize) -> (usize, Option<f64>) {
    // A step of no length (or a nonsense one) would make every step due at once.
    let interval = if interval.is_finite() && interval > 0.0 {
        interval
    } else {
        f64::MIN_POSITIVE
    };
    let first = next.filter(|t| t.is_finite()).unwrap_or(now);
    if first > now + EPSILON {
        return (0, Some(first));
    }
    // Steps due: the first, and one more for every interval since it.
    let since = ((now - first) / interval + EPSILON).floor();
    let due = if since >= (usize::MAX - 1) as f64 {
        usize::MAX
    } else {
        (since as usize).saturating_add(1)
    };
    let steps = due.min(available);
    if steps < due {
        // Out of steps: the next one is made as soon as it comes (at the frame that sees it)
        // and the clock is not owed the ones missed.
        return (steps, Some(now));
    }
    (steps, Some(first + steps as f64 * interval))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_step_is_due_at_once_and_the_next_an_interval_later() {
        let mut pace = Pace::now();
        assert_eq!(pace.take(0.5, 10.0, 5), 1);
        assert_eq!(pace.next(), Some(10.5));
        assert!(pace.wait(10.2).is_some_and(|w| (w - 0.3).abs() < 1e-9));
        assert_eq!(pace.take(0.5, 10.4, 5), 0);
        assert_eq!(pace.take(0.5, 10.5, 5), 1);
        assert_eq!(pace.next(), Some(11.0));
    }

    #[test]
    fn a_slow_frame_makes_every_step_due_since_the_last_one() {
        // 64 steps a second, a frame a second later: 64 steps, not one.
        let mut pace = Pace::at(1.0 / 64.0);
        assert_eq!(pace.take(1.0 / 64.0, 1.0, usize::MAX), 64);
        assert_eq!(pace.take(1.0 / 64.0, 2.0, usize::MAX), 64);
        // Fast autoplay, 20 ms a move, a frame every 1.5 s: 75 moves a frame.
        let mut pace = Pace::now();
        assert_eq!(pace.take(0.02, 0.0, 1000), 1);
        assert_eq!(pace.take(0.02, 1.5, 1000), 75);
        assert_eq!(pace.take(0.02, 3.0, 1000), 75);
    }

    #[test]
    fn fast_frames_make_at_most_one_step_a_frame() {
        let mut pace = Pace::now();
        let mut made = Vec::new();
        for frame in 0..600 {
            made.push(pace.take(0.3, f64::from(frame) / 60.0, 1));
        }
        assert!(made.iter().all(|&n| n <= 1), "{made:?}");
        // 10 s at one step each 0.3 s: the first at once, then 33 more.
        assert_eq!(made.iter().sum::<usize>(), 34);
    }

    #[test]
    fn steps_run_short_the_clock_waits_for_the_next_and_owes_nothing() {
        let mut pace = Pace::now();
        assert_eq!(pace.take(0.02, 0.0, 1), 1);
        // 1 s later, 50 steps are due but 3 are there: the 3 are made.
        assert_eq!(pace.take(0.02, 1.0, 3), 3);
        assert_eq!(pace.next(), Some(1.0));
        assert_eq!(pace.wait(1.0), None);
        // Nothing there for a while: no debt builds up.
        assert_eq!(pace.take(0.02, 1.5, 0), 0);
        assert_eq!(pace.next(), Some(1.5));
        // A step comes by a frame 1/60 s later: it is made, and the next waits its interval.
        assert_eq!(pace.take(0.02, 1.5 + 1.0 / 60.0, 10), 1);
        assert_eq!(pace.take(0.02, 1.5 + 2.0 / 60.0, 10), 1);
        assert_eq!(pace.take(0.02, 1.5 + 2.2 / 60.0, 10), 0);
    }

    #[test]
    fn a_step_due_later_is_not_made_and_its_wait_is_told() {
        let mut pace = Pace::at(5.0);
        assert_eq!(pace.take(1.0, 4.0, 9), 0);
        assert_eq!(pace.wait(4.0), Some(1.0));
        assert_eq!(pace.take(1.0, 5.0, 9), 1);
        assert_eq!(pace.wait(5.0), Some(1.0));
    }

    #[test]
    fn a_nonsense_interval_or_time_never_panics() {
        for interval in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            let (steps, _) = due(Some(0.0), interval, 1e300, 7);
            assert_eq!(steps, 7);
        }
        let (steps, _) = due(Some(0.0), 1e-300, 1e300, usize::MAX);
        assert_eq!(steps, usize::MAX);
        // A clock gone wrong starts again: one step now.
        assert_eq!(due(Some(f64::NAN), 1.0, 1.0, 3), (1, Some(2.0)));
    }
}
