//! What a sliding tile writes in a cell of a given size: its text whole, at the size that fills
//! the tile as 2048 does, and never below [`LEAST`] (12 points) where another form holds it:
//!
//! - the text whole on one line, as large as it fits;
//! - a label with a part in brackets (1716's `6(3|3)`, 3240's `36(6²)`) as its worth with the
//!   part on a line of its own under it, in smaller type (the brackets dropped where they do
//!   not fit), that part wrapped on two lines at a `·` or a `|` where one does not hold it;
//! - an expression (16+16i's `-64+64i`) wrapped on two lines before a sign;
//! - a number in a short form (`16384` as `16.3k`, then `16k`; `127834.04` as `127834`, then
//!   `127k`): its leading digits, cut rather than rounded, so that a short form is never more
//!   than the tile (`65536` is `65k`, as 2048's players say).
//!
//! Where no form holds 12 points the one with the largest type is taken. The view shows the
//! whole text on hover and on keyboard focus of any cell whose tile is not written whole
//! ([`TileLabel::whole`]), and it is always the cell's accessible label.
//!
//! Pure: the width of a text at a size is asked of the caller (egui's fonts in the app).

/// The smallest type a tile's text is written in, where any form of it holds it.
pub const LEAST: f32 = crate::ui::theme::SMALLEST_TEXT;

/// The share of a tile's side its text may take, across and down, to hold [`LEAST`].
const ROOM: f32 = 0.88;

/// The height of a line of text, over its type's size (egui's fonts: a little more than 1.1).
pub const LINE_HEIGHT: f32 = 1.2;

/// One line of a tile's text at its size.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// Its text.
    pub text: String,
    /// Its type's size, in points.
    pub size: f32,
}

/// What a tile writes: its lines, top to bottom.
#[derive(Debug, Clone, PartialEq)]
pub struct TileLabel {
    /// The lines, top to bottom.
    pub lines: Vec<Line>,
    /// Whether they say all the text does (wrapped, or its brackets dropped, but not
    /// shortened).
    pub whole: bool,
}

impl TileLabel {
    /// The size of the smallest type of its lines.
    pub fn smallest(&self) -> f32 {
        self.lines
            .iter()
            .map(|l| l.size)
            .fold(f32::INFINITY, f32::min)
    }

    /// The lines' text, one after the other.
    pub fn text(&self) -> String {
        self.lines
            .iter()
            .map(|l| l.text.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// Whether a line is the main text of a tile or the part under it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Main,
    Under,
}

/// One way of writing a tile's text: its lines and whether they say it all.
#[derive(Debug, Clone)]
struct Form {
    lines: Vec<(String, Role)>,
    whole: bool,
}

/// The label of a tile showing `text` in a tile `side` points wide; `width(text, size)` is
/// the width of `text` in type of `size` points.
pub fn fit(text: &str, side: f32, width: impl Fn(&str, f32) -> f32) -> TileLabel {
    let mut best: Option<TileLabel> = None;
    for form in forms(text) {
        let label = size_of(&form, side, &width);
        if label.smallest() >= LEAST {
            return label;
        }
        if best
            .as_ref()
            .is_none_or(|b| label.smallest() > b.smallest() + 0.01)
        {
            best = Some(label);
        }
    }
    best.unwrap_or_else(|| TileLabel {
        lines: Vec::new(),
        whole: true,
    })
}

/// The size of a tile's text that fills it as 2048's numbers do, by its number of characters:
/// half the tile for one, then narrower (four digits take about 60% of its width).
fn filled(text: &str, side: f32) -> f32 {
    crate::ui::theme::tile_font_size(text, side)
}

/// The sizes of the lines of `form` in a tile `side` points wide.
fn size_of(form: &Form, side: f32, width: &impl Fn(&str, f32) -> f32) -> TileLabel {
    // The size at which a line fills the room across: widths are in proportion to sizes.
    let across = |text: &str| {
        let at_least = width(text, LEAST).max(0.01);
        ROOM * side * LEAST / at_least
    };
    let mains = form
        .lines
        .iter()
        .filter(|(_, role)| *role == Role::Main)
        .count();
    let unders = form.lines.len() - mains;
    // The main lines share one size: as 2048 fills a tile, but never below what fits the
    // room where that is 12 points or more; less on two lines or with a part under them.
    let cap = if form.lines.len() > 1 {
        0.4 * side
    } else {
        0.5 * side
    };
    let main = form
        .lines
        .iter()
        .filter(|(_, role)| *role == Role::Main)
        .map(|(text, _)| {
            let fills = across(text);
            filled(text, side).max(fills.min(LEAST)).min(fills)
        })
        .fold(cap, f32::min);
    let under = form
        .lines
        .iter()
        .filter(|(_, role)| *role == Role::Under)
        .map(|(text, _)| across(text))
        .fold((0.6 * main).max(LEAST).min(main), f32::min);
    // And all of them within the room down.
    let tall = LINE_HEIGHT * (main * mains as f32 + under * unders as f32);
    let down = if tall > ROOM * side {
        ROOM * side / tall
    } else {
        1.0
    };
    TileLabel {
        lines: form
            .lines
            .iter()
            .map(|(text, role)| Line {
                text: text.clone(),
                size: down
                    * match role {
                        Role::Main => main,
                        Role::Under => under,
                    },
            })
            .collect(),
        whole: form.whole,
    }
}

/// The ways of writing `text`, the best first: whole, then wrapped, then shortened.
fn forms(text: &str) -> Vec<Form> {
    let (main, under) = match bracketed(text) {
        Some((main, under)) => (main, Some(under)),
        None => (text, None),
    };
    let mains = {
        let mut forms: Vec<(Vec<String>, bool)> = vec![(vec![main.to_string()], true)];
        // A sum or a product on two lines (16+16i's `-64` over `+64i`, Pro-Add-Uct's `100×`
        // over `101`).
        if let Some(lines) = wrapped(main, &['+', '-', '×']) {
            forms.push((lines, true));
        }
        let short = short_forms(main);
        forms.extend(short.iter().map(|s| (vec![s.clone()], false)));
        // Then on two lines, the number over its unit: `134` over `M`.
        forms.extend(
            short
                .iter()
                .filter_map(|s| wrapped(s, &[]))
                .map(|lines| (lines, false)),
        );
        forms
    };
    let unders: Vec<Vec<String>> = match under {
        None => vec![Vec::new()],
        Some(under) => {
            let inner = under
                .strip_prefix('(')
                .and_then(|u| u.strip_suffix(')'))
                .unwrap_or(under);
            let mut forms = vec![vec![under.to_string()], vec![inner.to_string()]];
            // A product, a place or a sum on two lines (2669's `1000` over `+367*`).
            if let Some(lines) = wrapped(inner, &['·', '|', '×', '+']) {
                forms.push(lines);
            }
            forms
        }
    };
    let mut all = Vec::new();
    for (main_lines, whole) in &mains {
        for under_lines in &unders {
            all.push(Form {
                lines: main_lines
                    .iter()
                    .map(|l| (l.clone(), Role::Main))
                    .chain(under_lines.iter().map(|l| (l.clone(), Role::Under)))
                    .collect(),
                whole: *whole,
            });
        }
    }
    all
}

/// A label with a part in brackets after the rest (1716's "6(3|3)": a worth and its place;
/// 2496's "24(4×6)": a worth and its pair; 3240's "36(6²)": a worth and its factors), split
/// there: the tile shows the part small under the rest, as the Compendium shows a place or a
/// pair under its worth. `None` for any other text ("-1", "1+i", "(x)").
pub fn bracketed(text: &str) -> Option<(&str, &str)> {
    text.find('(')
        .filter(|&i| i > 0 && text.ends_with(')'))
        .map(|i| text.split_at(i))
}

/// `text` on two lines, broken before one of `at` that is a sign (`-64` and `+64i`), after one
/// that is not (`4²·` and `6·10`), or between a number and letters after it (`14348907` and
/// `r`, `134` and `M`), where the longer line is shortest; `None` where it has no such place
/// past its first character.
fn wrapped(text: &str, at: &[char]) -> Option<Vec<String>> {
    let chars: Vec<char> = text.chars().collect();
    let signs = ['+', '-'];
    (1..chars.len())
        .filter_map(|i| {
            let c = *chars.get(i)?;
            let after_digit = chars.get(i - 1).is_some_and(char::is_ascii_digit);
            if after_digit && c.is_alphabetic() && c != 'i' {
                // Letters after a number (not `i`, which is part of `64i`).
                return Some(i);
            }
            if !at.contains(&c) {
                return None;
            }
            // A sign opens the second line; a dot or a bar ends the first.
            let cut = if signs.contains(&c) { i } else { i + 1 };
            (cut < chars.len()).then_some(cut)
        })
        .min_by_key(|&cut| cut.max(chars.len() - cut))
        .map(|cut| {
            vec![
                chars.get(..cut).unwrap_or_default().iter().collect(),
                chars.get(cut..).unwrap_or_default().iter().collect(),
            ]
        })
}

/// The short forms of `text` if it is a number (`-12`, `16384`, `127834.04`), the longest
/// first: fewer decimals, then the leading digits of thousands (k), millions (M), billions
/// (G), trillions (T), then 10^15 (P) and 10^18 (E), with one decimal then none. Cut, never
/// rounded up. None for any other text.
pub fn short_forms(text: &str) -> Vec<String> {
    // Letters after the number (Bicolor 2187's `r` and `b`) stay after its short form.
    let number = text.trim_end_matches(|c: char| c.is_ascii_alphabetic() && c != 'i');
    let suffix = text.get(number.len()..).unwrap_or_default();
    if suffix.len() > 2 {
        return Vec::new();
    }
    let (sign, digits) = match number.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", number),
    };
    let (whole, decimals) = digits.split_once('.').unwrap_or((digits, ""));
    let is_digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    if whole.is_empty() || !is_digits(whole) || !is_digits(decimals) {
        return Vec::new();
    }
    let mut forms = Vec::new();
    // Fewer decimals: 127834.04 as 127834.0, then 127834.
    for keep in (0..decimals.len()).rev() {
        let cut = decimals.get(..keep).unwrap_or_default();
        forms.push(if cut.is_empty() {
            format!("{sign}{whole}")
        } else {
            format!("{sign}{whole}.{cut}")
        });
    }
    // Thousands and more: the leading digits, with one decimal, then none.
    let whole = whole.trim_start_matches('0');
    let units = ["k", "M", "G", "T", "P", "E", "Z", "Y"];
    let groups = whole.len().saturating_sub(1) / 3;
    if groups > 0 {
        let unit = units.get(groups - 1).copied().unwrap_or("?");
        let lead = whole.len() - 3 * groups;
        let (head, tail) = whole.split_at(lead);
        let first = tail.get(..1).unwrap_or_default();
        if first != "0" && lead < 3 {
            forms.push(format!("{sign}{head}.{first}{unit}"));
        }
        forms.push(format!("{sign}{head}{unit}"));
    }
    // Never a tile as 0 (0.75 cut to nothing).
    forms.retain(|f| f != number && f.trim_start_matches('-') != "0");
    forms.dedup();
    forms.into_iter().map(|f| f + suffix).collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// A width as a proportional font's: digits and most letters 0.55 of the size, a dot or
    /// a bar 0.3.
    fn width(text: &str, size: f32) -> f32 {
        text.chars()
            .map(|c| {
                if matches!(c, '.' | '|' | '·') {
                    0.3
                } else {
                    0.55
                }
            })
            .sum::<f32>()
            * size
    }

    #[test]
    fn numbers_shorten_to_their_leading_digits() {
        assert_eq!(short_forms("16384"), ["16.3k", "16k"]);
        assert_eq!(short_forms("65536"), ["65.5k", "65k"]);
        assert_eq!(short_forms("131072"), ["131k"]);
        assert_eq!(short_forms("1024"), ["1k"]);
        assert_eq!(short_forms("2048"), ["2k"]);
        assert_eq!(short_forms("1.6875"), ["1.687", "1.68", "1.6", "1"]);
        assert_eq!(short_forms("127834.04"), ["127834.0", "127834", "127k"]);
        assert_eq!(short_forms("-32768"), ["-32.7k", "-32k"]);
        assert_eq!(short_forms("512"), Vec::<String>::new());
        assert_eq!(short_forms("1+i"), Vec::<String>::new());
        assert_eq!(short_forms("÷2"), Vec::<String>::new());
        assert_eq!(short_forms("36893488147419103232"), ["36.8E", "36E"]);
        assert_eq!(short_forms("14348907r"), ["14.3Mr", "14Mr"]);
        assert_eq!(short_forms("128i"), Vec::<String>::new());
    }

    #[test]
    fn expressions_wrap_before_a_sign_and_factors_after_a_dot() {
        assert_eq!(wrapped("-64+64i", &['+', '-']).unwrap(), ["-64", "+64i"]);
        assert_eq!(wrapped("-16-16i", &['+', '-']).unwrap(), ["-16", "-16i"]);
        assert_eq!(wrapped("-4i", &['+', '-']), None);
        assert_eq!(
            wrapped("100×101", &['+', '-', '×']).unwrap(),
            ["100×", "101"]
        );
        assert_eq!(
            wrapped("1000+367*", &['·', '|', '×', '+']).unwrap(),
            ["1000", "+367*"]
        );
        assert_eq!(wrapped("4²·6·10", &['·']).unwrap(), ["4²·", "6·10"]);
        assert_eq!(wrapped("14|15", &['|']).unwrap(), ["14|", "15"]);
        assert_eq!(wrapped("134M", &[]).unwrap(), ["134", "M"]);
        assert_eq!(wrapped("14348907r", &[]).unwrap(), ["14348907", "r"]);
        assert_eq!(wrapped("-64i", &['+', '-']), None);
    }

    #[test]
    fn a_tile_is_written_whole_where_it_fits_and_short_where_it_does_not() {
        // A 4×4 board's tile: 2048 whole, as 2048 fills it.
        let label = fit("2048", 72.0, width);
        assert_eq!(label.text(), "2048");
        assert!(label.whole);
        assert_eq!(
            label.smallest(),
            crate::ui::theme::tile_font_size("2048", 72.0)
        );
        // An 8×8 board's tile at 360 px: 2048 still whole at 12 points, 16384 short.
        let label = fit("2048", 32.0, width);
        assert_eq!((label.text().as_str(), label.smallest()), ("2048", LEAST));
        let label = fit("16384", 32.0, width);
        assert_eq!(label.text(), "16k");
        assert!(!label.whole && label.smallest() >= LEAST);
        // 16+16i's widest on a 5×5 board: on two lines, whole.
        let label = fit("-64+64i", 40.0, width);
        assert_eq!(label.text(), "-64\n+64i");
        assert!(label.whole && label.smallest() >= LEAST, "{label:?}");
        // 1716's: the place under the worth.
        let label = fit("1716(7|8)", 72.0, width);
        assert_eq!(label.text(), "1716\n(7|8)");
        assert!(label.whole && label.smallest() >= LEAST, "{label:?}");
        // Nothing holds 12 points in a tile of 10: the largest there is.
        let label = fit("16384", 10.0, width);
        assert!(label.smallest() < LEAST);
        assert_eq!(label.text(), "16k");
    }
}
