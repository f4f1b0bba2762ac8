//! The launcher's menu of options, in the real app: Strike 9's box, one-die rule and scoring,
//! combined freely, each combination a game of its own with its own scores and game in
//! progress. Driven by labels, with the options and their labels taken from the entry.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{harness, temp_dir};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use serde_json::{Value, json};
use tilebox::TileboxApp;
use tilebox::screens::launcher::cards::{PLAY_OPTIONS_LABEL, card_label, option_label};
use tilebox::views::strike9::tile_key;
use tilebox_core::{ParamOption, Registry};
use tilebox_strike9::Strike9;

type App = Harness<'static, TileboxApp>;

/// The Strike 9 entry of the catalogue and its options.
fn strike9_options() -> (String, Vec<ParamOption>) {
    let registry = tilebox_games::registry();
    let entry = registry
        .entries()
        .iter()
        .find(|e| e.is::<Strike9>() && !e.options().is_empty())
        .expect("a Strike 9 entry with options");
    (entry.kind().title.to_string(), entry.options())
}

/// Picks, in each option's row of buttons, the choice whose value is `values[field]`.
fn pick(h: &mut App, options: &[ParamOption], values: &Value) {
    for option in options {
        let wanted = &values[&option.field];
        let (label, _) = option
            .choices
            .iter()
            .find(|(_, v)| v == wanted)
            .unwrap_or_else(|| panic!("{} has no choice {wanted}", option.name));
        h.get_by_label(&option_label(&option.name, label)).click();
        h.run();
    }
}

/// The id of the combination of these params, as the registry names it: the kind's id and the
/// values in the options' order.
fn combination_id(options: &[ParamOption], values: &Value) -> String {
    let parts: Vec<String> = options
        .iter()
        .map(|o| match &values[&o.field] {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .collect();
    format!("strike9-{}", parts.join("-"))
}

/// A new app over `dir`, from the launcher through the group titled `title` and its menu of
/// options, started with the choices `values`.
fn start_with(dir: &std::path::Path, title: &str, options: &[ParamOption], values: &Value) -> App {
    let mut h = harness(dir, None);
    h.get_by_label(&card_label(title)).click_accesskit();
    h.run();
    pick(&mut h, options, values);
    h.get_by_label(PLAY_OPTIONS_LABEL).click();
    h.run();
    h
}

#[test]
fn a_combination_of_options_is_a_game_of_its_own_that_is_saved_counted_and_resumed() {
    let dir = temp_dir("options");
    let (title, options) = strike9_options();
    let values = json!({"tiles": 12, "one_die": "low_total", "score": "digits"});
    let id = combination_id(&options, &values);
    assert!(
        tilebox_games::registry().get(&id).is_none(),
        "{id} is not a named entry"
    );

    let mut h = start_with(&dir, &title, &options, &values);
    assert_eq!(h.state().current_game(), Some(id.as_str()));
    let session = h.state().session(&id).unwrap();
    for option in &options {
        assert_eq!(session.params_json()[&option.field], values[&option.field]);
    }
    // Twelve tiles speak.
    assert!(h.query_by_label("tile 12, open").is_some());

    // A move is played, saved under the combination's id and counted when the game is left.
    let first = session.legal_moves()[0].clone();
    let played = {
        let mut copy = Registry::new().with::<Strike9>().entries()[0]
            .with_params(&session.params_json(), session.seed())
            .unwrap();
        copy.play_text(&first).unwrap();
        copy.text()
    };
    for t in first.split('+') {
        h.key_press(tile_key(t.parse().unwrap()).unwrap());
        h.run();
    }
    assert_eq!(h.state().session(&id).unwrap().text(), played);
    common::settle();
    assert!(dir.join(format!("saves/{id}.json")).exists());

    // Back goes to the group's screen, where the menu remembers the choices.
    h.key_press(egui::Key::Escape);
    h.run();
    assert!(h.query_by_label(PLAY_OPTIONS_LABEL).is_some());
    drop(h);

    // After a restart the game resumes where it was.
    let h = start_with(&dir, &title, &options, &values);
    assert_eq!(h.state().current_game(), Some(id.as_str()));
    assert_eq!(h.state().session(&id).unwrap().text(), played);
}

#[test]
fn options_that_a_named_entry_plays_open_that_entry() {
    let dir = temp_dir("options-named");
    let (title, options) = strike9_options();
    let registry: Registry = tilebox_games::registry();
    let mut checked = 0;
    for entry in registry.entries().iter().filter(|e| e.is::<Strike9>()) {
        // The entry's params, with every option's field written out (defaults included).
        let params = entry.params_json();
        let mut values = serde_json::Map::new();
        for option in &options {
            let value = params
                .get(&option.field)
                .cloned()
                .unwrap_or_else(|| option.choices[0].1.clone());
            values.insert(option.field.clone(), value);
        }
        let h = start_with(&dir, &title, &options, &Value::Object(values));
        assert_eq!(h.state().current_game(), Some(entry.id()));
        checked += 1;
    }
    assert!(checked > 1, "the named Strike 9 entries");
}

#[test]
fn the_app_opens_a_combination_by_its_id_as_it_does_a_named_game() {
    let dir = temp_dir("options-by-id");
    let (_, options) = strike9_options();
    let values = json!({"tiles": 10, "one_die": "high_shut", "score": "golf"});
    let id = combination_id(&options, &values);
    let h = harness(&dir, Some(&id));
    assert_eq!(h.state().current_game(), Some(id.as_str()));
    assert!(h.query_by_label("tile 10, open").is_some());
    assert!(h.query_by_label("tile 11, open").is_none());
}
