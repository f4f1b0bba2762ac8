//! The clock of the files: the time since 1970 by the system's clock (in a page, the
//! browser's; `web_time` gives std's own on the desktop). One reading of it for the history's
//! dates, a bad file's name, the daily game's day and the tab's lock.

/// Milliseconds since 1970 (0 for a clock set before it).
pub fn unix_ms() -> u64 {
    web_time::SystemTime::now()
        .duration_since(web_time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// Whole seconds since 1970.
pub fn unix_seconds() -> i64 {
    i64::try_from(unix_ms() / 1000).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_and_milliseconds_read_the_same_clock() {
        let (ms, s) = (unix_ms(), unix_seconds());
        // 2026 or later, and the seconds within one of the milliseconds.
        assert!(ms > 1_767_225_600_000, "{ms}");
        assert!((s - (ms / 1000) as i64).abs() <= 1, "{s} {ms}");
    }
}
