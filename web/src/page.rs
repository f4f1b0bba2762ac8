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
        // This tab's id, for the lock on the browser's storage that one tab holds at a time.
        let tab = format!("{:016x}", rand::random::<u64>());
        give_back_on_leaving(&tab);
        let started = eframe::WebRunner::new()
            .start(
                canvas,
                eframe::WebOptions {
                    dithering: false,
                    ..Default::default()
                },
                Box::new(move |_cc| Ok(Box::new(tilebox::web::WebApp::new(&tab)))),
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

/// When the page is left (closed, reloaded, or navigated away from), its tab's lock is given
/// back at once, so that the page reloaded, or another tab, takes it without waiting for it to
/// go stale: eframe's web runner never drops the app.
fn give_back_on_leaving(tab: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let tab = tab.to_string();
    let leave = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(move || {
        tilebox::store::lock::release_tab(&tilebox::store::keys::LocalStorage, &tab);
    });
    let _ = window.add_event_listener_with_callback("pagehide", leave.as_ref().unchecked_ref());
    // A page the browser brings back from its back-forward cache gave its lock back when it
    // was left: it starts again, taking the lock anew (or finding another tab has it), rather
    // than play on with games that may be older than those kept.
    let back = wasm_bindgen::closure::Closure::<dyn FnMut(web_sys::PageTransitionEvent)>::new(
        |event: web_sys::PageTransitionEvent| {
            if event.persisted()
                && let Some(window) = web_sys::window()
            {
                let _ = window.location().reload();
            }
        },
    );
    let _ = window.add_event_listener_with_callback("pageshow", back.as_ref().unchecked_ref());
    // They live as long as the page.
    leave.forget();
    back.forget();
}
