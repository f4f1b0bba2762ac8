//! The page's start: finds the canvas, starts eframe's web runner in it with the app, and
//! takes the page's loading message away once the first frame is drawn.

use wasm_bindgen::JsCast as _;
use wasm_bindgen::prelude::wasm_bindgen;

/// The id of the canvas the app draws in (`index.html`).
const CANVAS_ID: &str = "tilebox";

/// Called by the generated script once the WebAssembly is loaded.
#[wasm_bindgen(start)]
pub fn start() {
    wasm_bindgen_futures::spawn_local(async {
        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let Some(canvas) = document
            .get_element_by_id(CANVAS_ID)
            .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok())
        else {
            return;
        };
        let started = eframe::WebRunner::new()
            .start(
                canvas,
                eframe::WebOptions {
                    dithering: false,
                    ..Default::default()
                },
                Box::new(|_cc| Ok(Box::new(tilebox::web::WebApp::new()))),
            )
            .await;
        if let Some(loading) = document.get_element_by_id("loading") {
            let text = match started {
                Ok(()) => String::new(),
                Err(e) => format!("Tilebox could not start in this browser: {e:?}"),
            };
            loading.set_text_content(Some(&text));
        }
    });
}
