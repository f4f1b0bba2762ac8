//! The launcher screen: the list of games, or the page of one group of entries (2048's board
//! sizes) with its menu of options where the group's kind has some. Drawn by
//! [`crate::launcher`]; its keys: a card's number opens it, T switches theme, C plays a code,
//! Escape leaves a group's page.

use tilebox_core::{ParamOption, Registry};

use super::{Action, Screen};
use crate::input::{self, KeyPress};
use crate::launcher::{self, Card};
use crate::scores::Scores;
use crate::slot::GameSlot;
use crate::theme::ThemeChoice;

/// What the launcher is lent for a frame.
pub(crate) struct Lent<'a> {
    /// The games.
    pub registry: &'a Registry,
    /// Every game's slot, by index.
    pub slots: &'a [GameSlot],
    /// The score table.
    pub scores: &'a Scores,
    /// The theme choice, named on its button.
    pub theme: ThemeChoice,
    /// The notices for the player.
    pub notices: &'a [String],
    /// The choices picked in the group's menu of options, if it has been used.
    pub picks: Option<&'a [usize]>,
}

/// The launcher: the list of games (`group` none), or the entries of a group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LauncherScreen {
    /// The group shown, an index into [`Registry::groups`].
    pub group: Option<usize>,
}

impl LauncherScreen {
    /// Which screen this is.
    pub(crate) fn id(self) -> Screen {
        self.group.map_or(Screen::Launcher, Screen::Group)
    }

    /// Draws the launcher and reads `keys`; returns what the player asked for, in order.
    pub(crate) fn show(self, ui: &mut egui::Ui, lent: &Lent<'_>, keys: &[KeyPress]) -> Vec<Action> {
        let groups = lent.registry.groups();
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
                .map(|(_, members)| members.iter().map(|&i| Card::Entry(i)).collect())
                .unwrap_or_default(),
        };
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
        drop(groups);
        let picks = match lent.picks {
            Some(picks) if !options.is_empty() => picks.to_vec(),
            _ => vec![0; options.len()],
        };
        let picked_game = title
            .as_deref()
            .and_then(|t| slot_of_options(lent.slots, t, &options, &picks));

        let mut chosen = None;
        let mut toggle_theme = false;
        let mut back = false;
        let mut play_code = false;
        for &k in keys {
            if k.repeat || k.has_command_modifier() {
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
        let screen = launcher::Screen {
            title: title.as_deref(),
            cards: &cards,
            registry: lent.registry,
            slots: lent.slots,
            scores: lent.scores,
            theme: lent.theme,
            notices: lent.notices,
            options: (!options.is_empty()).then_some(launcher::Options {
                options: &options,
                picks: &picks,
                game: picked_game,
            }),
        };
        let mut actions = Vec::new();
        match launcher::show(ui, &screen) {
            launcher::Action::Choose(card) => chosen = Some(card),
            launcher::Action::ToggleTheme => toggle_theme = true,
            launcher::Action::Back => back = true,
            launcher::Action::Stats(i) => return vec![Action::Open(Screen::Stats(i))],
            launcher::Action::PlayCode => play_code = true,
            launcher::Action::Dismiss(i) => actions.push(Action::Dismiss(i)),
            launcher::Action::DismissAll => actions.push(Action::DismissAll),
            launcher::Action::Pick { option, choice } => {
                if let Some(group) = self.group {
                    let mut picks = picks.clone();
                    if let Some(pick) = picks.get_mut(option) {
                        *pick = choice;
                    }
                    actions.push(Action::Picks { group, picks });
                }
            }
            launcher::Action::None => {}
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
        let params = slot.entry.params_json();
        slot.entry.info().group == group
            && !slot.entry.options().is_empty()
            && options.iter().zip(&wanted).all(|(option, &value)| {
                let first = option.choices.first().map(|(_, v)| v);
                params.get(&option.field).or(first) == Some(value)
            })
    })
}
