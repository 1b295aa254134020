//! Ctrl-C during a run (issue 23, finding 8): the first one asks the run to stop at its next
//! report time, so that the rows so far are flushed and `summary.json` says
//! `status = "interrupted"`; a second one ends the program at once (exit status 130).

use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Installs the handler (once; a failure to install leaves Ctrl-C's default behaviour).
pub fn install() {
    let _ = ctrlc::set_handler(|| {
        if REQUESTED.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
}

/// Whether Ctrl-C was pressed.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}
