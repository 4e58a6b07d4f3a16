//! The limits of the z3 work of one thread: a watchdog that interrupts z3 at the run's
//! `--time-limit` and when a model's evaluation passes its budget, and the question
//! whether the deadline has passed.
//!
//! A check's `timeout` bounds `check-sat` only. Model evaluation (`Z3_model_eval`, which
//! decoding calls per input, per function application and per element tuple) has no
//! limit of its own, and on axiom-heavy encodings (Boogie's `Test/textbook/BQueue.bpl`)
//! one decoding was seen to take z3 minutes and gigabytes. So a session arms a
//! [`Watchdog`] for its thread's z3 context. It calls `Z3_interrupt`, which z3 documents
//! as safe from another thread and which cancels a check (it answers `unknown`) and an
//! evaluation (it fails), at two times:
//!
//! - **the deadline**: decoding stops, and the query is answered "the run's time limit
//!   was reached": the goal is reported open with that reason, never decided from a
//!   half-read model;
//! - **the end of an evaluation budget** ([`with_evaluation_budget`]): the decoding under
//!   way stops, and the query is answered with that reason. z3 then leaves the context
//!   cancelled until its next check, and meanwhile drops assertions silently (a goal's
//!   guard, a refinement's instance), so the budget's end is followed at once by the
//!   check of an empty solver, which resets it (the unit tests hold z3 to both).
//!
//! The budget replaces z3's own step bound (`model_evaluator.max_steps`), which z3 4.8.12
//! cannot be given safely: that parameter is process-wide, so it bounds the evaluations
//! of model-based quantifier instantiation inside checks too, and an evaluation stopped
//! by it leaves its rewriter's frames behind. The next evaluation of the same model
//! resumes them, and z3 ends the process ("UNEXPECTED CODE WAS REACHED",
//! `rewriter.cpp:262`, exit status 114; replayed from z3's API log on Boogie's
//! `Test/prover/EQ_v2.Eval__v4.Eval_out.bpl` and a Viper heap of
//! `Test/monomorphize/viper`, not with the bound lifted or model-based instantiation
//! off). An interruption unwinds the rewriter cleanly. What z3 does not interrupt
//! (freeing a large context) is bounded by its memory limit and, past the deadline's
//! margin, left behind ([`super::detach`]).
//!
//! The limits are per thread because z3's context is (see [`super::session`]: a session
//! owns a thread, hence a context).

use std::cell::{Cell, RefCell};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

thread_local! {
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
    /// The alarms of this thread's watchdog, while one is armed.
    static ALARMS: RefCell<Option<Arc<Alarms>>> = const { RefCell::new(None) };
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
    fn interrupt(&self) {
        // SAFETY: see above; the owner of the context waits for this thread.
        unsafe { z3_sys::Z3_interrupt(self.0) };
    }
}

/// When the watchdog interrupts, shared by the owner of the context and the watchdog.
struct Alarms {
    times: Mutex<AlarmTimes>,
    changed: Condvar,
}

#[derive(Default)]
struct AlarmTimes {
    deadline: Option<Instant>,
    /// The end of the budget of the evaluation under way, if any.
    evaluation_ends: Option<Instant>,
    /// The last evaluation budget ran out and z3 was interrupted.
    evaluation_interrupted: bool,
    /// The owner dropped the watchdog.
    stopped: bool,
}

impl Alarms {
    fn times(&self) -> MutexGuard<'_, AlarmTimes> {
        // The guard is only held for plain assignments: it cannot be poisoned.
        self.times.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The watchdog's loop: interrupts `context` at each alarm, under the lock, so an
    /// evaluation whose budget was withdrawn is never interrupted afterwards.
    fn watch(&self, context: &ContextPointer) {
        let mut times = self.times();
        while !times.stopped {
            let next = [times.deadline, times.evaluation_ends].into_iter().flatten().min();
            let now = Instant::now();
            times = match next {
                None => self.changed.wait(times).unwrap_or_else(|poisoned| poisoned.into_inner()),
                Some(next) if now < next => {
                    let waited = self.changed.wait_timeout(times, next - now);
                    waited.unwrap_or_else(|poisoned| poisoned.into_inner()).0
                }
                Some(_) => {
                    context.interrupt();
                    if times.deadline.is_some_and(|deadline| now >= deadline) {
                        return;
                    }
                    times.evaluation_ends = None;
                    times.evaluation_interrupted = true;
                    times
                }
            };
        }
    }
}

/// Interrupts this thread's z3 context at the deadline and at the end of evaluation
/// budgets ([`with_evaluation_budget`]), until dropped.
pub(super) struct Watchdog {
    alarms: Arc<Alarms>,
    timer: Option<JoinHandle<()>>,
}

impl Watchdog {
    /// Arms the watchdog for the calling thread's z3 context.
    pub(super) fn arm(deadline: Option<Instant>) -> Watchdog {
        DEADLINE.with(|cell| cell.set(deadline));
        let times = AlarmTimes { deadline, ..AlarmTimes::default() };
        let alarms = Arc::new(Alarms { times: Mutex::new(times), changed: Condvar::new() });
        let context = ContextPointer(z3::Context::thread_local().get_z3_context());
        let watched = Arc::clone(&alarms);
        let timer = std::thread::Builder::new()
            .name("smt:watchdog".to_string())
            .spawn(move || watched.watch(&context))
            .expect("the system can start a timer thread");
        ALARMS.with(|cell| *cell.borrow_mut() = Some(Arc::clone(&alarms)));
        Watchdog { alarms, timer: Some(timer) }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.alarms.times().stopped = true;
        self.alarms.changed.notify_one();
        if let Some(timer) = self.timer.take() {
            let _ = timer.join();
        }
        ALARMS.with(|cell| *cell.borrow_mut() = None);
        DEADLINE.with(|cell| cell.set(None));
    }
}

/// Runs `evaluate` with this thread's z3 work interrupted once `budget` has passed
/// (nothing is, on a thread without a [`Watchdog`]); also says whether it was.
pub(super) fn with_evaluation_budget<T>(budget: Duration, evaluate: impl FnOnce() -> T) -> (T, bool) {
    let Some(alarms) = ALARMS.with(|cell| cell.borrow().clone()) else { return (evaluate(), false) };
    {
        let mut times = alarms.times();
        times.evaluation_ends = Some(Instant::now() + budget);
        times.evaluation_interrupted = false;
    }
    alarms.changed.notify_one();
    let value = evaluate();
    let interrupted = {
        let mut times = alarms.times();
        times.evaluation_ends = None;
        times.evaluation_interrupted
    };
    if interrupted {
        // Any check ends the context's cancellation; an empty solver's costs nothing.
        let _ = z3::Solver::new().check();
    }
    (value, interrupted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::ast::Int;
    use z3::{SatResult, Solver};

    /// A solver of this thread's context asserting `x > 3`, checked once.
    fn solver_past_a_check() -> (Solver, Int) {
        let solver = Solver::new();
        let x = Int::new_const("x");
        solver.assert(x.gt(Int::from_i64(3)));
        assert_eq!(solver.check(), SatResult::Sat);
        (solver, x)
    }

    fn interrupt_this_context() {
        ContextPointer(z3::Context::thread_local().get_z3_context()).interrupt();
    }

    /// What the evaluation budget relies on: an interrupted evaluation fails, and the
    /// next check starts uncancelled.
    #[test]
    fn a_check_after_an_interrupted_evaluation_is_answered() {
        let (solver, x) = solver_past_a_check();
        let model = solver.get_model().expect("a model after sat");
        interrupt_this_context();
        assert!(model.eval(&(x.clone() + Int::from_i64(1)), true).is_none());
        assert_eq!(solver.check(), SatResult::Sat);
        assert!(solver.get_model().and_then(|model| model.eval(&x, true)).is_some());
    }

    /// A simplification in a context the watchdog interrupted (at the run's time limit,
    /// while a session still sets up or decodes a model) has no result, which the
    /// sessions take as "not known", where the crate's `simplify` panics.
    #[test]
    fn a_simplification_in_an_interrupted_context_is_none() {
        let x = Int::new_const("x");
        let width: z3::ast::Dynamic = ((x.clone() + Int::from_i64(512)) - x).into();
        let simplified = crate::smt::model::simplified(&width).and_then(|width| width.as_int()?.as_i64());
        assert_eq!(simplified, Some(512));
        interrupt_this_context();
        assert!(crate::smt::model::simplified(&width).is_none());
    }

    /// Whether an evaluation sleeping 50 ms past a budget of 1 ms was interrupted.
    fn outlived_budget() -> bool {
        let ((), interrupted) =
            with_evaluation_budget(Duration::from_millis(1), || std::thread::sleep(Duration::from_millis(50)));
        interrupted
    }

    #[test]
    fn an_evaluation_past_its_budget_is_interrupted_and_one_within_it_is_not() {
        let _watchdog = Watchdog::arm(None);
        assert!(outlived_budget());
        let ((), interrupted) = with_evaluation_budget(Duration::from_secs(60), || ());
        assert!(!interrupted);
    }

    /// z3 drops an assertion made to a solver that has checked while its context is
    /// cancelled (`x > 3`, then `x < 0` is still `sat`); after an evaluation past its
    /// budget assertions count again.
    #[test]
    fn assertions_count_after_an_evaluation_past_its_budget() {
        let (solver, x) = solver_past_a_check();
        interrupt_this_context();
        solver.assert(x.lt(Int::from_i64(0)));
        assert_eq!(solver.check(), SatResult::Sat);

        let _watchdog = Watchdog::arm(None);
        let (solver, x) = solver_past_a_check();
        assert!(outlived_budget());
        solver.assert(x.lt(Int::from_i64(0)));
        assert_eq!(solver.check(), SatResult::Unsat);
    }
}
