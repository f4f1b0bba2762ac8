//! Calendar dates and UTC times, for the history's timestamps and the daily game's date.
//!
//! The proleptic Gregorian calendar in UTC, counted in days from 1970-01-01 with Howard
//! Hinnant's `days_from_civil` and `civil_from_days`. Pure: the shells read the clock and pass
//! the time in ([`Date::of_unix`], [`rfc3339`]).

use std::fmt;
use std::str::FromStr;

/// A day of the calendar, in UTC. Orders by time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    year: i32,
    month: u8,
    day: u8,
}

/// Why a text is not a date.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a date: {why} (dates are written YYYY-MM-DD, such as 2026-11-23)")]
pub struct DateError {
    text: String,
    why: &'static str,
}

const SECONDS_PER_DAY: i64 = 86_400;

impl Date {
    /// The date `year`-`month`-`day`, if the calendar has it (years 1 to 9999).
    pub fn new(year: i32, month: u8, day: u8) -> Option<Date> {
        let valid = (1..=9999).contains(&year)
            && (1..=12).contains(&month)
            && day >= 1
            && day <= days_in(year, month);
        valid.then_some(Date { year, month, day })
    }

    /// The year.
    pub fn year(self) -> i32 {
        self.year
    }

    /// The month, 1 to 12.
    pub fn month(self) -> u8 {
        self.month
    }

    /// The day of the month, 1 to 31.
    pub fn day(self) -> u8 {
        self.day
    }

    /// Days since 1970-01-01 (negative before it).
    pub fn days(self) -> i64 {
        let y = i64::from(self.year) - i64::from(self.month <= 2);
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let m = i64::from(self.month);
        let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + i64::from(self.day) - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }

    /// The date `days` after 1970-01-01, clamped to the years 1 to 9999.
    pub fn of_days(days: i64) -> Date {
        let days = days.clamp(MIN_DAYS, MAX_DAYS);
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
        let year = (yoe + era * 400 + i64::from(month <= 2)) as i32;
        Date { year, month, day }
    }

    /// The UTC date at `unix_seconds` seconds after 1970-01-01T00:00:00Z.
    pub fn of_unix(unix_seconds: i64) -> Date {
        Date::of_days(unix_seconds.div_euclid(SECONDS_PER_DAY))
    }
}

const MIN_DAYS: i64 = -719_162; // 0001-01-01
const MAX_DAYS: i64 = 2_932_896; // 9999-12-31

fn is_leap(year: i32) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn days_in(year: i32, month: u8) -> u8 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

impl FromStr for Date {
    type Err = DateError;

    /// Reads `YYYY-MM-DD` exactly: four, two and two digits.
    fn from_str(text: &str) -> Result<Date, DateError> {
        let error = |why| DateError {
            text: text.to_string(),
            why,
        };
        let bytes = text.as_bytes();
        let shape = bytes.len() == 10
            && bytes[4] == b'-'
            && bytes[7] == b'-'
            && bytes
                .iter()
                .enumerate()
                .all(|(i, b)| i == 4 || i == 7 || b.is_ascii_digit());
        if !shape {
            return Err(error("not in the form YYYY-MM-DD"));
        }
        let number = |range: std::ops::Range<usize>| {
            text.get(range)
                .and_then(|s| s.parse::<u16>().ok())
                .unwrap_or(0)
        };
        let (year, month, day) = (number(0..4), number(5..7), number(8..10));
        let month = u8::try_from(month).unwrap_or(0);
        let day = u8::try_from(day).unwrap_or(0);
        Date::new(i32::from(year), month, day).ok_or_else(|| error("the calendar has no such day"))
    }
}

/// `unix_seconds` as an RFC 3339 UTC time to the second: `2026-11-23T16:27:11Z`.
pub fn rfc3339(unix_seconds: i64) -> String {
    let date = Date::of_unix(unix_seconds);
    let second = unix_seconds.rem_euclid(SECONDS_PER_DAY);
    format!(
        "{date}T{:02}:{:02}:{:02}Z",
        second / 3600,
        second / 60 % 60,
        second % 60
    )
}

/// Reads a time written by [`rfc3339`] (`YYYY-MM-DDTHH:MM:SSZ`) back into seconds since
/// 1970-01-01T00:00:00Z. Any other text is `None`.
pub fn parse_rfc3339(text: &str) -> Option<i64> {
    let (date, time) = text.split_once('T')?;
    let date: Date = date.parse().ok()?;
    let time = time.strip_suffix('Z')?;
    let mut parts = time.split(':');
    let mut field = |max: i64| {
        parts
            .next()
            .filter(|p| p.len() == 2 && p.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|p| p.parse::<i64>().ok())
            .filter(|&v| v <= max)
    };
    let (h, m, s) = (field(23)?, field(59)?, field(59)?);
    if parts.next().is_some() {
        return None;
    }
    Some(date.days() * SECONDS_PER_DAY + h * 3600 + m * 60 + s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_epoch_and_known_days() {
        assert_eq!(Date::of_days(0).to_string(), "1970-01-01");
        assert_eq!(Date::of_days(-1).to_string(), "1969-12-31");
        // 2000 was a leap year, 1900 was not.
        let leap: Date = "2000-02-29".parse().unwrap();
        assert_eq!(Date::of_days(leap.days() + 1).to_string(), "2000-03-01");
        assert!("1900-02-29".parse::<Date>().is_err());
        assert!(Date::new(2026, 11, 31).is_none());
    }

    #[test]
    fn times_are_written_and_read_in_utc() {
        // `date -u -d @1795451231` prints Mon Nov 23 16:27:11 UTC 2026.
        assert_eq!(rfc3339(1_795_451_231), "2026-11-23T16:27:11Z");
        assert_eq!(parse_rfc3339("2026-11-23T16:27:11Z"), Some(1_795_451_231));
        assert_eq!(Date::of_unix(1_795_451_231).to_string(), "2026-11-23");
        for bad in [
            "2026-11-23",
            "2026-11-23T16:27:11",
            "2026-11-23T24:00:00Z",
            "2026-11-23T1:27:11Z",
        ] {
            assert_eq!(parse_rfc3339(bad), None, "{bad}");
        }
    }

    #[test]
    fn bad_dates_say_why() {
        for bad in [
            "",
            "2026-1-23",
            "2026/11/23",
            "26-11-23",
            "2026-13-01",
            "2026-00-10",
            "0000-01-01",
            "２０２６-11-23",
        ] {
            let e = bad.parse::<Date>().unwrap_err();
            assert!(e.to_string().contains("YYYY-MM-DD"), "{e}");
        }
    }

    proptest! {
        #[test]
        fn days_and_dates_round_trip(days in MIN_DAYS..=MAX_DAYS) {
            let date = Date::of_days(days);
            prop_assert_eq!(date.days(), days);
            prop_assert_eq!(date.to_string().parse::<Date>().unwrap(), date);
            prop_assert!(Date::of_days(days + 1) > date || days == MAX_DAYS);
        }

        #[test]
        fn times_round_trip(seconds in MIN_DAYS * SECONDS_PER_DAY..MAX_DAYS * SECONDS_PER_DAY) {
            prop_assert_eq!(parse_rfc3339(&rfc3339(seconds)), Some(seconds));
        }
    }
}
