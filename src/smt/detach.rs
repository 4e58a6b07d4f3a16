//! Solver threads left behind at the run's `--time-limit`, and how the process ends
//! while they still work.
//!
//! The deadline's watchdog ([`super::interrupt`]) stops a check at once, but not all of
//! z3's work honours an interruption: a model evaluation (`Z3_model_eval`) that expands
//! the tables of a heap of sequences (Boogie's `Test/textbook/BQueue.bpl`) was seen to
//! run 14 s past the deadline, and freeing a context that holds gigabytes takes z3 a
//! second or more. So a session waits for its worker at most [`MARGIN`] past the
//! deadline; a worker that is still busy then is detached: its query is answered "the
//! run's time limit was reached", the run goes on to write what it established, and the
//! thread is never joined.
//!
//! A process must not run its exit handlers while such a thread is inside z3: z3's
//! static state would be destroyed under it. [`end_process`] therefore ends the process
//! with `_exit` once its output is flushed, when a worker was detached; otherwise the
//! process ends as usual.

use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

/// How long past the run's deadline a session waits for its worker's answer, or for the
/// worker to end, before it detaches it. The whole process then ends within about this
/// margin past `--time-limit`, plus writing the suite and the report.
pub const MARGIN: Duration = Duration::from_millis(250);

static DETACHED: AtomicBool = AtomicBool::new(false);

/// Leaves `worker` to itself: it is not joined, and the process will end without
/// waiting for it ([`end_process`]).
pub(super) fn worker(worker: Option<JoinHandle<()>>) {
    DETACHED.store(true, Ordering::SeqCst);
    drop(worker);
}

/// Whether a solver thread was left running past the deadline.
pub fn workers_detached() -> bool {
    DETACHED.load(Ordering::SeqCst)
}

/// Ends the process with `status` now if a solver thread was detached, without exit
/// handlers (see the module documentation); the caller has flushed its output. Returns
/// when none was, for the process to end as usual.
pub fn end_process(status: u8) {
    if !workers_detached() {
        return;
    }
    extern "C" {
        fn _exit(status: i32) -> !;
    }
    // SAFETY: `_exit` ends the process at once; nothing of this process needs its exit
    // handlers (every output file is renamed into place and standard output and error
    // are flushed by the caller), and skipping them is the point.
    unsafe { _exit(i32::from(status)) }
}
