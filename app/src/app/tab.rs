//! The app in a page: its start over the browser's storage, and the tab's lock on it, renewed
//! from the frames ([`crate::store::lock::TabLock`]).

use std::sync::Arc;

use tilebox_core::Registry;

use super::{Current, TileboxApp};
use crate::store::keys::Keys;
use crate::store::lock::{self, Renewal, TabLock};
use crate::store::storage::Storage;
use crate::store::writer::Writer;
use crate::ui::refusal::AlreadyRunning;

/// What a page says when another tab took its lock while it slept.
pub const TAB_LOST: &str = "Tilebox was opened in another tab of this browser, which now keeps \
the games: this tab saves nothing more. Play in the other tab.";

impl TileboxApp {
    /// The app in a page (and in the desktop's tests of the web side): its files kept in the
    /// storage of keys `keys` (the browser's `localStorage`), its writes and the AI's searches
    /// on the frame ([`crate::work_mode::WorkMode::Frame`]), and one tab at a time writing
    /// them: the tab `tab` takes the lock at `now_ms` (milliseconds since 1970), or is refused
    /// with the window to show instead ([`AlreadyRunning::in_another_tab`]). The app renews the
    /// lock each second from its frames and gives it back when dropped.
    pub fn for_the_web(
        registry: Registry,
        keys: Arc<dyn Keys>,
        tab: &str,
        now_ms: u64,
        start_game: Option<&str>,
    ) -> Result<Self, AlreadyRunning> {
        let lock = TabLock::take(Arc::clone(&keys), tab, now_ms)
            .map_err(|_| AlreadyRunning::in_another_tab())?;
        let writer = Writer::on_frame(Storage::in_keys(keys));
        let mut app = Self::with_writer(registry, writer, start_game);
        app.tab = Some(lock);
        Ok(app)
    }

    /// In a page, renews the tab's lock (once a second); a tab that finds another took it while
    /// it slept writes nothing more from now on, and says so.
    pub(super) fn renew_tab(&mut self, ctx: &egui::Context) {
        let Some(tab) = self.tab.as_mut() else {
            return;
        };
        // A frame each second at least, so that an idle tab keeps its lock.
        ctx.request_repaint_after(std::time::Duration::from_millis(lock::TAB_RENEW_MS));
        if tab.renew(lock::now_ms()) != Renewal::Lost {
            return;
        }
        self.store.stop_writes();
        self.notify(TAB_LOST);
        if let Current::Game(screen) = &self.current
            && let Some(slot) = self.slots.get_mut(screen.index)
        {
            slot.message = Some(TAB_LOST.to_string());
        }
    }
}
