//! The launcher: one card per group of entries (a game), and for a game with several entries
//! (2048's board sizes, a game's versions) a second screen with a card per entry; each card
//! shows its best score, games played and won, and what is in progress.

use egui::{Align2, Color32, FontId, Rect, RichText, Sense, Stroke, Vec2, WidgetInfo};
use tilebox_core::{Entry, ParamOption};

use crate::screens::chrome;
use crate::slot::GameSlot;
use crate::store::scores::{Best, Scores};
use crate::store::settings::ThemeChoice;
use crate::ui::theme::{self, Palette};

/// What a card leads to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Card {
    /// The entry of the slot at this index.
    Entry(usize),
    /// The group at this index of [`tilebox_core::Registry::groups`].
    Group(usize),
}

/// What the player did in the launcher.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Action {
    /// Nothing.
    None,
    /// Open what this card leads to.
    Choose(Card),
    /// Switch theme.
    ToggleTheme,
    /// Back from a group's entries to the games.
    Back,
    /// Open the statistics of the entry of the slot at this index.
    Stats(usize),
    /// Open the "Play a code" dialog.
    PlayCode,
    /// Dismiss the notice at this index.
    Dismiss(usize),
    /// Dismiss every notice.
    DismissAll,
    /// In the menu of options, option `option` (an index into [`Options::options`]) was set
    /// to its choice `choice`.
    Pick {
        /// The option.
        option: usize,
        /// Its new choice.
        choice: usize,
    },
}

/// The menu of options of a group whose kind has some ([`tilebox_core::FrontEnd::options`]):
/// the options, the choice picked in each, and the game those choices make, if any.
pub(crate) struct Options<'a> {
    pub options: &'a [ParamOption],
    pub picks: &'a [usize],
    /// The slot of the game the picks make.
    pub game: Option<usize>,
}

/// The accessible label of the button of option `name`'s choice `shown`, as a screen reader
/// says it: "Tiles: 12 tiles".
pub fn option_label(name: &str, shown: &str) -> String {
    format!("{name}: {shown}")
}

/// The accessible label of the button that plays the options picked.
pub const PLAY_OPTIONS_LABEL: &str = "Start a game with these options";

/// A catalogue's page (a group of more games than have numbers): what the player typed to find
/// one, and how many games it holds in all.
pub(crate) struct Catalogue<'a> {
    pub filter: &'a str,
    pub total: usize,
}

/// What a catalogue's page says of its filter: how many of its `total` games `shown` are, and
/// how to find one.
pub fn filter_text(filter: &str, shown: usize, total: usize) -> String {
    match (filter.is_empty(), shown) {
        (true, _) => format!("{total} games. Type a name or a number to find one."),
        (false, 0) => {
            format!("No game matches \u{201c}{filter}\u{201d}. Backspace: erase; Escape: show all.")
        }
        (false, _) => format!(
            "{shown} of {total} match \u{201c}{filter}\u{201d}. Backspace: erase; Escape: show all."
        ),
    }
}

/// What the launcher shows.
pub(crate) struct Screen<'a> {
    /// The group whose entries are shown; `None` for the list of games.
    pub title: Option<&'a str>,
    /// The cards, in order: card i answers to key i + 1.
    pub cards: &'a [Card],
    /// The groups of games, each entry by the index of its slot ([`crate::slot::groups`]).
    pub groups: &'a [crate::slot::Group],
    pub slots: &'a [GameSlot],
    pub scores: &'a Scores,
    pub theme: ThemeChoice,
    /// The notices for the player, each with a button that dismisses it.
    pub notices: &'a [String],
    /// On a catalogue's page, its filter.
    pub catalogue: Option<Catalogue<'a>>,
    /// The card the arrow keys moved to this frame, which takes the keyboard's focus.
    pub focus: Option<usize>,
    /// The menu of options, on a group's screen whose kind has some.
    pub options: Option<Options<'a>>,
}

/// The accessible label of the card of the game titled `title`.
pub fn card_label(title: &str) -> String {
    format!("Play {title}")
}

/// The accessible label of the statistics button on the card of the game titled `title`.
pub fn stats_label(title: &str) -> String {
    format!("Statistics of {title}")
}

/// The accessible label of the launcher's Back button, on a group's screen.
pub const BACK_LABEL: &str = "Back";

/// Draws the launcher.
pub(crate) fn show(ui: &mut egui::Ui, screen: &Screen<'_>) -> Action {
    let mut action = Action::None;
    egui::CentralPanel::default().show(ui, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
            // A centred column no wider than reads comfortably.
            let width = ui.available_width().min(MAX_WIDTH);
            let margin = ((ui.available_width() - width) / 2.0).max(0.0);
            ui.horizontal_top(|ui| {
                ui.add_space(margin);
                ui.vertical(|ui| {
                    ui.set_width(width);
                    column(ui, screen, &mut action);
                });
            });
            theme::keep_focus_in_view(ui);
        });
    });
    action
}

/// The widest the launcher's column grows, in points.
pub const MAX_WIDTH: f32 = 720.0;

/// The launcher's column: the heading, the notices, the cards and the menu of options.
fn column(ui: &mut egui::Ui, screen: &Screen<'_>, action: &mut Action) {
    {
        {
            ui.add_space(8.0);
            let heading = screen.title.unwrap_or("Tilebox");
            let title = || RichText::new(heading).size(32.0).strong();
            // A title too long for the room beside Back and the theme's button ("2048 Power
            // Compendium" in a narrow window) takes a row of its own under them, where it
            // wraps between words, so that the column keeps the window's width.
            let mut own_row = false;
            ui.horizontal(|ui| {
                if screen.title.is_some()
                    && ui
                        .button(BACK_LABEL)
                        .on_hover_text("Back to the games (Escape)")
                        .clicked()
                {
                    *action = Action::Back;
                }
                let room = ui.available_width()
                    - crate::ui::theme::button_width(ui, screen.theme.label())
                    - 2.0 * ui.spacing().item_spacing.x;
                let width = ui
                    .painter()
                    .layout_no_wrap(
                        heading.to_string(),
                        FontId::proportional(32.0),
                        Color32::WHITE,
                    )
                    .size()
                    .x;
                own_row = width > room;
                if !own_row {
                    ui.add(egui::Label::new(title()));
                }
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    if chrome::theme_button(ui, screen.theme) {
                        *action = Action::ToggleTheme;
                    }
                });
            });
            if own_row {
                ui.add(egui::Label::new(title()).wrap());
            }
            ui.add(
                egui::Label::new(match (&screen.catalogue, screen.title) {
                    (Some(_), _) => {
                        "Pick a game: click its card, or type to find it and press Return. \
                         Arrows: from card to card. Escape: back."
                    }
                    (None, Some(_)) => {
                        "Pick a version: click its card or press its number. Escape: back."
                    }
                    (None, None) => "Pick a game: click its card or press its number.",
                })
                .wrap(),
            );
            if ui
                .button(crate::screens::codes::PLAY_CODE_LABEL)
                .on_hover_text("Play the game of a code someone shared (C)")
                .clicked()
            {
                *action = Action::PlayCode;
            }
            ui.add_space(8.0);

            // Many notices (a folder of refused files): one button clears them all.
            if screen.notices.len() > 1
                && ui
                    .button(crate::store::storage::dismiss_all_label(
                        screen.notices.len(),
                    ))
                    .clicked()
            {
                *action = Action::DismissAll;
            }
            for (i, text) in screen.notices.iter().enumerate() {
                egui::Frame::group(ui.style())
                    .fill(ui.visuals().warn_fg_color.gamma_multiply(0.15))
                    .show(ui, |ui| {
                        ui.horizontal(|ui| {
                            ui.label(
                                RichText::new("Notice")
                                    .strong()
                                    .color(ui.visuals().warn_fg_color),
                            );
                            ui.add(egui::Label::new(text.as_str()).wrap());
                        });
                        if ui.button(format!("Dismiss notice {}", i + 1)).clicked() {
                            *action = Action::Dismiss(i);
                        }
                    });
                ui.add_space(6.0);
            }

            if let Some(catalogue) = &screen.catalogue {
                let text = filter_text(catalogue.filter, screen.cards.len(), catalogue.total);
                ui.add(egui::Label::new(RichText::new(text).strong()).wrap());
                ui.add_space(8.0);
            }
            let mut section = None;
            for (i, &c) in screen.cards.iter().enumerate() {
                // A catalogue's pages, each under its heading.
                if let Card::Entry(e) = c
                    && let Some(heading) = screen
                        .slots
                        .get(e)
                        .and_then(|slot| slot.entry.info().section.as_deref())
                    && section != Some(heading)
                {
                    section = Some(heading);
                    ui.add_space(6.0);
                    ui.add(egui::Label::new(RichText::new(heading).size(20.0).strong()).wrap());
                    ui.add_space(4.0);
                }
                let face = match c {
                    Card::Entry(e) => screen
                        .slots
                        .get(e)
                        .map(|slot| entry_face(slot, screen.scores)),
                    Card::Group(g) => group_face(screen, g),
                };
                // An entry's card has a button to its statistics; a group's entries have theirs
                // on the group's screen.
                let stats = matches!(c, Card::Entry(_));
                if let Some(face) = face {
                    let focus = screen.focus == Some(i);
                    // A catalogue's cards have no number: there the digits are typed.
                    let number = screen.catalogue.is_none().then_some(i + 1);
                    match card(
                        ui,
                        number,
                        &face,
                        miniature(screen, c).as_ref(),
                        stats,
                        focus,
                    ) {
                        CardClick::Open => *action = Action::Choose(c),
                        CardClick::Stats => {
                            if let Card::Entry(e) = c {
                                *action = Action::Stats(e);
                            }
                        }
                        CardClick::None => {}
                    }
                }
                ui.add_space(10.0);
            }
            if let Some(options) = &screen.options {
                let picked = options_menu(ui, options, screen.slots, screen.scores);
                if picked != Action::None {
                    *action = picked;
                }
            }
        }
    }
}

/// The menu of options: a row of buttons per option, a button per choice, what the game they make
/// has on record, and a button that plays it.
fn options_menu(
    ui: &mut egui::Ui,
    menu: &Options<'_>,
    slots: &[GameSlot],
    scores: &Scores,
) -> Action {
    let mut action = Action::None;
    let width = ui.available_width();
    ui.allocate_ui(Vec2::new(width, 0.0), |ui| {
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.set_width(width - 16.0);
            ui.label(RichText::new("Or combine the options").size(20.0).strong());
            for (i, option) in menu.options.iter().enumerate() {
                ui.label(RichText::new(&option.name).strong());
                let current = menu.picks.get(i).copied().unwrap_or(0);
                let choices = option.choices.iter().map(|(label, _)| label.as_str());
                let spoken = |choice: &str| option_label(&option.name, choice);
                let row =
                    ui.horizontal_wrapped(|ui| theme::choice_buttons(ui, choices, current, spoken));
                if let Some(choice) = row.inner {
                    action = Action::Pick { option: i, choice };
                }
                ui.add_space(4.0);
            }
            let game = menu.game.and_then(|i| slots.get(i));
            if let Some(slot) = game {
                let face = entry_face(slot, scores);
                ui.label(RichText::new(&face.title).strong());
                ui.label(
                    RichText::new(whole_figures(&face.line))
                        .size(14.0)
                        .color(figures(ui)),
                );
            }
            if ui
                .add_enabled(game.is_some(), egui::Button::new(PLAY_OPTIONS_LABEL))
                .clicked()
                && let Some(i) = menu.game
            {
                action = Action::Choose(Card::Entry(i));
            }
        });
    });
    action
}

/// What a card says.
struct Face {
    title: String,
    description: String,
    line: String,
}

/// The card of one entry: its title, description, best, counts and game in progress.
fn entry_face(slot: &GameSlot, scores: &Scores) -> Face {
    let info = slot.entry.info();
    let stats = scores.get(&info.id);
    // Unassisted games' best first, the assisted games' beside it if any.
    let lower = slot.entry.lower_is_better();
    let best = crate::store::scores::with_assisted(
        stats.best_for(lower).card_text(),
        stats.assisted_best_for(lower),
    );
    let mut line = format!(
        "{best}   ·   Played {}   ·   Won {}",
        theme::thousands(stats.played),
        theme::thousands(stats.won)
    );
    if let Some(session) = slot.session.as_deref()
        && session.move_count() > 0
        && !session.status().over
    {
        line.push_str(&format!("   ·   In progress: score {}", session.score()));
    }
    Face {
        title: info.title.clone(),
        description: info.description.clone(),
        line,
    }
}

/// The card of a group of entries: the game, how many versions of it there are, the highest
/// best among them and which version it was made in, and what its entries add up to.
fn group_face(screen: &Screen<'_>, group: usize) -> Option<Face> {
    let (title, members) = screen.groups.get(group)?;
    let first = &screen.slots.get(*members.first()?)?.entry;
    let (mut played, mut won, mut going) = (0, 0, 0);
    // The highest best of the versions scored higher-is-better, and the lowest of those scored
    // lower-is-better, each with the entry that holds it (the first of equals): the two are
    // never compared.
    let mut best: Option<(u64, &str)> = None;
    let mut lowest: Option<(u64, &str)> = None;
    let mut any_higher = false;
    for &i in members {
        let entry = &screen.slots.get(i)?.entry;
        let stats = screen.scores.get(entry.id());
        played += stats.played;
        won += stats.won;
        if entry.lower_is_better() {
            if let Some(points) = stats.lowest
                && lowest.is_none_or(|(l, _)| points < l)
            {
                lowest = Some((points, entry.title()));
            }
        } else {
            any_higher = true;
            if stats.best > best.map_or(0, |(b, _)| b) {
                best = Some((stats.best, entry.title()));
            }
        }
        let in_progress = screen
            .slots
            .get(i)
            .and_then(|s| s.session.as_deref())
            .is_some_and(|s| s.move_count() > 0 && !s.status().over);
        going += usize::from(in_progress);
    }
    let mut bests = Vec::new();
    if let Some((points, title)) = best {
        bests.push(group_best(points, title));
    }
    if let Some((points, title)) = lowest {
        bests.push(format!(
            "{} in {title}",
            Best::Lowest(Some(points)).card_text()
        ));
    }
    if bests.is_empty() {
        let none = if any_higher {
            Best::Highest(0)
        } else {
            Best::Lowest(None)
        };
        bests.push(none.card_text());
    }
    let best = bests.join("   ·   ");
    let mut line = format!(
        "{}   ·   {best}   ·   Played {}   ·   Won {}",
        versions(members.len()),
        theme::thousands(played),
        theme::thousands(won)
    );
    if going > 0 {
        line.push_str(&format!("   ·   In progress: {}", theme::thousands(going)));
    }
    // A catalogue (its games listed under headings) names its first games; a game's versions
    // share its description.
    let description = if first.info().section.is_some() {
        let titles: Vec<&str> = members
            .iter()
            .filter_map(|&i| screen.slots.get(i))
            .map(|s| s.entry.title())
            .collect();
        let named = titles.len().min(5);
        match titles.len() - named {
            0 => titles.join(", "),
            more => format!("{} and {more} more", titles[..named].join(", ")),
        }
    } else {
        first.info().description.clone()
    };
    Some(Face {
        title: title.to_string(),
        description,
        line,
    })
}

/// How many versions a game has: "5 versions".
pub fn versions(n: usize) -> String {
    if n == 1 {
        "1 version".to_string()
    } else {
        format!("{} versions", theme::thousands(n))
    }
}

/// The best of a game of several versions, and the version (titled `title`) it was made in:
/// "Best 2516 in 2048 (5×5)".
pub fn group_best(points: u64, title: &str) -> String {
    format!("Best {points} in {title}")
}

/// The colour of a card's figures in the theme in force.
fn figures(ui: &egui::Ui) -> Color32 {
    Palette::of(ui.visuals().dark_mode).figures
}

/// What a card's miniature shows: a game's board as it stands (or a sample board), drawn in
/// the entry's colours.
enum Miniature {
    /// A square board of numbers (0 empty), with the entry to colour it.
    Board(Vec<Vec<u64>>, Entry),
    /// Strike 9's box: its tiles, which are open, and the dice.
    Tiles {
        count: u8,
        open: Vec<u8>,
        dice: Vec<u8>,
    },
}

/// The miniature of card `card`: the game in progress of its entry (of its first entry with
/// one, for a group), else a sample board of its entry (its first entry, for a group).
fn miniature(screen: &Screen<'_>, card: Card) -> Option<Miniature> {
    let members: Vec<usize> = match card {
        Card::Entry(e) => vec![e],
        Card::Group(g) => screen.groups.get(g)?.1.clone(),
    };
    let going = members.iter().find_map(|&i| {
        let slot = screen.slots.get(i)?;
        let session = slot.session.as_deref()?;
        (session.move_count() > 0 && !session.status().over)
            .then(|| (session.state_json(), slot.entry.clone()))
    });
    if let Some((state, entry)) = going {
        return miniature_of(&state, entry);
    }
    // The sample is kept by the slot: read in place, not copied each frame.
    let slot = screen.slots.get(*members.first()?)?;
    miniature_of(slot.sample(SAMPLE_SEED)?, slot.entry.clone())
}

/// The seed of the sample boards of games with none in progress.
const SAMPLE_SEED: u64 = 2048;

/// A miniature from a state's JSON: a square `board`, or Strike 9's `open` tiles and `dice`.
fn miniature_of(state: &serde_json::Value, entry: Entry) -> Option<Miniature> {
    let numbers = |v: &serde_json::Value| -> Option<Vec<u64>> {
        v.as_array()?
            .iter()
            .map(serde_json::Value::as_u64)
            .collect()
    };
    if let Some(rows) = state.get("board").and_then(|b| b.as_array()) {
        let board: Vec<Vec<u64>> = rows.iter().map(numbers).collect::<Option<_>>()?;
        return (!board.is_empty() && board.iter().all(|r| r.len() == board.len()))
            .then_some(Miniature::Board(board, entry));
    }
    let open = numbers(state.get("open")?)?;
    let dice = state.get("dice").and_then(numbers).unwrap_or_default();
    let count = entry
        .params_json()
        .get("tiles")
        .and_then(serde_json::Value::as_u64)
        .unwrap_or(9);
    Some(Miniature::Tiles {
        count: u8::try_from(count).ok()?,
        open: open
            .into_iter()
            .filter_map(|t| u8::try_from(t).ok())
            .collect(),
        dice: dice
            .into_iter()
            .filter_map(|t| u8::try_from(t).ok())
            .collect(),
    })
}

/// Draws `mini` in `rect`.
fn draw_miniature(ui: &egui::Ui, rect: Rect, mini: &Miniature) {
    let painter = ui.painter();
    let dark = ui.visuals().dark_mode;
    match mini {
        Miniature::Board(board, entry) => {
            let n = board.len() as f32;
            let side = rect.width().min(rect.height());
            let square = Rect::from_center_size(rect.center(), Vec2::splat(side));
            let colors = entry.board_colors(dark);
            painter.rect_filled(square, side * 0.05, theme::color(colors.frame));
            let gap = side * 0.03;
            let cell = (side - gap * (n + 1.0)) / n;
            for (r, row) in board.iter().enumerate() {
                for (c, &value) in row.iter().enumerate() {
                    let min = square.min
                        + Vec2::new(gap + (cell + gap) * c as f32, gap + (cell + gap) * r as f32);
                    let cell_rect = Rect::from_min_size(min, Vec2::splat(cell));
                    if value == 0 {
                        painter.rect_filled(cell_rect, cell * 0.1, theme::color(colors.empty));
                        continue;
                    }
                    let tile = entry.tile_colors(value);
                    painter.rect_filled(cell_rect, cell * 0.1, theme::color(tile.fill));
                    // The tiles (their numbers or labels) where they can be read; a smaller
                    // board shows its colours.
                    let text = entry.tile_text(value);
                    let size = theme::tile_font_size(&text, cell);
                    if size >= theme::SMALLEST_TEXT {
                        painter.text(
                            cell_rect.center(),
                            Align2::CENTER_CENTER,
                            &text,
                            FontId::proportional(size),
                            theme::color(tile.text),
                        );
                    }
                }
            }
        }
        Miniature::Tiles { count, open, dice } => {
            let colors = theme::Strike9Colors::of(dark);
            painter.rect_filled(rect, 6.0, colors.felt);
            let n = f32::from(*count);
            let gap = 2.0;
            let width = (rect.width() - 8.0 - gap * (n - 1.0)) / n;
            let top = rect.top() + rect.height() * 0.5;
            let height = rect.height() * 0.42;
            for t in 1..=*count {
                let x = rect.left() + 4.0 + (width + gap) * f32::from(t - 1);
                let tile = Rect::from_min_size(egui::pos2(x, top), Vec2::new(width, height));
                let (fill, ink) = if open.contains(&t) {
                    (colors.wood, colors.ink)
                } else {
                    (colors.shut, colors.shut_ink)
                };
                painter.rect_filled(tile, 2.0, fill);
                let size = (width * 0.8).min(height * 0.6);
                if size >= theme::SMALLEST_TEXT {
                    painter.text(
                        tile.center(),
                        Align2::CENTER_CENTER,
                        t.to_string(),
                        FontId::proportional(size),
                        ink,
                    );
                }
            }
            let die = rect.height() * 0.3;
            let dice_width = die * dice.len() as f32 + 4.0 * (dice.len() as f32 - 1.0).max(0.0);
            for (i, &face) in dice.iter().enumerate() {
                let min = egui::pos2(
                    rect.center().x - dice_width / 2.0 + (die + 4.0) * i as f32,
                    rect.top() + rect.height() * 0.1,
                );
                let r = Rect::from_min_size(min, Vec2::splat(die));
                painter.rect_filled(r, die * 0.15, Color32::from_rgb(0xfa, 0xfa, 0xf5));
                painter.text(
                    r.center(),
                    Align2::CENTER_CENTER,
                    face.to_string(),
                    FontId::proportional((die * 0.7).max(theme::SMALLEST_TEXT)),
                    Color32::from_rgb(0x22, 0x22, 0x22),
                );
            }
        }
    }
}

/// A card's line of figures as drawn: each figure's name and its number joined by no-break
/// spaces ("Played 0", "Best 45 in", "9 versions"), so that a narrow card breaks the line
/// between figures, never inside one.
pub fn whole_figures(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::with_capacity(line.len() + 8);
    for (i, &c) in chars.iter().enumerate() {
        let before = i.checked_sub(1).and_then(|b| chars.get(b)).copied();
        let after = chars.get(i + 1).copied();
        let binds = after.is_some_and(|a| a.is_ascii_digit())
            || before.is_some_and(|b| b.is_ascii_digit()) && after.is_some_and(char::is_lowercase);
        out.push(if c == ' ' && binds { '\u{a0}' } else { c });
    }
    out
}

/// What a screen reader says of a card beside its label: its description and its figures (the
/// best, the counts, the game in progress).
pub fn card_description(description: &str, line: &str) -> String {
    format!("{description} {}.", line.replace("   ·   ", ", "))
}

/// What was clicked on a card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CardClick {
    None,
    /// The card itself.
    Open,
    /// Its statistics button.
    Stats,
}

/// One card, with its number if it has one (the key that opens it), its miniature if any,
/// and a button to its statistics
/// under its text if `stats`. The card is clicked with the mouse, or, when it has the
/// keyboard's focus, with Return or Space; the button is reached with Tab. `focus`: the arrow
/// keys moved to it, so it takes the focus and is scrolled into view.
fn card(
    ui: &mut egui::Ui,
    number: Option<usize>,
    face: &Face,
    mini: Option<&Miniature>,
    stats: bool,
    focus: bool,
) -> CardClick {
    let width = ui.available_width();
    let top_left = ui.cursor().min;
    let background = ui.painter().add(egui::Shape::Noop);
    let mini_side = match mini {
        None => 0.0,
        Some(_) if width >= 460.0 => 80.0,
        Some(_) => 64.0,
    };
    let mini_width = match mini {
        Some(Miniature::Tiles { .. }) => mini_side * 1.5,
        _ => mini_side,
    };
    // The text, as labels (read by screen readers), over the card; they take no clicks.
    let text_width =
        (width - 76.0 - 12.0 - mini_width - if mini.is_some() { 12.0 } else { 0.0 }).max(80.0);
    let text_rect = Rect::from_min_size(
        top_left + Vec2::new(76.0, 10.0),
        Vec2::new(text_width, 2000.0),
    );
    let text_height = {
        let ui = &mut ui.new_child(egui::UiBuilder::new().max_rect(text_rect));
        ui.style_mut().interaction.selectable_labels = false;
        ui.spacing_mut().item_spacing.y = 3.0;
        ui.add(egui::Label::new(RichText::new(&face.title).size(22.0).strong()).wrap());
        ui.add(egui::Label::new(RichText::new(&face.description).weak()).truncate());
        let line = whole_figures(&face.line);
        ui.add(egui::Label::new(RichText::new(line).size(14.0).color(figures(ui))).wrap());
        // The room of the statistics button, placed over the card once the card is laid out
        // (so that it, not the card, takes its clicks).
        let button = stats.then(|| {
            let size = Vec2::new(
                crate::ui::theme::button_width(ui, STATS_BUTTON),
                ui.spacing().interact_size.y,
            );
            ui.allocate_space(size).1
        });
        (ui.min_rect().height(), button)
    };
    let (text_height, stats_rect) = text_height;
    let height = (text_height + 18.0).max(mini_side + 16.0).max(96.0);
    let rect = Rect::from_min_size(top_left, Vec2::new(width, height));
    let response = ui.allocate_rect(rect, Sense::click());
    if focus {
        response.request_focus();
        response.scroll_to_me(None);
    }
    let label = card_label(&face.title);
    response.widget_info(|| WidgetInfo::labeled(egui::Role::Button, true, &label));
    let description = card_description(&face.description, &face.line);
    ui.ctx().accesskit_node_builder(response.id, |node| {
        node.set_description(description);
    });

    let visuals = ui.visuals().clone();
    let palette = Palette::of(visuals.dark_mode);
    let fill = if response.hovered() {
        palette.card_hover
    } else {
        palette.card
    };
    ui.painter().set(
        background,
        egui::epaint::RectShape::new(
            rect,
            10.0,
            fill,
            Stroke::new(1.0, palette.outline),
            egui::StrokeKind::Inside,
        ),
    );
    theme::focus_ring(ui, &response);
    let painter = ui.painter();

    // The number badge.
    if let Some(number) = number {
        let badge =
            Rect::from_center_size(rect.left_center() + Vec2::new(36.0, 0.0), Vec2::splat(44.0));
        painter.rect_filled(badge, 8.0, palette.selected);
        painter.text(
            badge.center(),
            Align2::CENTER_CENTER,
            number.to_string(),
            FontId::proportional(24.0),
            palette.selected_text,
        );
    }
    if let Some(mini) = mini {
        let mini_rect = Rect::from_min_size(
            egui::pos2(
                rect.right() - 12.0 - mini_width,
                rect.center().y - mini_side / 2.0,
            ),
            Vec2::new(mini_width, mini_side),
        );
        draw_miniature(ui, mini_rect, mini);
    }
    if let Some(rect) = stats_rect {
        let label = stats_label(&face.title);
        let button = ui
            .put(rect, egui::Button::new(STATS_BUTTON))
            .on_hover_text("Played, won, best, charts and replays");
        button.widget_info(|| WidgetInfo::labeled(egui::Role::Button, true, &label));
        if button.clicked() {
            return CardClick::Stats;
        }
    }
    if response.clicked() {
        CardClick::Open
    } else {
        CardClick::None
    }
}

/// The text of a card's statistics button.
const STATS_BUTTON: &str = "Statistics";
