//! The run's `--time-limit` for the z3 work of one thread: a watchdog that interrupts z3
//! at the deadline, and the question whether it has passed.
//!
//! A check's `timeout` bounds `check-sat` only. Model evaluation (`Z3_model_eval`, which
//! decoding calls per input, per function application and per element tuple) has no
//! limit of its own, and on axiom-heavy encodings (Boogie's `Test/textbook/BQueue.bpl`)
//! one decoding was seen to take z3 minutes and gigabytes. So a session arms a
//! [`Watchdog`] for its thread's z3 context: at the deadline it calls `Z3_interrupt`,
//! which z3 documents as safe from another thread and which cancels a check (it answers
//! `unknown`) and most evaluations. Decoding then stops, and the query is answered "the
//! run's time limit was reached": the goal is reported open with that reason, never
//! decided from a half-read model. What z3 does not interrupt (an evaluation expanding
//! the tables of a heap, freeing a large context) is bounded by z3's step and memory
//! limits and, past the deadline's margin, left behind ([`super::detach`]).
//!
//! The deadline is per thread because z3's context is (see [`super::session`]: a
//! session owns a thread, hence a context).

use std::cell::Cell;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Instant;

thread_local! {
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// Whether this thread's deadline has passed (never, without one).
pub(super) fn passed() -> bool {
    DEADLINE.with(|deadline| deadline.get().is_some_and(|end| Instant::now() >= end))
}

/// The thread's z3 context, handed to the watchdog thread.
struct ContextPointer(z3_sys::Z3_context);

// SAFETY: the pointer is only passed to `Z3_interrupt`, which z3 provides to be called
// from another thread, and only while the context lives: the watchdog is joined before
// the thread that owns the context can end (`Watchdog::drop`).
unsafe impl Send for ContextPointer {}

impl ContextPointer {
    fn interrupt(self) {
        // SAFETY: see above; the owner of the context waits for this thread.
        unsafe { z3_sys::Z3_interrupt(self.0) };
    }
}

/// Interrupts this thread's z3 context at the deadline, until dropped.
pub(super) struct Watchdog {
    stop: Option<mpsc::Sender<()>>,
    timer: Option<JoinHandle<()>>,
}

impl Watchdog {
    /// Arms the watchdog for the calling thread's z3 context (nothing without a deadline).
    pub(super) fn arm(deadline: Option<Instant>) -> Watchdog {
        DEADLINE.with(|cell| cell.set(deadline));
        let Some(deadline) = deadline else { return Watchdog { stop: None, timer: None } };
        let context = ContextPointer(z3::Context::thread_local().get_z3_context());
        let (stop, stopped) = mpsc::channel::<()>();
        let timer = std::thread::Builder::new()
            .name("smt:deadline".to_string())
            .spawn(move || {
                let left = deadline.saturating_duration_since(Instant::now());
                if let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(left) {
                    context.interrupt();
                }
            })
            .expect("the system can start a timer thread");
        Watchdog { stop: Some(stop), timer: Some(timer) }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        // Closing the channel wakes the timer, which then ends without interrupting.
        self.stop = None;
        if let Some(timer) = self.timer.take() {
            let _ = timer.join();
        }
        DEADLINE.with(|cell| cell.set(None));
    }
}
