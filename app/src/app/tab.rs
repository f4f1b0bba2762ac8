//! The app in a page: its start over the browser's storage, and the tab's lock on it, renewed
//! from the frames ([`crate::store::lock::TabLock`]).

use std::sync::Arc;

use tilebox_core::Registry;

use super::{Current, TileboxApp};
use crate::store::keys::Keys;
use crate::store::lock::{self, Renewal, TabHeld, TabLock};
use crate::store::storage::Storage;
use crate::store::writer::Writer;
use crate::ui::refusal::AlreadyRunning;

/// What a page says when its lock is no longer its own: another tab took it while this one
/// slept (and may have played and closed since), or the browser's storage was cleared or is
/// full.
pub const TAB_LOST: &str = "This tab no longer holds Tilebox's lock on the browser's storage \
(Tilebox was opened in another tab while this one slept, or the storage was cleared or is \
full), so it saves nothing more: reload the page to play on with what is saved.";

impl TileboxApp {
    /// The app in a page (and in the desktop's tests of the web side): its files kept in the
    /// storage of keys `keys` (the browser's `localStorage`), its writes and the AI's searches
    /// on the frame ([`crate::work_mode::WorkMode::Frame`]), and one tab at a time writing
    /// them: the tab `tab` takes the lock at `now_ms` (milliseconds since 1970), or is refused
    /// with the window to show instead ([`AlreadyRunning::in_another_tab`]). Where the storage
    /// does not take the lock's stamp (full), the tab reads what is kept and saves nothing, and
    /// says so. The app renews the lock each second from its frames and gives it back when
    /// dropped.
    pub fn for_the_web(
        registry: Registry,
        keys: Arc<dyn Keys>,
        tab: &str,
        now_ms: u64,
        start_game: Option<&str>,
    ) -> Result<Self, AlreadyRunning> {
        let (lock, unwritable) = match TabLock::take(Arc::clone(&keys), tab, now_ms) {
            Ok(lock) => (Some(lock), None),
            Err(TabHeld::Held) => return Err(AlreadyRunning::in_another_tab()),
            Err(TabHeld::Unwritable(why)) => (None, Some(why)),
        };
        let writer = Writer::on_frame(Storage::in_keys(keys));
        if unwritable.is_some() {
            writer.stop_writing();
        }
        let mut app = Self::with_writer(registry, writer, start_game);
        app.tab = lock;
        if let Some(why) = unwritable {
            app.notify(why);
        }
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
        if tab.renew(crate::store::clock::unix_ms()) != Renewal::Lost {
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
