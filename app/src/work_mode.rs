//! How work runs off the frame, chosen in this one place: on threads of its own on the
//! desktop, or in slices on the frame's thread in a page (wasm32 has no threads). The
//! advisor ([`crate::work::advisor::Advisor`]) and the writer ([`crate::store::writer::Writer`]) each run
//! the same step in either mode: their thread's loop calls it, or the frame does, a bounded
//! slice at a time. Training a network runs on a thread only ([`crate::work::trainer::AVAILABLE`]).

/// Where the advisor's searches and the writer's writes run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorkMode {
    /// On a thread of their own: the desktop.
    Threads,
    /// On the frame's thread, a slice at a time: a page. The desktop's tests use it too.
    Frame,
}

impl WorkMode {
    /// This build's mode: threads where there are any ([`threads`]), else the frame.
    pub fn native() -> Self {
        if threads() {
            WorkMode::Threads
        } else {
            WorkMode::Frame
        }
    }
}

/// Whether this build may start threads: not in a page (wasm32 refuses every thread).
pub const fn threads() -> bool {
    !cfg!(target_arch = "wasm32")
}
