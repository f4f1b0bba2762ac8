//! The launcher screen: the list of games, or the page of one group of entries (2048's board sizes)
//! with its menu of options where the group's kind has some. Drawn by
//! [`crate::screens::launcher::cards`]; its keys: a card's number opens it, T switches theme, C
//! plays a code, Escape leaves a group's page.

pub mod cards;

use std::collections::HashMap;

use tilebox_core::ParamOption;

use super::{Action, Screen};
use crate::slot::GameSlot;
use crate::store::scores::Scores;
use crate::store::settings::ThemeChoice;
use crate::ui::input::{self, KeyPress};
use cards::Card;

/// What the launcher is lent for a frame.
pub(crate) struct Lent<'a> {
    /// The groups of games, each entry by the index of its slot ([`crate::slot::groups`]).
    pub groups: &'a [crate::slot::Group],
    /// Every game's slot, by index.
    pub slots: &'a [GameSlot],
    /// The score table.
    pub scores: &'a Scores,
    /// The theme choice, named on its button.
    pub theme: ThemeChoice,
    /// The notices for the player.
    pub notices: &'a [String],
}

/// The launcher: the list of games (`group` none), or the entries of a group. One launcher
/// lasts as long as the app, so that the choices picked in a group's menu of options are there
/// when the player comes back to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LauncherScreen {
    /// The group shown, an index into [`tilebox_core::Registry::groups`].
    pub group: Option<usize>,
    /// On a catalogue's page (a group of more than nine games, too many for their numbers),
    /// what the player typed to find a game by its name or number.
    filter: String,
    /// The card the arrow keys last moved to, an index into the cards shown.
    selected: Option<usize>,
    /// The choices picked in each group's menu of options (one per option), by group, for
    /// the groups whose menu has been used.
    picks: HashMap<usize, Vec<usize>>,
}

/// The most games a group's page lists by number; a group of more is a catalogue, where typing
/// finds a game.
pub(crate) const NUMBERED: usize = 9;

/// The character a key types into a catalogue's filter: a letter, a digit, a space, or a sign
/// a game's name is written with (a dash, a plus, a comma, a point: "16+16i", "3,188,646").
fn typed(key: egui::Key) -> Option<char> {
    use egui::Key;
    if let Some(d) = input::digit_of(key) {
        return char::from_digit(u32::from(d), 10);
    }
    match key {
        Key::Num0 => Some('0'),
        Key::Space => Some(' '),
        Key::Minus => Some('-'),
        Key::Plus => Some('+'),
        Key::Comma => Some(','),
        Key::Period => Some('.'),
        _ => {
            let name = key.name();
            let mut chars = name.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) if c.is_ascii_alphabetic() => Some(c.to_ascii_lowercase()),
                _ => None,
            }
        }
    }
}

/// Whether the entry `info` is found by `filter` (lowercase): its title or id holds it, or its
/// title holds it with the punctuation of numbers left out of both ("3188646" finds
/// "3,188,646", "2216838" finds "2216.838").
pub(crate) fn matches(info: &tilebox_core::EntryInfo, filter: &str) -> bool {
    let filter = filter.trim();
    let bare = |s: &str| -> String { s.chars().filter(|c| !matches!(c, ',' | '.')).collect() };
    filter.is_empty()
        || info.title.to_lowercase().contains(filter)
        || info.id.contains(&filter.replace(' ', "-"))
        || !bare(filter).is_empty() && bare(&info.title.to_lowercase()).contains(&bare(filter))
}

impl LauncherScreen {
    /// The list of games (`None`) or the page of group `group`.
    pub(crate) fn new(group: Option<usize>) -> Self {
        LauncherScreen {
            group,
            filter: String::new(),
            selected: None,
            picks: HashMap::new(),
        }
    }

    /// Opens the list of games (`None`) or the page of group `group`, at its top: nothing typed,
    /// no card moved to; the choices picked in the menus of options stay.
    pub(crate) fn open(&mut self, group: Option<usize>) {
        self.group = group;
        self.filter.clear();
        self.selected = None;
    }

    /// Which screen this is.
    pub(crate) fn id(&self) -> Screen {
        self.group.map_or(Screen::Launcher, Screen::Group)
    }

    /// Draws the launcher and reads `keys`; returns what the player asked for, in order.
    pub(crate) fn show(
        &mut self,
        ui: &mut egui::Ui,
        lent: &Lent<'_>,
        keys: &[KeyPress],
    ) -> Vec<Action> {
        let groups = lent.groups;
        // A catalogue: a group of more games than the number keys reach, listed under headings
        // (the 2048 Power Compendium's pages).
        let catalogue = self
            .group
            .and_then(|g| groups.get(g))
            .is_some_and(|(_, members)| {
                members.len() > NUMBERED
                    && members.iter().all(|&i| {
                        lent.slots
                            .get(i)
                            .is_some_and(|s| s.entry.info().section.is_some())
                    })
            });
        // A catalogue reads typing before it lists its cards, so that a key's effect shows at once.
        let mut back = false;
        if catalogue {
            let before = self.filter.clone();
            for &k in keys {
                if k.has_command_modifier() {
                    continue;
                }
                match k.key {
                    egui::Key::Backspace => {
                        self.filter.pop();
                    }
                    egui::Key::Escape if k.repeat => {}
                    egui::Key::Escape if !self.filter.is_empty() => self.filter.clear(),
                    egui::Key::Escape => back = true,
                    key => {
                        if let Some(c) = typed(key).filter(|_| !k.repeat) {
                            self.filter.push(c);
                        }
                    }
                }
            }
            // What was typed changes the cards: no card keeps the focus (nor takes a typed
            // space as a click), and the arrows start again from the first.
            if self.filter != before {
                self.selected = None;
                ui.memory_mut(|m| {
                    if let Some(id) = m.focused() {
                        m.surrender_focus(id);
                    }
                });
            }
        }
        // What the cards shown lead to: a group (of several entries) or an entry.
        let cards: Vec<Card> = match self.group {
            None => groups
                .iter()
                .enumerate()
                .map(|(g, (_, members))| match members.as_slice() {
                    [only] => Card::Entry(*only),
                    _ => Card::Group(g),
                })
                .collect(),
            Some(g) => groups
                .get(g)
                .map(|(_, members)| {
                    members
                        .iter()
                        .filter(|&&i| {
                            lent.slots
                                .get(i)
                                .is_some_and(|s| matches(s.entry.info(), &self.filter))
                        })
                        .map(|&i| Card::Entry(i))
                        .collect()
                })
                .unwrap_or_default(),
        };
        let total = self
            .group
            .and_then(|g| groups.get(g))
            .map_or(0, |(_, members)| members.len());
        let title = self
            .group
            .and_then(|g| groups.get(g))
            .map(|(t, _)| t.to_string());
        // A group whose kind has options offers them too (Strike 9's box, dice and scoring).
        let options = self
            .group
            .and_then(|g| groups.get(g))
            .and_then(|(_, members)| members.first())
            .and_then(|&i| lent.slots.get(i))
            .map(|slot| slot.entry.options())
            .unwrap_or_default();
        let picks = match self.group.and_then(|g| self.picks.get(&g)) {
            Some(picks) if !options.is_empty() => picks.clone(),
            _ => vec![0; options.len()],
        };
        let picked_game = title
            .as_deref()
            .and_then(|t| slot_of_options(lent.slots, t, &options, &picks));

        let mut chosen = None;
        let mut toggle_theme = false;
        let mut play_code = false;
        let mut focus = None;
        let nothing_focused = ui.memory(|m| m.focused().is_none());
        for &k in keys {
            if k.has_command_modifier() {
                continue;
            }
            // The arrows move from card to card (held, they go on); Return opens the card
            // moved to, or the first one shown when none has the keyboard's focus.
            let last = cards.len().checked_sub(1);
            if matches!(k.key, egui::Key::ArrowDown | egui::Key::ArrowUp) {
                // egui would move the focus too, to the next control in that direction.
                ui.memory_mut(|m| m.move_focus(egui::FocusDirection::None));
            }
            match k.key {
                egui::Key::ArrowDown => {
                    self.selected = last.map(|l| self.selected.map_or(0, |s| (s + 1).min(l)));
                    focus = self.selected;
                }
                egui::Key::ArrowUp => {
                    self.selected =
                        last.map(|l| self.selected.map_or(0, |s| s.min(l).saturating_sub(1)));
                    focus = self.selected;
                }
                egui::Key::Enter if catalogue && nothing_focused && !k.repeat => {
                    chosen = cards.get(self.selected.unwrap_or(0)).copied();
                }
                _ => {}
            }
            if k.repeat || catalogue {
                continue;
            }
            play_code |= k.key == egui::Key::C;
            if let Some(d) = input::digit_of(k.key)
                && let Some(card) = cards.get(usize::from(d) - 1)
            {
                chosen = Some(*card);
            }
            toggle_theme |= k.key == egui::Key::T;
            back |= k.key == egui::Key::Escape;
        }
        let screen = cards::Screen {
            title: title.as_deref(),
            cards: &cards,
            groups: lent.groups,
            slots: lent.slots,
            scores: lent.scores,
            theme: lent.theme,
            notices: lent.notices,
            catalogue: catalogue.then_some(cards::Catalogue {
                filter: &self.filter,
                total,
            }),
            focus,
            options: (!options.is_empty()).then_some(cards::Options {
                options: &options,
                picks: &picks,
                game: picked_game,
            }),
        };
        let mut actions = Vec::new();
        match cards::show(ui, &screen) {
            cards::Action::Choose(card) => chosen = Some(card),
            cards::Action::ToggleTheme => toggle_theme = true,
            cards::Action::Back => back = true,
            cards::Action::Stats(i) => return vec![Action::Open(Screen::Stats(i))],
            cards::Action::PlayCode => play_code = true,
            cards::Action::Dismiss(i) => actions.push(Action::Dismiss(i)),
            cards::Action::DismissAll => actions.push(Action::DismissAll),
            cards::Action::Pick { option, choice } => {
                if let Some(group) = self.group {
                    let mut picks = picks.clone();
                    if let Some(pick) = picks.get_mut(option) {
                        *pick = choice;
                    }
                    self.picks.insert(group, picks);
                }
            }
            cards::Action::None => {}
        }
        if toggle_theme {
            actions.push(Action::ToggleTheme);
        }
        match chosen {
            Some(Card::Entry(i)) => actions.push(Action::Open(Screen::Game(i))),
            Some(Card::Group(g)) => actions.push(Action::Open(Screen::Group(g))),
            None if back && self.group.is_some() => actions.push(Action::Back),
            None => {}
        }
        if play_code {
            actions.push(Action::OpenPlayCode);
        }
        actions
    }
}

/// The game of group `group` whose params have the choices `picks` of `options`: a named
/// entry or a combination (a field a game's params leave out has the first choice, the
/// standard game's).
fn slot_of_options(
    slots: &[GameSlot],
    group: &str,
    options: &[ParamOption],
    picks: &[usize],
) -> Option<usize> {
    let wanted: Vec<&serde_json::Value> = options
        .iter()
        .zip(picks)
        .map(|(option, &pick)| option.choices.get(pick).map(|(_, value)| value))
        .collect::<Option<_>>()?;
    slots.iter().position(|slot| {
        if slot.entry.info().group != group || slot.entry.options().is_empty() {
            return false;
        }
        // Made for the group's games only: another's may be a built-in read from its file.
        let params = slot.entry.params_json();
        options.iter().zip(&wanted).all(|(option, &value)| {
            let first = option.choices.first().map(|(_, v)| v);
            params.get(&option.field).or(first) == Some(value)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::matches;
    use tilebox_core::EntryInfo;

    fn info(id: &str, title: &str) -> EntryInfo {
        EntryInfo {
            id: id.into(),
            title: title.into(),
            description: String::new(),
            group: String::new(),
            section: None,
        }
    }

    /// A mode is found by its name, its id, or its number typed without commas or points.
    #[test]
    fn a_number_is_found_with_or_without_its_punctuation() {
        let big = info("3-188-646", "3,188,646");
        for found in ["3188646", "3,188,646", "3-188", "188,6", ""] {
            assert!(matches(&big, found), "{found:?}");
        }
        for not in ["3188647", "31886460", ",,", "."] {
            assert!(!matches(&big, not), "{not:?}");
        }
        let fraction = info("2216-838", "2216.838");
        assert!(matches(&fraction, "2216838"));
        assert!(matches(&fraction, "2216.8"));
        assert!(!matches(&info("3125", "3125"), "2216838"));
    }
}
